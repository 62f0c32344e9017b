// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "import_fixtures.h"
#include "model_fixtures.h"
#include "core/traces/trace_fit.h"
#include "core/profiles/profile_library.h"
#include "core/profiles/hardware_profile.h"
#include "core/xmodel/xmodel.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <utility>
#include <limits>
#include <random>

using namespace crossroof;
using test::inputErrorOf;

namespace {

/// A V100-like machine for the cache fits: delta = R_req * L = 31.7 warps.
core::XModelParams v100Like()
{
    core::XModelParams p;
    p.sm_count = 80;
    p.clock_ghz = 1.38;
    p.warp_size = 32;
    p.max_warps = 64;
    p.request_bytes = 128;
    p.R = 895;
    p.L = 500;
    p.M = 4;
    p.S_s = 128;
    p.n = 64;
    return p;
}

std::vector<double> msCurve(const core::XModelParams &p, const std::vector<double> &k)
{
    const core::XModel model(p);
    std::vector<double> y;
    for (double v : k)
        y.push_back(model.toGbs(model.msSupply(v)));
    return y;
}

std::vector<double> range(double from, double to, double step)
{
    std::vector<double> out;
    for (double v = from; v <= to + 1e-9; v += step)
        out.push_back(v);
    return out;
}

/// A machine with two cache levels, not any real GPU: 80 SMs at 1.5 GHz, a 128 KiB L1 and 256 KiB of L2 per
/// SM.
core::XModelParams twoLevelMachine()
{
    core::XModelParams p = v100Like();
    p.sm_count = 80;
    p.clock_ghz = 1.5;
    p.max_warps = 64;
    p.R = 1500;
    p.L = 600;
    p.S_s = 128;
    p.L_s = 60;
    p.S_2 = 256;
    p.L_2 = 250;
    p.R_dram = 3000;
    p.R_l2 = 6000;
    p.cache = core::CacheMode::TwoLevel;
    p.beta = 12;
    p.alpha = 10;
    p.alpha_2 = 6;
    return p;
}

/// warps_per_sm and request_gbs of the shared H100 SXM cache curve with BYTES per warp.
void h100CacheCurve(int bytes, std::vector<double> &k, std::vector<double> &y)
{
    const core::CsvTable t
            = core::readCsv(std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/cache.csv");
    const std::size_t kc = t.column("warps_per_sm");
    const std::size_t bc = t.column("bytes_per_warp");
    const std::size_t yc = t.column("request_gbs");
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        if (t.number(r, bc) == bytes) {
            k.push_back(t.number(r, kc));
            y.push_back(t.number(r, yc));
        }
    }
}

} // namespace

/// The cache fits (Eq. 1-5, fixed hit rate, locality, two levels): parameters recovered from the model's own
/// curves, from noise and from the shared H100's thrashing curve; what cannot be fitted refused.
class TestCacheFit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixedCacheRecovery();
    void localityCacheRecovery();
    void longTraceFitsSpreadPoints();
    void cacheFitsOnNoise();
    void cacheFitRejects();
    void twoLevelRecovery();
    void twoLevelH100Thrashing_data();
    void twoLevelH100Thrashing();
    void twoLevelRejects();
    void twoLevelH100WithTheProfile_data();
    void twoLevelH100WithTheProfile();
    void physicalBoundsFromTheProfile();
    void heldKeysStayTheProfiles();
    void standardErrorsCoverTheTruth();
    void tracesOfOneMachineFittedTogether();
};

void TestCacheFit::fixedCacheRecovery()
{
    core::XModelParams truth = v100Like();
    truth.cache = core::CacheMode::Fixed;
    truth.L_s = 120;
    truth.h = 0.35;
    const std::vector<double> k = range(1, 64, 1);
    const std::vector<double> y = msCurve(truth, k);

    core::XModelParams machine = v100Like();
    machine.L_s = 30; // start values the fit must not depend on
    machine.h = 0.9;
    const core::CacheFit fit = core::fitCacheModel(k, y, machine, core::CacheMode::Fixed);
    qInfo("fixed: L_s = %.6g, h = %.6g, rmse = %.3g, r2 = %.8f, %d iterations", fit.params.L_s, fit.params.h,
          fit.rmse, fit.r2, fit.iterations);
    QVERIFY(std::abs(fit.params.L_s / 120 - 1) < 1e-4);
    QVERIFY(std::abs(fit.params.h - 0.35) < 1e-5);
    QVERIFY(fit.rmse < 1e-4);
    QVERIFY(fit.converged);
    QVERIFY(fit.at_bounds.empty());
    QCOMPARE(fit.params.cache, core::CacheMode::Fixed);
    QCOMPARE(fit.params.R, machine.R); // the machine stays as given

    // With noise of 1 % of R: the parameters within a few percent, the rmse close to the noise.
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0, 0.01 * truth.R);
    std::vector<double> noisy = y;
    for (double &v : noisy)
        v += noise(rng);
    const core::CacheFit n = core::fitCacheModel(k, noisy, machine, core::CacheMode::Fixed);
    qInfo("fixed, noisy: L_s = %.4g, h = %.4g, rmse = %.3g (noise %.3g), r2 = %.5f", n.params.L_s, n.params.h,
          n.rmse, 0.01 * truth.R, n.r2);
    QVERIFY(std::abs(n.params.L_s / 120 - 1) < 0.15);
    QVERIFY(std::abs(n.params.h - 0.35) < 0.03);
    QVERIFY(n.rmse > 0.6 * 0.01 * truth.R && n.rmse < 1.2 * 0.01 * truth.R);
    QVERIFY(n.r2 > 0.99);
}

void TestCacheFit::localityCacheRecovery()
{
    // The thrashing Fermi of the X-model paper: cache peak, valley and plateau.
    const core::XModelParams truth = test::thrashingFermi();
    const std::vector<double> k = range(0.5, 48, 0.5);
    const std::vector<double> y = msCurve(truth, k);
    core::XModelParams machine = truth;
    machine.L_s = 200;
    machine.alpha = 2;
    machine.beta = 1;
    const core::CacheFit fit = core::fitCacheModel(k, y, machine, core::CacheMode::Locality);
    qInfo("locality: L_s = %.6g, alpha = %.6g, beta = %.6g, rmse = %.3g, r2 = %.8f, %d iterations",
          fit.params.L_s, fit.params.alpha, fit.params.beta, fit.rmse, fit.r2, fit.iterations);
    QVERIFY(std::abs(fit.params.L_s / truth.L_s - 1) < 1e-3);
    QVERIFY(std::abs(fit.params.alpha / truth.alpha - 1) < 1e-3);
    QVERIFY(std::abs(fit.params.beta / truth.beta - 1) < 1e-3);
    QVERIFY(fit.rmse < 1e-3);
    QVERIFY(fit.r2 > 1 - 1e-9);

    std::mt19937 rng(11);
    std::normal_distribution<double> noise(0, 0.02 * truth.R);
    std::vector<double> noisy = y;
    for (double &v : noisy)
        v += noise(rng);
    const core::CacheFit n = core::fitCacheModel(k, noisy, machine, core::CacheMode::Locality);
    qInfo("locality, noisy: L_s = %.4g, alpha = %.4g, beta = %.4g, rmse = %.3g (noise %.3g), r2 = %.5f",
          n.params.L_s, n.params.alpha, n.params.beta, n.rmse, 0.02 * truth.R, n.r2);
    QVERIFY(std::abs(n.params.alpha / truth.alpha - 1) < 0.15);
    QVERIFY(std::abs(n.params.beta / truth.beta - 1) < 0.15);
    QVERIFY(n.rmse > 0.6 * 0.02 * truth.R && n.rmse < 1.2 * 0.02 * truth.R);
}

void TestCacheFit::longTraceFitsSpreadPoints()
{
    // 3,000 noisy points of the thrashing Fermi's curve, k from 0.03 to 45 in the order a sweep of repeated runs
    // gives them: the fit iterates on kCacheFitPointLimit of them spread over k, finds what the fit on every
    // point finds, and reports its quality over every point.
    const core::XModelParams truth = test::thrashingFermi();
    std::vector<double> k;
    for (int run = 0; run < 2; ++run) {
        for (int i = 1; i <= 1500; ++i)
            k.push_back(0.03 * i + run * 0.015);
    }
    std::vector<double> y = msCurve(truth, k);
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0, 0.02 * truth.R);
    for (double &v : y)
        v += noise(rng);
    core::XModelParams machine = truth;
    machine.L_s = 200;
    machine.alpha = 2;
    machine.beta = 1;
    const core::CacheFit spread = core::fitCacheModel(k, y, machine, core::CacheMode::Locality);
    QCOMPARE(spread.points, std::size_t(3000));
    QCOMPARE(spread.fit_points, core::kCacheFitPointLimit);
    QCOMPARE(spread.residuals.size(), std::size_t(3000));
    const core::CacheFit all = core::fitCacheModel(k, y, machine, core::CacheMode::Locality, k.size());
    QCOMPARE(all.fit_points, std::size_t(3000));
    qInfo("3000 points: alpha %.5g / %.5g, beta %.5g / %.5g, L_s %.5g / %.5g, rmse %.5g / %.5g (spread / all)",
          spread.params.alpha, all.params.alpha, spread.params.beta, all.params.beta, spread.params.L_s,
          all.params.L_s, spread.rmse, all.rmse);
    for (double core::XModelParams::*key : {&core::XModelParams::alpha, &core::XModelParams::beta, &core::XModelParams::L_s})
        QVERIFY(std::abs(spread.params.*key / (all.params.*key) - 1) < 0.02);
    QVERIFY(std::abs(spread.rmse / all.rmse - 1) < 0.005);
    // Residuals, rmse and r^2 over every point, in input order.
    const core::XModel model(spread.params);
    double sse = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        const double r = y[i] - model.toGbs(model.msSupply(k[i]));
        QVERIFY(std::abs(spread.residuals[i] - r) <= 1e-9 * truth.R);
        sse += r * r;
    }
    QVERIFY(std::abs(spread.rmse / std::sqrt(sse / 3000) - 1) < 1e-9);
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k, y, machine, core::CacheMode::Locality, 9); }),
             QStringLiteral("cache fit: the point limit must be at least 11, one more than the most parameters a "
                            "fit has (got 9)"));
}

void TestCacheFit::cacheFitsOnNoise()
{
    // Pure noise around a constant: no model explains it, and the fits say so.
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0, 40);
    const std::vector<double> k = range(1, 64, 1);
    std::vector<double> y;
    for (std::size_t i = 0; i < k.size(); ++i)
        y.push_back(500 + noise(rng));
    const core::RooflineFit roof = core::fitRoofline(k, y);
    const core::CacheFit fixed = core::fitCacheModel(k, y, v100Like(), core::CacheMode::Fixed);
    const core::CacheFit locality = core::fitCacheModel(k, y, v100Like(), core::CacheMode::Locality);
    qInfo("noise: r2 roofline %.3f, fixed %.3f, locality %.3f", roof.r2, fixed.r2, locality.r2);
    QVERIFY(roof.r2 < 0.3);
    QVERIFY(fixed.r2 < 0.3);
    QVERIFY(locality.r2 < 0.3);
    QVERIFY(fixed.rmse > 30);
}

void TestCacheFit::cacheFitRejects()
{
    const std::vector<double> k {1, 2, 3};
    const std::vector<double> y {1, 2, 3};
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k, y, v100Like(), core::CacheMode::None); }),
             QStringLiteral("cache fit: mode 'none' has no cache parameters to fit (use the roofline fit)"));
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k, y, v100Like(), core::CacheMode::Locality); }),
             QStringLiteral("cache fit: needs at least 4 points for 3 parameters (got 3)"));
    core::XModelParams noCache = v100Like();
    noCache.S_s = 0;
    QCOMPARE(inputErrorOf([&] {
                 core::fitCacheModel(std::vector<double> {1, 2, 3, 4}, std::vector<double> {1, 2, 3, 4},
                                     noCache, core::CacheMode::Locality);
             }),
             QStringLiteral("cache fit: locality mode needs a shared cache, S_s > 0 (got 0)"));
    core::XModelParams bad = v100Like();
    bad.R = -1;
    QVERIFY(inputErrorOf([&] {
                core::fitCacheModel(k, y, bad, core::CacheMode::Fixed);
            }).startsWith("parameter 'R'"));
}

void TestCacheFit::twoLevelRecovery()
{
    // A curve the model draws (L1 peak, collapse onto the L2, its fall onto DRAM, the DRAM rise) with 1 %
    // noise: the fit finds the parameters again from starts of its own.
    const core::XModelParams truth = twoLevelMachine();
    const std::vector<double> k = range(1, 64, 1);
    const std::vector<double> y = msCurve(truth, k);
    const double top = *std::max_element(y.begin(), y.end());
    std::mt19937 rng(19);
    std::normal_distribution<double> noise(0, 0.01 * top);
    std::vector<double> noisy = y;
    for (double &v : noisy)
        v += noise(rng);
    core::XModelParams machine = twoLevelMachine();
    machine.cache = core::CacheMode::None; // every fitted key from elsewhere
    machine.L_s = 10;
    machine.L_2 = 0;
    machine.S_2 = 0;
    machine.L = 300;
    machine.beta = 1;
    machine.alpha = machine.alpha_2 = 2;
    machine.R_dram = 0;
    // The L2's queue is held at the truth's: over the L2's short stretch of k (11 to 21 warps) its rate
    // trades with L_2, S_2 and alpha_2 within 1 % noise (the H100 curves fit it, twoLevelH100WithTheProfile).
    core::CacheFitOptions options;
    options.hold = {"R_l2"};
    const core::FitTrace trace {k, noisy, {}};
    const core::CacheFit fit = core::fitCacheModel(std::span(&trace, 1), machine, core::CacheMode::TwoLevel, options);
    const auto &p = fit.params;
    qInfo("two-level, noisy: L_s = %.4g, L_2 = %.4g, L = %.4g, beta = %.4g, S_2 = %.4g, alpha = %.4g, "
          "alpha_2 = %.4g, R = %.4g, R_dram = %.4g, rmse = %.3g (noise %.3g), r2 = %.5f",
          p.L_s, p.L_2, p.L, p.beta, p.S_2, p.alpha, p.alpha_2, p.R, p.R_dram, fit.rmse, 0.01 * top, fit.r2);
    QCOMPARE(p.cache, core::CacheMode::TwoLevel);
    QCOMPARE(p.S_s, machine.S_s); // the L1 size stays the machine's
    QCOMPARE(p.R_l2, truth.R_l2);
    QVERIFY(fit.r2 > 0.99);
    QVERIFY(fit.rmse < 1.2 * 0.01 * top);
    QVERIFY(std::abs(p.L_s / truth.L_s - 1) < 0.1);
    QVERIFY(std::abs(p.L_2 / truth.L_2 - 1) < 0.1);
    QVERIFY(std::abs(p.L / truth.L - 1) < 0.1);
    QVERIFY(std::abs(p.beta / truth.beta - 1) < 0.05);
    QVERIFY(std::abs(p.S_2 / truth.S_2 - 1) < 0.05);
    for (double r : fit.residuals)
        QVERIFY(std::isfinite(r));
}

void TestCacheFit::twoLevelH100Thrashing_data()
{
    QTest::addColumn<int>("bytes");
    QTest::newRow("8 KiB per warp") << 8192;
    QTest::newRow("16 KiB per warp") << 16384;
}

void TestCacheFit::twoLevelH100Thrashing()
{
    // The measured H100 SXM curves: L1 collapse, then the L2's fall. Each curve is fitted on its own with the
    // bundled profile's device shape and L1 size (132 SMs, 1.98 GHz, S_s = 228 KiB).
    QFETCH(int, bytes);
    std::vector<double> k;
    std::vector<double> y;
    h100CacheCurve(bytes, k, y);
    QCOMPARE(k.size(), std::size_t(32));
    core::XModelParams machine = v100Like();
    machine.sm_count = 132;
    machine.clock_ghz = 1.98;
    machine.max_warps = 64;
    machine.S_s = 228;
    machine.R = 2022;
    machine.L = 766.7;
    machine.L_s = 40.4;
    const core::CacheFit fit = core::fitCacheModel(k, y, machine, core::CacheMode::TwoLevel);
    const auto &p = fit.params;
    qInfo("H100 %d B per warp: r2 = %.4f, L_s = %.4g, L_2 = %.4g, L = %.4g, beta = %.4g, S_2 = %.4g, "
          "alpha = %.4g, alpha_2 = %.4g, R = %.4g, R_dram = %.4g",
          bytes, fit.r2, p.L_s, p.L_2, p.L, p.beta, p.S_2, p.alpha, p.alpha_2, p.R, p.R_dram);
    QVERIFY(fit.r2 >= 0.9);
    // The L2 fall comes after the L1 collapse, with a slower level.
    QVERIFY(p.S_2 > p.S_s);
    QVERIFY(p.L_2 > p.L_s);
}

void TestCacheFit::twoLevelRejects()
{
    const core::XModelParams machine = twoLevelMachine();
    const std::vector<double> k = range(1, 9, 1);
    const std::vector<double> y = msCurve(machine, k);
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k, y, machine, core::CacheMode::TwoLevel); }),
             QStringLiteral("cache fit: needs at least 11 points for 10 parameters (got 9)"));
    std::vector<double> k10 = range(1, 10, 1);
    std::vector<double> y10 = msCurve(machine, k10);
    y10[3] = std::numeric_limits<double>::quiet_NaN();
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k10, y10, machine, core::CacheMode::TwoLevel); }),
             QStringLiteral("cache fit: point 4: the throughput must be a finite number (got nan)"));
    y10[3] = 1;
    k10[5] = std::numeric_limits<double>::infinity();
    QVERIFY(inputErrorOf([&] {
                core::fitCacheModel(k10, y10, machine, core::CacheMode::TwoLevel);
            }).startsWith("cache fit: point 6: k must be a finite number >= 0"));
    core::XModelParams noL1 = machine;
    noL1.S_s = 0;
    QCOMPARE(inputErrorOf([&] {
                 core::fitCacheModel(range(1, 10, 1), msCurve(machine, range(1, 10, 1)), noL1,
                                     core::CacheMode::TwoLevel);
             }),
             QStringLiteral("cache fit: two-level mode needs a first-level cache, S_s > 0 (got 0)"));
}

namespace {

const core::FittedParameter &parameter(const core::CacheFit &fit, const std::string &key, int trace = -1)
{
    for (const auto &f : fit.parameters) {
        if (f.key == key && (trace < 0 || f.trace == trace || (trace == 0 && f.trace < 0)))
            return f;
    }
    static const core::FittedParameter none;
    return none;
}

bool warns(const core::CacheFit &fit, const std::string &part)
{
    return std::any_of(fit.warnings.begin(), fit.warnings.end(),
                       [&](const std::string &w) { return w.find(part) != std::string::npos; });
}

} // namespace

void TestCacheFit::physicalBoundsFromTheProfile()
{
    // The H100 sample's 8 KiB curve with the bundled profile: the locality fit ended at beta = 0.0008 KiB,
    // "converged" with no key at a bound. A warp's footprint is at least one 128-byte request (0.125 KiB): the
    // fit now stays there or above, and says so when the data push it to that floor.
    const core::HardwareProfile *h100 = core::findBundledProfile("h100-sxm");
    QVERIFY(h100);
    std::vector<double> k, y;
    h100CacheCurve(8192, k, y);
    const core::CacheFit locality = core::fitCacheModel(k, y, h100->params, core::CacheMode::Locality);
    const auto &beta = parameter(locality, "beta");
    qInfo("locality 8 KiB: beta = %.4g [%.4g, %.4g], at bound %d, r2 %.3f", beta.value, beta.lo, beta.hi,
          int(beta.at_bound), locality.r2);
    QCOMPARE(beta.lo, 0.125);
    QVERIFY(locality.params.beta >= 0.125);
    if (beta.at_bound || !beta.determined)
        QVERIFY(!locality.warnings.empty());
    // L_s at least a cycle and at most L in the one-level modes.
    QVERIFY(parameter(locality, "L_s").lo >= 1);
    QVERIFY(parameter(locality, "L_s").hi <= h100->params.L);

    // The two-level fit: R and R_dram at most the L1's byte bandwidth (R_l1 = 33454 GB/s), L never below the
    // profile's L2 latency; the plateau above the DRAM peak (2964 GB/s) is said to be the caches'.
    const core::CacheFit two = core::fitCacheModel(k, y, h100->params, core::CacheMode::TwoLevel);
    QCOMPARE(parameter(two, "R_dram").hi, h100->params.R_l1);
    QCOMPARE(parameter(two, "R").hi, h100->params.R_l1);
    QCOMPARE(parameter(two, "L").lo, h100->params.L_2);
    qInfo("two-level 8 KiB: r2 %.4f, L_2 %.4g, L %.4g, R %.4g, R_dram %.4g", two.r2, two.params.L_2, two.params.L,
          two.params.R, two.params.R_dram);
    for (const auto &w : two.warnings)
        qInfo("  %s", w.c_str());
    QCOMPARE(parameter(two, "R_l2").hi, h100->params.R_l1);
    QVERIFY(two.r2 >= 0.9);
    if (two.params.R_dram > h100->params.R_dram)
        QVERIFY(warns(two, "above the profile's DRAM peak 2964 GB/s"));
    // L_s about 100 cycles where latency.csv's chase measures 40.4: said, with why.
    QVERIFY(two.params.L_s > 2 * 40.4);
    QVERIFY(warns(two, "times the profile's 40.4: if k counts every warp on the SM"));
}

void TestCacheFit::twoLevelH100WithTheProfile_data()
{
    // The warps per SM of the last point the L1 serves and of the first past its collapse; of the last the L2
    // serves and of the first past its fall (cache.csv).
    QTest::addColumn<int>("bytes");
    QTest::addColumn<double>("l1Last");
    QTest::addColumn<double>("l1Gone");
    QTest::addColumn<double>("l2Last");
    QTest::addColumn<double>("l2Gone");
    QTest::newRow("8 KiB per warp") << 8192 << 22.0 << 26.0 << 58.0 << 60.0;
    QTest::newRow("16 KiB per warp") << 16384 << 10.0 << 14.0 << 26.0 << 28.0;
}

void TestCacheFit::twoLevelH100WithTheProfile()
{
    // crossroof-cli fit-trace --model two-level --profile h100-sxm on each shared H100 thrashing curve: r^2 of
    // at least 0.9 (the 8 KiB curve, which crosses both capacities, fitted 0.88 while every request past the
    // L1 queued at memory's rate R: its L2 part rises to 3.9 TB/s, its DRAM part stays below 2.4), with each
    // level's step where the curve has it and hit rates of that shape: the L1 serves almost every request up
    // to its peak and almost none past its collapse, and past the L2's fall most requests go to memory.
    QFETCH(int, bytes);
    QFETCH(double, l1Last);
    QFETCH(double, l1Gone);
    QFETCH(double, l2Last);
    QFETCH(double, l2Gone);
    std::vector<double> k, y;
    h100CacheCurve(bytes, k, y);
    const core::HardwareProfile *h100 = core::findBundledProfile("h100-sxm");
    const core::CacheFit fit = core::fitCacheModel(k, y, h100->params, core::CacheMode::TwoLevel);
    const core::XModelParams &p = fit.params;
    qInfo("H100 %d B per warp, profile: r2 = %.4f, L1 step at %.3g warps, L2 step at %.3g, R_l2 %.4g GB/s",
          bytes, fit.r2, p.S_s / p.beta, p.S_2 / p.beta, p.R_l2);
    QVERIFY(fit.r2 >= 0.9);
    QVERIFY(p.S_s / p.beta > l1Last && p.S_s / p.beta < l1Gone);
    QVERIFY(p.S_2 / p.beta > l2Last - 2 && p.S_2 / p.beta < l2Gone);
    const core::XModel model(p);
    QVERIFY(model.hitRate(l1Last) > 0.8);
    QVERIFY(model.hitRate(l1Gone) < 0.05);
    const double last = k.back();
    QVERIFY(model.dramGbs(last) > 0.5 * model.toGbs(model.msSupply(last)));
    QVERIFY(model.dramGbs(l2Last - 2) < 0.2 * model.toGbs(model.msSupply(l2Last - 2)));
    QVERIFY(p.R_l2 <= h100->params.R_l1);
}

void TestCacheFit::heldKeysStayTheProfiles()
{
    // --hold R,L: the two-level fit of the 16 KiB curve keeps the profile's R and L and fits the rest.
    const core::HardwareProfile *h100 = core::findBundledProfile("h100-sxm");
    QVERIFY(h100);
    std::vector<double> k, y;
    h100CacheCurve(16384, k, y);
    const core::FitTrace trace {k, y, "16 KiB"};
    core::CacheFitOptions options;
    options.hold = {"R", "L", "R_dram"};
    const core::CacheFit fit
            = core::fitCacheModel(std::span(&trace, 1), h100->params, core::CacheMode::TwoLevel, options);
    QCOMPARE(fit.params.R, h100->params.R);
    QCOMPARE(fit.params.L, h100->params.L);
    QCOMPARE(fit.params.R_dram, h100->params.R_dram);
    QVERIFY(parameter(fit, "R").held && parameter(fit, "L").held && parameter(fit, "R_dram").held);
    QCOMPARE(parameter(fit, "R").sigma, 0.0);
    QVERIFY(!parameter(fit, "L_s").held);
    QCOMPARE(fit.parameters.size(), std::size_t(10));
    QVERIFY(!warns(fit, "above the profile's DRAM peak"));
    qInfo("16 KiB, R, L, R_dram held: r2 = %.4f", fit.r2);
    QVERIFY(fit.r2 > 0.5);
    // A key that is no parameter, or holding every fitted key, is refused.
    options.hold = {"R", "Lx"};
    QVERIFY(inputErrorOf([&] {
                core::fitCacheModel(std::span(&trace, 1), h100->params, core::CacheMode::TwoLevel, options);
            }).startsWith("cannot hold 'Lx': it is no parameter"));
    options.hold = {"L_s", "h"};
    QVERIFY(inputErrorOf([&] {
                core::fitCacheModel(std::span(&trace, 1), h100->params, core::CacheMode::Fixed, options);
            }).contains("nothing is left to fit"));
}

void TestCacheFit::standardErrorsCoverTheTruth()
{
    // The noisy locality curve of localityCacheRecovery: each key's standard error is finite, small against
    // its value, and the truth lies within four of them.
    core::XModelParams truth = v100Like();
    truth.cache = core::CacheMode::Locality;
    truth.L_s = 40;
    truth.alpha = 6;
    truth.beta = 2.5;
    const std::vector<double> k = range(1, 64, 1);
    std::vector<double> y = msCurve(truth, k);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0, 0.02 * truth.R);
    for (double &v : y)
        v += noise(rng);
    const core::CacheFit fit = core::fitCacheModel(k, y, v100Like(), core::CacheMode::Locality);
    for (const auto &[key, value] : {std::pair {"L_s", 40.0}, std::pair {"alpha", 6.0}, std::pair {"beta", 2.5}}) {
        const auto &f = parameter(fit, key);
        qInfo("%s = %.4g +- %.3g (truth %.4g)", key, f.value, f.sigma, value);
        QVERIFY(std::isfinite(f.sigma) && f.sigma > 0);
        QVERIFY(f.sigma < 0.2 * f.value);
        QVERIFY(std::abs(f.value - value) < 4 * f.sigma);
        QVERIFY(f.determined);
    }
    QVERIFY(fit.warnings.empty());
    // A key the data cannot see: a fixed-hit-rate fit of a curve with h = 0 leaves L_s undetermined.
    core::XModelParams none = v100Like();
    none.cache = core::CacheMode::Fixed;
    none.h = 0;
    none.L_s = 50;
    const core::CacheFit blind = core::fitCacheModel(k, msCurve(none, k), v100Like(), core::CacheMode::Fixed);
    const auto &ls = parameter(blind, "L_s");
    qInfo("h = 0: L_s = %.4g +- %.3g, h = %.3g", ls.value, ls.sigma, blind.params.h);
    QVERIFY(!ls.determined || ls.at_bound || parameter(blind, "h").at_bound);
    QVERIFY(!blind.warnings.empty());
}

void TestCacheFit::tracesOfOneMachineFittedTogether()
{
    // The H100's 8 and 16 KiB curves as one machine: one L_s, L_2, L, R, R_dram, S_2, alpha, alpha_2, and a
    // beta each, the 16 KiB curve's about twice the 8 KiB one's (a warp touches twice the bytes).
    const core::HardwareProfile *h100 = core::findBundledProfile("h100-sxm");
    QVERIFY(h100);
    std::vector<double> k8, y8, k16, y16;
    h100CacheCurve(8192, k8, y8);
    h100CacheCurve(16384, k16, y16);
    const std::vector<core::FitTrace> traces {{k8, y8, "8 KiB"}, {k16, y16, "16 KiB"}};
    const core::CacheFit fit = core::fitCacheModel(traces, h100->params, core::CacheMode::TwoLevel);
    qInfo("joint: r2 %.4f (%.4f, %.4f), beta %.4g / %.4g, R %.4g, L_s %.4g", fit.r2, fit.trace_r2[0],
          fit.trace_r2[1], fit.trace_beta[0], fit.trace_beta[1], fit.params.R, fit.params.L_s);
    QCOMPARE(fit.points, std::size_t(64));
    QCOMPARE(fit.residuals.size(), std::size_t(64));
    QCOMPARE(fit.trace_r2.size(), std::size_t(2));
    QCOMPARE(fit.trace_beta.size(), std::size_t(2));
    QCOMPARE(fit.parameters.size(), std::size_t(11)); // ten keys and the second trace's beta
    QCOMPARE(fit.parameters.back().trace, 1);
    const double ratio = fit.trace_beta[1] / fit.trace_beta[0];
    QVERIFY2(ratio > 1.5 && ratio < 2.6, qPrintable(QString::number(ratio)));
    QVERIFY(fit.trace_r2[0] > 0.7 && fit.trace_r2[1] > 0.9);
    // The residuals are each trace's data less its own curve.
    core::XModelParams second = fit.params;
    second.beta = fit.trace_beta[1];
    const core::XModel model(second);
    QVERIFY(std::abs(fit.residuals[32] - (y16[0] - model.toGbs(model.msSupply(k16[0])))) < 1e-9);
}

QTEST_APPLESS_MAIN(TestCacheFit)
#include "tst_cache_fit.moc"
