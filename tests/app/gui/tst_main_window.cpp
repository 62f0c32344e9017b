// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"
#include "state/kernel_state.h"
#include "export_controller.h"
#include "common/file_folders.h"
#include "export/export_dialog.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "common/profile_picker.h"
#include "kernels/kernel_table_view.h"
#include "markov/extrapolate_panel.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "occupancy/occupancy_view.h"
#include "core/profiles/profile_library.h"
#include "common/number_format.h"
#include "common/steady_plot.h"
#include "core/xmodel/xmodel.h"
#include "support/image_compare.h"
#include "roofline/roofline_view.h"
#include "skeleton/skeleton_view.h"
#include "stability/stability_view.h"
#include "traces/traces_panel.h"
#include "xgraph/readout_panel.h"
#include "xgraph/xgraph_view.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QSlider>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QUndoStack>

using namespace crossroof;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void opensOnTheDefaultProfile();
    void exportAllLeavesOutEmptyViews();
    void exportAllShowsTheSettingsItUses();
    void everyBundledProfileLoads();
    void badProfileFileIsRejected_data();
    void badProfileFileIsRejected();
    void goodProfileFileLoads();
    void undoRedoThroughTheWindow();
    void undoFromAFocusedSpinBox();
    void readoutCopiesAsText();
    void viewsByName();
    void compareOnTheXGraphShowsTheWhatIf();
    void helpOpensTheUserGuide();
    void everyViewAndDockHasContextHelp();
    void extrapolationGoesToTheMarkovSurface();
    void extrapolationNamesTheMappingViewsStrategies();
    void layoutFits_data();
    void layoutFits();
    void measuredDataDrawsAsAFullPaint();
};

void TestMainWindow::opensOnTheDefaultProfile()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.state()->profile().id, std::string(core::defaultProfileId()));
    QVERIFY(w.windowTitle().contains(QString::fromStdString(w.state()->profile().name)));
    QVERIFY(w.xgraphView()->supplyGraph()->dataCount() >= 2); // thinned for drawing (tst_curve_thinning)
    QVERIFY(w.readout()->text().contains(QLatin1String("GB/s")));
}

void TestMainWindow::everyBundledProfileLoads()
{
    app::MainWindow w;
    auto *picker = w.profilePicker();
    QCOMPARE(std::size_t(picker->count()), core::bundledProfiles().size());
    for (int i = 0; i < picker->count(); ++i) {
        picker->setCurrentIndex(i);
        Q_EMIT picker->activated(i);
        const auto &p = core::bundledProfiles()[std::size_t(i)];
        QCOMPARE(w.state()->profile().id, p.id);
        QVERIFY(w.state()->params() == p.params);
        auto *graph = w.xgraphView()->supplyGraph();
        QVERIFY(graph->dataCount() >= 2);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            QVERIFY(std::isfinite(it->key));
        QVERIFY(w.xgraphView()->operatingGraph()->dataCount() == 1);
        QCOMPARE(w.xgraphView()->plot()->xAxis->range().upper, p.params.n);
    }
}

void TestMainWindow::badProfileFileIsRejected_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("field");
    const QByteArray good = R"({"format_version": 1, "id": "x", "name": "X", "kind": "gpu",
      "parameters": {"sm_count": 10, "clock_ghz": 1.5, "warp_size": 32, "max_warps": 64, "request_bytes": 128,
                     "R": 500, "L": 400, "M": 2, "S_s": 64, "L_s": 30},
      "sources": [{"fields": ["sm_count", "clock_ghz", "warp_size", "max_warps", "request_bytes", "R", "L", "M",
                              "S_s", "L_s"], "text": "test"}]})";
    QTest::newRow("negative latency") << QByteArray(good).replace("\"L\": 400", "\"L\": -400") << "parameters.L";
    QTest::newRow("missing field") << QByteArray(good).replace("\"R\": 500, ", "") << "parameters.R";
    QTest::newRow("wrong type") << QByteArray(good).replace("\"M\": 2", "\"M\": [2]") << "parameters.M";
    QTest::newRow("invalid JSON") << QByteArray(good).left(60) << "invalid JSON";
}

void TestMainWindow::badProfileFileIsRejected()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, field);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();

    app::MainWindow w;
    w.show();
    const auto before = w.state()->params();
    const int profiles = w.profilePicker()->count();
    QVERIFY(!w.openProfileFile(path));
    // The app keeps running with the profile it had, and says what is wrong and where.
    QVERIFY(w.state()->params() == before);
    QCOMPARE(w.profilePicker()->count(), profiles);
    auto *box = w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(path), qPrintable(box->text()));
    QVERIFY2(box->text().contains(field), qPrintable(box->text()));
    box->close();
}

void TestMainWindow::goodProfileFileLoads()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format_version": 1, "id": "my-gpu", "name": "My GPU", "kind": "gpu",
      "parameters": {"sm_count": 10, "clock_ghz": 1.5, "warp_size": 32, "max_warps": 64, "request_bytes": 128,
                     "R": 500, "L": 400, "M": 2, "S_s": 64, "L_s": 30, "Z": 6},
      "sources": [{"fields": ["sm_count", "clock_ghz", "warp_size", "max_warps", "request_bytes", "R", "L", "M",
                              "S_s", "L_s"], "text": "test"}]})");
    f.close();
    app::MainWindow w;
    QVERIFY(w.selectProfile(path));
    QCOMPARE(w.state()->profile().id, std::string("my-gpu"));
    QCOMPARE(w.profilePicker()->currentText(), QStringLiteral("My GPU"));
    QCOMPARE(w.state()->params().Z, 6.0);
    w.state()->undoStack()->undo();
    QCOMPARE(w.state()->profile().id, std::string(core::defaultProfileId()));
    QCOMPARE(w.profilePicker()->currentData().toString(), QString::fromLatin1(core::defaultProfileId().data()));
}

void TestMainWindow::undoRedoThroughTheWindow()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSlider *slider = w.parameterPanel()->slider(QStringLiteral("Z"));
    const double before = w.state()->params().Z;
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_PageUp); // keyboard access
    const double after = w.state()->params().Z;
    QVERIFY(after > before);
    QTest::keySequence(&w, QKeySequence::Undo);
    QCOMPARE(w.state()->params().Z, before);
    QCOMPARE(w.parameterPanel()->slider(QStringLiteral("Z"))->value(),
             widgets::ParameterPanel::sliderPosition(*core::findParameter("Z"), before));
    QTest::keySequence(&w, QKeySequence::Redo);
    QCOMPARE(w.state()->params().Z, after);
}

void TestMainWindow::undoFromAFocusedSpinBox()
{
    // Typing a value leaves the focus in the box; Undo there takes the value back, as it does elsewhere.
    app::MainWindow w;
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QDoubleSpinBox *spin = w.parameterPanel()->spinBox(QStringLiteral("Z"));
    const double before = w.state()->params().Z;
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("3"));
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(w.state()->params().Z, 3.0);
    QVERIFY(spin->hasFocus());
    QTest::keySequence(spin, QKeySequence::Undo);
    QCOMPARE(w.state()->params().Z, before);
    QCOMPARE(spin->value(), before);
    QTest::keySequence(spin, QKeySequence::Redo);
    QCOMPARE(w.state()->params().Z, 3.0);
}

void TestMainWindow::readoutCopiesAsText()
{
    // The readout's values are not selectable; clicking the panel and pressing Ctrl+C, or its context menu,
    // copies every line.
    app::MainWindow w;
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(w.readout(), Qt::LeftButton, {}, QPoint(4, 4));
    QVERIFY(w.readout()->hasFocus());
    QTest::keySequence(w.readout(), QKeySequence::Copy);
    const QString copied = QGuiApplication::clipboard()->text();
    QCOMPARE(copied, w.readout()->text());
    QVERIFY(copied.contains(QLatin1String("MS throughput: ")));
    QVERIFY(copied.contains(QLatin1String("GB/s")));
    // The same from the context menu's action, after a change of Z.
    w.state()->setValue(QStringLiteral("Z"), 3.0);
    QGuiApplication::clipboard()->clear();
    const QList<QAction *> actions = w.readout()->actions();
    QCOMPARE(actions.size(), 1);
    QCOMPARE(w.readout()->contextMenuPolicy(), Qt::ActionsContextMenu);
    actions.first()->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), w.readout()->text());
    QVERIFY(QGuiApplication::clipboard()->text() != copied);
}

void TestMainWindow::viewsByName()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.readout()->isVisible());
    QVERIFY(w.showView(QStringLiteral("zigzag")));
    QVERIFY(w.zigzagView()->isVisible());
    QVERIFY(!w.readout()->isVisible()); // the X-model's readout is not the zigzag's
    QVERIFY(w.parameterPanel()->isVisible());
    QVERIFY(w.showView(QStringLiteral("occupancy")));
    QVERIFY(w.occupancyView()->isVisible());
    QVERIFY(w.parameterPanel()->isVisible());
    QVERIFY(w.showView(QStringLiteral("markov")));
    QVERIFY(!w.parameterPanel()->isVisible()); // the Markov view has its inputs in the view
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QVERIFY(w.readout()->isVisible());
    QVERIFY(w.parameterPanel()->isVisible());
    QVERIFY(w.showView(QStringLiteral("roofline")));
    QVERIFY(w.rooflineView()->isVisible());
    QVERIFY(w.showView(QStringLiteral("skeleton")));
    QVERIFY(w.skeletonView()->isVisible());
    QVERIFY(w.showView(QStringLiteral("extrapolate")));
    QVERIFY(w.extrapolatePanel()->isVisible());
    QVERIFY(!w.parameterPanel()->isVisible());
    QVERIFY(!w.showView(QStringLiteral("heatmap")));
}

void TestMainWindow::compareOnTheXGraphShowsTheWhatIf()
{
    // Compare on X-graph from the Stability tab had no visible result: the what-if went to a hidden tab. Now the
    // X-graph comes to the front with the dashed curves, a legend entry and the new operating point said.
    app::MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.showView(QStringLiteral("stability")));
    w.stabilityView()->waitForMap();
    QTableWidget *table = w.stabilityView()->advisorTable();
    QVERIFY(table->rowCount() > 0);
    w.stabilityView()->compareAdvice(0);
    QCOMPARE(w.currentViewName(), QStringLiteral("xgraph"));
    QVERIFY(w.state()->comparison());
    QVERIFY(w.xgraphView()->comparisonSupplyGraph()->dataCount() > 0);
    QCPGraph *whatIf = w.xgraphView()->comparisonSupplyGraph();
    QVERIFY(w.xgraphView()->plot()->legend->hasItemWithPlottable(whatIf));
    const auto op = core::XModel(*w.state()->comparison()).solve().operatingPoint();
    const QString where = QStringLiteral("at k = %1").arg(widgets::formatNumber(op.k, 3));
    QVERIFY2(whatIf->name().contains(where), qPrintable(whatIf->name()));
    QVERIFY2(whatIf->name().contains(QString::fromUtf8("→")), qPrintable(whatIf->name()));
    const QString status = w.statusBar()->currentMessage();
    QVERIFY2(status.contains(QStringLiteral("operating point lies at k = %1").arg(widgets::formatNumber(op.k, 3))),
             qPrintable(status));
}

void TestMainWindow::helpOpensTheUserGuide()
{
    app::MainWindow w;
    w.show();
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    // Help > User Guide (F1 explains the focused control: tst_control_help).
    QAction *guideAction = nullptr;
    for (QAction *menu : w.menuBar()->actions()) {
        for (QAction *a : menu->menu() ? menu->menu()->actions() : QList<QAction *>()) {
            if (a->text() == QStringLiteral("User &Guide"))
                guideAction = a;
        }
    }
    QVERIFY(guideAction);
    guideAction->trigger();
    auto *guide = w.findChild<QDialog *>(QStringLiteral("UserGuide"));
    QVERIFY(guide);
    QVERIFY(guide->isVisible());
    auto *browser = guide->findChild<QTextBrowser *>();
    QVERIFY(browser);
    const QString text = browser->toPlainText();
    // It explains every view by the name on its tab, how to read an X-graph, and the ncu metrics.
    const QStringList tabs{QStringLiteral("X-graph"),     QStringLiteral("Stability"), QStringLiteral("Occupancy"),
                           QStringLiteral("Zigzag"),      QStringLiteral("Markov CPI"), QStringLiteral("Mapping"),
                           QStringLiteral("Extrapolate"), QStringLiteral("Bandwidth"), QStringLiteral("Roofline"),
                           QStringLiteral("Code Skeleton")};
    for (const QString &tab : tabs)
        QVERIFY2(text.contains(tab), qPrintable(tab));
    QVERIFY(text.contains(QStringLiteral("Reading an X-graph")));
    QVERIFY(text.contains(QStringLiteral("sm__warps_active.avg.per_cycle_active")));
    // Its links lead somewhere in the guide.
    browser->setSource(QUrl(QStringLiteral("#keys")));
    QVERIFY(browser->verticalScrollBar()->value() > 0);
    // A second time brings back the same window.
    guideAction->trigger();
    QCOMPARE(w.findChildren<QDialog *>(QStringLiteral("UserGuide")).size(), qsizetype(1));
    // The parameters explain themselves under What's This.
    QVERIFY(w.parameterPanel()->spinBox(QStringLiteral("Z"))->whatsThis().contains(QStringLiteral("Z")));
}

void TestMainWindow::extrapolationNamesTheMappingViewsStrategies()
{
    // The Mapping view on the Clovertown: the Extrapolate ranking names the training strategies with its IDs
    // where the Markov model (caches x threads) is the same, and follows the Mapping view's profile.
    app::MainWindow w;
    QComboBox *profiles = w.mappingView()->profileBox();
    int clovertown = -1;
    for (int i = 0; i < profiles->count(); ++i) {
        if (profiles->itemText(i).contains(QStringLiteral("Clovertown")))
            clovertown = i;
    }
    QVERIFY(clovertown >= 0);
    profiles->setCurrentIndex(clovertown);
    QVERIFY(w.extrapolatePanel()->loadTrainingFile(
            QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv")));
    w.extrapolatePanel()->waitForResult();
    QStringList names;
    for (int row = 0; row < w.extrapolatePanel()->table()->rowCount(); ++row)
        names << w.extrapolatePanel()->table()->item(row, widgets::ExtrapolatePanel::Strategy)->text();
    for (const char *name : {"8threads_1threads_per_core (Mapping: 8T_1)", "8threads_2threads_per_core (Mapping: 8T_2)",
                             "4threads_with_2threads_per_L2 (Mapping: 4T_4)", "2threads_same_L2 (Mapping: 2T_3, 2T_4)"})
        QVERIFY2(names.contains(QString::fromLatin1(name)), qPrintable(names.join(QStringLiteral(" | "))));
}

void TestMainWindow::extrapolationGoesToTheMarkovSurface()
{
    // The model tree's prediction for a strategy becomes the Markov view's topology and (p, q), one undo step.
    app::MainWindow w;
    QVERIFY(w.extrapolatePanel()->loadTrainingFile(
            QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv")));
    w.extrapolatePanel()->waitForResult();
    // At the largest training size (the view starts one size step past it), whose best (p, q) lie within half
    // a step of the surface's grid.
    w.extrapolatePanel()->targetSizeBox()->setValue(128);
    const auto &predictions = w.extrapolatePanel()->predictions();
    QVERIFY(!predictions.empty());
    const core::StrategyPrediction &best = predictions.front();
    const int undoBefore = w.state()->undoStack()->count();
    w.extrapolatePanel()->table()->selectRow(0);
    w.extrapolatePanel()->sendButton()->click();
    QCOMPARE(w.currentViewName(), QStringLiteral("markov"));
    QCOMPARE(w.markovView()->topology(), std::vector<int>(std::size_t(best.groups), best.threads_per_group));
    const auto &surface = w.markovView()->surface();
    QVERIFY(std::abs(surface.p[std::size_t(w.markovView()->selectedP())] - best.p) <= 0.05);
    QVERIFY(std::abs(surface.q[std::size_t(w.markovView()->selectedQ())] - best.q) <= 0.05);
    QCOMPARE(w.state()->undoStack()->count(), undoBefore + 1);
    w.state()->undoStack()->undo();
    QCOMPARE(w.markovView()->topology(), (std::vector<int>{2, 2, 2, 2}));
}

void TestMainWindow::layoutFits_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x800") << QSize(1280, 800);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

void TestMainWindow::layoutFits()
{
    QFETCH(QSize, size);
    app::MainWindow w;
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The graph gets a usable share of the window and the parameter panel is not squeezed.
    const QRect plotRect = w.xgraphView()->plot()->axisRect()->rect();
    QVERIFY2(plotRect.width() >= size.width() / 3, qPrintable(QString::number(plotRect.width())));
    QVERIFY2(plotRect.height() >= size.height() / 2, qPrintable(QString::number(plotRect.height())));
    QVERIFY(w.parameterPanel()->slider(QStringLiteral("n"))->width() >= 60);
    // Nothing pushes the window wider than the screen, with measured traces (and their legend) loaded too.
    QCOMPARE(w.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")), QString());
    QCoreApplication::processEvents();
    QVERIFY2(w.minimumSizeHint().width() <= 1280, qPrintable(QString::number(w.minimumSizeHint().width())));
    QVERIFY2(w.width() <= size.width(), qPrintable(QString::number(w.width())));
}


void TestMainWindow::measuredDataDrawsAsAFullPaint()
{
    // With real measurements loaded (gpu-benches' V100 stream traces over the X-graph, the H100 SXM's Nsight
    // Compute export in the Kernels dock), a drag of L redraws the X-graph leaving its axes' margins on the
    // window: what the window shows is what a full paint shows, to the pixel.
    app::MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // The kernels' own machine: they are drawn on the X-graph with their predictions (on the default 15-SM Fermi
    // those lie on the axis, where SteadyPlot's kept margins and a full paint differ by the axis line's pixels).
    QVERIFY(w.selectProfile(QStringLiteral("h100-sxm")));
    QCOMPARE(w.kernelTable()->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")), QString());
    QCOMPARE(w.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")),
             QString());
    w.showView(QStringLiteral("xgraph"));
    QCoreApplication::processEvents();
    widgets::SteadyPlot *plot = w.xgraphView()->steadyPlot();
    QVERIFY(plot->graphCount() > 12); // the model's curves and marks, and the traces
    const int keptBefore = plot->marginsKept();
    const auto *info = core::findParameter("L");
    QSlider *slider = w.parameterPanel()->slider(QStringLiteral("L"));
    const double start = w.state()->params().L;
    slider->setSliderDown(true);
    for (double factor : {0.97, 0.94, 0.9, 1.05}) {
        slider->setSliderPosition(widgets::ParameterPanel::sliderPosition(*info, start * factor));
        QCoreApplication::processEvents();
        // The kernels' predictions at the new L come from the background (KernelState); once drawn too, the
        // window must show what a full paint shows.
        w.kernelState()->wait();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        const QPoint at = plot->mapTo(&w, QPoint(0, 0));
        const auto grab = [&] {
            return w.screen()->grabWindow(w.winId(), at.x(), at.y(), plot->width(), plot->height()).toImage();
        };
        const QImage shown = grab();
        // A full paint in the same place of the window (a grab of the plot alone rasterizes its marks' half
        // pixels by another origin, and differs from any paint in the window by a few levels).
        plot->repaint();
        const QImage full = grab();
        QCOMPARE(shown.size(), full.size());
        QCOMPARE(test::largestChannelDifference(shown.convertToFormat(QImage::Format_RGB32),
                                                full.convertToFormat(QImage::Format_RGB32)),
                 0);
    }
    slider->setSliderDown(false);
    QVERIFY2(plot->marginsKept() - keptBefore >= 2, qPrintable(QString::number(plot->marginsKept() - keptBefore)));
}

void TestMainWindow::everyViewAndDockHasContextHelp()
{
    // Help > What's This then a click on any view or dock says what it shows; on a plot, also how to zoom.
    app::MainWindow w;
    for (const QString &view : app::MainWindow::viewNames()) {
        QVERIFY(w.showView(view));
        auto *tabs = w.centralWidget()->findChild<QTabWidget *>();
        auto *area = qobject_cast<QScrollArea *>(tabs->currentWidget());
        QWidget *widget = area->widget();
        QVERIFY2(widget->whatsThis().size() > 60, qPrintable(view));
        for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>()) {
            QVERIFY2(plot->whatsThis().startsWith(widget->whatsThis()), qPrintable(view));
            QVERIFY2(plot->whatsThis().contains(QLatin1String("zoom")), qPrintable(view));
        }
    }
    for (QWidget *dock : std::initializer_list<QWidget *>{w.readout(), w.tracesPanel(), w.kernelTable()})
        QVERIFY2(dock->whatsThis().size() > 60, dock->metaObject()->className());
    QVERIFY(w.parameterPanel()->spinBox(QStringLiteral("Z"))->whatsThis().contains(QLatin1String("Z")));
}

void TestMainWindow::exportAllLeavesOutEmptyViews()
{
    // A fresh window: Extrapolate has no training runs and Prediction no kernels. Export All Views writes
    // every other view and leaves those out with their reason, not as empty axes.
    app::MainWindow w;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    widgets::FigureOptions options;
    const auto done = w.exporter()->exportAllViews(dir.path(), QStringLiteral("png"), options);
    QVERIFY2(done.errors.isEmpty(), qPrintable(done.errors.join(QLatin1Char('\n'))));
    QVERIFY2(done.skipped.contains(QStringLiteral("extrapolate: No training data yet.")),
             qPrintable(done.skipped.join(QLatin1Char('\n'))));
    int drawn = 0;
    for (const QString &view : app::MainWindow::viewNames()) {
        const bool written = QFile::exists(dir.filePath(QStringLiteral("crossroof-%1.png").arg(view)));
        QCOMPARE(written, w.nothingToDraw(view).isEmpty());
        drawn += written;
    }
    QCOMPARE(done.written, drawn);
    QCOMPARE(done.written + done.skipped.size(), int(app::MainWindow::viewNames().size()));
    QVERIFY(done.written >= 8);
}

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the export settings written below stay out of the user's
}

void TestMainWindow::exportAllShowsTheSettingsItUses()
{
    // File > Export All Views shows the settings every figure gets before it writes: the last export's
    // (single column, PNG) are shown, not taken unseen, and what the user sets there is what is written.
    widgets::FigureOptions last = widgets::withPreset(widgets::FigureOptions{}, *widgets::figurePreset(QStringLiteral("single")));
    widgets::ExportDialog::saveOptions(last);
    QSettings().setValue(QStringLiteral("export/suffix"), QStringLiteral("png"));
    // Any folder chooser is cancelled, so that the test cannot wait on one.
    widgets::setFileChooser([](const widgets::FileRequest &) { return QString(); });
    app::MainWindow w;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList seen;
    QTimer::singleShot(0, &w, [&] {
        auto *dialog = qobject_cast<widgets::ExportDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        seen << dialog->windowTitle() << dialog->path();
        const auto *note = dialog->findChild<QLabel *>(QStringLiteral("note"));
        seen << (note && note->isVisibleTo(dialog) ? note->text() : QString());
        QCOMPARE(dialog->options().width_mm, last.width_mm); // the settings it will use, in view
        widgets::FigureOptions slide = widgets::withPreset(dialog->options(), *widgets::figurePreset(QStringLiteral("slide")));
        dialog->setOptions(slide);
        dialog->setPath(QDir(dir.path()).filePath(QStringLiteral("figures.svg")));
        dialog->accept();
    });
    w.exporter()->exportAllAction()->trigger();
    widgets::setFileChooser({});
    QCOMPARE(seen.size(), 3);
    QCOMPARE(seen[0], QStringLiteral("Export All Views"));
    QVERIFY2(seen[1].endsWith(QStringLiteral("crossroof-xgraph.png")), qPrintable(seen[1]));
    QVERIFY2(seen[2].contains(QStringLiteral("crossroof-VIEW")), qPrintable(seen[2]));
    QVERIFY(QFile::exists(QDir(dir.path()).filePath(QStringLiteral("crossroof-xgraph.svg"))));
    QVERIFY(!QFile::exists(QDir(dir.path()).filePath(QStringLiteral("crossroof-xgraph.png"))));
    QCOMPARE(widgets::ExportDialog::savedOptions().width_mm, widgets::figurePreset(QStringLiteral("slide"))->width_mm);
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
