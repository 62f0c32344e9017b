// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/figure_export.h"
#include "export/figure_text.h"

#include <QFont>
#include <QHash>
#include <QList>

#include <functional>
#include <set>
#include <vector>

class QCPAbstractLegendItem;
class QCPAxis;
class QCPLegend;
class QCPAxisRect;
class QCPAxisTicker;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace crossroof::widgets::figure {

/// The figure's body text: OPTIONS' family (or the application font's), named as the font it resolves to,
/// at font_pt in canvas units.
QFont figureFont(const FigureOptions &options);

/// Whether the figure being drawn has PLOT's legend beside the plot rather than below it.
bool legendBeside(const QCustomPlot *plot);
/// Whether the figure being drawn has PLOT's legend below it in the columns spreadLegends() chose for it.
bool legendSpread(const QCustomPlot *plot);

/// The most merging (legend_groups::level()) a figure at OPTIONS gives its legends: a double column's or a
/// slide's page names every trace (1: an entry per file, "gpu_stream_v100.txt: init, read, …", its members'
/// own markers side by side), a single column's may count them ("6 traces").
int mostMerging(const FigureOptions &options);

/// Changes the plots for export and puts everything back when it goes out of scope: fonts, greyscale
/// pens, and data clipped to the axis rectangles. One layout for every format: PDF, SVG and PNG (and the
/// layout checks) all draw what one guard made of the plots, so a label one format keeps, every format keeps.
class ExportGuard
{
public:
    ExportGuard(const QList<QCustomPlot *> &plots, const FigureOptions &options);
    ~ExportGuard();
    ExportGuard(const ExportGuard &) = delete;
    ExportGuard &operator=(const ExportGuard &) = delete;

private:
    /// As many legend columns as the figure's width holds at its font (up to four), so that a legend of short
    /// entries stays one or two rows instead of the screen's arrangement.
    void fitLegendColumns(QCustomPlot *plot, const FigureOptions &options);
    /// The figure's page is not the screen's: where tick labels collide or leave the page their axis gets
    /// fewer ticks, and an axis title longer than its axis is cut short with an ellipsis (the plot data CSV
    /// keeps the whole name). A few rounds of laying out, measuring and changing.
    void fitText(const QList<QCustomPlot *> &plots, const FigureOptions &options);
    /// fitText()'s rounds: legends beside, closed up, merged or inside, ticks thinned, titles and labels
    /// shortened, moved or left out, until the figure's text fits its page; then laid out once more.
    void fitRounds(const QList<QCustomPlot *> &plots, const FigureOptions &options);
    /// Legends that take more than a quarter of the page, or leave a plot cramped, get a smaller font, down to
    /// the figure's smallest (smallestFontPt()), then smaller icons, and as many columns as then fit.
    bool shrinkLegends(const QList<QCustomPlot *> &plots, const std::vector<TextBox> &boxes,
                       const FigureOptions &options, double pageWidth, double pageHeight);
    /// A cramped plot (less than legend_groups::kPlotShare of its part of the page, PAGE_HEIGHT shared among
    /// the plots, with its axes, or kDataShare between them) merges its legend's measured series one step
    /// further. Whether one did.
    bool mergeLegends(const QList<QCustomPlot *> &plots, const FigureOptions &options, double pageHeight);
    /// A legend below a plot that keeps less than kFigurePlotShare of its part of the page between its axes
    /// goes beside the plot, on its right, in the fewest columns (up to three) that are no taller than the plot,
    /// where the page's width has room for them. Whether one did.
    bool moveLegendsBeside(const QList<QCustomPlot *> &plots, const FigureOptions &options, double pageWidth,
                           double pageHeight);
    /// A legend still below a plot that keeps less than kFigurePlotShare between its axes, merged as far as the
    /// figure allows (mostMerging()), is laid out in more columns (up to three), each entry too long for its
    /// column shortened in the middle ("H100 SXM cache thr…_per_warp = 16384))"): every trace keeps an entry and
    /// its name's start and end, the plot data's CSV the whole name. Whether one did.
    bool spreadLegends(const QList<QCustomPlot *> &plots, const FigureOptions &options, double pageWidth,
                       double pageHeight);
    /// Every legend entry wider than its room on the page (the page's width below the plot, its column beside
    /// it) is shortened in the middle to fit: an entry is never cut by the page's edge.
    void elideLegendEntries(const QList<QCustomPlot *> &plots, double pageWidth);
    /// Shortens ITEM's text in the middle so that the entry is at most ROOM wide; whether it did.
    bool elideEntry(QCPAbstractLegendItem *item, double room);
    /// LEGEND's icons no taller than a line of its text nor wider than two, its entries close at their sides.
    void closeUpEntries(QCPLegend *legend);
    /// A legend still below a plot that keeps less than kFigurePlotShare between its axes once merged closes up:
    /// rows as tall as their text (icons a line tall, entries and the legend's edges close). Whether one did.
    bool compactLegends(const QList<QCustomPlot *> &plots, double pageHeight);
    /// A legend still below a plot that keeps less than kFigurePlotShare between its axes once merged goes into
    /// a corner of the plot where it covers no curve, marker or label, if one has room. Whether one did.
    bool moveLegendsInside(const QList<QCustomPlot *> &plots, const FigureOptions &options, double pageWidth,
                           double pageHeight);
    /// Labels in the plot (landmarks, node names) that overlap: the later one moves off the earlier, up or
    /// down, in the first rounds; if they still meet in the last, it is left out of this figure.
    bool separateLabels(const std::vector<TextBox> &boxes, int round);
    /// Where labels with short forms (plot_style::setShortText()) meet or are cut, every such label of that plot
    /// takes its short form and the axis its title for them. Whether any did.
    bool shortenLabels(const std::vector<TextBox> &boxes);
    /// Labels in the plot whose glyphs cross a curve or cover a marker, or meet another label, move to the nearest
    /// clear place their freedom allows (placeOffData()); one with none is left out of this figure.
    void moveLabelsOffData(const QList<QCustomPlot *> &plots);
    /// For each label of PLOTS left out of the figure that names a line the figure draws (setNamedLine()), an
    /// entry in its plot's legend: the line's pen and the label's text. Whether any was added.
    bool nameLinesInLegends(const QList<QCustomPlot *> &plots);
    /// A tick label that leaves the page (the last one of a bottom axis that ends at the page's edge): its
    /// axis rect gets that much more margin on that side. False where margins would take half the plot.
    bool makeRoom(const TextBox &label, const QRectF &page);
    void setAxisFonts(QCPAxis *axis, const QFont &label, const QFont &ticks);
    void makeGreyscale(QCustomPlot *plot);
    /// A series of more than kDenseMarkers markers in view (a kernel family's 312 stars) is drawn with markers
    /// and outlines kDenseMarkerScale of the screen's: at the screen's size they cover each other and the curves
    /// in a figure's few square centimetres.
    void shrinkDenseMarkers(QCustomPlot *plot);
    static constexpr int kDenseMarkers = 100;
    static constexpr double kDenseMarkerScale = 0.6;

    std::vector<std::function<void()>> m_restore;
    std::set<const QCPItemStraightLine *> m_namedLines; ///< lines named in a legend (nameLinesInLegends())
    QHash<QCPAxisTicker *, int> m_tickCounts; ///< the tickers whose tick count fitText() changed
    std::set<QCPAxisRect *> m_widened; ///< the axis rects makeRoom() widened in this round
};

} // namespace crossroof::widgets::figure
