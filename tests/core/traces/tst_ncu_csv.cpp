// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/csv_table.h"
#include "support/error.h"
#include "import_fixtures.h"
#include "traces/ncu_csv.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace crossroof;
using test::inputErrorOf;

namespace {

const std::string kFixture = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_stream_synthetic.csv";

const std::string kHeader
        = "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

std::string row(const std::string &id, const std::string &metric, const std::string &unit,
                const std::string &value)
{
    return "\"" + id + "\",\"k(int, float)\",\"S\",\"" + metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

QString ncuError(const std::string &text)
{
    return inputErrorOf([&] { core::parseNcuCsv(text, "n.csv"); });
}

} // namespace

class TestNcuCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixture();
    void concatenatedRuns();
    void rawPage();
    void summaryPage();
    void units_data();
    void units();
    void metricPriority();
    void rejects_data();
    void rejects();
    void limits();
};

void TestNcuCsv::fixture()
{
    const core::NcuReport r = core::readNcuCsv(kFixture);
    QVERIFY(r.long_form);
    QCOMPARE(r.kernels.size(), std::size_t(5));
    const core::NcuKernel &first = r.kernels.front();
    QCOMPARE(first.id, std::string("0"));
    QCOMPARE(first.name, std::string("void init_kernel<double>(double *, double, long)"));
    QCOMPARE(first.block_size, std::string("(64, 1, 1)"));
    QCOMPARE(first.grid_size, std::string("(216, 1, 1)"));
    QCOMPARE(first.device, std::string("0"));
    QCOMPARE(first.line, 10); // after eight profiler/program lines and the header
    QCOMPARE(*first.warps_per_sm, 3.91);
    QCOMPARE(*first.dram_gbs, 407.12);
    QCOMPARE(*first.dram_percent, 26.17);
    QCOMPARE(*first.instructions, 9437184.0);
    QCOMPARE(*first.requests_ld, 0.0);
    QCOMPARE(*first.requests(), 1048576.0);
    QCOMPARE(*first.sectors(), 8388608.0);
    QCOMPARE(*first.intensity(), 9.0); // 9 warp-instructions per warp-level store
    QCOMPARE(*first.intensityFromSectors(128), 4.5); // a 256-byte store is two 128-byte requests

    QCOMPARE(*r.kernels[2].dram_gbs, 1470.0); // 1.47 Tbyte/second
    QCOMPARE(*r.kernels[3].dram_gbs, 1500.0);
    QCOMPARE(*r.kernels[3].warps_per_sm, 30.87);

    const core::NcuKernel &read = r.kernels[4];
    QCOMPARE(read.name, std::string("void read_kernel<double>(const double *, double *, long)"));
    QVERIFY(std::abs(*read.dram_gbs - (640.25 + 0.1125)) < 1e-9); // read + write parts, the total was n/a
    QVERIFY(!read.sectors());
    QVERIFY(!read.intensityFromSectors(128));
    QVERIFY(std::abs(*read.intensity() - 12584112.0 / (1048576 + 216)) < 1e-12);

    std::vector<double> warps, gbs;
    core::ncuOccupancyTrace(r, warps, gbs);
    QCOMPARE(warps, (std::vector<double> {3.91, 7.83, 15.52, 30.87, 15.61}));
    QCOMPARE(gbs.size(), std::size_t(5));
}

void TestNcuCsv::concatenatedRuns()
{
    // Two runs in one file: the second header restarts the launch IDs; a line mentioning Kernel Name in the
    // program's output before the real header is not taken for it.
    const std::string text = "Kernel Name: saxpy\n" + kHeader + row("0", "Achieved Active Warps Per SM", "warp", "8")
                             + "==PROF== Disconnected from process 1\n" + kHeader
                             + row("0", "Achieved Active Warps Per SM", "warp", "16");
    const core::NcuReport r = core::parseNcuCsv(text, "n.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(r.kernels[0].id, std::string("0"));
    QCOMPARE(r.kernels[1].id, std::string("0"));
    QCOMPARE(*r.kernels[1].warps_per_sm, 16.0);
    QCOMPARE(r.kernels[1].line, 6);
}

void TestNcuCsv::rawPage()
{
    // ncu --csv --page raw: one row per kernel, units in the row under the header.
    const std::string text = "\"ID\",\"Kernel Name\",\"Block Size\",\"dram__bytes.sum.per_second\","
                             "\"sm__warps_active.avg.per_cycle_active\",\"smsp__inst_executed.sum\","
                             "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"launch__grid_size\"\n"
                             "\"\",\"\",\"\",\"Tbyte/second\",\"warp\",\"inst\",\"request\",\"\"\n"
                             "\"0\",\"copy(float *, const float *)\",\"(128, 1, "
                             "1)\",\"1.25\",\"12.5\",\"2,000\",\"500\",\"640\"\n"
                             "\"1\",\"copy(float *, const float *)\",\"(256, 1, "
                             "1)\",\"1.50\",\"24.25\",\"2,000\",\"500\",\"320\"\n";
    const core::NcuReport r = core::parseNcuCsv(text, "raw.csv");
    QVERIFY(!r.long_form);
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(*r.kernels[1].dram_gbs, 1500.0);
    QCOMPARE(*r.kernels[1].warps_per_sm, 24.25);
    QCOMPARE(*r.kernels[0].intensity(), 4.0);
    QCOMPARE(r.kernels[0].line, 3);
    const QString bad = ncuError("\"ID\",\"Kernel Name\",\"dram__bytes.sum.per_second\"\n"
                                 "\"\",\"\",\"furlong/fortnight\"\n\"0\",\"k\",\"1\"\n");
    QCOMPARE(bad,
             QStringLiteral("n.csv:2:7: column 'dram__bytes.sum.per_second': unit 'furlong/fortnight' of "
                            "metric 'dram__bytes.sum.per_second' is not a byte rate (e.g. Gbyte/second)"));
}

void TestNcuCsv::summaryPage()
{
    // --print-summary per-kernel: "Average" values, no ID: one entry per kernel name.
    const std::string text
            = "\"Process ID\",\"Kernel Name\",\"Invocations\",\"Section Name\",\"Metric Name\","
              "\"Metric Unit\",\"Minimum\",\"Maximum\",\"Average\"\n"
              "\"1\",\"a\",\"2\",\"Occupancy\",\"Achieved Active Warps Per "
              "SM\",\"warp\",\"10\",\"30\",\"20\"\n"
              "\"1\",\"b\",\"2\",\"Occupancy\",\"Achieved Active Warps Per SM\",\"warp\",\"1\",\"3\",\"2\"\n"
              "\"1\",\"a\",\"2\",\"SOL\",\"DRAM Throughput\",\"Gbyte/second\",\"100\",\"300\",\"200\"\n";
    const core::NcuReport r = core::parseNcuCsv(text, "s.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(r.kernels[0].id, std::string("a"));
    QCOMPARE(*r.kernels[0].warps_per_sm, 20.0);
    QCOMPARE(*r.kernels[0].dram_gbs, 200.0);
    QVERIFY(!r.kernels[1].dram_gbs);
}

void TestNcuCsv::units_data()
{
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("factor");
    QTest::newRow("byte/second") << "byte/second" << 1e-9;
    QTest::newRow("Kbyte/second") << "Kbyte/second" << 1e-6;
    QTest::newRow("Mbyte/second") << "Mbyte/second" << 1e-3;
    QTest::newRow("Gbyte/second") << "Gbyte/second" << 1.0;
    QTest::newRow("Tbyte/second") << "Tbyte/second" << 1e3;
    QTest::newRow("Gbyte/s") << "Gbyte/s" << 1.0;
    QTest::newRow("Gibyte/second") << "Gibyte/second" << 1.073741824;
    QTest::newRow("%") << "%" << -1.0;
    QTest::newRow("Xbyte/second") << "Xbyte/second" << -1.0;
    QTest::newRow("byte") << "byte" << -1.0;
    QTest::newRow("empty") << "" << -1.0;
}

void TestNcuCsv::units()
{
    QFETCH(QString, unit);
    QFETCH(double, factor);
    const auto f = core::ncuRateToGbs(unit.toStdString());
    QCOMPARE(f.has_value(), factor > 0);
    if (f)
        QVERIFY(std::abs(*f / factor - 1) < 1e-12);
}

void TestNcuCsv::metricPriority()
{
    // The raw total wins over the display name; the display name in % is a percentage, not a rate.
    const std::string text = kHeader + row("7", "DRAM Throughput", "%", "80")
                             + row("7", "DRAM Throughput", "Gbyte/second", "700")
                             + row("7", "dram__bytes.sum.per_second", "Gbyte/second", "1,234.5")
                             + row("7", "dram__bytes.sum.per_second", "Gbyte/second", "999")
                             + row("7", "Memory Throughput", "Gbyte/second", "5")
                             + row("8", "DRAM Throughput", "Gbyte/second", "700")
                             + row("8", "smsp__inst_executed.sum", "Kinst", "3")
                             + row("8", "Achieved Active Warps Per SM", "", "n/a");
    const core::NcuReport r = core::parseNcuCsv(text, "n.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(*r.kernels[0].dram_gbs, 1234.5);
    QCOMPARE(*r.kernels[0].dram_percent, 80.0);
    QCOMPARE(*r.kernels[1].dram_gbs, 700.0);
    QCOMPARE(*r.kernels[1].instructions, 3000.0);
    QVERIFY(!r.kernels[1].warps_per_sm);
    QVERIFY(!r.kernels[1].intensity());
}

void TestNcuCsv::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "n.csv: empty file, no CSV header";
    QTest::newRow("profiler lines only")
            << QByteArray("==PROF== Connected to process 1\n==PROF== Disconnected\n")
            << "n.csv: no column 'Kernel Name'; not ncu --csv output (columns: ==PROF== "
               "Connected to process 1)";
    QTest::newRow("header only") << QByteArray(kHeader.c_str()) << "n.csv:1: a header but no data rows";
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                            << "n.csv:1:1: binary data (byte 0x89 is not valid UTF-8); not ncu CSV text";
    QTest::newRow("no kernel name")
            << QByteArray("\"ID\",\"Metric Name\",\"Metric Value\"\n\"1\",\"x\",\"2\"\n")
            << "n.csv: no column 'Kernel Name'; not ncu --csv output (columns: ID, Metric "
               "Name, Metric Value)";
    QTest::newRow("no value") << QByteArray("\"ID\",\"Kernel Name\",\"Metric Name\"\n\"1\",\"k\",\"x\"\n")
                              << "n.csv: no column 'Metric Value' (or 'Average') next to 'Metric Name'";
    QTest::newRow("no metrics")
            << QByteArray("\"ID\",\"Kernel Name\",\"Foo\"\n\"1\",\"k\",\"x\"\n")
            << "n.csv: neither a 'Metric Name' column (ncu --csv) nor a column of a known metric "
               "(ncu --csv --page raw); columns: ID, Kernel Name, Foo";
    QTest::newRow("junk value")
            << QByteArray((kHeader + row("1", "smsp__inst_executed.sum", "inst", "12x")).c_str())
            << "n.csv:2:58: column 'Metric Value': metric 'smsp__inst_executed.sum': '12x' is "
               "not a number";
    QTest::newRow("nan")
            << QByteArray((kHeader + row("1", "dram__bytes.sum.per_second", "Gbyte/second", "nan")).c_str())
            << "n.csv:2:69: column 'Metric Value': metric 'dram__bytes.sum.per_second': 'nan' is not a "
               "finite number";
    QTest::newRow("inf")
            << QByteArray((kHeader + row("1", "Achieved Active Warps Per SM", "warp", "inf")).c_str())
            << "n.csv:2:63: column 'Metric Value': metric 'Achieved Active Warps Per SM': 'inf' is not a "
               "finite number";
    QTest::newRow("negative")
            << QByteArray((kHeader + row("1", "smsp__inst_executed.sum", "inst", "-3")).c_str())
            << "n.csv:2:58: column 'Metric Value': metric 'smsp__inst_executed.sum': must not be "
               "negative (got -3)";
    QTest::newRow("bad rate unit") << QByteArray(
            (kHeader + row("1", "dram__bytes.sum.per_second", "%", "3")).c_str())
                                   << "n.csv:2:54: column 'Metric Unit': unit '%' of metric "
                                      "'dram__bytes.sum.per_second' is not a byte rate (e.g. Gbyte/second)";
    QTest::newRow("bad count unit") << QByteArray(
            (kHeader + row("1", "smsp__inst_executed.sum", "byte", "3")).c_str())
                                    << "n.csv:2:51: column 'Metric Unit': unit 'byte' of metric "
                                       "'smsp__inst_executed.sum' is not a count of insts";
    QTest::newRow("bad warp unit")
            << QByteArray((kHeader + row("1", "Achieved Active Warps Per SM", "%", "3")).c_str())
            << "n.csv:2:56: column 'Metric Unit': unit '%' of metric 'Achieved Active Warps Per "
               "SM' is not warp";
    QTest::newRow("unterminated quote") << QByteArray((kHeader + "\"1\",\"k\n").c_str())
                                        << "n.csv:2:5: the quote opened here is not closed";
}

void TestNcuCsv::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QCOMPARE(ncuError(text.toStdString()), message);
}

void TestNcuCsv::limits()
{
    // 10^6 columns in the header.
    std::string wide = "\"ID\",\"Kernel Name\"";
    for (int i = 0; i < 1000000; ++i)
        wide += ",m";
    const QString message = ncuError(wide + "\n");
    QVERIFY2(message.contains(QStringLiteral("the limit for CSV files")), qPrintable(message));
    // A 300 MB file is refused by its size.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (dir.path() + QStringLiteral("/huge.csv")).toStdString();
    test::makeSparseFile(path, 300ull * 1000 * 1000, kHeader);
    QCOMPARE(inputErrorOf([&] { core::readNcuCsv(path); }),
             QString::fromStdString(path + ": 300000000 bytes, over the 64 MiB limit for ncu CSV files"));
}

QTEST_APPLESS_MAIN(TestNcuCsv)
#include "tst_ncu_csv.moc"
