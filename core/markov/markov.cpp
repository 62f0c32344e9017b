// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/markov.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/text.h"

#include <unsupported/Eigen/KroneckerProduct>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::core {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Steps beyond this are refused: (q - p)^t is exact for integer t up to 2^53, and no chain needs more.
constexpr long long kMaxSteps = 1'000'000'000'000LL;
/// Below this, 1 / (1 - e^x) rounds to 1: skip the work.
constexpr double kNegligibleLog = -40;
constexpr double kLn10 = 2.302585092994045684;

void checkSteps(std::optional<long long> steps)
{
    if (steps && (*steps < 0 || *steps > kMaxSteps)) {
        throw InputError("steps must be between 0 and " + formatNumber(double(kMaxSteps)) + " (got "
                         + std::to_string(*steps) + ")");
    }
}

void checkProbability(double v, const std::string &what)
{
    if (!(v >= 0 && v <= 1))
        throw InputError(what + " must be between 0 and 1 (got " + formatNumber(v) + ")");
}

/// p = 1, q = 0: every thread flips on every step, so the chain is periodic.
bool isPeriodic(double p, double q)
{
    return p == 1 && q == 0;
}

/// 1 - (q - p)^t without cancellation: 1 - lambda = p + (1 - q) and 1 - |lambda| = (1 - p) + q are exact
/// where it matters (lambda near +-1).
double oneMinusLambdaPower(double p, double q, long long t)
{
    const double lambda = q - p;
    const double td = double(t);
    if (lambda >= 0)
        return -std::expm1(td * std::log1p(-(p + (1 - q))));
    if (t % 2 == 1)
        return 1 + std::pow(-lambda, td);
    return -std::expm1(td * std::log1p(-((1 - p) + q)));
}

/// log of one thread's probability a of being suspended: a = s = p / (p + 1 - q) at steady state, and
/// a(t) = s (1 - (q - p)^t) after t steps from active. -infinity when a = 0. Taken through 1 - a where a is
/// near 1 and directly where a is small, so that neither end loses precision. Not for the periodic steady
/// state.
double logSuspended(double p, double q, std::optional<long long> steps)
{
    if (p == 0 || (steps && *steps == 0))
        return -kInf;
    if (steps && *steps == 1)
        return std::log(p); // a(1) = p
    const double denominator = p + (1 - q);
    const double s = p / denominator;
    double a = s;
    double b = (1 - q) / denominator; // 1 - s
    if (steps) {
        const double lambdaPower = std::pow(q - p, double(*steps));
        const double rest = std::abs(lambdaPower) < 0.5 ? 1 - lambdaPower : oneMinusLambdaPower(p, q, *steps);
        a = s * rest;
        b += s * lambdaPower; // 1 - a = (1 - s) + s (q - p)^t
    }
    if (a <= 0)
        return -kInf;
    return b < 0.5 ? std::log1p(-std::max(0.0, b)) : std::log(a);
}

/// Fills P_all, 1 - P_all and the CPI from log P_all.
void fillFromLog(double logPAll, MarkovResult &r)
{
    if (logPAll == -kInf) {
        r.p_all_suspended = 0;
        r.p_any_active = 1;
    } else {
        r.p_all_suspended = std::exp(logPAll);
        r.p_any_active = std::max(0.0, -std::expm1(logPAll));
    }
    r.cpi = r.p_any_active > 0 ? 1 / r.p_any_active : kInf;
    r.infinite = !std::isfinite(r.cpi);
    if (r.infinite)
        r.cpi = kInf;
}

/// One cell of a surface with the same (p, q) in every group: P_all = a^n for n threads in all.
double surfaceCell(double p, double q, double n, std::optional<long long> steps)
{
    const double logPAll = !steps && isPeriodic(p, q) ? std::log(0.5) : n * logSuspended(p, q, steps);
    if (logPAll <= kNegligibleLog)
        return 1;
    const double active = -std::expm1(logPAll);
    return active > 0 ? 1 / active : kInf;
}

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

/// The values of one grid axis, ascending.
std::vector<double> gridValues(MarkovGridKind kind, int count)
{
    if (kind == MarkovGridKind::Thesis)
        return thesisGrid();
    std::vector<double> v(static_cast<std::size_t>(count));
    const auto logit = [](double x) { return std::log(x / (1 - x)); };
    const double a = kind == MarkovGridKind::Uniform ? kGridLow : logit(kGridLow);
    const double b = kind == MarkovGridKind::Uniform ? kGridHigh : logit(kGridHigh);
    for (int i = 0; i < count; ++i) {
        const double y = a + (b - a) * i / (count - 1);
        v[std::size_t(i)] = kind == MarkovGridKind::Uniform ? y : 1 / (1 + std::exp(-y));
    }
    v.front() = kGridLow; // exact ends, whatever the rounding
    v.back() = kGridHigh;
    return v;
}

} // namespace

MarkovTopology uniformTopology(int groups, int threadsPerGroup, double p, double q)
{
    return MarkovTopology(std::size_t(std::max(groups, 0)), CacheGroup{threadsPerGroup, p, q});
}

void validate(const MarkovTopology &topology)
{
    if (topology.empty())
        throw InputError("the topology needs at least one cache group");
    if (topology.size() > kMaxGroups) {
        throw InputError("at most " + std::to_string(kMaxGroups) + " cache groups (got "
                         + std::to_string(topology.size()) + ")");
    }
    for (std::size_t g = 0; g < topology.size(); ++g) {
        const auto &group = topology[g];
        const std::string name = "group " + std::to_string(g + 1);
        if (group.threads < 1 || group.threads > kMaxThreadsPerGroup) {
            throw InputError(name + ": threads must be between 1 and " + std::to_string(kMaxThreadsPerGroup)
                             + " (got " + std::to_string(group.threads) + ")");
        }
        checkProbability(group.p, name + ": p");
        checkProbability(group.q, name + ": q");
    }
}

double systemStateCount(const MarkovTopology &topology)
{
    double states = 1;
    for (const auto &g : topology)
        states *= double(g.threads) + 1;
    return states;
}

long long threadCount(const MarkovTopology &topology)
{
    long long n = 0;
    for (const auto &g : topology)
        n += g.threads;
    return n;
}

std::string_view markovSolverName(MarkovSolver solver)
{
    return solver == MarkovSolver::Literal ? "literal" : "exact";
}

std::optional<MarkovSolver> markovSolverFromName(std::string_view name)
{
    if (name == "exact")
        return MarkovSolver::Exact;
    if (name == "literal")
        return MarkovSolver::Literal;
    return std::nullopt;
}

MarkovResult solveMarkovExact(const MarkovTopology &topology, std::optional<long long> steps)
{
    validate(topology);
    checkSteps(steps);
    double logPAll = 0;
    bool periodic = false;
    for (const auto &g : topology) {
        if (!steps && isPeriodic(g.p, g.q)) {
            periodic = true; // all such groups are in lockstep: they contribute one factor 1/2 together
            continue;
        }
        logPAll += g.threads * logSuspended(g.p, g.q, steps);
    }
    if (periodic)
        logPAll += std::log(0.5);
    MarkovResult r;
    r.solver = MarkovSolver::Exact;
    r.steps = steps;
    r.system_states = systemStateCount(topology);
    fillFromLog(logPAll, r);
    return r;
}

MarkovResult solveMarkov(const MarkovTopology &topology, MarkovSolver solver, std::optional<long long> steps)
{
    if (solver == MarkovSolver::Exact)
        return solveMarkovExact(topology, steps);
    checkSteps(steps);
    const LiteralMarkovChain chain(topology);
    return steps ? chain.transient(*steps) : chain.steadyState();
}

// ---- literal solver ----

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

// ---- surfaces ----

std::vector<double> thesisGrid()
{
    return {0.001, 0.003, 0.005, 0.007, 0.009, // a) 0.001 to 0.009, intervals of 0.002
            0.01,  0.03,  0.05,  0.07,  0.09,  // b) 0.01 to 0.09, intervals of 0.02
            0.1,   0.3,   0.5,   0.7,   0.9,   // c) 0.1 to 0.9, intervals of 0.2
            0.91,  0.93,  0.95,  0.97,  0.99,  // d) 0.91 to 0.99, intervals of 0.02
            0.991, 0.993, 0.995, 0.997, 0.999};
}

MarkovGrid MarkovGrid::fromText(std::string_view text)
{
    if (text == "thesis")
        return {MarkovGridKind::Thesis, 25};
    const auto colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    if (colon == std::string_view::npos || (kind != "uniform" && kind != "logit"))
        throw InputError("grid must be thesis, uniform:K or logit:K (got '" + brief(text) + "')");
    const std::string_view count = text.substr(colon + 1);
    const std::optional<int> k = parseInteger<int>(count);
    if (!k || *k < 2 || *k > kMaxGridCount) {
        throw InputError("grid '" + std::string(text) + "': K must be a whole number between 2 and "
                         + std::to_string(kMaxGridCount));
    }
    return {kind == "uniform" ? MarkovGridKind::Uniform : MarkovGridKind::Logit, *k};
}

std::string MarkovGrid::text() const
{
    switch (kind) {
    case MarkovGridKind::Thesis:
        return "thesis";
    case MarkovGridKind::Uniform:
        return "uniform:" + std::to_string(count);
    case MarkovGridKind::Logit:
        return "logit:" + std::to_string(count);
    }
    return "thesis";
}

std::vector<double> MarkovGrid::values() const
{
    if (kind != MarkovGridKind::Thesis && (count < 2 || count > kMaxGridCount)) {
        throw InputError("grid '" + text() + "': K must be a whole number between 2 and "
                         + std::to_string(kMaxGridCount));
    }
    return gridValues(kind, count);
}

SurfaceCells markovSurfaceCells(std::span<const int> threadsPerGroup, std::span<const double> p,
                                std::span<const double> q, std::optional<long long> steps, std::span<double> cpi,
                                std::span<double> log10Cpi)
{
    if (threadsPerGroup.empty())
        throw InputError("the topology needs at least one cache group");
    MarkovTopology shape;
    for (int n : threadsPerGroup)
        shape.push_back({n, 0, 0});
    validate(shape);
    checkSteps(steps);
    if (p.empty() || q.empty())
        throw InputError("a surface needs at least one p and one q value");
    for (double v : p)
        checkProbability(v, "surface p");
    for (double v : q)
        checkProbability(v, "surface q");
    if (cpi.size() != p.size() * q.size() || log10Cpi.size() != cpi.size())
        throw InputError("a surface of " + std::to_string(p.size()) + " x " + std::to_string(q.size())
                         + " cells needs as many outputs");

    const long long threads = threadCount(shape);
    const double n = double(threads);
    constexpr double kInvLn10 = 1 / kLn10;
    if (steps) {
        for (std::size_t at = 0; at < cpi.size(); ++at) {
            cpi[at] = surfaceCell(p[at % p.size()], q[at / p.size()], n, steps);
            log10Cpi[at] = std::log10(cpi[at]);
        }
    } else {
        // Steady state, a row (one q) at a time: P_all = s^n by binary powering, a few multiplies per cell
        // that the compiler vectorises, where the general path spends a log and an exp. Any s with s^n below
        // e^kNegligibleLog gives CPI 1 exactly; it is set to 0 first, so no partial product underflows into
        // (slow) subnormals.
        const double negligible = std::exp(kNegligibleLog / n);
        std::vector<double> base(p.size());
        std::vector<double> pAll(p.size());
        for (std::size_t j = 0; j < q.size(); ++j) {
            double *row = cpi.data() + j * p.size();
            double *logRow = log10Cpi.data() + j * p.size();
            const double c = 1 - q[j];
            for (std::size_t i = 0; i < p.size(); ++i) {
                const double v = p[i] > 0 ? p[i] / (p[i] + c) : 0;
                base[i] = v < negligible ? 0 : v;
                pAll[i] = 1;
            }
            for (long long e = threads; e > 0; e >>= 1) {
                if (e & 1) {
                    for (std::size_t i = 0; i < p.size(); ++i)
                        pAll[i] *= base[i];
                }
                if (e > 1) {
                    for (std::size_t i = 0; i < p.size(); ++i)
                        base[i] *= base[i];
                }
            }
            // CPI = 1 / (1 - P_all); log10 CPI = -log1p(-P_all) / ln 10, whose series' first four terms are
            // exact to double precision below P_all = 1e-4 (most cells) and cost no call.
            for (std::size_t i = 0; i < p.size(); ++i) {
                const double a = pAll[i];
                row[i] = 1 / (1 - a);
                logRow[i] = a * (1 + a * (0.5 + a * (1.0 / 3 + a * 0.25))) * kInvLn10;
            }
            // The few cells the above does not fit: where 1 - P_all would cancel (P_all > 1/2) and the periodic
            // p = 1, q = 0 take the general path; from 1e-4 on the logarithm is taken.
            for (std::size_t i = 0; i < p.size(); ++i) {
                if (pAll[i] > 0.5 || isPeriodic(p[i], q[j])) {
                    row[i] = surfaceCell(p[i], q[j], n, steps);
                    logRow[i] = std::log10(row[i]);
                } else if (pAll[i] >= 1e-4) {
                    logRow[i] = -std::log1p(-pAll[i]) * kInvLn10;
                }
            }
        }
    }
    SurfaceCells extremes;
    extremes.system_states = systemStateCount(shape);
    for (std::size_t at = 1; at < cpi.size(); ++at) {
        if (cpi[at] > cpi[extremes.max])
            extremes.max = at;
        if (cpi[at] < cpi[extremes.min])
            extremes.min = at;
    }
    return extremes;
}

void markovSurface(std::span<const int> threadsPerGroup, std::span<const double> p, std::span<const double> q,
                   std::optional<long long> steps, MarkovSurface &out)
{
    out.cpi.resize(p.size() * q.size());
    out.log10_cpi.resize(out.cpi.size());
    const SurfaceCells cells = markovSurfaceCells(threadsPerGroup, p, q, steps, out.cpi, out.log10_cpi);
    out.p.assign(p.begin(), p.end());
    out.q.assign(q.begin(), q.end());
    out.system_states = cells.system_states;
    out.max = out.extremeAt(cells.max);
    out.min = out.extremeAt(cells.min);
}

MarkovSurface markovSurface(std::span<const int> threadsPerGroup, const MarkovGrid &grid,
                            std::optional<long long> steps)
{
    const std::vector<double> values = grid.values();
    MarkovSurface s;
    markovSurface(threadsPerGroup, values, values, steps, s);
    return s;
}

} // namespace crossroof::core
