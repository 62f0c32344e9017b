// SPDX-License-Identifier: GPL-3.0-or-later
// ExportGuard's legends and labels in the figure: legends merged and shrunk where the plots are cramped, labels
// moved off the data, shortened and kept apart.
#include "export/export_guard.h"

#include "common/icon_legend_item.h"
#include "common/label_placement.h"
#include "common/legend_groups.h"
#include "common/plot_style.h"
#include "common/point_labels.h"
#include "common/static_text.h"
#include "common/symbol_text.h"
#include "export/figure_units.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <set>

namespace crossroof::widgets::figure {

namespace {

/// Whether PLOT, given EACH units of the page's height and a legend below it, keeps less than its share of
/// them with its axes (legend_groups::kPlotShare) or between them (kFigurePlotShare), as laid out for the page.
bool cramped(const QCustomPlot *plot, double each)
{
    if (!legend_groups::hasLegendBelow(plot) || legendBeside(plot))
        return false;
    const legend_groups::AxesHeight h = legend_groups::axesHeight(plot);
    return h.outer < legend_groups::kPlotShare * each || h.inner < kFigurePlotShare * each;
}

} // namespace

bool ExportGuard::mergeLegends(const QList<QCustomPlot *> &plots, const FigureOptions &options, double pageHeight)
{
    bool changed = false;
    const std::vector<figure::PlotBand> bands = figure::stackPlots(plots, pageHeight); // as layOutText() does
    for (int i = 0; i < int(plots.size()); ++i) {
        QCustomPlot *plot = plots[i];
        if (!plot->legend->visible()
            || legend_groups::level(plot) >= std::min(legend_groups::maxLevel(plot), mostMerging(options)))
            continue;
        if (!cramped(plot, bands[std::size_t(i)].height))
            continue;
        legend_groups::apply(plot, legend_groups::level(plot) + 1);
        fitLegendColumns(plot, options);
        changed = true;
    }
    return changed;
}

bool ExportGuard::shrinkLegends(const QList<QCustomPlot *> &plots, const std::vector<TextBox> &boxes,
                                const FigureOptions &options, double pageWidth, double pageHeight)
{
    double area = 0;
    for (const TextBox &box : boxes)
        area += box.kind == TextBox::Kind::LegendEntry ? box.rect.width() * box.rect.height() : 0;
    const std::vector<figure::PlotBand> bands = figure::stackPlots(plots, pageHeight);
    bool anyCramped = false;
    for (int i = 0; i < int(plots.size()); ++i)
        anyCramped = anyCramped || cramped(plots[i], bands[std::size_t(i)].height);
    if (area <= pageWidth * pageHeight / 4 && !anyCramped)
        return false;
    const int smallest = canvasPixels(options, 0);
    bool changed = false;
    for (QCustomPlot *plot : plots) {
        QCPLegend *legend = plot->legend;
        bool shrunk = false;
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            if (!item)
                continue;
            const QFont font = item->font();
            const int pixels = QFontInfo(font).pixelSize();
            if (pixels <= smallest)
                continue;
            QFont smaller = font;
            smaller.setPixelSize(std::max(smallest, int(std::floor(pixels * 0.9))));
            item->setFont(smaller);
            m_restore.push_back([item = QPointer<QCPAbstractLegendItem>(item), font] {
                if (item)
                    item->setFont(font);
            });
            shrunk = true;
        }
        // Text at the smallest size: the icons (taller than a line of text on screen) shrink to the text's
        // height, which takes whole rows out of the legend's height.
        const QSize icon = legend->iconSize();
        if (!shrunk && icon.height() > smallest + 2) {
            legend->setIconSize(std::max(16, icon.width() * 3 / 4), std::max(smallest + 2, icon.height() * 3 / 4));
            m_restore.push_back([legend, icon] { legend->setIconSize(icon); });
            shrunk = true;
        }
        if (shrunk)
            fitLegendColumns(plot, options);
        changed = changed || shrunk;
    }
    return changed;
}

void ExportGuard::moveLabelsOffData(const QList<QCustomPlot *> &plots)
{
    for (QCustomPlot *plot : plots) {
        std::vector<QCPItemText *> labels;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *text = qobject_cast<QCPItemText *>(plot->item(i));
            // Point names are placed for the figure with their leaders (placePointLabelsForFigure()); a
            // contour's value sits on its own line.
            if (text && text->visible() && text->layer()->visible() && !text->text().isEmpty()
                && text->clipToAxisRect() && !text->position->parentAnchor() && !plot_style::isPinnedLabel(text))
                labels.push_back(text);
        }
        const auto restore = [this](const std::vector<std::pair<QCPItemText *, QPointF>> &moved) {
            for (const auto &[item, coords] : moved) {
                m_restore.push_back([label = QPointer<QCPItemText>(item), at = coords] {
                    if (label) {
                        label->position->setCoords(at);
                        label->setVisible(true);
                    }
                });
            }
        };
        restore(placeLabelsOffData(plot, labels, true));
        // One left out that has a short form ("π = 11.3") tries that before it is left out (or its line named in
        // the legend).
        std::vector<QCPItemText *> shorter;
        std::vector<QString> whole; // their whole texts, as SHORTER
        for (QCPItemText *label : labels) {
            const QString brief = plot_style::shortText(label);
            if (label->visible() || brief.isEmpty() || brief == label->text())
                continue;
            m_restore.push_back([label = QPointer<QCPItemText>(label), text = label->text()] {
                if (label)
                    label->setText(text);
            });
            whole.push_back(label->text());
            label->setText(brief);
            label->setVisible(true);
            shorter.push_back(label);
        }
        if (!shorter.empty())
            restore(placeLabelsOffData(plot, shorter, true));
        for (std::size_t i = 0; i < shorter.size(); ++i) {
            if (!shorter[i]->visible()) // left out all the same: whole, for the legend that may name its line
                shorter[i]->setText(whole[i]);
        }
    }
}

bool ExportGuard::nameLinesInLegends(const QList<QCustomPlot *> &plots)
{
    bool added = false;
    for (QCustomPlot *plot : plots) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(plot->item(i));
            QCPItemStraightLine *line = label ? namedLine(label) : nullptr;
            if (!line || label->visible() || label->text().isEmpty() || !line->visible() || !line->layer()->visible()
                || !plot->legend->visible() || m_namedLines.count(line) > 0)
                continue;
            m_namedLines.insert(line);
            // The line as the figure draws it (greyscale too), across the entry's icon.
            auto *entry = new IconLegendItem(plot->legend, label->text(),
                                             [line = QPointer<QCPItemStraightLine>(line)](QCPPainter *painter,
                                                                                          const QRectF &box) {
                                                 if (!line)
                                                     return;
                                                 painter->setPen(line->pen());
                                                 painter->drawLine(QLineF(box.left(), box.center().y(), box.right(),
                                                                          box.center().y()));
                                             });
            entry->setFont(plot->legend->font());
            entry->setTextColor(plot->legend->textColor());
            plot->legend->addItem(entry);
            m_restore.push_back([plot, entry = QPointer<QCPAbstractLegendItem>(entry)] {
                if (entry)
                    plot->legend->removeItem(entry.data());
            });
            added = true;
        }
    }
    return added;
}

bool ExportGuard::shortenLabels(const std::vector<TextBox> &boxes)
{
    // The plots where two labels that have short forms meet, or one is cut at the plot's edge.
    std::set<QCustomPlot *> crowded;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        QCPItemText *a = boxes[i].item;
        if (!a || plot_style::shortText(a).isEmpty() || a->text() == plot_style::shortText(a))
            continue;
        if (boxes[i].cut)
            crowded.insert(a->parentPlot());
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            QCPItemText *b = boxes[j].item;
            const QRectF both = boxes[i].rect.intersected(boxes[j].rect);
            if (b && b->parentPlot() == a->parentPlot() && !plot_style::shortText(b).isEmpty() && both.width() > 0.5
                && both.height() > 0.5)
                crowded.insert(a->parentPlot());
        }
    }
    for (QCustomPlot *plot : crowded) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(plot->item(i));
            const QString brief = label ? plot_style::shortText(label) : QString();
            if (brief.isEmpty() || label->text() == brief)
                continue;
            const QString text = label->text();
            const QPointF coords = label->position->coords();
            label->setText(brief);
            if (const std::optional<QPointF> at = plot_style::shortPosition(label))
                label->position->setCoords(*at);
            m_restore.push_back([label = QPointer<QCPItemText>(label), text, coords] {
                if (label) {
                    label->setText(text);
                    label->position->setCoords(coords);
                }
            });
        }
        for (QCPAxis *axis : plot->axisRect()->axes()) {
            const QString title = plot_style::shortLabelsTitle(axis);
            if (title.isEmpty() || axis->label() == title)
                continue;
            const QString label = axis->label();
            axis->setLabel(title);
            m_restore.push_back([axis, label] { axis->setLabel(label); });
        }
    }
    return !crowded.empty();
}

bool ExportGuard::separateLabels(const std::vector<TextBox> &boxes, int round)
{
    bool changed = false;
    std::set<QCPItemText *> moved;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            const TextBox &a = boxes[i];
            const TextBox &b = boxes[j];
            QCPItemText *item = b.item ? b.item : a.item;
            const TextBox &fixed = b.item ? a : b;
            const TextBox &mobile = b.item ? b : a;
            const QRectF both = a.rect.intersected(b.rect);
            if (!item || moved.count(item) || !(both.width() > 0.5 && both.height() > 0.5))
                continue;
            moved.insert(item);
            if (round >= 2 || plot_style::isPinnedLabel(item)) {
                item->setVisible(false);
                m_restore.push_back([item = QPointer<QCPItemText>(item)] {
                    if (item)
                        item->setVisible(true);
                });
            } else {
                // Off the other label the nearer way, or the other way where that would leave the axis rect
                // that clips the label (cut in half at the plot's edge); hidden where neither fits.
                const double downShift = fixed.rect.bottom() - mobile.rect.top() + 2;
                const double upShift = fixed.rect.top() - mobile.rect.bottom() - 2;
                const bool downFirst = mobile.rect.center().y() >= fixed.rect.center().y();
                const auto fits = [item, &mobile](double shift) {
                    if (!item->clipToAxisRect() || !item->clipAxisRect())
                        return true;
                    return QRectF(item->clipAxisRect()->rect()).adjusted(-0.5, -0.5, 0.5, 0.5)
                            .contains(mobile.rect.translated(0, shift));
                };
                double shift = downFirst ? downShift : upShift;
                if (!fits(shift))
                    shift = downFirst ? upShift : downShift;
                if (!fits(shift)) {
                    item->setVisible(false);
                    m_restore.push_back([item = QPointer<QCPItemText>(item)] {
                        if (item)
                            item->setVisible(true);
                    });
                    changed = true;
                    continue;
                }
                QCPItemPosition *position = item->position;
                const QPointF coords = position->coords();
                position->setPixelPosition(position->pixelPosition() + QPointF(0, shift));
                m_restore.push_back([item = QPointer<QCPItemText>(item), coords] {
                    if (item)
                        item->position->setCoords(coords);
                });
            }
            changed = true;
        }
    }
    return changed;
}

} // namespace crossroof::widgets::figure
