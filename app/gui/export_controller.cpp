// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_controller.h"

#include "main_window.h"
#include "messages.h"

#include "common/file_folders.h"
#include "export/export_dialog.h"
#include "export/plot_data_csv.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QMenu>
#include <QSettings>

namespace crossroof::app {

using namespace crossroof::widgets;

ExportController::ExportController(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_figure(new QAction(tr("&Export Figure…"), window))
    , m_all(new QAction(tr("Export &All Views…"), window))
    , m_data(new QAction(tr("Export Plot &Data (CSV)…"), window))
    , m_copy(new QAction(tr("&Copy Figure"), window))
{
    m_figure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_figure->setStatusTip(tr("PDF, SVG or PNG of the current view at an exact size in mm"));
    m_copy->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_figure, &QAction::triggered, this, &ExportController::exportFigureInteractively);
    connect(m_all, &QAction::triggered, this, &ExportController::exportAllInteractively);
    connect(m_data, &QAction::triggered, this, &ExportController::exportDataInteractively);
    connect(m_copy, &QAction::triggered, this, &ExportController::copyFigure);
}

void ExportController::addActionsTo(QMenu *file)
{
    file->addAction(m_figure);
    file->addAction(m_all);
    file->addAction(m_data);
}

void ExportController::exportFigureInteractively()
{
    QSettings settings;
    const QString dir = widgets::fileFolder(widgets::FileKind::Export);
    const QString suffix = settings.value(QStringLiteral("export/suffix"), QStringLiteral("pdf")).toString();
    const QString view = m_window->currentViewName();
    if (const QString nothing = m_window->nothingToDraw(view); !nothing.isEmpty()) {
        showError(m_window, tr("There is no figure to export yet: %1").arg(nothing));
        return;
    }
    ExportDialog dialog(QDir(dir).filePath(QStringLiteral("crossroof-%1.%2").arg(view, suffix)), m_window);
    dialog.setPreviewPlots(m_window->figurePlots(view));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureOptions options = dialog.options();
    ExportDialog::saveOptions(options);
    const QFileInfo info(dialog.path());
    widgets::rememberFileFolder(widgets::FileKind::Export, info.absoluteFilePath());
    settings.setValue(QStringLiteral("export/suffix"), info.suffix().toLower());
    const QString error = widgets::exportFigure(m_window->figurePlots(view), dialog.path(), options);
    if (!error.isEmpty())
        showError(m_window, tr("The figure was not exported: %1").arg(error));
    else
        showStatus(m_window,
                   tr("Exported %1 (%2 × %3 mm)")
                           .arg(dialog.path())
                           .arg(options.width_mm)
                           .arg(options.height_mm),
                   6000);
}

ExportController::AllViews ExportController::exportAllViews(const QString &directory, const QString &suffix,
                                                           const FigureOptions &options) const
{
    AllViews done;
    for (const QString &view : MainWindow::viewNames()) {
        if (const QString nothing = m_window->nothingToDraw(view); !nothing.isEmpty()) {
            done.skipped << tr("%1: %2").arg(view, nothing);
            continue;
        }
        const QString path = QDir(directory).filePath(QStringLiteral("crossroof-%1.%2").arg(view, suffix));
        const QString error = widgets::exportFigure(m_window->figurePlots(view), path, options);
        if (!error.isEmpty())
            done.errors << error;
        else
            ++done.written;
    }
    return done;
}

void ExportController::exportAllInteractively()
{
    // The settings every figure gets are shown first, with the view in front as the preview: the last export's
    // size and format are not taken unseen. The folder and the format come from the file named there.
    QSettings settings;
    const QString suffix = settings.value(QStringLiteral("export/suffix"), QStringLiteral("pdf")).toString();
    const QString view = m_window->currentViewName();
    ExportDialog dialog(QDir(widgets::fileFolder(widgets::FileKind::Export))
                                .filePath(QStringLiteral("crossroof-%1.%2").arg(view, suffix)),
                        m_window);
    dialog.setWindowTitle(tr("Export All Views"));
    dialog.setNote(tr("Every view with something to draw is written with these settings into the file's folder, "
                      "as crossroof-VIEW in the file's format (.pdf, .svg or .png)."));
    if (m_window->nothingToDraw(view).isEmpty())
        dialog.setPreviewPlots(m_window->figurePlots(view));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureOptions options = dialog.options();
    ExportDialog::saveOptions(options);
    const QFileInfo chosen(dialog.path());
    const QString dir = chosen.absolutePath();
    const QString format = chosen.suffix().toLower();
    widgets::rememberFileFolder(widgets::FileKind::Export, chosen.absoluteFilePath());
    settings.setValue(QStringLiteral("export/suffix"), format);
    const AllViews done = exportAllViews(dir, format, options);
    const QString skipped = done.skipped.isEmpty()
            ? QString()
            : tr("; left out, with nothing to draw yet: %1").arg(done.skipped.join(QStringLiteral("; ")));
    if (!done.errors.isEmpty())
        showError(m_window, tr("Some views were not exported:\n%1").arg(done.errors.join(QLatin1Char('\n'))) + skipped);
    else
        showStatus(m_window, tr("Exported %1 views into %2 as .%3").arg(done.written).arg(dir, format) + skipped, 8000);
}

void ExportController::exportDataInteractively()
{
    const QString view = m_window->currentViewName();
    const QString path = widgets::saveFileName(m_window, widgets::FileKind::Export, tr("Export Plot Data"),
                                               QStringLiteral("crossroof-%1.csv").arg(view), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = widgets::exportPlotData(m_window->figurePlots(view), path);
    if (!error.isEmpty())
        showError(m_window, tr("The data were not exported: %1").arg(error));
    else
        showStatus(m_window, tr("Exported the plotted data to %1").arg(path), 6000);
}

void ExportController::copyFigure()
{
    if (const QString nothing = m_window->nothingToDraw(m_window->currentViewName()); !nothing.isEmpty()) {
        showError(m_window, tr("There is no figure to copy yet: %1").arg(nothing));
        return;
    }
    const QImage image = widgets::renderFigure(m_window->figurePlots(m_window->currentViewName()),
                                               ExportDialog::savedOptions());
    if (image.isNull()) {
        showError(m_window, tr("The figure could not be drawn with the saved export settings."));
        return;
    }
    QGuiApplication::clipboard()->setImage(image);
    showStatus(m_window, tr("Copied the figure (%1 × %2 px)").arg(image.width()).arg(image.height()), 4000);
}

} // namespace crossroof::app
