// SPDX-License-Identifier: GPL-3.0-or-later
// Real kernels against the X-model: the workload read from the counters, the prediction, the accuracy targets
// on the real H100 exports, and kernels whose counters cannot be used.
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_import.h"
#include "core/xmodel/xmodel.h"

#include <QtTest>

#include <cmath>

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

QTEST_APPLESS_MAIN(TestKernelTable)
#include "tst_kernel_table.moc"
