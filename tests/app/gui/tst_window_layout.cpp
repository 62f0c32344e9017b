// SPDX-License-Identifier: GPL-3.0-or-later
// The window's layout: each dock with the views it belongs to, in the same place whenever it is shown, the
// layout a user made restored at the next start, View > Reset Layout, and every view usable and most of the
// width in a 1024x700 window.
#include "main_window.h"
#include "window_layout.h"
#include "common/fine_slider.h"
#include "common/parameter_panel.h"
#include "calibration/joint_calibration_dialog.h"
#include "common/parameter_state.h"
#include "export/export_dialog.h"
#include "markov/counters_dialog.h"
#include "stability/advisor_panel.h"
#include "stability/hysteresis_chart.h"
#include "common/value_label.h"
#include "xgraph/readout_panel.h"
#include "kernels/kernel_table_view.h"
#include "traces/traces_panel.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QScreen>
#include <QSlider>
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QHeaderView>
#include <QTableWidget>
#include <QStandardPaths>
#include <QLabel>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QTest>

#include <cmath>

using namespace crossroof;

namespace {

const QStringList kDocks = {QStringLiteral("ParametersDock"), QStringLiteral("ReadoutDock"),
                            QStringLiteral("TracesDock"), QStringLiteral("KernelsDock")};

QDockWidget *dockNamed(app::MainWindow &w, const QString &name)
{
    return w.findChild<QDockWidget *>(name);
}

/// Whether a user sees DOCK: open, and in front of any docks tabbed with it.
bool shown(const QDockWidget *dock)
{
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

/// Where each dock is: its area, whether it floats or is shown, and the rectangle of a shown one (a closed
/// dock, or one behind another's tab, has none that matters: Qt moves those out of sight).
QStringList dockPlaces(app::MainWindow &w)
{
    QStringList places;
    for (const QString &name : kDocks) {
        QDockWidget *dock = dockNamed(w, name);
        QString place = QStringLiteral("%1 area %2 floating %3 shown %4")
                            .arg(name)
                            .arg(int(w.dockWidgetArea(dock)))
                            .arg(dock->isFloating())
                            .arg(shown(dock));
        if (shown(dock)) {
            const QRect r = dock->geometry();
            place += QStringLiteral(" at %1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
        }
        places << place;
    }
    return places;
}

QAction *menuAction(app::MainWindow &w, const QString &menuText, const QString &text)
{
    for (QAction *menu : w.menuBar()->actions()) {
        if (menu->text() != menuText || !menu->menu())
            continue;
        for (QAction *action : menu->menu()->actions()) {
            if (action->text() == text)
                return action;
        }
    }
    return nullptr;
}

} // namespace

class TestWindowLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void docksFollowTheirViews();
    void aDockPutAwayIsSavedShown();
    void narrowWindowsStackTheDocks();
    void docksComingBackInANarrowWindowStack();
    void layoutIsRestoredAtTheNextStart();
    void resetLayoutBringsEveryDockBack();
    void everyViewFitsA1024x700Window();
    void theWindowOpensInsideTheScreen();
    void dialogsOpenInsideTheScreen();
    void theExportDialogFitsAScreenAtAScaleFactorOf2();
    void theLargeDialogsFitAScreenAtAScaleFactorOf2();
    void slidersKeepTheirLength_data();
    void slidersKeepTheirLength();
    void theOpenShortcutWorksRightAfterTheStart();
};

void TestWindowLayout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestWindowLayout::init()
{
    app::WindowLayout::forget();
    QSettings().remove(QStringLiteral("view/sideBySide"));
}

void TestWindowLayout::docksFollowTheirViews()
{
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(shown(dockNamed(w, QStringLiteral("ReadoutDock")))); // in front at the start
    QVERIFY(!shown(dockNamed(w, QStringLiteral("TracesDock"))));
    const QStringList before = dockPlaces(w);
    const int centre = w.centralWidget()->width();
    // The GPU views keep every dock where it was; the CPU views have their inputs in the view, and the GPU
    // parameters and the X-model's readout go away while they are in front.
    const QStringList gpu = {QStringLiteral("xgraph"), QStringLiteral("stability"), QStringLiteral("roofline"),
                             QStringLiteral("prediction")};
    const QStringList cpu = {QStringLiteral("markov"), QStringLiteral("mapping"), QStringLiteral("extrapolate")};
    for (const QString &view : app::MainWindow::viewNames()) {
        QVERIFY(w.showView(view));
        QCoreApplication::processEvents();
        if (gpu.contains(view))
            QCOMPARE(dockPlaces(w), before);
        if (cpu.contains(view)) {
            for (const QString &name : kDocks) {
                QVERIFY2(!dockNamed(w, name)->isVisible(), qPrintable(view + QLatin1Char(' ') + name));
                QVERIFY(w.windowLayout()->isPutAway(dockNamed(w, name)));
            }
            QCOMPARE(w.centralWidget()->width(), w.width());
            QVERIFY(w.centralWidget()->width() > centre);
            // The View menu still shows a dock put away: the user's choice stands until the next view.
        }
    }
    // A dock the user closes stays closed when its views come back; one put away comes back.
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    dockNamed(w, QStringLiteral("KernelsDock"))->close();
    QVERIFY(w.showView(QStringLiteral("markov")));
    QVERIFY(!dockNamed(w, QStringLiteral("ParametersDock"))->isVisible());
    QVERIFY(!w.windowLayout()->isPutAway(dockNamed(w, QStringLiteral("KernelsDock"))));
    QVERIFY(w.showView(QStringLiteral("roofline")));
    QCoreApplication::processEvents();
    QVERIFY(shown(dockNamed(w, QStringLiteral("ParametersDock"))));
    QVERIFY(!dockNamed(w, QStringLiteral("KernelsDock"))->isVisible());
    // Side by Side shows the docks of its views.
    QVERIFY(w.showView(QStringLiteral("markov")));
    w.sideBySide()->setActive(true);
    QCoreApplication::processEvents();
    QVERIFY(shown(dockNamed(w, QStringLiteral("ParametersDock"))));
    QVERIFY(shown(dockNamed(w, QStringLiteral("ReadoutDock"))));
    w.sideBySide()->setActive(false);
}

void TestWindowLayout::aDockPutAwayIsSavedShown()
{
    {
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.showView(QStringLiteral("markov")));
        QVERIFY(!dockNamed(w, QStringLiteral("ParametersDock"))->isVisible());
        QVERIFY(w.close());
    }
    app::MainWindow again;
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QVERIFY(again.showView(QStringLiteral("xgraph")));
    QCoreApplication::processEvents();
    QVERIFY(shown(dockNamed(again, QStringLiteral("ParametersDock"))));
    QVERIFY(shown(dockNamed(again, QStringLiteral("ReadoutDock"))));
}

void TestWindowLayout::narrowWindowsStackTheDocks()
{
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QStringList wide = dockPlaces(w);
    QDockWidget *readout = dockNamed(w, QStringLiteral("ReadoutDock"));
    QCOMPARE(w.dockWidgetArea(readout), Qt::RightDockWidgetArea);
    w.resize(1024, 700);
    QTRY_COMPARE(w.width(), 1024);
    QTRY_VERIFY(w.windowLayout()->isStacked());
    QCoreApplication::processEvents();
    // One column on the left: the parameters above, the readout (still in front of its tabs) below.
    for (const QString &name : kDocks)
        QCOMPARE(w.dockWidgetArea(dockNamed(w, name)), Qt::LeftDockWidgetArea);
    QVERIFY(shown(readout));
    QVERIFY(readout->geometry().top() > dockNamed(w, QStringLiteral("ParametersDock"))->geometry().top());
    QVERIFY2(w.centralWidget()->width() * 100 >= 60 * w.width(), qPrintable(QString::number(w.centralWidget()->width())));
    // Wide again: back on the right as they were.
    w.resize(1600, 1000);
    QTRY_VERIFY(!w.windowLayout()->isStacked());
    QCoreApplication::processEvents();
    QCOMPARE(w.dockWidgetArea(readout), Qt::RightDockWidgetArea);
    QCOMPARE(w.dockWidgetArea(dockNamed(w, QStringLiteral("KernelsDock"))), Qt::RightDockWidgetArea);
    QVERIFY(shown(readout));
}

void TestWindowLayout::docksComingBackInANarrowWindowStack()
{
    // Made narrow while the Bandwidth view (no left-hand dock) is in front: nothing to stack then. The
    // X-graph and Occupancy views bring the parameters back: stacked with the right-hand docks, the view with
    // its share of the width and, on Occupancy, its three plots without scrolling sideways.
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (const QString &first : {QStringLiteral("xgraph"), QStringLiteral("occupancy")}) {
        w.resize(1600, 1000);
        QTRY_COMPARE(w.width(), 1600);
        QVERIFY(w.showView(QStringLiteral("bandwidth")));
        QCoreApplication::processEvents();
        w.resize(1024, 700);
        QTRY_COMPARE(w.width(), 1024);
        QCoreApplication::processEvents();
        QVERIFY(w.showView(first));
        QTRY_VERIFY2(w.windowLayout()->isStacked(), qPrintable(first));
        QCoreApplication::processEvents();
        QVERIFY2(w.centralWidget()->width() * 100 >= 60 * w.width(),
                 qPrintable(QStringLiteral("%1: %2").arg(first).arg(w.centralWidget()->width())));
        QCOMPARE(w.dockWidgetArea(dockNamed(w, QStringLiteral("TracesDock"))), Qt::LeftDockWidgetArea);
        auto *area = qobject_cast<QScrollArea *>(w.centralWidget()->findChild<QTabWidget *>()->currentWidget());
        QVERIFY(area);
        QTRY_VERIFY2(!area->horizontalScrollBar()->isVisible(), qPrintable(first));
    }
}

void TestWindowLayout::layoutIsRestoredAtTheNextStart()
{
    QStringList made;
    {
        app::MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The user moves the traces to the left, under the parameters, and closes the kernels.
        w.addDockWidget(Qt::LeftDockWidgetArea, dockNamed(w, QStringLiteral("TracesDock")), Qt::Vertical);
        dockNamed(w, QStringLiteral("KernelsDock"))->close();
        QCoreApplication::processEvents();
        made = dockPlaces(w);
        QVERIFY(w.close()); // nothing to save: the session is unmodified
    }
    app::MainWindow again;
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QCOMPARE(again.size(), QSize(1600, 1000));
    QCOMPARE(again.dockWidgetArea(dockNamed(again, QStringLiteral("TracesDock"))), Qt::LeftDockWidgetArea);
    QVERIFY(!shown(dockNamed(again, QStringLiteral("KernelsDock"))));
    QCOMPARE(dockPlaces(again), made);
}

void TestWindowLayout::resetLayoutBringsEveryDockBack()
{
    QStringList first;
    {
        app::MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        first = dockPlaces(w);
    }
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction *reset = menuAction(w, QStringLiteral("&View"), QStringLiteral("Reset &Layout"));
    QVERIFY(reset);
    QCOMPARE(reset, w.windowLayout()->resetAction());
    QCOMPARE(reset->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));

    dockNamed(w, QStringLiteral("ParametersDock"))->close();
    dockNamed(w, QStringLiteral("ReadoutDock"))->setFloating(true);
    w.addDockWidget(Qt::BottomDockWidgetArea, dockNamed(w, QStringLiteral("KernelsDock")));
    QCoreApplication::processEvents();
    QVERIFY(dockPlaces(w) != first);

    reset->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(dockPlaces(w), first);
    QVERIFY(shown(dockNamed(w, QStringLiteral("ParametersDock"))));
    QVERIFY(shown(dockNamed(w, QStringLiteral("ReadoutDock"))));
}

void TestWindowLayout::everyViewFitsA1024x700Window()
{
    app::MainWindow w;
    w.resize(1024, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.size(), QSize(1024, 700));
    // With a trace and an ncu export loaded, as in use: the Traces dock comes to the front and the Kernels
    // dock's device buttons appear; neither may widen the right-hand docks.
    QCOMPARE(w.kernelTable()->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")),
             QString());
    QCOMPARE(w.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")),
             QString());
    QTRY_VERIFY(!dockNamed(w, QStringLiteral("TracesDock"))->visibleRegion().isEmpty());
    // The V100 file under the H100 profile: the warning is shown whole, every line of it, in the short dock,
    // and no taller than its text.
    const QLabel *warning = w.tracesPanel()->deviceWarning();
    QTRY_VERIFY(warning->isVisible());
    const int text = warning->heightForWidth(warning->width());
    QVERIFY2(warning->height() >= text && warning->height() <= text + warning->fontMetrics().height(),
             qPrintable(QStringLiteral("%1 for %2 at width %3").arg(warning->height()).arg(text).arg(warning->width())));
    QVERIFY(text > 2 * warning->fontMetrics().height()); // it wraps
    dockNamed(w, QStringLiteral("KernelsDock"))->raise();
    QCoreApplication::processEvents();
    // The views get most of the width (60 %), and none needs scrolling sideways: its plots are whole.
    QVERIFY2(w.centralWidget()->width() * 100 >= 60 * w.width(), qPrintable(QString::number(w.centralWidget()->width())));
    // The parameters are not cut at the dock's edge (its scroll area never scrolls sideways).
    QVERIFY2(w.parameterPanel()->width() >= w.parameterPanel()->minimumSizeHint().width(),
             qPrintable(QStringLiteral("%1 < %2").arg(w.parameterPanel()->width())
                            .arg(w.parameterPanel()->minimumSizeHint().width())));
    for (const QString &view : app::MainWindow::viewNames()) {
        QVERIFY(w.showView(view));
        QCoreApplication::processEvents();
        QVERIFY2(w.centralWidget()->width() * 100 >= 60 * w.width(),
                 qPrintable(QStringLiteral("%1: %2").arg(view).arg(w.centralWidget()->width())));
        auto *tabs = w.centralWidget()->findChild<QTabWidget *>();
        QVERIFY(tabs);
        auto *area = qobject_cast<QScrollArea *>(tabs->currentWidget());
        QVERIFY(area);
        QTRY_VERIFY2(!area->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1 needs %2 (at least %3) pixels, has %4")
                                    .arg(view)
                                    .arg(area->widget()->width())
                                    .arg(area->widget()->minimumWidth())
                                    .arg(area->viewport()->width())));
        QVERIFY2(area->widget()->width() <= area->viewport()->width(), qPrintable(view));
        if (view == QStringLiteral("stability")) {
            // The map, the hysteresis chart and the advisor's rows all in sight without scrolling.
            const auto inSight = [area](const QWidget *part) {
                const QRect r(part->mapTo(area->viewport(), QPoint(0, 0)), part->size());
                return area->viewport()->rect().contains(r);
            };
            QTRY_VERIFY(inSight(area->widget()->findChild<widgets::HysteresisChart *>()));
            const QTableWidget *table = area->widget()->findChild<widgets::AdvisorPanel *>()->table();
            const QRect rows(table->mapTo(area->viewport(), QPoint(0, 0)),
                             QSize(table->width(), table->horizontalHeader()->height()
                                                       + 3 * table->verticalHeader()->defaultSectionSize()));
            QVERIFY2(area->viewport()->rect().contains(rows),
                     qPrintable(QStringLiteral("advisor rows at y %1..%2, viewport %3 high")
                                    .arg(rows.top()).arg(rows.bottom()).arg(area->viewport()->height())));
            // And its buttons: a row is applied or compared without scrolling to find them.
            for (const char *name : {"AdvisorApply", "AdvisorCompare"})
                QVERIFY2(inSight(area->widget()->findChild<QPushButton *>(QString::fromLatin1(name))), name);
        }
        if (view == QStringLiteral("skeleton")) {
            // The plots are tabs beside the editor: the one in front is whole, axis titles included, and the
            // view does not scroll.
            auto *plots = area->widget()->findChild<QTabWidget *>();
            QVERIFY(plots && plots->isVisible());
            QCOMPARE(plots->count(), 3);
            const QWidget *plot = plots->currentWidget();
            const QRect r(plot->mapTo(area->viewport(), QPoint(0, 0)), plot->size());
            QVERIFY2(area->viewport()->rect().contains(r),
                     qPrintable(QStringLiteral("plot at y %1..%2, viewport %3 high, view %4 high (at least %5)")
                                        .arg(r.top()).arg(r.bottom()).arg(area->viewport()->height())
                                        .arg(area->widget()->height()).arg(area->widget()->minimumSizeHint().height())));
            QVERIFY(!area->verticalScrollBar()->isVisible());
        }
    }
    // The readout fits its dock, every value whole, with the flagship sample's long values.
    QVERIFY(w.openSession(QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/gtx570-thrashing.crossroof")));
    dockNamed(w, QStringLiteral("ReadoutDock"))->raise();
    QCoreApplication::processEvents();
    const QWidget *viewport = w.readout()->parentWidget();
    int values = 0;
    for (const widgets::ValueLabel *value : w.readout()->findChildren<widgets::ValueLabel *>()) {
        if (!value->isVisible())
            continue;
        ++values;
        QVERIFY2(value->width() >= QFontMetrics(value->font()).horizontalAdvance(value->text()), qPrintable(value->text()));
        const int right = value->mapTo(viewport, QPoint(value->width(), 0)).x();
        QVERIFY2(right <= viewport->width(),
                 qPrintable(QStringLiteral("%1 ends at %2 of %3").arg(value->text()).arg(right).arg(viewport->width())));
    }
    QVERIFY(values >= 15);
}

void TestWindowLayout::theWindowOpensInsideTheScreen()
{
    // A 1600x1000 screen at a scale factor of 2 has 800x500 device-independent pixels, less a panel: the
    // first-run window (1280x800) and one saved on a larger screen both open inside it.
    const QRect available(0, 32, 800, 468);
    {
        app::MainWindow w;
        QVERIFY(w.width() > available.width());
        app::WindowLayout::showInside(&w, available);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect r = w.frameGeometry();
        QVERIFY2(available.contains(r),
                 qPrintable(QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())));
        w.move(1400, 900);
        w.resize(1600, 1000);
        QVERIFY(w.close());
    }
    app::MainWindow again;
    QCOMPARE(again.size(), QSize(1600, 1000));
    app::WindowLayout::showInside(&again, available);
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QVERIFY(available.contains(again.frameGeometry()));
}

void TestWindowLayout::dialogsOpenInsideTheScreen()
{
    // A dialog sized for a larger screen, or for a smaller scale factor (the recovery prompt at a device pixel
    // ratio of 2), opens inside the screen's available geometry.
    app::MainWindow w;
    const QRect available = w.screen()->availableGeometry();
    QDialog dialog(&w);
    dialog.resize(available.size() + QSize(800, 500));
    dialog.move(available.topLeft() + QPoint(300, 200));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTRY_VERIFY2(available.contains(dialog.frameGeometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                                    .arg(dialog.x()).arg(dialog.y()).arg(dialog.width()).arg(dialog.height())
                                    .arg(available.width()).arg(available.height())));
}

void TestWindowLayout::theExportDialogFitsAScreenAtAScaleFactorOf2()
{
    // Export Figure's and Export All Views' dialog can be made as small as the screen (its minimum size), so that
    // fitting it into the screen leaves none of it off screen: its preview gives up height on a short screen.
    // tst_window_layout_x11 runs this on a 1600x1000 screen at a scale factor of 2 (800x500 device-independent
    // pixels), where the dialog was 536 tall at least.
    app::MainWindow w;
    const QSize available = w.screen()->availableGeometry().size() - QSize(0, 40); // less a title bar
    widgets::ExportDialog dialog(QStringLiteral("figure.pdf"), &w);
    dialog.setPreviewPlots(w.figurePlots(QStringLiteral("xgraph")));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QSize least = dialog.minimumSize().expandedTo(dialog.minimumSizeHint());
    QVERIFY2(least.width() <= available.width() && least.height() <= available.height(),
             qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(least.width()).arg(least.height())
                                .arg(available.width()).arg(available.height())));
    const QLabel *preview = dialog.findChild<QLabel *>(QStringLiteral("preview"));
    QVERIFY(preview && preview->isVisible() && preview->height() >= 100);
    QTRY_VERIFY(w.screen()->availableGeometry().contains(dialog.frameGeometry()));
}

void TestWindowLayout::theLargeDialogsFitAScreenAtAScaleFactorOf2()
{
    // The CPU counters dialog and the joint calibration were at least 762x554 and 816x392: at a scale factor of
    // 2 on a 1600x1000 screen (800x500) they ran off it. Their bodies scroll now, the buttons stay in sight.
    widgets::ParameterState state;
    widgets::CountersDialog counters;
    widgets::JointCalibrationDialog joint(&state);
    for (QDialog *dialog : {static_cast<QDialog *>(&counters), static_cast<QDialog *>(&joint)}) {
        const QSize least = dialog->minimumSizeHint().expandedTo(dialog->minimumSize());
        QVERIFY2(least.width() <= 800 && least.height() <= 460,
                 qPrintable(QStringLiteral("%1 at least %2x%3").arg(QString::fromLatin1(dialog->metaObject()->className()))
                                    .arg(least.width()).arg(least.height())));
        dialog->resize(800, 460);
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        for (QPushButton *button : dialog->findChildren<QPushButton *>()) {
            if (qobject_cast<QDialogButtonBox *>(button->parentWidget()))
                QVERIFY(!button->visibleRegion().isEmpty()); // Close and the dialog's actions stay in sight
        }
        dialog->hide();
    }
}

void TestWindowLayout::slidersKeepTheirLength_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1024x700") << QSize(1024, 700);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestWindowLayout::slidersKeepTheirLength()
{
    // Z's slider spans six decades; in the dock it had some 50 pixels (a 25-pixel drag took Z from 32 to
    // 10,000). Every log slider has 30 pixels a decade, below its box where the dock is narrow.
    QFETCH(QSize, size);
    app::MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QCoreApplication::processEvents();
    for (const char *key : {"n", "Z", "E", "R", "L", "M", "beta"}) {
        const auto *info = core::findParameter(key);
        const auto *slider = qobject_cast<widgets::FineSlider *>(w.parameterPanel()->slider(QString::fromLatin1(key)));
        QVERIFY(info && slider);
        const double decades = std::log10(info->slider_max / info->slider_min);
        QTRY_VERIFY2(slider->width() >= decades * widgets::ParameterPanel::kPixelsPerDecade,
                     qPrintable(QStringLiteral("%1: %2 px").arg(key).arg(slider->width())));
    }
    // The groups share one column of symbols: every box and slider starts where the others do (Workload's
    // started some 20 px left of Memory parallelism's and Shared cache's).
    const auto left = [&](const QWidget *widget) { return widget->mapTo(w.parameterPanel(), QPoint()).x(); };
    const QDoubleSpinBox *first = w.parameterPanel()->spinBox(QStringLiteral("n"));
    for (const char *key : {"Z", "m", "req_bytes", "h", "S_s", "R", "L_c"}) {
        const QString name = QString::fromLatin1(key);
        QCOMPARE(left(w.parameterPanel()->spinBox(name)), left(first));
        QCOMPARE(left(w.parameterPanel()->slider(name)), left(w.parameterPanel()->slider(QStringLiteral("n"))));
    }
}

void TestWindowLayout::theOpenShortcutWorksRightAfterTheStart()
{
    // Ctrl+O took a click in the menu first: the window shown at the start had not been made the active one.
    app::MainWindow w;
    QAction *open = nullptr;
    for (QAction *action : w.findChildren<QAction *>()) {
        if (action->shortcut() == QKeySequence(QKeySequence::Open))
            open = action;
    }
    QVERIFY(open);
    QObject::disconnect(open, &QAction::triggered, nullptr, nullptr); // no file dialog in a test
    QSignalSpy triggered(open, &QAction::triggered);
    // Another window of the desktop (the terminal Crossroof was started from) has the keyboard.
    QWidget terminal;
    terminal.show();
    terminal.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&terminal));
    app::WindowLayout::showAtStart(&w, w.screen()->availableGeometry());
    QTRY_COMPARE(QApplication::activeWindow(), &w);
    QTest::keyClick(w.windowHandle(), Qt::Key_O, Qt::ControlModifier);
    QCOMPARE(triggered.count(), 1);
}

QTEST_MAIN(TestWindowLayout)
#include "tst_window_layout.moc"
