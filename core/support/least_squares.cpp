// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/least_squares.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <unsupported/Eigen/LevenbergMarquardt>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

namespace crossroof::core {

namespace {

[[noreturn]] void fail(const std::string &what)
{
    throw InputError("least squares: " + what);
}

double logistic(double u)
{
    return 1 / (1 + std::exp(-u));
}

/// theta = lo + (hi - lo) * logistic(u), or the same in log space; clamped, since exp(log(hi)) can round
/// past hi.
double bounded(const ParameterRange &range, double u)
{
    const double s = logistic(u);
    if (range.log)
        return std::clamp(std::exp(std::log(range.lo) + (std::log(range.hi) - std::log(range.lo)) * s),
                          range.lo, range.hi);
    return range.lo + (range.hi - range.lo) * s;
}

/// d theta / d u at U.
double boundedSlope(const ParameterRange &range, double u)
{
    const double s = logistic(u);
    const double ds = s * (1 - s);
    if (range.log)
        return bounded(range, u) * (std::log(range.hi) - std::log(range.lo)) * ds;
    return (range.hi - range.lo) * ds;
}

/// The u of THETA, kept 0.1 % of the range inside it: on a bound the logistic is flat, and a start there
/// could not move.
double unbounded(const ParameterRange &range, double theta)
{
    double s = range.log ? (std::log(theta) - std::log(range.lo)) / (std::log(range.hi) - std::log(range.lo))
                         : (theta - range.lo) / (range.hi - range.lo);
    s = std::clamp(s, 1e-3, 1 - 1e-3);
    return std::log(s / (1 - s));
}

/// The problem in the unbounded parameters u, as Eigen's Levenberg-Marquardt calls it.
class UnboundedProblem : public Eigen::DenseFunctor<double>
{
public:
    explicit UnboundedProblem(const LeastSquaresProblem &problem)
        : Eigen::DenseFunctor<double>(int(problem.ranges.size()), int(problem.residual_count))
        , m_problem(problem)
    {
    }

    Eigen::VectorXd theta(const Eigen::VectorXd &u) const
    {
        Eigen::VectorXd t(u.size());
        for (Eigen::Index i = 0; i < u.size(); ++i)
            t(i) = bounded(m_problem.ranges[std::size_t(i)], u(i));
        return t;
    }

    int operator()(const Eigen::VectorXd &u, Eigen::VectorXd &r) const
    {
        r.resize(m_problem.residual_count);
        m_problem.residuals(theta(u), r);
        return 0;
    }

    /// The Jacobian in u: the problem's own times d theta / d u, or central differences.
    int df(const Eigen::VectorXd &u, Eigen::MatrixXd &j) const
    {
        j.resize(m_problem.residual_count, u.size());
        if (m_problem.jacobian) {
            m_problem.jacobian(theta(u), j);
            for (Eigen::Index c = 0; c < u.size(); ++c)
                j.col(c) *= boundedSlope(m_problem.ranges[std::size_t(c)], u(c));
            return 0;
        }
        // A step relative to max(1, |u|): Eigen's NumericalDiff scales by |u| alone, which collapses at
        // u = 0, the middle of every range.
        Eigen::VectorXd up(m_problem.residual_count);
        Eigen::VectorXd down(m_problem.residual_count);
        for (Eigen::Index c = 0; c < u.size(); ++c) {
            const double h = 1e-6 * std::max(1.0, std::abs(u(c)));
            Eigen::VectorXd shifted = u;
            shifted(c) = u(c) + h;
            (*this)(shifted, up);
            shifted(c) = u(c) - h;
            (*this)(shifted, down);
            j.col(c) = (up - down) / (2 * h);
        }
        return 0;
    }

private:
    const LeastSquaresProblem &m_problem;
};

void check(const LeastSquaresProblem &problem, std::span<const Eigen::VectorXd> starts)
{
    if (problem.ranges.empty())
        fail("no parameters to fit");
    if (problem.residual_count < 1 || !problem.residuals)
        fail("no residuals to minimise");
    for (std::size_t i = 0; i < problem.ranges.size(); ++i) {
        const ParameterRange &r = problem.ranges[i];
        if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || !(r.lo < r.hi) || (r.log && !(r.lo > 0))) {
            fail("parameter " + std::to_string(i + 1) + ": the range [" + formatNumber(r.lo) + ", "
                 + formatNumber(r.hi) + "] is empty or not finite" + (r.log ? " or not positive" : ""));
        }
    }
    if (starts.empty())
        fail("no starting points");
    for (std::size_t s = 0; s < starts.size(); ++s) {
        if (starts[s].size() != Eigen::Index(problem.ranges.size())) {
            fail("start " + std::to_string(s + 1) + " has " + std::to_string(starts[s].size())
                 + " parameters, not " + std::to_string(problem.ranges.size()));
        }
        if (!starts[s].allFinite())
            fail("start " + std::to_string(s + 1) + " is not finite");
    }
}

bool convergedStatus(Eigen::LevenbergMarquardtSpace::Status status)
{
    using namespace Eigen::LevenbergMarquardtSpace;
    switch (status) {
    case RelativeReductionTooSmall:
    case RelativeErrorTooSmall:
    case RelativeErrorAndReductionTooSmall:
    case CosinusTooSmall:
    // The tolerances below machine precision: no further progress is possible, a minimum to working
    // precision.
    case FtolTooSmall:
    case XtolTooSmall:
    case GtolTooSmall:
        return true;
    default:
        return false;
    }
}

} // namespace

LeastSquaresResult fitLeastSquares(const LeastSquaresProblem &problem,
                                   std::span<const Eigen::VectorXd> starts,
                                   const LeastSquaresOptions &options)
{
    check(problem, starts);
    using Solver = Eigen::LevenbergMarquardt<UnboundedProblem>;
    using Eigen::LevenbergMarquardtSpace::Status;
    UnboundedProblem functor(problem);
    const Eigen::Index n = Eigen::Index(problem.ranges.size());

    /// One start's descent, paused after screening and resumed where it stopped.
    struct Run
    {
        std::size_t start = 0;
        Eigen::VectorXd u;
        std::unique_ptr<Solver> lm;
        Status status = Status::NotStarted;
    };
    const auto step = [](Run &run, int limit) {
        for (int i = 0; (limit <= 0 || i < limit) && run.status == Status::Running; ++i)
            run.status = run.lm->minimizeOneStep(run.u);
    };
    const auto cost = [](const Run &run) { return run.lm->fnorm() * run.lm->fnorm(); };

    std::vector<Run> runs;
    Eigen::VectorXd r(problem.residual_count);
    for (std::size_t s = 0; s < starts.size(); ++s) {
        Run run;
        run.start = s;
        run.u.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const ParameterRange &range = problem.ranges[std::size_t(i)];
            run.u(i) = unbounded(range, std::clamp(starts[s](i), range.lo, range.hi));
        }
        functor(run.u, r);
        if (!r.allFinite())
            continue;
        run.lm = std::make_unique<Solver>(functor);
        run.lm->setFtol(options.tolerance);
        run.lm->setXtol(options.tolerance);
        run.lm->setMaxfev(options.max_evaluations);
        run.status = run.lm->minimizeInit(run.u);
        if (run.status == Status::NotStarted)
            run.status = Status::Running;
        runs.push_back(std::move(run));
    }
    const bool screen = options.screen_iterations > 0 && runs.size() > options.screen_keep;
    if (screen) {
        for (Run &run : runs)
            step(run, options.screen_iterations);
        // The lowest costs of those still descending go on; the rest stop where they are, out of the running.
        std::vector<Run *> going;
        for (Run &run : runs) {
            if (run.status == Status::Running && std::isfinite(cost(run)))
                going.push_back(&run);
        }
        std::stable_sort(going.begin(), going.end(), [&](const Run *a, const Run *b) { return cost(*a) < cost(*b); });
        for (std::size_t i = 0; i < going.size(); ++i) {
            if (i < options.screen_keep)
                step(*going[i], 0);
            else
                going[i]->lm.reset();
        }
    } else {
        for (Run &run : runs)
            step(run, 0);
    }

    LeastSquaresResult best;
    best.cost = std::numeric_limits<double>::infinity();
    const Run *winner = nullptr;
    for (const Run &run : runs) {
        if (!run.lm)
            continue;
        functor(run.u, r);
        const double c = r.squaredNorm();
        if (std::isfinite(c) && c < best.cost) {
            best.cost = c;
            best.iterations = int(run.lm->iterations());
            best.converged = convergedStatus(run.status);
            best.start = run.start;
            winner = &run;
        }
    }
    if (!winner)
        fail("the residuals are not finite at any starting point (non-finite data?)");
    best.parameters = functor.theta(winner->u);
    best.at_bound.resize(std::size_t(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        const double s = logistic(winner->u(i));
        best.at_bound[std::size_t(i)] = s < 1e-6 || s > 1 - 1e-6;
    }
    return best;
}

} // namespace crossroof::core
