// SPDX-License-Identifier: GPL-3.0-or-later
// Physical results of a joint calibration (docs/MODEL.md 7): a DRAM never faster than the profile's peak, a
// level never faster than the one above it, and a key the measurements do not determine reported and kept,
// not moved; on halves of the shared H100 SXM measurements and on sources the model generated.

#include "core/calibration/joint_calibration.h"
#include "core/calibration/physical_bounds.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/xmodel.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace crossroof::core;

namespace {

const std::string kData = CROSSROOF_SOURCE_DIR "/tests/data/";
const std::string kH100 = kData + "h100_sxm/";

double relative(double a, double b)
{
    return std::abs(a - b) / std::abs(b);
}

/// Every second row of the family and kernels (from FIRST): one half of the same measurements.
CalibrationSources half(int first)
{
    CalibrationSources s;
    KernelFamily family = readKernelFamily(kH100 + "family.csv");
    std::vector<FamilyRow> rows;
    for (std::size_t i = std::size_t(first); i < family.rows.size(); i += 2)
        rows.push_back(family.rows[i]);
    family.rows = rows;
    s.family = family;
    for (const std::string &file : {kH100 + "torch_raw.csv", kData + "ncu_h100_raw.csv"}) {
        KernelSet set = readKernelSet(file, 32);
        std::vector<KernelSample> kernels;
        for (std::size_t i = std::size_t(first); i < set.kernels.size(); i += 2)
            kernels.push_back(set.kernels[i]);
        set.kernels = kernels;
        s.kernels.push_back(set);
    }
    return s;
}

const KeyOrigin &origin(const JointCalibration &fit, const std::string &key)
{
    return *std::find_if(fit.origins.begin(), fit.origins.end(),
                         [&](const KeyOrigin &o) { return o.key == key; });
}

/// A machine of the H100's shape and the kernels it runs: vectorized ones held by R_dram, and a family.
XModelParams truth()
{
    XModelParams p = findBundledProfile("h100-sxm")->params;
    p.R = 1800;
    p.R_dram = 2600;
    p.L = 700;
    p.L_2 = 250;
    return p;
}

CalibrationSources generated()
{
    CalibrationSources s;
    KernelFamily family;
    family.source = "family.csv";
    int line = 2;
    for (double Z : {17.0, 48.0, 144.0}) {
        for (double n : {2.0, 8.0, 24.0, 48.0, 64.0})
            family.rows.push_back({n, Z, 1, 0, line++});
    }
    const FamilyPrediction p = predictFamily(family, truth());
    for (std::size_t i = 0; i < family.rows.size(); ++i)
        family.rows[i].gbs = p.rows[i].predicted_gbs;
    s.family = family;
    KernelSet set;
    set.source = "kernels.csv";
    for (double n : {32.0, 48.0, 64.0}) {
        KernelSample k;
        k.id = std::to_string(int(n));
        k.name = "vectorized";
        k.line = int(n);
        k.workload.n = n;
        k.workload.Z = 6;
        k.workload.req_bytes = 512;
        k.workload.dram_bytes = 512;
        k.workload.m = 4;
        k.measured_gbs = XModel(kernelParams(truth(), k.workload)).solve().operatingPoint().dram_gbs;
        set.kernels.push_back(k);
    }
    s.kernels.push_back(set);
    return s;
}

} // namespace

class TestPhysicalCalibration : public QObject
{
    Q_OBJECT

private slots:
    void halvesOfTheSameDataAgree()
    {
        // The shared H100 SXM family and its 21 profiled kernels, split in two halves (every second row):
        // each half fitted from the bundled profile gives the same DRAM bandwidth within 1 %, never above the
        // profile's peak (2964 GB/s: one half would take it to 2968). L_2, which no half determines (the one
        // L2-served kernel moves it by less than the noise), stays the profile's 284.8 cycles and is
        // reported, where the fit moved it to 1 and 1985 cycles.
        const XModelParams start = findBundledProfile("h100-sxm")->params;
        const std::vector<std::string> keys {"R", "R_dram", "L", "M", "L_2"};
        const JointCalibration a = calibrateJointly(half(0), start, keys);
        const JointCalibration b = calibrateJointly(half(1), start, keys);
        qInfo("halves: R_dram %.1f and %.1f GB/s, R %.1f and %.1f, L_2 %.4g and %.4g", a.params.R_dram,
              b.params.R_dram, a.params.R, b.params.R, a.params.L_2, b.params.L_2);
        for (const JointCalibration *fit : {&a, &b}) {
            QVERIFY(fit->params.R_dram <= start.R_dram);
            QVERIFY(fit->params.R <= start.R_l2);
            QVERIFY(fit->params.L >= fit->params.L_2);
            QCOMPARE(fit->params.L_2, start.L_2);
            QVERIFY(origin(*fit, "L_2").undetermined);
            QVERIFY(origin(*fit, "L_2").within_noise);
            QVERIFY(!origin(*fit, "R_dram").undetermined);
            // The DRAM bandwidth comes from the real kernels.
            QCOMPARE(fit->sources[origin(*fit, "R_dram").shares.front().first].kind, SourceKind::Kernels);
        }
        QVERIFY2(relative(a.params.R_dram, b.params.R_dram) < 0.01,
                 qPrintable(QString::number(a.params.R_dram) + " " + QString::number(b.params.R_dram)));
        QVERIFY(relative(a.params.R, b.params.R) < 0.05);
        QVERIFY(relative(a.params.L, b.params.L) < 0.02);
    }

    void dramNeverAboveTheProfilesPeak()
    {
        // Kernels that move 2600 GB/s fitted from a profile whose DRAM peak is 2400: R_dram stops at the
        // peak, and the fit says so.
        XModelParams start = truth();
        start.R_dram = 2400;
        const JointCalibration fit = calibrateJointly(generated(), start, {"R", "R_dram", "L"});
        QVERIFY(relative(fit.params.R_dram, 2400) < 1e-6);
        QCOMPARE(origin(fit, "R_dram").bound, std::string("the profile's DRAM peak R_dram = 2400 GB/s"));
        QVERIFY(std::any_of(fit.notes.begin(), fit.notes.end(), [](const std::string &n) {
            return n.find("R_dram = 2400 is held at the profile's DRAM peak") != std::string::npos;
        }));
        // With the peak above what the kernels move, the fit finds their 2600 GB/s.
        start.R_dram = 3000;
        const JointCalibration free = calibrateJointly(generated(), start, {"R", "R_dram", "L"});
        QVERIFY2(relative(free.params.R_dram, 2600) < 1e-3, qPrintable(QString::number(free.params.R_dram)));
        QVERIFY(origin(free, "R_dram").bound.empty());
    }

    void noLevelFasterThanTheOneAbove()
    {
        // The ranges a machine allows: R (the requests past the L1) at most R_l2, R_dram at most R_l2 and its
        // peak, L at least the held L_2, L_2 between L_s and the held L.
        XModelParams m = truth();
        m.R_l2 = 1500;
        const std::vector<std::string> fit {"R", "R_dram", "L"};
        QCOMPARE(physicalRange("R", m, fit).hi, 1500.0);
        QCOMPARE(physicalRange("R_dram", m, fit).hi, 1500.0);
        QCOMPARE(physicalRange("L", m, fit).lo, 250.0);
        QCOMPARE(physicalRange("L_2", m, {"L_2"}).hi, 700.0);
        QCOMPARE(physicalRange("L_2", m, {"L_2"}).lo, m.L_s);
        QCOMPARE(physicalRange("L", m, {"L", "L_2"}).lo, m.L_s); // both fitted: L_2 is no bound of L
        // A machine without levels keeps the slider's range.
        XModelParams bare;
        QCOMPARE(physicalRange("R", bare, fit).hi, calibrationBounds("R").second);
        QCOMPARE(physicalRange("M", bare, {"M"}).lo, 0.01);
        // Fitted: the family's request rate 1800 GB/s cannot pass an L2 of 1500.
        const JointCalibration capped = calibrateJointly(generated(), m, fit);
        QVERIFY(relative(capped.params.R, 1500) < 1e-6);
        QVERIFY(capped.params.R_dram <= 1500 * (1 + 1e-9));
    }

    void doublePrecisionProfileCalibrates()
    {
        // The bundled gtx570-dp profile issues M = 0.125 warp-instructions per cycle (4 DP lanes per 32
        // threads): a family its model predicts is fitted back to it from M = 0.5 (the bound was 1).
        const XModelParams dp = findBundledProfile("gtx570-dp")->params;
        QCOMPARE(dp.M, 0.125);
        QVERIFY(physicalRange("M", dp, {"M"}).lo <= 0.01);
        CalibrationSources s;
        KernelFamily family;
        family.source = "dp.csv";
        int line = 1;
        for (double n : {4.0, 16.0, 48.0}) {
            for (double Z : {1.0, 4.0, 16.0})
                family.rows.push_back({n, Z, 1, 1, ++line});
        }
        const FamilyPrediction measured = predictFamily(family, dp);
        for (std::size_t i = 0; i < family.rows.size(); ++i)
            family.rows[i].gbs = measured.rows[i].predicted_gbs;
        s.family = family;
        XModelParams start = dp;
        start.M = 0.5;
        const JointCalibration fit = calibrateJointly(s, start, {"M", "L"});
        QVERIFY2(relative(fit.params.M, 0.125) < 1e-3, qPrintable(QString::number(fit.params.M)));
        QVERIFY(fit.at_bound.empty());
    }

    void undeterminedKeyIsReportedNotMoved()
    {
        // The generated kernels and family say nothing of L_2 (no request hits the L2): it keeps the start's
        // value, reported as not determined, whatever the fit's starts wandered to.
        XModelParams start = truth();
        start.L_2 = 400;
        const JointCalibration fit = calibrateJointly(generated(), start, {"R", "R_dram", "L", "L_2"});
        QCOMPARE(fit.params.L_2, 400.0);
        QVERIFY(origin(fit, "L_2").undetermined);
        QVERIFY(relative(fit.params.R_dram, 2600) < 1e-3);
        QVERIFY(relative(fit.params.L, 700) < 1e-3);
    }
};

QTEST_GUILESS_MAIN(TestPhysicalCalibration)
#include "tst_physical_calibration.moc"
