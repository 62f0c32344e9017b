// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_fixtures.h"

using namespace crossroof;
using namespace crossroof::session_test;

/// Linked traces and training runs: moved with the session, read again, and left out with a message naming the
/// field when unreadable, a FIFO or past the point limit.
class TestSessionLinks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linkedTracesMoveWithTheSession();
    void unreadableLinksLeaveTheTraceOut_data();
    void unreadableLinksLeaveTheTraceOut();
    void badLinksNameTheField_data();
    void badLinksNameTheField();
    void linkToAFifoIsLeftOutInTime();
    void manyLinksToOneFileReadItOnce();
    void linksPastThePointLimitAreLeftOut();
    void linkedTrainingRunsAreReadAgain();
};

void TestSessionLinks::linkedTracesMoveWithTheSession()
{
    // study/sessions/a.crossroof links study/data/v100.txt and study/data/sweep.csv.
    QTemporaryDir dir;
    const QString study = dir.filePath(QStringLiteral("study"));
    QDir().mkpath(study + QStringLiteral("/sessions"));
    QDir().mkpath(study + QStringLiteral("/data"));
    QVERIFY(QFile::copy(kTestData + QStringLiteral("/gpu_stream_v100.txt"), study + QStringLiteral("/data/v100.txt")));
    writeFile(study + QStringLiteral("/data/sweep.csv"), "gpu;warps;GBs\nv100;4;100,5\nv100;8;180\na100;8;300\n");

    core::MeasuredTrace read = core::readTraceFile((study + QStringLiteral("/data/v100.txt")).toStdString()).traces[1];
    read.id = "t4";
    read.name = "V100 read, renamed";
    read.visible = false;
    core::TraceMapping mapping;
    mapping.x = "warps";
    mapping.y = "GBs";
    mapping.filter_column = "gpu";
    mapping.filter_value = "v100";
    core::MeasuredTrace sweep
            = core::traceFromTable(core::readCsv((study + QStringLiteral("/data/sweep.csv")).toStdString()), mapping);
    sweep.id = "t5";
    core::Session s = sample(); // its trace was not read from a file: it stays embedded
    s.traces.push_back(read);
    s.traces.push_back(sweep);
    s.link_traces = true;
    QVERIFY(!core::savesAsLink(s, s.traces[0]));
    QVERIFY(core::savesAsLink(s, s.traces[1]));

    const QString file = study + QStringLiteral("/sessions/a.crossroof");
    const std::string text = core::sessionToJson(s, file.toStdString());
    QVERIFY(text.find("\"link\":\"../data/v100.txt\"") != std::string::npos);
    QVERIFY(text.find("\"link\":\"../data/sweep.csv\"") != std::string::npos);
    QVERIFY(text.find(dir.path().toStdString()) == std::string::npos); // nothing absolute about the data
    QCOMPARE(QString::fromStdString(text).count(QStringLiteral("\"x\":[")), 1); // points of the embedded one only
    writeFile(file, text);

    core::Session back = core::loadSessionFile(file.toStdString());
    QVERIFY(back.trace_problems.empty());
    QVERIFY(back.link_traces);
    QCOMPARE(back.traces.size(), std::size_t(3));
    QVERIFY(back.traces[0] == s.traces[0]);
    QVERIFY(back.traces[1] == read); // the same importer, so the same points; the session's name, id, visibility
    QVERIFY(back.traces[2] == sweep); // the same mapping and filter

    // The session and its data moved together, elsewhere.
    const QString moved = dir.filePath(QStringLiteral("moved"));
    QVERIFY(QDir().rename(study, moved));
    back = core::loadSessionFile((moved + QStringLiteral("/sessions/a.crossroof")).toStdString());
    QVERIFY(back.trace_problems.empty());
    QCOMPARE(back.traces.size(), std::size_t(3));
    QCOMPARE(back.traces[1].x, read.x);
    QCOMPARE(back.traces[1].source, (moved + QStringLiteral("/data/v100.txt")).toStdString());

    // A file gone: the session opens without that trace and says which field and file.
    QVERIFY(QFile::remove(moved + QStringLiteral("/data/v100.txt")));
    back = core::loadSessionFile((moved + QStringLiteral("/sessions/a.crossroof")).toStdString());
    QCOMPARE(back.traces.size(), std::size_t(2));
    QCOMPARE(back.traces[1].name, sweep.name);
    QVERIFY(back.params == s.params);
    QVERIFY(back.occupancy == s.occupancy);
    QCOMPARE(back.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(back.trace_problems.front());
    QVERIFY2(problem.contains(QStringLiteral("a.crossroof: field 'traces[1].link' (../data/v100.txt)"))
                     && problem.contains(moved + QStringLiteral("/data/v100.txt")),
             qPrintable(problem));
    // Saved again, a trace whose file is gone keeps its points.
    s.traces[1].source = (moved + QStringLiteral("/data/v100.txt")).toStdString();
    QVERIFY(!core::savesAsLink(s, s.traces[1]));
}

void TestSessionLinks::unreadableLinksLeaveTheTraceOut_data()
{
    QTest::addColumn<QString>("record");
    QTest::addColumn<QString>("problem");
    const QString stream = QStringLiteral(R"("origin": {"format": "gpu-stream", "index": %1})");
    const QString head = QStringLiteral(R"({"id": "t1", "name": "n", "kind": "%1", "link": "%2", )");
    QTest::newRow("missing") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("gone.txt"))
                                        + stream.arg(0) + QStringLiteral("}")
                             << kTestData + QStringLiteral("/gone.txt: cannot read");
    QTest::newRow("fewer traces") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("gpu_stream_v100.txt"))
                                             + stream.arg(40) + QStringLiteral("}")
                                  << QStringLiteral("holds 6 traces, not the 41");
    QTest::newRow("other kind") << head.arg(QStringLiteral("runtimes"), QStringLiteral("gpu_stream_v100.txt"))
                                           + stream.arg(0) + QStringLiteral("}")
                                << QStringLiteral("now gives a bandwidth-vs-warps trace, not the runtimes trace");
    QTest::newRow("other format") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("perf_stat_excerpt.tsv"))
                                             + stream.arg(0) + QStringLiteral("}")
                                  << kTestData + QStringLiteral("/perf_stat_excerpt.tsv:");
}

void TestSessionLinks::unreadableLinksLeaveTheTraceOut()
{
    QFETCH(QString, record);
    QFETCH(QString, problem);
    const core::Session s = core::parseSession(withTraces("[" + record.toStdString() + "]"), "s.crossroof",
                                               kTestData.toStdString());
    QVERIFY(s.traces.empty());
    QVERIFY(s.params == sample().params);
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString message = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(message.startsWith(QStringLiteral("s.crossroof: field 'traces[0].link' (")), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestSessionLinks::badLinksNameTheField_data()
{
    QTest::addColumn<QString>("record");
    QTest::addColumn<QString>("message");
    const QString origin = QStringLiteral(R"("origin": {"format": "gpu-stream"})");
    QTest::newRow("empty link") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "", )")
                                           + origin + QStringLiteral("}")
                                << "field 'traces[0].link': must not be empty";
    QTest::newRow("no origin") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt"})")
                               << "field 'traces[0].origin': is missing";
    QTest::newRow("bad origin")
            << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt", "origin": {"format": "xls"}})")
            << "field 'traces[0].origin.format': must be gpu-stream";
    QTest::newRow("link and points") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt", "x": [1], )")
                                                + origin + QStringLiteral("}")
                                     << "field 'traces[0].x': a linked trace has no points";
    QTest::newRow("no name") << QStringLiteral(R"({"id": "t1", "kind": "runtimes", "link": "a.txt", )") + origin
                                        + QStringLiteral("}")
                             << "field 'traces[0].name': is missing";
}

void TestSessionLinks::badLinksNameTheField()
{
    QFETCH(QString, record);
    QFETCH(QString, message);
    const QString error = errorOf(withTraces("[" + record.toStdString() + "]"));
    QVERIFY2(error.startsWith(QLatin1String("s.crossroof: ")) && error.contains(message), qPrintable(error));
}

void TestSessionLinks::linkToAFifoIsLeftOutInTime()
{
    // A linked file that became a FIFO nobody writes to: the session opens, without that trace, after the
    // reader's wait rather than never.
    QTemporaryDir dir;
    QVERIFY(::mkfifo(dir.filePath(QStringLiteral("sweep.csv")).toLocal8Bit().constData(), 0600) == 0);
    const std::string record = R"({"id": "t1", "name": "n", "kind": "bandwidth-vs-warps", "link": "sweep.csv", )"
                               R"("origin": {"format": "table", "index": 0, "mapping": {"kind": "bandwidth-vs-warps", "x": "warps", "y": "GBs"}}})";
    QElapsedTimer clock;
    clock.start();
    const core::Session s = core::parseSession(withTraces("[" + record + "]"), "s.crossroof", dir.path().toStdString());
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 + 3000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(s.traces.empty());
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(problem.startsWith(QStringLiteral("s.crossroof: field 'traces[0].link' (sweep.csv): "))
                     && problem.contains(dir.filePath(QStringLiteral("sweep.csv")) + QStringLiteral(": a FIFO that no program writes to")),
             qPrintable(problem));
}

void TestSessionLinks::manyLinksToOneFileReadItOnce()
{
    // 300 traces linked to one measurement file (each of its six kernels 50 times): the file is read once
    // per opening of the session, not once per trace; every trace is what a read of its own gives.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(kTestData + QStringLiteral("/gpu_stream_v100.txt"), dir.filePath(QStringLiteral("v100.txt"))));
    const std::vector<core::MeasuredTrace> direct
            = core::readTraceFile(dir.filePath(QStringLiteral("v100.txt")).toStdString()).traces;
    QCOMPARE(direct.size(), std::size_t(6));
    std::string records;
    for (int i = 0; i < 300; ++i) {
        records += (i ? ", " : "") + ("{\"id\": \"t" + std::to_string(i) + "\", \"name\": \"n\", "
                   "\"kind\": \"bandwidth-vs-warps\", \"link\": \"v100.txt\", "
                   "\"origin\": {\"format\": \"gpu-stream\", \"index\": " + std::to_string(i % 6) + "}}");
    }
    const std::string text = withTraces("[" + records + "]");
    const std::uint64_t before = core::textFilesRead();
    const core::Session s = core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QCOMPARE(core::textFilesRead() - before, std::uint64_t(1));
    QVERIFY(s.trace_problems.empty());
    QCOMPARE(s.traces.size(), std::size_t(300));
    for (std::size_t i = 0; i < s.traces.size(); ++i) {
        QCOMPARE(s.traces[i].x, direct[i % 6].x);
        QCOMPARE(s.traces[i].y, direct[i % 6].y);
    }
    // Opened again, the file is read again (it may have changed in between).
    (void)core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QCOMPARE(core::textFilesRead() - before, std::uint64_t(2));

    // Links to a FIFO nobody writes to: one wait, not one per trace, and each trace says why it is missing.
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("v100.txt"))));
    QVERIFY(::mkfifo(dir.filePath(QStringLiteral("v100.txt")).toLocal8Bit().constData(), 0600) == 0);
    QElapsedTimer clock;
    clock.start();
    const core::Session stuck = core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 + 3000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(stuck.traces.empty());
    QCOMPARE(stuck.trace_problems.size(), std::size_t(300));
    QVERIFY2(QString::fromStdString(stuck.trace_problems.back()).contains(QStringLiteral("a FIFO that no program writes to")),
             stuck.trace_problems.back().c_str());
}

void TestSessionLinks::linksPastThePointLimitAreLeftOut()
{
    // 17 links to a table of 2^21 intervals: 16 of them fill the 2^25 points a session's traces may hold in all,
    // and the 17th is left out with a problem that says why (500 links to a table of 400,000 rows took 9.5 GB
    // and two minutes to draw, each trace its own copy of the points).
    QTemporaryDir dir;
    {
        QFile table(dir.filePath(QStringLiteral("bytes.csv")));
        QVERIFY(table.open(QIODevice::WriteOnly));
        QByteArray text("bytes\n");
        text.reserve(8 << 21);
        for (int i = 0; i < (1 << 21); ++i)
            text += QByteArray::number(1000 + i % 5000) + '\n';
        table.write(text);
    }
    std::string records;
    for (int i = 0; i < 17; ++i) {
        records += (i ? ", " : "") + ("{\"id\": \"t" + std::to_string(i) + "\", \"name\": \"n\", "
                   "\"kind\": \"bytes-per-interval\", \"link\": \"bytes.csv\", \"origin\": {\"format\": \"table\", "
                   "\"index\": 0, \"mapping\": {\"kind\": \"bytes-per-interval\", \"y\": \"bytes\"}}}");
    }
    const core::Session s = core::parseSession(withTraces("[" + records + "]"), "s.crossroof", dir.path().toStdString());
    QCOMPARE(s.traces.size(), std::size_t(16));
    QCOMPARE(s.traces.back().y.size(), std::size_t(1) << 21);
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(problem.contains(QStringLiteral("s.crossroof: field 'traces[16].link'"))
                     && problem.contains(QStringLiteral("left out: its 2097152 points would put the session's traces "
                                                        "over 33554432 points in all")),
             qPrintable(problem));
}

void TestSessionLinks::linkedTrainingRunsAreReadAgain()
{
    QTemporaryDir dir;
    const QString training = dir.filePath(QStringLiteral("runs/training.csv"));
    QDir().mkpath(dir.filePath(QStringLiteral("runs")));
    QVERIFY(QFile::copy(kTraining, training));
    core::Session s = sample();
    s.traces.clear();
    s.link_traces = true;
    s.extrapolate.training = core::readTrainingSet(training.toStdString());
    QVERIFY(core::savesTrainingAsLink(s));
    const QString file = dir.filePath(QStringLiteral("s/a.crossroof"));
    const std::string text = core::sessionToJson(s, file.toStdString());
    const nlohmann::json written = nlohmann::json::parse(text);
    QCOMPARE(written["extrapolate"]["link"].get<std::string>(), std::string("../runs/training.csv"));
    QVERIFY(!written["extrapolate"].contains("rows"));
    writeFile(file, text);
    const core::Session back = core::loadSessionFile(file.toStdString());
    QVERIFY(back.trace_problems.empty());
    QVERIFY(back.extrapolate.training);
    QCOMPARE(back.extrapolate.training->rows.size(), s.extrapolate.training->rows.size());
    QCOMPARE(back.extrapolate.training->rows.back().p, s.extrapolate.training->rows.back().p);

    // The file gone: the session opens without the runs and says which field and file.
    QVERIFY(QFile::remove(training));
    const core::Session gone = core::loadSessionFile(file.toStdString());
    QVERIFY(!gone.extrapolate.training);
    QCOMPARE(gone.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(gone.trace_problems.front());
    QVERIFY2(problem.contains(QLatin1String("field 'extrapolate.link' (../runs/training.csv)")), qPrintable(problem));
}

QTEST_APPLESS_MAIN(TestSessionLinks)
#include "tst_session_links.moc"
