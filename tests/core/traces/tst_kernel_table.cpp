// SPDX-License-Identifier: GPL-3.0-or-later
// Real kernels against the X-model: the workload read from the counters, the prediction, the accuracy targets
// on the real H100 exports, and kernels whose counters cannot be used.
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_diagnosis.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_import.h"
#include "core/xmodel/xmodel.h"

#include <QtTest>

#include <cmath>
#include <algorithm>
#include <fstream>
#include <sstream>

using namespace crossroof;

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/";
const std::string kTorchRaw = kData + "h100_sxm/torch_raw.csv";
const std::string kTorchDetails = kData + "h100_sxm/torch_details.csv";
const std::string kFamilyRaw = kData + "ncu_h100_raw.csv";

const core::HardwareProfile &h100()
{
    const core::HardwareProfile *p = core::findBundledProfile("h100-sxm");
    Q_ASSERT(p);
    return *p;
}

core::KernelTable compare(const std::string &path, const core::XModelParams &params)
{
    return core::compareKernels(core::readNcuCsv(path), params, h100());
}

const core::KernelRow &row(const core::KernelTable &t, const std::string &id)
{
    for (const core::KernelRow &r : t.rows) {
        if (r.id == id)
            return r;
    }
    qFatal("no kernel %s", id.c_str());
}

} // namespace

class TestKernelTable : public QObject
{
    Q_OBJECT

private slots:
    void workloadFromCounters();
    void realKernelsMeetTheTarget();
    void familyStaysAccurate();
    void predictionIsTheModelsOperatingPoint();
    void missingMetricsAreNamed();
    void unusableCountersAreRefusedPerKernel();
    void extremeCountersGiveNothingInfinite();
    void accuracyIsFlooredAtZero();
    void scatteredAccessesAreBoundByTheL2();
    void registerHeavyGemmIsIssueBound();
    void pipesBoundTheIssueRate();
    void diagnosisRanksTheChanges();
    void bulkKernelsArePredictedFromTheirBytesAndPipes();
    void unknownDeviceIsSaid();
    void lackingStoreCountsAreNamedWithTheirNcuLine();
};

void TestKernelTable::workloadFromCounters()
{
    const core::NcuReport r = core::readNcuCsv(kTorchRaw);
    std::vector<std::string> missing;
    std::string problem;
    // randn of floats: stores only, 4 sectors a request; the SM clock ncu locked.
    const core::NcuKernel &randn = r.kernels[0];
    const auto w = core::kernelWorkload(randn, 32, missing, problem);
    QVERIFY2(w, problem.c_str());
    QVERIFY(missing.empty());
    QCOMPARE(w->req_bytes, 128.0);
    QVERIFY(w->stores_only);
    QCOMPARE(w->m, core::kStoresOnlyInFlight);
    QVERIFY(std::abs(w->Z - 122267392.0 / 2097152) < 1e-9);
    QVERIFY(std::abs(*w->clock_ghz - 1.61466071594) < 1e-9);
    // DRAM bytes per request: GB/s x ns / requests.
    QVERIFY(std::abs(w->dram_bytes - *randn.dram_gbs * *randn.duration_ns / 2097152) < 1e-9);
    // bfloat16 and int64 randn: 2 and 8 sectors per request.
    QCOMPARE(core::kernelWorkload(r.kernels[2], 32, missing, problem)->req_bytes, 64.0);
    QCOMPARE(core::kernelWorkload(r.kernels[3], 32, missing, problem)->req_bytes, 256.0);
    // a + b: two loads and a store per element, 16 sectors a request; m = requests per load.
    const auto add = core::kernelWorkload(r.kernels[4], 32, missing, problem);
    QCOMPARE(add->req_bytes, 512.0);
    QVERIFY(!add->stores_only);
    QVERIFY(std::abs(add->m - 1.5) < 1e-12);
}

void TestKernelTable::realKernelsMeetTheTarget()
{
    // The eleven real PyTorch and cuBLAS kernels with the bundled profile: mean accuracy of DRAM GB/s >= 0.90,
    // well above a memory roofline that puts every kernel at the peak bandwidth.
    const core::KernelTable t = compare(kTorchRaw, h100().params);
    QCOMPARE(t.rows.size(), std::size_t(11));
    for (const core::KernelRow &r : t.rows)
        QVERIFY2(r.predicted_gbs && r.skipped.empty(), r.skipped.c_str());
    const auto a = core::kernelAccuracy(t.rows);
    QVERIFY(a);
    QCOMPARE(a->kernels, std::size_t(11));
    QVERIFY2(a->model >= 0.90, std::to_string(a->model).c_str());
    QVERIFY(a->model > a->naive + 0.3);
    // randn of bfloat16, float and int64 run at 0.57, 1.3 and 1.97 TB/s: the prediction follows the request size.
    const double bf16 = *row(t, "5").predicted_gbs, f32 = *row(t, "0").predicted_gbs, i64 = *row(t, "8").predicted_gbs;
    QVERIFY(bf16 < 0.6 * f32 && f32 < 0.6 * i64);
    // The vectorized kernels are held by the DRAM byte bandwidth, not by R (which counts 128-byte requests).
    for (const char *id : {"9", "11", "19", "21"}) {
        QCOMPARE(*row(t, id).bound, core::BoundClass::Memory);
        QVERIFY(*row(t, id).predicted_gbs > h100().params.R);
        QVERIFY(*row(t, id).predicted_gbs <= h100().params.R_dram * (1 + 1e-9));
    }
    // The same kernels without the byte bandwidth and the request sizes (the model before) are far off.
    core::XModelParams old = h100().params;
    old.R_dram = 0;
    const core::KernelTable before = compare(kTorchRaw, old);
    QVERIFY(core::kernelAccuracy(before.rows)->model < a->model - 0.05);
}

void TestKernelTable::familyStaysAccurate()
{
    // The X-model family's own ncu export (loads only, no store counts collected): still predicted well, with a
    // warning that the stores are taken as none.
    const core::KernelTable t = compare(kFamilyRaw, h100().params);
    const auto a = core::kernelAccuracy(t.rows);
    QVERIFY(a);
    QCOMPARE(a->kernels, std::size_t(10));
    QVERIFY2(a->model >= 0.93, std::to_string(a->model).c_str());
    bool warned = false;
    for (const std::string &w : t.warnings)
        warned = warned || w.find("without store counts") != std::string::npos;
    QVERIFY(warned);
}

void TestKernelTable::predictionIsTheModelsOperatingPoint()
{
    // What the table predicts is the X-model's operating point with kernelParams(): what the X-graph shows when
    // the kernel's parameters are set. The table takes it from XModel::operatingPoint(), which must be solve()'s
    // to the last bit (the CSV and JSON print every digit), on the real exports.
    for (const std::string &path : {kTorchRaw, kFamilyRaw}) {
        const core::KernelTable t = compare(path, h100().params);
        int predicted = 0;
        for (const core::KernelRow &r : t.rows) {
            const std::optional<core::XModelParams> p = t.paramsOf(r);
            QCOMPARE(bool(p), bool(r.predicted_gbs));
            if (!p)
                continue;
            ++predicted;
            const core::XModel model(*p);
            const core::Equilibrium op = model.solve().operatingPoint();
            QVERIFY2(op.dram_gbs == *r.predicted_gbs && op.cs_gops == *r.predicted_gops && op.bound == *r.bound,
                     r.id.c_str());
            // Never above a roof: the byte bandwidth, or what M issues at the kernel's Z.
            QVERIFY(op.dram_gbs <= p->R_dram * (1 + 1e-9));
            QVERIFY(op.cs_gops <= model.toGops(p->M) * (1 + 1e-9));
            // At the kernel's own clock, and L scaled with it (a DRAM latency is a time).
            QVERIFY(p->clock_ghz < 1.7);
            QVERIFY(std::abs(p->L / p->clock_ghz - h100().params.L / h100().params.clock_ghz) < 1e-9);
        }
        QVERIFY(predicted >= 10);
    }
}

void TestKernelTable::missingMetricsAreNamed()
{
    // The details page has no instruction or request counts: every kernel says which metrics are missing and
    // the ncu option that adds them, and gets no prediction (nothing is taken from a slider).
    const core::KernelTable t = compare(kTorchDetails, h100().params);
    QCOMPARE(t.rows.size(), std::size_t(11));
    for (const core::KernelRow &r : t.rows) {
        QVERIFY(!r.predicted_gbs);
        QVERIFY(!r.missing.empty());
        QVERIFY2(r.ncu_metrics.find("smsp__inst_executed.sum") != std::string::npos, r.ncu_metrics.c_str());
        QVERIFY2(r.skipped.find("ncu --metrics") != std::string::npos, r.skipped.c_str());
        // The hit rates the details page has are read.
    }
    const core::NcuReport details = core::readNcuCsv(kTorchDetails);
    QVERIFY(details.kernels[0].l2_hit_rate && std::abs(*details.kernels[0].l2_hit_rate - 0.9987) < 1e-9);
    QVERIFY(details.kernels[2].l1_hit_rate && std::abs(*details.kernels[2].l1_hit_rate - 0.4517) < 1e-9);
}

void TestKernelTable::unusableCountersAreRefusedPerKernel()
{
    // No LSU requests (a TMA kernel), zero duration, no sectors: a named reason each, the other kernels kept.
    core::NcuReport r = core::readNcuCsv(kTorchRaw);
    r.kernels[0].requests_ld = 0;
    r.kernels[0].requests_st = 0;
    r.kernels[1].duration_ns = 0;
    r.kernels[2].sectors_ld = 0;
    r.kernels[2].sectors_st = 0;
    const core::KernelTable t = core::compareKernels(r, h100().params, h100());
    QVERIFY2(t.rows[0].skipped.find("TMA") != std::string::npos, t.rows[0].skipped.c_str());
    QVERIFY2(t.rows[1].skipped.find("gpu__time_duration.sum is 0") != std::string::npos, t.rows[1].skipped.c_str());
    QVERIFY2(t.rows[2].skipped.find("contradict") != std::string::npos, t.rows[2].skipped.c_str());
    for (int i = 0; i < 3; ++i)
        QVERIFY(!t.rows[i].predicted_gbs);
    for (std::size_t i = 3; i < t.rows.size(); ++i)
        QVERIFY(t.rows[i].predicted_gbs && std::isfinite(*t.rows[i].predicted_gbs));
}

void TestKernelTable::extremeCountersGiveNothingInfinite()
{
    // Counts that are doubles one by one, but whose ratios are not or lie outside the X-model's ranges: the
    // kernel is skipped with the metrics named, and no field holds inf ("kernels" printed Z inf and "+inf%").
    core::NcuReport r = core::readNcuCsv(kTorchRaw);
    r.kernels[0].instructions = 1e308; // Z = inf
    r.kernels[0].requests_ld = 0.5;
    r.kernels[0].requests_st = 0;
    r.kernels[1].requests_ld = 1e-290; // Z = 1e296 or so: finite, beyond the model's 1e7
    r.kernels[1].requests_st = 0;
    r.kernels[2].sectors_ld = 1e308; // bytes per request = inf
    r.kernels[3].dram_gbs = 1e-309;  // a denormal throughput: predicted, but no relative error
    const core::KernelTable t = core::compareKernels(r, h100().params, h100());
    QVERIFY(!t.rows[0].Z);
    QVERIFY2(t.rows[0].skipped.find("no finite Z") != std::string::npos, t.rows[0].skipped.c_str());
    QVERIFY2(t.rows[1].skipped.find("(smsp__inst_executed.sum / requests) is outside the X-model's range, 0.0001 to "
                                    "1e+07")
                     != std::string::npos,
             t.rows[1].skipped.c_str());
    QVERIFY2(t.rows[2].skipped.find("no finite Z, bytes per request") != std::string::npos, t.rows[2].skipped.c_str());
    QVERIFY(t.rows[3].predicted_gbs && !t.rows[3].error);
    for (const core::KernelRow &k : t.rows) {
        for (const std::optional<double> &v : {k.Z, k.error, k.predicted_gbs, k.roofline_gbs, k.naive_gbs})
            QVERIFY(!v || std::isfinite(*v));
    }
    const std::optional<core::KernelAccuracy> a = core::kernelAccuracy(t.rows);
    QVERIFY(a && std::isfinite(a->model) && std::isfinite(a->naive) && std::isfinite(a->roofline));
}

void TestKernelTable::accuracyIsFlooredAtZero()
{
    QCOMPARE(core::predictionAccuracy(100, 100), 1.0);
    QCOMPARE(core::predictionAccuracy(150, 100), 0.5);
    QCOMPARE(core::predictionAccuracy(500, 100), 0.0);
    QCOMPARE(core::predictionAccuracy(1, 0), 0.0);
}

void TestKernelTable::scatteredAccessesAreBoundByTheL2()
{
    // a + b made scattered, as a transposing copy is: 32 sectors a request (1024 B through the L1 and, without
    // L1 hits, the L2), and DRAM moving a fifth of it. The L2 byte bandwidth bounds it, at the kernel's clock:
    // DRAM GB/s = R_l2 x clock / 1.98 GHz x B_dram / B_l2. The DRAM plateau alone put it at R_dram, 1.7x higher.
    core::NcuReport r = core::readNcuCsv(kTorchRaw);
    core::NcuKernel &k = r.kernels[4];
    QCOMPARE(k.id, std::string("9"));
    k.sectors_ld = *k.requests_ld * 32;
    k.sectors_st = *k.requests_st * 32;
    const double requests = *k.requests_ld + *k.requests_st;
    k.dram_gbs = 1024.0 / 5 * requests / *k.duration_ns; // bytes per request x requests / ns
    const core::KernelTable t = core::compareKernels(r, h100().params, h100());
    const core::KernelRow &scattered = t.rows[4];
    QVERIFY2(scattered.predicted_gbs, scattered.skipped.c_str());
    QCOMPARE(scattered.workload->l2_bytes, 1024.0);
    QCOMPARE(*scattered.limit, core::KernelLimit::L2);
    const double clock = *scattered.workload->clock_ghz;
    const double expected = h100().params.R_l2 * clock / h100().params.clock_ghz / 5;
    QVERIFY2(std::abs(*scattered.predicted_gbs / expected - 1) < 1e-9, std::to_string(*scattered.predicted_gbs).c_str());
    core::XModelParams dramOnly = h100().params;
    dramOnly.R_l2 = 0;
    dramOnly.R_l1 = 0;
    const core::KernelTable before = core::compareKernels(r, dramOnly, h100());
    QCOMPARE(*before.rows[4].limit, core::KernelLimit::DRAM);
    QVERIFY(*before.rows[4].predicted_gbs > 1.7 * *scattered.predicted_gbs);
    // The raw export has no L1 hit rate: the L2 traffic is every L1 sector, which the warning says with the
    // ncu option that adds the metric.
    const auto said = std::find_if(t.warnings.begin(), t.warnings.end(), [](const std::string &w) {
        return w.starts_with("11 kernel(s) without their L1 hit rate")
               && w.ends_with("ncu --metrics l1tex__t_sector_hit_rate.pct");
    });
    QVERIFY(said != t.warnings.end());
    QVERIFY(std::none_of(before.warnings.begin(), before.warnings.end(), [](const std::string &w) {
        return w.find("L1 hit rate") != std::string::npos; // no L2 ceiling: nothing the hit rate would change
    }));
    // The unchanged vectorized kernels stay bound by DRAM: 512 B a request at the L2 is far below its ceiling.
    for (const char *id : {"11", "19", "21"})
        QCOMPARE(*row(t, id).limit, core::KernelLimit::DRAM);
}

void TestKernelTable::registerHeavyGemmIsIssueBound()
{
    // The cuBLAS FFMA GEMM runs 8 warps per SM with 254 registers a thread, eight times the 32 a thread has at
    // full occupancy (65536 / (64 x 32)): its threads hold eight times the chains and loads in flight, so the
    // compute side reaches M, as the kernel does (it issues 3.5 per cycle, above M). Without the registers
    // (one chain and one load a warp) the latency side held it at a third of what it measured.
    const core::KernelTable t = compare(kTorchRaw, h100().params);
    const core::KernelRow &gemm = row(t, "17");
    QCOMPARE(*gemm.workload->registers, 254.0);
    QVERIFY(std::abs(core::registerParallelism(h100().params, *gemm.workload) - 254.0 / 32) < 1e-12);
    QCOMPARE(*gemm.limit, core::KernelLimit::Issue);
    QVERIFY(std::abs(*gemm.predicted_gbs / *gemm.roofline_gbs - 1) < 1e-6);
    QVERIFY2(core::predictionAccuracy(*gemm.predicted_gbs, *gemm.dram_gbs) > 0.8,
             std::to_string(*gemm.predicted_gbs).c_str());
    core::XModelParams unknown = h100().params;
    unknown.registers = 0;
    const core::KernelTable flatTable = compare(kTorchRaw, unknown); // kept: row() returns a reference into it
    const core::KernelRow &flat = row(flatTable, "17");
    QCOMPARE(*flat.limit, core::KernelLimit::Latency);
    QVERIFY(*flat.predicted_gbs < 0.4 * *flat.dram_gbs);
    // The family's kernels use 18 to 26 registers: no held parallelism, their predictions as before.
    const core::KernelTable family = compare(kFamilyRaw, h100().params);
    const core::KernelTable familyFlat = compare(kFamilyRaw, unknown);
    for (std::size_t i = 0; i < family.rows.size(); ++i)
        QCOMPARE(*family.rows[i].predicted_gbs, *familyFlat.rows[i].predicted_gbs);
}

void TestKernelTable::pipesBoundTheIssueRate()
{
    // Hand-worked: 900 of 1000 warp-instructions on an FMA pipe of 4 a cycle keep it busy 225 cycles, so the SM
    // issues at most 1000 / 225 = 4.44 a cycle; a tensor pipe busy 600 cycles allows 1000 / 600 = 1.67, and on a
    // pipe of 2 FMAs a cycle the FMA pipe allows 2.22: the tensor pipe is the tighter.
    const auto fma = core::pipeCeiling(1000, 900.0, 4, std::nullopt);
    QVERIFY(fma && fma->pipe == core::KernelLimit::Fma && std::abs(fma->ipc - 1000.0 / 225) < 1e-12);
    const auto tensor = core::pipeCeiling(1000, 900.0, 2, 600.0);
    QVERIFY(tensor && tensor->pipe == core::KernelLimit::Tensor && std::abs(tensor->ipc - 1000.0 / 600) < 1e-12);
    QVERIFY(!core::pipeCeiling(1000, std::nullopt, 4, std::nullopt));
    QVERIFY(!core::pipeCeiling(1000, 900.0, 0, std::nullopt)); // a compute capability without its lanes
    // Four schedulers issue at most 4 a cycle whatever the mix: below the FMA pipe's 4.44 of 90 % FMAs.
    const auto issue = core::pipeCeiling(1000, 900.0, 4, std::nullopt, 4);
    QVERIFY(issue && issue->pipe == core::KernelLimit::Issue && std::abs(issue->ipc - 4) < 1e-12);
    // The cuBLAS FFMA GEMM: 88.5 % of its instructions are FMAs (sm__inst_executed_pipe_fma.sum). On its H100
    // (compute capability 9.0: 128 FP32 lanes, 4 warp-FMAs a cycle) the FMA pipe allows 4.52 a cycle, the four
    // schedulers 4, both above M: the limit stays the issue rate M.
    core::NcuReport report = core::readNcuCsv(kTorchRaw);
    const auto gemmIt = std::find_if(report.kernels.begin(), report.kernels.end(),
                                     [](const core::NcuKernel &k) { return k.id == "17"; });
    QVERIFY(gemmIt != report.kernels.end());
    core::NcuKernel &k = *gemmIt;
    QVERIFY(k.fma_instructions && std::abs(*k.fma_instructions / *k.instructions - 0.8852) < 1e-3);
    core::KernelComparer comparer(h100().params, report.form);
    const core::KernelRow h = comparer.compare(k);
    QVERIFY(h.workload->pipe && *h.workload->pipe == core::KernelLimit::Issue);
    QCOMPARE(*h.workload->pipe_ipc, 4.0);
    QVERIFY(std::abs(4 * *k.instructions / *k.fma_instructions - 4.518) < 1e-3);
    QCOMPARE(*h.limit, core::KernelLimit::Issue);
    // The same counts on a compute capability 8.0 device (64 FP32 lanes, 2 warp-FMAs a cycle): the FMA pipe
    // allows 2 / 0.885 = 2.26 a cycle, below M = 2.956, and bounds the kernel there: "FMA".
    k.gpu.cc = "8.0";
    const core::KernelRow a = comparer.compare(k);
    const double cap = 2 * *k.instructions / *k.fma_instructions;
    QVERIFY(std::abs(cap - 2.259) < 1e-3);
    QCOMPARE(*a.limit, core::KernelLimit::Fma);
    QCOMPARE(core::kernelLimitName(*a.limit), std::string_view("FMA"));
    const double gops = cap * 32 * *a.workload->clock_ghz * h100().params.sm_count;
    QVERIFY2(std::abs(*a.predicted_gops / gops - 1) < 1e-6, std::to_string(*a.predicted_gops).c_str());
    QVERIFY(std::abs(*a.predicted_gbs / *h.predicted_gbs - cap / h100().params.M) < 1e-6);
    // The roofline stays the profile's M.
    QCOMPARE(*a.roofline_gbs, *h.roofline_gbs);
    // An M above the 4 schedulers of a 9.0 SM (a calibration's, say) cannot lift the GEMM above 4 a cycle.
    k.gpu.cc = "9.0";
    core::XModelParams fast = h100().params;
    fast.M = 6;
    const core::KernelRow s = core::KernelComparer(fast, report.form).compare(k);
    QCOMPARE(*s.workload->pipe, core::KernelLimit::Issue);
    QCOMPARE(*s.limit, core::KernelLimit::Issue);
    QVERIFY(std::abs(*s.predicted_gops / (4 * 32 * *s.workload->clock_ghz * fast.sm_count) - 1) < 1e-6);
    // The family's export has no FMA counts: on its H100 the FMA pipe (4 a cycle) cannot bound below M and
    // nothing is said; on a 64-lane device the warning names the metric and the ncu line that adds it.
    core::NcuReport family = core::readNcuCsv(kFamilyRaw);
    const auto fmaWarning = [&](const core::NcuReport &r) {
        core::KernelComparer c(h100().params, r.form);
        for (const core::NcuKernel &fk : r.kernels)
            c.compare(fk);
        for (const std::string &w : c.warnings(r, h100())) {
            if (w.find("sm__inst_executed_pipe_fma.sum") != std::string::npos)
                return w;
        }
        return std::string();
    };
    QVERIFY(fmaWarning(family).empty());
    for (core::NcuKernel &fk : family.kernels)
        fk.gpu.cc = "8.0";
    const std::string warning = fmaWarning(family);
    QVERIFY2(warning.starts_with("10 kernel(s) without their FMA pipe's instructions")
                     && warning.ends_with("profile again adding ncu --metrics sm__inst_executed_pipe_fma.sum"),
             warning.c_str());
}

void TestKernelTable::diagnosisRanksTheChanges()
{
    // The family kernel at 4 warps per SM is latency-bound: more warps is the change that helps most, about
    // the 13x its 64-warp sibling measures (2062 against 156 GB/s).
    const core::KernelTable family = compare(kFamilyRaw, h100().params);
    const core::KernelRow &few = family.rows[0];
    QCOMPARE(*few.limit, core::KernelLimit::Latency);
    QCOMPARE(few.diagnosis.size(), std::size_t(2));
    QVERIFY2(few.diagnosis[0].change.starts_with("occupancy 4 -> 64 warps per SM"), few.diagnosis[0].change.c_str());
    QVERIFY(few.diagnosis[0].gain > 10 && few.diagnosis[0].gain < 15);
    QVERIFY(few.diagnosis[0].gain >= few.diagnosis[1].gain);
    // a + b is DRAM-bound with every other ceiling far off: half the DRAM bytes halves its time (+100 %).
    const core::KernelTable torch = compare(kTorchRaw, h100().params);
    const core::KernelRow &add = row(torch, "9");
    QCOMPARE(*add.limit, core::KernelLimit::DRAM);
    QVERIFY2(add.diagnosis.size() >= 1 && add.diagnosis[0].change.starts_with("half the DRAM bytes"),
             add.diagnosis.empty() ? "none" : add.diagnosis[0].change.c_str());
    QVERIFY(std::abs(add.diagnosis[0].gain - 1) < 1e-6);
    // Its loads are 16 bytes already: no vectorizing is offered; the 2-byte bfloat16 stores of randn are.
    const std::vector<core::KernelChange> all
            = core::rankedChanges(h100().params, *add.workload, core::XModel(*torch.paramsOf(add)).operatingPoint());
    for (const core::KernelChange &c : all)
        QVERIFY(c.change.find("vectorized") == std::string::npos);
    const core::KernelRow &bf16 = row(torch, "5");
    const std::vector<core::KernelChange> bf16Changes
            = core::rankedChanges(h100().params, *bf16.workload, core::XModel(*torch.paramsOf(bf16)).operatingPoint());
    QVERIFY(std::any_of(bf16Changes.begin(), bf16Changes.end(), [](const core::KernelChange &c) {
        return c.change.starts_with("accesses vectorized to 16 bytes (64 -> 512 B per request)");
    }));
}

void TestKernelTable::bulkKernelsArePredictedFromTheirBytesAndPipes()
{
    // a + b as a TMA kernel would run it: no LSU requests, its DRAM bytes D = 3028.8 GB/s x 260256 ns, and the
    // L2 bytes and tensor-pipe cycles an export adds with lts__t_bytes.sum and
    // sm__pipe_tensor_op_gmma_cycles_active.sum. The time is the longest of D / R_dram, B_l2 / R_l2 (at the
    // kernel's clock), I / (M x clock x SMs) and T / (SMs x clock).
    core::NcuReport r = core::readNcuCsv(kTorchRaw);
    core::NcuKernel &k = r.kernels[4];
    k.requests_ld = 0;
    k.requests_st = 0;
    const double duration = *k.duration_ns;
    const double clock = *k.sm_frequency_hz * 1e-9;
    const double sms = h100().params.sm_count;
    const double dram = *k.dram_gbs * duration;
    // Without the L2 bytes and tensor cycles: no prediction, the ncu line that adds them.
    const core::KernelRow lacking = core::compareKernels(r, h100().params, h100()).rows[4];
    QVERIFY(!lacking.predicted_gbs);
    QCOMPARE(lacking.ncu_metrics,
             std::string("ncu --metrics lts__t_bytes.sum,sm__pipe_tensor_op_gmma_cycles_active.sum"));
    QVERIFY2(lacking.skipped.find("TMA or bulk copies") != std::string::npos, lacking.skipped.c_str());
    // A copy: no tensor work, the L2 moving what DRAM does. DRAM bounds it at R_dram.
    k.l2_bytes = dram;
    k.tensor_cycles = 0;
    const auto predict = [&] { return core::compareKernels(r, h100().params, h100()).rows[4]; };
    core::KernelRow copy = predict();
    QVERIFY2(copy.predicted_gbs, copy.skipped.c_str());
    QCOMPARE(*copy.limit, core::KernelLimit::DRAM);
    QVERIFY(std::abs(*copy.predicted_gbs / h100().params.R_dram - 1) < 1e-12);
    // The tensor pipe busy for twice the measured time on every SM: tensor-bound at half the DRAM rate.
    k.tensor_cycles = 2 * duration * clock * sms;
    const core::KernelRow gemm = predict();
    QCOMPARE(*gemm.limit, core::KernelLimit::Tensor);
    QVERIFY(std::abs(*gemm.predicted_gbs / (*k.dram_gbs / 2) - 1) < 1e-12);
    QVERIFY(std::abs(*gemm.error + 0.5) < 1e-12);
    // Five times the L2 ceiling's bytes in the measured time: L2-bound at a fifth.
    k.tensor_cycles = 0;
    k.l2_bytes = 5 * h100().params.R_l2 * clock / h100().params.clock_ghz * duration;
    const core::KernelRow l2 = predict();
    QCOMPARE(*l2.limit, core::KernelLimit::L2);
    QVERIFY(std::abs(*l2.predicted_gbs / (*k.dram_gbs / 5) - 1) < 1e-12);
    // The roofline of the same inputs: the issue time of its instructions, at most the peak.
    const double issue = *k.instructions / (h100().params.M * clock * sms);
    QVERIFY(std::abs(*l2.roofline_gbs / std::min(h100().params.R_dram, dram / issue) - 1) < 1e-12);
    // The ncu export's own columns are read: bytes in any prefix, sectors x 32, the busier tensor path.
    const std::string text = "\"ID\",\"Kernel Name\",\"lts__t_sectors.sum\",\"sm__pipe_tensor_op_gmma_cycles_active.sum\","
                             "\"sm__pipe_tensor_op_hmma_cycles_active.sum\"\n"
                             "\"\",\"\",\"Msector\",\"cycle\",\"cycle\"\n"
                             "\"0\",\"nvjet_sm90_tst()\",\"2\",\"1,000\",\"10\"\n"
                             "\"ID\",\"Kernel Name\",\"lts__t_bytes.sum\"\n"
                             "\"\",\"\",\"Kbyte\"\n"
                             "\"1\",\"copy()\",\"3\"\n";
    const core::NcuReport parsed = core::parseNcuCsv(text, "tma.csv");
    QCOMPARE(*parsed.kernels[0].l2_bytes, 2e6 * 32);
    QCOMPARE(*parsed.kernels[0].tensor_cycles, 1000.0);
    QCOMPARE(*parsed.kernels[1].l2_bytes, 3000.0);
    QVERIFY(!parsed.kernels[1].tensor_cycles);
}

/// LINE's quoted CSV fields without those at DROP.
std::string withoutColumns(const std::string &line, const std::vector<bool> &drop)
{
    std::string out, field;
    bool quoted = false;
    std::size_t column = 0;
    const auto flush = [&] {
        if (column >= drop.size() || !drop[column])
            out += (out.empty() ? "" : ",") + field;
        field.clear();
        ++column;
    };
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        if (c == ',' && !quoted)
            flush();
        else
            field += c;
    }
    flush();
    return out;
}

void TestKernelTable::unknownDeviceIsSaid()
{
    // The H100 export as `ncu --csv` writes it without the device's columns (Device, CC, device__attribute_*,
    // launch__sm_count and the display names), as `--metrics` that name none of them give it:
    // nothing says which GPU ran it, and the warnings say so before any other, naming the profile predicted for.
    std::ifstream in(kFamilyRaw);
    std::stringstream text;
    std::string line;
    std::vector<bool> drop;
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\"", 0) == 0) {
            std::string header = line;
            drop.clear();
            std::string field;
            bool quoted = false;
            for (char c : header + ",") {
                if (c == '"')
                    quoted = !quoted;
                else if (c == ',' && !quoted) {
                    drop.push_back(field == "Device" || field == "CC" || field == "launch__sm_count"
                                   || field.rfind("device__attribute", 0) == 0
                                   || field.find("display_name") != std::string::npos);
                    field.clear();
                } else
                    field += c;
            }
        }
        text << (drop.empty() || line.rfind("==", 0) == 0 ? line : withoutColumns(line, drop)) << '\n';
    }
    QVERIFY(std::count(drop.begin(), drop.end(), true) > 10);
    const core::NcuReport bare = core::parseNcuCsv(text.str(), "bare.csv");
    QVERIFY(bare.device.name.empty() && !bare.device.sm_count && bare.device.cc.empty());
    const core::KernelTable t = core::compareKernels(bare, h100().params, h100());
    QVERIFY(!t.warnings.empty());
    QCOMPARE(QString::fromStdString(t.warnings.front()),
             QStringLiteral("device unknown: predicted for profile 'h100-sxm' (%1); the file has no device columns "
                            "(name, SM count, compute capability), so nothing checks that its kernels ran on that GPU")
                     .arg(QString::fromStdString(h100().name)));
    // The export as it is names its device: no such warning.
    for (const std::string &w : compare(kFamilyRaw, h100().params).warnings)
        QVERIFY2(w.rfind("device unknown", 0) != 0, w.c_str());
}

void TestKernelTable::lackingStoreCountsAreNamedWithTheirNcuLine()
{
    // The family's export has no store counts: the warning says so with the ncu line that adds both, as the
    // warnings for the L1 hit rate and the FMA pipe do.
    const core::KernelTable family = compare(kFamilyRaw, h100().params);
    const std::string both = "10 kernel(s) without store counts (l1tex__t_requests/sectors_pipe_lsu_mem_global_op_st"
                             ".sum): predicted as if they made no stores; profile again adding ncu --metrics "
                             "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"
                             "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
    QVERIFY(std::find(family.warnings.begin(), family.warnings.end(), both) != family.warnings.end());
    // A kernel that lacks only its store sectors: the line adds that one metric.
    core::NcuReport r = core::readNcuCsv(kTorchRaw);
    r.kernels[4].sectors_st.reset();
    const core::KernelTable t = core::compareKernels(r, h100().params, h100());
    const auto said = std::find_if(t.warnings.begin(), t.warnings.end(), [](const std::string &w) {
        return w.starts_with("1 kernel(s) without store counts");
    });
    QVERIFY(said != t.warnings.end());
    QVERIFY2(said->ends_with("; profile again adding ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
             said->c_str());
    // It is still predicted (the stores taken as none), not skipped.
    QVERIFY2(t.rows[4].predicted_gbs, t.rows[4].skipped.c_str());
}

QTEST_APPLESS_MAIN(TestKernelTable)
#include "tst_kernel_table.moc"
