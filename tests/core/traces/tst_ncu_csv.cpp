// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/csv_table.h"
#include "core/support/error.h"
#include "import_fixtures.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace crossroof;
using test::inputErrorOf;

namespace {

const std::string kFixture = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_stream_synthetic.csv";
const std::string kH100Details = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_details.csv";
const std::string kH100Raw = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_raw.csv";

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

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
    void realDetails();
    void realRaw();
    void kernelTable();
    void truncated();
    void programOutput();
    void rawRunsWithOtherColumns();
    void badKernelKept();
    void shortNames_data();
    void shortNames();
    void otherUnits();
    void concatenatedRuns();
    void rawPage();
    void summaryPage();
    void units_data();
    void units();
    void metricPriority();
    void rejects_data();
    void rejects();
    void limits();
    void headerInsideAQuote();
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

void TestNcuCsv::realDetails()
{
    // The details page most users save (SpeedOfLight, Occupancy, LaunchStats, MemoryWorkloadAnalysis) of a
    // real H100 SXM: DRAM bytes/s only as Memory Workload Analysis' "Memory Throughput" (the first
    // Crossroof release refused this file).
    const core::NcuReport r = core::readNcuCsv(kH100Details);
    QCOMPARE(r.form, core::NcuForm::Details);
    QVERIFY(r.long_form);
    QCOMPARE(r.kernels.size(), std::size_t(10));
    QVERIFY(r.warnings.empty());
    const core::NcuKernel &k = r.kernels.front();
    QCOMPARE(k.id, std::string("0"));
    QCOMPARE(k.name, std::string("void xkernel<8, 1>(const float *, unsigned long, int, int, float *, "
                                 "unsigned long long *)"));
    QCOMPARE(k.short_name, std::string("xkernel<8, 1>"));
    QCOMPARE(k.grid_size, std::string("(264, 1, 1)"));
    QCOMPARE(k.block_size, std::string("(64, 1, 1)"));
    QCOMPARE(k.line, 4);
    QCOMPARE(*k.warps_per_sm, 3.99);
    QCOMPARE(*k.theoretical_warps_per_sm, 64.0);
    QVERIFY(near(*k.dram_gbs, 156.42053027081)); // "156,420,530,270.81" byte/s
    QCOMPARE(*k.dram_percent, 4.67);
    QCOMPARE(*k.duration_ns, 902784.0);
    QCOMPARE(*k.sm_frequency_hz, 1587214937.35);
    QCOMPARE(*k.dram_frequency_hz, 2618984829.15);
    QCOMPARE(*k.registers_per_thread, 18.0);
    QCOMPARE(*k.shared_memory_bytes, 1024.0); // driver 1,024 + dynamic 0 + static 0
    QVERIFY(!k.instructions);
    QVERIFY(!k.intensity());
    QCOMPARE(r.device.cc, std::string("9.0"));
    QCOMPARE(*r.device.sm_count, 132.0);
    QVERIFY(!r.device.peakDramGbs());
    const core::NcuKernel &six = r.kernels[6];
    QCOMPARE(six.short_name, std::string("xkernel<32, 4>"));
    QCOMPARE(*six.warps_per_sm, 63.57);
    QVERIFY(near(*six.dram_gbs, 657.17203831926));
    QCOMPARE(*six.registers_per_thread, 26.0);
    QCOMPARE(*r.kernels[9].warps_per_sm, 47.06);
    std::vector<double> warps, gbs;
    core::ncuOccupancyTrace(r, warps, gbs);
    QCOMPARE(warps.size(), std::size_t(10));
}

void TestNcuCsv::realRaw()
{
    const core::NcuReport r = core::readNcuCsv(kH100Raw);
    QCOMPARE(r.form, core::NcuForm::Raw);
    QCOMPARE(r.kernels.size(), std::size_t(10));
    const core::NcuKernel &k = r.kernels.front();
    QCOMPARE(k.line, 5); // two ==PROF== lines, the header and the units row
    QCOMPARE(*k.warps_per_sm, 3.99);
    QVERIFY(near(*k.dram_gbs, 156.18023648049));
    QCOMPARE(*k.duration_ns, 901216.0);
    QCOMPARE(*k.instructions, 25967573.0);
    QCOMPARE(*k.requests(), 1081344.0);
    QCOMPARE(*k.sectors(), 4325376.0);
    QVERIFY(near(*k.intensity(), 25967573.0 / 1081344)); // Z = 8 FMAs + 16 loop instructions
    QCOMPARE(*k.theoretical_warps_per_sm, 64.0);
    QCOMPARE(*k.shared_memory_bytes, 1024.0);
    QCOMPARE(*k.sm_frequency_hz, 1586135422.82);
    QVERIFY(near(*r.kernels[6].intensity(), 2491720709.0 / 17301504)); // 128 FMAs: Z = 144
    QCOMPARE(*r.kernels[6].registers_per_thread, 26.0);
    const core::NcuDevice &d = r.device;
    QCOMPARE(d.name, std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(d.cc, std::string("9.0"));
    QCOMPARE(*d.sm_count, 132.0);
    QCOMPARE(*d.max_warps_per_sm, 64.0);
    QCOMPARE(*d.clock_khz, 1980000.0);
    QCOMPARE(*d.memory_clock_khz, 2619000.0);
    QCOMPARE(*d.bus_width_bits, 5120.0);
    QCOMPARE(*d.l2_bytes, 52428800.0);
    QVERIFY(near(*d.peakDramGbs(), 3352.32)); // 2 x 2.619 GHz x 640 bytes
    QCOMPARE(d.describe(), std::string("NVIDIA H100 80GB HBM3, 132 SMs, CC 9.0"));
}

void TestNcuCsv::kernelTable()
{
    // The raw file against a 15-SM, CC 2.0 profile with max_warps 48: the mismatch and the kernels above 48
    // warps are said, not silently dropped.
    core::NcuReport r = core::readNcuCsv(kH100Raw);
    core::XModelParams p;
    p.sm_count = 15;
    p.max_warps = 48;
    p.R = 3350;
    core::HardwareProfile fermi;
    fermi.id = "gtx570";
    fermi.name = "GeForce GTX 570 (Fermi)";
    fermi.kind = "gpu";
    fermi.compute_capability = "2.0";
    core::KernelTable t = core::compareKernels(r, p, fermi);
    QCOMPARE(t.rows.size(), std::size_t(10));
    QCOMPARE(t.warnings.size(), std::size_t(4));
    QCOMPARE(t.warnings[0], std::string("file: NVIDIA H100 80GB HBM3; profile: GeForce GTX 570 (Fermi): another GPU "
                                        "(H100, not 570); 132 SMs, not 15; CC 9.0, not 2.0; the predictions are "
                                        "for the profile's machine"));
    // The parameters' 1 GHz clock is far from the 1.59 GHz the kernels ran at: said with both.
    QCOMPARE(t.warnings[1], std::string("SM clock: file 1.59 GHz, profile 1.00 GHz (59 % higher): a kernel whose "
                                        "clock the file gives is predicted at that clock"));
    QCOMPARE(t.warnings[2], std::string("4 kernel(s) ran more warps per SM (up to 63.57) than profile "
                                        "'gtx570' allows (max_warps 48); they are predicted at max_warps"));
    QVERIFY2(t.warnings[3].find("10 kernel(s) without store counts") == 0, t.warnings[3].c_str());
    for (const core::KernelRow &row : t.rows) {
        QVERIFY2(row.skipped.empty(), row.skipped.c_str());
        QVERIFY(row.predicted_gbs && std::isfinite(*row.predicted_gbs));
        QVERIFY(!row.dram_gbs_derived);
        QVERIFY(row.Z);
    }
    QVERIFY(near(*t.rows[6].Z, 2491720709.0 / 17301504));
    QVERIFY(near(*t.rows[0].error, (*t.rows[0].predicted_gbs - *t.rows[0].dram_gbs) / *t.rows[0].dram_gbs));
    // Without the byte rates, DRAM Throughput % x the peak stands in, flagged, and such kernels get no
    // prediction: their DRAM bytes per request are unknown.
    core::NcuReport d = core::readNcuCsv(kH100Details);
    for (core::NcuKernel &k : d.kernels)
        k.dram_gbs.reset();
    p.sm_count = 132;
    p.max_warps = 64;
    core::HardwareProfile hopper = fermi;
    hopper.id = "h100";
    hopper.name = "H100";
    hopper.compute_capability = "9.0";
    t = core::compareKernels(d, p, hopper);
    QVERIFY(t.rows[0].dram_gbs_derived);
    QVERIFY(near(*t.rows[0].dram_gbs, 0.0467 * 3350));
    QVERIFY(!t.rows[0].predicted_gbs);
    QVERIFY(std::find(t.warnings.begin(), t.warnings.end(),
                      std::string("DRAM GB/s of 10 kernel(s) derived from 'DRAM Throughput' % times the profile's "
                                  "peak (3350 GB/s): the file has no DRAM bytes, so they get no prediction"))
            != t.warnings.end());
    // A kernel without warps is listed as skipped with the metric that is missing.
    r.kernels[2].warps_per_sm.reset();
    t = core::compareKernels(r, p, hopper);
    QVERIFY2(t.rows[2].skipped.find("sm__warps_active.avg.per_cycle_active") != std::string::npos,
             t.rows[2].skipped.c_str());
    QCOMPARE(t.rows[2].ncu_metrics, std::string("ncu --metrics sm__warps_active.avg.per_cycle_active"));
    QVERIFY(!t.rows[2].predicted_gbs);
}

void TestNcuCsv::truncated()
{
    // An export cut off inside a quoted field: the complete kernels are read, with a warning.
    std::string text = kHeader + row("0", "Achieved Active Warps Per SM", "warp", "8")
                       + row("1", "Achieved Active Warps Per SM", "warp", "16") + "\"2\",\"k(int, fl";
    const core::NcuReport r = core::parseNcuCsv(text, "t.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(r.warnings, (std::vector<std::string> {"t.csv:4: the file ends inside a quoted field (a "
                                                    "truncated export?); the rows from this line on are "
                                                    "ignored"}));
    // Cut after a complete field: the row is short, the metric is not collected.
    text = kHeader + row("0", "Achieved Active Warps Per SM", "warp", "8") + "\"1\",\"k(int, float)\",\"S\"";
    const core::NcuReport shortRow = core::parseNcuCsv(text, "t.csv");
    QCOMPARE(shortRow.kernels.size(), std::size_t(2));
    QVERIFY(!shortRow.kernels[1].warps_per_sm);
}

void TestNcuCsv::programOutput()
{
    // The program's output between ncu's rows (unquoted, with commas) and ==PROF== lines anywhere.
    const std::string text = "==PROF== Connected to process 9\n" + kHeader
                             + row("0", "Achieved Active Warps Per SM", "warp", "8")
                             + "iteration 1, residual 0.5, \"done\"\n==PROF== Profiling \"k\": 0%....100%\n"
                             + row("1", "Achieved Active Warps Per SM", "warp", "1,024");
    const core::NcuReport r = core::parseNcuCsv(text, "p.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QCOMPARE(*r.kernels[1].warps_per_sm, 1024.0);
    QCOMPARE(r.kernels[1].line, 6);
}

void TestNcuCsv::rawRunsWithOtherColumns()
{
    // Two raw exports with different metric sets put together: each header brings its own units row.
    const std::string text = "\"ID\",\"Kernel Name\",\"dram__bytes.sum.per_second\"\n"
                             "\"\",\"\",\"Gbyte/s\"\n"
                             "\"0\",\"a()\",\"100\"\n"
                             "==PROF== Disconnected\n"
                             "\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\",\"dram__bytes.sum.per_second\"\n"
                             "\"\",\"\",\"\",\"us\",\"Tbyte/s\"\n"
                             "\"0\",\"b()\",\"8.0\",\"1.5\",\"1.25\"\n"
                             "\"1\",\"b()\",\"8.0\",\"2\",\"1.5\"\n";
    const core::NcuReport r = core::parseNcuCsv(text, "r.csv");
    QCOMPARE(r.kernels.size(), std::size_t(3));
    QCOMPARE(*r.kernels[0].dram_gbs, 100.0);
    QCOMPARE(*r.kernels[1].dram_gbs, 1250.0);
    QCOMPARE(*r.kernels[1].duration_ns, 1500.0);
    QCOMPARE(r.kernels[2].line, 8);
    QCOMPARE(r.kernels[2].gpu.cc, std::string("8.0"));
    QCOMPARE(r.device.cc, std::string("8.0"));
}

void TestNcuCsv::badKernelKept()
{
    // A metric with an unknown unit spoils that metric of that kernel only: the others are read, and the
    // problem names the file, line and column.
    const std::string text = kHeader + row("0", "Achieved Active Warps Per SM", "warp", "8")
                             + row("1", "Achieved Active Warps Per SM", "furlong", "8")
                             + row("1", "dram__bytes.sum.per_second", "Gbyte/second", "5");
    const core::NcuReport r = core::parseNcuCsv(text, "b.csv");
    QCOMPARE(r.kernels.size(), std::size_t(2));
    QVERIFY(!r.kernels[1].warps_per_sm);
    QCOMPARE(*r.kernels[1].dram_gbs, 5.0);
    const std::string problem = "b.csv:3:56: column 'Metric Unit': unit 'furlong' of metric 'Achieved Active "
                                "Warps Per SM' is not warp";
    QCOMPARE(r.kernels[1].problem, problem);
    QCOMPARE(r.warnings, (std::vector<std::string> {"kernel 1 (k): " + problem}));
    core::XModelParams p;
    const core::KernelTable t = core::compareKernels(r, p, core::HardwareProfile{});
    QCOMPARE(t.rows[1].skipped, problem);
    // Kernel 0 has its warps but none of the counts the model needs: each is named, with the ncu option.
    QVERIFY2(t.rows[0].skipped.find("dram__bytes.sum.per_second") != std::string::npos, t.rows[0].skipped.c_str());
    QVERIFY(t.rows[0].ncu_metrics.starts_with("ncu --metrics smsp__inst_executed.sum,"));
}

void TestNcuCsv::shortNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("shortName");
    QTest::newRow("template") << "void xkernel<8, 1>(const float *, unsigned long)" << "xkernel<8, 1>";
    QTest::newRow("namespace") << "void ns::k<(int)3>(float *)" << "ns::k<(int)3>";
    QTest::newRow("no return type") << "gemm(int, int)" << "gemm";
    QTest::newRow("mangled") << "_Z6kernelPf" << "_Z6kernelPf";
    QTest::newRow("template return")
            << "std::enable_if<true, void>::type f<float>(float *)" << "f<float>";
    QTest::newRow("parenthesis first") << "(anonymous)" << "(anonymous)";
    // An anonymous namespace is a scope, not the parameter list (the short name was "void").
    QTest::newRow("anonymous namespace")
            << "void (anonymous namespace)::copy<1>(int)" << "(anonymous namespace)::copy<1>";
}

void TestNcuCsv::shortNames()
{
    QFETCH(QString, name);
    QFETCH(QString, shortName);
    QCOMPARE(QString::fromStdString(core::shortKernelName(name.toStdString())), shortName);
}

void TestNcuCsv::otherUnits()
{
    // Older ncu versions print scaled units: msecond, cycle/nsecond, Kbyte/block, Mwarp is not a warp unit.
    const std::string text = kHeader + row("0", "Duration", "msecond", "1.5")
                             + row("0", "SM Frequency", "cycle/nsecond", "1.41")
                             + row("0", "DRAM Frequency", "Ghz", "1.2")
                             + row("0", "Static Shared Memory Per Block", "Kbyte/block", "4")
                             + row("0", "Dynamic Shared Memory Per Block", "byte/block", "512")
                             + row("0", "Memory Throughput", "%", "90")
                             + row("0", "Memory Throughput", "Tbyte/second", "1.1")
                             + row("0", "# SMs", "SM", "108");
    const core::NcuReport r = core::parseNcuCsv(text, "u.csv");
    const core::NcuKernel &k = r.kernels.front();
    QCOMPARE(*k.duration_ns, 1.5e6);
    QCOMPARE(*k.sm_frequency_hz, 1.41e9);
    QCOMPARE(*k.dram_frequency_hz, 1.2e9);
    QCOMPARE(*k.shared_memory_bytes, 4512.0);
    QCOMPARE(*k.dram_gbs, 1100.0);
    QCOMPARE(*r.device.sm_count, 108.0);
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
            << "n.csv:1: no column 'Kernel Name'; not ncu --csv output (columns: ==PROF== "
               "Connected to process 1)";
    QTest::newRow("header only") << QByteArray(kHeader.c_str()) << "n.csv:1: a header but no data rows";
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                            << "n.csv:1:1: binary data (byte 0x89 is not valid UTF-8); not ncu CSV text";
    QTest::newRow("no kernel name")
            << QByteArray("\"ID\",\"Metric Name\",\"Metric Value\"\n\"1\",\"x\",\"2\"\n")
            << "n.csv:1: no column 'Kernel Name'; not ncu --csv output (columns: ID, Metric "
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

void TestNcuCsv::headerInsideAQuote()
{
    // The only header line sits inside a quote that the line before opened and nothing closes (found by
    // fuzzing: it crashed). The file is refused with a message, never a crash.
    const QString message = ncuError("\"a\n\"ID\",\"Kernel Name\",\"x\"\n\"1\",\"k\",\"2\"\n");
    QVERIFY2(message.startsWith(QStringLiteral("n.csv")), qPrintable(message));
}

QTEST_APPLESS_MAIN(TestNcuCsv)
#include "tst_ncu_csv.moc"
