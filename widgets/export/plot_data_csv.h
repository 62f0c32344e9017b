// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

class QCustomPlot;

namespace crossroof::widgets {

/// Every plotted series as CSV (plot, series, x, y; one row per point), written atomically. Returns an
/// empty string on success, else the error.
QString exportPlotData(const QList<QCustomPlot *> &plots, const QString &path);

} // namespace crossroof::widgets
