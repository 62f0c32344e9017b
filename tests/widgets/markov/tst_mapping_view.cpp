// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/cpu_topology.h"
#include "markov/mapping_view.h"
#include "core/profiles/profile_library.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QTableWidget>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

std::vector<core::HardwareProfile> cpuProfiles()
{
    std::vector<core::HardwareProfile> out;
    for (const auto &p : core::bundledProfiles())
        out.push_back(p); // the view keeps only those with strategies
    return out;
}

/// The bar drawn for table row ROW.
double barValue(const MappingView &view, int row)
{
    for (QCPBars *bars : view.bars()) {
        const auto it = bars->data()->findBegin(row, false);
        if (it != bars->data()->constEnd() && it->key == row)
            return it->value;
    }
    return -1;
}

double cpiOf(const MappingView &view, const std::string &id)
{
    for (const auto &r : view.predictions()) {
        if (r.strategy->id == id)
            return r.result.cpi;
    }
    return -1;
}

} // namespace

class TestMappingView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void withoutCpuProfilesSaysSo();
    void clovertownStrategiesSideBySide();
    void measuredPointPerStrategy();
    void badCellIsRefused();
    void commonQRaisesEveryCpi();
    void settingsRoundTrip();
};

void TestMappingView::withoutCpuProfilesSaysSo()
{
    MappingView view;
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY(view.infoLabel()->text().contains(QStringLiteral("No CPU profile")));
    view.setCpuProfiles({*core::findBundledProfile("gtx570-sp")}); // a GPU has no strategies
    QCOMPARE(view.profileBox()->count(), 0);
    QCOMPARE(view.table()->rowCount(), 0);
}

void TestMappingView::clovertownStrategiesSideBySide()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    QCOMPARE(view.profileBox()->currentData().toString(), QStringLiteral("clovertown-x5365"));
    QCOMPARE(view.table()->rowCount(), 12);
    QCOMPARE(view.bars().size(), 3); // 2, 4 and 8 threads
    QCOMPARE(view.bars()[0]->name(), QStringLiteral("2 threads"));
    // Every bar is the CPI core predicts for that strategy at the common point.
    const auto expected = core::compareMappings(*core::findBundledProfile("clovertown-x5365")->topology, 0.5, 0.862);
    for (int row = 0; row < 12; ++row) {
        QCOMPARE(barValue(view, row), expected[std::size_t(row)].result.cpi);
        QCOMPARE(view.table()->item(row, MappingView::Strategy)->text(),
                 QString::fromStdString(expected[std::size_t(row)].strategy->id));
    }
    // Table 5.17 in the table: 8T_3 takes 2 cores and 1 L2.
    QCOMPARE(view.table()->item(10, MappingView::Cores)->text(), QStringLiteral("2"));
    QCOMPARE(view.table()->item(10, MappingView::Caches)->text(), QStringLiteral("1"));
    QCOMPARE(view.table()->item(10, MappingView::Model)->text(), QStringLiteral("1 × 8"));
    QVERIFY(view.infoLabel()->text().contains(QStringLiteral("only on the number of threads")));
}

void TestMappingView::measuredPointPerStrategy()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    const double before = cpiOf(view, "2T_2");
    QCOMPARE(before, cpiOf(view, "2T_1"));
    // Typing a measured q for 2T_2 (row 1) moves its bar only.
    view.table()->item(1, MappingView::Q)->setText(QStringLiteral("0.99"));
    QCOMPARE(view.predictions()[1].q, 0.99);
    QCOMPARE(view.predictions()[1].p, 0.5);
    QVERIFY(cpiOf(view, "2T_2") > before);
    QCOMPARE(cpiOf(view, "2T_1"), before);
    QCOMPARE(barValue(view, 1), cpiOf(view, "2T_2"));
    QCOMPARE(view.settings().points.size(), std::size_t(1));
    QVERIFY(!view.infoLabel()->text().contains(QStringLiteral("only on the number of threads")));
    // Clearing the cell goes back to the common point.
    view.table()->item(1, MappingView::Q)->setText(QString());
    QCOMPARE(cpiOf(view, "2T_2"), before);
    QVERIFY(view.settings().points.empty());
}

void TestMappingView::badCellIsRefused()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    view.table()->item(0, MappingView::P)->setText(QStringLiteral("1.5"));
    QVERIFY(view.settings().points.empty());
    QCOMPARE(view.table()->item(0, MappingView::P)->text(), QStringLiteral("0.5"));
    QVERIFY(view.infoLabel()->text().contains(QStringLiteral("'1.5' is not a probability")));
}

void TestMappingView::commonQRaisesEveryCpi()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    std::vector<double> before;
    for (const auto &r : view.predictions())
        before.push_back(r.result.cpi);
    view.qBox()->setValue(0.95);
    for (std::size_t i = 0; i < before.size(); ++i)
        QVERIFY(view.predictions()[i].result.cpi > before[i]); // CPI rises with q
}

void TestMappingView::settingsRoundTrip()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    core::MappingSettings s;
    s.p = 0.2;
    s.q = 0.7;
    s.points = {{"4T_4", 0.3, 0.9}};
    view.setSettings(s);
    QVERIFY(view.settings() == s);
    QCOMPARE(view.pBox()->value(), 0.2);
    QCOMPARE(view.predictions()[7].p, 0.3);
    QCOMPARE(view.predictions()[6].p, 0.2);
}

QTEST_MAIN(TestMappingView)
#include "tst_mapping_view.moc"
