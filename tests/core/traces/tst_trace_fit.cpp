// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "import_fixtures.h"
#include "model_fixtures.h"
#include "core/traces/trace_fit.h"
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

const std::string kTidy = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches/stream_vs_warps_per_sm.csv";

bool haveShared()
{
    return QFile::exists(QString::fromStdString(kTidy));
}

struct Scan
{
    double sse = std::numeric_limits<double>::infinity();
    double s = 0;
    double R = 0;
};

/// Dense grid over (s, R), then a finer grid around the best cell, repeated: a brute-force minimum that makes
/// no use of the problem's structure.
Scan bruteForce(const std::vector<double> &k, const std::vector<double> &y)
{
    double sHi = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        if (k[i] > 0)
            sHi = std::max(sHi, y[i] / k[i]);
    }
    sHi *= 2;
    double rLo = 0;
    double rHi = 1.5 * *std::max_element(y.begin(), y.end());
    double sLo = 0;
    Scan best;
    for (int level = 0; level < 6; ++level) {
        const int steps = level == 0 ? 1200 : 200;
        const double ds = (sHi - sLo) / steps;
        const double dr = (rHi - rLo) / steps;
        for (int i = 0; i <= steps; ++i) {
            for (int j = 0; j <= steps; ++j) {
                const double s = sLo + i * ds;
                const double R = rLo + j * dr;
                const double sse = core::rooflineSquaredError(k, y, s, R);
                if (sse < best.sse)
                    best = {sse, s, R};
            }
        }
        sLo = std::max(0.0, best.s - 3 * ds);
        sHi = best.s + 3 * ds;
        rLo = std::max(0.0, best.R - 3 * dr);
        rHi = best.R + 3 * dr;
    }
    return best;
}

/// Another brute force, in the breakpoint b: for a fixed b the model y = s*min(k, b) is linear in s, so the
/// best s is exact; b is scanned densely over [0, 1.5 max k].
Scan breakpointScan(const std::vector<double> &k, const std::vector<double> &y)
{
    const double kMax = *std::max_element(k.begin(), k.end());
    Scan best;
    const int steps = 200000;
    for (int i = 1; i <= steps; ++i) {
        const double b = 1.5 * kMax * i / steps;
        double zy = 0, zz = 0;
        for (std::size_t p = 0; p < k.size(); ++p) {
            const double z = std::min(k[p], b);
            zy += z * y[p];
            zz += z * z;
        }
        if (zz <= 0 || zy <= 0)
            continue;
        const double s = zy / zz;
        const double sse = core::rooflineSquaredError(k, y, s, s * b);
        if (sse < best.sse)
            best = {sse, s, s * b};
    }
    return best;
}

/// Runs of equal residual signs (zeros skipped) and the Wald-Wolfowitz z score of their count.
struct Runs
{
    int runs = 0;
    int longest = 0;
    double z = 0;
};

Runs signRuns(const std::vector<double> &residuals)
{
    std::vector<int> signs;
    for (double r : residuals) {
        if (r != 0)
            signs.push_back(r > 0 ? 1 : -1);
    }
    Runs out;
    int current = 0;
    for (std::size_t i = 0; i < signs.size(); ++i) {
        if (i == 0 || signs[i] != signs[i - 1]) {
            ++out.runs;
            current = 1;
        } else {
            ++current;
        }
        out.longest = std::max(out.longest, current);
    }
    const double plus = double(std::count(signs.begin(), signs.end(), 1));
    const double minus = double(signs.size()) - plus;
    const double n = plus + minus;
    const double mean = 2 * plus * minus / n + 1;
    const double var = 2 * plus * minus * (2 * plus * minus - n) / (n * n * (n - 1));
    out.z = (out.runs - mean) / std::sqrt(var);
    return out;
}

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

class TestTraceFit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exactRecovery_data();
    void exactRecovery();
    void gpuBenchesInit_data();
    void gpuBenchesInit();
    void randomTracesAreGlobalOptima();
    void readResidualsAreSystematic();
    void rejects_data();
    void rejects();
    void extremeValuesGiveFiniteFitsOrARefusal();
    void fixedCacheRecovery();
    void localityCacheRecovery();
    void longTraceFitsSpreadPoints();
    void cacheFitsOnNoise();
    void cacheFitRejects();
    void twoLevelRecovery();
    void twoLevelH100Thrashing_data();
    void twoLevelH100Thrashing();
    void twoLevelRejects();
};

void TestTraceFit::exactRecovery_data()
{
    QTest::addColumn<std::vector<double>>("k");
    QTest::addColumn<double>("s");
    QTest::addColumn<double>("R");
    QTest::newRow("knee between points") << range(1, 10, 1) << 3.0 << 20.0; // delta = 6.67
    QTest::newRow("knee on a point") << range(1, 10, 1) << 2.0 << 10.0; // delta = 5
    QTest::newRow("unsorted, repeated, zero")
            << std::vector<double> {8, 0, 2, 2, 5, 16, 1, 8, 3} << 70.0 << 480.0;
    QTest::newRow("two points") << std::vector<double> {2, 10} << 100.0 << 500.0;
}

void TestTraceFit::exactRecovery()
{
    QFETCH(std::vector<double>, k);
    QFETCH(double, s);
    QFETCH(double, R);
    std::vector<double> y;
    for (double v : k)
        y.push_back(std::min(s * v, R));
    const core::RooflineFit fit = core::fitRoofline(k, y);
    QVERIFY(std::abs(fit.slope_gbs_per_warp / s - 1) < 1e-12);
    QVERIFY(std::abs(fit.R_gbs / R - 1) < 1e-12);
    QVERIFY(std::abs(fit.delta - R / s) < 1e-9);
    QVERIFY(fit.rmse < 1e-9 * R);
    QVERIFY(std::abs(fit.r2 - 1) < 1e-12);
    QCOMPARE(fit.points, k.size());
    QCOMPARE(fit.residuals.size(), k.size());
    for (std::size_t i = 0; i < k.size(); ++i)
        QVERIFY(std::abs(fit.residuals[i]) < 1e-9 * R);
}

void TestTraceFit::gpuBenchesInit_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::newRow("v100") << "v100";
    QTest::newRow("a100_40") << "a100_40";
    QTest::newRow("h100_pcie") << "h100_pcie";
}

void TestTraceFit::gpuBenchesInit()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    QFETCH(QString, gpu);
    const auto traces = core::readGpuStreamCsv(kTidy);
    const core::StreamTrace *t = core::findStreamTrace(traces, gpu.toStdString(), "init");
    QVERIFY(t);
    const core::RooflineFit fit = core::fitRoofline(t->warps_per_sm, t->gbs);
    const double measuredMax = *std::max_element(t->gbs.begin(), t->gbs.end());
    qInfo("%s init: R = %.2f GB/s (max %.0f), s = %.3f GB/s/warp, delta = %.3f warps, rmse = %.3f, r2 = %.5f",
          qPrintable(gpu), fit.R_gbs, measuredMax, fit.slope_gbs_per_warp, fit.delta, fit.rmse, fit.r2);
    QVERIFY(std::abs(fit.R_gbs / measuredMax - 1) <= 0.03);
    QVERIFY(fit.r2 >= 0.99);
    QCOMPARE(fit.points, std::size_t(32));
    QVERIFY(std::abs(fit.sse
                     - core::rooflineSquaredError(t->warps_per_sm, t->gbs, fit.slope_gbs_per_warp, fit.R_gbs))
            < 1e-9 * fit.sse);

    // The global optimum: no point of a dense (s, R) scan, nor of a dense breakpoint scan, does better, and
    // both land on the same parameters.
    const Scan grid = bruteForce(t->warps_per_sm, t->gbs);
    QVERIFY2(fit.sse <= grid.sse * (1 + 1e-12),
             qPrintable(QStringLiteral("%1 > %2").arg(fit.sse).arg(grid.sse)));
    QVERIFY(std::abs(grid.s / fit.slope_gbs_per_warp - 1) < 1e-3);
    QVERIFY(std::abs(grid.R / fit.R_gbs - 1) < 1e-4);
    const Scan knee = breakpointScan(t->warps_per_sm, t->gbs);
    QVERIFY(fit.sse <= knee.sse * (1 + 1e-12));
    QVERIFY(std::abs(knee.R / fit.R_gbs - 1) < 1e-4);
}

void TestTraceFit::randomTracesAreGlobalOptima()
{
    // Noisy, small, irregular traces, where local searches get stuck: the fit is never beaten by the scans.
    std::mt19937 rng(20240611);
    std::uniform_real_distribution<double> unit(0, 1);
    std::normal_distribution<double> noise(0, 1);
    for (int trial = 0; trial < 40; ++trial) {
        const int n = 3 + int(unit(rng) * 10);
        const double s = 10 + 90 * unit(rng);
        const double kneeAt = 1 + 30 * unit(rng);
        const double sigma = s * kneeAt * (0.01 + 0.3 * unit(rng));
        std::vector<double> k, y;
        for (int i = 0; i < n; ++i) {
            const double v = std::round(40 * unit(rng) * 2) / 2; // repeated k values happen
            k.push_back(v);
            y.push_back(std::min(s * v, s * kneeAt) + sigma * noise(rng));
        }
        core::RooflineFit fit;
        try {
            fit = core::fitRoofline(k, y);
        } catch (const core::InputError &) {
            continue; // every k equal, or nothing positive
        }
        const Scan knee = breakpointScan(k, y);
        QVERIFY2(fit.sse <= knee.sse * (1 + 1e-9) + 1e-9,
                 qPrintable(QStringLiteral("trial %1: %2 > %3").arg(trial).arg(fit.sse).arg(knee.sse)));
        if (trial < 8) {
            const Scan grid = bruteForce(k, y);
            QVERIFY(fit.sse <= grid.sse * (1 + 1e-9) + 1e-9);
        }
    }
}

void TestTraceFit::readResidualsAreSystematic()
{
    if (!haveShared())
        QSKIP("../shared/data/gpu-benches is not here");
    // The read kernel rises slowly and bends: a roofline misses it in long runs of one sign, where random
    // errors would change sign about every other point.
    const auto traces = core::readGpuStreamCsv(kTidy);
    for (const char *gpu : {"v100", "a100_40", "a100_80", "h100_pcie"}) {
        const core::StreamTrace *t = core::findStreamTrace(traces, gpu, "read");
        const core::RooflineFit fit = core::fitRoofline(t->warps_per_sm, t->gbs);
        const Runs runs = signRuns(fit.residuals);
        qInfo("%s read: R = %.1f, r2 = %.4f, %d sign runs in 32 points, longest %d, Wald-Wolfowitz z = %.2f",
              gpu, fit.R_gbs, fit.r2, runs.runs, runs.longest, runs.z);
        QVERIFY(runs.z < -3); // p < 0.0015 for random signs
        QVERIFY(runs.longest >= 6);
    }
}

void TestTraceFit::rejects_data()
{
    QTest::addColumn<std::vector<double>>("k");
    QTest::addColumn<std::vector<double>>("y");
    QTest::addColumn<QString>("message");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("empty") << std::vector<double> {} << std::vector<double> {}
                           << "roofline fit: needs at least 2 points (got 0)";
    QTest::newRow("one point") << std::vector<double> {1} << std::vector<double> {1}
                               << "roofline fit: needs at least 2 points (got 1)";
    QTest::newRow("lengths") << std::vector<double> {1, 2} << std::vector<double> {1}
                             << "roofline fit: 2 k values but 1 throughput values";
    QTest::newRow("nan y") << std::vector<double> {1, 2} << std::vector<double> {1, nan}
                           << "roofline fit: point 2: the throughput must be a finite number (got nan)";
    QTest::newRow("inf k") << std::vector<double> {inf, 2} << std::vector<double> {1, 2}
                           << "roofline fit: point 1: k must be a finite number >= 0 (got inf)";
    QTest::newRow("negative k") << std::vector<double> {1, -2} << std::vector<double> {1, 2}
                                << "roofline fit: point 2: k must be a finite number >= 0 (got -2)";
    QTest::newRow("same k")
            << std::vector<double> {4, 4, 4} << std::vector<double> {1, 2, 3}
            << "roofline fit: every point has the same k = 4, so slope and plateau are not both "
               "determined";
    QTest::newRow("throughput whose square overflows")
            << std::vector<double> {1, 2, 3} << std::vector<double> {1.7e308, 1.7e308, 1.7e308}
            << "roofline fit: point 1: the throughput 1.7e+308 is too large to fit (at most 1e+150: its square "
               "would overflow)";
    QTest::newRow("k whose square overflows")
            << std::vector<double> {1, 2e150} << std::vector<double> {1, 2}
            << "roofline fit: point 2: k 2e+150 is too large to fit (at most 1e+150: its square would overflow)";
    // Positive throughputs whose slope y / k a double cannot hold are not "every y <= 0" (x values of 1e300
    // used to get that message; the CLI refuses those before the fit).
    QTest::newRow("k squares to zero")
            << std::vector<double> {1e-200, 2e-200, 3e-200} << std::vector<double> {5, 6, 7}
            << "roofline fit: the values span too wide a range to fit in double precision (point 1: k = 1e-200, "
               "y = 5)";
    QTest::newRow("slope below the smallest double")
            << std::vector<double> {5e149, 1e150} << std::vector<double> {1e-200, 2e-200}
            << "roofline fit: the values span too wide a range to fit in double precision (point 1: k = 5e+149, "
               "y = 1e-200)";
    QTest::newRow("nothing positive")
            << std::vector<double> {1, 2, 3} << std::vector<double> {0, -1, -2}
            << "roofline fit: no positive throughput to fit (every y <= 0 where k > 0)";
}

void TestTraceFit::rejects()
{
    QFETCH(std::vector<double>, k);
    QFETCH(std::vector<double>, y);
    QFETCH(QString, message);
    QCOMPARE(inputErrorOf([&] { core::fitRoofline(k, y); }), message);
}

void TestTraceFit::extremeValuesGiveFiniteFitsOrARefusal()
{
    // Values up to kMaxFitValue, tiny and huge together: every number of the fit is finite (never inf or NaN
    // in what fit-trace prints), or the fit is refused with a message.
    const double big = core::kMaxFitValue;
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases {
        {{1e-300, 2e-300, 1}, {big, big, big}},
        {{1e-300, 1}, {1e-300, big}},
        {{big, big / 2, 1}, {big, big, 1e-300}},
        {{0, big}, {big, big}},
        {{1, 2, 3}, {big, -big, big}},
        {{5e-324, 1e-323, 1}, {1, 2, 3}},
    };
    for (const auto &[k, y] : cases) {
        try {
            const core::RooflineFit fit = core::fitRoofline(k, y);
            for (const double v : {fit.R_gbs, fit.slope_gbs_per_warp, fit.delta, fit.rmse, fit.r2, fit.sse})
                QVERIFY2(std::isfinite(v), qPrintable(QString::number(k[0]) + " " + QString::number(y[0])));
            for (const double r : fit.residuals)
                QVERIFY(std::isfinite(r));
        } catch (const core::InputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("roofline fit: ")), e.what());
        }
    }
}

void TestTraceFit::fixedCacheRecovery()
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

void TestTraceFit::localityCacheRecovery()
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

void TestTraceFit::longTraceFitsSpreadPoints()
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
             QStringLiteral("cache fit: the point limit must be at least 10, one more than the most parameters a "
                            "fit has (got 9)"));
}

void TestTraceFit::cacheFitsOnNoise()
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

void TestTraceFit::cacheFitRejects()
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

void TestTraceFit::twoLevelRecovery()
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
    const core::CacheFit fit = core::fitCacheModel(k, noisy, machine, core::CacheMode::TwoLevel);
    const auto &p = fit.params;
    qInfo("two-level, noisy: L_s = %.4g, L_2 = %.4g, L = %.4g, beta = %.4g, S_2 = %.4g, alpha = %.4g, "
          "alpha_2 = %.4g, R = %.4g, R_dram = %.4g, rmse = %.3g (noise %.3g), r2 = %.5f",
          p.L_s, p.L_2, p.L, p.beta, p.S_2, p.alpha, p.alpha_2, p.R, p.R_dram, fit.rmse, 0.01 * top, fit.r2);
    QCOMPARE(p.cache, core::CacheMode::TwoLevel);
    QCOMPARE(p.S_s, machine.S_s); // the L1 size stays the machine's
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

void TestTraceFit::twoLevelH100Thrashing_data()
{
    QTest::addColumn<int>("bytes");
    QTest::newRow("8 KiB per warp") << 8192;
    QTest::newRow("16 KiB per warp") << 16384;
}

void TestTraceFit::twoLevelH100Thrashing()
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

void TestTraceFit::twoLevelRejects()
{
    const core::XModelParams machine = twoLevelMachine();
    const std::vector<double> k = range(1, 9, 1);
    const std::vector<double> y = msCurve(machine, k);
    QCOMPARE(inputErrorOf([&] { core::fitCacheModel(k, y, machine, core::CacheMode::TwoLevel); }),
             QStringLiteral("cache fit: needs at least 10 points for 9 parameters (got 9)"));
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

QTEST_APPLESS_MAIN(TestTraceFit)
#include "tst_trace_fit.moc"
