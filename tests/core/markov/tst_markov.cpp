// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/markov/literal_chain.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using core::CacheGroup;
using core::LiteralMarkovChain;
using core::MarkovResult;
using core::MarkovTopology;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void checkSane(const MarkovResult &r)
{
    QVERIFY(!std::isnan(r.cpi) && !std::isnan(r.p_all_suspended) && !std::isnan(r.p_any_active));
    QVERIFY(r.p_all_suspended >= 0 && r.p_all_suspended <= 1);
    QVERIFY(r.p_any_active >= 0 && r.p_any_active <= 1);
    QVERIFY(r.cpi >= 1);
    QCOMPARE(r.infinite, std::isinf(r.cpi));
}

double cpi(const MarkovTopology &t, std::optional<long long> steps = std::nullopt)
{
    return core::solveMarkovExact(t, steps).cpi;
}

} // namespace

class TestMarkov : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableFiveEighteen_data();
    void tableFiveEighteen();
    void edgeCases();
    void periodicChain();
    void neverNaN();
    void cpiRisesWithPAndQ();
    void cpiFallsAsThreadsAreAdded();
    void transientRisesAndSaturates();
    void surfaceMatchesPointwiseSolve();
    void fineSurfaceMatchesPointwiseSolve();
    void grids();
    void invalidInputIsRejected();
};

void TestMarkov::tableFiveEighteen_data()
{
    // Table 5.18 of markov-thread-mapping.txt: maximum predicted CPI over the 25 x 25 grid of 5.3.1. The
    // printed table lost its cell boundaries; the configurations are those listed in 5.3.1 (a-h), matched to
    // the rows by their state counts prod (N_g + 1): "2 L2 with 4 thread(s)/core" has 25 states and sits in
    // the 8-thread block, so "thread(s)/core" means threads per L2 group. The last row prints 6531 states,
    // a slip for 3^8 = 6561.
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("threads");
    QTest::addColumn<double>("states");
    QTest::addColumn<double>("published");
    QTest::newRow("2 threads: 2 L2 x 1") << 2 << 1 << 4.0 << 500.2;
    QTest::newRow("4 threads: 2 L2 x 2") << 2 << 2 << 9.0 << 250.526;
    QTest::newRow("4 threads: 4 L2 x 1") << 4 << 1 << 16.0 << 250.526;
    QTest::newRow("8 threads: 2 L2 x 4") << 2 << 4 << 25.0 << 125.719;
    QTest::newRow("8 threads: 4 L2 x 2") << 4 << 2 << 81.0 << 125.716;
    QTest::newRow("8 threads: 8 L2 x 1") << 8 << 1 << 256.0 << 125.425;
    QTest::newRow("16 threads: 4 L2 x 4") << 4 << 4 << 625.0 << 63.0732;
    QTest::newRow("16 threads: 8 L2 x 2") << 8 << 2 << 6561.0 << 63.08;
}

void TestMarkov::tableFiveEighteen()
{
    QFETCH(int, groups);
    QFETCH(int, threads);
    QFETCH(double, states);
    QFETCH(double, published);
    const std::vector<int> shape(static_cast<std::size_t>(groups), threads);
    const core::MarkovSurface s = core::markovSurface(shape, core::MarkovGrid{});
    QCOMPARE(s.p.size(), std::size_t(25));
    QCOMPARE(s.cpi.size(), std::size_t(625));
    QCOMPARE(s.system_states, states);
    QVERIFY(!s.max.infinite);
    qInfo("%d x %d: max CPI %.6f (published %.6g, %+.3f %%) at p=%g q=%g; min %.7f", groups, threads,
          s.max.cpi, published, 100 * (s.max.cpi / published - 1), s.max.p, s.max.q, s.min.cpi);
    QVERIFY2(std::abs(s.max.cpi / published - 1) <= 0.01, qPrintable(QString::number(s.max.cpi)));
    // "maximum predicted CPI is always for p = 0.990 to 0.999, and q = 0.999"
    QCOMPARE(s.max.q, 0.999);
    QVERIFY(s.max.p >= 0.99);
    // Column 5: the minimum is 1.0101 +- 1 %, "always unity" (5.3.1).
    QVERIFY(s.min.cpi >= 1 && std::abs(s.min.cpi / 1.0101 - 1) <= 0.01);
    QVERIFY(s.min.cpi - 1 < 1e-5);
    // The literal chain gives the same maximum.
    const MarkovResult literal = core::solveMarkov(core::uniformTopology(groups, threads, s.max.p, s.max.q),
                                                   core::MarkovSolver::Literal);
    QVERIFY(std::abs(literal.cpi - s.max.cpi) <= 1e-9 * s.max.cpi);
}

void TestMarkov::edgeCases()
{
    for (auto solver : {core::MarkovSolver::Exact, core::MarkovSolver::Literal}) {
        for (std::optional<long long> steps : {std::optional<long long>(), std::optional<long long>(1),
                                               std::optional<long long>(25)}) {
            // p = 0: no thread ever suspends.
            MarkovResult r = core::solveMarkov(core::uniformTopology(3, 2, 0, 0.9), solver, steps);
            QCOMPARE(r.cpi, 1.0);
            QCOMPARE(r.p_all_suspended, 0.0);
            QVERIFY(!r.infinite);
            // p = 1, q = 1: every thread suspends at once and forever.
            r = core::solveMarkov(core::uniformTopology(3, 2, 1, 1), solver, steps);
            QVERIFY(r.infinite);
            QVERIFY(std::isinf(r.cpi) && r.cpi > 0);
            QCOMPARE(r.p_all_suspended, 1.0);
            QCOMPARE(r.p_any_active, 0.0);
            checkSane(r);
        }
        // q = 1 with 0 < p < 1 absorbs only in the long run: finite transient, infinite steady state.
        const auto t = core::uniformTopology(2, 2, 0.3, 1);
        QVERIFY(core::solveMarkov(t, solver).infinite);
        const MarkovResult r = core::solveMarkov(t, solver, 5);
        QVERIFY(!r.infinite);
        QVERIFY(std::abs(r.p_all_suspended - std::pow(1 - std::pow(0.7, 5), 4)) < 1e-13);
        // Zero steps: all active.
        QCOMPARE(core::solveMarkov(core::uniformTopology(2, 2, 0.9, 0.9), solver, 0).cpi, 1.0);
    }
    // One step from all-active: each thread suspended with probability p.
    const MarkovResult one = core::solveMarkovExact(core::uniformTopology(2, 3, 0.4, 0.8), 1);
    QVERIFY(std::abs(one.p_all_suspended - std::pow(0.4, 6)) < 1e-15);
    // Near-absorbing chains keep full precision in 1 - P_all.
    const double q = 1 - 1e-12;
    const MarkovResult near = core::solveMarkovExact(core::uniformTopology(1, 1, 1, q));
    QVERIFY(!near.infinite);
    QVERIFY(std::abs(near.cpi / (1 + 1 / (1 - q)) - 1) < 1e-12); // 1 / (1 - s), s = 1 / (2 - q)
}

void TestMarkov::periodicChain()
{
    // p = 1, q = 0: every thread flips on every step, in lockstep from all-active, so the machine is fully
    // suspended on every other step: CPI 2 in the long run, whatever the number of threads.
    for (auto solver : {core::MarkovSolver::Exact, core::MarkovSolver::Literal}) {
        MarkovResult r = core::solveMarkov(core::uniformTopology(3, 2, 1, 0), solver);
        QVERIFY(std::abs(r.cpi - 2) < 1e-12);
        QVERIFY(std::abs(r.p_all_suspended - 0.5) < 1e-12);
        QCOMPARE(core::solveMarkov(core::uniformTopology(3, 2, 1, 0), solver, 7).cpi, kInf);
        QCOMPARE(core::solveMarkov(core::uniformTopology(3, 2, 1, 0), solver, 8).cpi, 1.0);
        // Mixed with an ordinary group: half the time times that group's s^N.
        r = core::solveMarkov({{2, 1, 0}, {2, 0.4, 0.7}}, solver);
        const double s = 0.4 / (0.4 + 0.3);
        QVERIFY(std::abs(r.p_all_suspended - 0.5 * s * s) < 1e-12);
    }
}

void TestMarkov::neverNaN()
{
    const std::vector<double> values{0, 1e-300, 1e-12, 0.3, 0.5, 1 - 1e-12, 1};
    const std::vector<std::optional<long long>> steps{std::nullopt, 0, 1, 2, 1000, 1'000'000'000'000LL};
    const std::vector<MarkovTopology> shapes{core::uniformTopology(1, 1, 0, 0),
                                             core::uniformTopology(3, 4, 0, 0),
                                             core::uniformTopology(100, 100, 0, 0)};
    for (const auto &shape : shapes) {
        for (double p : values) {
            for (double q : values) {
                MarkovTopology t = shape;
                for (auto &g : t)
                    g.p = p, g.q = q;
                for (const auto &k : steps)
                    checkSane(core::solveMarkovExact(t, k));
            }
        }
    }
    core::MarkovSurface s;
    core::markovSurface(std::vector<int>{1, 3}, values, values, std::nullopt, s);
    for (double v : s.cpi)
        QVERIFY(!std::isnan(v) && v >= 1);
    QVERIFY(s.max.infinite); // q = 1 with p > 0
    QCOMPARE(s.max.cpi, kInf);
}

void TestMarkov::cpiRisesWithPAndQ()
{
    // Non-decreasing in p at fixed q and in q at fixed p, on a grid with both ends. The one exception is
    // the periodic point p = 1, q = 0 (see periodicChain), left out.
    std::vector<double> v;
    for (int i = 0; i <= 60; ++i)
        v.push_back(i / 60.0);
    const std::vector<std::vector<int>> shapes{{1}, {4, 4}, {1, 3, 5}, std::vector<int>(16, 8)};
    for (const auto &shape : shapes) {
        for (std::optional<long long> steps : {std::optional<long long>(), std::optional<long long>(1)}) {
            core::MarkovSurface s;
            core::markovSurface(shape, v, v, steps, s);
            const auto periodic = [&](std::size_t i, std::size_t j) { return v[i] == 1 && v[j] == 0; };
            for (std::size_t j = 0; j < v.size(); ++j) {
                for (std::size_t i = 0; i + 1 < v.size(); ++i) {
                    if (!periodic(i + 1, j))
                        QVERIFY(s.at(i + 1, j) >= s.at(i, j) * (1 - 1e-12)); // along p
                    if (!periodic(j, i))
                        QVERIFY(s.at(j, i + 1) >= s.at(j, i) * (1 - 1e-12)); // along q
                }
            }
        }
    }
    // Per-group values: raising one group's p or q never lowers the CPI.
    MarkovTopology t{{2, 0.3, 0.5}, {3, 0.6, 0.2}, {1, 0.05, 0.9}};
    for (std::size_t g = 0; g < t.size(); ++g) {
        MarkovTopology up = t;
        up[g].p += 0.1;
        QVERIFY(cpi(up) > cpi(t));
        up = t;
        up[g].q += 0.05;
        QVERIFY(cpi(up) > cpi(t));
    }
}

void TestMarkov::cpiFallsAsThreadsAreAdded()
{
    // MODEL.md 3 / 5.3.1 (c): more threads, lower CPI (strictly while 0 < s < 1).
    std::mt19937_64 rng(18);
    std::uniform_real_distribution<double> unit(0.001, 0.999);
    for (int trial = 0; trial < 500; ++trial) {
        MarkovTopology t;
        const int groups = 1 + int(rng() % 5);
        for (int g = 0; g < groups; ++g)
            t.push_back({1 + int(rng() % 6), unit(rng), unit(rng)});
        const double base = cpi(t);
        const bool resolvable = base - 1 > 1e-9; // else P_all is below rounding and both CPIs are 1
        for (std::size_t g = 0; g < t.size(); ++g) {
            MarkovTopology more = t;
            ++more[g].threads;
            QVERIFY(resolvable ? cpi(more) < base : cpi(more) <= base);
            for (long long k : {1LL, 3LL, 50LL})
                QVERIFY(cpi(more, k) <= cpi(t, k));
        }
        MarkovTopology extraGroup = t;
        extraGroup.push_back({1, unit(rng), unit(rng)});
        QVERIFY(resolvable ? cpi(extraGroup) < base : cpi(extraGroup) <= base);
    }
    // Table 5.18's column 4 falls with the thread count: 2, 4, 8, 16 threads at p = q = 0.999.
    double previous = kInf;
    for (int n : {2, 4, 8, 16}) {
        const double c = cpi(core::uniformTopology(1, n, 0.999, 0.999));
        QVERIFY(c < previous);
        previous = c;
    }
}

void TestMarkov::transientRisesAndSaturates()
{
    // From all-active the CPI rises with t and saturates at the steady state (like Fig. 1.2's measured
    // curves) whenever q >= p; the transient is exact at every t.
    for (const auto &[p, q] : {std::pair{0.01, 0.95}, std::pair{0.2, 0.6}, std::pair{0.5, 0.5}}) {
        const auto t = core::uniformTopology(4, 2, p, q);
        const double steady = cpi(t);
        double previous = 1;
        QCOMPARE(cpi(t, 0), 1.0);
        for (long long k = 1; k <= 3000; k = k < 10 ? k + 1 : k * 2) {
            const double c = cpi(t, k);
            QVERIFY(c >= previous * (1 - 1e-15));
            QVERIFY(c <= steady * (1 + 1e-12));
            previous = c;
        }
        QVERIFY(std::abs(cpi(t, 100000) / steady - 1) < 1e-12);
    }
    // With q < p it overshoots and rings: P_all(t) = (s (1 - (q - p)^t))^N.
    const auto t = core::uniformTopology(1, 2, 0.9, 0.1);
    QVERIFY(cpi(t, 1) > cpi(t));
    QVERIFY(cpi(t, 2) < cpi(t));
}

void TestMarkov::surfaceMatchesPointwiseSolve()
{
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<int> shape;
        for (int g = 0, groups = 1 + int(rng() % 6); g < groups; ++g)
            shape.push_back(1 + int(rng() % 9));
        std::vector<double> p, q;
        for (int i = 0; i < 7; ++i) {
            p.push_back(unit(rng));
            q.push_back(unit(rng));
        }
        p.push_back(1);
        q.push_back(0);
        const std::optional<long long> steps = trial % 2 ? std::optional<long long>(trial) : std::nullopt;
        core::MarkovSurface s;
        core::markovSurface(shape, p, q, steps, s);
        for (std::size_t j = 0; j < q.size(); ++j) {
            for (std::size_t i = 0; i < p.size(); ++i) {
                MarkovTopology t;
                for (int n : shape)
                    t.push_back({n, p[i], q[j]});
                const MarkovResult r = core::solveMarkovExact(t, steps);
                QVERIFY(r.infinite ? std::isinf(s.at(i, j)) : std::abs(s.at(i, j) / r.cpi - 1) < 1e-13);
                QVERIFY(s.at(i, j) <= s.max.cpi && s.at(i, j) >= s.min.cpi);
            }
        }
    }
}

void TestMarkov::fineSurfaceMatchesPointwiseSolve()
{
    // The view's drag case: a 400 x 400 grid up to 16 x 8 threads, where the steady state takes the
    // binary-powering path except near q = 1 (P_all > 1/2) and where s^n is negligible.
    const std::vector<double> fine = core::MarkovGrid{core::MarkovGridKind::Uniform, 400}.values();
    for (const std::vector<int> &shape : {std::vector<int>(16, 8), std::vector<int>{1}, std::vector<int>{3, 1, 7}}) {
        core::MarkovSurface s;
        core::markovSurface(shape, fine, fine, std::nullopt, s);
        int tailCells = 0;
        for (std::size_t j = 0; j < fine.size(); j += 3) {
            for (std::size_t i = 0; i < fine.size(); i += 7) {
                MarkovTopology t;
                for (int n : shape)
                    t.push_back({n, fine[i], fine[j]});
                const MarkovResult r = core::solveMarkovExact(t);
                QVERIFY2(std::abs(s.at(i, j) / r.cpi - 1) < 1e-12,
                         qPrintable(QStringLiteral("p %1 q %2: %3 vs %4").arg(fine[i]).arg(fine[j]).arg(s.at(i, j), 0, 'g', 17)
                                        .arg(r.cpi, 0, 'g', 17)));
                // log10 CPI, from P_all where the CPI itself rounds to 1, from the CPI where P_all is near 1.
                const double log10Cpi = r.p_all_suspended < 0.5 ? -std::log1p(-r.p_all_suspended) / std::log(10.0)
                                                                : std::log10(r.cpi);
                // P_all below e^-40 (log10 CPI < 2e-18) counts as CPI 1 exactly.
                QVERIFY(std::abs(s.log10_cpi[j * fine.size() + i] - log10Cpi) <= 1e-12 * log10Cpi + 2e-18);
                tailCells += r.p_all_suspended > 0.5;
            }
        }
        QVERIFY(tailCells > 0); // the cancellation-free path was exercised too
    }
}

void TestMarkov::grids()
{
    // 5.3.1: five runs of five values, 0.001 .. 0.999.
    const std::vector<double> thesis = core::thesisGrid();
    const std::vector<double> expected{0.001, 0.003, 0.005, 0.007, 0.009, 0.01, 0.03, 0.05, 0.07,
                                       0.09,  0.1,   0.3,   0.5,   0.7,   0.9,  0.91, 0.93, 0.95,
                                       0.97,  0.99,  0.991, 0.993, 0.995, 0.997, 0.999};
    QCOMPARE(thesis, expected);
    QVERIFY(std::is_sorted(thesis.begin(), thesis.end()));
    QCOMPARE(core::MarkovGrid::fromText("thesis").values(), expected);

    const auto uniform = core::MarkovGrid::fromText("uniform:5").values();
    QCOMPARE(uniform.size(), std::size_t(5));
    QCOMPARE(uniform.front(), 0.001);
    QCOMPARE(uniform.back(), 0.999);
    QVERIFY(std::abs(uniform[2] - 0.5) < 1e-15);
    QVERIFY(std::abs((uniform[1] - uniform[0]) - (uniform[4] - uniform[3])) < 1e-15);

    const auto logit = core::MarkovGrid::fromText("logit:9").values();
    QCOMPARE(logit.size(), std::size_t(9));
    QCOMPARE(logit.front(), 0.001);
    QCOMPARE(logit.back(), 0.999);
    QVERIFY(std::is_sorted(logit.begin(), logit.end()));
    for (std::size_t i = 0; i < logit.size(); ++i)
        QVERIFY(std::abs(logit[i] + logit[logit.size() - 1 - i] - 1) < 1e-14); // symmetric about 1/2
    QVERIFY(logit[1] - logit[0] < uniform[1] - uniform[0]); // denser at the ends

    for (const char *text : {"thesis", "uniform:2", "logit:2000"})
        QCOMPARE(core::MarkovGrid::fromText(text).text(), std::string(text));
    for (const char *bad : {"", "thesis:3", "uniform", "uniform:", "uniform:1", "uniform:2001", "logit:x",
                            "uniform:5x", "square:4"}) {
        QVERIFY_THROWS_EXCEPTION(core::InputError, core::MarkovGrid::fromText(bad));
    }
}

void TestMarkov::invalidInputIsRejected()
{
    const auto message = [](auto &&f) {
        try {
            f();
        } catch (const core::InputError &e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    QVERIFY(message([] { core::solveMarkovExact({}); }).contains("at least one cache group"));
    QVERIFY(message([] { core::solveMarkovExact({{2, 0.5, 0.5}, {0, 0.5, 0.5}}); })
                    .contains("group 2: threads must be between 1 and"));
    QVERIFY(message([] {
                core::solveMarkovExact({{2, -0.1, 0.5}});
            }).contains("group 1: p must be between 0 and 1"));
    QVERIFY(message([] {
                core::solveMarkovExact({{2, 0.5, 1.5}});
            }).contains("group 1: q must be between 0 and 1"));
    QVERIFY(message([] { core::solveMarkovExact({{2, 0.5, std::nan("")}}); }).contains("group 1: q"));
    QVERIFY(message([] { core::solveMarkovExact({{2, 0.5, 0.5}}, -1); }).contains("steps must be between"));
    // The literal solver names its limit and does not try.
    QVERIFY(message([] { LiteralMarkovChain chain(core::uniformTopology(4, 10, 0.5, 0.5)); })
                    .contains("at most 10000 system states"));
    QVERIFY(message([] {
                core::solveMarkov(core::uniformTopology(16, 8, 0.5, 0.5), core::MarkovSolver::Literal);
            }).contains("use the exact solver"));
    // ... and refuses work beyond its budget.
    QVERIFY(message([] {
                LiteralMarkovChain(core::uniformTopology(2, 8, 0.5, 0.5)).transient(100'000'000'000LL);
            }).contains("operations"));
    // The exact solver has no size limit.
    QVERIFY(core::solveMarkovExact(core::uniformTopology(1000, 1000, 0.5, 0.5)).cpi >= 1);
    QVERIFY(message([] {
                core::MarkovSurface s;
                const std::vector<double> bad{0.5, 1.2};
                core::markovSurface(std::vector<int>{2}, bad, bad, std::nullopt, s);
            }).contains("surface p must be between 0 and 1"));
}

QTEST_APPLESS_MAIN(TestMarkov)
#include "tst_markov.moc"
