// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QRect;
class QWidget;

namespace crossroof::app {

/// The main window's size and dock layout, restored from the last session (QSettings "window/geometry" and
/// "window/state") and saved when the window closes. View > Reset Layout puts every dock back where it starts
/// on a first run. A dock may belong to some views only (the GPU parameters mean nothing to the Markov view):
/// it is put away while none of its views is in front and comes back with them, unless the user closed it.
/// When the window gets narrow, the side docks give up width, down to their minimum, so that the views keep
/// kCentreShare of it; below kStackWidth (a 1024-pixel screen) the right-hand docks move under the left-hand
/// ones, one column for all, and go back when the window is wide again.
class WindowLayout : public QObject
{
    Q_OBJECT
public:
    /// WINDOW's docks must all exist: their current places are taken as the default layout, and
    /// DEFAULTSIZES gives the docks their first-run sizes (called again on a reset). Then the saved layout, if
    /// any, is restored.
    WindowLayout(QMainWindow *window, std::function<void()> defaultSizes);

    /// View > Reset Layout (Ctrl+Shift+0).
    QAction *resetAction() const { return m_reset; }
    /// Every dock shown, in its first-run place and size; the window keeps its size.
    void reset();
    /// Remembers the window's geometry and dock layout for the next start (the right-hand docks on the right
    /// if they were moved under the left-hand ones for a narrow window).
    void save();
    /// Whether the right-hand docks are under the left-hand ones for a narrow window.
    bool isStacked() const { return !m_stacked.isEmpty(); }
    /// Forgets the saved layout (the next window starts with the default one).
    static void forget();
    /// Shrinks WINDOW to AVAILABLE (a screen's available geometry, in device-independent pixels) where it is
    /// larger, keeping its minimum size, and moves it so that its top-left corner and as much of it as fits
    /// lie inside: the first-run size or a layout saved on a larger screen, or at a smaller scale factor,
    /// would otherwise open partly off screen, with the dialogs centred on it.
    static void fitInto(QWidget *window, const QRect &available);
    /// Shows WINDOW fitted into AVAILABLE, frame included: fitted before it shows (no flash at a size that
    /// does not fit) and again once the platform has given it its frame.
    static void showInside(QWidget *window, const QRect &available);
    /// The start: WINDOW shown inside AVAILABLE, raised and made the active window, so that the keyboard and
    /// the menus' shortcuts (Ctrl+O) reach it at once. A desktop does not always give a new window the keyboard
    /// (focus-stealing prevention for one started from a terminal, or no window manager): Ctrl+O did nothing
    /// until a click in the window's menu.
    static void showAtStart(QWidget *window, const QRect &available);

    /// DOCK belongs to VIEWS (names as ViewTabs gives them); a dock never named here belongs to every view.
    void setDockViews(QDockWidget *dock, const QStringList &views);
    /// The views now in front (one tab, or those of Side by Side): docks of none of them are put away, docks
    /// put away earlier for another view come back, stacked if the window is narrow.
    void showFront(const QStringList &front);
    /// Whether DOCK is put away for the views in front (not closed by the user).
    bool isPutAway(QDockWidget *dock) const { return m_putAway.contains(dock); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Narrows the left and right docks (in proportion, not below their minimum widths) until the centre has
    /// kCentreShare of the window's width.
    void leaveTheCentreItsShare();
    /// Moves the right-hand docks under the left-hand ones below kStackWidth, and back above it.
    void stackWhenNarrow();
    /// Puts the docks moved by stackWhenNarrow() back on the right, tabbed as they were.
    void unstack();

    QMainWindow *m_window;
    std::function<void()> m_defaultSizes;
    QByteArray m_defaultState;
    QAction *m_reset;
    /// In the order setDockViews() named them: the docks are put away and brought back in one order every run.
    QList<QPair<QDockWidget *, QStringList>> m_dockViews;
    QSet<QDockWidget *> m_putAway;
    /// Put away while in front of the docks tabbed with it, in the order they were put away: brought back, the
    /// one in front last comes to the front.
    QList<QDockWidget *> m_wasInFront;
    QStringList m_front;
    QList<QDockWidget *> m_stacked; ///< the right-hand docks moved left, the one that was in front first
};

} // namespace crossroof::app
