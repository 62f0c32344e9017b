// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace crossroof::app {

class MainWindow;

/// What comes in from files besides sessions: File > Open Profile (a hardware profile) and Import Trace (a
/// measurement, through the traces panel).
class ImportController : public QObject
{
    Q_OBJECT
public:
    /// Imports into WINDOW: profiles, traces, and a kernel family to calibrate the whole model to. The
    /// actions are WINDOW's children.
    explicit ImportController(MainWindow *window);

    /// Adds the actions to FILE in menu order.
    void addActionsTo(QMenu *file);

    /// Opens a profile file; on failure shows the validation message and keeps the current profile.
    bool openProfileFile(const QString &path);
    /// Selects a bundled profile by id or opens a file path; false (with a message) if neither works.
    bool selectProfile(const QString &idOrPath);

private:
    MainWindow *m_window;
    QAction *m_profile;
    QAction *m_trace;
    QAction *m_calibrate;
};

} // namespace crossroof::app
