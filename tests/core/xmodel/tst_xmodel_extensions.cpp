// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "model_fixtures.h"
#include "xmodel_fixtures.h"
#include "core/xmodel/memory_levels.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace crossroof;
using core::CacheMode;
using core::Stability;
using core::XModel;
using core::XModelParams;
using xmodel_test::randomParams;

/// Crossroof's extensions of the X-model: issue latency, cache bypassing, a supply per memory level,
/// requests in flight, the byte cap and a second cache level; at their defaults, the paper's model.
class TestXModelExtensions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void issueLatency();
    void issueLatencyOneIsThePaperModel();
    void cacheBypassing();
    void realKernelKeysAtDefaultsAreThePapersModel();
    void eachLevelCapsTheSupply();
    void requestsInFlightScaleTheSupply();
    void byteCapBoundsTheDramTraffic();
    void secondCacheLevel();
};

void TestXModelExtensions::issueLatency()
{
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::None;
    p.E = 2;
    p.L_c = 4;
    const XModel m(p);
    // g(x) = min(E*x/L_c, M): two chains, one dependent instruction each per 4 cycles.
    QVERIFY(qFuzzyCompare(m.csThroughput(1), 2.0 / 4));
    QVERIFY(qFuzzyCompare(m.csDemand(1), 2.0 / 4 / p.Z));
    QVERIFY(qFuzzyCompare(m.csThroughput(1000), p.M)); // the roof is still M
    // pi = M*L_c/E: the x where g reaches M.
    const auto r = m.solve();
    QVERIFY(qFuzzyCompare(r.landmarks.pi, p.M * 4 / 2));
    QVERIFY(qFuzzyCompare(m.csThroughput(r.landmarks.pi), p.M));
    QVERIFY(m.csThroughput(r.landmarks.pi * 0.99) < p.M);
    // TLP of the machine: delta + Z*R_req*L_c/E.
    p.Z = 10;
    const auto mt = XModel(p).metrics();
    const double rreq = p.requestRate();
    QVERIFY(mt.tlp_machine && qFuzzyCompare(*mt.tlp_machine, rreq * p.L + p.Z * rreq * 4 / 2));
    // Every root is a root, and a larger L_c never raises the compute throughput at the operating point.
    double previous = std::numeric_limits<double>::infinity();
    for (double lc : {1.0, 2.0, 4.0, 9.0, 22.0}) {
        XModelParams q = test::thrashingFermi();
        q.L_c = lc;
        const XModel model(q);
        const auto res = model.solve();
        for (const auto &e : res.equilibria) {
            if (e.stability != core::Stability::Neutral)
                QVERIFY2(std::abs(model.msSupply(e.k) - model.csDemand(q.n - e.k)) < 1e-9,
                         qPrintable(QStringLiteral("L_c = %1, k = %2").arg(lc).arg(e.k)));
        }
        const double cs = res.equilibria[res.operating_index].cs_gops;
        QVERIFY(cs <= previous * (1 + 1e-9));
        previous = cs;
    }
}

void TestXModelExtensions::issueLatencyOneIsThePaperModel()
{
    // L_c = 1 is the published model exactly: the same roots as before the parameter existed.
    XModelParams p = test::thrashingFermi();
    QCOMPARE(p.L_c, 1.0);
    const auto paper = XModel(p).solve();
    p.E *= 3;
    p.L_c = 3; // same E/L_c: same curves, same roots
    const auto scaled = XModel(p).solve();
    QCOMPARE(scaled.equilibria.size(), paper.equilibria.size());
    for (std::size_t i = 0; i < paper.equilibria.size(); ++i)
        QVERIFY(std::abs(scaled.equilibria[i].k - paper.equilibria[i].k) < 1e-9);
}

void TestXModelExtensions::cacheBypassing()
{
    // f(k) = f_c((1-b) k) + b k / Lm(k), written out here independently of the model.
    auto expected = [](const XModelParams &p, double k) {
        const double rreq = p.requestRate();
        const double lm = std::max(p.L, k / rreq);
        const double kc = (1 - p.bypass) * k;
        const double miss = std::pow(p.S_s / (p.beta * kc) + 1, 1 - p.alpha);
        return kc / (p.L_s + (lm - p.L_s) * miss) + p.bypass * k / lm;
    };
    XModelParams p = test::thrashingFermi();
    p.Z = 4;
    const XModel paper(p);
    for (double b : {0.0, 0.1, 0.5, 0.9}) {
        p.bypass = b;
        const XModel m(p);
        for (double k : {0.5, 3.0, 10.0, 40.0, 200.0, 5000.0}) {
            QVERIFY(std::abs(m.msSupply(k) - expected(p, k)) <= 1e-12 * expected(p, k));
            if (b == 0) {
                QCOMPARE(m.msSupply(k), paper.msSupply(k)); // the paper's model, to the last bit
                QCOMPARE(m.hitRate(k), paper.hitRate(k));
            }
            // The hit rate is the share of f that hits: the cache users' hits over the whole supply.
            const double kc = (1 - b) * k;
            const double lm = m.memoryLatency(k);
            const double miss = std::pow(p.S_s / (p.beta * kc) + 1, 1 - p.alpha);
            const double hits = (1 - miss) * kc / (p.L_s + (lm - p.L_s) * miss);
            QVERIFY(std::abs(m.hitRate(k) * m.msSupply(k) - hits) <= 1e-12 * m.msSupply(k));
        }
    }
    // In the thrashing state (the intersection on the falling f) letting some warps bypass the cache lifts
    // the operating point, and past the best share the gain shrinks again (the X-model paper, Fig. 15). The
    // workload of the thrashing sample session:
    p.bypass = 0;
    p.L_c = 20;
    p.n = 24;
    p.Z = 8;
    const auto before = XModel(p).solve().operatingPoint();
    QCOMPARE(before.bound, core::BoundClass::CacheThrashing);
    double best = before.cs_gops;
    double bestB = 0;
    for (int i = 1; i <= 19; ++i) {
        p.bypass = 0.05 * i;
        const double cs = XModel(p).solve().operatingPoint().cs_gops;
        if (cs > best) {
            best = cs;
            bestB = p.bypass;
        }
    }
    QVERIFY(best > before.cs_gops * 1.01);
    QVERIFY(bestB > 0 && bestB < 0.95);
    p.bypass = 0.95;
    QVERIFY(XModel(p).solve().operatingPoint().cs_gops < best);

    // Without a cache there is nothing to bypass.
    p.cache = CacheMode::None;
    const double roofline = XModel(p).msSupply(20);
    p.bypass = 0;
    QCOMPARE(XModel(p).msSupply(20), roofline);
}

void TestXModelExtensions::realKernelKeysAtDefaultsAreThePapersModel()
{
    // m = 1, no byte cap, one request size and one cache level: f(k) is the paper's Eq. 1-5 written out here.
    std::mt19937_64 rng(30);
    for (int trial = 0; trial < 300; ++trial) {
        XModelParams p = randomParams(rng);
        p.bypass = 0;
        const XModel m(p);
        const double rreq = p.R * 1e9 / (p.request_bytes * p.clock_ghz * 1e9 * p.sm_count);
        for (double k : {0.3, 1.0, 7.5, 40.0, 300.0}) {
            const double lm = std::max(p.L, k / rreq);
            double f = k / lm;
            if (p.cache == CacheMode::Fixed)
                f = k / (p.h * p.L_s + (1 - p.h) * lm);
            if (p.cache == CacheMode::Locality)
                f = k / (p.L_s + (lm - p.L_s) * std::pow(p.S_s / (p.beta * k) + 1, 1 - p.alpha));
            QVERIFY(std::abs(m.msSupply(k) - f) <= 1e-12 * f);
        }
        QCOMPARE(m.landmarks().delta, rreq * p.L);
        QVERIFY(std::abs(m.landmarks().plateau_gbs - p.R) <= 1e-12 * p.R);
    }
}

void TestXModelExtensions::eachLevelCapsTheSupply()
{
    // MODEL.md 1.7: the L1, L2 and DRAM each cap f at R_level / (B_level * clock * SMs) with the bytes a request
    // makes at that level; the tightest one is the plateau. Fixed mode, h = 0.5 at the L1, h_2 = 0.75 at the
    // L2, 256-byte requests: 256 B through the L1, 128 B to the L2, 32 B to DRAM.
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::Fixed;
    p.h = 0.5;
    p.h_2 = 0.75;
    p.L_2 = 200;
    p.req_bytes = 256;
    p.R = 1e5;
    p.n = 1000;
    p.Z = 1e-3;
    const double perRequest = p.clock_ghz * p.sm_count; // GB/s per (byte per request per cycle per SM)
    const auto plateau = [](const XModelParams &q) { return XModel(q).landmarks().plateau_gbs; };
    p.R_dram = 100;
    p.R_l2 = 1000;
    p.R_l1 = 5000;
    const auto levels = core::memoryLevels(p);
    QCOMPARE(levels[0].bytes_per_request, 256.0);
    QCOMPARE(levels[1].bytes_per_request, 128.0);
    QCOMPARE(levels[2].bytes_per_request, 32.0);
    // DRAM: 100 GB/s of 32 B a request; the L2 allows 1000/128, the L1 5000/256 requests: DRAM binds.
    QCOMPARE(*core::tightestLevel(p).level, core::KernelLimit::DRAM);
    QVERIFY(std::abs(XModel(p).byteCap() - 100 / (32 * perRequest)) < 1e-12 * XModel(p).byteCap());
    // Each plateau in request bytes: cap x 256 B.
    QVERIFY(std::abs(plateau(p) - 100.0 / 32 * 256) < 1e-9 * plateau(p));
    p.R_dram = 1000; // 31.25 requests' worth against the L2's 7.8 and the L1's 19.5
    QCOMPARE(*core::tightestLevel(p).level, core::KernelLimit::L2);
    QVERIFY(std::abs(plateau(p) - 1000.0 / 128 * 256) < 1e-9 * plateau(p));
    const core::Equilibrium op = XModel(p).operatingPoint();
    QVERIFY(std::abs(op.dram_gbs - 1000.0 / 128 * 32) < 1e-9 * op.dram_gbs); // the L2 holds DRAM at 250 GB/s
    p.R_l2 = 1e5;
    QCOMPARE(*core::tightestLevel(p).level, core::KernelLimit::L1);
    QVERIFY(std::abs(plateau(p) - 5000) < 1e-9 * 5000);
    // A level without a bandwidth has no ceiling: none of the three gives the machine without any.
    p.R_l1 = p.R_l2 = p.R_dram = 0;
    QVERIFY(!core::tightestLevel(p).level);
    QVERIFY(std::isinf(XModel(p).byteCap()));
    // Each level's own curve rises as k*m over its latency up to its ceiling.
    p.R_l2 = 1000;
    const core::HierarchyLevel l2 = core::memoryLevels(p)[1];
    QCOMPARE(core::levelSupply(l2, 2, 1), 2 / 200.0);
    QCOMPARE(core::levelSupply(l2, 1e6, 1), l2.cap);
}

void TestXModelExtensions::requestsInFlightScaleTheSupply()
{
    // Without cache f(k) = min(k*m/L, R_req): m requests in flight per warp move the MS transition to R_req*L/m.
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::None;
    p.m = 4;
    const XModel m(p);
    const double rreq = p.requestRate();
    for (double k : {1.0, 5.0, 20.0, 47.0})
        QVERIFY(std::abs(m.msSupply(k) - std::min(k * 4 / p.L, rreq)) <= 1e-12 * rreq);
    QVERIFY(std::abs(m.landmarks().delta - rreq * p.L / 4) <= 1e-12 * p.L);
    // In locality mode f_m(k) is the m = 1 supply of m*k warps whose footprint is beta/m each.
    std::mt19937_64 rng(31);
    for (int trial = 0; trial < 200; ++trial) {
        XModelParams q = randomParams(rng);
        q.cache = CacheMode::Locality;
        q.bypass = 0;
        q.m = std::uniform_real_distribution<double>(1, 8)(rng);
        XModelParams one = q;
        one.m = 1;
        one.beta = q.beta / q.m;
        const XModel mq(q), m1(one);
        for (double k : {0.5, 3.0, 17.0, 90.0})
            QVERIFY(std::abs(mq.msSupply(k) - m1.msSupply(k * q.m)) <= 1e-12 * m1.msSupply(k * q.m));
    }
}

void TestXModelExtensions::byteCapBoundsTheDramTraffic()
{
    // The DRAM byte bandwidth caps f at R_dram / (B_dram * clock * SMs): no state of the machine moves more DRAM
    // bytes than R_dram, whatever its request size; MS throughput (request bytes) may be higher when caches hit.
    std::mt19937_64 rng(32);
    int capped = 0;
    for (int trial = 0; trial < 500; ++trial) {
        XModelParams p = randomParams(rng);
        p.req_bytes = std::pow(2.0, std::uniform_int_distribution<int>(5, 10)(rng));
        p.R_dram = p.R * std::exp(std::uniform_real_distribution<double>(-1.5, 1.5)(rng));
        if (trial % 2)
            p.dram_bytes = p.req_bytes * std::uniform_real_distribution<double>(0.05, 1)(rng);
        const XModel m(p);
        const auto r = m.solve();
        for (const auto &e : r.equilibria) {
            QVERIFY(std::isfinite(e.dram_gbs) && e.dram_gbs >= 0);
            if (p.dram_bytes > 0 || p.cache == CacheMode::None)
                QVERIFY2(e.dram_gbs <= p.R_dram * (1 + 1e-9), qPrintable(QString::number(trial)));
        }
        const double cap = p.R_dram / (m.dramBytesPerRequest() * p.clock_ghz * p.sm_count);
        QVERIFY(std::abs(m.byteCap() - cap) <= 1e-12 * cap);
        for (double k : {0.5, 4.0, 33.0, 250.0})
            QVERIFY(m.msSupply(k) <= cap * (1 + 1e-12));
        capped += m.msSupply(300) >= cap * (1 - 1e-9);
    }
    QVERIFY(capped > 50);
    // A vectorized kernel: 512-byte requests at one request per warp reach the byte bandwidth, not R (counted
    // in 128-byte requests).
    XModelParams v = test::thrashingFermi();
    v.cache = CacheMode::None;
    v.R = 2000;
    v.R_dram = 3000;
    v.req_bytes = 512;
    v.n = 1000;
    v.Z = 0.01;
    const XModel mv(v);
    const auto op = mv.solve().operatingPoint();
    QVERIFY(std::abs(op.dram_gbs - 3000) <= 1e-6 * 3000);
    QVERIFY(std::abs(mv.landmarks().plateau_gbs - 3000) <= 1e-6 * 3000);
}

void TestXModelExtensions::secondCacheLevel()
{
    // Fixed mode with an L2: the shared cache's misses hit the L2 with h_2; average latency
    // h*L_s + (1-h)*(h_2*L_2 + (1-h_2)*Lm(k)); h_2 = 0 is the one-level form.
    XModelParams p = test::thrashingFermi();
    p.cache = CacheMode::Fixed;
    p.h = 0.4;
    p.h_2 = 0.7;
    p.L_2 = 200;
    const XModel m(p);
    for (double k : {1.0, 10.0, 60.0}) {
        const double lm = m.memoryLatency(k);
        const double f = k / (0.4 * p.L_s + 0.6 * (0.7 * 200 + 0.3 * lm));
        QVERIFY(std::abs(m.msSupply(k) - f) <= 1e-12 * f);
    }
    // DRAM traffic is what misses both levels.
    p.R_dram = 1e5;
    const XModel withCap(p);
    QVERIFY(std::abs(withCap.dramBytesPerRequest() - p.request_bytes * 0.6 * 0.3) < 1e-9);
}

QTEST_APPLESS_MAIN(TestXModelExtensions)
#include "tst_xmodel_extensions.moc"
