// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/support/least_squares.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace crossroof;

class TestLeastSquares : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exponentialFitFindsTheParameters();
    void analyticJacobianGivesTheSameFit();
    void boundsAreRespected();
    void startOnABoundStillMoves();
    void bestOfSeveralStarts();
    void screeningKeepsTheBestAndCostsLess();
    void nonFiniteDataIsRefused();
    void malformedProblemsAreRefused();
};

namespace {

/// y = a * exp(-b * x) at x = 0, 0.5, ..., 4.5, exactly.
struct Exponential
{
    std::vector<double> x;
    std::vector<double> y;

    Exponential(double a, double b)
    {
        for (int i = 0; i < 10; ++i) {
            x.push_back(0.5 * i);
            y.push_back(a * std::exp(-b * x.back()));
        }
    }

    core::LeastSquaresProblem problem(std::vector<core::ParameterRange> ranges) const
    {
        core::LeastSquaresProblem p;
        p.residual_count = Eigen::Index(x.size());
        p.residuals = [this](const Eigen::VectorXd &t, Eigen::VectorXd &r) {
            for (std::size_t i = 0; i < x.size(); ++i)
                r(Eigen::Index(i)) = t(0) * std::exp(-t(1) * x[i]) - y[i];
        };
        p.ranges = std::move(ranges);
        return p;
    }
};

Eigen::VectorXd vec(double a, double b)
{
    Eigen::VectorXd v(2);
    v << a, b;
    return v;
}

} // namespace

void TestLeastSquares::exponentialFitFindsTheParameters()
{
    const Exponential data(3.0, 0.7);
    const std::vector<Eigen::VectorXd> starts {vec(1, 0.1)};
    const auto fit = core::fitLeastSquares(data.problem({{0.01, 100, true}, {0, 10, false}}), starts);
    QVERIFY(fit.converged);
    QVERIFY(std::abs(fit.parameters(0) - 3.0) < 1e-7);
    QVERIFY(std::abs(fit.parameters(1) - 0.7) < 1e-7);
    QVERIFY(fit.cost < 1e-12);
    QCOMPARE(fit.at_bound, std::vector<bool>({false, false}));
}

void TestLeastSquares::analyticJacobianGivesTheSameFit()
{
    const Exponential data(3.0, 0.7);
    auto problem = data.problem({{0.01, 100, true}, {0, 10, false}});
    problem.jacobian = [&](const Eigen::VectorXd &t, Eigen::MatrixXd &j) {
        for (std::size_t i = 0; i < data.x.size(); ++i) {
            const double e = std::exp(-t(1) * data.x[i]);
            j(Eigen::Index(i), 0) = e;
            j(Eigen::Index(i), 1) = -t(0) * data.x[i] * e;
        }
    };
    const std::vector<Eigen::VectorXd> starts {vec(1, 0.1)};
    const auto fit = core::fitLeastSquares(problem, starts);
    QVERIFY(fit.converged);
    QVERIFY(std::abs(fit.parameters(0) - 3.0) < 1e-7);
    QVERIFY(std::abs(fit.parameters(1) - 0.7) < 1e-7);
}

void TestLeastSquares::boundsAreRespected()
{
    // The decay rate is held below its true value: the fit ends on that bound, inside the range.
    const Exponential data(3.0, 0.7);
    const std::vector<Eigen::VectorXd> starts {vec(1, 0.1)};
    const auto fit = core::fitLeastSquares(data.problem({{0.01, 100, true}, {0, 0.5, false}}), starts);
    QVERIFY(fit.parameters(1) <= 0.5);
    QVERIFY(fit.parameters(1) > 0.5 - 1e-4);
    QCOMPARE(fit.at_bound, std::vector<bool>({false, true}));
    QVERIFY(fit.cost > 1e-3);
}

void TestLeastSquares::startOnABoundStillMoves()
{
    const Exponential data(3.0, 0.7);
    const std::vector<Eigen::VectorXd> starts {vec(1, 0)}; // the decay rate on its lower bound
    const auto fit = core::fitLeastSquares(data.problem({{0.01, 100, true}, {0, 10, false}}), starts);
    QVERIFY(std::abs(fit.parameters(0) - 3.0) < 1e-6);
    QVERIFY(std::abs(fit.parameters(1) - 0.7) < 1e-6);
}

void TestLeastSquares::bestOfSeveralStarts()
{
    // (t^2 - 1)^2 + 0.09 (t + 2)^2 has a local minimum near t = 1 and the global one near t = -1.
    core::LeastSquaresProblem p;
    p.residual_count = 2;
    p.residuals = [](const Eigen::VectorXd &t, Eigen::VectorXd &r) {
        r(0) = t(0) * t(0) - 1;
        r(1) = 0.3 * (t(0) + 2);
    };
    p.ranges = {{-3, 3, false}};
    std::vector<Eigen::VectorXd> starts(2, Eigen::VectorXd(1));
    starts[0](0) = 2;
    starts[1](0) = -2;
    const auto fit = core::fitLeastSquares(p, starts);
    QCOMPARE(fit.start, std::size_t(1));
    QVERIFY(fit.parameters(0) < 0);
    std::vector<Eigen::VectorXd> one {starts[0]};
    QVERIFY(core::fitLeastSquares(p, one).cost > fit.cost);
}

void TestLeastSquares::screeningKeepsTheBestAndCostsLess()
{
    // The double well of bestOfSeveralStarts from 60 starts across [-3, 3]: screened (2 iterations each, the
    // 4 lowest go on) the fit ends at the same minimum as with every start run out, for fewer evaluations.
    long evaluations = 0;
    core::LeastSquaresProblem p;
    p.residual_count = 2;
    p.residuals = [&evaluations](const Eigen::VectorXd &t, Eigen::VectorXd &r) {
        ++evaluations;
        r(0) = t(0) * t(0) - 1;
        r(1) = 0.3 * (t(0) + 2);
    };
    p.ranges = {{-3, 3, false}};
    std::vector<Eigen::VectorXd> starts;
    for (int i = 0; i < 60; ++i)
        starts.push_back(Eigen::VectorXd::Constant(1, -2.95 + 0.1 * i));
    const auto full = core::fitLeastSquares(p, starts);
    const long fullEvaluations = evaluations;
    evaluations = 0;
    core::LeastSquaresOptions screened;
    screened.screen_iterations = 2;
    screened.screen_keep = 4;
    const auto fit = core::fitLeastSquares(p, starts, screened);
    QVERIFY(full.parameters(0) < 0);
    QVERIFY(std::abs(fit.parameters(0) - full.parameters(0)) < 1e-6);
    QVERIFY(std::abs(fit.cost - full.cost) <= 1e-12 * std::max(1.0, full.cost));
    QVERIFY(fit.converged);
    QVERIFY2(4 * evaluations < 3 * fullEvaluations,
             qPrintable(QStringLiteral("%1 evaluations screened, %2 without").arg(evaluations).arg(fullEvaluations)));
    // Too few starts to screen: the options change nothing.
    const std::vector<Eigen::VectorXd> two {starts.front(), starts.back()};
    QCOMPARE(core::fitLeastSquares(p, two, screened).cost, core::fitLeastSquares(p, two).cost);
}

void TestLeastSquares::nonFiniteDataIsRefused()
{
    Exponential data(3.0, 0.7);
    data.y[4] = std::numeric_limits<double>::quiet_NaN();
    const std::vector<Eigen::VectorXd> starts {vec(1, 0.1), vec(5, 1)};
    const auto problem = data.problem({{0.01, 100, true}, {0, 10, false}});
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::fitLeastSquares(problem, starts));
}

void TestLeastSquares::malformedProblemsAreRefused()
{
    const Exponential data(3.0, 0.7);
    const std::vector<Eigen::VectorXd> starts {vec(1, 0.1)};
    const std::vector<Eigen::VectorXd> none;
    const std::vector<Eigen::VectorXd> wrongSize {Eigen::VectorXd::Ones(3)};
    const std::vector<Eigen::VectorXd> infinite {vec(std::numeric_limits<double>::infinity(), 1)};
    const auto good = data.problem({{0.01, 100, true}, {0, 10, false}});
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::fitLeastSquares(good, none));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::fitLeastSquares(good, wrongSize));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::fitLeastSquares(good, infinite));
    QVERIFY_THROWS_EXCEPTION(core::InputError,
                             core::fitLeastSquares(data.problem({{0, 100, true}, {0, 10, false}}), starts));
    QVERIFY_THROWS_EXCEPTION(core::InputError,
                             core::fitLeastSquares(data.problem({{1, 1, false}, {0, 10, false}}), starts));
}

QTEST_APPLESS_MAIN(TestLeastSquares)
#include "tst_least_squares.moc"
