// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <vector>

namespace crossroof::widgets {

/// The dependency graph's edges, or its nodes' dots, drawn by one plottable: each edge along its route (plot
/// coordinates, from the right side of its source's box to the left side of its target's, around every other
/// box: core::layOutGraph()), each dot at the place of its node's label (QCPItemText), wherever that is as the
/// plot draws. One item per edge and per dot made a skeleton of thousands of statements slow to build and to
/// clear (QCustomPlot keeps items in plain lists). Edges are drawn with the plottable's pen (dashed where
/// asked) and an arrow head at their end; dots as circles of the pen and the brush. The figure export's
/// greyscale changes the pen and brush like any plottable's.
class GraphLinks : public QCPAbstractPlottable
{
public:
    struct Edge
    {
        const QCPItemText *from;
        const QCPItemText *to;
        bool dashed;
        QVector<QPointF> route; ///< plot coordinates, at least two points
    };

    GraphLinks(QCPAxis *keyAxis, QCPAxis *valueAxis);

    /// What to draw: EDGES, and a dot at each of DOTS; the labels must outlive the next setLinks() or clear().
    void setLinks(std::vector<Edge> edges, std::vector<const QCPItemText *> dots);
    void clear() { setLinks({}, {}); }
    const std::vector<Edge> &edges() const { return m_edges; }
    const std::vector<const QCPItemText *> &dots() const { return m_dots; }

    double selectTest(const QPointF &pos, bool onlySelectable, QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    std::vector<Edge> m_edges;
    std::vector<const QCPItemText *> m_dots;
};

} // namespace crossroof::widgets
