// SPDX-License-Identifier: GPL-3.0-or-later
// ExportGuard's marks in the figure: greyscale pens and brushes, and dense markers drawn smaller.
#include "export/export_guard.h"

#include "common/curve_thinning.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace crossroof::widgets::figure {

namespace {

QPen greyPen(QPen pen)
{
    pen.setColor(plot_style::toGrey(pen.color()));
    return pen;
}

QBrush greyBrushOf(QBrush brush)
{
    if (brush.style() != Qt::NoBrush)
        brush.setColor(plot_style::toGrey(brush.color()));
    return brush;
}

/// The colour a marker is told apart by: its fill's where it has one, else its outline's.
QRgb markerColour(const QCPScatterStyle &style)
{
    return (style.brush().style() != Qt::NoBrush ? style.brush().color() : style.pen().color()).rgb();
}

/// Graphs of PLOT whose markers share a shape and size and differ in colour alone (six traces' hollow circles): all but
/// the first of each colour get a shape of their own that no other graph of the plot has, nor one of USED, for
/// greyscale, where the colours all turn grey.
std::map<QCPGraph *, QCPScatterStyle::ScatterShape> greyscaleShapes(QCustomPlot *plot,
                                                                    std::set<QCPScatterStyle::ScatterShape> used)
{
    static const QCPScatterStyle::ScatterShape spare[]
            = {QCPScatterStyle::ssSquare,      QCPScatterStyle::ssTriangle,    QCPScatterStyle::ssDiamond,
               QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssCross, QCPScatterStyle::ssPlus,
               QCPScatterStyle::ssStar,        QCPScatterStyle::ssCrossSquare,
               QCPScatterStyle::ssPlusSquare,  QCPScatterStyle::ssCrossCircle, QCPScatterStyle::ssPlusCircle};
    const auto marked = [](const QCPGraph *g) {
        const QCPScatterStyle &s = g->scatterStyle();
        return !s.isNone() && s.shape() != QCPScatterStyle::ssPixmap && s.shape() != QCPScatterStyle::ssCustom
               && s.shape() != QCPScatterStyle::ssDot;
    };
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (marked(plot->graph(i)))
            used.insert(plot->graph(i)->scatterStyle().shape());
    }
    std::map<QCPGraph *, QCPScatterStyle::ScatterShape> own;
    // Marks of one shape and size told apart by colour alone (a ring of another size is told apart by its size).
    std::map<std::pair<QCPScatterStyle::ScatterShape, double>, std::set<QRgb>> coloursOf;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        if (!marked(g) || !g->visible())
            continue;
        std::set<QRgb> &colours = coloursOf[{g->scatterStyle().shape(), g->scatterStyle().size()}];
        const QRgb colour = markerColour(g->scatterStyle());
        if (colours.empty() || colours.count(colour)) {
            colours.insert(colour);
            continue;
        }
        colours.insert(colour);
        for (QCPScatterStyle::ScatterShape shape : spare) {
            if (!used.count(shape)) {
                used.insert(shape);
                own[g] = shape;
                break;
            }
        }
    }
    return own;
}

} // namespace

void ExportGuard::shrinkDenseMarkers(QCustomPlot *plot)
{
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        const QCPScatterStyle scatter = g->scatterStyle();
        if (scatter.isNone() || scatter.shape() == QCPScatterStyle::ssPixmap || scatter.shape() == QCPScatterStyle::ssDot)
            continue;
        const QCPRange keys = g->keyAxis()->range();
        const auto from = g->data()->findBegin(keys.lower, false);
        const auto to = g->data()->findEnd(keys.upper, false);
        if (to - from <= kDenseMarkers)
            continue;
        QCPScatterStyle smaller = scatter;
        smaller.setSize(std::max(4.0, scatter.size() * kDenseMarkerScale));
        QPen pen = scatter.pen();
        pen.setWidthF(std::max(0.5, pen.widthF() * kDenseMarkerScale));
        smaller.setPen(pen);
        g->setScatterStyle(smaller);
        m_restore.push_back([g, scatter] { g->setScatterStyle(scatter); });
    }
}

void ExportGuard::makeGreyscale(QCustomPlot *plot)
{
    static const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    static const QCPScatterStyle::ScatterShape shapes[]
            = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
               QCPScatterStyle::ssDiamond};
    // The markers greyscale gives lines that have none (below), which the traces' own shapes keep clear of.
    std::set<QCPScatterStyle::ScatterShape> lineMarkers;
    for (int i = 0, line = 0; i < plot->graphCount(); ++i) {
        const QCPGraph *g = plot->graph(i);
        if (g->pen().style() != Qt::NoPen && g->lineStyle() != QCPGraph::lsNone) {
            if (g->scatterStyle().isNone())
                lineMarkers.insert(shapes[line % 4]);
            ++line;
        }
    }
    const std::map<QCPGraph *, QCPScatterStyle::ScatterShape> ownShapes = greyscaleShapes(plot, lineMarkers);
    int line = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        const QPen pen = g->pen();
        const QCPScatterStyle scatter = g->scatterStyle();
        const int skip = g->scatterSkip();
        m_restore.push_back([g, pen, scatter, skip] {
            g->setPen(pen);
            g->setScatterStyle(scatter);
            g->setScatterSkip(skip);
        });
        QPen grey = pen;
        grey.setColor(QColor::fromHsvF(0, 0, 0.55 * qGray(pen.color().rgb()) / 255.0));
        QCPScatterStyle s = scatter;
        s.setPen(QPen(Qt::black, s.pen().widthF()));
        // A white fill, translucent or not (the stability map's ⊗ over the map), stays white: black would hide
        // the cross drawn on it.
        if (s.brush().style() != Qt::NoBrush && s.brush().color().rgb() != qRgb(255, 255, 255))
            s.setBrush(Qt::black);
        if (pen.style() != Qt::NoPen && g->lineStyle() != QCPGraph::lsNone) {
            grey.setStyle(dashes[line % 4]);
            // A marker every few dozen points names the series where dashes alone might not.
            if (scatter.isNone()) {
                s = QCPScatterStyle(shapes[line % 4], QPen(Qt::black, 1), Qt::white, 5);
                g->setScatterSkip(std::max(1, g->dataCount() / 10));
            }
            ++line;
        }
        if (const auto own = ownShapes.find(g); own != ownShapes.end())
            s.setShape(own->second);
        g->setPen(grey);
        g->setScatterStyle(s);
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        // Fills (bands, shaded ranges) and whatever else is not a graph's line: grey, as light or dark as
        // the colour was.
        QCPAbstractPlottable *p = plot->plottable(i);
        const QPen pen = p->pen();
        const QBrush brush = p->brush();
        m_restore.push_back([p, pen, brush] {
            p->setPen(pen);
            p->setBrush(brush);
        });
        p->setBrush(greyBrushOf(brush));
        if (!qobject_cast<QCPGraph *>(p)) // graphs: grey, dashed and marked above
            p->setPen(greyPen(pen));
        if (auto *curve = qobject_cast<QCPCurve *>(p)) {
            const QCPScatterStyle scatter = curve->scatterStyle();
            QCPScatterStyle grey = scatter;
            grey.setPen(greyPen(scatter.pen()));
            grey.setBrush(greyBrushOf(scatter.brush()));
            curve->setScatterStyle(grey);
            m_restore.push_back([curve, scatter] { curve->setScatterStyle(scatter); });
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i))) {
            // Each stop at its own lightness: a map shaded light to dark keeps its shades (the stability map's
            // bands, each from light to dark with the throughput). Black to white over the whole range made its
            // lowest band, most of the map, nearly black, and the black marks over it unreadable.
            const QCPColorGradient gradient = map->gradient();
            QCPColorGradient grey = gradient;
            QMap<double, QColor> stops = gradient.colorStops();
            for (QColor &stop : stops)
                stop = plot_style::toGrey(stop);
            grey.setColorStops(stops);
            grey.setColorInterpolation(QCPColorGradient::ciRGB);
            grey.setNanHandling(QCPColorGradient::nhNanColor);
            grey.setNanColor(Qt::white);
            map->setGradient(grey);
            m_restore.push_back([map, gradient] { map->setGradient(gradient); });
        }
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        // Each kind of item keeps its pen and brush in a class of its own.
        const auto grey = [this](auto *it) {
            const QPen pen = it->pen();
            const QBrush brush = it->brush();
            it->setPen(greyPen(pen));
            it->setBrush(greyBrushOf(brush));
            m_restore.push_back([it, pen, brush] {
                it->setPen(pen);
                it->setBrush(brush);
            });
        };
        const auto greyLine = [this](auto *it) {
            const QPen pen = it->pen();
            it->setPen(greyPen(pen));
            m_restore.push_back([it, pen] { it->setPen(pen); });
        };
        if (auto *line = qobject_cast<QCPItemStraightLine *>(item)) {
            const QPen pen = line->pen();
            line->setPen(QPen(Qt::black, pen.widthF(), pen.style()));
            m_restore.push_back([line, pen] { line->setPen(pen); });
        } else if (auto *text = qobject_cast<QCPItemText *>(item)) {
            const QColor color = text->color();
            text->setColor(Qt::black);
            m_restore.push_back([text, color] { text->setColor(color); });
            grey(text);
        } else if (auto *rect = qobject_cast<QCPItemRect *>(item)) {
            grey(rect);
        } else if (auto *ellipse = qobject_cast<QCPItemEllipse *>(item)) {
            grey(ellipse);
        } else if (auto *tracer = qobject_cast<QCPItemTracer *>(item)) {
            grey(tracer);
        } else if (auto *segment = qobject_cast<QCPItemLine *>(item)) {
            greyLine(segment);
        } else if (auto *curve = qobject_cast<QCPItemCurve *>(item)) {
            greyLine(curve);
        } else if (auto *bracket = qobject_cast<QCPItemBracket *>(item)) {
            greyLine(bracket);
        }
    }
    // What the plot's own layers shade with plot_style::tintOnPaper() (the X-graph's basins).
    plot_style::setGreyscale(plot, true);
    m_restore.push_back([plot] { plot_style::setGreyscale(plot, false); });
}

} // namespace crossroof::widgets::figure
