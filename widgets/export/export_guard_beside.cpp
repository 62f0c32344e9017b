// SPDX-License-Identifier: GPL-3.0-or-later
// ExportGuard's legends beside the plot: where a legend below would leave a plot less than kFigurePlotShare
// of its height between the axes and the page is wide enough for it in a few columns, it goes to the plot's
// right, as a journal figure's legend does, and every entry keeps its own name.
#include "export/export_guard.h"

#include "common/icon_legend_item.h"
#include "common/legend_groups.h"
#include "common/plot_style.h"
#include "common/static_text.h"
#include "common/symbol_text.h"
#include "export/figure_units.h"

#include <qcustomplot.h>

#include <QPointer>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace crossroof::widgets::figure {

namespace {

constexpr char kBesideProperty[] = "crossroof_figureLegendBeside";
constexpr char kCompactProperty[] = "crossroof_figureLegendCompact";
constexpr char kSpreadProperty[] = "crossroof_figureLegendSpread";
/// The least of a name an entry shortened in the middle keeps, in average characters of its font: fewer, and
/// the legend merges or stays as it is rather than name its traces by fragments.
constexpr double kLeastKept = 14;
/// The most of the page's width a legend beside its plot may take.
constexpr double kBesideWidth = 0.38;
/// The step, in parts of the plot's height (half as much across), of the places a legend inside the plot is
/// tried at where no corner is clear.
constexpr double kFreeStep = 0.1;
/// The most columns a legend beside its plot is laid out in.
constexpr int kBesideColumns = 3;

/// Where a legend's ROW sits in MAIN, the plot's layout, with MAIN's stretch factors: the row is taken out to
/// move the legend for a figure and put back as it was afterwards.
struct RowPlace
{
    QCPLayoutGrid *main = nullptr;
    QCPLayoutGrid *row = nullptr;
    int rowIndex = 0;
    int column = 0;
    QList<double> rowFactors;
    QList<double> columnFactors;

    /// ROW's place in MAIN, or none where ROW is not one of MAIN's elements.
    static std::optional<RowPlace> of(QCPLayoutGrid *main, QCPLayoutGrid *row)
    {
        for (int k = 0; k < main->elementCount(); ++k) {
            if (main->elementAt(k) != row)
                continue;
            RowPlace place {main, row, 0, 0, main->rowStretchFactors(), main->columnStretchFactors()};
            main->indexToRowCol(k, place.rowIndex, place.column);
            return place;
        }
        return std::nullopt;
    }

    /// ROW back at its place (a row inserted where another took it), with MAIN's stretch factors as they were.
    void putBack() const
    {
        if (main->hasElement(rowIndex, column))
            main->insertRow(rowIndex);
        main->addElement(rowIndex, column, row);
        if (main->rowStretchFactors().size() == rowFactors.size())
            main->setRowStretchFactors(rowFactors);
        if (main->columnStretchFactors().size() == columnFactors.size())
            main->setColumnStretchFactors(columnFactors);
    }
};

/// The row of PLOT's legend, as placeLegendBelow() made it, where that legend stands below the plot and leaves
/// less than kFigurePlotShare of HEIGHT (the plot's part of the page) between the axes; else none.
QCPLayoutGrid *crampingLegendRow(QCustomPlot *plot, double height)
{
    const QCPLegend *legend = plot->legend;
    if (legendBeside(plot) || !legend_groups::hasLegendBelow(plot) || legend->itemCount() == 0
        || legend_groups::axesHeight(plot).inner >= kFigurePlotShare * height)
        return nullptr;
    auto *row = qobject_cast<QCPLayoutGrid *>(legend->layout());
    return row && row->layout() == plot->plotLayout() ? row : nullptr;
}

/// LEGEND's size laid out in COLUMNS columns, filled row by row (as legendColumns() counts them).
QSize legendSize(const QCPLegend *legend, int columns)
{
    std::vector<QSize> sizes;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem *item = legend->item(i)) // cells of a wrapped grid can be empty
            sizes.push_back(plot_style::legendEntrySize(item));
    }
    const int count = int(sizes.size());
    if (count == 0)
        return {};
    const int rows = (count + columns - 1) / columns;
    int width = -legend->columnSpacing();
    for (int column = 0; column < columns; ++column) {
        int widest = 0;
        for (int i = column; i < count; i += columns)
            widest = std::max(widest, sizes[std::size_t(i)].width());
        width += widest + legend->columnSpacing();
    }
    int height = -legend->rowSpacing();
    for (int row = 0; row < rows; ++row) {
        int tallest = 0;
        for (int i = row * columns; i < std::min(count, (row + 1) * columns); ++i)
            tallest = std::max(tallest, sizes[std::size_t(i)].height());
        height += tallest + legend->rowSpacing();
    }
    const QMargins m = legend->margins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

/// The text ITEM draws beside its icon (markup for a plottable's name); none for an entry of another kind.
std::optional<QString> entryText(QCPAbstractLegendItem *item)
{
    if (auto *own = qobject_cast<QCPPlottableLegendItem *>(item); own && own->plottable())
        return own->plottable()->name();
    if (auto *merged = qobject_cast<legend_groups::GroupLegendItem *>(item))
        return merged->text();
    if (auto *icon = qobject_cast<IconLegendItem *>(item))
        return icon->text();
    return std::nullopt;
}

void setEntryText(QCPAbstractLegendItem *item, const QString &text)
{
    if (auto *own = qobject_cast<QCPPlottableLegendItem *>(item); own && own->plottable())
        own->plottable()->setName(text);
    else if (auto *merged = qobject_cast<legend_groups::GroupLegendItem *>(item))
        merged->setText(text);
    else if (auto *icon = qobject_cast<IconLegendItem *>(item))
        icon->setText(text);
}

/// TEXT (ITEM's, markup) shortened in the middle so that ITEM is at most ROOM wide, as markup again; TEXT where
/// it fits. A name with subscripts (a model's symbols, never cut) gives up its list of symbols after ": " and
/// keeps its head ("model: L_s, L_2, L" becomes "model") where the head fits; else none, as where a name would
/// keep less than kLeastKept.
std::optional<QString> elided(QCPAbstractLegendItem *item, const QString &text, double room)
{
    const QFont font = item->font();
    const double width = plot_style::legendEntrySize(item).width();
    if (width <= room)
        return text;
    const QFontMetricsF metrics(font);
    QString plain;
    for (const symbol_text::Run &run : symbol_text::runs(text)) {
        if (run.subscript) {
            const qsizetype colon = text.indexOf(QLatin1String(": "));
            const QString head = text.left(std::max<qsizetype>(colon, 0));
            if (colon <= 0 || symbol_text::hasMarkup(head)
                || width - metrics.horizontalAdvance(symbol_text::plain(text)) + metrics.horizontalAdvance(head) > room)
                return std::nullopt;
            return head;
        }
        plain += run.text;
    }
    const double textRoom = metrics.horizontalAdvance(plain) - (width - room) - 1;
    if (textRoom < kLeastKept * metrics.averageCharWidth())
        return std::nullopt;
    return symbol_text::literal(shortenedEntryName(plain, metrics, textRoom,
                                                   qobject_cast<legend_groups::GroupLegendItem *>(item) != nullptr));
}

/// The non-empty entries of LEGEND, in its order.
std::vector<QCPAbstractLegendItem *> entries(const QCPLegend *legend)
{
    std::vector<QCPAbstractLegendItem *> out;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i))
            out.push_back(item);
    }
    return out;
}

/// The widths ITEMS' COLUMNS (filled row by row) may take across WIDTH in LEGEND: each its widest entry's where
/// they all fit, else the widest columns narrowed alike until they do (a column of short entries keeps its width,
/// one of long names gives up the rest).
std::vector<double> columnRooms(const QCPLegend *legend, const std::vector<QCPAbstractLegendItem *> &items,
                                double width, int columns)
{
    std::vector<double> rooms(std::size_t(columns), 0.0);
    for (std::size_t i = 0; i < items.size(); ++i) {
        double &room = rooms[i % std::size_t(columns)];
        room = std::max(room, double(plot_style::legendEntrySize(items[i]).width()));
    }
    const QMargins m = legend->margins();
    const double across = width - m.left() - m.right() - (columns - 1) * legend->columnSpacing();
    // The widest columns come down to the next widest, and so on, until the columns fit.
    for (int step = 0; step < columns; ++step) {
        double total = 0;
        for (const double r : rooms)
            total += r;
        if (total <= across)
            break;
        const double widest = *std::max_element(rooms.begin(), rooms.end());
        double next = 0;
        int wide = 0;
        for (const double r : rooms) {
            if (r >= widest)
                ++wide;
            else
                next = std::max(next, r);
        }
        const double to = std::max(next, widest - (total - across) / wide);
        for (double &r : rooms)
            r = std::min(r, to);
    }
    return rooms;
}

} // namespace

int mostMerging(const FigureOptions &options)
{
    // Wider than a single column (85 mm) by half: a double column (175 mm) or a slide (254 mm).
    return options.width_mm >= 1.5 * 85 ? 1 : 3;
}

bool ExportGuard::elideEntry(QCPAbstractLegendItem *item, double room)
{
    const std::optional<QString> text = entryText(item);
    if (!text)
        return false;
    const std::optional<QString> shorter = elided(item, *text, room);
    if (!shorter || *shorter == *text)
        return false;
    setEntryText(item, *shorter);
    m_restore.push_back([item = QPointer<QCPAbstractLegendItem>(item), full = *text] {
        if (item)
            setEntryText(item, full);
    });
    return true;
}

void ExportGuard::elideLegendEntries(const QList<QCustomPlot *> &plots, double pageWidth)
{
    for (QCustomPlot *plot : plots) {
        QCPLegend *legend = plot->legend;
        if (!legend->visible() || legend->itemCount() == 0)
            continue;
        // Below the plot: the page's width (less the figure's edges) shared by its columns; beside it: its
        // share of the page's width, as moveLegendsBeside() gave it.
        const double width = legendBeside(plot) ? kBesideWidth * pageWidth : pageWidth - 16;
        const std::vector<QCPAbstractLegendItem *> items = entries(legend);
        const int columns = std::max(1, std::min(legend->columnCount(), int(items.size())));
        const std::vector<double> rooms = columnRooms(legend, items, width, columns);
        for (std::size_t k = 0; k < items.size(); ++k)
            elideEntry(items[k], rooms[k % rooms.size()]);
    }
}

bool ExportGuard::spreadLegends(const QList<QCustomPlot *> &plots, const FigureOptions &options,
                                double pageWidth, double pageHeight)
{
    Q_UNUSED(options);
    bool changed = false;
    const std::vector<PlotBand> bands = stackPlots(plots, pageHeight);
    for (int i = 0; i < int(plots.size()); ++i) {
        QCustomPlot *plot = plots[i];
        QCPLegend *legend = plot->legend;
        const double each = bands[std::size_t(i)].height;
        if (plot->property(kSpreadProperty).toBool() || !crampingLegendRow(plot, each))
            continue;
        plot->setProperty(kSpreadProperty, 1); // tried once
        m_restore.push_back([plot] { plot->setProperty(kSpreadProperty, QVariant()); });
        const std::vector<QCPAbstractLegendItem *> items = entries(legend);
        const int now = std::max(1, legend->columnCount());
        // The height the legend must give up for the plot's share, and the fewest columns that give it.
        const double wanted = legend->outerRect().height() - (kFigurePlotShare * each - legend_groups::axesHeight(plot).inner);
        int best = 0;
        for (int columns = now + 1; columns <= std::min(kBesideColumns, int(items.size())); ++columns) {
            const std::vector<double> rooms = columnRooms(legend, items, pageWidth - 16, columns);
            bool readable = true;
            for (std::size_t k = 0; k < items.size(); ++k) {
                const std::optional<QString> text = entryText(items[k]);
                readable = readable && (!text || elided(items[k], *text, rooms[k % rooms.size()]));
            }
            if (!readable)
                break;
            best = columns;
            std::vector<std::pair<QCPAbstractLegendItem *, QString>> full;
            for (std::size_t k = 0; k < items.size(); ++k) {
                if (const std::optional<QString> text = entryText(items[k])) {
                    full.emplace_back(items[k], *text);
                    setEntryText(items[k], *elided(items[k], *text, rooms[k % rooms.size()]));
                }
            }
            const double height = legendSize(legend, columns).height();
            for (const auto &[item, text] : full)
                setEntryText(item, text);
            if (height <= wanted)
                break;
        }
        if (best == 0)
            continue;
        const int wrap = legend->wrap();
        const std::vector<double> rooms = columnRooms(legend, items, pageWidth - 16, best);
        for (std::size_t k = 0; k < items.size(); ++k)
            elideEntry(items[k], rooms[k % rooms.size()]);
        legend->setWrap(best);
        legend->setFillOrder(legend->fillOrder(), true);
        plot->setProperty(kSpreadProperty, best); // in these columns, whatever fitLegendColumns() would choose
        m_restore.push_back([legend, wrap] {
            legend->setWrap(wrap);
            legend->setFillOrder(legend->fillOrder(), true);
        });
        changed = true;
    }
    return changed;
}

bool legendBeside(const QCustomPlot *plot)
{
    return plot->property(kBesideProperty).toBool();
}

bool legendSpread(const QCustomPlot *plot)
{
    return plot->property(kSpreadProperty).toInt() > 1;
}

void ExportGuard::closeUpEntries(QCPLegend *legend)
{
    const QSize icon = legend->iconSize();
    const int line = int(std::ceil(QFontMetricsF(legend->item(0) ? legend->item(0)->font() : legend->font()).height()));
    // Icons no taller than a line of text (which takes whole rows out of a legend in one column) nor wider
    // than two, and entries close at their sides: the plot keeps the more of the page's width.
    if (icon.height() > line + 2 || icon.width() > 2 * line) {
        legend->setIconSize(std::min(icon.width(), 2 * line), std::min(icon.height(), line + 2));
        m_restore.push_back([legend, icon] { legend->setIconSize(icon); });
    }
    for (int k = 0; k < legend->itemCount(); ++k) {
        if (QCPAbstractLegendItem *item = legend->item(k); item && item->margins().left() > 3) {
            const QMargins m = item->margins();
            item->setMargins(QMargins(3, m.top(), 3, m.bottom()));
            m_restore.push_back([item = QPointer<QCPAbstractLegendItem>(item), m] {
                if (item)
                    item->setMargins(m);
            });
        }
    }
}

bool ExportGuard::moveLegendsBeside(const QList<QCustomPlot *> &plots, const FigureOptions &options,
                                    double pageWidth, double pageHeight)
{
    bool changed = false;
    const std::vector<PlotBand> bands = stackPlots(plots, pageHeight); // as layOutText() does
    for (int i = 0; i < int(plots.size()); ++i) {
        QCustomPlot *plot = plots[i];
        QCPLegend *legend = plot->legend;
        const double each = bands[std::size_t(i)].height;
        QCPLayoutGrid *row = crampingLegendRow(plot, each);
        if (!row)
            continue;
        QCPLayoutGrid *main = plot->plotLayout();
        closeUpEntries(legend);
        // The fewest columns in which it is no taller than the plot, if the page's width has room for them.
        int columns = 0;
        for (int c = 1; c <= kBesideColumns; ++c) {
            const QSize size = legendSize(legend, c);
            if (size.width() > kBesideWidth * pageWidth)
                break;
            if (size.height() <= each - 8) {
                columns = c;
                break;
            }
        }
        if (columns == 0)
            continue; // merged a step further instead (mergeLegends())
        const std::optional<RowPlace> place = RowPlace::of(main, row);
        if (!place)
            continue;
        const QList<double> innerFactors = row->rowStretchFactors();
        const QMargins margins = row->margins();
        const int wrap = legend->wrap();
        main->take(row);
        main->simplify(); // the legend's empty row goes
        const int column = main->columnCount();
        main->addElement(0, column, row);
        main->setColumnStretchFactor(column, 0.001); // as wide as the legend, the axis rect takes the rest
        // At the top of its column, beside the plot's top, a gap of a tick label's padding from the right axis.
        auto *spacer = new QCPLayoutElement(plot);
        row->addElement(1, 0, spacer);
        row->setRowStretchFactor(0, 0.001);
        row->setMargins(QMargins(int(std::lround(2 / options.line_pt)), 0, 0, 0));
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true);
        plot->setProperty(kBesideProperty, true);
        m_restore.push_back([plot, place = *place, legend, spacer, innerFactors, margins, wrap] {
            plot->setProperty(kBesideProperty, QVariant());
            place.row->remove(spacer);
            place.row->simplify();
            place.row->setRowStretchFactors(innerFactors);
            place.row->setMargins(margins);
            place.main->take(place.row);
            place.main->simplify();
            place.putBack();
            legend->setWrap(wrap);
            legend->setFillOrder(legend->fillOrder(), true);
        });
        changed = true;
    }
    return changed;
}

bool ExportGuard::compactLegends(const QList<QCustomPlot *> &plots, double pageHeight)
{
    bool changed = false;
    const std::vector<PlotBand> bands = stackPlots(plots, pageHeight);
    for (int i = 0; i < int(plots.size()); ++i) {
        QCustomPlot *plot = plots[i];
        QCPLegend *legend = plot->legend;
        if (legendBeside(plot) || !legend_groups::hasLegendBelow(plot) || legend->itemCount() == 0
            || plot->property(kCompactProperty).toBool()
            || legend_groups::axesHeight(plot).inner >= kFigurePlotShare * bands[std::size_t(i)].height)
            continue;
        // Rows as tall as their text: icons a line tall, entries, rows and the legend's own edges close.
        const QSize icon = legend->iconSize();
        const QMargins margins = legend->margins();
        const int rowSpacing = legend->rowSpacing();
        const QFont font = legend->item(0) ? legend->item(0)->font() : legend->font();
        const int line = int(std::ceil(QFontMetricsF(font).height()));
        legend->setIconSize(std::min(icon.width(), 2 * line), std::min(icon.height(), line + 1));
        legend->setMargins(QMargins(margins.left(), 1, margins.right(), 0));
        legend->setRowSpacing(0);
        std::vector<std::pair<QPointer<QCPAbstractLegendItem>, QMargins>> entries;
        for (int k = 0; k < legend->itemCount(); ++k) {
            if (QCPAbstractLegendItem *item = legend->item(k)) {
                entries.emplace_back(item, item->margins());
                item->setMargins(QMargins(item->margins().left(), 1, item->margins().right(), 1));
            }
        }
        QCPLayoutGrid *row = qobject_cast<QCPLayoutGrid *>(legend->layout());
        const QMargins rowMargins = row ? row->margins() : QMargins();
        if (row)
            row->setMargins(QMargins());
        // No room between the plot's rows nor round its axes' outer edges either.
        QCPLayoutGrid *main = plot->plotLayout();
        const int mainSpacing = main->rowSpacing();
        main->setRowSpacing(0);
        for (QCPAxisRect *rect : plot->axisRects()) {
            for (QCPAxis *axis : rect->axes()) {
                const int padding = axis->padding();
                axis->setPadding(std::min(padding, 1));
                m_restore.push_back([axis, padding] { axis->setPadding(padding); });
            }
        }
        plot->setProperty(kCompactProperty, true);
        m_restore.push_back([plot, main, mainSpacing, legend, icon, margins, rowSpacing, entries, row, rowMargins] {
            main->setRowSpacing(mainSpacing);
            plot->setProperty(kCompactProperty, QVariant());
            legend->setIconSize(icon);
            legend->setMargins(margins);
            legend->setRowSpacing(rowSpacing);
            for (const auto &[item, m] : entries) {
                if (item)
                    item->setMargins(m);
            }
            if (row)
                row->setMargins(rowMargins);
        });
        changed = true;
    }
    return changed;
}

bool ExportGuard::moveLegendsInside(const QList<QCustomPlot *> &plots, const FigureOptions &options,
                                    double pageWidth, double pageHeight)
{
    Q_UNUSED(options);
    bool changed = false;
    for (int i = 0; i < int(plots.size()); ++i) {
        QCustomPlot *plot = plots[i];
        QCPLegend *legend = plot->legend;
        QCPLayoutGrid *row = crampingLegendRow(plot, stackPlots(plots, pageHeight)[std::size_t(i)].height);
        if (!row)
            continue;
        QCPLayoutGrid *main = plot->plotLayout();
        const std::optional<RowPlace> place = RowPlace::of(main, row);
        if (!place)
            continue;
        const int wrap = legend->wrap();
        const QBrush brush = legend->brush();
        // Out of its row, which goes; the plot's axis rect takes the whole height.
        row->take(legend);
        main->take(row);
        main->simplify();
        QCPLayoutInset *inset = plot->axisRect()->insetLayout();
        inset->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        const int index = inset->elementCount() - 1;
        legend->setBrush(plot_style::paper(plot));
        const auto restore = [place = *place, legend, inset, wrap, brush] {
            inset->take(legend);
            place.row->addElement(0, 0, legend);
            place.putBack();
            legend->setBrush(brush);
            legend->setWrap(wrap);
            legend->setFillOrder(legend->fillOrder(), true);
        };
        // Whether the legend, as placed now, lies inside the plot clear of every curve, marker and label.
        const auto clearOfData = [&] {
            std::vector<DataShape> data;
            const std::vector<TextBox> boxes = layOutText(plots, pageWidth, pageHeight, &data);
            const double top = stackPlots(plots, pageHeight)[std::size_t(i)].top;
            const QRectF box = QRectF(legend->outerRect()).translated(0, top);
            const QRectF rect = QRectF(plot->axisRect()->rect()).translated(0, top);
            bool clear = rect.contains(box) && box.width() <= 0.8 * rect.width() && box.height() <= 0.5 * rect.height();
            // The curves and markers stay in view; a guide line across the plot (a level's latency) may pass
            // behind the legend, as behind a journal figure's.
            for (std::size_t d = 0; clear && d < data.size(); ++d)
                clear = data[d].name == guideLineName() || !crosses(box, data[d]);
            for (const TextBox &text : boxes) {
                if (!clear)
                    break;
                if (text.kind == TextBox::Kind::LegendEntry)
                    continue;
                const QRectF both = text.rect.intersected(box);
                clear = !(both.width() > 0.5 && both.height() > 0.5);
            }
            return clear;
        };
        // A corner of the plot where the legend, in the fewest columns that fit, covers no curve, marker or label.
        const auto inACorner = [&] {
            inset->setInsetPlacement(index, QCPLayoutInset::ipBorderAligned);
            for (int columns = 1; columns <= kBesideColumns; ++columns) {
                legend->setWrap(columns);
                legend->setFillOrder(legend->fillOrder(), true);
                for (const Qt::Alignment corner : {Qt::AlignTop | Qt::AlignRight, Qt::AlignTop | Qt::AlignLeft,
                                                   Qt::AlignBottom | Qt::AlignRight, Qt::AlignBottom | Qt::AlignLeft}) {
                    inset->setInsetAlignment(index, corner);
                    if (clearOfData())
                        return true;
                }
            }
            return false;
        };
        // Else, in one column, any clear place in the plot (between a step's two levels, under a plateau), row by
        // row from the top, left to right.
        const auto inAClearPlace = [&] {
            legend->setWrap(1);
            legend->setFillOrder(legend->fillOrder(), true);
            inset->setInsetPlacement(index, QCPLayoutInset::ipBorderAligned);
            inset->setInsetAlignment(index, Qt::AlignTop | Qt::AlignLeft);
            closeUpEntries(legend);
            layOutText(plots, pageWidth, pageHeight);
            const QRectF rect = plot->axisRect()->rect();
            const QSizeF size = legend->outerRect().size();
            const double w = size.width() / std::max(1.0, rect.width());
            const double h = size.height() / std::max(1.0, rect.height());
            inset->setInsetPlacement(index, QCPLayoutInset::ipFree);
            for (double y = 0.02; y + h <= 0.98; y += kFreeStep) {
                for (double x = 0.01; x + w <= 0.99; x += kFreeStep / 2) {
                    inset->setInsetRect(index, QRectF(x, y, w, h));
                    if (clearOfData())
                        return true;
                }
            }
            return false;
        };
        bool placed = inACorner() || inAClearPlace();
        // Else with its models' lists of symbols given up for their names ("model: L_s, L_2, L" as "model") where
        // an entry is wider than half the plot, in a corner or a clear place; where none is clear, as they were.
        // Other names stay whole: below the plot, spreadLegends() shortens them less.
        if (!placed) {
            std::vector<std::pair<QCPAbstractLegendItem *, QString>> full;
            for (QCPAbstractLegendItem *item : entries(legend)) {
                const std::optional<QString> text = entryText(item);
                const std::optional<QString> shorter = text && symbol_text::hasMarkup(*text)
                                                               ? elided(item, *text, 0.5 * plot->axisRect()->width())
                                                               : std::nullopt;
                if (shorter && *shorter != *text) {
                    full.emplace_back(item, *text);
                    setEntryText(item, *shorter);
                }
            }
            placed = !full.empty() && (inACorner() || inAClearPlace());
            for (const auto &entry : full) {
                if (!placed)
                    setEntryText(entry.first, entry.second);
                else
                    m_restore.push_back([item = QPointer<QCPAbstractLegendItem>(entry.first), text = entry.second] {
                        if (item)
                            setEntryText(item, text);
                    });
            }
        }
        if (!placed) {
            restore();
            continue;
        }
        m_restore.push_back(restore);
        changed = true;
    }
    return changed;
}

} // namespace crossroof::widgets::figure
