// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"
#include "common/native_path.h"
#include "common/plot_navigator.h"
#include "kernels/kernel_table_view.h"
#include "levels/levels_view.h"
#include "markov/extrapolate_evaluation.h"
#include "markov/extrapolate_panel.h"
#include "roofline/roofline_view.h"
#include "common/empty_state.h"
#include "xgraph/xgraph_view.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "state/kernel_state.h"
#include "state/occupancy_state.h"
#include "common/parameter_state.h"
#include "core/modeltree/training_set.h"
#include "core/profiles/profile_library.h"
#include "core/support/text_file.h"
#include "skeleton/skeleton_view.h"
#include "stability/stability_view.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "zigzag/zigzag_view.h"

#include "session_window_fixtures.h"
#include "support/full_disk.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <filesystem>
#include <memory>
#include <string>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <sys/stat.h>

using namespace crossroof;
using namespace crossroof::session_window_test;

namespace {

const QString kTraining = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");
const QString kGtx570 = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/gtx570-thrashing.crossroof");

/// Session A of a user: the H100 kernels and the V100 stream traces, a what-if on the X-graph, training runs
/// in Extrapolate, the X-graph zoomed, the roofline in front.
void analyseH100(app::MainWindow &w)
{
    QVERIFY(w.selectProfile(QStringLiteral("h100-sxm")));
    QCOMPARE(w.tracesPanel()->importFile(kNcuH100), QString());
    QCOMPARE(w.tracesPanel()->importFile(kStreamV100), QString());
    QVERIFY(w.kernelTable()->report()); // the Nsight Compute trace filled the Kernels dock
    w.kernelState()->wait(); // its predictions, computed in the background
    QVERIFY(w.kernelTable()->table()->model()->rowCount() > 0);
    w.figurePlots(QStringLiteral("roofline"));
    QVERIFY(!w.rooflineView()->points().empty());
    w.rooflineView()->namesBox()->setChecked(false);
    w.rooflineView()->levelsBox()->setChecked(false);
    core::XModelParams whatIf = w.state()->params();
    whatIf.n = 20;
    w.state()->setComparison(whatIf, QStringLiteral("n: 64 -> 20"));
    QVERIFY(w.xgraphView()->comparisonSupplyGraph()->dataCount() > 0);
    QVERIFY(w.extrapolatePanel()->loadTrainingFile(kTraining));
    w.extrapolatePanel()->waitForResult();
    QVERIFY(w.extrapolatePanel()->model());
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QCustomPlot *plot = w.xgraphView()->plot();
    widgets::PlotNavigator::of(plot)->zoom(0.5, QRectF(plot->axisRect()->rect()).center());
    QVERIFY(widgets::PlotNavigator::of(plot)->isZoomed());
    QVERIFY(w.showView(QStringLiteral("roofline")));
}

/// Nothing of analyseH100() is left in W.
void findNothingOfH100(app::MainWindow &w)
{
    QVERIFY(!w.kernelTable()->report());
    QCOMPARE(w.kernelTable()->table()->model()->rowCount(), 0);
    w.figurePlots(QStringLiteral("roofline")); // a hidden view catches up when drawn
    QVERIFY(w.rooflineView()->points().empty());
    QVERIFY(w.rooflineView()->settings() == core::RooflineSettings{});
    QVERIFY(w.rooflineView()->namesBox()->isChecked() && w.rooflineView()->levelsBox()->isChecked());
    for (const auto &t : w.traceState()->traces())
        QVERIFY2(t.source != kNcuH100.toStdString() && t.source != kStreamV100.toStdString(), t.source.c_str());
    QVERIFY(!w.state()->comparison());
    QCOMPARE(w.xgraphView()->comparisonSupplyGraph()->dataCount(), 0);
    QCOMPARE(w.xgraphView()->comparisonOperatingGraph()->dataCount(), 0);
    w.extrapolatePanel()->waitForResult();
    QVERIFY(!w.extrapolatePanel()->model());
    QVERIFY(!w.extrapolatePanel()->settings().training);
    QCOMPARE(w.extrapolatePanel()->table()->rowCount(), 0);
    QVERIFY(!w.extrapolatePanel()->emptyState()->isHidden());
    QCOMPARE(w.nothingToDraw(QStringLiteral("extrapolate")), QStringLiteral("No training data yet."));
    for (const QString &view : app::MainWindow::viewNames()) {
        for (QCustomPlot *plot : w.figurePlots(view)) {
            if (const auto *navigator = widgets::PlotNavigator::of(plot))
                QVERIFY2(!navigator->isZoomed(), qPrintable(view));
        }
    }
}

bool sameAnalysis(const core::Session &a, const core::Session &b)
{
    return a.profile.id == b.profile.id && a.params == b.params && a.current_view == b.current_view
        && a.occupancy == b.occupancy && a.tmm == b.tmm && a.markov == b.markov && a.mapping == b.mapping
        && a.stability == b.stability && a.roofline == b.roofline && a.skeleton == b.skeleton
        && a.traces == b.traces;
}

} // namespace

class TestSessionWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void roundTrip();
    void openingBLeavesNothingOfA();
    void newSessionLeavesNothing();
    void trainingKernelsZoomAndTabAreRestored();
    void aViewSaysWhenItHasNothingToDraw();
    void modifiedMarkAndTitle();
    void tracesCanBeLinkedToTheirFiles();
    void aLongOpenShowsProgressAndCanBeCancelled();
    void latin1FolderOpensAndSaves();
    void corruptedSessionIsRejected_data();
    void corruptedSessionIsRejected();
    void killDuringSaveNeverLeavesAPartialFile();
    void savingLeavesHiddenViewsAsTheyAre();

private:
    QTemporaryDir m_dir;
};

void TestSessionWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QDir(app::SessionController::recoveryDir()).removeRecursively();
}

void TestSessionWindow::roundTrip()
{
    const QString path = m_dir.filePath(QStringLiteral("round.crossroof"));
    core::Session saved;
    {
        app::MainWindow w;
        editEverything(w);
        saved = w.captureSession();
        QVERIFY(w.saveSession(path));
    }
    app::MainWindow w;
    QVERIFY(w.openSession(path));
    QVERIFY(sameAnalysis(w.captureSession(), saved));
    QCOMPARE(w.state()->params().h, 0.375);
    QCOMPARE(w.occupancyState()->input().threads_per_block, 384);
    QCOMPARE(w.markovView()->settings().grid, std::string("uniform:100"));
    QCOMPARE(w.markovView()->topology(), (std::vector<int>{4, 4})); // 8T_2 of the Clovertown
    QCOMPARE(w.markovView()->startingPairsGraph()->dataCount(), 9);   // the counters came back
    QCOMPARE(w.mappingView()->predictions()[7].q, 0.95);              // 4T_4's own point
    QCOMPARE(w.zigzagView()->workEdit()->text(), QStringLiteral("3.5e9"));
    QCOMPARE(w.zigzagView()->coresEdit()->text(), QStringLiteral("96x"));
    QVERIFY(!w.zigzagView()->tmmResult()); // the panel says what is wrong with it, as before saving
    QCOMPARE(w.currentViewName(), QStringLiteral("zigzag"));
    QVERIFY(w.skeletonView()->settings() == saved.skeleton);
    QCOMPARE(w.skeletonView()->profileId(), QStringLiteral("epyc-9654"));
    QCOMPARE(w.skeletonView()->unroll(), 6);
    QVERIFY(w.skeletonView()->text().contains(QStringLiteral("glsc3i")));
    QCOMPARE(w.state()->undoStack()->count(), 0); // opening starts a fresh history
    QVERIFY(app::MainWindow::recentSessions().contains(QFileInfo(path).absoluteFilePath()));
}

void TestSessionWindow::openingBLeavesNothingOfA()
{
    app::MainWindow w;
    analyseH100(w);
    const QString a = m_dir.filePath(QStringLiteral("h100.crossroof"));
    QVERIFY(w.saveSession(a));
    // Open B: the GTX 570 sample, without kernels, traces of these files, what-ifs or training runs.
    QVERIFY(w.openSession(kGtx570));
    findNothingOfH100(w);
    QCOMPARE(w.state()->profile().id, std::string("gtx570-sp"));
    QCOMPARE(w.currentViewName(), QStringLiteral("xgraph"));
    QCOMPARE(w.traceState()->traces().size(), core::loadSessionFile(kGtx570.toStdString()).traces.size());
    // And back to A: all of it again.
    QVERIFY(w.openSession(a));
    QVERIFY(w.kernelTable()->report());
    w.figurePlots(QStringLiteral("roofline"));
    QVERIFY(!w.rooflineView()->points().empty());
    w.extrapolatePanel()->waitForResult();
    QVERIFY(w.extrapolatePanel()->model());
}

void TestSessionWindow::newSessionLeavesNothing()
{
    app::MainWindow fresh;
    app::MainWindow w;
    analyseH100(w);
    QVERIFY(w.saveSession(m_dir.filePath(QStringLiteral("before-new.crossroof"))));
    QVERIFY(w.newSession());
    findNothingOfH100(w);
    QVERIFY(w.traceState()->traces().empty());
    QVERIFY(sameAnalysis(w.captureSession(), fresh.captureSession()));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.sessions()->path().isEmpty());
    QCOMPARE(w.windowTitle(), fresh.windowTitle());
}

void TestSessionWindow::trainingKernelsZoomAndTabAreRestored()
{
    const QString path = m_dir.filePath(QStringLiteral("whole.crossroof"));
    QCPRange x, y;
    {
        app::MainWindow w;
        analyseH100(w);
        w.extrapolatePanel()->smoothingBox()->setChecked(false);
        const auto *navigator = widgets::PlotNavigator::of(w.xgraphView()->plot());
        x = navigator->userXRange();
        y = navigator->userYRange();
        QVERIFY(w.saveSession(path));
    }
    app::MainWindow w;
    QVERIFY(w.openSession(path));
    QCOMPARE(w.currentViewName(), QStringLiteral("roofline"));
    // The Kernels dock's file, on the roofline too.
    QVERIFY(w.kernelTable()->report());
    QCOMPARE(QString::fromStdString(w.kernelTable()->report()->source), kNcuH100);
    QVERIFY(w.kernelTable()->table()->model()->rowCount() > 0);
    w.figurePlots(QStringLiteral("roofline"));
    QVERIFY(!w.rooflineView()->points().empty());
    // The roofline's toggles as they were: no names, no L1/L2 points; the predictions still drawn.
    QVERIFY(!w.rooflineView()->namesBox()->isChecked());
    QVERIFY(!w.rooflineView()->levelsBox()->isChecked());
    QVERIFY(w.rooflineView()->predictionsBox()->isChecked());
    const QString csv = w.rooflineView()->csv();
    QVERIFY(csv.contains(QStringLiteral("kernel DRAM")) && csv.contains(QStringLiteral("predicted")));
    // Extrapolate's training runs, trained again with the smoothing as it was.
    w.extrapolatePanel()->waitForResult();
    QVERIFY(w.extrapolatePanel()->model());
    QVERIFY(!w.extrapolatePanel()->smoothingBox()->isChecked());
    QCOMPARE(w.extrapolatePanel()->evaluation()->trainingSet()->rows.size(),
             core::readTrainingSet(kTraining.toStdString()).rows.size());
    QVERIFY(w.extrapolatePanel()->table()->rowCount() > 0);
    QVERIFY(w.nothingToDraw(QStringLiteral("extrapolate")).isEmpty());
    // The X-graph's zoom.
    QCustomPlot *plot = w.xgraphView()->plot();
    const auto *navigator = widgets::PlotNavigator::of(plot);
    QVERIFY(navigator->isZoomed());
    QCOMPARE(navigator->userXRange().lower, x.lower);
    QCOMPARE(navigator->userXRange().upper, x.upper);
    QCOMPARE(navigator->userYRange().lower, y.lower);
    QCOMPARE(navigator->userYRange().upper, y.upper);
    plot->replot();
    QCOMPARE(plot->xAxis->range().lower, x.lower);
    QCOMPARE(plot->yAxis->range().upper, y.upper);
    // The unchanged views are not zoomed.
    QVERIFY(!widgets::PlotNavigator::of(w.rooflineView()->plot())->isZoomed());
    QVERIFY(!w.isWindowModified());
}

void TestSessionWindow::aViewSaysWhenItHasNothingToDraw()
{
    // What crossroof-cli render refuses to draw (tst_render_command): the view's empty panel says why.
    app::MainWindow w;
    QCOMPARE(w.nothingToDraw(QStringLiteral("extrapolate")), QStringLiteral("No training data yet."));
    QVERIFY(w.nothingToDraw(QStringLiteral("xgraph")).isEmpty());
    QVERIFY(w.extrapolatePanel()->loadTrainingFile(kTraining));
    w.extrapolatePanel()->waitForResult();
    QVERIFY(w.nothingToDraw(QStringLiteral("extrapolate")).isEmpty());
}

void TestSessionWindow::modifiedMarkAndTitle()
{
    const QString path = m_dir.filePath(QStringLiteral("title.crossroof"));
    app::MainWindow w;
    QVERIFY(!w.isWindowModified());
    w.state()->applyValue(QStringLiteral("Z"), 7.0);
    QVERIFY(w.isWindowModified());
    QVERIFY(w.saveSession(path));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("title.crossroof")));
    w.occupancyState()->setRegistersPerThread(99);
    QVERIFY(w.isWindowModified());
    QVERIFY(w.saveSession(path));
    // Undone back to what was saved: nothing to save, so closing asks nothing; redone: modified again.
    w.state()->applyValue(QStringLiteral("Z"), 9.0);
    w.state()->applyValue(QStringLiteral("E"), 2.0);
    QVERIFY(w.isWindowModified());
    w.state()->undoStack()->undo();
    QVERIFY(w.isWindowModified()); // Z is still 9
    w.state()->undoStack()->undo();
    QVERIFY(!w.isWindowModified());
    w.state()->undoStack()->redo();
    QVERIFY(w.isWindowModified());
    w.state()->undoStack()->undo();
    QVERIFY(!w.isWindowModified());
    // A change the undo stack does not hold, made and then undone by hand, is not mistaken for the saved state
    // while it differs: back at the clean index with another Z the session is still modified.
    w.state()->applyValue(QStringLiteral("Z"), 11.0);
    w.state()->undoStack()->undo();
    QVERIFY(!w.isWindowModified());
    w.zigzagView()->latencyEdit()->setText(QStringLiteral("500"));
    QVERIFY(w.isWindowModified());
}

void TestSessionWindow::tracesCanBeLinkedToTheirFiles()
{
    QTemporaryDir dir;
    const QString study = dir.filePath(QStringLiteral("study"));
    QVERIFY(QDir().mkpath(study + QStringLiteral("/data")));
    const QString data = study + QStringLiteral("/data/v100.txt");
    QVERIFY(QFile::copy(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt"), data));
    const QString path = study + QStringLiteral("/linked.crossroof");
    auto read = [](const QString &file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };

    app::MainWindow w;
    QVERIFY(!w.linkTracesAction()->isChecked()); // embedded unless the user chooses otherwise
    QCOMPARE(w.tracesPanel()->importFile(data), QString());
    const QString first = w.traceState()->ids().front();
    w.traceState()->rename(first, QStringLiteral("init, as measured"));
    w.traceState()->setVisible(w.traceState()->ids().back(), false);
    QVERIFY(w.saveSession(path));
    QVERIFY(read(path).contains(QStringLiteral("\"x\":[")));
    w.linkTracesAction()->trigger();
    QVERIFY(w.isWindowModified()); // the choice is part of the session
    QVERIFY(w.saveSession(path));
    QVERIFY(read(path).contains(QStringLiteral("\"link\":\"data/v100.txt\"")));
    QVERIFY(!read(path).contains(QStringLiteral("\"x\":[")));

    {
        app::MainWindow again;
        QVERIFY(again.openSession(path));
        QVERIFY(again.linkTracesAction()->isChecked());
        QVERIFY(sameAnalysis(again.captureSession(), w.captureSession()));
        QCOMPARE(again.traceState()->trace(first)->name, std::string("init, as measured"));
    }

    // The session and its data moved together.
    const QString moved = dir.filePath(QStringLiteral("moved"));
    QVERIFY(QDir().rename(study, moved));
    {
        app::MainWindow again;
        QVERIFY(again.openSession(moved + QStringLiteral("/linked.crossroof")));
        QCOMPARE(again.traceState()->traces().size(), w.traceState()->traces().size());
        QVERIFY(!again.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
    }

    // The data file gone: the session opens without its traces and says which field and file.
    QVERIFY(QFile::remove(moved + QStringLiteral("/data/v100.txt")));
    app::MainWindow again;
    QVERIFY(again.openSession(moved + QStringLiteral("/linked.crossroof")));
    QVERIFY(again.traceState()->traces().empty());
    QVERIFY(again.captureSession().params == w.captureSession().params);
    QVERIFY(!again.isWindowModified()); // the file still has its links
    auto *box = again.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("field 'traces[0].link' (data/v100.txt)"))
                     && box->text().contains(moved + QStringLiteral("/data/v100.txt")),
             qPrintable(box->text()));
}

// A session whose linked file takes long to read (here a FIFO nobody writes to: read for five seconds, then
// refused) shows its progress; Cancel gives the window back at once, with the analysis as it was.
void TestSessionWindow::aLongOpenShowsProgressAndCanBeCancelled()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("v100.txt"));
    QVERIFY(QFile::copy(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt"), data));
    const QString path = dir.filePath(QStringLiteral("linked.crossroof"));
    {
        app::MainWindow w;
        QCOMPARE(w.tracesPanel()->importFile(data), QString());
        w.linkTracesAction()->trigger();
        QVERIFY(w.saveSession(path));
    }
    QVERIFY(QFile::remove(data));
    QVERIFY(::mkfifo(QFile::encodeName(data).constData(), 0600) == 0);

    app::MainWindow w;
    w.resize(1024, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.state()->applyValue(QStringLiteral("Z"), 7.25);
    QString label;
    QTimer watch;
    connect(&watch, &QTimer::timeout, this, [&] {
        for (QWidget *top : QApplication::topLevelWidgets()) {
            auto *dialog = qobject_cast<QProgressDialog *>(top);
            if (dialog && dialog->isVisible() && label.isEmpty()) {
                label = dialog->labelText();
                dialog->findChild<QPushButton *>()->click();
            }
        }
    });
    watch.start(10);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!w.openSession(path));
    // The FIFO would keep the read waiting kStreamWaitSeconds.
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 - 500, "the open waited for the read to end");
    QCOMPARE(label, QStringLiteral("Opening linked.crossroof…"));
    QCOMPARE(w.state()->params().Z, 7.25); // nothing of the session was applied
    QVERIFY(w.traceState()->traces().empty());
    QVERIFY(!w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
}

void TestSessionWindow::latin1FolderOpensAndSaves()
{
    // A folder named in Latin-1: Qt 6 decodes file names as UTF-8 and turns the byte 0xE9 into U+FFFD under
    // every locale (C and C.UTF-8 alike), so QFile::decodeName() of these bytes names another folder; the GUI
    // carries them as pathFromNative() makes them.
    QTemporaryDir dir;
    const std::string folder = QFile::encodeName(dir.path()).toStdString() + "/r\xe9sultats";
    std::filesystem::create_directories(folder + "/data");
    std::filesystem::copy_file(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt", folder + "/data/v100.txt");
    const QString study = widgets::pathFromNative(folder);
    QCOMPARE(widgets::nativePath(study), folder);

    // A trace from it, then the session saved into it with the trace linked.
    app::MainWindow w;
    QCOMPARE(w.tracesPanel()->importFile(study + QStringLiteral("/data/v100.txt")), QString());
    QVERIFY(!w.traceState()->traces().empty());
    QCOMPARE(w.traceState()->traces().front().source, folder + "/data/v100.txt");
    w.linkTracesAction()->trigger();
    const QString path = study + QStringLiteral("/linked.crossroof");
    QVERIFY(w.saveSession(path));
    QVERIFY(std::filesystem::is_regular_file(folder + "/linked.crossroof"));
    QVERIFY(!w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));

    // Opened again: its linked trace is read from the folder, and Save writes back to the same file.
    app::MainWindow again;
    QVERIFY(again.openSession(path));
    QVERIFY(!again.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
    QCOMPARE(again.traceState()->traces().size(), w.traceState()->traces().size());
    QVERIFY(sameAnalysis(again.captureSession(), w.captureSession()));
    QCOMPARE(widgets::nativePath(again.sessions()->path()), folder + "/linked.crossroof");
    again.state()->applyValue(QStringLiteral("Z"), 7.5);
    QVERIFY(again.saveSession(again.sessions()->path()));
    QVERIFY(!again.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
    app::MainWindow third;
    QVERIFY(third.openSession(path));
    QCOMPARE(third.state()->value(QStringLiteral("Z")), 7.5);

    // File > Open Recent after a restart: the settings file is read again from the disk (rewritten, so that
    // QSettings parses it anew rather than keep what this process wrote), and the session it names opens. The
    // list was kept as UTF-8 text, which turned the byte into U+FFFD: "No such file".
    {
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        file.close();
        QTest::qWait(20); // a later modification time
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(bytes);
        file.close();
        settings.sync();
    }
    const QStringList recent = app::MainWindow::recentSessions();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(widgets::nativePath(recent.constFirst()), folder + "/linked.crossroof");
    app::MainWindow fourth;
    QVERIFY(fourth.openSession(recent.constFirst()));
    QVERIFY(!fourth.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
    QCOMPARE(fourth.state()->value(QStringLiteral("Z")), 7.5);
}

void TestSessionWindow::corruptedSessionIsRejected_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    app::MainWindow w;
    const QByteArray good = QByteArray::fromStdString(core::sessionToJson(w.captureSession()));
    QTest::newRow("truncated") << good.left(good.size() / 2) << "invalid JSON";
    QTest::newRow("empty") << QByteArray() << "invalid JSON";
    QTest::newRow("binary junk") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11) << "invalid JSON";
    QTest::newRow("bad field") << QByteArray(good).replace("\"n\":48.0", "\"n\":-3") << "parameters.n': must be between";
}

void TestSessionWindow::corruptedSessionIsRejected()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    const QString path = m_dir.filePath(QStringLiteral("bad.crossroof"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
    f.close();
    app::MainWindow w;
    w.state()->applyValue(QStringLiteral("Z"), 9.0);
    const core::Session before = w.captureSession();
    QVERIFY(!w.openSession(path));
    QVERIFY(sameAnalysis(w.captureSession(), before)); // the analysis stays
    auto *box = w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(path) && box->text().contains(message), qPrintable(box->text()));
    QFile again(path);
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), content); // and the file is untouched
}

void TestSessionWindow::killDuringSaveNeverLeavesAPartialFile()
{
    const QString path = m_dir.filePath(QStringLiteral("killed.crossroof"));
    for (int round = 0; round < 5; ++round) {
        QProcess child;
        child.setProgram(QCoreApplication::applicationFilePath());
        child.setArguments({QStringLiteral("--save-loop"), path});
        child.start();
        QVERIFY(child.waitForStarted());
        QTest::qWait(150 + 37 * round);
        // A child that already ended has no process id: kill(0) would kill this test's own process group.
        const qint64 pid = child.processId();
        QVERIFY2(pid > 0 && child.state() == QProcess::Running, qPrintable(child.readAllStandardError()));
        ::kill(pid_t(pid), SIGKILL);
        QVERIFY(child.waitForFinished());
        if (!QFile::exists(path))
            continue; // killed before the first save completed
        QVERIFY2(core::loadSessionFile(path.toStdString()).params.n >= 1, "the file must be a whole session");
    }
}

/// With --save-loop PATH the test binary saves sessions to PATH until it is killed (see the test above).
void TestSessionWindow::savingLeavesHiddenViewsAsTheyAre()
{
    // Saving (and the autosave, which may come in the middle of a drag) writes the document; it neither draws
    // the views behind other tabs nor waits for them. Only a zoomed view is asked for its plots.
    app::MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QCoreApplication::processEvents();
    int hiddenReplots = 0;
    for (QCustomPlot *plot : w.levelsView()->findChildren<QCustomPlot *>())
        connect(plot, &QCustomPlot::afterReplot, &w, [&] { ++hiddenReplots; });
    w.state()->setValue(QStringLiteral("L"), w.state()->params().L * 1.5);
    QCoreApplication::processEvents();
    QCOMPARE(hiddenReplots, 0); // behind its tab, the Memory Levels view waits to be shown
    QVERIFY(w.saveSession(m_dir.filePath(QStringLiteral("hidden.crossroof"))));
    QCOMPARE(hiddenReplots, 0);
    QVERIFY(w.showView(QStringLiteral("levels")));
    QCoreApplication::processEvents();
    QVERIFY(hiddenReplots > 0); // shown, it catches up
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("CrossroofTests"));
    if (argc == 3 && QByteArray(argv[1]) == "--save-loop") {
        QStandardPaths::setTestModeEnabled(true);
        app::MainWindow w;
        for (int i = 0;; ++i) {
            w.state()->setValue(QStringLiteral("n"), 1 + i % 64);
            w.saveSession(QString::fromLocal8Bit(argv[2]));
        }
    }
    TestSessionWindow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_session_window.moc"
