// SPDX-License-Identifier: GPL-3.0-or-later
// Help that says what a control does (issue 50 item 10): F1 on the focused control, What's This of the main
// inputs, mnemonics for the workload's n, Z and E, dialogs that open on their first field.
#include "control_help.h"
#include "main_window.h"

#include "common/parameter_panel.h"
#include "markov/counters_dialog.h"
#include "markov/markov_view.h"
#include "occupancy/occupancy_view.h"
#include "skeleton/skeleton_view.h"
#include "xgraph/readout_panel.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace crossroof;

namespace {

/// The control inside ROOT that the label reading TEXT names (its buddy), or the button reading TEXT.
QWidget *control(QWidget *root, const QString &text)
{
    for (QLabel *label : root->findChildren<QLabel *>()) {
        if (label->text() == text && label->buddy())
            return label->buddy();
    }
    for (QPushButton *button : root->findChildren<QPushButton *>()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}

/// The What's This popup Qt shows, if one is visible.
QWidget *whatsThisPopup()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (w->isVisible() && QLatin1String(w->metaObject()->className()) == QLatin1String("QWhatsThat"))
            return w;
    }
    return nullptr;
}

} // namespace

class TestControlHelp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void f1ExplainsTheFocusedControl();
    void mainInputsSayWhatTheyDoAndWhereTheValueComesFrom();
    void everyControlWithATipHasItsOwnWhatsThis();
    void workloadKeysHaveMnemonics();
    void dialogsOpenOnTheirFirstField();

private:
    app::MainWindow *m_window = nullptr;
};

void TestControlHelp::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestControlHelp::init()
{
    m_window = new app::MainWindow;
    m_window->show();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
}

void TestControlHelp::cleanup()
{
    m_window->setWindowModified(false);
    delete m_window;
}

void TestControlHelp::f1ExplainsTheFocusedControl()
{
    // F1 on the Code Skeleton's Unroll: what Unroll does, beside it, not the User Guide's first page.
    m_window->showView(QStringLiteral("skeleton"));
    QWidget *unroll = control(m_window->skeletonView(), QStringLiteral("&Unroll"));
    QVERIFY(unroll);
    unroll->setFocus();
    QTRY_VERIFY(unroll->hasFocus());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F1);
    QTRY_VERIFY(whatsThisPopup());
    QVERIFY(!m_window->findChild<QDialog *>(QStringLiteral("UserGuide")));
    QVERIFY(app::helpFor(QApplication::focusWidget()).contains(QStringLiteral("innermost loop")));
    QTest::keyClick(whatsThisPopup(), Qt::Key_Escape);
    QTRY_VERIFY(!whatsThisPopup());

    // A control with no help of its own explains its view.
    m_window->showView(QStringLiteral("xgraph"));
    QWidget *view = m_window->centralWidget()->findChild<QTabWidget *>()->currentWidget();
    QWidget *plot = qobject_cast<QScrollArea *>(view)->widget();
    QCOMPARE(app::helpFor(plot), plot->whatsThis());
}

void TestControlHelp::mainInputsSayWhatTheyDoAndWhereTheValueComesFrom()
{
    // Not the view's blurb: each names itself, what it does and where its value comes from.
    widgets::SkeletonView *skeleton = m_window->skeletonView();
    widgets::OccupancyView *occupancy = m_window->occupancyView();
    const struct
    {
        QWidget *view;
        const char *control;
        const char *says;
    } cases[] = {
            {skeleton, "&Unroll", "your compiler used"},
            {skeleton, "Use in &X-graph", "Refused while the X-graph shows a GPU"},
            {occupancy, "&Registers/thread", "nvcc -Xptxas -v"},
            {occupancy, "&Block size", "<<<grid, block>>>"},
            {occupancy, "&Shared memory/block", "Dynamic Shared Memory"},
            {m_window->markovView(), "&Measured CPI", "perf stat"},
    };
    for (const auto &c : cases) {
        QWidget *w = control(c.view, QString::fromUtf8(c.control));
        QVERIFY2(w, c.control);
        const QString help = w->whatsThis();
        QVERIFY2(help.contains(QString::fromUtf8(c.says).toHtmlEscaped()), qPrintable(help));
        QVERIFY2(help.startsWith(QStringLiteral("<b>%1</b>").arg(QString::fromUtf8(c.control).remove(QLatin1Char('&'))
                                                                       .toHtmlEscaped())),
                 qPrintable(help));
        QVERIFY(!help.contains(c.view->whatsThis()));
    }
}

void TestControlHelp::everyControlWithATipHasItsOwnWhatsThis()
{
    // What's This on any input of any view says what that input is, from its tool tip at least.
    for (const QString &name : app::MainWindow::viewNames()) {
        QVERIFY(m_window->showView(name));
        QWidget *view = qobject_cast<QScrollArea *>(
                                m_window->centralWidget()->findChild<QTabWidget *>()->currentWidget())
                                ->widget();
        for (QWidget *w : view->findChildren<QWidget *>()) {
            const bool input = qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w)
                               || qobject_cast<QAbstractButton *>(w);
            if (input && !w->toolTip().isEmpty())
                QVERIFY2(!w->whatsThis().isEmpty() && w->whatsThis() != view->whatsThis(),
                         qPrintable(name + QStringLiteral(": ") + w->toolTip()));
        }
    }
}

void TestControlHelp::workloadKeysHaveMnemonics()
{
    // Alt+N, Alt+Z and Alt+E reach the parameters n, Z and E, as the labels' underlines say.
    m_window->showView(QStringLiteral("xgraph"));
    for (const char *key : {"n", "Z", "E"}) {
        QDoubleSpinBox *spin = m_window->parameterPanel()->spinBox(QString::fromLatin1(key));
        m_window->readout()->setFocus();
        const Qt::Key letter = Qt::Key(Qt::Key_A + (QChar::fromLatin1(key[0]).toUpper().unicode() - 'A'));
        QTest::keyClick(m_window, letter, Qt::AltModifier);
        QTRY_VERIFY2(spin->hasFocus(), key);
        QCOMPARE(m_window->currentViewName(), QStringLiteral("xgraph")); // no tab took the letter
    }
}

void TestControlHelp::dialogsOpenOnTheirFirstField()
{
    // The Counters dialog begins with its import buttons; its first field, Instructions retired, takes the focus
    // (Qt gave it to the Close button).
    m_window->showView(QStringLiteral("markov"));
    QTest::mouseClick(m_window->markovView()->countersButton(), Qt::LeftButton);
    QDialog *dialog = m_window->markovView()->countersDialog();
    QTRY_VERIFY(dialog->isVisible());
    QTRY_VERIFY(qobject_cast<QLineEdit *>(dialog->focusWidget()));
    QCOMPARE(control(dialog, QStringLiteral("&Instructions retired:")), dialog->focusWidget());
    dialog->close();
}

QTEST_MAIN(TestControlHelp)
#include "tst_control_help.moc"
