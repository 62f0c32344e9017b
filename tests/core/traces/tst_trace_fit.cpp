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

std::vector<double> range(double from, double to, double step)
{
    std::vector<double> out;
    for (double v = from; v <= to + 1e-9; v += step)
        out.push_back(v);
    return out;
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

QTEST_APPLESS_MAIN(TestTraceFit)
#include "tst_trace_fit.moc"
