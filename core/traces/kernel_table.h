// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/traces/device_check.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/parameters.h"
#include "core/xmodel/xmodel.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What the X-model takes from one kernel's counters (MODEL.md, "Real kernels"): the workload's n, Z, request
/// size, DRAM bytes per request and requests in flight, and the clock it ran at.
struct KernelWorkload
{
    double n = 0;          ///< achieved warps per SM
    double Z = 0;          ///< warp-instructions per request (loads and stores)
    double req_bytes = 0;  ///< bytes per request: sectors x 32 / requests
    double dram_bytes = 0; ///< DRAM bytes per request: DRAM GB/s x duration / requests
    double m = 1;          ///< requests in flight per warp: requests per load (a warp waits only for loads)
    double l2_bytes = 0;   ///< bytes per request that reach the L2: req_bytes x (1 - L1 hit rate), all without one
    bool stores_only = false;       ///< no loads: no request holds a warp, m is kStoresOnlyInFlight
    std::optional<double> l1_hit;   ///< L1/TEX hit rate, 0..1, when the export has it
    std::optional<double> l2_hit;   ///< L2 hit rate, 0..1, when the export has it
    std::optional<double> clock_ghz; ///< SM clock while it ran (sm__cycles_elapsed.avg.per_second, SM Frequency)
    std::optional<double> registers;     ///< registers per thread (launch__registers_per_thread)
    /// The tightest pipe's ceiling on the issue rate, warp-instructions per cycle per SM (pipeCeiling()), and
    /// which it is (KernelLimit::Fma, Tensor, or Issue for the warp schedulers); none without the counters
    std::optional<double> pipe_ipc;
    std::optional<KernelLimit> pipe;
    double measured_gops = 0;       ///< instructions x warp size / duration, Gop/s
};

/// m for a kernel that only stores: a store does not hold its warp, so the latency limit k*m/L never binds
/// before the byte bandwidth does on any device Crossroof knows (64 requests in flight per warp).
inline constexpr double kStoresOnlyInFlight = 64;

/// A change to a kernel the model ranks (kernel_diagnosis.h): what it is and the speed-up it predicts.
struct KernelChange
{
    std::string change; ///< e.g. "accesses vectorized to 16 bytes (128 -> 512 B per request)"
    double gain = 0;    ///< predicted kernel time before / after - 1 (0.35 = 35 % faster)
};

/// One profiled kernel next to the X-model's prediction for it.
struct KernelRow
{
    std::string id;
    std::string name;       ///< as in the file
    std::string short_name; ///< shortKernelName()
    std::string grid;
    std::string block;
    std::optional<double> warps_per_sm;
    std::optional<double> duration_ns;
    std::optional<double> dram_gbs;
    bool dram_gbs_derived = false; ///< from "DRAM Throughput" % times the profile's R, not measured bytes
    std::optional<double> Z;       ///< instructions / requests, when both were collected
    std::optional<KernelWorkload> workload; ///< when every metric the model needs is there
    std::optional<double> predicted_gbs;  ///< DRAM GB/s at the operating point
    std::optional<double> predicted_gops; ///< CS Gop/s at the operating point
    std::optional<double> naive_gbs;      ///< a naive memory roofline: every kernel at the peak DRAM bandwidth
    std::optional<double> roofline_gbs;   ///< the roofline: min(peak, M x clock x SMs / Z x B_dram), no latency
    std::optional<BoundClass> bound;      ///< what limits the operating point
    std::optional<KernelLimit> limit;     ///< the level or pipe that bounds it (kernel_diagnosis.h)
    std::vector<KernelChange> diagnosis;  ///< the two changes the model ranks best, best first
    std::optional<double> error; ///< (predicted - measured) / measured; none below 1e-3 GB/s measured
    std::string skipped;         ///< why the kernel cannot be compared; empty when it can
    std::vector<std::string> missing; ///< metrics the prediction needs and the export lacks
    /// `ncu --metrics ...` that adds them (an nvprof file's: `nvprof --metrics ...; on Volta and newer, ncu
    /// --metrics ...`); empty when none is missing
    std::string ncu_metrics;
};

/// 1 - |predicted - measured| / measured, floored at 0 (the paper's Fig. 11 accuracy).
double predictionAccuracy(double predicted, double measured);

/// Mean accuracy of the rows with a prediction and a measured DRAM throughput, of the model and of the naive
/// roofline; none when no row has both.
struct KernelAccuracy
{
    std::size_t kernels = 0;
    double model = 0;    ///< the X-model
    double naive = 0;    ///< every kernel at the peak DRAM bandwidth
    double roofline = 0; ///< min(peak, compute roof) with the kernel's own Z, bytes and clock
};
std::optional<KernelAccuracy> kernelAccuracy(const std::vector<KernelRow> &rows);

/// kernelAccuracy() of rows handed over one at a time (the same sums in the same order).
class KernelAccuracySum
{
public:
    void add(const KernelRow &row);
    std::optional<KernelAccuracy> mean() const;

private:
    KernelAccuracy m_sum;
};

/// The workload of K as the X-model reads it, or the metrics that are missing (raw names) in MISSING, or why the
/// counters cannot describe it in PROBLEM (no LSU requests, zero duration).
std::optional<KernelWorkload> kernelWorkload(const NcuKernel &k, double warpSize, std::vector<std::string> &missing,
                                             std::string &problem);

/// A pipe's ceiling on a kernel's issue rate, warp-instructions per cycle per SM (MODEL.md 1.7): a pipe busy for
/// C cycles per SM while the SM issues I/SMs instructions lets it issue at most I / C per cycle. The FMA pipe
/// takes FMA_PER_CYCLE of its warp-instructions a cycle (FP32 lanes per SM / warp size: 4 on 9.0, 2 on 8.0),
/// so C = I_fma / FMA_PER_CYCLE; the tensor pipe's busy cycles T are counted. Both per SM, summed over the SMs.
/// SCHEDULERS warp schedulers issue one warp-instruction each a cycle: at most SCHEDULERS a cycle whatever the
/// mix (KernelLimit::Issue). The tightest, none when no count is given and SCHEDULERS is 0.
struct KernelPipe
{
    double ipc = 0;
    KernelLimit pipe = KernelLimit::Fma;
};
std::optional<KernelPipe> pipeCeiling(double instructions, std::optional<double> fmaInstructions,
                                      double fmaPerCycle, std::optional<double> tensorCycles, double schedulers = 0);

/// MACHINE (a profile's parameters) with WORKLOAD: n, Z, request, L2 and DRAM bytes, m, the hit rates as a
/// two-level fixed cache (where MACHINE has an L2 latency), the SM clock the kernel ran at (L scaled with it,
/// R_l1 and R_l2 too: on-chip bandwidths are bytes per cycle). E and m times registerParallelism(); M at most
/// the workload's pipe ceiling (pipe_ipc); the rest stays MACHINE's.
XModelParams kernelParams(const XModelParams &machine, const KernelWorkload &workload);

/// How many times the independent work of a full-occupancy thread a thread of WORKLOAD holds in its registers
/// (MODEL.md 1.7): r / (registers / (max_warps x warp_size)), at least 1; 1 when MACHINE's registers or the
/// kernel's registers per thread are unknown. A kernel that uses more registers per thread than full occupancy
/// allows runs fewer warps and keeps that many more chains and loads in flight in each.
double registerParallelism(const XModelParams &machine, const KernelWorkload &workload);

/// The kernels of an ncu file compared with the X-model, and what the user must know about the comparison.
struct KernelTable
{
    std::vector<KernelRow> rows;
    std::vector<std::string> warnings; ///< device mismatch, derived bandwidths, the file's own warnings
    XModelParams machine; ///< the parameters the kernels were compared with

    /// The parameters ROW's prediction used, none when it has none: the profile's machine at the kernel's
    /// clock (L scaled with it: DRAM latency is a time), the kernel's workload, E and the rest from the
    /// parameters given (kernelParams() of machine and the row's workload, made again rather than kept in
    /// every row: a million kernels would hold a million copies).
    std::optional<XModelParams> paramsOf(const KernelRow &row) const;
};

/// Compares kernels one at a time with the X-model of PARAMS, as compareKernels() does, for a caller that does
/// not keep every row (`crossroof-cli kernels` writes each as it comes: a million rows held at once took about
/// 800 MB).
class KernelComparer
{
public:
    /// FORM, the kind of file the kernels come from, words what a kernel lacks: the nvprof metrics that give
    /// it for an nvprof file (with the ncu ones for newer GPUs), the ncu metrics otherwise.
    explicit KernelComparer(const XModelParams &params, NcuForm form = NcuForm::Details);

    /// K's row, predicted unless PREDICT is false (the workload and the reasons only); counts what warnings()
    /// says about it.
    KernelRow compare(const NcuKernel &k, bool predict = true);
    /// compareKernels()' warnings about the kernels compared so far, of REPORT (its device, checkDevice() against
    /// PROFILE with the parameters given and the bundled profiles, and its own warnings).
    std::vector<std::string> warnings(const NcuReport &report, const HardwareProfile &profile) const;
    /// KernelTable::paramsOf() for a row this comparer made.
    std::optional<XModelParams> paramsOf(const KernelRow &row) const;

private:
    /// The metrics to add, as the profiler of the file names them: "nvprof --metrics ... (on Volta and newer,
    /// ncu --metrics ...)" for nvprof files, "ncu --metrics ..." otherwise.
    std::string addingMetrics(const std::vector<std::string> &ncuMetrics) const;

    XModelParams m_params;
    NcuForm m_form = NcuForm::Details;
    std::size_t m_derived = 0, m_overMax = 0, m_noClock = 0, m_noStores = 0, m_lacking = 0, m_noL1Hit = 0,
                m_noFma = 0;
    std::vector<std::string> m_lacked; ///< every metric some kernel lacks, in the order first met
    std::vector<std::string> m_storesLacked; ///< the store counts some predicted kernel lacks, in that order
    double m_mostWarps = 0;
};

/// Compares every kernel of REPORT with the X-model of PARAMS (the parameters in use of PROFILE, whose device
/// the warnings check the file's against): each kernel is predicted with its own
/// workload (kernelParams()). A kernel that lacks a metric the model needs is listed with the metrics and the
/// ncu option that adds them; one with a problem in the file, or that the counters cannot describe, with the
/// reason in KernelRow::skipped. Nothing is filled in from PARAMS' workload but E.
KernelTable compareKernels(const NcuReport &report, const XModelParams &params, const HardwareProfile &profile);

/// A profile for the device of an ncu file: BASE with the SM count, clock, warps per SM, compute capability
/// and peak DRAM bandwidth (R) the file gives, each with its source naming SOURCE; the rest (L, M, ...) stays
/// BASE's. Id "ncu-device", origin SOURCE.
HardwareProfile profileFromDevice(const NcuDevice &device, const HardwareProfile &base, const std::string &source);

} // namespace crossroof::core
