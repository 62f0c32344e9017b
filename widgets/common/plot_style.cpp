// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QApplication>

#include <algorithm>

namespace crossroof::widgets::plot_style {

QFont annotationFont()
{
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * 0.95);
    return f;
}

void setLogScale(QCPAxis *axis, bool log)
{
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log == !axis->ticker().dynamicCast<QCPAxisTickerLog>().isNull())
        return; // the ticker already fits
    if (log)
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create()); // minor ticks at 2, 3, ... 9
    else
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

void setupAxes(QCustomPlot *plot)
{
    // An explicit minimum: QCustomPlot's own size hint grows with every legend entry, and a long legend
    // would otherwise push the main window wider than the screen.
    plot->setMinimumSize(300, 200);
    QFont labelFont = QApplication::font();
    QFont tickFont = QApplication::font();
    tickFont.setPointSizeF(tickFont.pointSizeF() * 0.9);
    const QPen gridPen(QColor(0, 0, 0, 28), 1, Qt::SolidLine);
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        axis->setLabelFont(labelFont);
        axis->setTickLabelFont(tickFont);
        axis->grid()->setPen(gridPen);
        axis->grid()->setSubGridVisible(false);
        axis->setPadding(4);
    }
    plot->xAxis2->grid()->setVisible(false);
    plot->yAxis2->grid()->setVisible(false);
}

void placeLegendBelow(QCustomPlot *plot)
{
    plot->legend->setVisible(true);
    plot->legend->setFont(annotationFont());
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setWrap(3); // before the fill order, which rearranges the items by it
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setColumnSpacing(14);
    plot->legend->setIconSize(32, 22);
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    row->addElement(0, 0, plot->legend); // takes it out of the axis rect's inset layout
    row->setMargins(QMargins(0, 0, 0, 4));
    // A grid column is no wider than its narrowest element allows: without an explicit maximum the legend's
    // natural width (a few pixels when it is empty) would squeeze the axis rect above it to the same width.
    row->setMaximumSize(QWIDGETSIZE_MAX - 1, QWIDGETSIZE_MAX);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    // As many columns (up to three) as the widest entry allows at the plot's width, so that entries are not
    // cut when the plot is narrow (a small window, a single-column figure).
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        QCPLegend *legend = plot->legend;
        int widest = 0;
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (const QCPAbstractLegendItem *item = legend->item(i)) // cells of a wrapped grid can be empty
                widest = std::max(widest, item->minimumOuterSizeHint().width());
        }
        if (widest == 0)
            return;
        const int available = plot->viewport().width() - 8;
        const int columns = std::clamp((available + legend->columnSpacing()) / (widest + legend->columnSpacing()),
                                       1, 3);
        if (columns != legend->wrap()) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
    });
}

} // namespace crossroof::widgets::plot_style
