// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/label_placement.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

constexpr const char *kFreedomProperty = "crossroof_label_freedom";
constexpr const char *kHomeProperty = "crossroof_label_home";
constexpr const char *kNamedLineProperty = "crossroof_label_named_line";

bool draws(const QPen &pen)
{
    return pen.style() != Qt::NoPen && pen.color().alpha() > 0;
}

/// The segments of the polyline POINTS that lie in CLIP, cut to it, moved down by DY.
void addPolyline(const std::vector<QPointF> &points, const QRectF &clip, double dy, std::vector<QLineF> &out)
{
    for (std::size_t i = 1; i < points.size(); ++i) {
        double x0 = points[i - 1].x(), y0 = points[i - 1].y(), x1 = points[i].x(), y1 = points[i].y();
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1))
            continue;
        if (clipSegment(x0, y0, x1, y1, clip.left(), clip.right(), clip.top(), clip.bottom()))
            out.emplace_back(QPointF(x0, y0 + dy), QPointF(x1, y1 + dy));
    }
}

/// How much of BOX the candidate costs: leaving the axis rect (a label cut, or not shown at all) more than
/// crossing any number of curves, by the area outside; then each curve or marker it crosses, far more than any
/// overlap; an overlap with an obstacle by its area.
double cost(const QRectF &box, const QMarginsF &padding, const std::vector<DataShape> &shapes,
            const std::vector<QRectF> &obstacles, const QRectF &area)
{
    double c = 0;
    for (const DataShape &shape : shapes)
        c += crosses(box, shape) ? 1e6 : 0;
    const QRectF padded = box.marginsAdded(padding); // other text keeps off the label's padding too
    for (const QRectF &o : obstacles) {
        const QRectF both = padded.intersected(o);
        if (both.width() > 0.5 && both.height() > 0.5)
            c += 1e4 + both.width() * both.height();
    }
    if (!area.isEmpty() && !area.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box))
        c += 1e12 + box.width() * box.height() - box.intersected(area).width() * box.intersected(area).height();
    return c;
}

/// LABEL put where it belongs (setLabelHome()), where it has a home; returns where it was.
QPointF goHome(QCPItemText *label)
{
    const QPointF before = label->position->coords();
    if (const QVariant home = label->property(kHomeProperty); home.isValid())
        label->position->setCoords(home.toPointF());
    return before;
}

} // namespace

bool clipSegment(double &x0, double &y0, double &x1, double &y1, double xlo, double xhi, double ylo, double yhi)
{
    double t0 = 0, t1 = 1;
    const double dx = x1 - x0, dy = y1 - y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - xlo, xhi - x0, y0 - ylo, yhi - y0};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, r);
        else
            t1 = std::min(t1, r);
        if (t0 > t1)
            return false;
    }
    const double nx0 = x0 + t0 * dx, ny0 = y0 + t0 * dy;
    x1 = x0 + t1 * dx;
    y1 = y0 + t1 * dy;
    x0 = nx0;
    y0 = ny0;
    return true;
}

QString guideLineName()
{
    return QObject::tr("a line");
}

std::vector<DataShape> dataShapes(QCustomPlot *plot, double dy)
{
    std::vector<DataShape> shapes;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *plottable = plot->plottable(i);
        if (!plottable->realVisibility() || !plottable->keyAxis() || !plottable->valueAxis())
            continue;
        const QCPAxis *keyAxis = plottable->keyAxis();
        const QCPAxis *valueAxis = plottable->valueAxis();
        const QRectF clip = keyAxis->axisRect()->rect();
        const auto pixel = [&](double key, double value) {
            const bool logKey = keyAxis->scaleType() == QCPAxis::stLogarithmic;
            const bool logValue = valueAxis->scaleType() == QCPAxis::stLogarithmic;
            if (!std::isfinite(key) || !std::isfinite(value) || (logKey && !(key > 0)) || (logValue && !(value > 0)))
                return QPointF(qQNaN(), qQNaN());
            return plottable->coordsToPixels(key, value);
        };
        DataShape shape;
        shape.name = plottable->name().isEmpty() ? QObject::tr("a curve") : plottable->name();
        QCPScatterStyle scatter;
        std::vector<QPointF> points;
        bool lines = false;
        if (auto *graph = qobject_cast<QCPGraph *>(plottable)) {
            scatter = graph->scatterStyle();
            lines = graph->lineStyle() == QCPGraph::lsLine && draws(graph->pen());
            points.reserve(std::size_t(graph->data()->size()));
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                points.push_back(pixel(it->key, it->value));
        } else if (auto *curve = qobject_cast<QCPCurve *>(plottable)) {
            scatter = curve->scatterStyle();
            lines = curve->lineStyle() == QCPCurve::lsLine && draws(curve->pen());
            points.reserve(std::size_t(curve->data()->size()));
            for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
                points.push_back(pixel(it->key, it->value));
        } else if (const auto *boxes = dynamic_cast<const DataAreas *>(plottable)) {
            for (const QRectF &area : boxes->dataAreas())
                shape.areas.push_back(area.translated(0, dy));
        } else {
            continue;
        }
        if (lines)
            addPolyline(points, clip, dy, shape.segments);
        if (!scatter.isNone() && scatter.shape() != QCPScatterStyle::ssDot) {
            shape.markRadius = scatter.size() / 2;
            for (const QPointF &p : points) {
                if (std::isfinite(p.x()) && std::isfinite(p.y()) && clip.contains(p))
                    shape.marks.push_back(p + QPointF(0, dy));
            }
        }
        if (!shape.segments.empty() || !shape.marks.empty() || !shape.areas.empty())
            shapes.push_back(std::move(shape));
    }
    // Straight lines across the plot (the X-graph's δ, π and plateau): a label that another's line strikes
    // through reads as crossed out.
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(i));
        if (!line || !line->visible() || !line->layer()->visible() || !draws(line->pen()) || !line->clipAxisRect())
            continue;
        const QPointF a = line->point1->pixelPosition();
        const QPointF b = line->point2->pixelPosition();
        if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.x()) || !std::isfinite(b.y()) || a == b)
            continue;
        // Out past the rect both ways, then cut to it.
        const QRectF clip = line->clipAxisRect()->rect();
        const double reach = 4 * (clip.width() + clip.height()) / std::max(QLineF(a, b).length(), 1e-9);
        const QPointF d = b - a;
        DataShape shape;
        shape.name = guideLineName();
        addPolyline({a - reach * d, a + reach * d}, clip, dy, shape.segments);
        if (!shape.segments.empty())
            shapes.push_back(std::move(shape));
    }
    return shapes;
}

bool crosses(const QRectF &box, const DataShape &shape)
{
    for (const QRectF &area : shape.areas) {
        if (area.intersects(box))
            return true;
    }
    for (const QPointF &m : shape.marks) {
        const double nx = std::clamp(m.x(), box.left(), box.right());
        const double ny = std::clamp(m.y(), box.top(), box.bottom());
        if (std::hypot(m.x() - nx, m.y() - ny) < shape.markRadius)
            return true;
    }
    const QLineF edges[4] = {{box.topLeft(), box.topRight()},
                             {box.topRight(), box.bottomRight()},
                             {box.bottomRight(), box.bottomLeft()},
                             {box.bottomLeft(), box.topLeft()}};
    for (const QLineF &s : shape.segments) {
        // Far from the box on one side: no crossing (most segments, quickly).
        if (std::max(s.x1(), s.x2()) < box.left() || std::min(s.x1(), s.x2()) > box.right()
            || std::max(s.y1(), s.y2()) < box.top() || std::min(s.y1(), s.y2()) > box.bottom())
            continue;
        if (box.contains(s.p1()) || box.contains(s.p2()))
            return true;
        for (const QLineF &e : edges) {
            if (s.intersects(e, nullptr) == QLineF::BoundedIntersection)
                return true;
        }
    }
    return false;
}

QRectF glyphBox(const QCPItemText *label)
{
    const QRectF whole = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    return whole.marginsRemoved(QMarginsF(label->padding()));
}

void setLabelFreedom(QCPItemText *label, LabelFreedom freedom)
{
    label->setProperty(kFreedomProperty, int(freedom));
}

void setNamedLine(QCPItemText *label, QCPItemStraightLine *line)
{
    label->setProperty(kNamedLineProperty, QVariant::fromValue(static_cast<QObject *>(line)));
}

QCPItemStraightLine *namedLine(const QCPItemText *label)
{
    return qobject_cast<QCPItemStraightLine *>(label->property(kNamedLineProperty).value<QObject *>());
}

void setLabelHome(QCPItemText *label)
{
    label->setProperty(kHomeProperty, label->position->coords());
}

bool placeOffData(QCPItemText *label, const std::vector<DataShape> &shapes, const std::vector<QRectF> &obstacles,
                  bool hideIfNone)
{
    if (!label->visible() || label->text().isEmpty() || label->rotation() != 0)
        return false;
    const QPointF before = goHome(label);
    const QRectF area = label->clipToAxisRect() && label->clipAxisRect() ? QRectF(label->clipAxisRect()->rect())
                                                                         : QRectF();
    const QRectF box = glyphBox(label);
    const QMarginsF padding(label->padding());
    const QPointF anchor = label->position->pixelPosition();
    const auto freedom = LabelFreedom(label->property(kFreedomProperty).toInt());
    // A label named for a point that a pan or zoom took out of view goes with it, past the plot's edge where its
    // clip hides it, rather than into a corner away from its marker; it comes back with its point (goHome()).
    if (freedom == LabelFreedom::AroundPoint && !area.isEmpty() && !box.isEmpty()
        && !area.adjusted(-1, -1, 1, 1).contains(anchor)) {
        const QRectF whole = box.marginsAdded(padding);
        QPointF shift(0, 0);
        if (anchor.x() < area.left())
            shift.rx() = std::min(0.0, area.left() - whole.right() - 1);
        else if (anchor.x() > area.right())
            shift.rx() = std::max(0.0, area.right() - whole.left() + 1);
        if (anchor.y() < area.top())
            shift.ry() = std::min(0.0, area.top() - whole.bottom() - 1);
        else if (anchor.y() > area.bottom())
            shift.ry() = std::max(0.0, area.bottom() - whole.top() + 1);
        label->position->setPixelPosition(anchor + shift);
        return label->position->coords() != before;
    }
    if (box.isEmpty() || cost(box, padding, shapes, obstacles, area) == 0)
        return label->position->coords() != before; // back home
    // Candidate shifts of the box, and the side of its line or point each keeps.
    std::vector<QPointF> shifts;
    const double stepY = std::max(2.0, box.height() / 2);
    const double stepX = std::max(2.0, box.width() / 4);
    const QRectF reach = area.isEmpty() ? QRectF(box).adjusted(-box.width() * 4, -box.height() * 8,
                                                               box.width() * 4, box.height() * 8)
                                        : area;
    const int rowsUp = int((box.top() - reach.top()) / stepY) + 1;
    const int rowsDown = int((reach.bottom() - box.bottom()) / stepY) + 1;
    const int colsLeft = int((box.left() - reach.left()) / stepX) + 1;
    const int colsRight = int((reach.right() - box.right()) / stepX) + 1;
    // The mirror images of the box about its anchor: the line's other side.
    const double flipX = 2 * anchor.x() - box.left() - box.right();
    const double flipY = 2 * anchor.y() - box.top() - box.bottom();
    switch (freedom) {
    case LabelFreedom::AlongVerticalLine:
        for (double side : {0.0, flipX}) {
            for (int j = -rowsUp; j <= rowsDown; ++j)
                shifts.emplace_back(side, j * stepY);
        }
        break;
    case LabelFreedom::AlongHorizontalLine:
        // Above or below its line, or up to two half-heights further off where markers sit on the line.
        for (double side : {0.0, -stepY, -2 * stepY, flipY, flipY + stepY, flipY + 2 * stepY}) {
            for (int i = -colsLeft; i <= colsRight; ++i)
                shifts.emplace_back(i * stepX, side);
        }
        break;
    case LabelFreedom::AroundPoint:
        for (int j = -std::min(rowsUp, 8); j <= std::min(rowsDown, 8); ++j) {
            for (int i = -std::min(colsLeft, 8); i <= std::min(colsRight, 8); ++i)
                shifts.emplace_back(i * stepX, j * stepY);
        }
        for (double sx : {0.0, flipX}) {
            for (double sy : {0.0, flipY})
                shifts.emplace_back(sx, sy);
        }
        break;
    }
    // The nearest clear candidate; else the cheapest.
    std::stable_sort(shifts.begin(), shifts.end(), [](const QPointF &a, const QPointF &b) {
        return std::hypot(a.x(), a.y()) < std::hypot(b.x(), b.y());
    });
    QPointF best(0, 0);
    double bestCost = cost(box, padding, shapes, obstacles, area);
    for (const QPointF &s : shifts) {
        const double c = cost(box.translated(s), padding, shapes, obstacles, area);
        if (c < bestCost) {
            bestCost = c;
            best = s;
            if (c == 0)
                break;
        }
    }
    if (bestCost > 0 && hideIfNone) {
        label->setVisible(false);
        return true;
    }
    if (!best.isNull())
        label->position->setPixelPosition(anchor + best);
    return label->position->coords() != before;
}

std::vector<std::pair<QCPItemText *, QPointF>> placeLabelsOffData(QCustomPlot *plot,
                                                                   std::vector<QCPItemText *> labels,
                                                                   bool hideIfNone)
{
    const std::vector<DataShape> shapes = dataShapes(plot);
    // Those clear of the data where they belong first.
    std::stable_partition(labels.begin(), labels.end(), [&shapes](QCPItemText *label) {
        const QPointF before = goHome(label);
        const QRectF box = glyphBox(label);
        label->position->setCoords(before);
        return std::none_of(shapes.begin(), shapes.end(), [&box](const DataShape &s) { return crosses(box, s); });
    });
    // Every text PLOT shows, as drawn with its padding, each box kept up to date as its label moves.
    std::vector<QCPItemText *> texts;
    std::vector<QRectF> boxes;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (text && text->visible() && text->layer()->visible() && !text->text().isEmpty()) {
            texts.push_back(text);
            boxes.push_back(glyphBox(text).marginsAdded(QMarginsF(text->padding())));
        }
    }
    // A legend inside a plot (in a corner, or where a figure put it) as it is laid out now: no label goes under it.
    std::vector<QRectF> legends;
    for (const QCPLegend *legend : plot->findChildren<QCPLegend *>()) {
        if (legend->visible() && legend->itemCount() > 0 && plot->axisRect()->rect().intersects(legend->outerRect()))
            legends.push_back(legend->outerRect());
    }
    std::vector<std::pair<QCPItemText *, QPointF>> moved;
    for (QCPItemText *label : labels) {
        const auto self = std::find(texts.begin(), texts.end(), label);
        std::vector<QRectF> others = legends;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (texts.begin() + std::ptrdiff_t(i) != self && !boxes[i].isNull())
                others.push_back(boxes[i]);
        }
        const QPointF before = label->position->coords();
        if (!placeOffData(label, shapes, others, hideIfNone))
            continue;
        moved.emplace_back(label, before);
        if (self != texts.end()) {
            boxes[std::size_t(self - texts.begin())]
                    = label->visible() ? glyphBox(label).marginsAdded(QMarginsF(label->padding())) : QRectF();
        }
    }
    return moved;
}

} // namespace crossroof::widgets
