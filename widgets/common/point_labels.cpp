// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/point_labels.h"

#include "common/label_placement.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace crossroof::widgets {

namespace {

/// The names placePointLabels() placed last on its plot (a child of the plot), for a figure to place again.
class PlacedNames : public QObject
{
public:
    using QObject::QObject;
    std::vector<PointLabel> labels;
    std::vector<QPointer<QCPAbstractItem>> items;
    bool pending = false; ///< LABELS are to be shown, not placed on screen yet
};

/// PLOT's PlacedNames, or null. (findChild() would take any child: the class has no meta-object of its own.)
PlacedNames *placedNames(const QCustomPlot *plot)
{
    for (QObject *child : plot->children()) {
        if (auto *names = dynamic_cast<PlacedNames *>(child))
            return names;
    }
    return nullptr;
}

/// Places LABELS on PLOT in FONT (see placePointLabels()), off the text PLOT shows where AVOID_TEXT; the items
/// made go to CREATED. Returns how many names were left out.
int place(QCustomPlot *plot, const std::vector<PointLabel> &labels, const QFont &font,
          std::vector<QCPAbstractItem *> &created, bool avoidText)
{
    const QRectF rect = plot->axisRect()->rect();
    const auto pixelOf = [plot](const PointLabel &l) {
        return QPointF(plot->xAxis->coordToPixel(l.x), plot->yAxis->coordToPixel(l.y));
    };
    std::vector<QRectF> taken;
    for (const PointLabel &l : labels) {
        const QPointF r(l.markRadius, l.markRadius);
        taken.emplace_back(pixelOf(l) - r, pixelOf(l) + r);
    }
    // And on screen the text the plot shows already (a landmark's label, the plateau's): a name goes on none of
    // it. A figure names the kernels first, and its labels then move off the names (ExportGuard).
    for (int i = 0; avoidText && i < plot->itemCount(); ++i) {
        const auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (text && text->visible() && text->layer()->visible() && !text->text().isEmpty())
            taken.push_back(glyphBox(text).marginsAdded(QMarginsF(text->padding())));
    }
    // The curves and markers drawn: a name crosses none of them.
    const std::vector<DataShape> shapes = dataShapes(plot);
    const auto onData = [&shapes](const QRectF &box) {
        return std::any_of(shapes.begin(), shapes.end(), [&box](const DataShape &s) { return crosses(box, s); });
    };
    const QFontMetricsF metrics(font);
    QColor leaderColour = plot->xAxis->labelColor();
    leaderColour.setAlpha(140);
    const QPen leader(leaderColour, 0.8);
    int hidden = 0;
    for (const PointLabel &l : labels) {
        if (l.text.isEmpty())
            continue; // a mark in the way, not a name
        const QPointF at = pixelOf(l);
        const QSizeF size = metrics.size(0, l.text) + QSizeF(4, 2);
        std::optional<QRectF> chosen;
        for (const double step : {7.0, 22.0, 40.0, 60.0, 85.0}) {
            const double d = step + std::max(0.0, l.markRadius - 5);
            const double w = size.width(), h = size.height();
            // Right, left, above, below and the four diagonals first, then the eight directions between.
            std::vector<QPointF> corners {at + QPointF(d, -h / 2),         at + QPointF(-d - w, -h / 2),
                                          at + QPointF(-w / 2, -d - h),    at + QPointF(-w / 2, d),
                                          at + QPointF(d * 0.7, -d * 0.7 - h), at + QPointF(-d * 0.7 - w, -d * 0.7 - h),
                                          at + QPointF(d * 0.7, d * 0.7),  at + QPointF(-d * 0.7 - w, d * 0.7)};
            for (int k = 0; k < 8; ++k) {
                const double a = (2 * k + 1) * M_PI / 8;
                const QPointF centre = at + QPointF(std::cos(a) * (d + w / 2), -std::sin(a) * (d + h / 2));
                corners.push_back(centre - QPointF(w / 2, h / 2));
            }
            for (const QPointF &c : corners) {
                const QRectF box(c, size);
                if (rect.contains(box)
                    && std::none_of(taken.begin(), taken.end(), [&](const QRectF &t) { return t.intersects(box); })
                    && !onData(box.adjusted(2, 1, -2, -1))) {
                    chosen = box;
                    break;
                }
            }
            if (chosen)
                break;
        }
        if (!chosen) {
            ++hidden;
            continue;
        }
        taken.push_back(*chosen);
        auto *anchor = new QCPItemTracer(plot);
        created.push_back(anchor);
        anchor->setStyle(QCPItemTracer::tsNone);
        anchor->position->setCoords(l.x, l.y);
        auto *text = new QCPItemText(plot);
        created.push_back(text);
        text->setClipToAxisRect(true);
        text->position->setParentAnchor(anchor->position);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->position->setCoords(chosen->topLeft() + QPointF(2, 1) - at);
        text->setFont(font);
        text->setColor(plot->xAxis->labelColor());
        text->setText(l.text);
        const QPointF nearest(std::clamp(at.x(), chosen->left(), chosen->right()),
                              std::clamp(at.y(), chosen->top(), chosen->bottom()));
        if (QLineF(at, nearest).length() > l.markRadius + 7) {
            auto *line = new QCPItemLine(plot);
            created.push_back(line);
            line->setClipToAxisRect(true);
            line->setPen(leader);
            line->start->setParentAnchor(anchor->position);
            line->start->setCoords(QLineF(QPointF(), nearest - at).unitVector().p2() * l.markRadius);
            line->end->setParentAnchor(anchor->position);
            line->end->setCoords(nearest - at);
        }
    }
    return hidden;
}

} // namespace

int placePointLabels(QCustomPlot *plot, const std::vector<PointLabel> &labels)
{
    PlacedNames *names = placedNames(plot);
    if (!names)
        names = new PlacedNames(plot);
    for (const QPointer<QCPAbstractItem> &item : names->items) {
        if (item) // the last names, where the view kept them
            plot->removeItem(item.data());
    }
    std::vector<QCPAbstractItem *> created;
    const int hidden = place(plot, labels, plot_style::annotationFont(), created, true);
    names->labels = labels;
    names->items.assign(created.begin(), created.end());
    names->pending = false;
    return hidden;
}

void setPendingPointLabels(QCustomPlot *plot, const std::vector<PointLabel> &labels)
{
    PlacedNames *names = placedNames(plot);
    if (!names)
        names = new PlacedNames(plot);
    for (const QPointer<QCPAbstractItem> &item : names->items) {
        if (item)
            plot->removeItem(item.data());
    }
    names->items.clear();
    names->labels = labels;
    names->pending = true;
}

FigureLabels placePointLabelsForFigure(QCustomPlot *plot, const QFont &font)
{
    FigureLabels figure;
    const PlacedNames *names = placedNames(plot);
    if (!names || names->labels.empty())
        return figure;
    for (const QPointer<QCPAbstractItem> &item : names->items) {
        if (item && item->visible()) {
            item->setVisible(false);
            figure.hidden.push_back(item.data());
        }
    }
    if (figure.hidden.empty() && !names->pending) // the view drew again since and its names are gone, or it hides them
        return figure;
    place(plot, names->labels, font, figure.placed, false);
    return figure;
}

namespace {

/// See placeAgainAfterResize(): a child of the plot that watches its resize events.
class ResizeRelabel : public QObject
{
public:
    ResizeRelabel(QCustomPlot *plot, std::function<bool()> named, std::function<void()> redraw)
        : QObject(plot)
        , m_named(std::move(named))
        , m_redraw(std::move(redraw))
    {
        plot->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize && !m_queued && m_named()) {
            m_queued = true;
            QMetaObject::invokeMethod(
                    this,
                    [this] {
                        m_queued = false;
                        m_redraw();
                    },
                    Qt::QueuedConnection);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<bool()> m_named;
    std::function<void()> m_redraw;
    bool m_queued = false;
};

} // namespace

void placeAgainAfterResize(QCustomPlot *plot, std::function<bool()> named, std::function<void()> redraw)
{
    new ResizeRelabel(plot, std::move(named), std::move(redraw));
}

} // namespace crossroof::widgets
