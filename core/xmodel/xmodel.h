// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/parameters.h"

#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// How an equilibrium responds to a perturbation of k under dk/dt = -F(k) (MODEL.md 1.4).
enum class Stability {
    Stable,   ///< F rises through zero: perturbations decay
    Unstable, ///< F falls through zero: perturbations grow
    Critical, ///< F touches zero without crossing: a tangency, the edge of a bistable region
    Neutral   ///< F is zero on a whole interval [k, k_end]: f and G flat and equal
};

/// What limits the machine at an equilibrium (MODEL.md 1.5).
enum class BoundClass { Compute, Memory, Capacity, Thread, CacheThrashing };

std::string_view stabilityName(Stability s);
std::string_view boundClassName(BoundClass b);

struct Equilibrium
{
    double k = 0;       ///< warps in the memory system
    double k_end = 0;   ///< equal to k, except for a neutral interval
    double x = 0;       ///< warps computing, n - k
    Stability stability = Stability::Stable;
    double ms_gbs = 0;  ///< memory-system throughput of the device, GB/s
    double dram_gbs = 0; ///< the DRAM traffic it makes, GB/s (MS throughput less what the caches serve)
    double cs_gops = 0; ///< compute-system throughput of the device, Gop/s
    std::optional<double> hit_rate; ///< shared-cache hit rate (cache modes only)
    BoundClass bound = BoundClass::Thread;
};

struct Landmarks
{
    double pi = 0;                     ///< CS transition M*L_c/E, in x (warps)
    double delta = 0;                  ///< MS transition R_cap*L/m, in k (warps)
    std::optional<double> psi;         ///< k of the cache peak (local max of f before delta)
    std::optional<double> psi_gbs;     ///< f at the cache peak
    std::optional<double> valley;      ///< k of the cache valley (local min of f after psi)
    std::optional<double> valley_gbs;  ///< f at the cache valley
    double plateau_gbs = 0;            ///< R
};

struct Metrics
{
    /// MLP of the machine: R_cap*L requests in flight saturate the MS (R_cap = min(R_req, the R_dram cap));
    /// delta = mlp/m warps hold them (MODEL.md 1.5)
    double mlp = 0;
    double dlp_machine = 0;              ///< M/R_cap, the roofline ridge in Z units
    std::optional<double> tlp_machine;   ///< delta + Z*R_cap*L_c/E warps when Z*R_cap <= M
    double ilp = 0;                      ///< E
};

/// Everything the X-graph shows for one set of parameters.
struct XGraphResult
{
    std::vector<Equilibrium> equilibria; ///< sorted by k; never empty for valid parameters
    std::size_t operating_index = 0;     ///< index of the operating point in equilibria
    std::optional<double> margin_warps;  ///< distance to the next (unstable) root, when there is one
    Landmarks landmarks;
    Metrics metrics;

    const Equilibrium &operatingPoint() const { return equilibria[operating_index]; }
    int stableCount() const;
};

/// Sampled curves for drawing, in GB/s against k in [0, n]. Kinks and landmarks are sample points, so a
/// polyline through the samples has exact corners.
struct XGraphCurves
{
    std::vector<double> k;
    std::vector<double> f_gbs;          ///< MS supply f(k)
    std::vector<double> g_gbs;          ///< CS demand G(n-k)
    std::vector<bool> f_falling_faster; ///< F decreases after this sample: an equilibrium there is unstable
};

/// The X-model of one machine running one workload (Li et al.'s X-model paper; MODEL.md section 1).
/// Internal rates are requests per cycle per SM (MS) and warp-instructions per cycle per SM (CS).
class XModel
{
public:
    /// Throws InputError if the parameters break a rule of MODEL.md 1.2.
    explicit XModel(const XModelParams &params);

    const XModelParams &params() const { return m_p; }

    /// Loaded memory latency Lm(k) = max(L, k*m/R_req) (Eq. 4, with m requests in flight per warp).
    double memoryLatency(double k) const;
    /// DRAM bytes per request: dram_bytes when given, else the workload's request bytes times the share that
    /// misses the caches (fixed mode) or all of them (no cache, locality and two-level modes).
    double dramBytesPerRequest() const;
    /// DRAM GB/s of the device with k warps in the memory system: f(k) times the DRAM bytes per request
    /// (dram_bytes, or the request bytes that miss every cache level at k).
    double dramGbs(double k) const;
    /// The tightest byte-bandwidth cap of the L1, L2 and DRAM (R_l1, R_l2, R_dram; MODEL.md 1.7) in
    /// requests/cycle/SM; infinite when no level has one.
    double byteCap() const { return m_byteCap; }
    /// Share of the MS supply that hits the shared cache with k warps in the memory system: h, Eq. 3 in
    /// locality mode, the L1 hit share in two-level mode, 0 without cache; with bypassing, the cache users'
    /// hit rate times their share of f.
    double hitRate(double k) const;
    /// MS supply f(k), requests/cycle/SM (Eq. 2, 5, or the two-level form of MODEL.md 1.3; or the measured f
    /// up to its last point, joined to this beyond): the (1-b)*k warps that use the cache plus the b*k that
    /// bypass it (MODEL.md 1.3), each with m requests in flight, at most the byte cap.
    double msSupply(double k) const;
    /// f(k) without the byte cap: what the latencies and R allow.
    double latencySupply(double k) const;
    /// Two-level mode: the loaded latency of memory's requests, L_s + k*m*m_2/R_req: the L1 lookup and the
    /// time R_req takes to serve the requests in flight that miss both caches (MODEL.md 1.3; the L2's hits
    /// wait k*m/R_2 on top of L_2 instead).
    double queuedLatency(double k) const;
    /// Two-level mode: how far the unloaded latency past the L1 lies above the loaded one,
    /// (1-m_2) L_2 + m_2 L - queuedLatency(k) (MODEL.md 1.3). f has a corner wherever it changes sign.
    double queueMargin(double k) const;
    /// CS throughput g(x) = min(E*x/L_c, M), warp-instructions/cycle/SM (or the measured g, MODEL.md).
    double csThroughput(double x) const;
    /// CS demand on the MS, G(x) = g(x)/Z, requests/cycle/SM.
    double csDemand(double x) const;
    /// Flow balance F(k) = f(k) - G(n-k); dk/dt = -F(k).
    double balance(double k) const;

    /// Finds every equilibrium with its stability, the operating point, landmarks and metrics.
    XGraphResult solve() const;
    /// The operating point alone, equal to solve().operatingPoint() bit for bit. Without a measured curve and
    /// with no cache or a fixed hit rate, f never falls and G(n-k) never rises, so F = f - G changes sign once
    /// on the search grid: the change is found by bisecting the grid (about ten evaluations of F instead of one
    /// per grid point) and refined as solve() refines it. Other parameters go through solve().
    Equilibrium operatingPoint() const;
    /// Landmarks only (cheaper than solve()).
    Landmarks landmarks() const;
    Metrics metrics() const;
    /// Samples f and G for drawing at COUNT even steps of k over [0, n] and at the kinks; reuses the vectors'
    /// storage.
    void sampleCurves(int count, XGraphCurves &out) const;
    /// Samples f and G for drawing where they bend: the polyline through the samples passes within TOLERANCE
    /// times the largest f (the height the X-graph gives f) of both curves, checked at the middle and the
    /// quarters of every stretch between two samples. Straight stretches get few samples, the bends of f many; the kinks (delta,
    /// n - pi, psi, the valley) are samples. At most MAX_SAMPLES samples; reuses the vectors' storage.
    void sampleCurvesAdaptive(double tolerance, XGraphCurves &out, int maxSamples = 8192) const;
    /// The same, with the cache peak and valley of SOLVED (this model's landmarks, from solve() or landmarks())
    /// instead of searching f for them again.
    void sampleCurvesAdaptive(double tolerance, XGraphCurves &out, const Landmarks &solved,
                              int maxSamples = 8192) const;

    /// One equilibrium as the root search finds it: where it lies and its stability.
    struct Root
    {
        double k = 0;
        double k_end = 0; ///< equal to k, except for a neutral interval
        Stability stability = Stability::Stable;
    };
    /// The equilibria with N warps resident instead of n (any N > 0): what solve() finds, without the
    /// descriptions. The lean scan uses it where a measured curve stands in for f or g.
    std::vector<Root> rootsAt(double n) const;
    /// Whether a measured curve stands in for f(k) or g(x).
    bool measured() const { return m_p.measured_f || m_p.measured_g; }

    /// Converts an MS rate (requests/cycle/SM) to device GB/s.
    double toGbs(double requestRate) const { return requestRate * m_gbsFactor; }
    /// Converts a CS rate (warp-instructions/cycle/SM) to device Gop/s.
    double toGops(double instructionRate) const { return instructionRate * m_gopsFactor; }

private:
    struct Extremes
    {
        std::optional<double> psi;
        std::optional<double> valley;
        std::vector<double> turns; ///< two-level mode: the ends of the falling stretches of f (grid kinks)
    };
    Extremes findExtremes() const;
    void sampleAdaptive(double tolerance, XGraphCurves &out, int maxSamples, const Extremes &ex) const;
    /// Sets OUT.f_falling_faster from its samples.
    static void markFalling(XGraphCurves &out);
    Landmarks landmarksFrom(const Extremes &ex) const;
    std::vector<Root> findRoots(double n, const Extremes &ex) const;
    /// Adds the kinks of the two-level shape (EX.turns) and the measured curves' points below N to KS.
    void addKinks(std::vector<double> &ks, double n, const Extremes &ex) const;
    double analyticCsThroughput(double x) const;
    Equilibrium describe(double k, double k_end, Stability s) const;
    BoundClass boundAt(double k) const;
    double slopeOfSupply(double k) const;
    /// 1 - h(kc) of Eq. 3 with kc warps sharing the cache (locality mode).
    double cacheMissShare(double kc) const;
    /// Miss share of one level of the two-level cache, 1 / (1 + (CAPACITY/(beta*kc))^SHARPNESS)
    /// (MODEL.md 1.3); 1 without capacity.
    double levelMissShare(double kc, double capacity, double sharpness) const;
    /// Supply of the kc warps that use the cache, with the memory latency lm.
    double cachedSupply(double kc, double lm) const;

    XModelParams m_p;
    double m_rreq;       // R_req
    double m_l2Service = 0; // cycles of the L2 per request in two-level mode: 1 / (R_l2 in requests), 0 without
    double m_byteCap = std::numeric_limits<double>::infinity(); // tightest level cap, requests/cycle/SM
    double m_cap;        // min(R_req, byte cap): the plateau of f without cache
    double m_delta;      // m_cap * L / m
    double m_pi;         // M * L_c / E
    double m_gbsFactor;
    double m_gopsFactor;
    double m_joinF = 1; // measured f / analytic f at the measured curve's last point
    double m_joinG = 1;
};

} // namespace crossroof::core
