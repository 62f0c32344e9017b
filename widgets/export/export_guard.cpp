// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/export_guard.h"

#include "common/curve_thinning.h"
#include "common/legend_groups.h"
#include "common/label_placement.h"
#include "common/plot_style.h"
#include "common/point_labels.h"
#include "common/static_text.h"
#include "common/symbol_text.h"
#include "export/figure_clipping.h"
#include "export/figure_units.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <set>

namespace crossroof::widgets::figure {

QFont figureFont(const FigureOptions &options)
{
    QFont font = QApplication::font();
    if (!options.font_family.isEmpty())
        font.setFamily(options.font_family);
    // The family the text is drawn in, by its own name: an alias such as "Sans Serif" (the application font's
    // family on many desktops) would name nothing in an SVG, whose reader would pick a font of its own.
    font.setFamily(QFontInfo(font).family());
    // Font sizes in logical units: unitsPerPoint() of them make a point on paper.
    font.setPixelSize(canvasPixels(options, options.font_pt));
    return font;
}

namespace {

/// The figure's font a point smaller: tick labels, legend entries and labels in the plot.
QFont smallFigureFont(const FigureOptions &options)
{
    QFont small = figureFont(options);
    small.setPixelSize(canvasPixels(options, options.font_pt - 1));
    return small;
}

} // namespace

ExportGuard::ExportGuard(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    const QFont font = figureFont(options);
    const QFont small = smallFigureFont(options);
    for (QCustomPlot *plot : plots) {
        // Subscripts in titles and legend entries, also those added since the plot last replotted.
        symbol_text::useSymbolText(plot);
        // Every sample of thinned curves first (and thinned again last, on the way back).
        plot->setProperty(kFullDetailProperty, true);
        m_restore.push_back([plot] { plot->setProperty(kFullDetailProperty, false); });
        // Figures are for paper: black on white, whatever the screen's palette.
        plot_style::forceLight(plot, true);
        m_restore.push_back([plot] { plot_style::forceLight(plot, false); });
        // The full axis titles, even where the screen shows the short ones: the figure has its own room.
        for (QCPAxis *axis : plot->findChildren<QCPAxis *>()) {
            const QString shown = axis->label();
            const QString full = plot_style::fullLabel(axis);
            if (full != shown) {
                axis->setLabel(full);
                m_restore.push_back([axis, shown] { axis->setLabel(shown); });
            }
        }
        for (QCPAxisRect *rect : plot->axisRects()) {
            for (QCPAxis *axis : rect->axes())
                setAxisFonts(axis, font, small);
        }
        for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>()) {
            for (QCPAxis *axis : scale->axis()->axisRect()->axes()) // the key's other labelled sides too
                setAxisFonts(axis, font, small);
        }
        // The figure merges legend entries for its own page, from none merged on; the screen's come back
        // last, in the screen's font.
        const int screenLevel = legend_groups::level(plot);
        legend_groups::setHeld(plot, true);
        legend_groups::apply(plot, 0);
        m_restore.push_back([plot, screenLevel] {
            legend_groups::apply(plot, screenLevel);
            legend_groups::setHeld(plot, false);
        });
        const QFont legendFont = plot->legend->font();
        plot->legend->setFont(small);
        m_restore.push_back([plot, legendFont] { plot->legend->setFont(legendFont); });
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = plot->legend->item(i);
            if (!item) // an empty cell of a wrapped legend
                continue;
            const QFont f = item->font();
            item->setFont(small);
            // Guarded: merging the legend's entries deletes some.
            m_restore.push_back([item = QPointer<QCPAbstractLegendItem>(item), f] {
                if (item)
                    item->setFont(f);
            });
        }
        fitLegendColumns(plot, options);
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
                const QFont f = text->font();
                text->setFont(small);
                m_restore.push_back([text, f] { text->setFont(f); });
            }
        }
        shrinkDenseMarkers(plot);
        if (options.style == FigureStyle::Greyscale)
            makeGreyscale(plot);
        // Every format's data clipped alike (Qt's SVG generator ignores clip paths): the labels are then placed
        // off the same curves for the PNG as for the PDF and SVG.
        clipToAxisRects(plot, m_restore);
    }
    fitText(plots, options);
}

ExportGuard::~ExportGuard()
{
    for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it)
        (*it)();
}

void ExportGuard::fitLegendColumns(QCustomPlot *plot, const FigureOptions &options)
{
    if (legendBeside(plot) || legendSpread(plot))
        return; // in the columns moveLegendsBeside() or spreadLegends() chose
    QCPLegend *legend = plot->legend;
    const int columns
            = plot_style::legendColumns(legend, canvasWidth(options) - 16, 4);
    const int wrap = legend->wrap();
    if (columns == 0 || columns == wrap)
        return;
    legend->setWrap(columns);
    legend->setFillOrder(legend->fillOrder(), true);
    m_restore.push_back([legend, wrap] {
        legend->setWrap(wrap);
        legend->setFillOrder(legend->fillOrder(), true);
    });
}

void ExportGuard::fitText(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    const double w = canvasWidth(options);
    const double h = canvasHeight(options);
    // Laid out once at the figure's size first: a QCustomPlot makes its ticks before it lays the plot out, so
    // tickers that fit their labels to the axis's length (the schedule's lanes, the roofline's decades, the
    // stability key's throughputs) would see the screen's length in the first round and be thinned for it.
    layOutText(plots, w, h);
    // Point names placed for the screen's size and text land on marks and on each other at the figure's:
    // placed again for it (in the figure's label font), the screen's hidden meanwhile.
    const QFont small = smallFigureFont(options);
    std::vector<FigureLabels> names(std::size_t(plots.size()));
    const auto placeNames = [&](bool again) {
        for (int i = 0; i < int(plots.size()); ++i) {
            QCustomPlot *plot = plots[i];
            FigureLabels &earlier = names[std::size_t(i)];
            const FigureLabels placed = placePointLabelsForFigure(plot, small, again ? &earlier : nullptr);
            for (QCPAbstractItem *item : placed.hidden) {
                m_restore.push_back([item = QPointer<QCPAbstractItem>(item)] {
                    if (item)
                        item->setVisible(true);
                });
            }
            for (QCPAbstractItem *item : placed.placed) {
                m_restore.push_back([plot, item = QPointer<QCPAbstractItem>(item)] {
                    if (item)
                        plot->removeItem(item.data());
                });
            }
            earlier.placed = placed.placed;
        }
    };
    placeNames(false);
    fitRounds(plots, options);
    // The names placed again for the figure's final layout (the rounds moved its legends and axes), then labels
    // off the data (each placed from where it belongs, so the rounds' layouts leave nothing behind); one with no
    // clear place is left out of this figure, and a line it named is named in its plot's legend instead, which
    // is then fitted again with that entry.
    for (int pass = 0;; ++pass) {
        placeNames(true);
        moveLabelsOffData(plots);
        if (pass == 2 || !nameLinesInLegends(plots))
            break;
        fitRounds(plots, options);
    }
}

void ExportGuard::fitRounds(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    const double w = canvasWidth(options);
    const double h = canvasHeight(options);
    const QRectF page(-0.5, -0.5, w + 1, h + 1);
    // Merged legend entries first, each step laid out again, before titles are shortened or ticks thinned
    // for the room it gives; then five rounds of fitting.
    for (int round = 0, merges = 0; round < 5; ++round) {
        const std::vector<TextBox> boxes = layOutText(plots, w, h);
        // Beside the plot where the page's width has room for the legend, every entry named; else merged a step.
        if (merges < 4 && moveLegendsBeside(plots, options, w, h)) {
            --round;
            continue;
        }
        // Closed up before any entry merges: names kept where tighter rows give the room.
        if (merges == 0 && compactLegends(plots, h)) {
            --round;
            continue;
        }
        if (merges < 4 && mergeLegends(plots, options, h)) {
            ++merges;
            --round;
            continue;
        }
        // Merged as far as it goes and still short of room: into a corner of the plot that holds no data; else
        // in more columns, long names shortened in the middle.
        if (round == 0 && moveLegendsInside(plots, options, w, h))
            continue;
        if (spreadLegends(plots, options, w, h)) {
            --round;
            continue;
        }
        std::set<QCPAxis *> crowded;
        std::vector<const TextBox *> corners; // tick labels of a vertical axis that meet another axis's
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const TextBox &a = boxes[i];
            if (a.kind != TextBox::Kind::TickLabel)
                continue;
            if (!page.contains(a.rect) && !makeRoom(a, page))
                crowded.insert(a.axis);
            for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                const TextBox &b = boxes[j];
                if (b.kind != TextBox::Kind::TickLabel)
                    continue;
                if (b.axis == a.axis) {
                    if (tooClose(a.rect, b.rect, a.axis->orientation()))
                        crowded.insert(a.axis);
                    continue;
                }
                const QRectF both = a.rect.intersected(b.rect);
                if (both.width() > 0.5 && both.height() > 0.5)
                    corners.push_back(a.axis->orientation() == Qt::Vertical ? &a : &b);
            }
        }
        bool changed = !m_widened.empty();
        m_widened.clear();
        for (const TextBox *corner : corners) {
            // Two axes' end labels meeting at a corner: the vertical axis's one goes, where its ticks are
            // its own (a numeric ticker places them anew, so fewer ticks there instead).
            QCPAxis *axis = corner->axis;
            const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
            auto fewer = QSharedPointer<QCPAxisTickerText>::create();
            if (const auto text = ticker.dynamicCast<QCPAxisTickerText>()) {
                fewer->setTicks(text->ticks());
                fewer->setSubTickCount(text->subTickCount());
            } else {
                // A numeric ticker: its ticks as laid out now, with their labels, at fixed places (the label of
                // the corner's tick left out; "1e+03" still prints as a power where the axis's format says so).
                const QVector<double> ticks = axis->tickVector();
                const QVector<QString> labels = axis->tickVectorLabels();
                for (int i = 0; i < std::min(ticks.size(), labels.size()); ++i)
                    fewer->addTick(ticks[i], labels[i]);
                fewer->setSubTickCount(0);
            }
            fewer->ticks().remove(corner->key);
            axis->setTicker(fewer);
            m_restore.push_back([axis, ticker] { axis->setTicker(ticker); });
            changed = true;
        }
        for (QCPAxis *axis : crowded) {
            const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
            if (const auto text = ticker.dynamicCast<QCPAxisTickerText>()) {
                // Ticks at fixed places with their own labels: every other one goes.
                if (text->ticks().size() <= 2)
                    continue;
                auto thinned = QSharedPointer<QCPAxisTickerText>::create();
                int i = 0;
                for (auto it = text->ticks().cbegin(); it != text->ticks().cend(); ++it, ++i) {
                    if (i % 2 == 0)
                        thinned->addTick(it.key(), it.value());
                }
                thinned->setSubTickCount(text->subTickCount());
                axis->setTicker(thinned);
                m_restore.push_back([axis, ticker] { axis->setTicker(ticker); });
                changed = true;
                continue;
            }
            if (ticker->tickCount() <= 1)
                continue;
            const int count = ticker->tickCount();
            ticker->setTickCount(count - 1);
            if (!m_tickCounts.contains(ticker.data())) {
                m_tickCounts.insert(ticker.data(), count);
                m_restore.push_back([ticker, count] { ticker->setTickCount(count); });
            }
            changed = true;
        }
        for (const TextBox &box : boxes) {
            if (box.kind != TextBox::Kind::AxisTitle)
                continue;
            QCPAxis *axis = box.axis;
            const QRect r = axis->axisRect()->rect();
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const double room
                    = std::min(horizontal ? double(r.width()) : double(r.height()), horizontal ? w : h) - 4;
            const double length = horizontal ? box.rect.width() : box.rect.height();
            if (length <= room || room <= 0)
                continue;
            // First the axis's short title, if it has one; then a smaller font, down to the figure's
            // smallest (smallestFontPt()); then an ellipsis.
            const QString brief = plot_style::shortLabel(axis);
            if (!brief.isEmpty() && axis->label() != brief) {
                const QString label = axis->label();
                axis->setLabel(brief);
                m_restore.push_back([axis, label] { axis->setLabel(label); });
                changed = true;
                continue;
            }
            const QFont font = axis->labelFont();
            const int pixels = QFontInfo(font).pixelSize();
            const int smallest = canvasPixels(options, 0);
            if (pixels > smallest) {
                QFont smaller = font;
                smaller.setPixelSize(std::max(smallest, int(std::floor(pixels * room / length))));
                axis->setLabelFont(smaller);
                m_restore.push_back([axis, font] { axis->setLabelFont(font); });
                changed = true;
                continue;
            }
            const QString label = axis->label();
            const QString shorter = QFontMetricsF(font).elidedText(label, Qt::ElideRight, room);
            if (shorter == label)
                continue;
            axis->setLabel(shorter);
            m_restore.push_back([axis, label] { axis->setLabel(label); });
            changed = true;
        }
        // A label its axis rect would cut (the figure's fonts are not the screen's) goes to its other side or
        // moves in; one larger than the rect is left out.
        for (const TextBox &box : boxes) {
            if (!box.cut || !box.item)
                continue;
            QCPItemText *item = box.item;
            const Qt::Alignment align = item->positionAlignment();
            const QPointF coords = item->position->coords();
            if (keepLabelInside(item)) {
                // Guarded, as every restore of a label: a figure's kernel names are made and removed again.
                m_restore.push_back([item = QPointer<QCPItemText>(item), align, coords] {
                    if (!item)
                        return;
                    item->setPositionAlignment(align);
                    item->position->setCoords(coords);
                });
            } else {
                item->setVisible(false);
                m_restore.push_back([item = QPointer<QCPItemText>(item)] {
                    if (item)
                        item->setVisible(true);
                });
            }
            changed = true;
        }
        if (shortenLabels(boxes)) {
            changed = true; // laid out again with the short forms before anything is moved or left out
            continue;
        }
        changed = separateLabels(boxes, round) || changed;
        changed = shrinkLegends(plots, boxes, options, w, h) || changed;
        if (!changed)
            break;
    }
    // No legend entry runs past the page's edge or out of its column: a long name is shortened in the middle.
    layOutText(plots, w, h);
    elideLegendEntries(plots, w);
    layOutText(plots, w, h);
}

bool ExportGuard::makeRoom(const TextBox &label, const QRectF &page)
{
    // The axis rect's margin on the side the label leaves by grows by as much: QCustomPlot sizes a margin by
    // the labels of the axis on that side only (not the last label of a bottom axis that ends at the page's
    // right edge), and by its own measure of them.
    QCPAxisRect *rect = label.axis->axisRect();
    const double left = page.left() - label.rect.left();
    const double top = page.top() - label.rect.top();
    const double right = label.rect.right() - page.right();
    const double bottom = label.rect.bottom() - page.bottom();
    const double most = std::max({left, top, right, bottom});
    if (most <= 0)
        return false;
    if (m_widened.count(rect))
        return true; // widened once this round already
    const QMargins old = rect->minimumMargins();
    const QMargins now = rect->margins();
    const int more = int(std::ceil(most)) + 2;
    QMargins wanted = old;
    if (left == most)
        wanted.setLeft(now.left() + more);
    else if (top == most)
        wanted.setTop(now.top() + more);
    else if (right == most)
        wanted.setRight(now.right() + more);
    else
        wanted.setBottom(now.bottom() + more);
    if (wanted == old || now.left() + now.right() + 2 * more > page.width() / 2
        || now.top() + now.bottom() + 2 * more > page.height() / 2)
        return false; // fewer ticks instead
    rect->setMinimumMargins(wanted);
    m_restore.push_back([rect, old] { rect->setMinimumMargins(old); });
    m_widened.insert(rect);
    return true;
}

void ExportGuard::setAxisFonts(QCPAxis *axis, const QFont &label, const QFont &ticks)
{
    const QFont l = axis->labelFont(), t = axis->tickLabelFont();
    axis->setLabelFont(label);
    axis->setTickLabelFont(ticks);
    m_restore.push_back([axis, l, t] {
        axis->setLabelFont(l);
        axis->setTickLabelFont(t);
    });
}

} // namespace crossroof::widgets::figure
