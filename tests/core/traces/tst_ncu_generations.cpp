// SPDX-License-Identifier: GPL-3.0-or-later
// Nsight Compute exports of every generation people have (docs/NCU.md): rates derived from bytes and cycles
// where none was asked for, the 2019-2020 "SOL FB" share, the SM clock under its gpc__ name, and a hit rate
// ncu rounds over 100 %. The files are written in the layouts ncu prints (the details page's long form).
#include "core/traces/ncu_csv.h"
#include "import_fixtures.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace crossroof;

namespace {

const std::string kHeader = "\"ID\",\"Kernel Name\",\"Device\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
                            "\"Metric Value\"\n";

/// One metric row of kernel ID.
std::string row(int id, const std::string &metric, const std::string &unit, const std::string &value)
{
    return "\"" + std::to_string(id) + "\",\"stream(double *)\",\"0\",\"Command line profiler metrics\",\"" + metric
           + "\",\"" + unit + "\",\"" + value + "\"\n";
}

bool hasWarning(const core::NcuReport &r, const std::string &part)
{
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [&](const std::string &w) { return w.find(part) != std::string::npos; });
}

} // namespace

class TestNcuGenerations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ratesFromBytesAndCycles();
    void givenRatesWin();
    void solFbOfOlderExports();
    void smClockUnderItsGpcName();
    void hitRatesOverHundred();
};

void TestNcuGenerations::ratesFromBytesAndCycles()
{
    // ncu --metrics dram__bytes.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second: 1.2 GB over
    // 1,410,000 cycles at 1.41 GHz = 1 ms, so 1200 GB/s.
    const std::string text = kHeader + row(0, "dram__bytes.sum", "Gbyte", "1.20")
                             + row(0, "sm__cycles_elapsed.avg", "cycle", "1,410,000")
                             + row(0, "sm__cycles_elapsed.avg.per_second", "Ghz", "1.41");
    const core::NcuReport r = core::parseNcuCsv(text, "b.csv");
    const core::NcuKernel &k = r.kernels.front();
    QVERIFY(k.problem.empty());
    QVERIFY(k.duration_ns);
    QCOMPARE(*k.duration_ns, 1e6);
    QVERIFY(k.dram_gbs);
    QCOMPARE(*k.dram_gbs, 1200.0);
    QCOMPARE(k.derived.size(), std::size_t(2)); // marked derived, both
    QVERIFY(hasWarning(r, "DRAM GB/s of 1 kernel(s) derived from dram__bytes and the duration"));
    QVERIFY(hasWarning(r, "duration of 1 kernel(s) derived from sm__cycles_elapsed.avg"));

    // Read and write bytes with a duration given: their sum over it.
    const std::string parts = kHeader + row(0, "dram__bytes_read.sum", "Mbyte", "300")
                              + row(0, "dram__bytes_write.sum", "Mbyte", "100")
                              + row(0, "gpu__time_duration.sum", "usecond", "500");
    const core::NcuKernel p = core::parseNcuCsv(parts, "p.csv").kernels.front(); // a copy: the report is gone
    QCOMPARE(*p.dram_gbs, 800.0);
    QCOMPARE(p.derived.size(), std::size_t(1));
}

void TestNcuGenerations::givenRatesWin()
{
    const std::string text = kHeader + row(0, "dram__bytes.sum", "Gbyte", "1.20")
                             + row(0, "dram__bytes.sum.per_second", "Tbyte/second", "1.5")
                             + row(0, "gpu__time_duration.sum", "msecond", "1");
    const core::NcuReport r = core::parseNcuCsv(text, "g.csv");
    QCOMPARE(*r.kernels.front().dram_gbs, 1500.0);
    QVERIFY(r.kernels.front().derived.empty());
    QVERIFY(r.warnings.empty());
}

void TestNcuGenerations::solFbOfOlderExports()
{
    // nv-nsight-cu-cli 2019.x: "GPU Speed Of Light" with "SOL FB" in %, "Duration" in usecond.
    const std::string text = kHeader + row(0, "SOL FB", "%", "87.50") + row(0, "Duration", "usecond", "12.3")
                             + row(0, "SM Frequency", "cycle/nsecond", "1.38");
    const core::NcuKernel k = core::parseNcuCsv(text, "old.csv").kernels.front();
    QVERIFY(k.problem.empty());
    QCOMPARE(*k.dram_percent, 87.5); // the kernel table turns it into GB/s with the profile's peak, marked
    QVERIFY(!k.dram_gbs);
    QCOMPARE(*k.duration_ns, 12300.0);
    QCOMPARE(*k.sm_frequency_hz, 1.38e9);
}

void TestNcuGenerations::smClockUnderItsGpcName()
{
    // An A30 profiled at ncu's locked base clock: what ncu shows as "SM Frequency".
    const std::string text = kHeader + row(0, "gpc__cycles_elapsed.avg.per_second", "Mhz", "930");
    QCOMPARE(*core::parseNcuCsv(text, "a30.csv").kernels.front().sm_frequency_hz, 0.93e9);
}

void TestNcuGenerations::hitRatesOverHundred()
{
    // ncu writes an L2 hit rate of 100.2-100.7 % for some kernels: taken as 100 %, noted, the kernel kept.
    const std::string text = kHeader + row(0, "lts__t_sector_hit_rate.pct", "%", "100.70")
                             + row(0, "dram__bytes.sum.per_second", "Gbyte/second", "12")
                             + row(1, "L2 Hit Rate", "%", "130") + row(1, "dram__bytes.sum.per_second", "Gbyte/second", "9")
                             + row(2, "L2 Hit Rate", "%", "64.5");
    const core::NcuReport r = core::parseNcuCsv(text, "h.csv");
    QCOMPARE(r.kernels.size(), std::size_t(3));
    QVERIFY(r.kernels[0].problem.empty());
    QCOMPARE(*r.kernels[0].l2_hit_rate, 1.0);
    QVERIFY(hasWarning(r, "1 kernel(s) with a hit rate above 100 % (up to 100.7 %, as ncu rounds it): taken as 100 %"));
    // Far over: left out with its place named, the kernel still read.
    QVERIFY(r.kernels[1].problem.empty());
    QVERIFY(!r.kernels[1].l2_hit_rate);
    QCOMPARE(*r.kernels[1].dram_gbs, 9.0);
    QVERIFY(hasWarning(r, "h.csv:4:"));
    QVERIFY(hasWarning(r, "column 'Metric Value': metric 'L2 Hit Rate': a hit rate of 130 % is over 100 %; left out"));
    QCOMPARE(*r.kernels[2].l2_hit_rate, 0.645);
}

QTEST_APPLESS_MAIN(TestNcuGenerations)
#include "tst_ncu_generations.moc"
