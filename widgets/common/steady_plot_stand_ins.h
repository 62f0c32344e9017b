// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SteadyPlot's stand-ins for its axes' layer (steady_plot.cpp and steady_plot_pictures.cpp only): while a paint
// keeps the axis rect's margins, the axes' lines and ticks and the grids are drawn by these instead.

#include "common/qcp_access.h"
#include "common/steady_plot.h"

#include <qcustomplot.h>

#include <QLine>
#include <QLineF>
#include <QVector>

#include <utility>

namespace crossroof::widgets {

/// What stands in for the axes' layer while it is hidden, during a paint that keeps the axis rect's margins
/// (SteadyPlot::m_linesOnly): something drawn for each axis of the axis rect, on LAYER, in the axes' order.
class SteadyPlot::StandIn : public QCPLayerable
{
public:
    StandIn(SteadyPlot *plot, QCPLayer *layer)
        : QCPLayerable(plot)
        , m_plot(plot)
    {
        setLayer(layer);
    }

protected:
    /// Draws AXIS's part, the painter saved around it.
    virtual void drawFor(QCPPainter *painter, const QCPAxis *axis) = 0;

    void applyDefaultAntialiasingHint(QCPPainter *) const override {} // each axis its own, in drawFor()
    void draw(QCPPainter *painter) override
    {
        if (!m_plot->m_linesOnly)
            return;
        for (const QCPAxis *axis : m_plot->axisRect()->axes()) {
            painter->save();
            drawFor(painter, axis);
            painter->restore();
        }
    }

    SteadyPlot *m_plot;
};

/// The axes' lines and ticks, drawn as QCPAxis draws them, to the pixel.
class SteadyPlot::AxisLines : public SteadyPlot::StandIn
{
public:
    using StandIn::StandIn;

protected:
    void drawFor(QCPPainter *painter, const QCPAxis *axis) override
    {
        if (!axis->visible())
            return;
        applyAntialiasingHint(painter, axis->antialiased(), QCP::aeAxes);
        const QRect rect = axis->axisRect()->rect();
        const QCPAxis::AxisType type = axis->axisType();
        const int offset = axis->offset();
        QPoint origin;
        double xCor = 0, yCor = 0; // the top and right axes lie one pixel outside the rect, as QCustomPlot has them
        switch (type) {
        case QCPAxis::atLeft: origin = rect.bottomLeft() + QPoint(-offset, 0); break;
        case QCPAxis::atRight: origin = rect.bottomRight() + QPoint(offset, 0); xCor = 1; break;
        case QCPAxis::atTop: origin = rect.topLeft() + QPoint(0, -offset); yCor = -1; break;
        case QCPAxis::atBottom: origin = rect.bottomLeft() + QPoint(0, offset); break;
        }
        const bool horizontal = QCPAxis::orientation(type) == Qt::Horizontal;
        painter->setPen(axis->basePen());
        if (horizontal)
            painter->drawLine(QLineF(origin + QPointF(xCor, yCor), origin + QPointF(rect.width() + xCor, yCor)));
        else
            painter->drawLine(QLineF(origin + QPointF(xCor, yCor), origin + QPointF(xCor, -rect.height() + yCor)));
        if (!axis->ticks())
            return;
        const int inward = (type == QCPAxis::atBottom || type == QCPAxis::atRight) ? -1 : 1;
        // In one call per pen; without antialiasing rounded to whole pixels first, as QCPPainter::drawLine does.
        const auto ticks = [&](const QVector<double> &coords, int lengthIn, int lengthOut) {
            m_lines.clear();
            for (const double coord : coords) {
                const double at = axis->coordToPixel(coord);
                if (horizontal)
                    m_lines.append(QLineF(at + xCor, origin.y() - lengthOut * inward + yCor, at + xCor,
                                          origin.y() + lengthIn * inward + yCor));
                else
                    m_lines.append(QLineF(origin.x() - lengthOut * inward + xCor, at + yCor,
                                          origin.x() + lengthIn * inward + xCor, at + yCor));
            }
            if (painter->antialiasing()) {
                painter->drawLines(m_lines);
                return;
            }
            m_whole.clear();
            for (const QLineF &line : std::as_const(m_lines))
                m_whole.append(line.toLine());
            painter->drawLines(m_whole);
        };
        const QVector<double> major = axis->tickVector();
        if (!major.isEmpty()) {
            painter->setPen(axis->tickPen());
            ticks(major, axis->tickLengthIn(), axis->tickLengthOut());
        }
        const QVector<double> &minor = axis->*&qcp_access::AxisTicks::mSubTickVector;
        if (axis->subTicks() && !minor.isEmpty()) {
            painter->setPen(axis->subTickPen());
            ticks(minor, axis->subTickLengthIn(), axis->subTickLengthOut());
        }
    }

private:
    QVector<QLineF> m_lines; ///< one pen's ticks, kept between paints for their storage
    QVector<QLine> m_whole;
};

/// The grids (a grid belongs to its axis and is hidden with it), each by its own drawing, as its layer draws it.
class SteadyPlot::GridLines : public SteadyPlot::StandIn
{
public:
    using StandIn::StandIn;

protected:
    void drawFor(QCPPainter *painter, const QCPAxis *axis) override
    {
        QCPGrid *grid = axis->grid();
        if (!grid->visible() || grid->layer() != layer())
            return;
        // The grid's lines lie in the axis rect. Clipped to a rectangle that holds it, not only to the paint's
        // region (the window less the margins): Qt's raster engine blends a line clipped by a region span by
        // span, on several threads at once, many times slower.
        const QRect inside = m_plot->axisRect()->rect().adjusted(-1, -1, 1, 1);
        painter->setClipRect((grid->*&qcp_access::LayerableDrawing::clipRect)().translated(0, -1) & inside);
        (grid->*&qcp_access::LayerableDrawing::applyDefaultAntialiasingHint)(painter);
        (grid->*&qcp_access::LayerableDrawing::draw)(painter);
    }
};

} // namespace crossroof::widgets
