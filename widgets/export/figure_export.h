// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class QCustomPlot;

namespace crossroof::widgets {

enum class FigureFormat { Pdf, Svg, Png };
/// Colour: the views' colour-blind-safe palette. Greyscale: black and greys told apart by dash pattern and
/// marker, and every fill (bands, shaded basins and ranges, colour maps, boxes) grey, so the figure survives
/// a black-and-white printer.
enum class FigureStyle { Colour, Greyscale };

/// A figure for a paper: exact physical size, fonts in points, resolution for raster output.
struct FigureOptions
{
    double width_mm = 85;
    double height_mm = 60;
    int dpi = 300;           ///< PNG only
    QString font_family;     ///< empty: the application font's family
    int font_pt = 8;
    /// The least size any text may have, also where space is short (legends, long axis titles, tick labels a
    /// point smaller than font_pt); text shrinks to no less than three quarters of font_pt either, nor ever
    /// grows beyond font_pt for it.
    int min_font_pt = 7;
    /// Points on paper per pixel of the screen: the width of a one-pixel line. Pens, markers, tick lengths and
    /// paddings all scale with it, so a slide gets the heavier lines its larger text needs.
    double line_pt = 0.5;
    FigureStyle style = FigureStyle::Colour;
};

/// A named figure size with the text and line sizes that suit it. The one table of presets: the Export dialog
/// and crossroof-cli render --preset both use it.
struct FigurePreset
{
    QString id;   ///< as --preset takes it: single, double, slide
    QString name; ///< as the dialog shows it
    double width_mm;
    double height_mm;
    int font_pt;
    int min_font_pt;
    double line_pt;
};

/// Journal and slide sizes: single column 85 mm (8 pt text, never below 7), double column 175 mm (9 pt),
/// slide 16:9 254 mm (18 pt text, never below 16, lines twice as heavy as a column's).
QList<FigurePreset> figurePresets();
/// The preset called ID, or nothing.
std::optional<FigurePreset> figurePreset(const QString &id);
/// OPTIONS with PRESET's size, text and line sizes (resolution, font family and style kept).
FigureOptions withPreset(FigureOptions options, const FigurePreset &preset);

/// The format a file name asks for (.pdf, .svg, .png), or nothing.
std::optional<FigureFormat> figureFormatForPath(const QString &path);

/// Draws PLOTS stacked top to bottom (equal heights) into PATH with the same drawing code as the screen.
/// Vector formats are clipped to each axis rectangle by clipping the data itself (Qt's SVG generator ignores
/// clip paths). The file is written atomically. Returns an empty string on success, else the error.
QString exportFigure(const QList<QCustomPlot *> &plots, const QString &path, const FigureOptions &options);

/// The figure as an image (for PNG and the clipboard): width_mm x height_mm at options.dpi.
QImage renderFigure(const QList<QCustomPlot *> &plots, const FigureOptions &options);

/// The labels in the plots (landmarks such as "π = M·L_c/E", point names, notes) that the figure at OPTIONS
/// draws, each as it reads (a subscript in line: "M·Lc"). PDF, SVG and PNG draw one layout, so every format
/// has these and no other.
QStringList figureLabels(const QList<QCustomPlot *> &plots, const FigureOptions &options);

/// What is wrong with the layout of the figure PLOTS make at OPTIONS' size, one line a problem, empty when
/// nothing is: a piece of text (tick label, axis title, legend entry, title, text item) that leaves the page,
/// two that overlap, or an axis title cut short with an ellipsis. Each is measured where the export draws it.
QStringList figureLayoutProblems(const QList<QCustomPlot *> &plots, const FigureOptions &options);

/// The share of the figure's height (0 to 1) that PLOTS at OPTIONS keep between their axes, all their axis
/// rects' inner heights together, as the export lays them out: what is left for the data once tick labels,
/// axis titles and legends have their room.
double figurePlotShare(const QList<QCustomPlot *> &plots, const FigureOptions &options);
/// The least figurePlotShare() of a figure with a legend or key (a journal figure's plot keeps most of it).
inline constexpr double kFigurePlotShare = 0.55;

} // namespace crossroof::widgets
