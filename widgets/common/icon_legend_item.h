// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <functional>

namespace crossroof::widgets {

/// A legend entry for what a plot draws that is no plottable (a view's own layer, such as the X-graph's basin
/// shading, or lines whose look the plottable's own icon does not show, white contours on a colour map): an icon
/// drawn by a function into the legend's icon box, then the text beside it, as a plottable's entry lays them out.
class IconLegendItem : public QCPAbstractLegendItem
{
    Q_OBJECT
public:
    /// DRAW paints the icon into its box (in pixels of the legend); it is asked again on every draw, so that it
    /// can follow the plot (a greyscale figure, a dark desktop).
    using IconPainter = std::function<void(QCPPainter *painter, const QRectF &box)>;

    IconLegendItem(QCPLegend *legend, const QString &text, IconPainter draw);

    QString text() const { return m_text; }
    void setText(const QString &text) { m_text = text; }

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;
    /// The entry's box and a descent below it, as StaticLegendItem's.
    QRect clipRect() const override;

private:
    QString m_text;
    IconPainter m_draw;
};

/// Puts WANTED (in their order, null ones left out) first in LEGEND, and the entries it holds besides (a trace's,
/// a merged one) after them in their order; MANAGED entries that are not WANTED are taken out, hidden and kept
/// for later: a legend names only what its plot draws. Lays the legend out anew only when its entries or their
/// order change; returns whether they did.
bool arrangeLegend(QCPLegend *legend, const QList<QCPAbstractLegendItem *> &wanted,
                   const QList<QCPAbstractLegendItem *> &managed);

/// The texts of LEGEND's entries in their order, as a reader sees them: plottables' names, merged entries' and
/// IconLegendItems' texts.
QStringList legendTexts(const QCPLegend *legend);

} // namespace crossroof::widgets
