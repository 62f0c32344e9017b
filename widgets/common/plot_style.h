// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QPainterPath>
#include <QPointF>
#include <QSize>

#include <optional>

class QCPAbstractLegendItem;
class QCPAxis;
class QCPItemText;
class QCPLegend;
class QCPPainter;
class QCustomPlot;
class QPalette;

/// The look every Crossroof plot shares: the Okabe-Ito colour-blind-safe palette, fonts, grid, legend.
namespace crossroof::widgets::plot_style {

inline const QColor kBlack{0, 0, 0};
inline const QColor kOrange{0xE6, 0x9F, 0x00};
inline const QColor kSky{0x56, 0xB4, 0xE9};
inline const QColor kGreen{0x00, 0x9E, 0x73};
inline const QColor kYellow{0xF0, 0xE4, 0x42};
inline const QColor kBlue{0x00, 0x72, 0xB2};
inline const QColor kVermillion{0xD5, 0x5E, 0x00};
inline const QColor kPurple{0xCC, 0x79, 0xA7};
inline const QColor kGrey{0x66, 0x66, 0x66};

QFont annotationFont();
/// Fonts, tick and grid pens for all four axes of the plot's main axis rect; the plot follows the palette
/// (followPalette()).
void setupAxes(QCustomPlot *plot);
/// Whether PALETTE is a dark one: light text on a dark window.
bool isDark(const QPalette &palette);
/// Makes PLOT follow the application's palette, now and whenever it changes. In a light palette a plot is drawn
/// black on white as designed. In a dark one its background is the palette's base colour, and every pure black
/// (or white) pen, brush and text of its axes, grid, legend, plottables and items takes the palette's text (or
/// base) colour, alpha kept: the black curves, markers and labels would vanish on a dark background. The
/// palette's colours are applied again before each replot, so pens that a view sets as it updates follow too.
/// The coloured series (the Okabe-Ito palette) keep their colours, which read on both.
void followPalette(QCustomPlot *plot);
/// While LIGHT is true PLOT is drawn black on white whatever the palette (a figure for print); after, as the
/// palette asks again.
void forceLight(QCustomPlot *plot, bool light);
/// The background PLOT is drawn on now (white, or the dark palette's base colour).
QColor paper(const QCustomPlot *plot);
/// TINT (with its alpha) laid over PLOT's background, as an opaque colour: large shaded areas drawn opaque
/// cost the raster engine a fraction of a translucent fill. Follows the palette when asked again; grey while
/// PLOT is drawn in greyscale (setGreyscale()).
QColor tintOnPaper(const QCustomPlot *plot, const QColor &tint);
/// While GREY is true PLOT is drawn for a greyscale figure: what its views shade with tintOnPaper() (basins,
/// bands) comes out grey, as the export makes every other colour of the plot.
void setGreyscale(QCustomPlot *plot, bool grey);
bool isGreyscale(const QCustomPlot *plot);
/// C as a grey of the same lightness (Qt's qGray()), alpha kept.
QColor toGrey(const QColor &c);
/// A logarithmic axis with ticks and labels at the decades (1, 10, 100; minor ticks between), at 1, 2 and 5 times
/// them where the range spans less than two decades (no minor ticks), or a linear one
/// with the usual ticker: the scale and its ticker always change together.
void setLogScale(QCPAxis *axis, bool log);
/// Whether PAINTER draws on a screen's pixels as they are: not into a vector figure (PDF, SVG) nor scaled. What
/// is drawn on every replot may then be stamped from a cache (text laid out once, images of shapes).
bool drawsPixelsAsTheyAre(const QCPPainter *painter);
/// ITEM's minimumOuterSizeHint(), measured again only when what it depends on changed (its name, font and
/// margins, its legend's icon size and padding): a legend entry's size is asked for on every replot.
QSize legendEntrySize(const QCPAbstractLegendItem *item);
/// How many columns (1 to MOST) of LEGEND's entries fit side by side in WIDTH; 0 when it has no entries.
int legendColumns(const QCPLegend *legend, double width, int most);
/// Moves the legend into its own row under the axis rect, laid out horizontally.
void placeLegendBelow(QCustomPlot *plot);
/// A shorter title for AXIS (a symbol and its unit, "occ. %"), shown instead of the full one wherever that does
/// not fit along the axis: on screen (checked before each replot) and in a figure (see exportFigure).
/// shortLabel() gives it, or an empty string when there is none; fullLabel() the full title, whichever of the
/// two the axis shows. setLabel() on the axis sets a new full title.
void setShortLabel(QCPAxis *axis, const QString &label);
/// How much of a figure's height PLOT takes beside the other plots of its view, stacked: SHARE against their
/// 1 each (the Code Skeleton's schedule of many lanes takes more).
void setFigureShare(QCustomPlot *plot, double share);
/// PLOT's share of its figure's height (setFigureShare()); 1 unless its view set one.
double figureShare(const QCustomPlot *plot);
QString shortLabel(const QCPAxis *axis);
QString fullLabel(const QCPAxis *axis);
/// A label whose place is its meaning (a contour's value on its line): a figure short of room leaves it out
/// rather than moving it off that place, where it would name something else.
void setPinnedLabel(QCPItemText *label);
bool isPinnedLabel(const QCPItemText *label);
/// A label's short form (a graph node's line number for its statement): a figure whose labels would run into
/// each other prints every label of the plot that has one in its short form, and AXIS's title, where
/// setShortLabelsTitle() gave one, says what the short forms are.
void setShortText(QCPItemText *label, const QString &text);
QString shortText(const QCPItemText *label);
/// Where a label goes in its short form (its position's coordinates), where not where it is: a short label
/// needs no room its long form needed.
void setShortPosition(QCPItemText *label, const QPointF &coords);
std::optional<QPointF> shortPosition(const QCPItemText *label);
void setShortLabelsTitle(QCPAxis *axis, const QString &title);
QString shortLabelsTitle(const QCPAxis *axis);
/// A five-pointed star, the marker of measured kernels (the X-model paper, Fig. 11). QCustomPlot scales
/// custom paths by size/6, so the star spans 6 units to come out as large as the size asks.
QPainterPath starPath();

} // namespace crossroof::widgets::plot_style
