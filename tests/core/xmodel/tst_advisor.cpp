// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor_fixtures.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "model_fixtures.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using namespace crossroof::advisor_test;
using core::CacheMode;
using core::TuningOperation;
using core::XModel;
using core::XModelParams;

Q_DECLARE_METATYPE(crossroof::core::XModelParams)

namespace {

/// The flagship sample's workload on the GTX 570 (docs/samples/gtx570-thrashing.crossroof): bistable, a
/// compute-bound operating point and a low state at k near 31 that sits at x < pi.
XModelParams flagship()
{
    return with(with(with(with(test::thrashingFermi(), "L_c", 20), "Z", 11), "alpha", 10), "beta", 5);
}

double operatingCs(const XModelParams &p)
{
    return XModel(p).solve().operatingPoint().cs_gops;
}

/// What the advisor maximises: the operating point's CS throughput, or the low state's when bistable.
double judgedCs(const XModelParams &p, bool fromLow)
{
    return fromLow ? lowState(p).cs_gops : operatingCs(p);
}

/// Brute force with full solves: the n in 1..p.n with the highest CS throughput at the operating point (or
/// the low state), ties to the largest n.
int bruteForceBestN(const XModelParams &p, bool fromLow = false)
{
    std::vector<double> cs;
    for (int n = 1; n <= int(p.n); ++n)
        cs.push_back(judgedCs(with(p, "n", n), fromLow));
    const double top = *std::max_element(cs.begin(), cs.end());
    int best = 1;
    for (int n = 1; n <= int(p.n); ++n) {
        if (cs[std::size_t(n - 1)] >= top - 1e-9 * top)
            best = n;
    }
    return best;
}

const core::TuningAdvice &find(const core::Advice &a, TuningOperation op)
{
    return *std::find_if(a.operations.begin(), a.operations.end(),
                         [op](const core::TuningAdvice &t) { return t.operation == op; });
}

} // namespace

class TestAdvisor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void throttlingOptimumIsTheBruteForceOptimum_data();
    void throttlingOptimumIsTheBruteForceOptimum();
    void gainsAreDifferencesOfFullEvaluations_data();
    void gainsAreDifferencesOfFullEvaluations();
    void operationsAreDefinedAsDocumented();
    void lowerEIsTheBestCandidate();
    void bypassIsTheBestCandidate();
    void applicability();
    void principles();
    void noChangeIsSaidAsNone();
    void bistableMachineIsAdvisedFromItsLowState();
    void badOptions();
    void changesReadAsSymbolValuesAndUnit();
    void aSearchThatEndsWhereItStartedIsNoRow();
    void tiesSayWhy();
};

void TestAdvisor::throttlingOptimumIsTheBruteForceOptimum_data()
{
    QTest::addColumn<XModelParams>("params");
    QTest::newRow("thrashing, n = 48") << thrashing();
    QTest::newRow("bistable fixture") << test::thrashingFermi();
    QTest::newRow("loop fixture, n = 160") << with(loopFermi(), "n", 160);
    XModelParams none = thrashing();
    none.cache = CacheMode::None;
    QTest::newRow("no cache") << none;
    std::mt19937_64 rng(9);
    for (int i = 0; i < 12; ++i) {
        XModelParams p = test::thrashingFermi();
        p.n = std::round(std::uniform_real_distribution<double>(8, 96)(rng));
        p.Z = std::pow(10.0, std::uniform_real_distribution<double>(0.3, 1.5)(rng));
        p.E = std::pow(10.0, std::uniform_real_distribution<double>(-1.5, 0.5)(rng));
        p.beta = std::pow(10.0, std::uniform_real_distribution<double>(-0.3, 1)(rng));
        QTest::newRow(qPrintable(QStringLiteral("random %1").arg(i))) << p;
    }
}

void TestAdvisor::throttlingOptimumIsTheBruteForceOptimum()
{
    QFETCH(XModelParams, params);
    QCOMPARE(core::bestThreadCount(params), bruteForceBestN(params));
    const auto a = core::advise(params);
    const bool low = a.from_low_state;
    const int best = core::bestThreadCount(params, low);
    QCOMPARE(best, bruteForceBestN(params, low));
    const auto &op = find(a, TuningOperation::ThreadThrottling);
    if (best == int(params.n)) {
        // No smaller n is better: a row "n 48 -> 48" would rank a change that is none.
        QVERIFY(!op.applicable);
        QVERIFY2(QString::fromStdString(op.reason).contains(QLatin1String("is already the best")), op.reason.c_str());
        return;
    }
    QVERIFY(op.applicable);
    QCOMPARE(op.changes.size(), std::size_t(1));
    QCOMPARE(op.changes[0].key, std::string_view("n"));
    QCOMPARE(op.changes[0].to, double(best));
    // n itself is a candidate: never worse by the measure the search uses.
    if (low)
        QVERIFY(op.low_cs_change_gops >= -1e-9 * a.low_cs_gops);
    else
        QVERIFY(op.cs_change_gops >= -1e-9 * a.cs_gops);
}

void TestAdvisor::gainsAreDifferencesOfFullEvaluations_data()
{
    QTest::addColumn<XModelParams>("params");
    QTest::newRow("thrashing") << thrashing();
    QTest::newRow("bistable fixture") << test::thrashingFermi();
    QTest::newRow("loop fixture") << with(loopFermi(), "n", 148);
    QTest::newRow("flagship sample") << flagship();
    XModelParams fixed = thrashing();
    fixed.cache = CacheMode::Fixed;
    fixed.h = 0.4;
    QTest::newRow("fixed hit rate") << fixed;
}

void TestAdvisor::gainsAreDifferencesOfFullEvaluations()
{
    QFETCH(XModelParams, params);
    const auto a = core::advise(params);
    const auto now = XModel(params).solve();
    QCOMPARE(a.ms_gbs, now.operatingPoint().ms_gbs);
    QCOMPARE(a.cs_gops, now.operatingPoint().cs_gops);
    QCOMPARE(a.stable_count, now.stableCount());
    QCOMPARE(a.from_low_state, now.stableCount() >= 2);
    const core::Equilibrium low = lowState(params);
    QCOMPARE(a.low_k, low.k);
    QCOMPARE(a.low_cs_gops, low.cs_gops);
    QCOMPARE(a.low_ms_gbs, low.ms_gbs);
    QVERIFY(a.low_cs_gops <= a.cs_gops); // the low state is never above the operating point
    QCOMPARE(a.operations.size(), std::size_t(6));
    int expectedRank = 0;
    double previousGain = std::numeric_limits<double>::infinity();
    bool seenInapplicable = false;
    for (const auto &op : a.operations) {
        if (!op.applicable) {
            seenInapplicable = true;
            QCOMPARE(op.rank, 0);
            QVERIFY(!op.reason.empty());
            continue;
        }
        QVERIFY2(!seenInapplicable, "applicable operations come first");
        QCOMPARE(op.rank, ++expectedRank);
        // Ranked by CS gain, from the low state when bistable.
        const double gain = a.from_low_state ? op.low_cs_change_gops : op.cs_change_gops;
        QVERIFY(gain <= previousGain);
        previousGain = gain;

        // The changed parameters are the current ones with exactly the listed changes.
        XModelParams after = params;
        for (const auto &c : op.changes) {
            QCOMPARE(c.from, params.*(core::findParameter(c.key)->member));
            after.*(core::findParameter(c.key)->member) = c.to;
        }
        QVERIFY(after == op.params);
        QVERIFY(!(after == params)); // never a row that changes nothing
        // Each gain is the difference of two full model evaluations, to the last bit.
        const auto later = XModel(after).solve().operatingPoint();
        QCOMPARE(op.k, later.k);
        QCOMPARE(op.ms_gbs, later.ms_gbs);
        QCOMPARE(op.cs_gops, later.cs_gops);
        QCOMPARE(op.ms_change_gbs, later.ms_gbs - now.operatingPoint().ms_gbs);
        QCOMPARE(op.cs_change_gops, later.cs_gops - now.operatingPoint().cs_gops);
        QVERIFY(qFuzzyCompare(*op.cs_change_percent + 100,
                              100 * later.cs_gops / now.operatingPoint().cs_gops));
        QVERIFY(qFuzzyCompare(*op.ms_change_percent + 100, 100 * later.ms_gbs / now.operatingPoint().ms_gbs));
        // The low states too, before and after.
        const core::Equilibrium lowAfter = lowState(after);
        QCOMPARE(op.stable_count, XModel(after).solve().stableCount());
        QCOMPARE(op.low_k, lowAfter.k);
        QCOMPARE(op.low_cs_gops, lowAfter.cs_gops);
        QCOMPARE(op.low_cs_change_gops, lowAfter.cs_gops - low.cs_gops);
        QCOMPARE(op.low_ms_change_gbs, lowAfter.ms_gbs - low.ms_gbs);
        if (!a.from_low_state && op.stable_count == 1)
            QCOMPARE(op.low_cs_change_gops, op.cs_change_gops); // one state before and after: the same
    }
    QVERIFY(expectedRank >= 2);
}

void TestAdvisor::operationsAreDefinedAsDocumented()
{
    const XModelParams p = thrashing();
    const auto a = core::advise(p);
    const auto lm = XModel(p).landmarks();
    auto changeOf = [&](TuningOperation op) {
        const auto &t = find(a, op);
        return std::pair(std::string(t.changes.at(0).key), t.changes.at(0).to);
    };
    const auto bypass = changeOf(TuningOperation::CacheBypassing);
    QCOMPARE(bypass.first, std::string("bypass"));
    QVERIFY(bypass.second > 0 && bypass.second <= 0.95);
    QVERIFY(lm.psi);
    QCOMPARE(changeOf(TuningOperation::LargerCache), std::pair(std::string("S_s"), 2 * p.S_s));
    QCOMPARE(changeOf(TuningOperation::FasterCache), std::pair(std::string("L_s"), p.L_s / 2));
    QCOMPARE(changeOf(TuningOperation::RaiseZ), std::pair(std::string("Z"), p.Z * 1.25));
    // Lower ILP: the best E in [E/2, E); where E itself is best the operation changes nothing and says so.
    const auto &lowerE = find(a, TuningOperation::LowerE);
    if (lowerE.applicable) {
        const auto e = changeOf(TuningOperation::LowerE);
        QCOMPARE(e.first, std::string("E"));
        QVERIFY(e.second >= p.E / 2 && e.second < p.E);
    } else {
        QVERIFY2(QString::fromStdString(lowerE.reason).startsWith(QLatin1String("no E between")),
                 lowerE.reason.c_str());
    }

    core::AdvisorOptions options;
    options.cache_size_kib = 48; // the paper's 16 -> 48 KiB L1 (Fig. 13)
    options.z_factor = 1.5;
    const auto b = core::advise(p, options);
    QCOMPARE(find(b, TuningOperation::LargerCache).changes[0].to, 48.0);
    QCOMPARE(find(b, TuningOperation::RaiseZ).changes[0].to, 6.0);

    // In the thrashing state the paper's remedies help (Figs. 13-16): a larger cache, throttling, raising Z.
    QVERIFY(find(a, TuningOperation::LargerCache).cs_change_gops > 0);
    QVERIFY(find(a, TuningOperation::ThreadThrottling).cs_change_gops > 0);
    QVERIFY(find(a, TuningOperation::RaiseZ).cs_change_gops > 0);
    QVERIFY(find(a, TuningOperation::FasterCache).cs_change_gops > 0);
    QVERIFY(find(a, TuningOperation::CacheBypassing).cs_change_gops > 0);
}

void TestAdvisor::bypassIsTheBestCandidate()
{
    // The chosen share against every candidate with full solves; ties go to the smallest change.
    for (const XModelParams &p :
         {thrashing(), with(thrashing(), "n", 24), with(thrashing(), "bypass", 0.2), flagship()}) {
        const core::Advice advice = core::advise(p); // kept: op refers into it
        const auto &op = find(advice, TuningOperation::CacheBypassing);
        QVERIFY(op.applicable);
        const bool low = advice.from_low_state;
        const double chosen = low ? op.low_cs_gops : op.cs_gops;
        const double b = op.changes.at(0).to;
        for (int i = 0; i < 96; ++i) {
            const double candidate = p.bypass + (0.95 - p.bypass) * i / 95.0;
            const double cs = judgedCs(with(p, "bypass", candidate), low);
            QVERIFY(cs <= chosen + 1e-9 * chosen);
            if (cs >= chosen - 1e-9 * chosen)
                QVERIFY(candidate >= b - 1e-12);
        }
    }
}

void TestAdvisor::lowerEIsTheBestCandidate()
{
    // Lowering E helps under thrashing when a shallower demand line meets f higher up (Fig. 17): check the
    // chosen E against every candidate with full solves.
    for (const XModelParams &p : {thrashing(), with(loopFermi(), "E", 0.012), with(thrashing(), "E", 4),
                                  flagship()}) {
        const core::Advice advice = core::advise(p); // kept: op refers into it
        const auto &op = find(advice, TuningOperation::LowerE);
        const bool low = advice.from_low_state;
        // Not applicable: E itself is the best candidate, and the current throughput is what to beat.
        const double chosen = op.applicable ? (low ? op.low_cs_gops : op.cs_gops)
                                            : (low ? advice.low_cs_gops : advice.cs_gops);
        for (int i = 0; i < 65; ++i) {
            const double e = p.E * (0.5 + 0.5 * i / 64.0);
            QVERIFY(judgedCs(with(p, "E", e), low) <= chosen + 1e-9 * chosen);
        }
    }
}

void TestAdvisor::applicability()
{
    XModelParams none = thrashing();
    none.cache = CacheMode::None;
    const auto a = core::advise(none);
    QVERIFY(!find(a, TuningOperation::CacheBypassing).applicable);
    QVERIFY(!find(a, TuningOperation::LargerCache).applicable);
    QVERIFY(!find(a, TuningOperation::FasterCache).applicable);
    // Without a cache more warps never lower the throughput: n is already the best, and throttling is no row.
    QVERIFY(!find(a, TuningOperation::ThreadThrottling).applicable);
    QCOMPARE(find(a, TuningOperation::ThreadThrottling).reason,
             std::string("n = 48 is already the best: no smaller n raises the CS throughput"));
    QVERIFY(find(a, TuningOperation::RaiseZ).applicable);
    // f never falls, so a shallower demand line cannot meet it higher: no E below the current one helps.
    QVERIFY(!find(a, TuningOperation::LowerE).applicable);
    QCOMPARE(a.operations.back().rank, 0);

    XModelParams fixed = thrashing();
    fixed.cache = CacheMode::Fixed;
    const auto b = core::advise(fixed);
    QVERIFY(!find(b, TuningOperation::LargerCache).applicable); // S_s does not enter f with a fixed hit rate
    QVERIFY(find(b, TuningOperation::FasterCache).applicable);
}

void TestAdvisor::noChangeIsSaidAsNone()
{
    // On f's plateau (no cache, k beyond R*L) raising Z leaves MS throughput where it is; the solver's rounding
    // had printed "MS -4.547e-13 GB/s".
    core::XModelParams p = test::thrashingFermi();
    p.cache = core::CacheMode::None;
    // An H100 SXM as its bundled profile has it, at the start's n = 64 and Z = 32.
    p.sm_count = 132;
    p.clock_ghz = 1.98;
    p.max_warps = 64;
    p.n = 64;
    p.R = 2072;
    p.L = 759.8;
    p.M = 2.956;
    p.L_c = 3.8;
    int plateaus = 0;
    for (double Z : {16.0, 32.0, 48.0}) {
        p.Z = Z;
        const auto a = core::advise(p);
        const auto &z = find(a, TuningOperation::RaiseZ);
        QVERIFY(z.applicable);
        const QString why = QString::fromStdString(z.why);
        QVERIFY2(!why.contains(QLatin1String("e-")), qPrintable(why));
        if (std::abs(z.ms_change_gbs) <= 1e-9 * a.ms_gbs) {
            ++plateaus;
            QVERIFY2(why.contains(QLatin1String("MS unchanged")), qPrintable(why));
        }
    }
    QVERIFY(plateaus > 0);
}

void TestAdvisor::principles()
{
    const auto a = core::advise(thrashing());
    for (const auto &op : a.operations) {
        if (!op.applicable)
            continue;
        QCOMPARE(op.principle, op.operation == TuningOperation::RaiseZ ? 3 : 2);
        QVERIFY(!op.why.empty());
        QVERIFY(op.why.back() == '.');
    }
    // Thrashing at x < pi: Z up raises CS (Principle 3) though MS barely moves (Fig. 16).
    const auto &z = find(a, TuningOperation::RaiseZ);
    QVERIFY(QString::fromStdString(z.why).contains(QLatin1String("right of the CS transition")));
    // The bistable fixture (L_c = 1) has both stable states compute-bound (x >= pi): judged from the low state,
    // raising Z cannot raise CS throughput.
    const auto b = core::advise(test::thrashingFermi());
    QVERIFY(b.from_low_state);
    const auto &zb = find(b, TuningOperation::RaiseZ);
    QVERIFY(zb.cs_change_gops <= 1e-9 * b.cs_gops);
    QVERIFY(zb.low_cs_change_gops <= 1e-9 * b.low_cs_gops);
    QVERIFY(QString::fromStdString(zb.why).contains(QLatin1String("saturated")));
    // With L_c = 20 the flagship's low state lies at x < pi, and Z x 1.25 leaves one stable state: the
    // explanation says both.
    const auto f = core::advise(flagship());
    const auto &zf = find(f, TuningOperation::RaiseZ);
    QVERIFY2(QString::fromStdString(zf.why).startsWith(QLatin1String("One stable state is left")), zf.why.c_str());
    QVERIFY(QString::fromStdString(zf.why).contains(QLatin1String("right of the CS transition")));
}

void TestAdvisor::bistableMachineIsAdvisedFromItsLowState()
{
    // The flagship sample: from a cold start the GTX 570 runs compute-bound at M (702.7 Gop/s), where no
    // operation can gain; a perturbation beyond the margin leaves it thrashing at k near 31. From there the
    // paper's remedies gain for real (Figs. 14-16), each by leaving one stable state.
    const XModelParams p = flagship();
    const auto a = core::advise(p);
    QCOMPARE(a.stable_count, 2);
    QVERIFY(a.from_low_state);
    QVERIFY(a.low_k > 30 && a.low_k < 32);
    QVERIFY(a.low_cs_gops < 0.9 * a.cs_gops);
    for (TuningOperation t : {TuningOperation::ThreadThrottling, TuningOperation::CacheBypassing,
                              TuningOperation::LargerCache, TuningOperation::RaiseZ, TuningOperation::LowerE}) {
        const auto &op = find(a, t);
        QVERIFY(op.applicable);
        QVERIFY(op.cs_change_gops <= 1e-9 * a.cs_gops); // nothing to gain at the operating point
        QVERIFY2(op.low_cs_change_gops > 0.1 * a.low_cs_gops, op.why.c_str());
        QCOMPARE(op.stable_count, 1);
        QVERIFY(op.rank >= 1 && op.rank <= 5);
        // Applied, the machine has one state, as good as the operating point was: the gain is the whole fall.
        QVERIFY(qFuzzyCompare(op.low_cs_gops, a.cs_gops));
    }
    // Throttling keeps the most warps that leave one stable state: one more and the machine is bistable again.
    const double n = find(a, TuningOperation::ThreadThrottling).changes.at(0).to;
    QVERIFY(n < p.n);
    QCOMPARE(XModel(with(p, "n", n)).solve().stableCount(), 1);
    QCOMPARE(XModel(with(p, "n", n + 1)).solve().stableCount(), 2);

    // A machine with one stable state is advised from its operating point, and its low state is that point.
    const auto one = core::advise(thrashing());
    QVERIFY(!one.from_low_state);
    QCOMPARE(one.low_k, one.k);
    QCOMPARE(one.low_cs_gops, one.cs_gops);
}

void TestAdvisor::badOptions()
{
    core::AdvisorOptions small;
    small.cache_size_kib = 8; // below S_s = 16
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::advise(thrashing(), small));
    core::AdvisorOptions z;
    z.z_factor = 1;
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::advise(thrashing(), z));
    XModelParams bad = thrashing();
    bad.n = 0;
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::advise(bad));
}

void TestAdvisor::changesReadAsSymbolValuesAndUnit()
{
    QCOMPARE(core::describeChange({"n", 48, 29}), std::string("n 48 -> 29 warps"));
    QCOMPARE(core::describeChange({"bypass", 0, 0.3}), std::string("b 0 -> 0.3"));
    QCOMPARE(core::describeChange({"S_s", 16, 32}, " \u2192 "), std::string("S_s 16 \u2192 32 KiB"));
    QCOMPARE(core::describeChange({"E", 0.6, 0.123456}), std::string("E 0.6 -> 0.1235"));
}

void TestAdvisor::aSearchThatEndsWhereItStartedIsNoRow()
{
    // Mid-drag the thrashing workload passes the n that throttling would pick: there the row read "n: 23 -> 23"
    // and was ranked. Now it does not apply and says why; the other operations are ranked without it.
    const XModelParams p = thrashing();
    const int best = core::bestThreadCount(p);
    QVERIFY(best < int(p.n));
    const core::Advice a = core::advise(with(p, "n", best));
    const auto &op = find(a, TuningOperation::ThreadThrottling);
    QVERIFY(!op.applicable);
    QCOMPARE(op.rank, 0);
    QCOMPARE(op.reason, "n = " + std::to_string(best) + " is already the best: no smaller n raises the CS throughput");
    for (const auto &other : a.operations) {
        if (other.applicable)
            QVERIFY(!(other.params == a.params));
    }
    // A parameter at its limit: raising Z past the model's largest value is no change either.
    const XModelParams top = with(p, "Z", core::findParameter("Z")->max);
    const core::Advice atTop = core::advise(top); // kept: z refers into it
    const auto &z = find(atTop, TuningOperation::RaiseZ);
    QVERIFY(!z.applicable);
    QVERIFY2(QString::fromStdString(z.reason).contains(QLatin1String("already the largest")), z.reason.c_str());
}

void TestAdvisor::tiesSayWhy()
{
    // The flagship sample: from the low state five operations gain the same +18 %, since each leaves one stable
    // state, the compute-bound operating point the machine had from a cold start.
    const core::Advice a = core::advise(flagship());
    QVERIFY(a.from_low_state);
    int tied = 0;
    for (const auto &op : a.operations) {
        if (!op.applicable || op.ties.empty())
            continue;
        ++tied;
        QVERIFY(std::find(op.ties.begin(), op.ties.end(), op.name) == op.ties.end());
        QVERIFY2(QString::fromStdString(op.tie_reason).startsWith(QLatin1String("each leaves one stable state")),
                 op.tie_reason.c_str());
        QVERIFY2(QString::fromStdString(op.tie_reason).contains(QLatin1String("saturated at M")),
                 op.tie_reason.c_str());
        for (std::string_view other : op.ties) {
            const auto &b = *std::find_if(a.operations.begin(), a.operations.end(),
                                          [other](const core::TuningAdvice &t) { return t.name == other; });
            QVERIFY(qFuzzyCompare(b.low_cs_gops, op.low_cs_gops));
        }
    }
    QVERIFY(tied >= 5);
    // The thrashing state alone: the gains differ, and no row claims a tie.
    const core::Advice t = core::advise(thrashing());
    for (const auto &op : t.operations) {
        QVERIFY2(op.ties.empty(), op.name.data());
        QVERIFY(op.tie_reason.empty());
    }
}

QTEST_APPLESS_MAIN(TestAdvisor)
#include "tst_advisor.moc"
