// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;

namespace crossroof::widgets {
class JointCalibrationDialog;
} // namespace crossroof::widgets

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

    QAction *calibrateAction() const { return m_calibrate; }
    /// File > Calibrate from Measurements: the dialog, made the first time and kept for the rest of the run,
    /// so that closing it and opening it again finds its sources (the family, the weights, the parameters
    /// chosen) as they were; it fits them again from the current parameters.
    widgets::JointCalibrationDialog *showCalibration();

private:
    MainWindow *m_window;
    QAction *m_profile;
    QAction *m_trace;
    QAction *m_calibrate;
    QPointer<widgets::JointCalibrationDialog> m_calibration;
};

} // namespace crossroof::app
