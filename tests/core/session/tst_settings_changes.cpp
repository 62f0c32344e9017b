// SPDX-License-Identifier: GPL-3.0-or-later
// The text of an undo step: the controls a change of a view's settings touched, by their labels, and both values.
#include "core/session/settings_changes.h"

#include <QTest>

using namespace crossroof;

namespace {

QString said(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestSettingsChanges : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesTheControlAndBothValues();
    void nothingChangedSaysNothing();
    void manyFieldsAreCut();
    void zigzagFieldsOfTheOccupancyInputs();
};

void TestSettingsChanges::namesTheControlAndBothValues()
{
    core::SkeletonSettings k;
    core::SkeletonSettings k8 = k;
    k8.unroll = 8;
    QCOMPARE(said(core::describeChange(k, k8)), QStringLiteral("Unroll 4 → 8"));

    core::MarkovSettings m;
    core::MarkovSettings uniform = m;
    uniform.grid = "uniform:100";
    QCOMPARE(said(core::describeChange(m, uniform)), QStringLiteral("Grid thesis → uniform 100"));
    uniform.steps = 10;
    QCOMPARE(said(core::describeChange(m, uniform)),
             QStringLiteral("Grid thesis → uniform 100; Transient steady state → 10 steps"));

    core::OccupancySettings o;
    core::OccupancySettings carve = o;
    carve.smem_config = 102400;
    carve.requested_blocks_max = 500;
    QCOMPARE(said(core::describeChange(o, carve)),
             QStringLiteral("Shared memory/SM largest → 102400 B; B_r up to automatic → 500"));

    core::MappingSettings p;
    core::MappingSettings measured = p;
    measured.points.push_back({"8T_1", 0.5, 0.99});
    QCOMPARE(said(core::describeChange(p, measured)), QStringLiteral("8T_1 (p, q) none → (0.5, 0.99)"));
    QCOMPARE(said(core::describeChange(measured, p)), QStringLiteral("8T_1 (p, q) (0.5, 0.99) → none"));

    core::ExtrapolateSettings e;
    core::ExtrapolateSettings checked = e;
    checked.measured = core::readCpiMeasurements(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-measured-cpi.csv");
    checked.measured_source = "cpi.csv";
    QCOMPARE(said(core::describeChange(e, checked)), QStringLiteral("Measured CPI none → 12 measurements of cpi.csv"));

    core::RooflineSettings r;
    core::RooflineSettings noNames = r;
    noNames.names = false;
    QCOMPARE(said(core::describeChange(r, noNames)), QStringLiteral("Names on → off"));
}

void TestSettingsChanges::nothingChangedSaysNothing()
{
    QVERIFY(core::describeChange(core::TmmSettings{}, core::TmmSettings{}).empty());
    QVERIFY(core::describeChange(core::ExtrapolateSettings{}, core::ExtrapolateSettings{}).empty());
    QVERIFY(core::describeChange(core::StabilitySettings{}, core::StabilitySettings{}).empty());
}

void TestSettingsChanges::manyFieldsAreCut()
{
    // The APSP preset fills five TMM fields: the first three, then how many more.
    core::TmmSettings t;
    core::TmmSettings apsp = t;
    apsp.work = "4.4e12";
    apsp.span = "";
    apsp.transactions = "1.7e10";
    apsp.requested_blocks = "65536";
    apsp.apsp_chunk = "16";
    QCOMPARE(said(core::describeChange(t, apsp)),
             QStringLiteral("T1 1e9 → 4.4e12; T_inf 0 → (empty); M 1e7 → 1.7e10; and 2 more"));
}

void TestSettingsChanges::zigzagFieldsOfTheOccupancyInputs()
{
    core::OccupancySettings o;
    core::OccupancySettings sms = o;
    sms.sm_count = 80;
    QVERIFY(core::onlyZigzagInputsDiffer(o, sms));
    core::OccupancySettings regs = sms;
    regs.regs_per_thread = 64;
    QVERIFY(!core::onlyZigzagInputsDiffer(o, regs));
    QVERIFY(!core::onlyZigzagInputsDiffer(o, o));
}

QTEST_GUILESS_MAIN(TestSettingsChanges)
#include "tst_settings_changes.moc"
