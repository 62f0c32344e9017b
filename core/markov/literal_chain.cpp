// SPDX-License-Identifier: GPL-3.0-or-later
// The literal solver: the thesis' chain as printed, a dense system matrix built from the groups' matrices
// (Eq. 1-4) and stepped from all threads active (Appendix A).
#include "core/markov/literal_chain.h"

#include "core/markov/markov_math.h"
#include "core/support/error.h"
#include "core/support/text.h"

#include <unsupported/Eigen/KroneckerProduct>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::core {

using detail::checkSteps;
using detail::kInf;

namespace {

/// Binomial probabilities b(k; n, p), k = 0..n. As printed (C(n,k) p^k (1-p)^(n-k)) for small n; in log
/// space for large n, where C(n,k) overflows.
std::vector<double> binomialPmf(int n, double p)
{
    std::vector<double> pmf(std::size_t(n) + 1, 0.0);
    if (p <= 0 || p >= 1) {
        pmf[p <= 0 ? 0 : std::size_t(n)] = 1;
        return pmf;
    }
    if (n <= 200) {
        double choose = 1;
        for (int k = 0; k <= n; ++k) {
            pmf[std::size_t(k)] = choose * std::pow(p, k) * std::pow(1 - p, n - k);
            choose = choose * (n - k) / (k + 1);
        }
        return pmf;
    }
    const double lp = std::log(p);
    const double lq = std::log1p(-p);
    const double lnf = std::lgamma(n + 1.0);
    for (int k = 0; k <= n; ++k)
        pmf[std::size_t(k)]
                = std::exp(lnf - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * lp + (n - k) * lq);
    return pmf;
}

double literalBuildWork(const MarkovTopology &topology, double states)
{
    double work = states * states;
    for (const auto &g : topology)
        work += std::pow(double(g.threads) + 1, 3) / 6;
    return work;
}

} // namespace

LiteralMarkovChain::LiteralMarkovChain(const MarkovTopology &topology)
{
    validate(topology);
    const double states = systemStateCount(topology);
    if (states > kLiteralStateLimit) {
        throw InputError("the literal solver handles at most " + formatNumber(kLiteralStateLimit)
                         + " system states (dense matrix); this topology has " + formatNumber(states)
                         + "; use the exact solver");
    }
    if (literalBuildWork(topology, states) > kLiteralWorkLimit) {
        throw InputError("the literal solver would need more than " + formatNumber(kLiteralWorkLimit)
                         + " operations to build this chain; use the exact solver");
    }
    // Eq. 4: the system matrix is the Kronecker product of the group matrices (group 0 most significant).
    Eigen::MatrixXd system = Eigen::MatrixXd::Ones(1, 1);
    for (const auto &g : topology) {
        Eigen::MatrixXd next = Eigen::kroneckerProduct(system, groupMatrix(g.threads, g.p, g.q));
        system.swap(next);
    }
    m_matrix.swap(system);
}

Eigen::MatrixXd LiteralMarkovChain::groupMatrix(int threads, double p, double q)
{
    const int n = threads;
    Eigen::MatrixXd t = Eigen::MatrixXd::Zero(n + 1, n + 1);
    const std::vector<double> activeSuspend = binomialPmf(n, p); // reused row by row below
    for (int i = 0; i <= n; ++i) {
        // From i suspended: m stay suspended (q each) and k of the n - i active threads suspend (p each).
        const std::vector<double> stay = binomialPmf(i, q);
        const std::vector<double> suspend = i == 0 ? activeSuspend : binomialPmf(n - i, p);
        for (int m = 0; m <= i; ++m) {
            for (int k = 0; k <= n - i; ++k)
                t(i, m + k) += stay[std::size_t(m)] * suspend[std::size_t(k)];
        }
    }
    return t;
}

void LiteralMarkovChain::step(const Eigen::VectorXd &from, Eigen::VectorXd &to) const
{
    to.noalias() = m_matrix.transpose() * from; // row vector times matrix: u P
}

Eigen::VectorXd LiteralMarkovChain::distributionAfter(long long steps) const
{
    Eigen::VectorXd u = Eigen::VectorXd::Zero(m_matrix.rows());
    u(0) = 1; // all threads active
    Eigen::VectorXd next(u.size());
    for (long long t = 0; t < steps; ++t) {
        step(u, next);
        u.swap(next);
    }
    return u;
}

MarkovResult LiteralMarkovChain::resultFrom(const Eigen::VectorXd &distribution) const
{
    MarkovResult r;
    r.solver = MarkovSolver::Literal;
    r.system_states = double(distribution.size());
    const Eigen::Index last = distribution.size() - 1;
    r.p_all_suspended = distribution(last);
    r.p_any_active = std::max(0.0, distribution.head(last).sum()); // not 1 - P_all: no cancellation
    r.cpi = r.p_any_active > 0 ? 1 / r.p_any_active : kInf;
    r.infinite = !std::isfinite(r.cpi);
    if (r.infinite)
        r.cpi = kInf;
    return r;
}

MarkovResult LiteralMarkovChain::transient(long long steps) const
{
    checkSteps(steps);
    const double states = double(m_matrix.rows());
    if (double(steps) * states * states > kLiteralWorkLimit) {
        throw InputError("the literal solver would need more than " + formatNumber(kLiteralWorkLimit)
                         + " operations for " + std::to_string(steps) + " steps over " + formatNumber(states)
                         + " states; use the exact solver");
    }
    MarkovResult r = resultFrom(distributionAfter(steps));
    r.steps = steps;
    r.iterations = steps;
    return r;
}

MarkovResult LiteralMarkovChain::steadyState() const
{
    // Appendix A: u P^t for t -> infinity. The average of two consecutive distributions converges for every
    // chain here, periodic ones included. Its change is watched on the states with an active thread, whose
    // mass 1 - P_all the CPI inverts: stop once the geometric tail of the changes is below kTolerance
    // relative to that mass, or once they sit at rounding level. Entries only ever add nonnegative products,
    // so small ones keep their relative precision, and an absorbing chain steps on until the active mass
    // underflows to 0.
    constexpr double kTolerance = 1e-13;
    constexpr double kRoundingLevel = 64 * std::numeric_limits<double>::epsilon();
    const double states = double(m_matrix.rows());
    const Eigen::Index last = m_matrix.rows() - 1;
    const long long maxSteps = std::max(2LL, (long long)(kLiteralWorkLimit / (states * states)));

    Eigen::VectorXd prev = Eigen::VectorXd::Zero(m_matrix.rows()); // u_{t-1}
    prev(0) = 1;
    Eigen::VectorXd cur(prev.size()); // u_t
    step(prev, cur);
    Eigen::VectorXd next(prev.size()); // u_{t+1}
    double lastChange = kInf;
    double lastRatio = 1;
    int settled = 0;
    for (long long t = 1; t < maxSteps; ++t) {
        step(cur, next);
        // mean_t - mean_{t-1} = (u_{t+1} - u_{t-1}) / 2, on the active states
        const double change = 0.5 * (next.head(last) - prev.head(last)).lpNorm<1>();
        const double active = 0.5 * (cur.head(last).sum() + next.head(last).sum());
        const double ratio = lastChange > 0 && std::isfinite(lastChange) ? change / lastChange : 1;
        const double rate = std::max(ratio, lastRatio);
        const bool done = change == 0 || change <= kRoundingLevel * active
                || (rate < 1 && change * rate / (1 - rate) <= kTolerance * active);
        settled = done ? settled + 1 : 0;
        prev.swap(cur);
        cur.swap(next);
        if (settled >= 2 || change == 0) {
            MarkovResult r = resultFrom(0.5 * (prev + cur));
            r.iterations = t + 1;
            return r;
        }
        lastChange = change;
        lastRatio = ratio;
    }
    throw InputError("the literal solver did not settle within " + std::to_string(maxSteps) + " steps over "
                     + formatNumber(states) + " states (|q - p| is close to 1); use the exact solver");
}

} // namespace crossroof::core
