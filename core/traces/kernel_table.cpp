// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/kernel_table.h"

#include "core/profiles/profile_library.h"
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/bulk_kernels.h"
#include "core/traces/kernel_diagnosis.h"
#include "core/xmodel/parameters.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crossroof::core {

namespace {

/// The compute capability the file names for K's device, nullptr where it names none the table knows.
const ComputeCapability *deviceCc(const NcuKernel &k)
{
    return k.gpu.cc.empty() ? nullptr : findComputeCapability(k.gpu.cc);
}

/// Warp-instructions the FMA pipe of K's device takes per cycle per SM: FP32 lanes per SM of the compute
/// capability the file names / WARPSIZE; 0 where the file names none or the table lacks its lanes.
double fmaPerCycle(const NcuKernel &k, double warpSize)
{
    const ComputeCapability *cc = deviceCc(k);
    return cc && warpSize > 0 ? cc->fp32_lanes_sm / warpSize : 0;
}

} // namespace

double predictionAccuracy(double predicted, double measured)
{
    if (!(measured > 0) || !std::isfinite(predicted))
        return 0;
    return std::max(0.0, 1 - std::abs(predicted - measured) / measured);
}

void KernelAccuracySum::add(const KernelRow &r)
{
    if (!r.predicted_gbs || !r.dram_gbs || r.dram_gbs_derived || !r.error)
        return;
    ++m_sum.kernels;
    m_sum.model += predictionAccuracy(*r.predicted_gbs, *r.dram_gbs);
    m_sum.naive += r.naive_gbs ? predictionAccuracy(*r.naive_gbs, *r.dram_gbs) : 0;
    m_sum.roofline += r.roofline_gbs ? predictionAccuracy(*r.roofline_gbs, *r.dram_gbs) : 0;
}

std::optional<KernelAccuracy> KernelAccuracySum::mean() const
{
    if (m_sum.kernels == 0)
        return std::nullopt;
    KernelAccuracy a = m_sum;
    a.model /= static_cast<double>(a.kernels);
    a.naive /= static_cast<double>(a.kernels);
    a.roofline /= static_cast<double>(a.kernels);
    return a;
}

std::optional<KernelAccuracy> kernelAccuracy(const std::vector<KernelRow> &rows)
{
    KernelAccuracySum sum;
    for (const KernelRow &r : rows)
        sum.add(r);
    return sum.mean();
}

std::optional<KernelWorkload> kernelWorkload(const NcuKernel &k, double warpSize, std::vector<std::string> &missing,
                                             std::string &problem)
{
    const auto need = [&](const std::optional<double> &value, const char *metric) {
        if (!value)
            missing.emplace_back(metric);
    };
    need(k.warps_per_sm, "sm__warps_active.avg.per_cycle_active");
    need(k.instructions, "smsp__inst_executed.sum");
    need(k.requests_ld, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    need(k.sectors_ld, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    need(k.dram_gbs, "dram__bytes.sum.per_second");
    need(k.duration_ns, "gpu__time_duration.sum");
    if (!missing.empty())
        return std::nullopt;
    // Stores are optional: an export of a kernel that only loads often leaves them out (compareKernels() warns).
    const double requests = *k.requests_ld + k.requests_st.value_or(0);
    if (!(requests > 0)) {
        problem = "no global load or store requests through the LSU (l1tex__t_requests_pipe_lsu_mem_global_op_ld/st "
                  "are 0): TMA and bulk copies bypass that path, so the X-model has no requests to place";
        return std::nullopt;
    }
    if (!(*k.duration_ns > 0)) {
        problem = "gpu__time_duration.sum is 0: no throughput can be measured";
        return std::nullopt;
    }
    if (!(*k.warps_per_sm > 0)) {
        problem = "sm__warps_active.avg.per_cycle_active is 0: no warp ran";
        return std::nullopt;
    }
    const double sectors = *k.sectors_ld + k.sectors_st.value_or(0);
    if (!(sectors > 0)) {
        problem = "the requests moved no sectors (l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st are 0): the "
                  "counts contradict each other";
        return std::nullopt;
    }
    KernelWorkload w;
    w.n = *k.warps_per_sm;
    w.Z = *k.instructions / requests;
    w.req_bytes = sectors * 32 / requests;
    w.dram_bytes = *k.dram_gbs * *k.duration_ns / requests; // GB/s x ns = bytes
    w.stores_only = !(*k.requests_ld > 0);
    w.m = w.stores_only ? kStoresOnlyInFlight : std::min(kStoresOnlyInFlight, requests / *k.requests_ld);
    w.l1_hit = k.l1_hit_rate;
    w.l2_hit = k.l2_hit_rate;
    // Every sector the L1 misses goes on to the L2; without the L1 hit rate all of them do (an upper bound).
    w.l2_bytes = w.req_bytes * (1 - std::clamp(w.l1_hit.value_or(0.0), 0.0, 1.0));
    w.registers = k.registers_per_thread;
    // The FMA pipe's rate and the schedulers are the device's: those of the compute capability the file names.
    const ComputeCapability *cc = deviceCc(k);
    if (const auto ceiling = pipeCeiling(*k.instructions, k.fma_instructions, fmaPerCycle(k, warpSize),
                                         k.tensor_cycles, cc ? cc->sub_partitions : 0)) {
        w.pipe_ipc = ceiling->ipc;
        w.pipe = ceiling->pipe;
    }
    if (k.sm_frequency_hz && *k.sm_frequency_hz > 0)
        w.clock_ghz = *k.sm_frequency_hz * 1e-9;
    w.measured_gops = *k.instructions * warpSize / *k.duration_ns;
    if (!(w.Z > 0) || !std::isfinite(w.Z) || !std::isfinite(w.req_bytes) || !std::isfinite(w.dram_bytes)
        || !std::isfinite(w.measured_gops)) {
        problem = "its counts give no finite Z, bytes per request, DRAM bytes per request or instruction throughput";
        return std::nullopt;
    }
    // What the X-model cannot take is said here, with the metrics it came from, rather than by the model.
    const struct
    {
        const char *key;
        double value;
        const char *from;
    } derived[] {{"Z", w.Z, "smsp__inst_executed.sum / requests"},
                 {"req_bytes", w.req_bytes, "32 x sectors / requests"},
                 {"dram_bytes", w.dram_bytes, "dram__bytes.sum.per_second x gpu__time_duration.sum / requests"}};
    for (const auto &d : derived) {
        const ParameterInfo &info = *findParameter(d.key);
        if (d.value < info.min || d.value > info.max) {
            problem = std::string(d.key) + " = " + formatNumber(d.value) + " (" + d.from + ") is outside the "
                      + "X-model's range, " + formatNumber(info.min) + " to " + formatNumber(info.max);
            return std::nullopt;
        }
    }
    return w;
}

std::optional<KernelPipe> pipeCeiling(double instructions, std::optional<double> fmaInstructions,
                                      double fmaPerCycle, std::optional<double> tensorCycles, double schedulers)
{
    std::optional<KernelPipe> out;
    const auto take = [&](double busyCycles, KernelLimit pipe) {
        if (!(busyCycles > 0) || !(instructions > 0))
            return;
        const double ipc = instructions / busyCycles;
        if (std::isfinite(ipc) && (!out || ipc < out->ipc))
            out = KernelPipe {ipc, pipe};
    };
    if (fmaInstructions && fmaPerCycle > 0)
        take(*fmaInstructions / fmaPerCycle, KernelLimit::Fma);
    if (tensorCycles)
        take(*tensorCycles, KernelLimit::Tensor);
    if (schedulers > 0)
        take(instructions / schedulers, KernelLimit::Issue);
    return out;
}

XModelParams kernelParams(const XModelParams &machine, const KernelWorkload &w)
{
    XModelParams p = machine;
    if (w.clock_ghz) {
        // DRAM latency is a time: in cycles it scales with the clock. On-chip latencies and M, L_c are cycles.
        p.L = machine.L * *w.clock_ghz / machine.clock_ghz;
        p.clock_ghz = *w.clock_ghz;
        // The L1 and L2 move bytes per cycle of their clock, which follows the SM clock.
        p.R_l1 = machine.R_l1 * *w.clock_ghz / machine.clock_ghz;
        p.R_l2 = machine.R_l2 * *w.clock_ghz / machine.clock_ghz;
    }
    p.n = std::clamp(std::round(w.n), 1.0, std::max(1.0, p.max_warps));
    // A pipe that takes fewer of the kernel's instructions per cycle than the SM issues bounds the issue rate.
    if (w.pipe_ipc && *w.pipe_ipc < p.M)
        p.M = std::max(*w.pipe_ipc, findParameter("M")->min);
    p.Z = w.Z;
    p.req_bytes = w.req_bytes;
    p.dram_bytes = std::max(w.dram_bytes, 1e-6 * w.req_bytes); // all hits: a vanishing DRAM share, no division by 0
    p.l2_bytes = std::max(w.l2_bytes, 1e-6 * w.req_bytes);
    // What the threads hold in registers beyond a full-occupancy thread: more chains and more loads in flight.
    const double held = registerParallelism(machine, w);
    p.E = std::clamp(machine.E * held, findParameter("E")->min, findParameter("E")->max);
    p.m = std::clamp(w.m * held, 1.0, kStoresOnlyInFlight);
    p.bypass = 0;
    // Where the requests are served: L1 hits (when the export says), DRAM for the bytes DRAM moved, the L2 for
    // the rest (where the machine has an L2 latency).
    const double h1 = std::clamp(w.l1_hit.value_or(0.0), 0.0, 0.999);
    const double toDram = std::clamp(w.dram_bytes / w.req_bytes, 0.0, 1.0);
    const double h2 = p.L_2 > 0 ? std::clamp(1 - toDram / (1 - h1), 0.0, 1.0) : 0.0;
    if (h1 > 0 || h2 > 0) {
        p.cache = CacheMode::Fixed;
        p.h = h1;
        p.h_2 = h2;
    } else {
        p.cache = CacheMode::None;
        p.h = 0;
        p.h_2 = 0;
    }
    return p;
}

double registerParallelism(const XModelParams &machine, const KernelWorkload &w)
{
    if (!(machine.registers > 0) || !w.registers || !(*w.registers > 0))
        return 1;
    const double full = machine.registers / (machine.max_warps * machine.warp_size); // per thread at full occupancy
    return std::max(1.0, *w.registers / full);
}

std::optional<XModelParams> KernelTable::paramsOf(const KernelRow &row) const
{
    if (!row.workload || !row.predicted_gbs)
        return std::nullopt;
    return kernelParams(machine, *row.workload);
}

KernelComparer::KernelComparer(const XModelParams &params, NcuForm form)
    : m_params(params)
    , m_form(form)
{
}

std::string KernelComparer::addingMetrics(const std::vector<std::string> &ncuMetrics) const
{
    std::string ncu;
    for (const std::string &metric : ncuMetrics)
        ncu += (ncu.empty() ? "" : ",") + metric;
    if (m_form != NcuForm::NvprofMetrics && m_form != NcuForm::NvprofTrace)
        return "ncu --metrics " + ncu;
    // What nvprof_csv.cpp reads for each (the metric nvprof names; the duration comes from its GPU trace).
    static const std::vector<std::pair<std::string_view, std::string_view>> kNvprof {
            {"sm__warps_active.avg.per_cycle_active", "achieved_occupancy"},
            {"smsp__inst_executed.sum", "inst_executed"},
            {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gld_transactions_per_request"},
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_transactions"},
            {"dram__bytes.sum.per_second", "dram_read_throughput,dram_write_throughput"}};
    std::string nvprof;
    bool trace = false;
    for (const std::string &metric : ncuMetrics) {
        if (metric == "gpu__time_duration.sum") {
            trace = true;
            continue;
        }
        const auto it = std::find_if(kNvprof.begin(), kNvprof.end(), [&](const auto &m) { return m.first == metric; });
        if (it != kNvprof.end())
            nvprof += (nvprof.empty() ? "" : ",") + std::string(it->second);
    }
    std::string text;
    if (!nvprof.empty())
        text = "nvprof --metrics " + nvprof;
    if (trace) {
        text += std::string(text.empty() ? "" : " and ")
                + "the duration of nvprof --print-gpu-trace (its output after the metrics')";
    }
    if (text.empty()) // metrics nvprof has no counterpart of
        text = "ncu --metrics " + ncu;
    else
        text += "; on Volta and newer, ncu --metrics " + ncu;
    return text;
}

KernelRow KernelComparer::compare(const NcuKernel &k, bool predict)
{
    const XModelParams &params = m_params;
    KernelRow row;
    row.id = k.id;
    row.name = k.name;
    row.short_name = k.short_name;
    row.grid = k.grid_size;
    row.block = k.block_size;
    row.warps_per_sm = k.warps_per_sm;
    row.duration_ns = k.duration_ns;
    row.dram_gbs = k.dram_gbs;
    if (!row.dram_gbs && k.dram_percent) {
        row.dram_gbs = *k.dram_percent / 100 * (params.R_dram > 0 ? params.R_dram : params.R);
        row.dram_gbs_derived = true;
        ++m_derived;
    }
    if (const auto z = k.intensity(); z && *z > 0 && std::isfinite(*z))
        row.Z = z;
    if (!k.problem.empty()) {
        row.skipped = k.problem;
        return row;
    }
    // The metrics ROW lacks: the ncu line that adds them, counted for the warnings; returns them as a list.
    const auto lacking = [&]() {
        std::string list;
        for (const std::string &metric : row.missing)
            list += (list.empty() ? "" : ",") + metric;
        row.ncu_metrics = addingMetrics(row.missing);
        ++m_lacking;
        for (const std::string &metric : row.missing) {
            if (std::find(m_lacked.begin(), m_lacked.end(), metric) == m_lacked.end())
                m_lacked.push_back(metric);
        }
        return list;
    };
    if (isBulkKernel(k)) {
        // No LSU requests: TMA or bulk copies, bounded by their L2 and DRAM bytes and their pipes (MODEL.md 1.7).
        const std::optional<BulkPrediction> bulk = predictBulkKernel(k, params, row.missing);
        if (!row.missing.empty()) {
            const std::string list = lacking();
            row.skipped = "no global load or store requests through the LSU (TMA or bulk copies): predicted from "
                          "its L2 and DRAM bytes and its pipes, it lacks "
                          + list + " (add them with " + row.ncu_metrics + ")";
        } else if (!bulk) {
            row.skipped = "no global load or store requests through the LSU (TMA or bulk copies), and its bytes, "
                          "instructions and tensor cycles give no finite time";
        } else if (predict) {
            row.predicted_gbs = bulk->dram_gbs;
            row.predicted_gops = bulk->gops;
            row.limit = bulk->limit;
            row.naive_gbs = params.R_dram > 0 ? params.R_dram : params.R;
            row.roofline_gbs = bulk->roofline_gbs;
            if (*row.dram_gbs >= findParameter("R")->min)
                row.error = (*row.predicted_gbs - *row.dram_gbs) / *row.dram_gbs;
        }
        return row;
    }
    std::string problem;
    row.workload = kernelWorkload(k, params.warp_size, row.missing, problem);
    if (!row.missing.empty()) {
        const std::string list = lacking();
        row.skipped = "missing " + std::to_string(row.missing.size()) + " metric(s) the model needs: " + list
                      + " (add them with " + row.ncu_metrics + ")";
    } else if (!problem.empty()) {
        row.skipped = problem;
    }
    if (row.workload) {
        const KernelWorkload &w = *row.workload;
        if (w.n > params.max_warps) {
            ++m_overMax;
            m_mostWarps = std::max(m_mostWarps, w.n);
        }
        if (!w.clock_ghz)
            ++m_noClock;
        if (!k.requests_st || !k.sectors_st) {
            ++m_noStores;
            // The store counts it lacks, for the ncu line the warning gives (the access shape needs both).
            const std::pair<const std::optional<double> *, const char *> counts[] {
                    {&k.requests_st, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
                    {&k.sectors_st, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}};
            for (const auto &[count, metric] : counts) {
                const auto known = std::find(m_storesLacked.begin(), m_storesLacked.end(), metric);
                if (!*count && known == m_storesLacked.end())
                    m_storesLacked.emplace_back(metric);
            }
        }
        if (!w.l1_hit && params.R_l2 > 0)
            ++m_noL1Hit;
        // Where the FMA pipe takes fewer warp-instructions a cycle than M, an FMA-heavy kernel is bounded by it.
        if (const double fma = fmaPerCycle(k, params.warp_size); !k.fma_instructions && fma > 0 && fma < params.M)
            ++m_noFma;
        if (!predict)
            return row;
        try {
            const XModelParams p = kernelParams(params, w);
            const XModel model(p);
            const Equilibrium op = model.operatingPoint(); // not every equilibrium: a file can hold a million
            row.predicted_gbs = op.dram_gbs;
            row.predicted_gops = op.cs_gops;
            row.bound = op.bound;
            row.limit = kernelLimit(model, op);
            if (*row.limit == KernelLimit::Issue && w.pipe && p.M < params.M)
                row.limit = *w.pipe; // the compute side at a pipe's ceiling, below the issue rate M
            row.diagnosis = bestChanges(params, w, op);
            const double peak = p.R_dram > 0 ? p.R_dram : p.R;
            row.naive_gbs = peak;
            // The roofline of the profile's M (the pipes are the X-model's: MODEL.md 1.7).
            row.roofline_gbs = std::min(peak, params.M / p.Z * p.dram_bytes * p.clock_ghz * p.sm_count);
            // Relative to a throughput below R's range (1e-3 GB/s) the error means nothing, and it passes a
            // double for a denormal one (printed "+inf%").
            if (*row.dram_gbs >= findParameter("R")->min)
                row.error = (*row.predicted_gbs - *row.dram_gbs) / *row.dram_gbs;
        } catch (const InputError &e) {
            row.skipped = std::string("no prediction: ") + e.what();
        }
    }
    return row;
}

std::vector<std::string> KernelComparer::warnings(const NcuReport &report, const HardwareProfile &profile) const
{
    const XModelParams &params = m_params;
    HardwareProfile inUse = profile;
    inUse.params = params;
    const DeviceFacts facts = deviceFacts(report);
    const DeviceCheck device = checkDevice(facts, inUse, bundledProfiles());
    std::vector<std::string> warnings;
    if (facts.name.empty() && !facts.sm_count && facts.cc.empty()) {
        warnings.push_back("device unknown: predicted for profile '" + profile.id + "' (" + profile.name
                           + "); the file has no device columns (name, SM count, compute capability), so "
                             "nothing checks that its kernels ran on that GPU");
    }
    if (device.mismatch)
        warnings.push_back(*device.mismatch + "; the predictions are for the profile's machine");
    if (device.clock_gap)
        warnings.push_back(*device.clock_gap + ": a kernel whose clock the file gives is predicted at that clock");
    if (m_lacking > 0) {
        std::string list;
        for (const std::string &metric : m_lacked)
            list += (list.empty() ? "" : ",") + metric;
        warnings.push_back(std::to_string(m_lacking) + " kernel(s) get no prediction: the export lacks " + list
                           + "; profile again adding " + addingMetrics(m_lacked));
    }
    if (m_overMax > 0) {
        warnings.push_back(std::to_string(m_overMax) + " kernel(s) ran more warps per SM (up to "
                           + formatNumber(m_mostWarps) + ") than profile '" + profile.id
                           + "' allows (max_warps " + formatNumber(params.max_warps)
                           + "); they are predicted at max_warps");
    }
    if (m_noClock > 0) {
        warnings.push_back(std::to_string(m_noClock) + " kernel(s) without their SM clock "
                           "(sm__cycles_elapsed.avg.per_second): predicted at the profile's "
                           + formatNumber(params.clock_ghz) + " GHz, though ncu locks a lower one by default");
    }
    if (m_noStores > 0) {
        warnings.push_back(std::to_string(m_noStores) + " kernel(s) without store counts "
                           "(l1tex__t_requests/sectors_pipe_lsu_mem_global_op_st.sum): predicted as if they made "
                           "no stores; profile again adding "
                           + addingMetrics(m_storesLacked));
    }
    if (m_noL1Hit > 0) {
        warnings.push_back(std::to_string(m_noL1Hit) + " kernel(s) without their L1 hit rate "
                           "(l1tex__t_sector_hit_rate.pct): their L2 traffic is taken as every L1 sector, so the "
                           "L2 ceiling is the lowest it can be; profile again adding ncu --metrics "
                           "l1tex__t_sector_hit_rate.pct");
    }
    if (m_noFma > 0) {
        warnings.push_back(std::to_string(m_noFma) + " kernel(s) without their FMA pipe's instructions "
                           "(sm__inst_executed_pipe_fma.sum) on a device whose FMA pipe issues fewer than M = "
                           + formatNumber(params.M) + " a cycle: predicted without the pipe's ceiling; profile "
                           "again adding ncu --metrics sm__inst_executed_pipe_fma.sum");
    }
    if (m_derived > 0) {
        warnings.push_back("DRAM GB/s of " + std::to_string(m_derived)
                           + " kernel(s) derived from 'DRAM Throughput' % times the profile's peak ("
                           + formatNumber(params.R_dram > 0 ? params.R_dram : params.R)
                           + " GB/s): the file has no DRAM bytes, so they get no prediction");
    }
    warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
    return warnings;
}

std::optional<XModelParams> KernelComparer::paramsOf(const KernelRow &row) const
{
    if (!row.workload || !row.predicted_gbs)
        return std::nullopt;
    return kernelParams(m_params, *row.workload);
}

KernelTable compareKernels(const NcuReport &report, const XModelParams &params, const HardwareProfile &profile)
{
    KernelTable table;
    table.machine = params;
    KernelComparer comparer(params, report.form);
    table.rows.reserve(report.kernels.size());
    for (const NcuKernel &k : report.kernels)
        table.rows.push_back(comparer.compare(k));
    table.warnings = comparer.warnings(report, profile);
    return table;
}

HardwareProfile profileFromDevice(const NcuDevice &device, const HardwareProfile &base, const std::string &source)
{
    HardwareProfile p = base;
    p.id = "ncu-device";
    p.name = device.name.empty() ? "Device of " + source : device.name;
    p.origin = source;
    p.description = "Made from the device attributes of the Nsight Compute export " + source + "; parameters "
                    "the file does not give are those of " + base.id + ".";
    p.sources.clear();
    std::vector<std::string> fields;
    const auto take = [&](const std::optional<double> &value, double XModelParams::*member, double scale,
                          const char *field) {
        if (value && *value > 0) {
            p.params.*member = *value * scale;
            fields.emplace_back(field);
        }
    };
    take(device.sm_count, &XModelParams::sm_count, 1, "sm_count");
    take(device.clock_khz, &XModelParams::clock_ghz, 1e-6, "clock_ghz");
    take(device.max_warps_per_sm, &XModelParams::max_warps, 1, "max_warps");
    take(device.peakDramGbs(), &XModelParams::R, 1, "R");
    if (!device.cc.empty())
        p.compute_capability = device.cc;
    if (!fields.empty()) {
        p.sources.push_back({fields, "Nsight Compute export " + source
                                             + ": # SMs / device__attribute_multiprocessor_count, clock_rate, "
                                               "max_warps_per_multiprocessor; R = 2 x memory_clock_rate x "
                                               "global_memory_bus_width / 8"});
    }
    std::vector<std::string> rest;
    for (const char *key : {"sm_count", "clock_ghz", "max_warps", "R"}) {
        if (std::find(fields.begin(), fields.end(), key) == fields.end())
            rest.emplace_back(key);
    }
    for (const char *key : {"warp_size", "request_bytes", "L", "M", "S_s", "L_s"})
        rest.emplace_back(key);
    p.sources.push_back({rest, "from profile " + base.id});
    return p;
}

} // namespace crossroof::core
