// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QImage>
#include <QPainterPath>

#include <array>
#include <vector>

namespace crossroof::widgets {

/// A graph of markers whose symbols are stamped from images on screen. QCustomPlot strokes every antialiased
/// circle, disc, diamond and triangle again on every replot, legend icons included; the X-graph's dozen marks
/// were a tenth of a drag step. This graph renders each symbol once per quarter-pixel position (sixteen
/// images at most, made when first needed) and copies the nearest one, so a mark is at most an eighth of a
/// pixel from where QCustomPlot would draw it. Path symbols (the measured kernels' stars, hundreds of them when
/// a family is loaded) are stamped too. Vector and scaled figures, symbols drawn without antialiasing and
/// pixmap symbols are drawn as QCustomPlot draws them.
class StampedGraph : public QCPGraph
{
public:
    StampedGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

    /// How many symbol images were rendered, and how many marks were stamped from them (tests).
    int stampsRendered() const { return m_rendered; }
    int marksStamped() const { return m_stamped; }

    /// With WHOLE, a mark on the axis rect's edge (an operating point at the origin or at the map's last cell)
    /// is drawn whole, over the edge, rather than cut in half by the axis rect: the graph's clip reaches its
    /// marks' half size and outline beyond the rect.
    void setWholeMarks(bool whole) { m_wholeMarks = whole; }
    QRect clipRect() const override;

protected:
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;
    void drawScatterPlot(QCPPainter *painter, const QVector<QPointF> &scatters,
                         const QCPScatterStyle &style) const override;

private:
    static constexpr int kPhases = 4; ///< positions per pixel in each direction

    /// Whether STYLE can be stamped onto PAINTER's device.
    bool stamps(const QCPPainter *painter, const QCPScatterStyle &style) const;
    /// Stamps STYLE centred at each of POINTS (pixels).
    void stamp(QCPPainter *painter, const QCPScatterStyle &style, const QVector<QPointF> &points) const;
    /// What a symbol's pixels depend on.
    struct SymbolKey
    {
        int shape;
        double size;
        QRgb penColour;
        double penWidth;
        int penStyle; ///< style, cap and join
        QRgb brushColour;
        int brushStyle;
        qreal dpr;
        QPainterPath path; ///< a path symbol's (empty for the others)
        bool operator==(const SymbolKey &) const = default;
    };
    /// A symbol's images, one for each quarter-pixel position (made when first needed).
    struct Symbols
    {
        SymbolKey key;
        std::array<QImage, kPhases * kPhases> images;
    };
    /// STYLE drawn centred on a quarter-pixel PHASE (0..3 in x and y) of its middle pixel, at DPR.
    const QImage &symbol(const QCPScatterStyle &style, qreal dpr, int phaseX, int phaseY) const;

    mutable std::vector<Symbols> m_symbols; ///< a graph draws one style, two when selected
    mutable int m_rendered = 0;
    mutable int m_stamped = 0;
    bool m_wholeMarks = false;
};

} // namespace crossroof::widgets
