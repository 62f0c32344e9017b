// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_controller.h"

#include "main_window.h"
#include "messages.h"

#include "calibration/joint_calibration_dialog.h"
#include "common/file_folders.h"
#include "common/native_path.h"
#include "common/profile_picker.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "traces/traces_panel.h"

#include <QAction>
#include <QMenu>

namespace crossroof::app {

ImportController::ImportController(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_profile(new QAction(tr("Open &Profile…"), window))
    , m_trace(new QAction(tr("&Import Trace…"), window))
    , m_calibrate(new QAction(tr("Calibrate from &Measurements…"), window))
{
    m_profile->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_trace->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_trace->setStatusTip(
            tr("gpu-benches stream output, Nsight Compute --csv, perf stat -x, or any CSV/TSV"));
    connect(m_profile, &QAction::triggered, this, [this] {
        const QString path = widgets::openFileName(m_window, widgets::FileKind::Data, tr("Open Hardware Profile"),
                                                   tr("Hardware profiles (*.json);;All files (*)"));
        if (!path.isEmpty())
            openProfileFile(path);
    });
    connect(m_trace, &QAction::triggered, this, [this] {
        const QString path = widgets::openFileName(m_window, widgets::FileKind::Data, tr("Import Measured Trace"),
                                                   tr("Measurements (*.csv *.tsv *.txt);;All files (*)"));
        if (!path.isEmpty())
            m_window->tracesPanel()->importFile(path);
    });
    m_calibrate->setStatusTip(
            tr("Fit R, R_dram, L, M, L_c and L_2 to a kernel family, a stream curve, pointer "
               "chases and Nsight Compute exports at once"));
    connect(m_calibrate, &QAction::triggered, this, &ImportController::showCalibration);
}

widgets::JointCalibrationDialog *ImportController::showCalibration()
{
    if (!m_calibration) {
        m_calibration = new widgets::JointCalibrationDialog(m_window->state(), m_window);
        connect(m_calibration, &widgets::JointCalibrationDialog::message, m_window,
                [this](const QString &text) { showStatus(m_window, text, 6000); });
    } else if (!m_calibration->isVisible() && !m_calibration->sources().empty()) {
        m_calibration->fit(); // the parameters may have changed since it was closed
    }
    m_calibration->show();
    m_calibration->raise();
    m_calibration->activateWindow();
    return m_calibration;
}

void ImportController::addActionsTo(QMenu *file)
{
    file->addAction(m_profile);
    file->addAction(m_trace);
    file->addAction(m_calibrate);
}

bool ImportController::openProfileFile(const QString &path)
{
    try {
        m_window->profilePicker()->addAndSelect(core::loadProfileFile(widgets::nativePath(path)));
        return true;
    } catch (const core::InputError &e) {
        showError(m_window, tr("The profile was not loaded:\n%1").arg(QString::fromStdString(e.what())));
        return false;
    }
}

bool ImportController::selectProfile(const QString &idOrPath)
{
    if (m_window->profilePicker()->selectId(idOrPath))
        return true;
    if (idOrPath.contains(QLatin1Char('/')) || idOrPath.endsWith(QLatin1String(".json")))
        return openProfileFile(idOrPath);
    showError(m_window, tr("Unknown profile '%1'. Choose one from the Profile list or open a profile file.")
                                .arg(idOrPath));
    return false;
}

} // namespace crossroof::app
