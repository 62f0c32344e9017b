// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/trace_state.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const QString kShared = QStringLiteral(CROSSROOF_SHARED_DIR "/data");
const QString kTestData = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data");

bool haveShared()
{
    return QFile::exists(kShared + QStringLiteral("/gpu-benches/stream/v100.txt"));
}

core::MeasuredTrace sampleTrace(const std::string &name)
{
    core::MeasuredTrace t;
    t.name = name;
    t.source = "/tmp/" + name + ".csv";
    t.x = {1, 2, 3};
    t.y = {10, 20, 25};
    return t;
}

} // namespace

class TestTraceState : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void stateSignalsOnlyOnChange();
    void setTracesKeepsSessionIds();
    void detectsEachFormat_data();
    void detectsEachFormat();
    void importsGpuStreamText();
    void tidyCsvShowsTheProfilesGpu();
    void importsNcuKernels();
    void importsPerfStatTraffic();
    void genericTableNeedsAMapping();
    void mappingBuildsEachKind();
    void badFilesNameTheFile_data();
    void badFilesNameTheFile();
    void badMappingsNameTheCell();

private:
    QString write(const QString &name, const QByteArray &content);
    QTemporaryDir m_dir;
};

void TestTraceState::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

QString TestTraceState::write(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

void TestTraceState::stateSignalsOnlyOnChange()
{
    TraceState state;
    QSignalSpy changed(&state, &TraceState::changed);
    QSignalSpy added(&state, &TraceState::traceAdded);
    QSignalSpy removed(&state, &TraceState::traceRemoved);
    QSignalSpy edited(&state, &TraceState::traceChanged);

    std::vector<core::MeasuredTrace> two {sampleTrace("a"), sampleTrace("b")};
    two[0].id = "ignored";
    const QStringList ids = state.add(two);
    QCOMPARE(ids, (QStringList {QStringLiteral("t1"), QStringLiteral("t2")}));
    QCOMPARE(changed.count(), 1); // one change for the whole file
    QCOMPARE(added.count(), 2);
    QCOMPARE(state.trace(QStringLiteral("t2"))->name, std::string("b"));
    QVERIFY(!state.trace(QStringLiteral("ignored")));

    state.setVisible(QStringLiteral("t1"), true); // already visible
    state.rename(QStringLiteral("t1"), QStringLiteral("a"));
    state.rename(QStringLiteral("t1"), QStringLiteral("   "));
    state.setVisible(QStringLiteral("nope"), false);
    QCOMPARE(changed.count(), 1);

    state.setVisible(QStringLiteral("t1"), false);
    state.rename(QStringLiteral("t2"), QStringLiteral(" renamed "));
    QCOMPARE(changed.count(), 3);
    QCOMPARE(edited.count(), 2);
    QVERIFY(!state.trace(QStringLiteral("t1"))->visible);
    QCOMPARE(state.trace(QStringLiteral("t2"))->name, std::string("renamed"));

    QVERIFY(state.remove(QStringLiteral("t1")));
    QVERIFY(!state.remove(QStringLiteral("t1")));
    QCOMPARE(removed.count(), 1);
    QCOMPARE(state.ids(), QStringList {QStringLiteral("t2")});
    // Ids are never reused within a session.
    QCOMPARE(state.add(sampleTrace("c")), QStringLiteral("t3"));
}

void TestTraceState::setTracesKeepsSessionIds()
{
    TraceState state;
    std::vector<core::MeasuredTrace> saved {sampleTrace("a"), sampleTrace("b"), sampleTrace("c")};
    saved[0].id = "t7";
    saved[1].id = "t7"; // a duplicate gets a new id
    saved[2].id = "";
    QSignalSpy changed(&state, &TraceState::changed);
    state.setTraces(saved);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(state.ids(), (QStringList {QStringLiteral("t7"), QStringLiteral("t8"), QStringLiteral("t9")}));
    // Through JSON (how a session embeds them) and back, unchanged.
    const core::MeasuredTrace back
            = core::traceFromJson(core::traceToJson(*state.trace(QStringLiteral("t8"))), "s");
    QVERIFY(back == *state.trace(QStringLiteral("t8")));
    state.clear();
    QVERIFY(state.traces().empty());
    QCOMPARE(changed.count(), 2);
}

void TestTraceState::detectsEachFormat_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("format");
    QTest::newRow("ncu") << kTestData + QStringLiteral("/ncu_stream_synthetic.csv")
                         << int(TraceFormat::NcuCsv);
    QTest::newRow("perf") << kTestData + QStringLiteral("/perf_stat_excerpt.tsv")
                          << int(TraceFormat::PerfStat);
    if (haveShared()) {
        QTest::newRow("stream txt") << kShared + QStringLiteral("/gpu-benches/stream/v100.txt")
                                    << int(TraceFormat::GpuStream);
        QTest::newRow("tidy csv") << kShared + QStringLiteral("/gpu-benches/stream_vs_warps_per_sm.csv")
                                  << int(TraceFormat::GpuStreamCsv);
        QTest::newRow("latency txt") << kShared + QStringLiteral("/gpu-benches/latency/v100.txt")
                                     << int(TraceFormat::GpuLatency);
        QTest::newRow("latency, today's") << kShared + QStringLiteral("/gpu-benches/current/latency_mi100.txt")
                                          << int(TraceFormat::GpuLatency);
        QTest::newRow("stream, today's") << kShared + QStringLiteral("/gpu-benches/current/stream_mi100.txt")
                                         << int(TraceFormat::GpuStream);
    }
    QTest::newRow("missing") << QStringLiteral("/nonexistent/x.csv") << int(TraceFormat::GenericTable);
}

void TestTraceState::detectsEachFormat()
{
    QFETCH(QString, path);
    QFETCH(int, format);
    QCOMPARE(int(core::detectTraceFormat(path.toStdString())), format);
}

void TestTraceState::importsGpuStreamText()
{
    if (!haveShared())
        QSKIP("../shared/data is not here");
    const QString path = kShared + QStringLiteral("/gpu-benches/stream/v100.txt");
    const TraceLoad load = loadTraceFile(path);
    QVERIFY2(load.ok(), qPrintable(load.error));
    QCOMPARE(load.format, TraceFormat::GpuStream);
    QCOMPARE(load.traces.size(), std::size_t(6));
    const auto &init = load.traces.front();
    QCOMPARE(init.name, std::string("v100 init"));
    QCOMPARE(init.source, path.toStdString());
    QCOMPARE(init.kind, core::TraceKind::BandwidthVsWarps);
    QCOMPARE(init.x.size(), std::size_t(32));
    QCOMPARE(init.x.front(), 2.0); // two blocks of 32 threads per SM
    QCOMPARE(init.y.front(), 153.0);
    for (const auto &t : load.traces)
        QVERIFY(t.visible);
}

void TestTraceState::tidyCsvShowsTheProfilesGpu()
{
    if (!haveShared())
        QSKIP("../shared/data is not here");
    const QString path = kShared + QStringLiteral("/gpu-benches/stream_vs_warps_per_sm.csv");
    const TraceLoad load = loadTraceFile(path, QStringLiteral("a100-40"));
    QVERIFY2(load.ok(), qPrintable(load.error));
    QCOMPARE(load.traces.size(), std::size_t(24)); // 4 GPUs x 6 kernels
    int visible = 0;
    for (const auto &t : load.traces) {
        if (t.visible) {
            ++visible;
            QVERIFY2(t.name.rfind("a100_40 ", 0) == 0, t.name.c_str());
        }
    }
    QCOMPARE(visible, 6);
    // Without a matching profile, the first GPU of the file.
    const TraceLoad other = loadTraceFile(path, QStringLiteral("gtx480-sp"));
    QCOMPARE(other.traces.front().visible, true);
    QCOMPARE(other.traces[6].visible, false);
}

void TestTraceState::importsNcuKernels()
{
    const QString path = kTestData + QStringLiteral("/ncu_stream_synthetic.csv");
    const TraceLoad load = loadTraceFile(path);
    QVERIFY2(load.ok(), qPrintable(load.error));
    QCOMPARE(load.traces.size(), std::size_t(1));
    const auto &t = load.traces.front();
    QCOMPARE(t.kind, core::TraceKind::KernelPoints);
    QCOMPARE(t.name, std::string("ncu_stream_synthetic kernels"));
    QVERIFY(t.origin == (core::TraceOrigin {core::TraceFormat::NcuCsv, 0, {}})); // enough to read it again
    QCOMPARE(t.x.size(), std::size_t(5));
    QCOMPARE(t.x.front(), 3.91);
    QCOMPARE(t.y.front(), 407.12);
    QCOMPARE(t.extra.front(), 9.0); // Z = instructions / requests
    QCOMPARE(t.labels.size(), std::size_t(5));
    QVERIFY(QString::fromStdString(t.labels.back()).startsWith(QStringLiteral("read_kernel<double> [4]")));
}

void TestTraceState::importsPerfStatTraffic()
{
    QStringList files {kTestData + QStringLiteral("/perf_stat_excerpt.tsv")};
    if (haveShared())
        files << kShared + QStringLiteral("/perf-stat/perf_result.tsv");
    for (const QString &path : files) {
        const TraceLoad load = loadTraceFile(path);
        QVERIFY2(load.ok(), qPrintable(load.error));
        QCOMPARE(load.format, TraceFormat::PerfStat);
        const auto &t = load.traces.front();
        QCOMPARE(t.kind, core::TraceKind::BytesPerInterval);
        // The excerpt holds CPU0's memory controllers only: reads and writes. The full file, perf stat -A on
        // two sockets, each socket's (reported on CPU0 and CPU16): a connection each.
        const bool sockets = path.startsWith(kShared);
        QCOMPARE(t.labels, sockets ? (std::vector<std::string> {"socket 0 (CPU0)", "socket 1 (CPU16)"})
                                   : (std::vector<std::string> {"reads", "writes"}));
        QVERIFY(t.x.size() >= 3);
        QCOMPARE(t.y.size(), 2 * t.x.size());
        QVERIFY(std::abs(t.extra[1] - 1.0) < 0.02); // one-second intervals (perf -I 1000 runs a little late)
        double reads = 0; // (socket 0's reads and writes in the full file)
        for (double v : core::connectionBytes(t, 0))
            reads += v;
        QVERIFY(reads > 0);
        QCOMPARE(std::fmod(reads, 64.0), 0.0); // whole cache lines
    }
}

void TestTraceState::genericTableNeedsAMapping()
{
    const QString path = write(QStringLiteral("sweep.csv"), "run;warps;GBs\na;4;100,5\nb;8;180\n");
    const TraceLoad load = loadTraceFile(path);
    QVERIFY2(load.ok(), qPrintable(load.error));
    QVERIFY(load.needsMapping());
    QVERIFY(load.traces.empty());
    QCOMPARE(load.table->rowCount(), std::size_t(2));
    QCOMPARE(load.table->decimalSeparator(), ',');
}

void TestTraceState::mappingBuildsEachKind()
{
    const QString path = write(QStringLiteral("runs.csv"), "gpu,warps,gbs,z,kernel,blocks,threads,seconds\n"
                                                           "v100,4,300,8,init,15,1,1.5\n"
                                                           "v100,8,600,,copy,30,1,2.1\n"
                                                           "a100,8,700,2,init,45,2,2.4\n");
    const core::CsvTable table = *loadTraceFile(path).table;

    TraceMapping m;
    m.x = "warps";
    m.y = "gbs";
    m.filter_column = "gpu";
    m.filter_value = "v100";
    TraceLoad bw = tracesFromTable(table, m);
    QVERIFY2(bw.ok(), qPrintable(bw.error));
    QCOMPARE(bw.traces.front().x, (std::vector<double> {4, 8}));
    QCOMPARE(bw.traces.front().name, std::string("runs: gbs where gpu = v100"));
    QCOMPARE(bw.traces.front().source, path.toStdString());
    QVERIFY(bw.traces.front().origin == (core::TraceOrigin {core::TraceFormat::GenericTable, 0, m}));

    m.kind = core::TraceKind::KernelPoints;
    m.filter_column.clear();
    m.extra = "z";
    m.label = "kernel";
    const TraceLoad kp = tracesFromTable(table, m);
    QVERIFY2(kp.ok(), qPrintable(kp.error));
    QCOMPARE(kp.traces.front().extra[0], 8.0);
    QVERIFY(std::isnan(kp.traces.front().extra[1])); // an empty Z cell: not measured
    QCOMPARE(kp.traces.front().labels[1], std::string("copy"));

    TraceMapping rt;
    rt.kind = core::TraceKind::Runtimes;
    rt.x = "blocks";
    rt.y = "seconds";
    rt.extra = "threads";
    const TraceLoad runs = tracesFromTable(table, rt);
    QVERIFY2(runs.ok(), qPrintable(runs.error));
    QCOMPARE(runs.traces.front().extra, (std::vector<double> {1, 1, 2}));

    TraceMapping bytes;
    bytes.kind = core::TraceKind::BytesPerInterval;
    bytes.x = "seconds";
    bytes.y = "gbs";
    bytes.extra = "warps";
    const TraceLoad b = tracesFromTable(table, bytes);
    QVERIFY2(b.ok(), qPrintable(b.error));
    const auto &t = b.traces.front();
    QCOMPARE(core::connectionCount(t), std::size_t(2));
    QCOMPARE(t.labels, (std::vector<std::string> {"gbs", "warps"}));
    QVERIFY(std::abs(t.extra[0] - 0.6) < 1e-12); // the first interval as long as the second
    QVERIFY(std::abs(t.extra[2] - 0.3) < 1e-12);
}

void TestTraceState::badFilesNameTheFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "empty.csv" << QByteArray() << "empty";
    QTest::newRow("binary junk") << "junk.csv"
                                 << QByteArray("\x7f"
                                               "ELF\x02\x01\x01\0\0\0\x03\0>\0",
                                               14) // the literal's bytes, its terminator not included
                                 << "binary data";
    QTest::newRow("header only") << "header.csv" << QByteArray("warps,gbs\n") << "no data rows";
    QTest::newRow("stream without GB/s") << "v100.txt"
                                         << QByteArray("blockSize   threads       %occ  |   init   read\n"
                                                       "32 2560 3 % | 153 72\n")
                                         << "v100.txt:2:";
    QTest::newRow("tidy without kernels")
            << "tidy.csv" << QByteArray("gpu,warps_per_sm,init_GBs\nv100,2,abc\n") << "tidy.csv:2:";
    QTest::newRow("perf without imc") << "perf.csv"
                                      << QByteArray("1.001,CPU0,1000,,cycles,1000,100.00,,\n"
                                                    "1.001,CPU0,900,,instructions,1000,100.00,,\n")
                                      << "perf.csv";
    QTest::newRow("ncu without metrics")
            << "ncu.csv"
            << QByteArray("==PROF== Connected\n\"ID\",\"Kernel Name\",\"Metric Name\","
                          "\"Metric Unit\",\"Metric Value\"\n"
                          "\"0\",\"k\",\"Duration\",\"usecond\",\"3\"\n")
            << "ncu.csv: no kernel has both";
    QTest::newRow("ncu report") << "run.ncu-rep" << QByteArray("NVPROF") << "export it as CSV";
}

void TestTraceState::badFilesNameTheFile()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    const QString path = write(name, content);
    const TraceLoad load = loadTraceFile(path);
    QVERIFY(!load.ok());
    QVERIFY(load.traces.empty());
    QVERIFY(!load.table);
    QVERIFY2(load.error.contains(path), qPrintable(load.error));
    QVERIFY2(load.error.contains(message), qPrintable(load.error));
}

void TestTraceState::badMappingsNameTheCell()
{
    const QString path = write(QStringLiteral("cells.csv"), "warps,gbs,note\n4,100,a\n8,n/a,b\n12,-3,c\n");
    const core::CsvTable table = *loadTraceFile(path).table;
    TraceMapping m;
    m.x = "warps";
    m.y = "GBs";
    TraceLoad load = tracesFromTable(table, m);
    QVERIFY2(load.error.startsWith(path) && load.error.contains(QStringLiteral("GBs")),
             qPrintable(load.error));
    m.y = "gbs";
    load = tracesFromTable(table, m);
    QVERIFY2(load.error.startsWith(path + QStringLiteral(":3:"))
                     && load.error.contains(QStringLiteral("n/a")),
             qPrintable(load.error));
    m.filter_column = "note";
    m.filter_value = "c";
    load = tracesFromTable(table, m);
    QVERIFY2(load.error.startsWith(path + QStringLiteral(":4:"))
                     && load.error.contains(QStringLiteral("negative")),
             qPrintable(load.error));
    m.filter_value = "z";
    load = tracesFromTable(table, m);
    QVERIFY2(load.error.contains(QStringLiteral("no rows where note = z")), qPrintable(load.error));
    QVERIFY(load.traces.empty());
    m.y.clear();
    QVERIFY(tracesFromTable(table, m).error.contains(QStringLiteral("choose the column")));
}

QTEST_GUILESS_MAIN(TestTraceState)
#include "tst_trace_state.moc"
