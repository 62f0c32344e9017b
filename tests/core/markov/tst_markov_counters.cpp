// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/markov/markov.h"
#include "core/markov/counter_rules.h"
#include "core/markov/markov_counters.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <functional>

using namespace crossroof;
using core::PecKind;
using core::StallEvent;
using core::SuspendEvent;

namespace {

/// The thesis' worked example, which the GUI starts from; the tests below check its published results.
/// Table 4.4: instructions retired 50.
const std::vector<SuspendEvent> kTableFourFour = core::CounterInputs::thesisExample().suspend;
/// Table 4.5: occurrences and average latency per occurrence.
const std::vector<StallEvent> kTableFourFive = core::CounterInputs::thesisExample().stall;

QString messageOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

double steadyCpi(const std::vector<int> &threads, double p, double q)
{
    core::MarkovTopology t;
    for (int n : threads)
        t.push_back({n, p, q});
    return core::solveMarkovExact(t).cpi;
}

} // namespace

class TestMarkovCounters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableFourFour();
    void tableFourFive();
    void weightedLatencyExample();
    void startingVector();
    void nearestStartingPair();
    void isoCpiCurve_data();
    void isoCpiCurve();
    void isoCpiEdges();
    void invalidCountersAreRejected();
    void tableFiveTwentyRule();
    void tableFiveTwentyOneRule();
    void counterFile();
    void recordingCommands();
};

void TestMarkovCounters::tableFourFour()
{
    const core::PEstimate p = core::estimateP(kTableFourFour, core::CounterInputs::thesisExample().instructions);
    QCOMPARE(p.pec.size(), std::size_t(3));
    QVERIFY(std::abs(p.pec[0] - 0.2) < 1e-15);
    QVERIFY(std::abs(p.pec[1] + 0.04) < 1e-15);
    QVERIFY(std::abs(p.pec[2] - 0.3) < 1e-15);
    QCOMPARE(p.rejected, (std::vector<bool>{false, true, false})); // B: "Reject (PEC < 0)"
    // "the PEC vector for p is (0.2, 0.3, 0.5)"
    QVERIFY(std::abs(p.vector.lowest - 0.2) < 1e-15);
    QVERIFY(std::abs(p.vector.highest - 0.3) < 1e-15);
    QVERIFY(std::abs(p.vector.all - 0.5) < 1e-15);
    QCOMPARE(p.vector.lowest_event, std::optional<std::size_t>(0));
    QCOMPARE(p.vector.highest_event, std::optional<std::size_t>(2));

    // Only rejected events: p = 0, nothing to name.
    const std::vector<SuspendEvent> fewer{{"B", 15, 17}};
    const core::PEstimate none = core::estimateP(fewer, 50);
    QCOMPARE(none.vector.all, 0.0);
    QVERIFY(!none.vector.lowest_event && !none.vector.highest_event);
}

void TestMarkovCounters::tableFourFive()
{
    const core::QEstimate q = core::estimateQ(kTableFourFive);
    // Total cycle time 30, 10, 150, 50 = 240.
    QCOMPARE(q.cycles, (std::vector<double>{30, 10, 150, 50}));
    // M = (30*3 + 10*5 + 150*10 + 50*2) / 240 = 7.25 (printed once as 7.2), q_all = 1 - 1/7.25 = 0.862.
    QCOMPARE(q.mean_latency, 7.25);
    QVERIFY(std::abs(q.vector.all - 0.862) < 5e-4);
    QCOMPARE(q.vector.all, 1 - 1 / 7.25);
    // Per event 1 - 1/m_i. The table prints X as 0.33 and Z as 0.1; 1 - 1/3 and 1 - 1/10 are 0.667 and 0.9.
    QVERIFY(std::abs(q.q[0] - 2.0 / 3) < 1e-15);
    QCOMPARE(q.q[1], 0.8);
    QCOMPARE(q.q[2], 0.9);
    QCOMPARE(q.q[3], 0.5);
    // "Lowest PEC" is Y and "Highest PEC" Z: the events with the fewest and the most stall cycles. The
    // thesis' vector (0.8, 0.1, 0.862) carries the slip 0.1 for 1 - 1/10 = 0.9.
    QCOMPARE(q.vector.lowest_event, std::optional<std::size_t>(1));
    QCOMPARE(q.vector.highest_event, std::optional<std::size_t>(2));
    QCOMPARE(q.vector.lowest, 0.8);
    QCOMPARE(q.vector.highest, 0.9);
}

void TestMarkovCounters::weightedLatencyExample()
{
    // 4.2.7: event 1 with 10 stall cycles occurs 5 times, event 2 with 2 cycles 25 times: M = 6 cycles.
    const std::vector<StallEvent> events{{"1", 5, 10}, {"2", 25, 2}};
    const core::QEstimate q = core::estimateQ(events);
    QCOMPARE(q.mean_latency, 6.0);
    QCOMPARE(q.vector.all, 1 - 1.0 / 6);
    // A single event: q = 1 - 1/M (Eq. 7); a zero-count event changes nothing.
    const std::vector<StallEvent> single{{"miss", 7, 4}, {"idle", 0, 100}};
    const core::QEstimate one = core::estimateQ(single);
    QCOMPARE(one.vector.all, 0.75);
    QCOMPARE(one.vector.lowest_event, std::optional<std::size_t>(0));
    QCOMPARE(one.vector.highest_event, std::optional<std::size_t>(0));
}

void TestMarkovCounters::startingVector()
{
    const auto p = core::estimateP(kTableFourFour, 50).vector;
    const auto q = core::estimateQ(kTableFourFive).vector;
    const auto pairs = core::startingPairs(p, q);
    // 4.3.1 items a-i, and 4.3.3: "(0.2, 0.8), (0.2, 0.1) [0.9], (0.2, 0.862) and so on".
    const PecKind order[3] = {PecKind::Lowest, PecKind::Highest, PecKind::All};
    for (std::size_t i = 0; i < 9; ++i) {
        QCOMPARE(pairs[i].p_kind, order[i / 3]);
        QCOMPARE(pairs[i].q_kind, order[i % 3]);
        QCOMPARE(pairs[i].p, p.value(order[i / 3]));
        QCOMPARE(pairs[i].q, q.value(order[i % 3]));
    }
    QVERIFY(std::abs(pairs[0].p - 0.2) < 1e-15 && pairs[0].q == 0.8);
    QVERIFY(std::abs(pairs[1].p - 0.2) < 1e-15 && pairs[1].q == 0.9);
    QVERIFY(std::abs(pairs[2].q - 0.862) < 5e-4);
    QVERIFY(std::abs(pairs[8].p - 0.5) < 1e-15 && pairs[8].q == 1 - 1 / 7.25);
    QCOMPARE(core::pecKindName(PecKind::Highest), std::string_view("highest"));
}

void TestMarkovCounters::nearestStartingPair()
{
    const auto pairs = core::startingPairs(core::estimateP(kTableFourFour, 50).vector,
                                           core::estimateQ(kTableFourFive).vector);
    const std::vector<int> clovertown{2, 2, 2, 2}; // 4 L2 caches, 2 threads each
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const double measured = steadyCpi(clovertown, pairs[k].p, pairs[k].q);
        const core::NearestPair n = core::nearestStartingPair(pairs, clovertown, measured);
        QCOMPARE(n.cpi.size(), pairs.size());
        QCOMPARE(n.cpi[n.index], measured);
        QCOMPARE(n.error, 0.0);
    }
    // A CPI between the predictions picks the nearest one.
    const double measured = 1.05;
    const core::NearestPair n = core::nearestStartingPair(pairs, clovertown, measured);
    for (double c : n.cpi)
        QVERIFY(std::abs(c - measured) >= n.error);
    QCOMPARE(n.error, std::abs(n.cpi[n.index] - measured));
    // Transient predictions work the same way.
    QVERIFY(core::nearestStartingPair(pairs, clovertown, 1.01, 20).error >= 0);
}

void TestMarkovCounters::isoCpiCurve_data()
{
    QTest::addColumn<std::vector<int>>("threads");
    QTest::addColumn<double>("cpi");
    QTest::newRow("Table 5.18 maximum, 2 x 1") << std::vector<int>{1, 1} << 500.2501250625;
    QTest::newRow("4 x 2, CPI 1.2") << std::vector<int>{2, 2, 2, 2} << 1.2;
    QTest::newRow("mixed groups, CPI 3") << std::vector<int>{1, 3, 2} << 3.0;
    QTest::newRow("one thread, CPI 1.5 (s < 1/2)") << std::vector<int>{1} << 1.5;
    QTest::newRow("16 x 8, CPI 1.5") << std::vector<int>(16, 8) << 1.5;
}

void TestMarkovCounters::isoCpiCurve()
{
    QFETCH(std::vector<int>, threads);
    QFETCH(double, cpi);
    // The logit grid: with many threads the band hugs q = 1.
    const std::vector<double> qs = core::MarkovGrid{core::MarkovGridKind::Logit, 200}.values();
    const std::vector<core::PQPoint> curve = core::isoCpiCurve(threads, cpi, qs);
    QVERIFY(curve.size() >= 2);
    for (std::size_t i = 0; i < curve.size(); ++i) {
        const auto &pt = curve[i];
        QVERIFY(pt.p >= 0 && pt.p <= 1 && pt.q >= 0 && pt.q < 1);
        QVERIFY2(std::abs(steadyCpi(threads, pt.p, pt.q) / cpi - 1) < 1e-9,
                 qPrintable(QStringLiteral("p=%1 q=%2").arg(pt.p).arg(pt.q)));
        if (i > 0) {
            QVERIFY(pt.q > curve[i - 1].q);  // ordered by q
            QVERIFY(pt.p < curve[i - 1].p);  // trading q for p along the band
        }
    }
    // Where the band reaches p = 1 it starts with that end point.
    int n = 0;
    for (int t : threads)
        n += t;
    const double s = std::pow(1 - 1 / cpi, 1.0 / n);
    if (2 - 1 / s >= 0) {
        QCOMPARE(curve.front().p, 1.0);
        QVERIFY(std::abs(curve.front().q - (2 - 1 / s)) < 1e-12);
    } else {
        QCOMPARE(curve.front().q, qs.front());
    }
}

void TestMarkovCounters::isoCpiEdges()
{
    // Table 5.18: the 2-thread maximum 500.25 lies on (0.999, 0.999).
    const std::vector<double> q{0.5, 0.9, 0.999};
    const auto curve = core::isoCpiCurve(std::vector<int>{1, 1}, 1 / (1 - 0.999 * 0.999), q);
    QVERIFY(std::abs(curve.back().p - 0.999) < 1e-9 && curve.back().q == 0.999);
    // CPI 1: only p = 0.
    const auto flat = core::isoCpiCurve(std::vector<int>{2}, 1, q);
    QCOMPARE(flat.size(), q.size());
    for (const auto &pt : flat)
        QCOMPARE(pt.p, 0.0);
    // q = 1 is left out: the CPI jumps there.
    const std::vector<double> withOne{0.9, 1.0};
    QCOMPARE(core::isoCpiCurve(std::vector<int>{2}, 2, withOne).back().q, 0.9);

    QVERIFY(messageOf([] { core::isoCpiCurve(std::vector<int>{2}, 0.5, std::vector<double>{0.5}); })
                    .contains("CPI must be a finite number >= 1"));
    QVERIFY(messageOf([] { core::isoCpiCurve(std::vector<int>{2}, INFINITY, std::vector<double>{0.5}); })
                    .contains("CPI must be"));
    QVERIFY(messageOf([] { core::isoCpiCurve(std::vector<int>{2}, 2, std::vector<double>{1.5}); })
                    .contains("q must be between 0 and 1"));
    QVERIFY(messageOf([] { core::isoCpiCurve(std::vector<int>{0}, 2, std::vector<double>{0.5}); })
                    .contains("threads must be between"));
}

void TestMarkovCounters::invalidCountersAreRejected()
{
    QVERIFY(messageOf([] { core::estimateP(kTableFourFour, 0); }).contains("instructions retired must be"));
    QVERIFY(messageOf([] { core::estimateP(kTableFourFour, NAN); }).contains("instructions retired must be"));
    QVERIFY(messageOf([] {
                const std::vector<SuspendEvent> e{{"A", -1, 0}};
                core::estimateP(e, 10);
            }).contains("event 'A': multi-threaded count must be"));
    QVERIFY(messageOf([] {
                const std::vector<SuspendEvent> e{{"", 1, INFINITY}};
                core::estimateP(e, 10);
            }).contains("event 1: single-threaded count must be"));
    QVERIFY(messageOf([] {
                const std::vector<SuspendEvent> e{{"A", 80, 10}};
                core::estimateP(e, 50);
            }).contains("exceeds 1"));
    QVERIFY(messageOf([] {
                const std::vector<StallEvent> e{{"X", 10, 0.5}};
                core::estimateQ(e);
            }).contains("event 'X': latency must be"));
    QVERIFY(messageOf([] {
                const std::vector<StallEvent> e{{"X", -2, 3}};
                core::estimateQ(e);
            }).contains("event 'X': count must be"));
    QVERIFY(messageOf([] {
                const std::vector<StallEvent> e{{"X", 0, 3}};
                core::estimateQ(e);
            }).contains("at least one stall event"));
    QVERIFY(messageOf([] { core::estimateQ({}); }).contains("at least one stall event"));
    // Products and sums beyond a double are refused by the event, never printed as inf or misnamed "no
    // stall event with a count".
    QCOMPARE(messageOf([] {
                 const std::vector<StallEvent> e{{"X", 1e3, 10}, {"Y", 1e200, 1e100}};
                 core::estimateQ(e);
             }),
             QStringLiteral("event 'Y': count 1e+200 x latency 1e+100 cycles, squared latency weighting: more "
                            "than a double holds (about 1.8e308)"));
    QCOMPARE(messageOf([] {
                 const std::vector<SuspendEvent> e{{"A", 1e308, 0}};
                 core::estimateP(e, 1e-310);
             }),
             QStringLiteral("event 'A': p exceeds 1: more extra stall events (1e+308) than instructions retired "
                            "(1e-310)"));
    QCOMPARE(messageOf([] {
                 const std::vector<SuspendEvent> e{{"A", 1.5e308, 0}, {"B", 1.5e308, 0}};
                 core::estimateP(e, 1e300);
             }),
             QStringLiteral("event 'B': the extra stall events add up to more than a double holds (about 1.8e308)"));
    QCOMPARE(messageOf([] {
                 const std::vector<SuspendEvent> e{{"A", 80, 10}};
                 core::estimateP(e, 50);
             }),
             QStringLiteral("p = 1.4 exceeds 1: more extra stall events (70) than instructions retired (50)"));
    const auto pairs = core::startingPairs(core::estimateP(kTableFourFour, 50).vector,
                                           core::estimateQ(kTableFourFive).vector);
    // Below 1 (a superscalar core): refused with the reason, the model's single-issue CPI floor.
    QCOMPARE(messageOf([&] { core::nearestStartingPair(pairs, std::vector<int>{2}, 0.9); }),
             QString::fromStdString(core::measuredCpiBelowOne(0.9)));
    QVERIFY(QString::fromStdString(core::measuredCpiBelowOne(0.77))
                    .startsWith("measured CPI 0.77 is below 1, which the Markov model cannot reach"));
    QVERIFY(QString::fromStdString(core::measuredCpiBelowOne(0.77)).contains("superscalar"));
}

void TestMarkovCounters::tableFiveTwentyRule()
{
    // Table 5.20, application 1: PEC printed as single - multi, 18 + 22 of 100 instructions: p = 0.4. Eq. 6
    // rejects both terms (fewer events in the parallel run).
    const std::vector<SuspendEvent> app1{{"branch", 2, 20}, {"division", 33, 55}, {"cache", 0, 0}};
    QCOMPARE(core::estimateP(app1, 100).vector.all, 0.0);
    QCOMPARE(core::estimateP(app1, 100, core::SuspendDifference::MultiMinusSingle).vector.all, 0.0);
    const auto thesis = core::estimateP(app1, 100, core::SuspendDifference::SingleMinusMulti);
    QVERIFY(std::abs(thesis.vector.all - 0.4) < 1e-12);
    QVERIFY(std::abs(thesis.pec[0] - 0.18) < 1e-12 && std::abs(thesis.pec[1] - 0.22) < 1e-12);
    QCOMPARE(thesis.vector.lowest_event, std::optional<std::size_t>(2)); // the cache row, PEC 0
    QCOMPARE(thesis.vector.highest_event, std::optional<std::size_t>(1));
    QCOMPARE(core::suspendDifferenceName(core::SuspendDifference::SingleMinusMulti), std::string_view("single-multi"));
}

void TestMarkovCounters::tableFiveTwentyOneRule()
{
    // Table 5.21: M = sum f m^2 / sum f with f = (3, 2): 8.8, 246.4, 642.4, 880 and q = 0.886 ... 0.999. The
    // default (Eq. 8) weighs by stall cycles and stays between the latencies.
    const double published[4] = {0.886, 0.996, 0.998, 0.999};
    const double m[4][2] = {{2, 4}, {20, 4}, {2, 40}, {20, 40}};
    const double mean[4] = {8.8, 246.4, 642.4, 880};
    for (int i = 0; i < 4; ++i) {
        const std::vector<StallEvent> events{{"A", 3, m[i][0]}, {"B", 2, m[i][1]}};
        const auto occurrences = core::estimateQ(events, core::LatencyWeighting::Occurrences);
        QVERIFY(std::abs(occurrences.mean_latency - mean[i]) < 1e-9);
        QVERIFY(std::abs(occurrences.vector.all - published[i]) < 5e-4);
        const auto cycles = core::estimateQ(events);
        QCOMPARE(cycles.mean_latency, core::estimateQ(events, core::LatencyWeighting::StallCycles).mean_latency);
        QVERIFY(cycles.mean_latency >= std::min(m[i][0], m[i][1]) && cycles.mean_latency <= std::max(m[i][0], m[i][1]));
    }
    // Table 4.5 is the same under the default either way it is called.
    QCOMPARE(core::estimateQ(kTableFourFive).mean_latency, 7.25);
}

void TestMarkovCounters::counterFile()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + QStringLiteral("/c.json")).toStdString();
    std::ofstream(path) << R"({"instructions": 50, "suspend": [{"name": "A", "multi": 20, "single": 10}],
                              "stall": [{"name": "X", "count": 10, "latency": 3}], "measured_cpi": 1.5})";
    const core::CounterInputs in = core::readCounterFile(path);
    QCOMPARE(in.instructions, 50.0);
    QCOMPARE(in.suspend.size(), std::size_t(1));
    QCOMPARE(in.stall.front().latency, 3.0);
    QCOMPARE(in.measured_cpi, std::optional<double>(1.5));
    const auto fails = [&](const char *text, const char *expected) {
        std::ofstream(path) << text;
        const QString message = messageOf([&] { core::readCounterFile(path); });
        QVERIFY2(message.contains(QLatin1String(expected)) && message.contains(QLatin1String("c.json")),
                 qPrintable(message));
    };
    fails(R"({"instructions": 50, "stall": [{"count": 1, "latency": 0.5}]})", "stall[0].latency");
    fails(R"({"instructions": 50, "stalls": []})", "stalls");
    fails(R"({"instructions": -1})", "instructions");
    fails(R"([1, 2])", "must be an object");
    fails(R"({"instructions": 50, "suspend": [{"name": "A", "multi": 1, "single": 2, "x": 3}]})", "suspend[0].x");
}

void TestMarkovCounters::recordingCommands()
{
    const core::RecordingCommands plain = core::recordingCommands(core::defaultRecordingEvents(), "./app 8");
    QCOMPARE(plain.multi, std::string("perf stat -x, -e cycles,instructions,LLC-load-misses,dTLB-load-misses,"
                                      "branch-misses -o multi.csv ./app 8"));
    QCOMPARE(plain.single, std::string("perf stat -x, -e cycles,instructions,LLC-load-misses,dTLB-load-misses,"
                                       "branch-misses -o single.csv taskset -c 0 ./app 8"));
    // An uncore event's '=' and ',' pass as they are; a group's braces are quoted for the shell.
    const std::vector<std::string> events{"imc/event=0x04,umask=0x0f/", "{r08d1,r01d1}"};
    QCOMPARE(core::recordingCommands(std::span(events.data(), 1), "p").multi,
             std::string("perf stat -x, -e imc/event=0x04,umask=0x0f/ -o multi.csv p"));
    QCOMPARE(core::recordingCommands(events, "p").single,
             std::string("perf stat -x, -e 'imc/event=0x04,umask=0x0f/,{r08d1,r01d1}' -o single.csv taskset -c 0 p"));
}

QTEST_APPLESS_MAIN(TestMarkovCounters)
#include "tst_markov_counters.moc"
