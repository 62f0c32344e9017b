// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStaticText>

class QFontMetricsF;

namespace crossroof::widgets {

/// Text laid out once for a font and drawn from then on without shaping it again: what a plot's label and
/// legend entry draw on every replot of a drag, while their text rarely changes. A QCPItemText or legend entry
/// measures its text and lays it out twice per replot; for the X-graph's labels and entries that was a tenth of
/// a drag step.
class StaticTextCache
{
public:
    /// TEXT in FONT, laid out; again only when one of them changed.
    const QStaticText &text(const QString &text, const QFont &font);
    /// The box QFontMetrics::boundingRect(0, 0, 0, HEIGHT, FLAGS, TEXT) gives in FONT, remembered alike.
    QRect boundingRect(const QString &text, const QFont &font, int height, int flags);

private:
    /// Forgets the layout and the box when TEXT or FONT differ from the last ones.
    void use(const QString &text, const QFont &font);

    QString m_text;
    QFont m_font;
    QStaticText m_static;
    bool m_prepared = false;
    int m_height = 0;
    int m_flags = 0;
    QRect m_rect;
    bool m_measured = false;
};

/// A QCPItemText that draws one-line text from a StaticTextCache: the same box, padding, alignment and colour.
/// Rotated or multi-line text, and text drawn into a vector or scaled figure (see
/// plot_style::drawsPixelsAsTheyAre()), is drawn by QCPItemText itself; text with markup (model symbols with
/// subscripts, symbol_text.h) by the item, in every case, as one line.
class StaticTextItem : public QCPItemText
{
public:
    explicit StaticTextItem(QCustomPlot *plot)
        : QCPItemText(plot)
    {
    }

protected:
    void draw(QCPPainter *painter) override;
    /// The corners and edge midpoints of the box the item draws, from the remembered layout. QCPItemText measures
    /// its text anew for every anchor asked (label placement asks each label's corners many times a step), and
    /// measures markup as its raw characters, wider than the subscripted text drawn.
    QPointF anchorPixelPosition(int anchorId) const override;

private:
    /// Draws text with markup (symbol_text.h): model symbols with their subscripts.
    void drawSymbols(QCPPainter *painter);
    /// The padded box around the text, placed by the position's alignment, relative to the position.
    QRectF boxRect() const;

    mutable StaticTextCache m_cache;
};

/// Keeps LABEL whole inside the axis rect that clips it, as the rect is laid out now: a label beside its
/// position (left or right aligned) that would run past the rect's edge goes to the other side where that has
/// room; any other moves in by as much as it stands out. Whether it moved; false also for a label larger than
/// the rect.
bool keepLabelInside(QCPItemText *label);

/// A legend entry for a plottable, its name drawn from a StaticTextCache (see StaticTextItem), or with its
/// subscripts where it has markup (symbol_text.h). Put in place of the entry QCustomPlot adds with
/// addLegendEntry() (or by symbol_text::useSymbolText() for a name with markup).
class StaticLegendItem : public QCPPlottableLegendItem
{
public:
    StaticLegendItem(QCPLegend *legend, QCPAbstractPlottable *plottable)
        : QCPPlottableLegendItem(legend, plottable)
    {
    }

    /// At most the plot's width shared by the legend's columns: a longer name is shortened in the middle where
    /// it is drawn, never cut at the plot's edge.
    QSize minimumOuterSizeHint() const override;

protected:
    void draw(QCPPainter *painter) override;
    /// The name beside the icon at the top of the entry, as QCPPlottableLegendItem draws it (with subscripts
    /// where it has markup), shortened in the middle where the entry is narrower than it.
    void drawName(QCPPainter *painter);
    /// The entry's box and a descent below it: QCustomPlot clips a layerable one unit above its box, which
    /// cut the underscores and descenders of a figure's last legend row off ("ncu_raw.csv" read "ncu raw.csv").
    QRect clipRect() const override;

private:
    StaticTextCache m_cache;
};

/// A legend entry's OUTER_RECT in FONT with a descent and a unit below it (see StaticLegendItem::clipRect()).
QRect legendClipRect(const QRect &outerRect, const QFont &font);

/// The least size of an entry of LEGEND that shows TEXT in FONT beside an icon of ICON, MARGINS around: what
/// QCPPlottableLegendItem asks for, for entries that draw their own icon.
QSize legendEntrySize(const QCPLegend &legend, const QFont &font, const QString &text, QSize icon,
                      const QMargins &margins);

/// SIZE (an entry's least size, MARGINS included) at most as wide as LEGEND's plot where the legend has one
/// column and is on screen (not a figure being exported), and
/// never narrower than its icon and a few characters of FONT: on screen a long name is then shortened where it
/// is drawn (fittedLegendText()), not cut at the plot's edge.
QSize limitLegendEntry(QSize size, const QCPLegend &legend, const QFont &font, const QMargins &margins);

/// PLAIN (one line, no markup) shortened to at most ROOM pixels of METRICS, by whole words: of its parts between
/// commas the middle ones give way first, for one "…" ("f(k): measured, …, dashed where unstable"), then all
/// but the first ("operating point, 2.173 TB/s" as "operating point"), then that part's last words; a name of
/// one word too long is shortened in the middle. A file's traces in one entry (FILE_FIRST:
/// "gpu_stream_v100.txt: init, read, …") give up the file's name first where that leaves it four characters:
/// the traces' names are what the markers beside them stand for.
QString shortenedEntryName(const QString &plain, const QFontMetricsF &metrics, double room, bool fileFirst);

/// TEXT as an entry with ROOM pixels for it in FONT shows it: shortened (shortenedEntryName()), a little short of
/// the edge, where it is wider; plain one-line text only (markup and several lines as they are).
QString fittedLegendText(const QString &text, const QFont &font, int room, bool fileFirst = false);

/// Adds PLOTTABLE to its plot's legend as a StaticLegendItem, unless it is there already; returns whether it
/// was added.
bool addLegendEntry(QCPAbstractPlottable *plottable);

} // namespace crossroof::widgets
