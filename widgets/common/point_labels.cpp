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

/// How many names a figure places anywhere clear in its plot, with a long leader, where none is clear near
/// their points: more leaders across the plot than that cannot be followed.
constexpr int kMostFarNames = 3;

/// Whether the segment A-B passes through one of BOXES.
bool crossesAny(const QPointF &a, const QPointF &b, const std::vector<QRectF> &boxes)
{
    return std::any_of(boxes.begin(), boxes.end(), [&](const QRectF &box) {
        double x0 = a.x(), y0 = a.y(), x1 = b.x(), y1 = b.y();
        return clipSegment(x0, y0, x1, y1, box.left(), box.right(), box.top(), box.bottom());
    });
}

/// Places LABELS on PLOT in FONT (see placePointLabels()); the items made go to CREATED. On screen the names go
/// on no text PLOT shows; a FIGURE places its names first (its labels then move off them), and its first names
/// with no clear place near their points take the clear place nearest to them anywhere in the plot, with a
/// leader that passes through no other name or mark. Returns how many names were left out.
int place(QCustomPlot *plot, const std::vector<PointLabel> &labels, const QFont &font,
          std::vector<QCPAbstractItem *> &created, bool figure)
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
    for (int i = 0; !figure && i < plot->itemCount(); ++i) {
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
    // A name's box: its glyphs as the text item will measure them (in whole pixels), and a margin.
    const auto boxSize = [&font](const QString &text) {
        return QSizeF(QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip, text).size()) + QSizeF(4, 2);
    };
    QColor leaderColour = plot->xAxis->labelColor();
    leaderColour.setAlpha(140);
    const QPen leader(leaderColour, 0.8);
    int hidden = 0;
    int farNames = 0;
    for (const PointLabel &l : labels) {
        if (l.text.isEmpty())
            continue; // a mark in the way, not a name
        const QPointF at = pixelOf(l);
        const QSizeF size = boxSize(l.text);
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
        QString shown = l.text;
        if (!chosen && figure && farNames < kMostFarNames) {
            // A grid over the plot, nearest first: the first clear box whose leader meets no other name or mark;
            // where none is, the name shortened in the middle (its launch ID kept) to a third of the plot's width.
            std::vector<QRectF> others; // what the leader must not pass through: all but the point's own mark
            std::copy_if(taken.begin(), taken.end(), std::back_inserter(others),
                         [&at](const QRectF &t) { return !t.contains(at); });
            const auto anywhere = [&](const QSizeF &box) -> std::optional<QRectF> {
                std::vector<QRectF> grid;
                for (double y = rect.top(); y + box.height() <= rect.bottom(); y += box.height() / 2) {
                    for (double x = rect.left(); x + box.width() <= rect.right(); x += std::max(4.0, box.width() / 8))
                        grid.emplace_back(QPointF(x, y), box);
                }
                const auto distance = [&at](const QRectF &b) { return QLineF(at, b.center()).length(); };
                std::sort(grid.begin(), grid.end(),
                          [&distance](const QRectF &a, const QRectF &b) { return distance(a) < distance(b); });
                for (const QRectF &b : grid) {
                    const QPointF nearest(std::clamp(at.x(), b.left(), b.right()),
                                          std::clamp(at.y(), b.top(), b.bottom()));
                    if (std::none_of(taken.begin(), taken.end(), [&](const QRectF &t) { return t.intersects(b); })
                        && !onData(b.adjusted(2, 1, -2, -1)) && !crossesAny(at, nearest, others))
                        return b;
                }
                return std::nullopt;
            };
            chosen = anywhere(size);
            const QString shorter = metrics.elidedText(l.text, Qt::ElideMiddle, rect.width() / 3);
            if (!chosen && shorter != l.text) {
                chosen = anywhere(boxSize(shorter));
                shown = shorter;
            }
            if (chosen)
                ++farNames;
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
        text->setText(shown);
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
    const int hidden = place(plot, labels, plot_style::annotationFont(), created, false);
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

FigureLabels placePointLabelsForFigure(QCustomPlot *plot, const QFont &font, FigureLabels *earlier)
{
    FigureLabels figure;
    const PlacedNames *names = placedNames(plot);
    if (!names || names->labels.empty())
        return figure;
    if (earlier) {
        // The figure's names placed before its text was fitted: placed again for its final layout.
        for (QCPAbstractItem *item : earlier->placed)
            plot->removeItem(item);
        earlier->placed.clear();
        place(plot, names->labels, font, figure.placed, true);
        return figure;
    }
    for (const QPointer<QCPAbstractItem> &item : names->items) {
        if (item && item->visible()) {
            item->setVisible(false);
            figure.hidden.push_back(item.data());
        }
    }
    if (figure.hidden.empty() && !names->pending) // the view drew again since and its names are gone, or it hides them
        return figure;
    place(plot, names->labels, font, figure.placed, true);
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
