// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// One cache group of the Markov CPI model (an L2 cache in Mitra's thesis, 4.2.2): the threads
/// that share it and their thread transitional probability pair (MODEL.md 3).
struct CacheGroup
{
    int threads = 1; ///< N_g
    double p = 0.5;  ///< probability that an active thread suspends in one step
    double q = 0.5;  ///< probability that a suspended thread stays suspended in one step

    bool operator==(const CacheGroup &) const = default;
};

/// The machine as the model sees it: its cache groups. Groups only meet through main memory, so they are
/// independent chains (Eq. 4).
using MarkovTopology = std::vector<CacheGroup>;

/// G groups of N threads each, all with the same p and q (the thesis' configurations, Table 5.18).
MarkovTopology uniformTopology(int groups, int threadsPerGroup, double p, double q);

/// Checks a topology: at least one group, 1..kMaxThreadsPerGroup threads, p and q in [0, 1].
/// Throws InputError naming the group and the field.
void validate(const MarkovTopology &topology);

/// Number of states of the system chain, prod_g (N_g + 1) (Eq. 4; 81 for 4 groups of 2 threads).
/// Exact up to 2^53, a double so that it never overflows.
double systemStateCount(const MarkovTopology &topology);

/// log10 of prod_g (N_g + 1) for the threads per group: finite for every shape validate() accepts (10^6
/// groups of 10^6 threads: 6,000,000.43), where the count itself is beyond a double.
double systemStateCountLog10(std::span<const int> threadsPerGroup);

/// The state count for a message: every digit up to 2^53 ("81"), a double's 15 digits up to 1.8e308, and
/// beyond that its mantissa and exponent from the logarithm ("about 2.69153e+6000000"); never "inf".
std::string systemStateCountText(std::span<const int> threadsPerGroup);

/// Total number of threads, sum_g N_g.
long long threadCount(const MarkovTopology &topology);

enum class MarkovSolver {
    Exact,  ///< product form, closed per group (MODEL.md 3, "exact fast path")
    Literal ///< the dense system chain, power steps from all-active (appendix A); a cross-check
};

std::string_view markovSolverName(MarkovSolver solver);
std::optional<MarkovSolver> markovSolverFromName(std::string_view name);

/// What the model predicts for one topology, at steady state or after a number of steps.
struct MarkovResult
{
    double p_all_suspended = 0; ///< P_all: probability that every thread is suspended
    double p_any_active = 1;    ///< 1 - P_all, computed without cancellation
    double cpi = 1;             ///< 1 / (1 - P_all); +infinity exactly when `infinite`
    bool infinite = false;      ///< P_all = 1, nothing retires (at steady state: q = 1 and p > 0)
    double system_states = 0;   ///< prod_g (N_g + 1)
    std::optional<long long> steps; ///< transient after this many steps from all-active; none: steady state
    MarkovSolver solver = MarkovSolver::Exact;
    long long iterations = 0;   ///< literal solver: power steps taken (0 for the exact solver)
};

/// Exact solution. Threads are independent two-state chains, so a group's chain (Eq. 1-3) is the binomial
/// lumping of N_g of them and P_all = prod_g a_g^N_g, where a_g is one thread's probability of being
/// suspended: a = s = p / (p + 1 - q) at steady state and a(t) = s (1 - (q - p)^t) after t steps from
/// active. Steady state means the long-run average from all-active; it is the product form everywhere
/// except p = 1, q = 0, where every thread flips each step and all of them flip in lockstep (suspended on
/// every other step, P_all = 1/2 for those groups together, not 2^-N). Cost O(groups), any size.
MarkovResult solveMarkovExact(const MarkovTopology &topology, std::optional<long long> steps = std::nullopt);

/// Dispatches to the exact solver or to LiteralMarkovChain. Throws InputError for an invalid topology or
/// when the literal chain does not fit (kLiteralStateLimit).
MarkovResult solveMarkov(const MarkovTopology &topology, MarkovSolver solver,
                         std::optional<long long> steps = std::nullopt);

/// The largest system chain the literal solver builds: a dense 10,000 x 10,000 matrix is 800 MB.
inline constexpr double kLiteralStateLimit = 10000;
/// Upper bounds checked by validate().
inline constexpr int kMaxThreadsPerGroup = 1000000;
inline constexpr std::size_t kMaxGroups = 1000000;

/// The axes of a CPI surface (MODEL.md 3): the thesis grid, or K values evenly spaced in p (uniform) or in
/// log(p / (1 - p)) (logit, for the extremes); both span the thesis' range 0.001 .. 0.999.
enum class MarkovGridKind { Thesis, Uniform, Logit };

struct MarkovGrid
{
    MarkovGridKind kind = MarkovGridKind::Thesis;
    int count = 25;

    /// "thesis", "uniform:K" or "logit:K" (2 <= K <= kMaxGridCount); throws InputError otherwise.
    static MarkovGrid fromText(std::string_view text);
    std::string text() const;
    /// The axis values, ascending (count is ignored for the thesis grid). Throws InputError for a bad count.
    std::vector<double> values() const;

    bool operator==(const MarkovGrid &) const = default;
};

inline constexpr int kMaxGridCount = 2000;
inline constexpr double kGridLow = 0.001;
inline constexpr double kGridHigh = 0.999;

/// The 25 probabilities of section 5.3.1, ascending: 0.001..0.009 by 0.002, 0.01..0.09 by 0.02, 0.1..0.9 by
/// 0.2, 0.91..0.99 by 0.02 and 0.991..0.999 by 0.002.
std::vector<double> thesisGrid();

/// Predicted CPI over a (p, q) grid, the same p and q in every group (Fig. 5.15).
struct MarkovSurface
{
    struct Extreme
    {
        double cpi = 1; ///< +infinity when infinite
        double p = 0;
        double q = 0;
        bool infinite = false;
    };

    std::vector<double> p;
    std::vector<double> q;
    std::vector<double> cpi; ///< row-major: cpi[j * p.size() + i] at q[j], p[i]; +infinity where absorbing
    /// log10 of cpi, cell by cell (+infinity where absorbing), from P_all without cancellation near CPI 1
    /// (P_all below e^-40 counts as CPI 1 exactly): what a logarithmic colour scale needs.
    std::vector<double> log10_cpi;
    Extreme max;             ///< first maximum in row-major order
    Extreme min;             ///< first minimum in row-major order
    double system_states = 0;

    double at(std::size_t i, std::size_t j) const { return cpi[j * p.size() + i]; }
    /// The cell at row-major index AT as an Extreme.
    Extreme extremeAt(std::size_t at) const
    {
        return {cpi[at], p[at % p.size()], q[at / p.size()], !(cpi[at] < kInfinity)};
    }

    static constexpr double kInfinity = std::numeric_limits<double>::infinity();
};

/// What markovSurfaceCells() found besides the cells.
struct SurfaceCells
{
    std::size_t max = 0; ///< row-major index of the first maximum
    std::size_t min = 0; ///< ... and of the first minimum
    double system_states = 0;
};

/// The cells of a surface (see markovSurface()) written into CPI and LOG10_CPI, each p.size() * q.size() long,
/// row-major by q: for filling one surface from several threads, each with its own rows. Throws InputError
/// as markovSurface() does, or when the outputs have the wrong size.
SurfaceCells markovSurfaceCells(std::span<const int> threadsPerGroup, std::span<const double> p,
                                std::span<const double> q, std::optional<long long> steps, std::span<double> cpi,
                                std::span<double> log10Cpi);

/// Computes a surface for groups of the given thread counts, at steady state or after STEPS steps. With one
/// (p, q) everywhere P_all = a(p, q)^(sum N_g), so a point costs a few flops whatever the topology
/// (25 x 25 in microseconds, 400 x 400 in a few milliseconds). Reuses OUT's storage.
/// Throws InputError for invalid thread counts or probabilities outside [0, 1].
void markovSurface(std::span<const int> threadsPerGroup, std::span<const double> p, std::span<const double> q,
                   std::optional<long long> steps, MarkovSurface &out);
MarkovSurface markovSurface(std::span<const int> threadsPerGroup, const MarkovGrid &grid,
                            std::optional<long long> steps = std::nullopt);

} // namespace crossroof::core
