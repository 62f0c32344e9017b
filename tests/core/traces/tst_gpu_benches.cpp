// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/csv_table.h"
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"
#include "import_fixtures.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace crossroof;
using test::inputErrorOf;

namespace {

const std::string kDir = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches";

const std::string kSmall = "blockSize   threads       %occ  |                init       read\n"
                           "       32        2560      3 %  |  GB/s:         153         72\n"
                           "       64        5120    6.2 %  |  GB/s:         306        139\n";

bool haveShared()
{
    return QFile::exists(QString::fromStdString(kDir + "/stream/v100.txt"));
}

QString streamError(const std::string &text)
{
    return inputErrorOf([&] { core::parseGpuStream(text, "gpu", "s.txt"); });
}

} // namespace

class TestGpuBenches : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void smallStream();
    void streamFiles_data();
    void streamFiles();
    void streamAndTidyAgree();
    void wholeSet();
    void rejectsStream_data();
    void rejectsStream();
    void rejectsTidy_data();
    void rejectsTidy();
    void oversizedFilesRefused();
    void latencyFiles_data();
    void latencyFiles();
    void rejectsLatency_data();
    void rejectsLatency();
};

void TestGpuBenches::smallStream()
{
    const auto traces = core::parseGpuStream(kSmall, "v100", "s.txt");
    QCOMPARE(traces.size(), std::size_t(2));
    QCOMPARE(traces[0].kernel, std::string("init"));
    QCOMPARE(traces[1].kernel, std::string("read"));
    QCOMPARE(traces[0].gpu, std::string("v100"));
    QCOMPARE(traces[0].warps_per_sm, (std::vector<double> {2, 4})); // 2 * blockSize / 32
    QCOMPARE(traces[1].gbs, (std::vector<double> {72, 139}));
    QCOMPARE(traces[0].sm_count, 80.0);
    QCOMPARE(traces[0].lines, (std::vector<int> {2, 3}));
}

void TestGpuBenches::streamFiles_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("sms");
    QTest::addColumn<QString>("fifth");
    QTest::addColumn<double>("initFirst");
    QTest::addColumn<double>("readLast");
    QTest::newRow("v100") << "v100" << 80.0 << "3pt" << 153.0 << 866.0;
    QTest::newRow("a100_40") << "a100_40" << 108.0 << "1pt" << 159.0 << 1490.0; // its header says 1pt 3pt
    QTest::newRow("a100_80") << "a100_80" << 108.0 << "3pt" << 171.0 << 1769.0;
    QTest::newRow("h100_pcie") << "h100_pcie" << 114.0 << "3pt" << 228.0 << 1942.0;
}

void TestGpuBenches::streamFiles()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    QFETCH(QString, gpu);
    QFETCH(double, sms);
    QFETCH(QString, fifth);
    QFETCH(double, initFirst);
    QFETCH(double, readLast);
    const auto traces = core::readGpuStream(kDir + "/stream/" + gpu.toStdString() + ".txt");
    QCOMPARE(traces.size(), std::size_t(6));
    QCOMPARE(traces[4].kernel, fifth.toStdString());
    for (const auto &t : traces) {
        QCOMPARE(t.gpu, gpu.toStdString());
        QCOMPARE(t.sm_count, sms);
        QCOMPARE(t.warps_per_sm.size(), std::size_t(32));
        QCOMPARE(t.warps_per_sm.front(), 2.0);
        QCOMPARE(t.warps_per_sm.back(), 64.0);
        QCOMPARE(t.lines.front(), 2);
    }
    QCOMPARE(traces[0].kernel, std::string("init"));
    QCOMPARE(traces[0].gbs.front(), initFirst);
    QCOMPARE(traces[1].gbs.back(), readLast);
}

void TestGpuBenches::streamAndTidyAgree()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    // The tidy CSV holds the same numbers (its stencil columns are the fifth and sixth kernel of each file).
    const auto tidy = core::readGpuStreamCsv(kDir + "/stream_vs_warps_per_sm.csv");
    QCOMPARE(tidy.size(), std::size_t(24));
    const std::vector<std::string> tidyKernels {"init", "read", "scale", "triad", "stencil3pt", "stencil5pt"};
    for (const char *gpu : {"v100", "a100_40", "a100_80", "h100_pcie"}) {
        const auto stream = core::readGpuStream(kDir + "/stream/" + gpu + ".txt");
        for (std::size_t k = 0; k < stream.size(); ++k) {
            const core::StreamTrace *t = core::findStreamTrace(tidy, gpu, tidyKernels[k]);
            QVERIFY(t);
            QCOMPARE(t->warps_per_sm, stream[k].warps_per_sm);
            QCOMPARE(t->gbs, stream[k].gbs);
            QCOMPARE(t->sm_count, stream[k].sm_count);
        }
    }
    QVERIFY(!core::findStreamTrace(tidy, "v100", "nonexistent"));
}

void TestGpuBenches::wholeSet()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    const core::GpuBenchesSet set = core::readGpuBenches(kDir);
    QCOMPARE(set.stream.size(), std::size_t(24));
    QCOMPARE(set.tidy.size(), std::size_t(24));
    QCOMPARE(set.stream.front().gpu, std::string("a100_40")); // sorted by file name
    QTemporaryDir empty;
    QCOMPARE(inputErrorOf([&] { core::readGpuBenches(empty.path().toStdString()); }),
             QString::fromStdString(
                     empty.path().toStdString()
                     + ": no gpu-benches stream data (stream/*.txt or stream_vs_warps_per_sm.csv)"));
}

void TestGpuBenches::rejectsStream_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "s.txt: empty file, no gpu-stream output";
    QTest::newRow("blank") << QByteArray("\n\n  \n") << "s.txt: empty file, no gpu-stream output";
    QTest::newRow("comments") << QByteArray("# x\n") << "s.txt: no gpu-stream header, only comment lines";
    QTest::newRow("header only") << QByteArray("blockSize threads %occ | init read\n")
                                 << "s.txt:1: a header but no rows of measurements";
    QTest::newRow("not a header")
            << QByteArray("  size, MB | a\n")
            << "s.txt:1:3: not a gpu-stream header (expected 'blockSize threads %occ | kernel "
               "names...' or 'block smBlocks threads occ% | kernel names...')";
    QTest::newRow("no kernels") << QByteArray("blockSize threads %occ |\n")
                                << "s.txt:1:24: no kernel names after '|'";
    QTest::newRow("no bar") << QByteArray("blockSize threads %occ | init\n   32  2560  3 %  GB/s: 153\n")
                            << "s.txt:2:4: no '|' between the launch columns and the GB/s columns";
    QTest::newRow("no GB/s") << QByteArray("blockSize threads %occ | init\n32 2560 3 % | 153\n")
                             << "s.txt:2:15: expected 'GB/s:' after '|'";
    QTest::newRow("too few values") << QByteArray(
            "blockSize threads %occ | init read\n32 2560 3 % | GB/s: 153\n")
                                    << "s.txt:2:15: 1 values, but the header (line 1) names 2 kernels";
    QTest::newRow("junk value") << QByteArray(
            "blockSize threads %occ | init read\n32 2560 3 % | GB/s: 153 7x2\n")
                                << "s.txt:2:25: read: '7x2' is not a number";
    QTest::newRow("nan") << QByteArray("blockSize threads %occ | init read\n32 2560 3 % | GB/s: nan 72\n")
                         << "s.txt:2:21: init: 'nan' is not a finite number";
    QTest::newRow("inf") << QByteArray("blockSize threads %occ | init read\n32 2560 3 % | GB/s: 153 inf\n")
                         << "s.txt:2:25: read: 'inf' is not a finite number";
    QTest::newRow("negative") << QByteArray("blockSize threads %occ | init\n32 2560 3 % | GB/s: -1\n")
                              << "s.txt:2:21: init: must not be negative (got -1)";
    QTest::newRow("fractional block")
            << QByteArray("blockSize threads %occ | init\n32.5 2560 3 % | GB/s: 1\n")
            << "s.txt:2:1: blockSize: must be a whole number of threads >= 1 (got 32.5)";
    QTest::newRow("binary") << QByteArray("blockSize threads %occ | init\n\x7f"
                                          "ELF\x02\x01\n")
                            << "s.txt:2:1: binary data (byte 0x7f); not gpu-stream files text";
    QTest::newRow("NUL") << QByteArray("blockSize\0", 10)
                         << "s.txt:1:10: binary data (byte 0x00); not gpu-stream files text";
}

void TestGpuBenches::rejectsStream()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QCOMPARE(streamError(text.toStdString()), message);
}

void TestGpuBenches::rejectsTidy_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "t.csv: empty file, no CSV header";
    QTest::newRow("header only") << QByteArray("gpu,warps_per_sm,init_GBs\n")
                                 << "t.csv:1: a header but no data rows";
    QTest::newRow("no gpu") << QByteArray("warps_per_sm,init_GBs\n2,153\n")
                            << "t.csv:1: no column 'gpu' in the header (columns: warps_per_sm, init_GBs)";
    QTest::newRow("no warps") << QByteArray("gpu,init_GBs\nv100,153\n")
                              << "t.csv:1: no column 'warps_per_sm' in the header (columns: gpu, init_GBs)";
    QTest::newRow("no kernels") << QByteArray("gpu,warps_per_sm\nv100,2\n")
                                << "t.csv: no kernel columns (named <kernel>_GBs, e.g. init_GBs)";
    QTest::newRow("nan") << QByteArray("gpu,warps_per_sm,init_GBs\nv100,2,153\nv100,4,NaN\n")
                         << "t.csv:3:8: column 'init_GBs': 'NaN' is not a finite number";
    QTest::newRow("inf warps") << QByteArray("gpu,warps_per_sm,init_GBs\nv100,inf,153\n")
                               << "t.csv:2:6: column 'warps_per_sm': 'inf' is not a finite number";
    QTest::newRow("negative") << QByteArray("gpu,warps_per_sm,init_GBs\nv100,2,-5\n")
                              << "t.csv:2:8: column 'init_GBs': must not be negative";
    QTest::newRow("no gpu name") << QByteArray("gpu,warps_per_sm,init_GBs\n,2,5\n")
                                 << "t.csv:2:1: column 'gpu': is empty, expected a GPU name";
}

void TestGpuBenches::rejectsTidy()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QCOMPARE(inputErrorOf([&] { core::parseGpuStreamCsv(text.toStdString(), "t.csv"); }), message);
}

void TestGpuBenches::oversizedFilesRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string txt = (dir.path() + QStringLiteral("/huge.txt")).toStdString();
    test::makeSparseFile(txt, 300ull * 1000 * 1000, kSmall);
    QCOMPARE(inputErrorOf([&] { core::readGpuStream(txt); }),
             QString::fromStdString(txt + ": 300000000 bytes, over the 16 MiB limit for gpu-stream files"));
    const std::string csv = (dir.path() + QStringLiteral("/huge.csv")).toStdString();
    test::makeSparseFile(csv, 300ull * 1000 * 1000, "gpu,warps_per_sm,init_GBs\n");
    QCOMPARE(inputErrorOf([&] { core::readGpuStreamCsv(csv); }),
             QString::fromStdString(csv + ": 300000000 bytes, over the 64 MiB limit for CSV files"));
    // 10^6 kernel columns.
    std::string wide = "blockSize threads %occ |";
    for (int i = 0; i < 1000000; ++i)
        wide += " k";
    const QString message = streamError(wide + "\n");
    QVERIFY2(message.contains(QStringLiteral("more than 10000 kernels")), qPrintable(message));
}

void TestGpuBenches::latencyFiles_data()
{
    // The bundled profiles took L (the last row's cycles, DRAM), L_s (the first row's, L1) and the clock
    // from these files; reading them again must give the same numbers.
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("clockMhz");
    QTest::addColumn<double>("dram");
    QTest::addColumn<double>("l1");
    QTest::newRow("v100") << "v100" << 1380.0 << 437.0 << 29.9;
    QTest::newRow("a100_40") << "a100_40" << 1410.0 << 574.6 << 36.0;
    QTest::newRow("a100_80") << "a100_80" << 1410.0 << 571.8 << 36.0;
    QTest::newRow("h100_pcie") << "h100_pcie" << 1755.0 << 658.4 << 34.2;
}

void TestGpuBenches::latencyFiles()
{
    if (!haveShared())
        QSKIP("the shared gpu-benches data is not present");
    QFETCH(QString, gpu);
    QFETCH(double, clockMhz);
    QFETCH(double, dram);
    QFETCH(double, l1);
    const std::string path = kDir + "/latency/" + gpu.toStdString() + ".txt";
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(core::looksLikeGpuLatency(std::string_view(text.constData(), std::size_t(text.size()))));
    const core::GpuLatency latency = core::readGpuLatency(path);
    QCOMPARE(latency.gpu, gpu.toStdString());
    QCOMPARE(latency.clock_mhz, clockMhz);
    QVERIFY(latency.cycles.size() > 90);
    QCOMPARE(latency.lines.front(), 2); // after the clock line
    QCOMPARE(latency.largestChainCycles(), dram);
    QCOMPARE(latency.smallestChainCycles(), l1);
    // DRAM is slower than L1, and the chain grows down the file.
    QVERIFY(latency.largestChainCycles() > 5 * latency.smallestChainCycles());
    QVERIFY(std::is_sorted(latency.chain_kb.begin(), latency.chain_kb.end()));
    // A stream file and a table are not latency output.
    QVERIFY(!core::looksLikeGpuLatency(kSmall));
    QVERIFY(!core::looksLikeGpuLatency("gpu,warps_per_sm,init_GBs\nv100,2,5\n"));
}

void TestGpuBenches::rejectsLatency_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray("") << "l.txt: no gpu-latency rows";
    QTest::newRow("clock only") << QByteArray("clock: 1380 1380\n")
                                << "l.txt: no gpu-latency rows (steps, clock MHz, chain kB, time ms, cycles)";
    QTest::newRow("four fields") << QByteArray("clock: 1380\n 1000000 1380 1 21.7\n")
                                 << "l.txt:2:2: 4 fields; gpu-latency rows have 5 (steps, clock MHz, chain kB, "
                                    "time ms, cycles)";
    QTest::newRow("inf cycles") << QByteArray("1000000 1380 1 21.7 inf\n")
                                << "l.txt:1:21: latency (cycles): 'inf' is not a finite number";
    QTest::newRow("zero clock") << QByteArray("1000000 0 1 21.7 29.9\n")
                                << "l.txt:1:9: clock (MHz): must be above 0 and at most 100000 (got 0)";
    QTest::newRow("word") << QByteArray("1000000 1380 big 21.7 29.9\n")
                          << "l.txt:1:14: chain size (kB): 'big' is not a number";
}

void TestGpuBenches::rejectsLatency()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const QString error = inputErrorOf([&] { core::parseGpuLatency(text.toStdString(), "gpu", "l.txt"); });
    QVERIFY2(error.startsWith(message), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestGpuBenches)
#include "tst_gpu_benches.moc"
