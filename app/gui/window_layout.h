// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <functional>

class QAction;
class QMainWindow;

namespace crossroof::app {

/// The main window's size and dock layout: the same docks for every view (they do not come and go with the
/// tabs), restored from the last session (QSettings "window/geometry" and "window/state") and saved when the
/// window closes. View > Reset Layout puts every dock back where it starts on a first run. When the window
/// gets narrow (1024 pixels), the side docks give up width, down to their minimum, so that the views keep at
/// least half of it.
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
    /// Remembers the window's geometry and dock layout for the next start.
    void save() const;
    /// Forgets the saved layout (the next window starts with the default one).
    static void forget();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Narrows the left and right docks (in proportion, not below their minimum widths) until the centre has
    /// half the window's width.
    void leaveTheCentreHalf();

    QMainWindow *m_window;
    std::function<void()> m_defaultSizes;
    QByteArray m_defaultState;
    QAction *m_reset;
};

} // namespace crossroof::app
