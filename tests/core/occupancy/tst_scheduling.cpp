// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/occupancy/runtime_fit.h"
#include "core/occupancy/scheduling.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using core::RuntimeSample;
using core::TmmBound;

namespace {

template<typename Fn>
QString errorOf(Fn &&fn)
{
    try {
        fn();
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// A grid of (B_r, T) like the paper's Fig. 2 runs: B_r = (8192/S_D)^2 for S_D = 16..128, T = 1..32.
std::vector<RuntimeSample> fig2Grid(double a1, double a0)
{
    std::vector<RuntimeSample> samples;
    for (double sd : {16.0, 32.0, 64.0, 128.0}) {
        for (double t : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0}) {
            const double br = (8192 / sd) * (8192 / sd);
            samples.push_back({br, t, a1 * std::sqrt(br) / t + a0});
        }
    }
    return samples;
}

} // namespace

class TestScheduling : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fig1MinimaAtMultiplesOf15();
    void schedulingFactorValues_data();
    void schedulingFactorValues();
    void zigzagFlattensAsBlocksGrow();
    void badBlockCountsAreRejected();
    void tmmTermsAndRegime();
    void badTmmParametersAreRejected();
    void apspPreset();
    void apspRegimeFollowsLatencyHiding();
    void runtimeFitRecoversCoefficients();
    void runtimeFitWithNoise();
    void runtimeFitRejectsBadData();
};

void TestScheduling::fig1MinimaAtMultiplesOf15()
{
    // Fig. 1: B_a = 1, P/Q = 15 SMs (GTX480): f_sched is exactly 1 at multiples of 15 and above 1 elsewhere.
    const core::Zigzag z = core::zigzag(15, 1, 1, 300);
    QCOMPARE(z.blocks_per_pass, 15LL);
    QCOMPARE(z.br.size(), std::size_t(300));
    QCOMPARE(z.f_sched.size(), z.br.size());
    std::vector<long long> expectedMinima;
    for (std::size_t i = 0; i < z.br.size(); ++i) {
        const long long br = z.br[i];
        QCOMPARE(br, (long long)(i) + 1);
        if (br % 15 == 0) {
            QCOMPARE(z.f_sched[i], 1.0); // exactly
            expectedMinima.push_back(br);
        } else {
            QVERIFY2(z.f_sched[i] > 1.0, qPrintable(QString::number(br)));
        }
        QCOMPARE(z.f_sched[i], core::schedulingFactor(br, 1, 15));
        // The local minima of the sequence are the multiples of 15, and only they.
        if (i > 0 && i + 1 < z.br.size()) {
            const bool localMin = z.f_sched[i] < z.f_sched[i - 1] && z.f_sched[i] < z.f_sched[i + 1];
            QCOMPARE(localMin, br % 15 == 0);
        }
    }
    QCOMPARE(z.minima, expectedMinima);
    QCOMPARE(z.minima.size(), std::size_t(20));
    // One block past a multiple of 15: a whole extra pass for one block (the zigzag's jump).
    QCOMPARE(core::schedulingFactor(16, 1, 15), 30.0 / 16);
    QCOMPARE(core::schedulingPasses(16, 1, 15), 2LL);
}

void TestScheduling::schedulingFactorValues_data()
{
    QTest::addColumn<qlonglong>("br");
    QTest::addColumn<qlonglong>("ba");
    QTest::addColumn<qlonglong>("sms");
    QTest::addColumn<qlonglong>("passes");
    QTest::addColumn<double>("fsched");
    // ceil(B_r / (B_a*S)) * B_a*S / B_r
    QTest::newRow("one block on 15 SMs") << 1LL << 1LL << 15LL << 1LL << 15.0;
    QTest::newRow("one full pass") << 15LL << 1LL << 15LL << 1LL << 1.0;
    QTest::newRow("B_a = 2: 30 per pass") << 30LL << 2LL << 15LL << 1LL << 1.0;
    QTest::newRow("31 blocks, 30 per pass") << 31LL << 2LL << 15LL << 2LL << 60.0 / 31;
    QTest::newRow("100 blocks, 60 per pass") << 100LL << 4LL << 15LL << 2LL << 1.2;
    QTest::newRow("APSP n=8192 S_D=32 B_a=4") << 65536LL << 4LL << 15LL << 1093LL << 1093.0 * 60 / 65536;
    QTest::newRow("A100: 108 SMs, B_a = 2") << 1000LL << 2LL << 108LL << 5LL << 1080.0 / 1000;
}

void TestScheduling::schedulingFactorValues()
{
    QFETCH(qlonglong, br);
    QFETCH(qlonglong, ba);
    QFETCH(qlonglong, sms);
    QFETCH(qlonglong, passes);
    QFETCH(double, fsched);
    QCOMPARE(core::schedulingPasses(br, ba, sms), passes);
    QCOMPARE(core::schedulingFactor(br, ba, sms), fsched);
}

void TestScheduling::zigzagFlattensAsBlocksGrow()
{
    // "As B_r grows to larger values, the influence of B_r on occupancy diminishes": the worst f_sched of
    // each pass, at one block past a multiple of B_a*S, falls pass after pass; f_sched never drops below 1.
    const long long ba = 3, sms = 14, perPass = ba * sms;
    const core::Zigzag z = core::zigzag(sms, ba, 1, 50 * perPass);
    double previousWorst = std::numeric_limits<double>::infinity();
    for (long long pass = 0; pass < 50; ++pass) {
        double worst = 0;
        for (long long br = pass * perPass + 1; br <= (pass + 1) * perPass; ++br) {
            const double f = z.f_sched[std::size_t(br - 1)];
            QVERIFY(f >= 1.0);
            QVERIFY(f <= 1.0 + double(perPass - 1) / double(br) + 1e-12);
            worst = std::max(worst, f);
        }
        QCOMPARE(worst, core::schedulingFactor(pass * perPass + 1, ba, sms));
        QVERIFY(worst < previousWorst);
        previousWorst = worst;
    }
    QVERIFY(previousWorst < 1.03);
}

void TestScheduling::badBlockCountsAreRejected()
{
    QVERIFY(errorOf([] {
                core::schedulingFactor(0, 1, 15);
            }).contains(QLatin1String("requested blocks B_r: must be between 1")));
    QVERIFY(errorOf([] {
                core::schedulingFactor(10, 0, 15);
            }).contains(QLatin1String("active blocks per SM B_a")));
    QVERIFY(errorOf([] {
                core::schedulingFactor(10, 1, -3);
            }).contains(QLatin1String("SMs S: must be between 1")));
    QVERIFY(errorOf([] { core::schedulingPasses(-1, 1, 1); }).contains(QLatin1String("(got -1)")));
    // Counts beyond the limits (so that B_a*S and the passes never overflow) are rejected, not wrapped.
    QVERIFY(errorOf([] { core::schedulingFactor(10, core::kMaxActiveBlocks + 1, 15); })
                    .contains(QLatin1String("active blocks per SM B_a: must be between 1 and 1048576")));
    QVERIFY(errorOf([] { core::schedulingFactor(core::kMaxRequestedBlocks + 1, 1, 1); })
                    .contains(QLatin1String("requested blocks B_r")));
    QCOMPARE(core::schedulingFactor(core::kMaxRequestedBlocks, core::kMaxActiveBlocks, core::kMaxSms), 1.0);
    QVERIFY(errorOf([] { core::zigzag(15, 1, 10, 5); }).contains(QLatin1String("the range 10:5 is empty")));
    QVERIFY(errorOf([] { core::zigzag(15, 1, 0, 5); }).contains(QLatin1String("range start")));
    QVERIFY(errorOf([] { core::zigzag(0, 1, 1, 5); }).contains(QLatin1String("SMs S")));
    QVERIFY(errorOf([] { core::zigzag(15, 1, 1, 2'000'000); }).contains(QLatin1String("at most 1000000")));
}

void TestScheduling::tmmTermsAndRegime()
{
    core::TmmParams p;
    p.work = 1e6;
    p.span = 10;
    p.transactions = 1e4;
    p.latency = 400;
    p.cores = 100;
    p.threads_per_core = 8;
    p.requested_blocks = 15;
    p.active_blocks = 1;
    p.sms = 15;
    // T1/P = 1e4; M*L/(T*P) = 1e4*400/800 = 5000; T_inf = 10: compute-bound, f_sched = 1.
    auto r = core::evaluateTmm(p);
    QCOMPARE(r.work_term, 1e4);
    QCOMPARE(r.memory_term, 5000.0);
    QCOMPARE(r.span_term, 10.0);
    QCOMPARE(r.t_p, 1e4);
    QCOMPARE(r.bound, TmmBound::Compute);
    QCOMPARE(r.f_sched, 1.0);
    QCOMPARE(r.time, 1e4);
    // T = 2: M*L/(T*P) = 2e4 > 1e4: memory-bound, and halving T again doubles the time (Eq. 14).
    p.threads_per_core = 2;
    r = core::evaluateTmm(p);
    QCOMPARE(r.bound, TmmBound::Memory);
    QCOMPARE(r.time, 2e4);
    p.threads_per_core = 1;
    QCOMPARE(core::evaluateTmm(p).time, 4e4);
    // Exactly balanced terms count as compute-bound (more threads no longer help).
    p.threads_per_core = 4;
    QCOMPARE(core::evaluateTmm(p).bound, TmmBound::Compute);
    // A long critical path dominates.
    p.span = 1e5;
    r = core::evaluateTmm(p);
    QCOMPARE(r.bound, TmmBound::Span);
    QCOMPARE(r.t_p, 1e5);
    // Scheduling multiplies: 16 blocks on 15 SMs take two passes, f_sched = 30/16.
    p.span = 0;
    p.requested_blocks = 16;
    r = core::evaluateTmm(p);
    QCOMPARE(r.passes, 2LL);
    QCOMPARE(r.f_sched, 30.0 / 16);
    QCOMPARE(r.time, 1e4 * 30.0 / 16);
    QCOMPARE(core::tmmBoundName(TmmBound::Compute), std::string_view("compute"));
    QCOMPARE(core::tmmBoundName(TmmBound::Memory), std::string_view("memory"));
    QCOMPARE(core::tmmBoundName(TmmBound::Span), std::string_view("span"));
}

void TestScheduling::badTmmParametersAreRejected()
{
    const auto fails = [](auto change, const char *message) {
        core::TmmParams p;
        change(p);
        const QString e = errorOf([&] { core::evaluateTmm(p); });
        QVERIFY2(e.contains(QLatin1String(message)), qPrintable(e));
    };
    fails([](core::TmmParams &p) { p.latency = 0; }, "latency L: must be a finite number > 0 (got 0)");
    fails([](core::TmmParams &p) { p.threads_per_core = -1; }, "threads per core T");
    fails([](core::TmmParams &p) { p.cores = 0; }, "cores P");
    fails([](core::TmmParams &p) { p.work = -5; }, "work T1: must be a finite number >= 0");
    fails([](core::TmmParams &p) { p.transactions = std::nan(""); }, "memory transactions M");
    fails([](core::TmmParams &p) { p.span = std::numeric_limits<double>::infinity(); }, "span T_inf");
    fails([](core::TmmParams &p) { p.requested_blocks = 0; }, "requested blocks B_r");
    fails([](core::TmmParams &p) { p.active_blocks = 0; }, "active blocks per SM B_a");
    fails(
            [](core::TmmParams &p) {
                p.work = 1e308;
                p.cores = 1e-300;
            },
            "TMM time model: the work term T1/P is more than a double holds (about 1.8e308 steps)");
    fails(
            [](core::TmmParams &p) {
                p.transactions = 1e300;
                p.latency = 1e300;
            },
            "TMM time model: the memory term M L / (T P) is more than a double holds (about 1.8e308 steps)");
    fails(
            [](core::TmmParams &p) {
                p.work = 1e308;
                p.requested_blocks = 1;
                p.active_blocks = 1;
                p.sms = 1000;
            },
            "TMM time model: the time, 1e+308 steps x f_sched 1000, is more than a double holds (about "
            "1.8e308)");
    // M L beyond a double while M L / (T P) is not: computed the other way round.
    core::TmmParams wide;
    wide.transactions = 1e300;
    wide.latency = 1e10;
    wide.cores = 1e6;
    QCOMPARE(core::evaluateTmm(wide).memory_term, 1e300 / 1e6 * 1e10);
}

void TestScheduling::apspPreset()
{
    // Section IV/V example: n = 8192, S_D = 32 -> B_r = (8192/32)^2 = 65536; C = 32 on a GTX480.
    core::ApspParams a;
    a.vertices = 8192;
    a.sub_block = 32;
    a.chunk = 32;
    a.latency = 400;
    a.threads_per_core = 4;
    a.cores = 480;
    a.active_blocks = 4;
    a.sms = 15;
    const core::TmmParams p = core::apspPreset(a);
    const double t1 = 8192.0 * 8192.0 * 8192.0 * 13; // n^3 lg n, lg 8192 = 13
    QCOMPARE(p.work, t1);
    QCOMPARE(p.transactions, t1 / (32 * 32)); // Eq. 10
    QCOMPARE(p.requested_blocks, 65536LL);
    QCOMPARE(p.span, 0.0);
    QCOMPARE(p.latency, 400.0);
    QCOMPARE(p.sms, 15LL);
    const auto r = core::evaluateTmm(p);
    // memory/work = L / (S_D*C*T) = 400/4096 < 1: compute-bound (Eq. 13).
    QCOMPARE(r.bound, TmmBound::Compute);
    QVERIFY(qFuzzyCompare(r.memory_term / r.work_term, 400.0 / 4096));
    QCOMPARE(r.f_sched, 1093.0 * 60 / 65536);

    a.sub_block = 3; // does not divide 8192
    QVERIFY(errorOf([&] {
                core::apspPreset(a);
            }).contains(QLatin1String("sub-block dimension S_D: must divide n = 8192 (got 3)")));
    a.sub_block = 32;
    a.vertices = 1;
    QVERIFY(errorOf([&] { core::apspPreset(a); }).contains(QLatin1String("APSP vertices n")));
    a.vertices = 8192;
    a.chunk = 0;
    QVERIFY(errorOf([&] { core::apspPreset(a); }).contains(QLatin1String("chunk size C")));
}

void TestScheduling::apspRegimeFollowsLatencyHiding()
{
    // Memory-bound exactly when T * S_D < L / C (Eq. 12-14). L/C = 4096/32 = 128.
    core::ApspParams a;
    a.vertices = 4096;
    a.chunk = 32;
    a.latency = 4096;
    a.cores = 480;
    a.sms = 15;
    a.active_blocks = 1;
    for (long long sd : {8, 16, 32, 64, 128}) {
        for (double t : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0}) {
            a.sub_block = sd;
            a.threads_per_core = t;
            const auto r = core::evaluateTmm(core::apspPreset(a));
            const double product = t * double(sd);
            if (product < 128)
                QCOMPARE(r.bound, TmmBound::Memory);
            else
                QCOMPARE(r.bound, TmmBound::Compute);
            if (r.bound == TmmBound::Memory) {
                // Eq. 14: time = n^2 lg n L sqrt(B_r) / (C T P) * f_sched, linear in sqrt(B_r)/T.
                const double n = 4096;
                const double br = double(core::apspPreset(a).requested_blocks);
                const double expected = n * n * 12 * 4096 * std::sqrt(br) / (32 * t * 480) * r.f_sched;
                QVERIFY(qFuzzyCompare(r.time, expected));
            }
        }
    }
}

void TestScheduling::runtimeFitRecoversCoefficients()
{
    // Synthetic data on the paper's line (Fig. 2: a1 = 0.957, a0 = 53.9) is fitted exactly.
    const auto samples = fig2Grid(0.957, 53.9);
    const core::RuntimeFit fit = core::fitRuntime(samples);
    QCOMPARE(fit.points, samples.size());
    QVERIFY2(std::abs(fit.a1 - 0.957) < 1e-12, qPrintable(QString::number(fit.a1, 'g', 17)));
    QVERIFY2(std::abs(fit.a0 - 53.9) < 1e-10, qPrintable(QString::number(fit.a0, 'g', 17)));
    QVERIFY(std::abs(fit.r2 - 1) < 1e-14);
    QVERIFY(fit.rmse < 1e-10);
    QVERIFY(qFuzzyCompare(fit.predict(65536, 4), 0.957 * 64 + 53.9));
    QCOMPARE(core::runtimeAbscissa(65536, 4), 64.0);
    // Two points with distinct sqrt(B_r)/T determine the line: x = 4 -> 9, x = 8 -> 17.
    const std::vector<RuntimeSample> line{{16, 1, 9}, {64, 1, 17}};
    const auto exact = core::fitRuntime(line);
    QVERIFY(std::abs(exact.a1 - 2) < 1e-12 && std::abs(exact.a0 - 1) < 1e-12);
    QVERIFY(std::abs(exact.r2 - 1) < 1e-14);
    // Equal times: a flat line, fitted exactly.
    const std::vector<RuntimeSample> flat{{16, 1, 5}, {64, 1, 5}, {256, 1, 5}};
    const auto horizontal = core::fitRuntime(flat);
    QVERIFY(std::abs(horizontal.a1) < 1e-12 && std::abs(horizontal.a0 - 5) < 1e-12);
    QCOMPARE(horizontal.r2, 1.0);
}

void TestScheduling::runtimeFitWithNoise()
{
    auto samples = fig2Grid(0.957, 53.9);
    std::mt19937_64 rng(15);
    std::normal_distribution<double> noise(0, 3);
    for (auto &s : samples)
        s.time += noise(rng);
    const core::RuntimeFit fit = core::fitRuntime(samples);
    QVERIFY2(fit.r2 < 1, qPrintable(QString::number(fit.r2, 'g', 17)));
    QVERIFY(fit.r2 > 0.95);
    QVERIFY(std::abs(fit.a1 - 0.957) < 0.05);
    QVERIFY(std::abs(fit.a0 - 53.9) < 3);
    QVERIFY(fit.rmse > 1 && fit.rmse < 5);
    // r^2 is 1 - SS_res/SS_tot of the fitted line.
    double mean = 0;
    for (const auto &s : samples)
        mean += s.time / double(samples.size());
    double ssRes = 0, ssTot = 0;
    for (const auto &s : samples) {
        ssRes += std::pow(s.time - fit.predict(s.requested_blocks, s.threads_per_core), 2);
        ssTot += std::pow(s.time - mean, 2);
    }
    QVERIFY(qFuzzyCompare(fit.r2, 1 - ssRes / ssTot));
}

void TestScheduling::runtimeFitRejectsBadData()
{
    const auto fails = [](std::vector<RuntimeSample> samples, const char *message) {
        const QString e = errorOf([&] { core::fitRuntime(samples); });
        QVERIFY2(e.contains(QLatin1String(message)), qPrintable(e));
    };
    fails({}, "needs at least 2 samples (got 0)");
    fails({{16, 1, 3}}, "needs at least 2 samples (got 1)");
    fails({{16, 1, 3}, {16, 1, 4}, {16, 1, 5}}, "every sample has the same sqrt(B_r)/T = 4");
    fails({{4, 1, 3}, {16, 2, 4}, {64, 4, 5}}, "the slope a1 is undetermined"); // x = 2, 2, 2
    fails({{16, 1, 3}, {64, 0, 4}},
          "runtime sample 2: threads per core T must be a finite number > 0 (got 0)");
    fails({{-1, 1, 3}, {64, 1, 4}}, "runtime sample 1: requested blocks B_r");
    fails({{16, 1, std::nan("")}, {64, 1, 4}}, "runtime sample 1: the time must be a finite number");
}

QTEST_APPLESS_MAIN(TestScheduling)
#include "tst_scheduling.moc"
