// SPDX-License-Identifier: GPL-3.0-or-later
// Nothing on screen is left over from before: the status bar speaks of the view in front, the file dialogs
// open where the last data file was chosen, the calibration dialog keeps its sources when it is closed.
#include "main_window.h"
#include "calibration/joint_calibration_dialog.h"
#include "kernels/kernel_table_view.h"
#include "common/file_folders.h"
#include "common/parameter_state.h"
#include "markov/extrapolate_panel.h"
#include "markov/markov_view.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "xgraph/xgraph_view.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace crossroof;

namespace {

const QString kNcuH100 = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
const QString kStreamV100 = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt");
const QString kTraining = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");
const QString kFamily = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/family.csv");

/// Clicks BUTTON, which asks for a file, and chooses FILE. Returns the folder the request opened in. The request
/// is answered through widgets::setFileChooser(): QFileDialog's own widget dialog, driven from a timer, hung the
/// test in some runs (a warning box of its own, modal over it, waited for a click).
QString chooseIn(QAbstractButton *button, const QString &file)
{
    QString opened;
    int asked = 0;
    widgets::setFileChooser([&](const widgets::FileRequest &request) {
        ++asked;
        opened = request.start;
        return file;
    });
    button->click();
    widgets::setFileChooser({});
    if (asked != 1)
        qWarning("the button asked for %d files", asked);
    return asked == 1 ? opened : QString();
}

} // namespace

class TestStaleState : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void statusBarSpeaksOfTheViewInFront();
    void dataFileDialogsShareOneFolder();
    void calibrationDialogKeepsItsSources();
};

void TestStaleState::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings too: the user's own folders stay untouched
    QSettings().clear();
}

void TestStaleState::statusBarSpeaksOfTheViewInFront()
{
    // The H100 kernels run 62 to 64 warps per SM, beyond the default profile's n: the X-graph says so. Imported
    // while the roofline is in front, the note waits for the X-graph.
    app::MainWindow w;
    w.show();
    QVERIFY(w.showView(QStringLiteral("roofline")));
    QCOMPARE(w.tracesPanel()->importFile(kNcuH100), QString());
    const QString notice = w.xgraphView()->dataNotice();
    QVERIFY2(!notice.isEmpty(), "the kernels lie beyond n");
    QVERIFY2(w.statusBar()->currentMessage() != notice, qPrintable(w.statusBar()->currentMessage()));
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QCOMPARE(w.statusBar()->currentMessage(), notice);
    // Another view in front: not the X-graph's note.
    QVERIFY(w.showView(QStringLiteral("markov")));
    QVERIFY2(w.statusBar()->currentMessage().isEmpty(), qPrintable(w.statusBar()->currentMessage()));
    QCOMPARE(w.tabMessages()->message(QStringLiteral("markov")), QString());
    // What the Markov view says is its own, and goes when it is left.
    Q_EMIT w.markovView()->hoverTextChanged(QStringLiteral("p = 0.5, q = 0.9: CPI 2.1"));
    QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("p = 0.5, q = 0.9: CPI 2.1"));
    QVERIFY(w.showView(QStringLiteral("xgraph")));
    QCOMPARE(w.statusBar()->currentMessage(), notice);
    QVERIFY(w.showView(QStringLiteral("roofline")));
    QVERIFY(w.statusBar()->currentMessage().isEmpty());
}

void TestStaleState::dataFileDialogsShareOneFolder()
{
    // Every data file's dialog opens where the last data file was chosen, whichever button asked for it, also
    // in a new window (and a new run: the folder is in the settings).
    QTemporaryDir dir;
    const QString traces = dir.filePath(QStringLiteral("stream"));
    const QString kernels = dir.filePath(QStringLiteral("ncu"));
    const QString training = dir.filePath(QStringLiteral("runs"));
    for (const QString &folder : {traces, kernels, training})
        QVERIFY(QDir().mkpath(folder));
    QVERIFY(QFile::copy(kStreamV100, traces + QStringLiteral("/v100.txt")));
    QVERIFY(QFile::copy(kNcuH100, kernels + QStringLiteral("/h100.csv")));
    QVERIFY(QFile::copy(kTraining, training + QStringLiteral("/training.csv")));
    {
        app::MainWindow w;
        w.show();
        QPushButton *importTrace = w.tracesPanel()->importButton();
        QPushButton *openKernels = w.kernelTable()->openButton();
        QPushButton *importTraining = w.extrapolatePanel()->importButton();
        chooseIn(importTrace, traces + QStringLiteral("/v100.txt"));
        QVERIFY(!w.traceState()->traces().empty());
        // The kernels' dialog opens where the trace was chosen.
        QCOMPARE(chooseIn(openKernels, kernels + QStringLiteral("/h100.csv")), traces);
        QVERIFY(w.kernelTable()->report());
        QCOMPARE(chooseIn(importTraining, training + QStringLiteral("/training.csv")), kernels);
        QCOMPARE(chooseIn(importTrace, traces + QStringLiteral("/v100.txt")), training);
        w.extrapolatePanel()->waitForResult();
    }
    app::MainWindow w;
    w.show();
    QCOMPARE(chooseIn(w.kernelTable()->openButton(), kernels + QStringLiteral("/h100.csv")), traces);
    QCOMPARE(chooseIn(w.tracesPanel()->importButton(), traces + QStringLiteral("/v100.txt")), kernels);
    QCOMPARE(QSettings().value(QStringLiteral("files/directory")).toString(), traces);
    w.setWindowModified(false);
}

void TestStaleState::calibrationDialogKeepsItsSources()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.selectProfile(QStringLiteral("h100-sxm"))); // the family's device
    w.importer()->calibrateAction()->trigger();
    auto *dialog = w.findChild<widgets::JointCalibrationDialog *>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->addSource(core::SourceKind::Family, kFamily), qPrintable(dialog->error()));
    dialog->setWeight(0, 2.5);
    QVERIFY2(dialog->waitForFit(), qPrintable(dialog->error()));
    dialog->close();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    // Opened again: the family, its weight and a fit of it from the parameters as they are now.
    w.state()->applyValue(QStringLiteral("n"), 30);
    w.importer()->calibrateAction()->trigger();
    const auto dialogs = w.findChildren<widgets::JointCalibrationDialog *>();
    QCOMPARE(dialogs.size(), 1);
    dialog = dialogs.front();
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->sources().entries().size(), std::size_t(1));
    QCOMPARE(dialog->sources().entries().front().kind, core::SourceKind::Family);
    QCOMPARE(dialog->sources().entries().front().weight, 2.5);
    QVERIFY2(dialog->waitForFit(), qPrintable(dialog->error()));
    QVERIFY(dialog->result());
    QCOMPARE(dialog->result()->params.n, 30.0);
    w.setWindowModified(false);
}

QTEST_MAIN(TestStaleState)
#include "tst_stale_state.moc"
