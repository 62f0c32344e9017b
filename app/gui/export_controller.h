// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"

#include <QObject>
#include <QStringList>

class QAction;
class QMenu;

namespace crossroof::app {

class MainWindow;

/// Figures of the views: File > Export Figure, Export All Views, Export Plot Data, and Edit > Copy Figure.
/// The export directory, format and figure options are remembered in the settings.
class ExportController : public QObject
{
    Q_OBJECT
public:
    /// Exports WINDOW's views; the actions are WINDOW's children.
    explicit ExportController(MainWindow *window);

    /// Adds the export actions to FILE in menu order.
    void addActionsTo(QMenu *file);
    QAction *figureAction() const { return m_figure; }
    QAction *copyAction() const { return m_copy; }
    QAction *exportAllAction() const { return m_all; }

    /// What exportAllViews() did: the errors, and the views left out because they draw nothing yet, each with
    /// the reason its empty panel gives ("extrapolate: No training data yet.").
    struct AllViews {
        QStringList errors;
        QStringList skipped;
        int written = 0;
    };
    /// Exports every view that draws something into DIRECTORY as crossroof-<view>.<suffix>; a view with nothing
    /// to draw is left out, not written as empty axes.
    AllViews exportAllViews(const QString &directory, const QString &suffix,
                            const widgets::FigureOptions &options) const;

private:
    void exportFigureInteractively();
    void exportAllInteractively();
    void exportDataInteractively();
    void copyFigure();

    MainWindow *m_window;
    QAction *m_figure;
    QAction *m_all;
    QAction *m_data;
    QAction *m_copy;
};

} // namespace crossroof::app
