// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/traces/trace_set.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof;

namespace {

QString errorOf(const std::string &text)
{
    try {
        core::traceFromJson(text, "s.crossroof", "traces[2].");
    } catch (const core::InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

core::MeasuredTrace kernels()
{
    core::MeasuredTrace t;
    t.id = "t1";
    t.name = "ncu kernels";
    t.source = "/data/run.csv";
    t.kind = core::TraceKind::KernelPoints;
    t.x = {8, 16.5, 32};
    t.y = {300, 610.25, 880};
    t.extra = {4, std::numeric_limits<double>::quiet_NaN(), 0.5};
    t.labels = {"init", "copy, 2", "triad \"x\""};
    t.visible = false;
    return t;
}

core::MeasuredTrace bytes()
{
    core::MeasuredTrace t;
    t.id = "t2";
    t.name = "imc CAS";
    t.source = "perf.tsv";
    t.kind = core::TraceKind::BytesPerInterval;
    t.x = {1, 2, 3};
    t.extra = {1, 1, 1};
    t.labels = {"reads", "writes"};
    t.y = {10, 20, 30, 1, 2, 3};
    t.origin = core::TraceOrigin {core::TraceFormat::PerfStat, 0, {}};
    return t;
}

core::TraceOrigin tableOrigin()
{
    core::TraceOrigin o;
    o.format = core::TraceFormat::GenericTable;
    o.mapping.kind = core::TraceKind::KernelPoints;
    o.mapping.x = "warps";
    o.mapping.y = "GB/s";
    o.mapping.extra = "Z";
    o.mapping.label = "kernel";
    o.mapping.filter_column = "gpu";
    o.mapping.filter_value = "v100";
    return o;
}

} // namespace

class TestTraceSet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void kindNamesRoundTrip();
    void roundTripKeepsEverything();
    void originRoundTrips();
    void connectionsUnpack();
    void badTracesNameTheField_data();
    void badTracesNameTheField();
};

void TestTraceSet::kindNamesRoundTrip()
{
    for (auto kind : {core::TraceKind::BandwidthVsWarps, core::TraceKind::KernelPoints,
                      core::TraceKind::Runtimes, core::TraceKind::BytesPerInterval}) {
        QCOMPARE(core::traceKindFromName(core::traceKindName(kind)), std::optional(kind));
    }
    QVERIFY(!core::traceKindFromName("points"));
}

void TestTraceSet::roundTripKeepsEverything()
{
    const core::MeasuredTrace k = kernels();
    const std::string text = core::traceToJson(k);
    QVERIFY(text.find("null") != std::string::npos); // the unmeasured Z
    const core::MeasuredTrace back = core::traceFromJson(text, "x.json");
    QCOMPARE(back.id, k.id);
    QCOMPARE(back.name, k.name);
    QCOMPARE(back.source, k.source);
    QCOMPARE(back.kind, k.kind);
    QCOMPARE(back.visible, false);
    QCOMPARE(back.x, k.x);
    QCOMPARE(back.y, k.y);
    QCOMPARE(back.labels, k.labels);
    QCOMPARE(back.extra.size(), std::size_t(3));
    QCOMPARE(back.extra[0], 4.0);
    QVERIFY(std::isnan(back.extra[1]));
    QCOMPARE(back.extra[2], 0.5);

    const core::MeasuredTrace b = bytes();
    QVERIFY(core::traceFromJson(core::traceToJson(b), "x.json") == b);

    // Optional fields may be left out.
    const auto minimal = core::traceFromJson(
            R"({"id": "a", "name": "v100 init", "kind": "bandwidth-vs-warps", "x": [2, 4], "y": [150, 300]})",
            "m");
    QVERIFY(minimal.visible);
    QVERIFY(minimal.extra.empty());
    QCOMPARE(minimal.source, std::string());
}

void TestTraceSet::originRoundTrips()
{
    // How a trace was read goes with it, so that a session can link it to its file later.
    core::MeasuredTrace k = kernels();
    QVERIFY(!core::traceFromJson(core::traceToJson(k), "x.json").origin); // none: none written
    k.origin = tableOrigin();
    QVERIFY(core::traceFromJson(core::traceToJson(k), "x.json").origin == k.origin);
    for (auto format : {core::TraceFormat::GpuStream, core::TraceFormat::GpuStreamCsv, core::TraceFormat::NcuCsv,
                        core::TraceFormat::PerfStat, core::TraceFormat::GenericTable}) {
        QCOMPARE(core::traceFormatFromKey(core::traceFormatKey(format)), std::optional(format));
        core::TraceOrigin o = format == core::TraceFormat::GenericTable ? tableOrigin() : core::TraceOrigin {format, 5, {}};
        QVERIFY(core::traceOriginFromJson(core::traceOriginToJson(o), "x") == o);
    }
}

void TestTraceSet::connectionsUnpack()
{
    const core::MeasuredTrace b = bytes();
    QCOMPARE(core::pointCount(b), std::size_t(3));
    QCOMPARE(core::connectionCount(b), std::size_t(2));
    const auto writes = core::connectionBytes(b, 1);
    QCOMPARE(std::vector<double>(writes.begin(), writes.end()), (std::vector<double> {1, 2, 3}));
    QVERIFY(core::connectionBytes(b, 2).empty());
    QCOMPARE(core::connectionCount(kernels()), std::size_t(0));
}

void TestTraceSet::badTracesNameTheField_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    const QString head = QStringLiteral(R"({"id": "a", "name": "n", )");
    QTest::newRow("not json") << "{"
                              << "s.crossroof: line 1, column 2: invalid JSON";
    QTest::newRow("not object") << "[1]"
                                << "s.crossroof: field 'traces[2]': must be a JSON object";
    QTest::newRow("no kind") << head + R"("x": [1], "y": [1]})"
                             << "field 'traces[2].kind': is missing";
    QTest::newRow("bad kind") << head + R"("kind": "dots", "x": [1], "y": [1]})"
                              << "field 'traces[2].kind': must be bandwidth-vs-warps";
    QTest::newRow("unknown field") << head + R"("kind": "runtimes", "x": [1], "y": [1], "z": 3})"
                                   << "field 'traces[2].z': is not a trace field";
    QTest::newRow("no x") << head + R"("kind": "runtimes", "y": [1]})"
                          << "field 'traces[2].x': is missing";
    QTest::newRow("empty x") << head + R"("kind": "runtimes", "x": [], "y": []})"
                             << "field 'traces[2].x': must hold at least one value";
    QTest::newRow("text in y") << head + R"("kind": "runtimes", "x": [1, 2], "y": [1, "2"]})"
                               << "field 'traces[2].y[1]': must be a number (got string)";
    QTest::newRow("lengths") << head + R"("kind": "bandwidth-vs-warps", "x": [1, 2], "y": [1]})"
                             << "field 'traces[2].y': must hold as many values as x (2; got 1)";
    QTest::newRow("negative") << head + R"("kind": "bandwidth-vs-warps", "x": [1, -2], "y": [1, 2]})"
                              << "field 'traces[2].x[1]': must be >= 0 (got -2)";
    // A negative denormal showed as "got -0.000000", a value that looks allowed.
    QTest::newRow("negative denormal") << head + R"("kind": "bandwidth-vs-warps", "x": [1, 2], "y": [1, -1e-320]})"
                                       << "field 'traces[2].y[1]': must be >= 0 (got -1e-320)";
    QTest::newRow("null outside Z") << head + R"("kind": "runtimes", "x": [1], "y": [1], "extra": [null]})"
                                    << "field 'traces[2].extra[0]': must be a number (got null)";
    QTest::newRow("zero T") << head + R"("kind": "runtimes", "x": [1], "y": [1], "extra": [0]})"
                            << "field 'traces[2].extra[0]': must be threads per core T > 0";
    QTest::newRow("labels") << head + R"("kind": "kernel-points", "x": [1, 2], "y": [1, 2], "labels": ["a"]})"
                            << "field 'traces[2].labels': must be empty or hold one label per point";
    QTest::newRow("connections")
            << head + R"("kind": "bytes-per-interval", "x": [1, 2], "y": [1, 2, 3], "extra": [1, 1], "labels": ["r", "w"]})"
            << "field 'traces[2].y': must hold 2 units for each of the 2 connections (4 values; got 3)";
    const QString kernelPoints = head + R"("kind": "kernel-points", "x": [1], "y": [1], )";
    QTest::newRow("origin format") << kernelPoints + R"("origin": {"format": "excel"}})"
                                   << "field 'traces[2].origin.format': must be gpu-stream, gpu-stream-csv";
    QTest::newRow("origin index") << kernelPoints + R"("origin": {"format": "gpu-stream", "index": -1}})"
                                  << "field 'traces[2].origin.index': must be between 0";
    QTest::newRow("table without mapping") << kernelPoints + R"("origin": {"format": "table"}})"
                                           << "field 'traces[2].origin.mapping': is missing";
    QTest::newRow("mapping without y")
            << kernelPoints + R"("origin": {"format": "table", "mapping": {"kind": "kernel-points", "x": "w"}}})"
            << "field 'traces[2].origin.mapping.y': is missing";
    QTest::newRow("mapping of a stream") << kernelPoints + R"("origin": {"format": "ncu-csv", "mapping": {}}})"
                                         << "field 'traces[2].origin.mapping': is only for format table";
    QTest::newRow("interval")
            << head + R"("kind": "bytes-per-interval", "x": [1], "y": [1], "labels": ["r"]})"
            << "field 'traces[2].extra': must hold the length in seconds";
}

void TestTraceSet::badTracesNameTheField()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    const QString error = errorOf(json.toStdString());
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.startsWith(QStringLiteral("s.crossroof: ")), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestTraceSet)
#include "tst_trace_set.moc"
