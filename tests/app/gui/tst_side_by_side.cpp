// SPDX-License-Identifier: GPL-3.0-or-later
// View > Side by Side: the X-graph, stability and occupancy views at once, every one following a slider, and
// back to the tabs exactly as they were.
#include "main_window.h"
#include "side_by_side.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "occupancy/occupancy_view.h"
#include "core/profiles/profile_library.h"
#include "stability/stability_view.h"
#include "common/value_label.h"
#include "xgraph/readout_panel.h"
#include "xgraph/xgraph_view.h"

#include <qcustomplot.h>

#include <QAction>
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace crossroof;

namespace {

/// The scroll area a view sits in (its tab's, or its pane's in the split).
QScrollArea *areaOf(QWidget *view)
{
    QWidget *viewport = view->parentWidget();
    return viewport ? qobject_cast<QScrollArea *>(viewport->parentWidget()) : nullptr;
}

QVector<QPointF> points(const QCPGraph *graph)
{
    QVector<QPointF> result;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        result << QPointF(it->key, it->value);
    return result;
}

QDockWidget *dockNamed(app::MainWindow &w, const QString &name)
{
    return w.findChild<QDockWidget *>(name);
}

} // namespace

class TestSideBySide : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void startsInTabs();
    void togglesAndEveryViewFollowsASlider();
    void isRememberedAndRestoresTheTabs();
    void aViewItLeavesOutGoesBackToTheTabs();
    void readoutValuesAreNeverCut();
};

void TestSideBySide::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("view/sideBySide"));
}

void TestSideBySide::startsInTabs()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.sideBySide()->isActive());
    QVERIFY(!w.sideBySide()->action()->isChecked());
    QCOMPARE(w.sideBySide()->action()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    QVERIFY(w.xgraphView()->isVisible());
    QVERIFY(!w.stabilityView()->isVisible()); // a tab behind the X-graph's
    QVERIFY(!w.occupancyView()->isVisible());
    QCOMPARE(areaOf(w.stabilityView())->objectName(), QString());
}

void TestSideBySide::togglesAndEveryViewFollowsASlider()
{
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showView(QStringLiteral("stability"));
    dockNamed(w, QStringLiteral("TracesDock"))->raise(); // the readout behind the traces
    QTRY_VERIFY(dockNamed(w, QStringLiteral("ReadoutDock"))->visibleRegion().isEmpty());
    QScrollArea *xgraphTab = areaOf(w.xgraphView());

    w.sideBySide()->action()->trigger();
    QVERIFY(w.sideBySide()->isActive());
    QVERIFY(w.sideBySide()->page()->isVisible());
    for (QWidget *view : {static_cast<QWidget *>(w.xgraphView()), static_cast<QWidget *>(w.stabilityView()),
                          static_cast<QWidget *>(w.occupancyView())}) {
        QVERIFY(view->isVisible());
        QVERIFY(areaOf(view)->objectName().startsWith(QLatin1String("sideBySide_")));
    }
    // The stability pane is narrower than the map and the hysteresis chart side by side: they stack, and the
    // pane scrolls down rather than cut the chart at its right.
    QTRY_VERIFY(!areaOf(w.stabilityView())->horizontalScrollBar()->isVisible());
    QVERIFY(xgraphTab->widget() == nullptr);
    QTRY_VERIFY(!dockNamed(w, QStringLiteral("ReadoutDock"))->visibleRegion().isEmpty()); // brought forward
    QVERIFY(dockNamed(w, QStringLiteral("ParametersDock"))->isVisible());
    w.stabilityView()->waitForMap();

    // A slider drag reaches the X-graph, the stability map's point and the readout.
    const auto supply = points(w.xgraphView()->supplyGraph());
    const auto current = points(w.stabilityView()->currentPoint());
    const QString readout = w.readout()->text();
    QSlider *n = w.parameterPanel()->slider(QStringLiteral("n"));
    n->setSliderDown(true);
    n->setSliderPosition(n->value() > 500 ? n->value() - 150 : n->value() + 150);
    n->setSliderDown(false);
    QTRY_VERIFY(points(w.stabilityView()->currentPoint()) != current);
    QVERIFY(points(w.xgraphView()->supplyGraph()) != supply);
    QVERIFY(w.readout()->text() != readout);

    // A profile reaches the occupancy view too (its sweeps follow the device's limits).
    QCPGraph *occupancy = w.occupancyView()->sweepPlot(1)->graph(0);
    const auto sweep = points(occupancy);
    const auto *other = core::findBundledProfile("v100");
    QVERIFY(other);
    QVERIFY(other->id != w.state()->profile().id);
    w.state()->applyProfile(*other);
    QTRY_VERIFY(points(occupancy) != sweep);

    // Back to the tabs: every view in its own tab again, the stability tab still in front.
    w.sideBySide()->action()->trigger();
    QVERIFY(!w.sideBySide()->isActive());
    QVERIFY(!w.sideBySide()->page()->isVisible());
    QCOMPARE(areaOf(w.xgraphView()), xgraphTab);
    QCOMPARE(w.currentViewName(), QStringLiteral("stability"));
    QVERIFY(w.stabilityView()->isVisible());
    QVERIFY(!w.xgraphView()->isVisible());
    QVERIFY(!w.occupancyView()->isVisible());
    QVERIFY(dockNamed(w, QStringLiteral("ReadoutDock"))->isVisible()); // the docks do not follow the tabs
    QCOMPARE(areaOf(w.stabilityView())->objectName(), QString());
    QCOMPARE(areaOf(w.occupancyView())->objectName(), QString());
}

void TestSideBySide::isRememberedAndRestoresTheTabs()
{
    {
        app::MainWindow w;
        w.sideBySide()->setActive(true);
        QVERIFY(app::SideBySide::remembered());
    }
    app::MainWindow again;
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QVERIFY(again.sideBySide()->isActive());
    QVERIFY(again.sideBySide()->action()->isChecked());
    QVERIFY(again.occupancyView()->isVisible());
    again.sideBySide()->setActive(false);
    QVERIFY(!app::SideBySide::remembered());
    QVERIFY(!again.sideBySide()->action()->isChecked());
    QVERIFY(again.xgraphView()->isVisible());
    QVERIFY(!again.occupancyView()->isVisible());
}

void TestSideBySide::aViewItLeavesOutGoesBackToTheTabs()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.sideBySide()->setActive(true);
    QVERIFY(w.showView(QStringLiteral("stability"))); // one of the three: stays side by side
    QVERIFY(w.sideBySide()->isActive());
    QVERIFY(w.showView(QStringLiteral("markov")));
    QVERIFY(!w.sideBySide()->isActive());
    QCOMPARE(w.currentViewName(), QStringLiteral("markov"));
    QVERIFY(!w.xgraphView()->isVisible());
    QVERIFY(!app::SideBySide::remembered());
}

void TestSideBySide::readoutValuesAreNeverCut()
{
    // Side by Side at 1600x1000 gives the readout dock the least room; its area does not scroll sideways, so
    // a value wider than the dock was cut at the dock's edge ("2.173 TB", "memo").
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The thrashing sample: with a measured trace the landmarks say where each comes from ("(parameters)").
    QVERIFY(w.openSession(QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof")));
    w.sideBySide()->setActive(true);
    QTRY_VERIFY(!dockNamed(w, QStringLiteral("ReadoutDock"))->visibleRegion().isEmpty());
    auto *area = qobject_cast<QScrollArea *>(w.readout()->parentWidget()->parentWidget());
    QVERIFY(area);
    // The user drags the dock's edge as far as it goes.
    w.resizeDocks({dockNamed(w, QStringLiteral("ReadoutDock"))}, {100}, Qt::Horizontal);
    const auto check = [&] {
        int shown = 0;
        for (const auto *value : w.readout()->findChildren<widgets::ValueLabel *>()) {
            if (!value->isVisible() || value->text().isEmpty())
                continue;
            ++shown;
            const int right = value->mapTo(area->viewport(), QPoint(value->width(), 0)).x();
            if (right > area->viewport()->width() || value->width() < value->fontMetrics().horizontalAdvance(value->text()))
                return QStringLiteral("cut: \"%1\" (%2 px of %3, right edge %4 of %5)")
                        .arg(value->text())
                        .arg(value->width())
                        .arg(value->fontMetrics().horizontalAdvance(value->text()))
                        .arg(right)
                        .arg(area->viewport()->width());
        }
        return shown > 5 ? QString() : QStringLiteral("only %1 values shown").arg(shown);
    };
    QTRY_COMPARE(check(), QString());
    // A value that grows (more warps, a wider number) widens the dock again.
    w.state()->setValue(QStringLiteral("n"), 1000);
    QTRY_COMPARE(check(), QString());
}

QTEST_MAIN(TestSideBySide)
#include "tst_side_by_side.moc"
