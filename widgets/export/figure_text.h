// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/label_placement.h"

#include <QList>
#include <QRectF>
#include <QString>

#include <vector>

class QCPAxis;
class QCPItemText;
class QCustomPlot;

namespace crossroof::widgets::figure {

using widgets::DataShape;

/// A piece of text a figure draws and the box it takes, in the figure's canvas units.
struct TextBox {
    enum class Kind { TickLabel, AxisTitle, LegendEntry, Other };
    QString text;
    QRectF rect;
    Kind kind = Kind::Other;
    QCPAxis *axis = nullptr; ///< the axis of a tick label or title
    double key = 0; ///< where a tick label's tick is, in axis coordinates
    QCPItemText *item = nullptr; ///< the text item, for a label
    bool cut = false; ///< a label that its axis rect cuts: the box is the part drawn
};

/// Whether tick labels A and B of one axis are closer than the least room between two (or overlap): labels
/// that merely touch read as one ("2T_12T_2").
bool tooClose(const QRectF &a, const QRectF &b, Qt::Orientation along);

/// Where a plot of a figure lies on its page: its top and its height, in canvas units.
struct PlotBand {
    double top = 0;
    double height = 0;
};
/// PLOTS stacked top to bottom on a page H canvas units tall, each with its share of the height
/// (plot_style::figureShare()).
std::vector<PlotBand> stackPlots(const QList<QCustomPlot *> &plots, double h);

/// Lays PLOTS out as the export draws them, stacked on a page of W x H canvas units (stackPlots()), and returns
/// every piece of text with its box; where DATA is given, also every curve and marker the plots draw inside
/// their axis rects (clipped to them), for labels to stay off.
std::vector<TextBox> layOutText(const QList<QCustomPlot *> &plots, double w, double h,
                                std::vector<DataShape> *data = nullptr);

} // namespace crossroof::widgets::figure
