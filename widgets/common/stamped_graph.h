// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QHash>
#include <QImage>
#include <QString>

namespace crossroof::widgets {

/// A graph of markers whose symbols are stamped from images on screen. QCustomPlot strokes every antialiased
/// circle, disc, diamond and triangle again on every replot, legend icons included; the X-graph's dozen marks
/// were a tenth of a drag step. This graph renders each symbol once per quarter-pixel position (sixteen
/// images at most, made when first needed) and copies the nearest one, so a mark is at most an eighth of a
/// pixel from where QCustomPlot would draw it. Vector and scaled figures, symbols drawn without antialiasing
/// and pixmap or path symbols are drawn as QCustomPlot draws them.
class StampedGraph : public QCPGraph
{
public:
    StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

    /// How many symbol images were rendered, and how many marks were stamped from them (tests).
    int stampsRendered() const { return m_rendered; }
    int marksStamped() const { return m_stamped; }

protected:
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

private:
    /// Whether STYLE can be stamped onto PAINTER's device.
    bool stamps(const QCPPainter *painter, const QCPScatterStyle &style) const;
    /// Stamps STYLE centred at each of POINTS (pixels).
    void stamp(QCPPainter *painter, const QCPScatterStyle &style, const QVector<QPointF> &points) const;
    /// STYLE drawn centred on a quarter-pixel PHASE (0..3 in x and y) of its middle pixel, at DPR.
    const QImage &symbol(const QCPScatterStyle &style, qreal dpr, int phaseX, int phaseY) const;

    mutable QHash<QString, QImage> m_symbols;
    mutable int m_rendered = 0;
    mutable int m_stamped = 0;
};

} // namespace crossroof::widgets
