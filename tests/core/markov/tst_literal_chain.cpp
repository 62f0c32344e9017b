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

/// The largest literal chain the tests build: 6,561 system states (a 344 MB dense matrix) in the normal build.
/// Under AddressSanitizer those few chains took over a minute of CI; the same code is checked there on chains
/// of up to 729 states, and the largest ones run in the normal build.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kMaxLiteralStates = 729;
#else
constexpr double kMaxLiteralStates = 6561;
#endif

/// C(n, k) by Pascal's rule: an implementation independent of the solver's.
double choose(int n, int k)
{
    std::vector<double> row(std::size_t(n) + 1, 0.0);
    row[0] = 1;
    for (int i = 1; i <= n; ++i) {
        for (int j = i; j > 0; --j)
            row[std::size_t(j)] += row[std::size_t(j - 1)];
    }
    return row[std::size_t(k)];
}

/// Eq. 1-3 read as the binomial convolution, one entry at a time.
double transitionByHand(int n, double p, double q, int i, int j)
{
    double sum = 0;
    for (int m = 0; m <= i; ++m) {
        const int k = j - m; // newly suspended among the n - i active threads
        if (k < 0 || k > n - i)
            continue;
        sum += choose(i, m) * std::pow(q, m) * std::pow(1 - q, i - m) * choose(n - i, k) * std::pow(p, k)
                * std::pow(1 - p, n - i - k);
    }
    return sum;
}

/// Both solvers report the same CPI (relative 1e-9, or both infinite) and P_all (absolute 1e-12).
void checkAgreement(const MarkovResult &exact, const MarkovResult &literal, const QByteArray &what)
{
    QVERIFY2(exact.infinite == literal.infinite, what.constData());
    QVERIFY2(std::abs(exact.p_all_suspended - literal.p_all_suspended) <= 1e-12,
             (what + " P_all " + QByteArray::number(exact.p_all_suspended, 'g', 17) + " vs "
              + QByteArray::number(literal.p_all_suspended, 'g', 17))
                     .constData());
    if (!exact.infinite) {
        QVERIFY2(std::abs(exact.cpi - literal.cpi) <= 1e-9 * exact.cpi,
                 (what + " CPI " + QByteArray::number(exact.cpi, 'g', 17) + " vs "
                  + QByteArray::number(literal.cpi, 'g', 17))
                         .constData());
    }
    QCOMPARE(exact.system_states, literal.system_states);
}

QByteArray describe(const MarkovTopology &t)
{
    QByteArray s = "[";
    for (const auto &g : t) {
        s += QByteArray::number(g.threads) + "@(" + QByteArray::number(g.p) + "," + QByteArray::number(g.q)
                + ")";
    }
    return s + "]";
}

/// Best of several runs, in milliseconds.
template<typename F>
double bestMs(int runs, F &&f)
{
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        f();
        best = std::min(best, double(timer.nsecsElapsed()) / 1e6);
    }
    return best;
}

} // namespace

/// The literal chain of Mitra's thesis (Eq. 1-4): each group's matrix as the equations give it, the system's as
/// their product, and its CPI as the exact solver's.
class TestLiteralChain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void groupMatrixFollowsTheEquations_data();
    void groupMatrixFollowsTheEquations();
    void systemMatrixIsTheProductOfGroups();
    void exactAgreesWithLiteral();
    void literalTiming();
};

void TestLiteralChain::groupMatrixFollowsTheEquations_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("q");
    QTest::newRow("1 thread") << 1 << 0.3 << 0.6;
    QTest::newRow("2 threads (Clovertown L2)") << 2 << 0.25 << 0.85;
    QTest::newRow("3 threads") << 3 << 0.9 << 0.1;
    QTest::newRow("8 threads (Tables 4.1-4.3)") << 8 << 0.37 << 0.71;
    QTest::newRow("8 threads, p = 0") << 8 << 0.0 << 0.5;
    QTest::newRow("5 threads, q = 1") << 5 << 0.2 << 1.0;
    QTest::newRow("40 threads") << 40 << 0.02 << 0.97;
}

void TestLiteralChain::groupMatrixFollowsTheEquations()
{
    QFETCH(int, n);
    QFETCH(double, p);
    QFETCH(double, q);
    const Eigen::MatrixXd t = LiteralMarkovChain::groupMatrix(n, p, q);
    QCOMPARE(t.rows(), Eigen::Index(n + 1));
    for (int i = 0; i <= n; ++i) {
        QVERIFY(std::abs(t.row(i).sum() - 1) < 1e-13);
        for (int j = 0; j <= n; ++j) {
            QVERIFY(t(i, j) >= 0);
            QVERIFY(std::abs(t(i, j) - transitionByHand(n, p, q, i, j)) < 1e-13);
        }
    }
    // The closed special cases of Eq. 1-3.
    QVERIFY(std::abs(t(0, 0) - std::pow(1 - p, n)) < 1e-14); // (1a)
    QVERIFY(std::abs(t(n, n) - std::pow(q, n)) < 1e-14);     // (1b)
    QVERIFY(std::abs(t(n, 0) - std::pow(1 - q, n)) < 1e-14); // (3b)
    for (int j = 0; j <= n; ++j)                               // (2a)
        QVERIFY(std::abs(t(0, j) - choose(n, j) * std::pow(p, j) * std::pow(1 - p, n - j)) < 1e-14);
    for (int i = 0; i <= n; ++i) {
        QVERIFY(std::abs(t(i, n) - std::pow(q, i) * std::pow(p, n - i)) < 1e-14);           // (2b)
        QVERIFY(std::abs(t(i, 0) - std::pow(1 - q, i) * std::pow(1 - p, n - i)) < 1e-14); // (3a)
    }
}

void TestLiteralChain::systemMatrixIsTheProductOfGroups()
{
    const MarkovTopology topo{{2, 0.3, 0.6}, {1, 0.7, 0.2}, {3, 0.05, 0.9}};
    const LiteralMarkovChain chain(topo);
    QCOMPARE(chain.stateCount(), std::size_t(3 * 2 * 4));
    QCOMPARE(core::systemStateCount(topo), 24.0);
    const Eigen::MatrixXd t0 = LiteralMarkovChain::groupMatrix(2, 0.3, 0.6);
    const Eigen::MatrixXd t1 = LiteralMarkovChain::groupMatrix(1, 0.7, 0.2);
    const Eigen::MatrixXd t2 = LiteralMarkovChain::groupMatrix(3, 0.05, 0.9);
    const auto index = [](int a, int b, int c) { return (a * 2 + b) * 4 + c; }; // group 0 most significant
    for (int a = 0; a <= 2; ++a)
        for (int b = 0; b <= 1; ++b)
            for (int c = 0; c <= 3; ++c)
                for (int x = 0; x <= 2; ++x)
                    for (int y = 0; y <= 1; ++y)
                        for (int z = 0; z <= 3; ++z) {
                            const double expected = t0(a, x) * t1(b, y) * t2(c, z); // Eq. 4
                            QVERIFY(std::abs(chain.matrix()(index(a, b, c), index(x, y, z)) - expected)
                                    < 1e-15);
                        }
    for (Eigen::Index i = 0; i < chain.matrix().rows(); ++i)
        QVERIFY(std::abs(chain.matrix().row(i).sum() - 1) < 1e-13);

    // 4.2.5: from all-active, all threads stay active with probability [(1 - p)^2]^4 on 4 groups of 2.
    const LiteralMarkovChain clovertown(core::uniformTopology(4, 2, 0.2, 0.5));
    QCOMPARE(clovertown.stateCount(), std::size_t(81));
    QVERIFY(std::abs(clovertown.matrix()(0, 0) - std::pow(std::pow(0.8, 2), 4)) < 1e-15);
    QVERIFY(std::abs(clovertown.matrix()(80, 80) - std::pow(0.5, 8)) < 1e-15);
}

void TestLiteralChain::exactAgreesWithLiteral()
{
    using Pairs = std::vector<std::pair<double, double>>;
    // |q - p| decides how many power steps the literal solver needs: large chains get the faster mixes.
    const Pairs uniformPairs{{0.3, 0.6},  {0.9, 0.2}, {0.999, 0.999}, {0.05, 0.95}, {0.001, 0.5},
                             {1.0, 1.0},  {0.0, 0.7}, {1.0, 0.0},     {0.5, 1.0},   {0.62, 0.41}};
    const Pairs largePairs{{0.3, 0.6}, {0.999, 0.999}, {0.62, 0.41}};
    // Per-group pairs, cycled over the groups.
    const Pairs mixed{{0.2, 0.7}, {0.6, 0.4}, {0.01, 0.9}, {0.95, 0.1}, {1.0, 0.0}};
    const Pairs mixedLarge{{0.2, 0.7}, {0.6, 0.4}, {0.5, 0.1}, {0.45, 0.8}};
    const std::vector<long long> steps{0, 1, 2, 3, 10, 37};
    const std::vector<long long> largeSteps{1, 4, 15};

    std::vector<MarkovTopology> shapes;
    for (int g : {1, 2, 4, 8}) {
        for (int n = 1; n <= 8; ++n) {
            if (std::pow(n + 1.0, g) <= kMaxLiteralStates)
                shapes.push_back(core::uniformTopology(g, n, 0, 0));
        }
    }
    shapes.push_back({{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}});
    shapes.push_back({{7, 0, 0}, {1, 0, 0}});
    shapes.push_back({{2, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 0, 0}, {5, 0, 0}});

    int compared = 0;
    for (const MarkovTopology &shape : shapes) {
        const bool large = core::systemStateCount(shape) > 1000;
        std::vector<MarkovTopology> cases;
        for (const auto &[p, q] : large ? largePairs : uniformPairs) {
            MarkovTopology t = shape;
            for (auto &g : t)
                g.p = p, g.q = q;
            cases.push_back(t);
        }
        const Pairs &cycle = large ? mixedLarge : mixed;
        for (std::size_t offset = 0; offset < (large ? 1u : 2u); ++offset) {
            MarkovTopology t = shape;
            for (std::size_t g = 0; g < t.size(); ++g)
                std::tie(t[g].p, t[g].q) = cycle[(g + offset) % cycle.size()];
            cases.push_back(t);
        }
        for (const MarkovTopology &t : cases) {
            const LiteralMarkovChain chain(t);
            const QByteArray what = describe(t);
            checkAgreement(core::solveMarkovExact(t), chain.steadyState(), what + " steady");
            for (long long k : large ? largeSteps : steps)
                checkAgreement(core::solveMarkovExact(t, k), chain.transient(k),
                               what + " t=" + QByteArray::number(k));
            ++compared;
        }
    }
    qInfo("%d topologies x (p, q) compared, steady state and transients", compared);
    QVERIFY(compared > 200);
}

void TestLiteralChain::literalTiming()
{
    for (const auto &[g, n] : {std::pair{4, 2}, std::pair{8, 2}}) {
        const MarkovTopology t = core::uniformTopology(g, n, 0.3, 0.6);
        if (core::systemStateCount(t) > kMaxLiteralStates)
            continue;
        MarkovResult exact, literal;
        const double exactMs = bestMs(5, [&] { exact = core::solveMarkovExact(t); });
        const double literalMs
                = bestMs(1, [&] { literal = core::solveMarkov(t, core::MarkovSolver::Literal); });
        QElapsedTimer timer;
        timer.start();
        const LiteralMarkovChain chain(t);
        const double buildMs = double(timer.nsecsElapsed()) / 1e6;
        qInfo("%d groups x %d threads (%g states), p=0.3 q=0.6: exact %.4f ms, literal %.3f ms "
              "(build %.3f ms, %lld power steps)",
              g, n, exact.system_states, exactMs, literalMs, buildMs, literal.iterations);
        checkAgreement(exact, literal, "timing");
    }
}

QTEST_APPLESS_MAIN(TestLiteralChain)
#include "tst_literal_chain.moc"
