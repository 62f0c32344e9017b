// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QList>
#include <QRectF>
#include <QString>

class QCustomPlot;
class QPainter;

/// Model symbols in plot text with real subscripts: "f_{sched}" draws "sched" lowered and smaller after f, on
/// screen and in PDF, SVG and PNG alike (Greek letters are written as themselves: γ_{2}). Only text that names
/// the model's symbols is written so; a name from a file or a kernel goes through literal() first, so that
/// whatever it holds is drawn as it is ("ncu_raw.csv" stays "ncu_raw.csv"). Axis titles, legend entries
/// and labels in the plot (StaticTextItem) read the markup; see useSymbolText().
namespace crossroof::widgets::symbol_text {

/// A piece of text on the baseline, or lowered as a subscript.
struct Run
{
    QString text;
    bool subscript = false;
};

/// MARKUP in pieces: "_{x}" is a subscript x; "\_" an underscore and "\\" a backslash, drawn as they are.
QList<Run> runs(const QString &markup);
/// Whether MARKUP has a subscript or an escape: text without either is drawn as it is by QCustomPlot itself.
bool hasMarkup(const QString &markup);
/// MARKUP as one line of plain text, a subscript after an underscore ("f_sched"): for CSV headers and
/// messages.
QString plain(const QString &markup);
/// TEXT escaped so that it is drawn exactly as it is (a file or kernel name in a legend).
QString literal(const QString &text);
/// A model symbol as core writes it ("S_s", "R_dram") as markup: what follows its first '_' a subscript.
QString fromSymbol(const QString &symbol);
/// MARKUP as HTML for a tooltip or rich-text label: escaped, its subscripts in <sub>.
QString html(const QString &markup);

/// The font of a subscript of FONT: seven tenths of its size.
QFont subscriptFont(const QFont &font);
/// The width MARKUP takes drawn in FONT.
double width(const QString &markup, const QFont &font);
/// Draws MARKUP in FONT with the painter's pen, aligned in RECT by ALIGNMENT (Qt::Alignment flags) as one line.
void draw(QPainter *painter, const QRectF &rect, int alignment, const QString &markup, const QFont &font);

/// Makes PLOT draw the markup of its axis titles and legend entries (see the namespace): the axes of its axis
/// rects and colour scales get a painter that draws a title with markup, and a legend entry whose name has
/// markup becomes a StaticLegendItem. Again whenever called (setupAxes() calls it before each replot; the
/// figure export before it draws).
void useSymbolText(QCustomPlot *plot);

} // namespace crossroof::widgets::symbol_text
