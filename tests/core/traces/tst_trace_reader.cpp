// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/text_file.h"
#include "core/traces/trace_import.h"
#include "core/traces/trace_reader.h"

#include <QTest>

#include <algorithm>

using namespace crossroof::core;

Q_DECLARE_METATYPE(TraceFormat)

class TestTraceReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachFormatRecognisesItsOwnFile_data();
    void eachFormatRecognisesItsOwnFile();
    void everyFormatHasOneReader();
    void headSkipsCommentsAndByteOrderMarks();
};

namespace {

const std::string kData = CROSSROOF_SOURCE_DIR "/tests/data/";

QString formatName(TraceFormat format)
{
    return QString::fromUtf8(traceFormatKey(format).data(), qsizetype(traceFormatKey(format).size()));
}

} // namespace

void TestTraceReader::eachFormatRecognisesItsOwnFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<TraceFormat>("format");
    QTest::addColumn<int>("traces");
    QTest::newRow("ncu raw page") << "ncu_h100_raw.csv" << TraceFormat::NcuCsv << 1;
    QTest::newRow("ncu details page") << "ncu_h100_details.csv" << TraceFormat::NcuCsv << 1;
    QTest::newRow("gpu-stream text") << "gpu_stream_v100.txt" << TraceFormat::GpuStream << 6;
    QTest::newRow("perf stat") << "perf_stat_excerpt.tsv" << TraceFormat::PerfStat << 1;
    QTest::newRow("gpu-benches tidy CSV")
            << "bad/accepted/gpu_benches/tidy-good.csv" << TraceFormat::GpuStreamCsv << 6;
    QTest::newRow("gpu-stream, today's header") << "gpu_benches/stream_mi100.txt" << TraceFormat::GpuStream << 6;
    QTest::newRow("gpu-latency") << "gpu_benches/latency_mi100.txt" << TraceFormat::GpuLatency << 1;
    QTest::newRow("gpu-cache") << "gpu_benches/cache_mi100.txt" << TraceFormat::GpuCache << 1;
    QTest::newRow("gpu-l2-cache") << "gpu_benches/l2-cache_mi100.txt" << TraceFormat::GpuL2Cache << 1;
    QTest::newRow("gpu-l2-stream") << "gpu_benches/l2-stream_mi100.txt" << TraceFormat::GpuL2Stream << 8;
    QTest::newRow("gpu-roofline") << "gpu_benches/roofline_h200.txt" << TraceFormat::GpuRoofline << 1;
    QTest::newRow("gpu-strides") << "gpu_benches/strides_a100.txt" << TraceFormat::GpuStrides << 3;
    QTest::newRow("CSV table") << "h100_sxm/stream.csv" << TraceFormat::GenericTable << 0;
    QTest::newRow("CSV table, text columns") << "h100_sxm/latency.csv" << TraceFormat::GenericTable << 0;
}

void TestTraceReader::eachFormatRecognisesItsOwnFile()
{
    QFETCH(QString, file);
    QFETCH(TraceFormat, format);
    QFETCH(int, traces);
    const std::string path = kData + file.toStdString();
    const std::string text = readTextFile(path, 64 << 20, "test files");
    const TraceFileHead head = traceFileHead(std::string_view(text).substr(0, 64 * 1024));

    // The file's own reader recognises it, and none asked before it does.
    const auto readers = traceReaders();
    const auto own = std::find_if(readers.begin(), readers.end(),
                                  [format](const TraceReader *r) { return r->format == format; });
    QVERIFY(own != readers.end());
    QVERIFY2((*own)->recognizes(head), qPrintable(formatName(format)));
    for (auto r = readers.begin(); r != own; ++r)
        QVERIFY2(!(*r)->recognizes(head), qPrintable(formatName((*r)->format) + " took " + file));
    QCOMPARE(detectTraceFormat(path), format);

    // Read through the importer: the reader's traces, each with its origin.
    const TraceFile read = readTraceFile(path);
    QCOMPARE(read.format, format);
    QCOMPARE(int(read.traces.size()), traces);
    QCOMPARE(read.table.has_value(), format == TraceFormat::GenericTable);
    for (std::size_t i = 0; i < read.traces.size(); ++i) {
        QVERIFY(read.traces[i].origin);
        QCOMPARE(read.traces[i].origin->format, format);
        QCOMPARE(read.traces[i].origin->index, i);
    }
}

void TestTraceReader::everyFormatHasOneReader()
{
    const auto readers = traceReaders();
    QCOMPARE(readers.size(), std::size_t(11));
    for (TraceFormat format :
         {TraceFormat::GpuStream, TraceFormat::GpuStreamCsv, TraceFormat::GpuLatency, TraceFormat::GpuCache,
          TraceFormat::GpuL2Cache, TraceFormat::GpuL2Stream, TraceFormat::GpuRoofline, TraceFormat::GpuStrides,
          TraceFormat::NcuCsv, TraceFormat::PerfStat, TraceFormat::GenericTable}) {
        QCOMPARE(traceReader(format).format, format);
        QCOMPARE(std::count_if(readers.begin(), readers.end(),
                               [format](const TraceReader *r) { return r->format == format; }),
                 1);
    }
    // The table is asked last and takes anything, even an empty file.
    QCOMPARE(readers.back()->format, TraceFormat::GenericTable);
    QVERIFY(readers.back()->recognizes(traceFileHead({})));
}

void TestTraceReader::headSkipsCommentsAndByteOrderMarks()
{
    const TraceFileHead head = traceFileHead("\n  \n# a comment\n\xEF\xBB\xBF\xEF\xBB\xBF"
                                             "a;\"b\"; c\nx;y;z\n");
    QCOMPARE(std::string(head.first_line), std::string("a;\"b\"; c"));
    QCOMPARE(head.fields, (std::vector<std::string> {"a", "b", "c"}));
    QCOMPARE(traceFileHead("  32   2560  3 %\n").fields, (std::vector<std::string> {"32", "2560", "3", "%"}));
    QVERIFY(traceFileHead("# only a comment\n").fields.empty());
}

QTEST_APPLESS_MAIN(TestTraceReader)
#include "tst_trace_reader.moc"
