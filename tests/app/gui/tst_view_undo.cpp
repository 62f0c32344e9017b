// SPDX-License-Identifier: GPL-3.0-or-later
// Undo and redo of the views' inputs through the window's Edit menu shortcuts (issue 7).
#include "export_controller.h"
#include "main_window.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "state/occupancy_state.h"
#include "occupancy/occupancy_view.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "roofline/roofline_view.h"
#include "skeleton/skeleton_view.h"
#include "stability/stability_view.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;

namespace {

/// Accepts Ctrl+E's shortcut override, as a line edit does where Ctrl+E is End of line.
class ClaimsEndOfLine : public QObject
{
protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() != QEvent::ShortcutOverride)
            return false;
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() != Qt::Key_E || key->modifiers() != Qt::ControlModifier)
            return false;
        event->accept();
        return true;
    }
};

/// The points of a graph, to compare what a plot shows before and after.
QVector<QPointF> points(const QCPGraph *graph)
{
    QVector<QPointF> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        out << QPointF(it->key, it->value);
    return out;
}

} // namespace

class TestViewUndo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void occupancyInput();
    void heldSpinBoxArrowIsOneStep();
    void zigzagInput();
    void typingATmmInputIsOneStep();
    void apspPresetIsOneStep();
    void linkingNIsUndoneWithN();
    void profileSwitchIsOneStep();
    void markovInput();
    void stabilityInput();
    void mappingAndStrategy();
    void everyPartOfTheDocumentIsUndoable();
    void undoBringsItsViewForwardAndSaysWhat();
    void menuShortcutsReachTheWindowFromASpinBox();

private:
    void undo() { QTest::keySequence(m_window, QKeySequence::Undo); }
    void redo() { QTest::keySequence(m_window, QKeySequence::Redo); }
    QUndoStack *stack() const { return m_window->state()->undoStack(); }

    app::MainWindow *m_window = nullptr;
};

void TestViewUndo::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestViewUndo::init()
{
    // Shown and active: the shortcuts reach the Edit menu, and gestures have a focus.
    m_window = new app::MainWindow;
    m_window->show();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
}

void TestViewUndo::cleanup()
{
    m_window->setWindowModified(false); // no question on closing
    delete m_window;
}

void TestViewUndo::occupancyInput()
{
    widgets::OccupancyView *view = m_window->occupancyView();
    QSpinBox *regs = view->registersBox();
    const int before = regs->value();
    const QString summary = view->summaryLabel()->text();
    const auto curve = points(view->sweepPlot(1)->graph(0));
    const auto marker = points(view->sweepPlot(1)->graph(1));
    regs->setValue(200);
    QVERIFY(view->summaryLabel()->text() != summary);
    QVERIFY(points(view->sweepPlot(1)->graph(1)) != marker);
    QCOMPARE(stack()->count(), 1);
    QCOMPARE(stack()->undoText(), QStringLiteral("Registers/thread %1 → 200").arg(before)); // the control, both values

    undo();
    QCOMPARE(regs->value(), before);
    QCOMPARE(view->summaryLabel()->text(), summary);
    QCOMPARE(points(view->sweepPlot(1)->graph(0)), curve);
    QCOMPARE(points(view->sweepPlot(1)->graph(1)), marker);
    QCOMPARE(stack()->count(), 1); // undoing pushed nothing
    redo();
    QCOMPARE(regs->value(), 200);
    QCOMPARE(m_window->occupancyState()->input().regs_per_thread, 200);
    QCOMPARE(stack()->count(), 1);
}

void TestViewUndo::heldSpinBoxArrowIsOneStep()
{
    m_window->showView(QStringLiteral("occupancy"));
    QSpinBox *threads = m_window->occupancyView()->threadsBox();
    const int before = threads->value();
    // Holding the up arrow: the press steps once, the auto-repeat steps on until the release.
    const QPoint upArrow(threads->width() - 4, 3);
    QTest::mousePress(threads, Qt::LeftButton, {}, upArrow);
    QCOMPARE(threads->value(), before + threads->singleStep());
    threads->stepUp();
    threads->stepUp();
    QTest::mouseRelease(threads, Qt::LeftButton, {}, upArrow);
    QCOMPARE(threads->value(), before + 3 * threads->singleStep());
    QCOMPARE(stack()->count(), 1);
    // A second click is a step of its own.
    QTest::mouseClick(threads, Qt::LeftButton, {}, upArrow);
    QCOMPARE(stack()->count(), 2);
    undo();
    undo();
    QCOMPARE(threads->value(), before);
    QCOMPARE(m_window->occupancyState()->input().threads_per_block, before);
}

void TestViewUndo::zigzagInput()
{
    widgets::ZigzagView *view = m_window->zigzagView();
    const int sms = view->smBox()->value();
    const auto curve = points(view->curve());
    const auto minima = points(view->minima());
    view->smBox()->setValue(sms + 7);
    QVERIFY(points(view->minima()) != minima);
    undo();
    QCOMPARE(view->smBox()->value(), sms);
    QCOMPARE(m_window->occupancyState()->smCount(), sms);
    QCOMPARE(points(view->curve()), curve);
    QCOMPARE(points(view->minima()), minima);
    redo();
    QCOMPARE(view->smBox()->value(), sms + 7);
}

void TestViewUndo::typingATmmInputIsOneStep()
{
    m_window->showView(QStringLiteral("zigzag"));
    widgets::ZigzagView *view = m_window->zigzagView();
    QLineEdit *work = view->workEdit();
    const QString before = work->text();
    QVERIFY(view->tmmResult());
    const double workTerm = view->tmmResult()->work_term;
    const auto time = points(view->timeCurve());
    work->setFocus();
    QTRY_VERIFY(work->hasFocus());
    work->selectAll();
    QTest::keyClicks(work, QStringLiteral("4e12")); // four changes of the text
    QVERIFY(view->tmmResult()->work_term > workTerm);
    QCOMPARE(stack()->count(), 1);
    QCOMPARE(stack()->undoText(), QStringLiteral("T1 %1 → 4e12").arg(before));
    QTest::keyClick(work, Qt::Key_Return);
    QTest::keyClicks(work, QStringLiteral("0")); // after Enter: the next step
    QCOMPARE(stack()->count(), 2);

    undo();
    QCOMPARE(work->text(), QStringLiteral("4e12"));
    undo();
    QCOMPARE(work->text(), before);
    QCOMPARE(view->tmmResult()->work_term, workTerm);
    QCOMPARE(points(view->timeCurve()), time);
    QCOMPARE(stack()->count(), 2);
    redo();
    QCOMPARE(work->text(), QStringLiteral("4e12"));
    QVERIFY(view->tmmResult()->work_term > workTerm);
}

void TestViewUndo::apspPresetIsOneStep()
{
    m_window->showView(QStringLiteral("zigzag"));
    widgets::ZigzagView *view = m_window->zigzagView();
    const core::TmmSettings before = view->settings();
    QVERIFY(m_window->occupancyState()->requestedBlocksMaxIsAuto());
    const auto curve = points(view->curve());
    // The preset fills the TMM inputs and widens the plotted B_r to its B_r = (8192/32)^2: two views, one click.
    QTest::mouseClick(view->apspButton(), Qt::LeftButton);
    QCOMPARE(view->requestedBlocksEdit()->text(), QStringLiteral("65536"));
    QVERIFY(!m_window->occupancyState()->requestedBlocksMaxIsAuto());
    QCOMPARE(stack()->count(), 1);
    undo();
    QVERIFY(view->settings() == before);
    QVERIFY(m_window->occupancyState()->requestedBlocksMaxIsAuto());
    QCOMPARE(points(view->curve()), curve);
    redo();
    QCOMPARE(view->requestedBlocksEdit()->text(), QStringLiteral("65536"));
    QVERIFY(!m_window->occupancyState()->requestedBlocksMaxIsAuto());
}

void TestViewUndo::linkingNIsUndoneWithN()
{
    widgets::ParameterState *state = m_window->state();
    m_window->occupancyView()->threadsBox()->setValue(64); // B_a * 2 warps, unlike the profile's n
    const double n = state->params().n;
    m_window->occupancyView()->linkBox()->setChecked(true);
    QCOMPARE(state->params().n, double(m_window->occupancyState()->residentWarps()));
    QVERIFY(state->params().n != n);
    undo();
    QVERIFY(!m_window->occupancyView()->linkBox()->isChecked());
    QCOMPARE(state->params().n, n);
    redo();
    QVERIFY(m_window->occupancyView()->linkBox()->isChecked());
    QCOMPARE(state->params().n, double(m_window->occupancyState()->residentWarps()));
}

void TestViewUndo::profileSwitchIsOneStep()
{
    // The SM count follows the profile: part of the switch, not a step of its own.
    const long long sms = m_window->occupancyState()->smCount();
    m_window->state()->applyProfile(*core::findBundledProfile("a100-40"));
    QCOMPARE(m_window->occupancyState()->smCount(), 108);
    QCOMPARE(stack()->count(), 1);
    undo();
    QCOMPARE(m_window->occupancyState()->smCount(), sms);
    // A change after a switch undoes to the switched-to state.
    redo();
    m_window->zigzagView()->smBox()->setValue(100);
    undo();
    QCOMPARE(m_window->occupancyState()->smCount(), 108);
    QCOMPARE(stack()->count(), 2);
}

void TestViewUndo::markovInput()
{
    widgets::MarkovView *view = m_window->markovView();
    const core::MarkovSettings before = view->settings();
    const double states = view->surface().system_states;
    const auto slice = points(view->sliceGraph());
    view->groupsBox()->setValue(before.groups + 2);
    QVERIFY(view->surface().system_states > states);
    QCOMPARE(stack()->undoText(), QStringLiteral("Groups %1 → %2").arg(before.groups).arg(before.groups + 2));
    // A click on the map chooses the slice: a step of its own.
    m_window->showView(QStringLiteral("markov"));
    QTRY_VERIFY(view->mapPlot()->axisRect()->rect().width() > 10);
    const QRect map = view->mapPlot()->axisRect()->rect();
    QTest::mouseClick(view->mapPlot(), Qt::LeftButton, {}, map.topLeft() + QPoint(map.width() / 10, map.height() / 10));
    QVERIFY(view->selectedP() != before.p_index);
    QCOMPARE(stack()->count(), 2);
    undo();
    QCOMPARE(view->selectedP(), before.p_index);
    undo();
    QVERIFY(view->settings() == before);
    QCOMPARE(view->groupsBox()->value(), before.groups);
    QCOMPARE(view->surface().system_states, states);
    QCOMPARE(points(view->sliceGraph()), slice);
    redo();
    QCOMPARE(view->groupsBox()->value(), before.groups + 2);
    QCOMPARE(stack()->count(), 2);
}

void TestViewUndo::stabilityInput()
{
    widgets::StabilityView *view = m_window->stabilityView();
    view->waitForMap();
    const core::StabilitySettings before = view->settings();
    const std::vector<int> counts = view->map().stable_count;
    QComboBox *y = view->yKeyBox();
    y->setCurrentIndex(y->findData(QStringLiteral("E")));
    view->waitForMap();
    QCOMPARE(view->map().y.key, std::string("E"));
    QCOMPARE(stack()->undoText(), QStringLiteral("Map y %1 → E").arg(QString::fromStdString(before.y_key)));
    undo();
    QVERIFY(view->settings() == before);
    view->waitForMap();
    QCOMPARE(view->map().y.key, before.y_key);
    QVERIFY(view->map().stable_count == counts);
    QCOMPARE(stack()->count(), 1);
    redo();
    view->waitForMap();
    QCOMPARE(view->map().y.key, std::string("E"));
}

void TestViewUndo::mappingAndStrategy()
{
    // A strategy as the Markov topology is a step; a measured point in the mapping table is another.
    widgets::MarkovView *markov = m_window->markovView();
    const std::vector<int> shape = markov->topology();
    m_window->showView(QStringLiteral("markov"));
    markov->topologyBox()->setFocus();
    QTRY_VERIFY(markov->topologyBox()->hasFocus());
    markov->topologyBox()->setCurrentIndex(markov->topologyBox()->findData(QStringLiteral("clovertown-x5365/8T_2")));
    QCOMPARE(markov->topology(), (std::vector<int>{4, 4}));
    widgets::MappingView *mapping = m_window->mappingView();
    const double cpi = mapping->predictions()[1].result.cpi;
    m_window->showView(QStringLiteral("mapping"));
    mapping->table()->setFocus(); // another field: another gesture
    QTRY_VERIFY(mapping->table()->hasFocus());
    mapping->table()->item(1, widgets::MappingView::Q)->setText(QStringLiteral("0.99"));
    QVERIFY(mapping->predictions()[1].result.cpi > cpi);
    QCOMPARE(stack()->undoText(), QStringLiteral("%1 (p, q) none → (%2, 0.99)")
                                          .arg(QString::fromStdString(mapping->settings().points.front().strategy))
                                          .arg(mapping->settings().points.front().p));
    QCOMPARE(stack()->count(), 2);
    undo();
    QCOMPARE(mapping->predictions()[1].result.cpi, cpi);
    QVERIFY(mapping->settings().points.empty());
    undo();
    QCOMPARE(markov->topology(), shape);
    QVERIFY(markov->groupsBox()->isEnabled());
    redo();
    QCOMPARE(markov->topology(), (std::vector<int>{4, 4}));
    // Switching the X-model profile keeps both and adds no step of theirs.
    m_window->state()->applyProfile(*core::findBundledProfile("v100"));
    QCOMPARE(stack()->count(), 2);
    QCOMPARE(markov->topology(), (std::vector<int>{4, 4}));
}

void TestViewUndo::everyPartOfTheDocumentIsUndoable()
{
    // The roofline's options and the code skeleton are parts of the analysis like the others: a click is a
    // step of the one history, named for its part, and Undo puts the view back.
    m_window->showView(QStringLiteral("roofline"));
    QCheckBox *names = nullptr;
    for (QCheckBox *box : m_window->rooflineView()->findChildren<QCheckBox *>()) {
        if (box->text() == QStringLiteral("&Names"))
            names = box;
    }
    QVERIFY(names);
    QVERIFY(names->isChecked());
    QTest::mouseClick(names, Qt::LeftButton);
    QVERIFY(!names->isChecked());
    QCOMPARE(stack()->count(), 1);
    QCOMPARE(stack()->undoText(), QStringLiteral("Names on → off"));

    widgets::SkeletonView *skeleton = m_window->skeletonView();
    core::SkeletonSettings k = skeleton->settings();
    const int unroll = k.unroll;
    k.unroll = unroll == 2 ? 8 : 2;
    m_window->showView(QStringLiteral("skeleton"));
    auto *unrollBox = skeleton->findChild<QSpinBox *>();
    QVERIFY(unrollBox);
    unrollBox->setFocus(); // another field: another gesture
    QTRY_VERIFY(unrollBox->hasFocus());
    skeleton->setSettings(k);
    QCOMPARE(stack()->count(), 2);
    QCOMPARE(stack()->undoText(), QStringLiteral("Unroll %1 → %2").arg(unroll).arg(k.unroll));
    QCOMPARE(m_window->captureSession().skeleton.unroll, k.unroll);

    undo();
    QCOMPARE(skeleton->settings().unroll, unroll);
    QCOMPARE(m_window->captureSession().skeleton.unroll, unroll);
    undo();
    QVERIFY(names->isChecked());
    QVERIFY(m_window->captureSession().roofline.names);
    redo();
    QVERIFY(!names->isChecked());
}

void TestViewUndo::undoBringsItsViewForwardAndSaysWhat()
{
    // Unroll changed on the Code Skeleton, then the X-graph in front: Undo shows the skeleton again (else the
    // step changes nothing visible) and the status bar names the control and both values.
    m_window->showView(QStringLiteral("skeleton"));
    widgets::SkeletonView *skeleton = m_window->skeletonView();
    auto *unrollBox = skeleton->findChild<QSpinBox *>();
    QVERIFY(unrollBox);
    const int unroll = unrollBox->value();
    const int other = unroll == 8 ? 2 : 8;
    unrollBox->setFocus();
    QTRY_VERIFY(unrollBox->hasFocus());
    unrollBox->setValue(other);
    QCOMPARE(stack()->undoText(), QStringLiteral("Unroll %1 → %2").arg(unroll).arg(other));
    m_window->showView(QStringLiteral("xgraph"));
    undo();
    QCOMPARE(m_window->currentViewName(), QStringLiteral("skeleton"));
    QCOMPARE(unrollBox->value(), unroll);
    QCOMPARE(m_window->statusBar()->currentMessage(),
             QStringLiteral("Code Skeleton: Unroll %1 → %2").arg(other).arg(unroll));
    m_window->showView(QStringLiteral("xgraph"));
    redo();
    QCOMPARE(m_window->currentViewName(), QStringLiteral("skeleton"));
    QCOMPARE(m_window->statusBar()->currentMessage(),
             QStringLiteral("Code Skeleton: Unroll %1 → %2").arg(unroll).arg(other));

    // The SM count is an occupancy input the Zigzag view edits: its undo shows the zigzag, not Occupancy.
    const int sms = m_window->zigzagView()->smBox()->value();
    m_window->zigzagView()->smBox()->setValue(sms + 7);
    QCOMPARE(stack()->undoText(), QStringLiteral("SMs %1 → %2").arg(sms).arg(sms + 7));
    m_window->showView(QStringLiteral("occupancy"));
    undo();
    QCOMPARE(m_window->currentViewName(), QStringLiteral("zigzag"));
    // And Registers/thread is the Occupancy view's.
    m_window->occupancyView()->registersBox()->setValue(64);
    undo();
    QCOMPARE(m_window->currentViewName(), QStringLiteral("occupancy"));
}

void TestViewUndo::menuShortcutsReachTheWindowFromASpinBox()
{
    // Ctrl+E (File > Export Figure) typed in a spin box moved its cursor to the end of the text instead.
    QAction *exportFigure = m_window->exporter()->figureAction();
    QCOMPARE(exportFigure->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QObject::disconnect(exportFigure, &QAction::triggered, nullptr, nullptr); // no file dialog in a test
    QSignalSpy triggered(exportFigure, &QAction::triggered);
    m_window->showView(QStringLiteral("occupancy"));
    QSpinBox *regs = m_window->occupancyView()->registersBox();
    // Under the X11, KDE and GNOME key schemes the box's line edit claims Ctrl+E as End of line (the offscreen
    // platform of the tests has the Windows scheme, where it does not): claim it as the box does there.
    ClaimsEndOfLine claim;
    regs->installEventFilter(&claim);
    regs->findChild<QLineEdit *>()->installEventFilter(&claim);
    regs->setFocus();
    QTRY_VERIFY(regs->hasFocus());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::ControlModifier);
    QCOMPARE(triggered.count(), 1);
    // Typing into the box still types.
    regs->selectAll();
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("48"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QCOMPARE(regs->value(), 48);
}

QTEST_MAIN(TestViewUndo)
#include "tst_view_undo.moc"
