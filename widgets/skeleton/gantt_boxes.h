// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/label_placement.h"

#include <qcustomplot.h>

#include <QRectF>

#include <vector>

namespace crossroof::widgets {

/// The boxes of a schedule chart drawn by one plottable: each statement's issue slot filled with the brush,
/// its latency with the brush's colour at a fifth of its opacity. One item per box made a schedule of tens of
/// thousands of statements take seconds to build and to clear (QCustomPlot keeps items in plain lists); this
/// draws any number in one pass, clipped to the axis rectangle (an SVG keeps no clip path). The figure
/// export's greyscale changes the brush like any plottable's. A figure's legend keeps off its boxes (DataAreas).
class GanttBoxes : public QCPAbstractPlottable, public DataAreas
{
public:
    /// A box in plot coordinates: keys LEFT to RIGHT, values BOTTOM to TOP.
    struct Box
    {
        double left, right, bottom, top;
    };

    GanttBoxes(QCPAxis *keyAxis, QCPAxis *valueAxis);

    void setBoxes(std::vector<Box> issues, std::vector<Box> latencies);
    const std::vector<Box> &issues() const { return m_issues; }
    const std::vector<Box> &latencies() const { return m_latencies; }

    double selectTest(const QPointF &pos, bool onlySelectable, QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;
    std::vector<QRectF> dataAreas() const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    /// The pixels of BOX within the axis rectangle; empty when it lies outside.
    QRectF pixels(const Box &box) const;

    std::vector<Box> m_issues;
    std::vector<Box> m_latencies;
};

} // namespace crossroof::widgets
