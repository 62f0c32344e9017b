// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/cpu_topology.h"
#include "markov/mapping_view.h"
#include "core/profiles/profile_library.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
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
    void everyCpuProfileIsOffered();
    void ownStrategies();
    void ownStrategyThroughTheDialog();
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

void TestMappingView::everyCpuProfileIsOffered()
{
    // The Clovertown with the thesis' strategies, the EPYC and the Xeon Phi with those derived from their caches.
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    QCOMPARE(view.profileBox()->count(), 3);
    view.profileBox()->setCurrentIndex(view.profileBox()->findData(QStringLiteral("epyc-9654")));
    QVERIFY(cpiOf(view, "16T_scatter") > 0);
    QVERIFY2(view.infoLabel()->text().contains(QStringLiteral("1 socket, 12 L3 caches, 96 cores of 2 threads")),
             qPrintable(view.infoLabel()->text()));
}

void TestMappingView::ownStrategies()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    view.profileBox()->setCurrentIndex(view.profileBox()->findData(QStringLiteral("clovertown-x5365")));
    const std::size_t before = view.predictions().size();
    // Refused, with the reason: a core the Clovertown lacks, text that is no core, a name in use.
    QCOMPARE(view.addOwnStrategy(QStringLiteral("far"), QStringLiteral("0, 9")),
             QStringLiteral("core 9 is in no cache of the topology"));
    QVERIFY(view.addOwnStrategy(QStringLiteral("x"), QStringLiteral("0, two")).contains(QStringLiteral("'two'")));
    QVERIFY(view.addOwnStrategy(QStringLiteral("2T_1"), QStringLiteral("0, 1")).contains(QStringLiteral("used twice")));
    QCOMPARE(view.predictions().size(), before);
    // Two threads on each of the cores 0 and 4, which share an L2: one group of four threads.
    QCOMPARE(view.addOwnStrategy(QStringLiteral("pairs"), QStringLiteral("0 0; 4,4")), QString());
    QCOMPARE(view.predictions().size(), before + 1);
    const core::MappingPrediction &mine = view.predictions().back();
    QCOMPARE(mine.strategy->id, std::string("pairs"));
    QCOMPARE(mine.usage.threads_per_cache, (std::vector<int> {4}));
    QCOMPARE(mine.result.cpi, cpiOf(view, "4T_1")); // at one (p, q), four threads as any four
    // Kept in the settings (a session), with a measured point of its own.
    view.setStrategyPoint("pairs", std::pair(0.2, 0.5));
    const core::MappingSettings saved = view.settings();
    QCOMPARE(saved.own_strategies.size(), std::size_t(1));
    QCOMPARE(saved.own_strategies.front().cores, (std::vector<int> {0, 0, 4, 4}));
    MappingView other;
    other.setCpuProfiles(cpuProfiles());
    other.setSettings(saved);
    QCOMPARE(other.predictions().back().strategy->id, std::string("pairs"));
    QCOMPARE(other.predictions().back().p, 0.2);
    // Removed, with its point; the profile's own stay.
    view.removeOwnStrategy("pairs");
    view.removeOwnStrategy("2T_1");
    QCOMPARE(view.predictions().size(), before);
    QVERIFY(view.settings().points.empty());
    // A session's strategy this topology refuses is left out, and the view says so.
    core::MappingSettings bad = saved;
    bad.own_strategies.front().cores = {0, 99};
    other.setSettings(bad);
    QCOMPARE(other.predictions().size(), before);
    QVERIFY2(other.infoLabel()->text().contains(QStringLiteral("pairs: core 99 is in no cache")),
             qPrintable(other.infoLabel()->text()));
}

void TestMappingView::ownStrategyThroughTheDialog()
{
    MappingView view;
    view.setCpuProfiles(cpuProfiles());
    view.profileBox()->setCurrentIndex(view.profileBox()->findData(QStringLiteral("clovertown-x5365")));
    const std::size_t before = view.predictions().size();
    QString problem;
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QLineEdit *>(QStringLiteral("strategyName"))->setText(QStringLiteral("spread"));
        auto *cores = dialog->findChild<QLineEdit *>(QStringLiteral("strategyCores"));
        cores->setText(QStringLiteral("0, 12"));
        auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        ok->click();
        // Refused: the dialog stays, with the reason, and takes the corrected text.
        QVERIFY(dialog->isVisible());
        problem = dialog->findChild<QLabel *>(QStringLiteral("strategyProblem"))->text();
        cores->setText(QStringLiteral("0, 1, 2, 3"));
        ok->click();
    });
    view.addStrategyButton()->click();
    QCOMPARE(problem, QStringLiteral("core 12 is in no cache of the topology"));
    QCOMPARE(view.predictions().size(), before + 1);
    QCOMPARE(view.predictions().back().usage.caches, 4);
    // Selecting it enables Remove Strategy, which removes it.
    view.table()->setCurrentCell(int(before), 0);
    QVERIFY(view.removeStrategyButton()->isEnabled());
    view.removeStrategyButton()->click();
    QCOMPARE(view.predictions().size(), before);
    view.table()->setCurrentCell(0, 0);
    QVERIFY(!view.removeStrategyButton()->isEnabled()); // a strategy of the profile
}

QTEST_MAIN(TestMappingView)
#include "tst_mapping_view.moc"
