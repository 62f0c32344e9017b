// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/bandwidth/bandwidth_curve.h"
#include "core/support/error.h"
#include "import_fixtures.h"
#include "core/traces/memory_demand.h"
#include "core/traces/perf_stat.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

using namespace crossroof;
using test::inputErrorOf;

namespace {

const std::string kExcerpt = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_excerpt.tsv";
const std::string kFull = std::string(CROSSROOF_SHARED_DIR) + "/data/perf-stat/perf_result.tsv";

double sum(const std::vector<double> &v)
{
    return std::accumulate(v.begin(), v.end(), 0.0);
}

} // namespace

class TestBandwidthCurve : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void smoothing();
    void smoothingKeepsTheBytesMoved();
    void curveAndSlowdown();
    void slowdownBounds();
    void dominanceOfConnections();
    void rejects();
    void perfStatDemandExcerpt();
    void perfStatDemandFullFile();
    void perfStatDemandRejects();
};

void TestBandwidthCurve::smoothing()
{
    const std::vector<double> bytes {0, 6, 0, 0, 3, 9};
    QCOMPARE(core::smoothDemand(bytes, 1), bytes);
    // Centred window of 3, the trace mirrored at its ends: unit 0 averages (0, 0, 6), unit 5 (3, 9, 9).
    const std::vector<double> three = core::smoothDemand(bytes, 3);
    const std::vector<double> expected {2, 2, 2, 1, 4, 7};
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(std::abs(three[i] - expected[i]) < 1e-12, qPrintable(QString::number(i)));
    const std::vector<double> constant(50, 7.5);
    for (std::size_t w : {2, 9, 10, 50}) {
        for (double d : core::smoothDemand(constant, w))
            QVERIFY(std::abs(d - 7.5) < 1e-12);
    }
}

void TestBandwidthCurve::smoothingKeepsTheBytesMoved()
{
    // The paper: the area under the curve is the data moved. Smoothing spreads each unit's bytes over the units
    // around it, so none may be lost or counted twice, wherever the unit lies (MODEL.md 4). The definition,
    // written as a scatter: each unit sends 1/W of its bytes to each unit within floor(W/2) of it (1/(2W) to
    // the two outermost when W is even), and what would land outside the trace lands on its mirror image.
    const auto scatter = [](const std::vector<double> &b, std::size_t W) {
        const auto n = std::ptrdiff_t(b.size());
        const auto h = std::ptrdiff_t(W / 2);
        std::vector<double> d(b.size(), 0.0);
        for (std::ptrdiff_t j = 0; j < n; ++j) {
            for (std::ptrdiff_t o = -h; o <= h; ++o) {
                const double weight = (W % 2 == 0 && (o == -h || o == h)) ? 0.5 / double(W) : 1 / double(W);
                std::ptrdiff_t to = j + o;
                if (to < 0)
                    to = -1 - to;
                if (to >= n)
                    to = 2 * n - 1 - to;
                d[std::size_t(to)] += weight * b[std::size_t(j)];
            }
        }
        return d;
    };
    std::uint64_t state = 12345;
    const auto next = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(state >> 11) / double(1ULL << 53);
    };
    // Traces of every length up to 40 with every window, short ones (fewer than 2(W-1) units) included.
    for (std::size_t n = 1; n <= 40; ++n) {
        std::vector<double> b(n);
        for (double &v : b)
            v = next() < 0.3 ? 1000 * next() : next();
        for (std::size_t W = 1; W <= n; ++W) {
            const std::vector<double> d = core::smoothDemand(b, W);
            const std::vector<double> want = scatter(b, W);
            for (std::size_t i = 0; i < n; ++i)
                QVERIFY2(std::abs(d[i] - want[i]) <= 1e-12 * (1 + want[i]), qPrintable(QStringLiteral("n %1 W %2 unit %3").arg(n).arg(W).arg(i)));
            QVERIFY(std::abs(sum(d) - sum(b)) <= 1e-12 * sum(b));
            // Read backwards, the trace has the same curve.
            const std::vector<double> reversed(b.rbegin(), b.rend());
            std::vector<double> r = core::smoothDemand(reversed, W);
            std::reverse(r.begin(), r.end());
            for (std::size_t i = 0; i < n; ++i)
                QVERIFY(std::abs(r[i] - d[i]) <= 1e-12 * (1 + d[i]));
        }
    }
    // A 40-byte burst in the first or in the last of 10 units, W = 10: 40 bytes of area either way (the
    // trailing mean of before gave 117.2 and 4.0), and the same curve and slowdown under B = 5 bytes per unit:
    // 8, 8, 8, 8, 6, 2 and four zeros, so (4 x 1.6 + 1.2 + 5) / 10 = 1.26 (1.70 unsmoothed).
    std::vector<double> first(10, 0.0), last(10, 0.0);
    first.front() = 40;
    last.back() = 40;
    const core::BandwidthCurve a = core::bandwidthCurve(first, 10, 5);
    const core::BandwidthCurve z = core::bandwidthCurve(last, 10, 5);
    QVERIFY(std::abs(a.area - 40) < 1e-12 && std::abs(z.area - 40) < 1e-12);
    QCOMPARE(a.total_bytes, 40.0);
    const std::vector<double> curve {8, 8, 8, 8, 6, 2, 0, 0, 0, 0};
    for (std::size_t i = 0; i < curve.size(); ++i)
        QVERIFY(std::abs(a.sorted[i] - curve[i]) < 1e-12 && std::abs(z.sorted[i] - curve[i]) < 1e-12);
    QVERIFY(std::abs(a.slowdown - 1.26) < 1e-12 && std::abs(z.slowdown - 1.26) < 1e-12);
    QVERIFY(std::abs(core::bandwidthCurve(first, 1, 5).slowdown - 1.7) < 1e-12);
    // A small demand beside a huge burst keeps its bytes (no sum of the burst is subtracted again).
    const std::vector<double> burst {1e300, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3};
    const std::vector<double> d = core::smoothDemand(burst, 3);
    QCOMPARE(d[10], 0.0);
    QVERIFY(std::abs(d.back() - 3) < 1e-15);
}

void TestBandwidthCurve::curveAndSlowdown()
{
    // Demand 4 units at 10, 4 at 2; limit 5: the busy units take 2 units each.
    const std::vector<double> bytes {10, 2, 10, 2, 10, 2, 10, 2};
    const core::BandwidthCurve c = core::bandwidthCurve(bytes, 1, 5);
    QCOMPARE(c.sorted, (std::vector<double> {10, 10, 10, 10, 2, 2, 2, 2}));
    QCOMPARE(c.units, std::size_t(8));
    QCOMPARE(c.area, 48.0);
    QCOMPARE(c.total_bytes, 48.0);
    QCOMPARE(c.slowdown, (4 * 2.0 + 4 * 1.0) / 8);
    QCOMPARE(c.units_over_limit, std::size_t(4));
    QCOMPARE(c.peak, 10.0);
    QCOMPARE(c.mean, 6.0);
    QCOMPARE(c.limit, 5.0);
    // A window of 2 (weights 1/4, 1/2, 1/4) averages the bursts away: 6 everywhere but at the ends, where the
    // mirrored trace gives 10/4 + 10/2 + 2/4 = 8 and 10/4 + 2/2 + 2/4 = 4; the area stays 48.
    const core::BandwidthCurve s = core::bandwidthCurve(bytes, 2, 5);
    QCOMPARE(s.sorted.front(), 8.0);
    QCOMPARE(s.sorted[1], 6.0);
    QCOMPARE(s.sorted[6], 6.0);
    QCOMPARE(s.sorted.back(), 4.0);
    QCOMPARE(s.area, 48.0);
    QVERIFY(std::abs(s.slowdown - (1.6 + 6 * 1.2 + 1) / 8) < 1e-12);
    QVERIFY(std::is_sorted(s.sorted.rbegin(), s.sorted.rend()));
}

void TestBandwidthCurve::slowdownBounds()
{
    const std::vector<double> bytes {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
    // A limit above the peak costs nothing; a limit below every unit turns the run into area / B units.
    QCOMPARE(core::bandwidthCurve(bytes, 1, 9).slowdown, 1.0);
    const core::BandwidthCurve tight = core::bandwidthCurve(bytes, 1, 0.5);
    QVERIFY(std::abs(tight.slowdown - tight.area / 0.5 / 10) < 1e-12);
    // Slowdown never falls as the limit falls.
    double previous = 1;
    for (double limit = 10; limit > 0.4; limit -= 0.25) {
        const double s = core::bandwidthCurve(bytes, 3, limit).slowdown;
        QVERIFY(s >= previous - 1e-12);
        previous = s;
    }
}

void TestBandwidthCurve::dominanceOfConnections()
{
    // L2 demand higher in bytes but with a higher limit; memory dominates units 2-3, L2 unit 0.
    const std::vector<core::Connection> links {{"L2", {90, 10, 40, 10}, 50}, {"memory", {5, 5, 30, 25}, 10}};
    const core::Dominance d = core::dominance(links, 1);
    QCOMPARE(d.ratio, (std::vector<double> {1.8, 0.5, 3.0, 2.5}));
    QCOMPARE(d.dominant, (std::vector<int> {0, -1, 1, 1}));
    QCOMPARE(d.units, (std::vector<std::size_t> {1, 2}));
    QVERIFY(std::abs(d.extra_units[0] - 0.8) < 1e-12);
    QVERIFY(std::abs(d.extra_units[1] - 3.5) < 1e-12);
    QCOMPARE(d.free_units, std::size_t(1));
    QVERIFY(std::abs(d.slowdown - (1.8 + 1 + 3 + 2.5) / 4) < 1e-12);
    // One connection: the same slowdown as its bandwidth curve.
    const std::vector<core::Connection> one {links[1]};
    QVERIFY(std::abs(core::dominance(one, 2).slowdown - core::bandwidthCurve(links[1].bytes, 2, 10).slowdown)
            < 1e-12);
}

void TestBandwidthCurve::rejects()
{
    const std::vector<double> bytes {1, 2, 3};
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(bytes, 0, 1); }),
             QStringLiteral("bandwidth curve: the smoothing window must be at least 1 unit"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(bytes, 4, 1); }),
             QStringLiteral(
                     "bandwidth curve: the smoothing window (4 units) is longer than the trace (3 units)"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(std::vector<double> {}, 1, 1); }),
             QStringLiteral("bandwidth curve: the trace is empty"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(bytes, 1, 0); }),
             QStringLiteral("bandwidth curve: the limit must be a finite number > 0 bytes per unit (got 0)"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(bytes, 1, std::numeric_limits<double>::infinity()); }),
             QStringLiteral(
                     "bandwidth curve: the limit must be a finite number > 0 bytes per unit (got inf)"));
    QCOMPARE(inputErrorOf([&] {
                 core::bandwidthCurve(std::vector<double> {1, -2}, 1, 1);
             }),
             QStringLiteral("bandwidth curve: unit 2: bytes must be a finite number >= 0 (got -2)"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(std::vector<double> {std::nan("")}, 1, 1); }),
             QStringLiteral("bandwidth curve: unit 1: bytes must be a finite number >= 0 (got nan)"));
    const std::vector<core::Connection> uneven {{"a", {1, 2}, 1}, {"b", {1}, 1}};
    QCOMPARE(inputErrorOf([&] { core::dominance(uneven, 1); }),
             QStringLiteral("dominance: connection 'b': 1 units, but 'a' has 2"));
    QCOMPARE(inputErrorOf([&] { core::dominance(std::vector<core::Connection> {}, 1); }),
             QStringLiteral("dominance: no connections"));
    // Sums and demand/limit ratios beyond a double (mean -nan, an inf slowdown): refused, naming the unit.
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(std::vector<double> {1, 1e308, 1e308}, 1, 1e8); }),
             QStringLiteral("bandwidth curve: unit 3: the bytes up to this unit add up to more than a double holds "
                            "(about 1.8e308)"));
    QCOMPARE(inputErrorOf([&] { core::bandwidthCurve(std::vector<double> {0, 100, 200}, 1, 1e-310); }),
             QStringLiteral("bandwidth curve: unit 2: the demand 100 bytes is more than 1.8e308 times the limit "
                            "1e-310 bytes per unit (a limit this small means nothing)"));
    QCOMPARE(inputErrorOf([&] { core::slowdownUnderLimit(std::vector<double> {1e308, 1e308}, 0.6); }),
             QStringLiteral("bandwidth curve: the units that the demand takes under the limit add up to more "
                            "than a double holds (about 1.8e308)"));
    const std::vector<core::Connection> tiny {{"a", {1, 2}, 1}, {"b", {0, 5}, 1e-310}};
    QCOMPARE(inputErrorOf([&] { core::dominance(tiny, 1); }),
             QStringLiteral("dominance: connection 'b': unit 2: the demand 5 bytes is more than 1.8e308 times the "
                            "limit 1e-310 bytes per unit (a limit this small means nothing)"));
    // Just inside: finite everywhere.
    const core::BandwidthCurve edge = core::bandwidthCurve(std::vector<double> {1e307, 1e307}, 2, 1);
    QVERIFY(std::isfinite(edge.mean) && std::isfinite(edge.area) && std::isfinite(edge.slowdown));
}

void TestBandwidthCurve::perfStatDemandExcerpt()
{
    const core::PerfStat stat = core::readPerfStat(kExcerpt);
    const core::MemoryDemand m = core::memoryDemandFromPerfStat(stat);
    QCOMPARE(m.read_events, (std::vector<std::string> {"imc/event=0x04,umask=0x0f/"}));
    QCOMPARE(m.write_events, (std::vector<std::string> {"imc/event=0x04,umask=0x30/"}));
    QCOMPARE(m.bytes.size(), std::size_t(3));
    QCOMPARE(m.read_bytes[0], 1338376.0 * 64); // CPU0's CAS reads in the first second
    QCOMPARE(m.write_bytes[0], 749694.0 * 64);
    QCOMPARE(sum(m.read_bytes), stat.event("imc/event=0x04,umask=0x0f/").total * 64);
    QCOMPARE(m.bytes[1], m.read_bytes[1] + m.write_bytes[1]);
    QCOMPARE(m.cpus, (std::vector<int> {0})); // one socket's controllers
    QCOMPARE(m.cpu_bytes[0], m.bytes);
    QCOMPARE(m.seconds[0], 1.001047559);
    QVERIFY(std::abs(m.seconds[1] - (2.011262328 - 1.001047559)) < 1e-12);
    const auto gbs = m.gbs();
    QVERIFY(std::abs(gbs[0] - (1338376.0 + 749694.0) * 64 / 1.001047559 / 1e9) < 1e-12);
}

void TestBandwidthCurve::perfStatDemandFullFile()
{
    if (!QFile::exists(QString::fromStdString(kFull)))
        QSKIP("../shared/data/perf-stat/perf_result.tsv is not here");
    const core::PerfStat stat = core::readPerfStat(kFull);
    const core::MemoryDemand m = core::memoryDemandFromPerfStat(stat);
    QCOMPARE(m.bytes.size(), std::size_t(10));
    // Summed over both sockets (CPU0 and CPU16 carry the uncore counters).
    QCOMPARE(m.read_bytes[0], (1338376.0 + 4006205.0) * 64);
    QCOMPARE(m.write_bytes[0], (749694.0 + 3304132.0) * 64);
    QCOMPARE(sum(m.bytes),
             (stat.event("imc/event=0x04,umask=0x0f/").total + stat.event("imc/event=0x04,umask=0x30/").total)
                     * 64);
    // And per socket, each socket's memory controllers a connection of their own: socket 0's on CPU0,
    // socket 1's on CPU16, their sum the total of every interval.
    QCOMPARE(m.cpus, (std::vector<int> {0, 16}));
    QCOMPARE(m.cpu_bytes.size(), std::size_t(2));
    QCOMPARE(m.cpu_bytes[0][0], (1338376.0 + 749694.0) * 64);
    QCOMPARE(m.cpu_bytes[1][0], (4006205.0 + 3304132.0) * 64);
    for (std::size_t i = 0; i < m.bytes.size(); ++i)
        QCOMPARE(m.cpu_bytes[0][i] + m.cpu_bytes[1][i], m.bytes[i]);
    // The demand trace feeds a bandwidth curve: per second, limit 20 GB per second.
    const core::BandwidthCurve c = core::bandwidthCurve(m.bytes, 1, 20e9);
    QCOMPARE(c.units, std::size_t(10));
    QVERIFY(c.slowdown >= 1);
    QCOMPARE(c.total_bytes, sum(m.bytes));
}

void TestBandwidthCurve::perfStatDemandRejects()
{
    const core::PerfStat noImc = core::parsePerfStat("1.0\tCPU0\t5\t\tcycles\t10\t100.00\n", "p.tsv");
    QCOMPARE(inputErrorOf([&] { core::memoryDemandFromPerfStat(noImc); }),
             QStringLiteral("p.tsv: no memory-controller CAS read event (e.g. imc/event=0x04,umask=0x0f/); "
                            "events: cycles"));
    const core::PerfStat readsOnly = core::parsePerfStat(
            "1.0\tCPU0\t5\t\tuncore_imc_0/event=0x04,umask=0x0f/\t10\t100.00\n", "p.tsv");
    QCOMPARE(inputErrorOf([&] { core::memoryDemandFromPerfStat(readsOnly); }),
             QStringLiteral(
                     "p.tsv: no memory-controller CAS write event (e.g. imc/event=0x04,umask=0x30/); events: "
                     "uncore_imc_0/event=0x04,umask=0x0f/"));
    const core::PerfStat aggregate = core::parsePerfStat("5\t\tcycles\t10\t100.00\n", "p.tsv");
    QCOMPARE(
            inputErrorOf([&] { core::memoryDemandFromPerfStat(aggregate); }),
            QStringLiteral(
                    "p.tsv: not interval output; a demand trace needs perf stat -I (one line per interval)"));
    // Counts x 64 bytes, and reads + writes, beyond a double: refused with the file, the line and the field
    // (the bandwidth curve said "unit 1: bytes must be a finite number >= 0 (got inf)").
    const core::PerfStat huge = core::parsePerfStat("1.0\tCPU0\t5\t\timc/event=0x04,umask=0x0f/\t10\t100.00\n"
                                                    "1.0\tCPU0\t1e308\t\timc/event=0x04,umask=0x30/\t10\t100.00\n",
                                                    "p.tsv");
    QCOMPARE(inputErrorOf([&] { core::memoryDemandFromPerfStat(huge); }),
             QStringLiteral("p.tsv:2: field 'value': event 'imc/event=0x04,umask=0x30/' counts 1e+308 CAS x 64 "
                            "bytes in the interval ending at 1 s: more bytes than a double holds (about 1.8e308)"));
    const core::PerfStat both = core::parsePerfStat("1.0\tCPU0\t5\t\tcycles\t10\t100.00\n"
                                                    "2.0\tCPU0\t1e306\t\timc/event=0x04,umask=0x0f/\t10\t100.00\n"
                                                    "2.0\tCPU0\t2e306\t\timc/event=0x04,umask=0x30/\t10\t100.00\n",
                                                    "p.tsv");
    QCOMPARE(inputErrorOf([&] { core::memoryDemandFromPerfStat(both); }),
             QStringLiteral("p.tsv:2: field 'value': reads 6.4e+307 and writes 1.28e+308 bytes in the interval "
                            "ending at 2 s: more bytes than a double holds (about 1.8e308)"));
    // One event's counts summed over CPUs or intervals: refused by the reader at the line that passed a double.
    QCOMPARE(inputErrorOf([] {
                 core::parsePerfStat("1.0\tCPU0\t1e308\t\tcycles\t10\t100.00\n"
                                     "1.0\tCPU1\t1e308\t\tcycles\t10\t100.00\n",
                                     "p.tsv");
             }),
             QStringLiteral("p.tsv:2: field 'value': the counts of event 'cycles' add up to more than a double "
                            "holds (about 1.8e308)"));
    // Several imc PMUs and the Skylake encodings and names are summed.
    const core::PerfStat skylake
            = core::parsePerfStat("1.0\t2\t\tuncore_imc_0/event=0x4,umask=0x3/\t1\t100\n"
                                  "1.0\t3\t\tuncore_imc_1/event=0x04,umask=0x03/\t1\t100\n"
                                  "1.0\t4\t\tunc_m_cas_count.wr\t1\t100\n"
                                  "1.0\t1\t\tuncore_imc_0/event=0x04,umask=0x01/\t1\t100\n",
                                  "p.tsv");
    const core::MemoryDemand m = core::memoryDemandFromPerfStat(skylake);
    QCOMPARE(m.read_bytes, (std::vector<double> {5 * 64.0}));
    QCOMPARE(m.write_bytes, (std::vector<double> {4 * 64.0}));
}

QTEST_APPLESS_MAIN(TestBandwidthCurve)
#include "tst_bandwidth_curve.moc"
