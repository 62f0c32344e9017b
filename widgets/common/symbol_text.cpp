// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/symbol_text.h"

#include "common/static_text.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets::symbol_text {

namespace {

/// How far a subscript's baseline lies below the text's, in heights of the text's font.
constexpr double kSubscriptDrop = 0.18;

/// Reaches QCPAxis's painter, which QCustomPlot keeps to the axis (a pointer to a protected member, named
/// through a class derived from QCPAxis: no object of it is ever made).
struct AxisPainterAccess : QCPAxis
{
    static QCPAxisPainterPrivate *QCPAxis::*painter() { return &AxisPainterAccess::mAxisPainter; }
};

/// QCustomPlot's axis painter, except that a title with markup is drawn with its subscripts (in the place
/// and orientation QCustomPlot gives a title). Everything else is QCustomPlot's own drawing.
class SymbolAxisPainter : public QCPAxisPainterPrivate
{
public:
    explicit SymbolAxisPainter(QCustomPlot *plot)
        : QCPAxisPainterPrivate(plot)
    {
    }

    void draw(QCPPainter *painter) override
    {
        if (!hasMarkup(label)) {
            QCPAxisPainterPrivate::draw(painter);
            return;
        }
        const QString markup = label;
        label.clear(); // everything but the title
        QCPAxisPainterPrivate::draw(painter);
        label = markup;
        // Where QCustomPlot puts the title: beyond the ticks, the tick labels and the label padding.
        const bool horizontal = QCPAxis::orientation(type) == Qt::Horizontal;
        const QRect labels = tickLabelsSelectionBox();
        int margin = std::max(0, std::max(tickLengthOut, subTickLengthOut));
        if (!tickLabels.isEmpty() && tickLabelSide == QCPAxis::lsOutside)
            margin += tickLabelPadding + (horizontal ? labels.bottom() - labels.top() : labels.right() - labels.left());
        margin += labelPadding;
        const double height = QFontMetricsF(labelFont).height();
        painter->setPen(QPen(labelColor));
        painter->save();
        QRectF box;
        switch (type) {
        case QCPAxis::atLeft:
            painter->translate(axisRect.left() - offset - margin - height, axisRect.bottom());
            painter->rotate(-90);
            box = QRectF(0, 0, axisRect.height(), height);
            break;
        case QCPAxis::atRight:
            painter->translate(axisRect.right() + offset + margin + height, axisRect.top());
            painter->rotate(90);
            box = QRectF(0, 0, axisRect.height(), height);
            break;
        case QCPAxis::atTop:
            box = QRectF(axisRect.left(), axisRect.top() - offset - margin - height, axisRect.width(), height);
            break;
        case QCPAxis::atBottom:
            box = QRectF(axisRect.left(), axisRect.bottom() + offset + margin, axisRect.width(), height);
            break;
        }
        symbol_text::draw(painter, box, Qt::AlignCenter, markup, labelFont);
        painter->restore();
    }
};

/// Puts a SymbolAxisPainter in AXIS, with every setting of the painter it had.
void useSymbolPainter(QCPAxis *axis)
{
    QCPAxisPainterPrivate *&current = axis->*AxisPainterAccess::painter();
    if (dynamic_cast<SymbolAxisPainter *>(current))
        return;
    auto *symbols = new SymbolAxisPainter(axis->parentPlot());
    // The settings QCPAxis keeps in its painter alone (the others it hands over before each use).
    symbols->type = current->type;
    symbols->basePen = current->basePen;
    symbols->lowerEnding = current->lowerEnding;
    symbols->upperEnding = current->upperEnding;
    symbols->labelPadding = current->labelPadding;
    symbols->labelFont = current->labelFont;
    symbols->labelColor = current->labelColor;
    symbols->label = current->label;
    symbols->tickLabelPadding = current->tickLabelPadding;
    symbols->tickLabelRotation = current->tickLabelRotation;
    symbols->tickLabelSide = current->tickLabelSide;
    symbols->substituteExponent = current->substituteExponent;
    symbols->numberMultiplyCross = current->numberMultiplyCross;
    symbols->tickLengthIn = current->tickLengthIn;
    symbols->tickLengthOut = current->tickLengthOut;
    symbols->subTickLengthIn = current->subTickLengthIn;
    symbols->subTickLengthOut = current->subTickLengthOut;
    symbols->tickPen = current->tickPen;
    symbols->subTickPen = current->subTickPen;
    symbols->tickLabelFont = current->tickLabelFont;
    symbols->tickLabelColor = current->tickLabelColor;
    symbols->axisRect = current->axisRect;
    symbols->viewportRect = current->viewportRect;
    symbols->offset = current->offset;
    symbols->abbreviateDecimalPowers = current->abbreviateDecimalPowers;
    symbols->reversedEndings = current->reversedEndings;
    symbols->subTickPositions = current->subTickPositions;
    symbols->tickPositions = current->tickPositions;
    symbols->tickLabels = current->tickLabels;
    delete current;
    current = symbols;
}

/// LEGEND's entry ITEM, plain QCustomPlot, replaced by a StaticLegendItem (which draws markup) in its cell.
void replaceEntry(QCPLegend *legend, QCPPlottableLegendItem *item)
{
    int row = 0, column = 0;
    for (int i = 0; i < legend->elementCount(); ++i) {
        if (legend->elementAt(i) == item) {
            legend->indexToRowCol(i, row, column);
            break;
        }
    }
    auto *entry = new StaticLegendItem(legend, item->plottable());
    entry->setFont(item->font());
    entry->setTextColor(item->textColor());
    entry->setSelectedFont(item->selectedFont());
    entry->setSelectedTextColor(item->selectedTextColor());
    entry->setSelectable(item->selectable());
    entry->setSelected(item->selected());
    entry->setVisible(item->visible());
    entry->setLayer(item->layer());
    legend->take(item);
    delete item;
    legend->addElement(row, column, entry);
}

} // namespace

QList<Run> runs(const QString &markup)
{
    QList<Run> out;
    const auto add = [&out](const QString &text, bool subscript) {
        if (text.isEmpty())
            return;
        if (!out.isEmpty() && out.last().subscript == subscript)
            out.last().text += text;
        else
            out.append({text, subscript});
    };
    QString text;
    for (qsizetype i = 0; i < markup.size(); ++i) {
        const QChar c = markup[i];
        if (c == QLatin1Char('\\') && i + 1 < markup.size()) {
            text += markup[++i];
        } else if (c == QLatin1Char('_') && i + 1 < markup.size() && markup[i + 1] == QLatin1Char('{')) {
            const qsizetype end = markup.indexOf(QLatin1Char('}'), i + 2);
            if (end < 0) { // not closed: drawn as it is
                text += c;
                continue;
            }
            add(text, false);
            text.clear();
            add(markup.mid(i + 2, end - i - 2), true);
            i = end;
        } else {
            text += c;
        }
    }
    add(text, false);
    return out;
}

bool hasMarkup(const QString &markup)
{
    return markup.contains(QLatin1String("_{")) || markup.contains(QLatin1Char('\\'));
}

QString plain(const QString &markup)
{
    if (!hasMarkup(markup))
        return markup;
    QString out;
    for (const Run &run : runs(markup))
        out += run.subscript ? QLatin1Char('_') + run.text : run.text;
    return out;
}

QString literal(const QString &text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1String("_{"), QLatin1String("\\_{"));
    return out;
}

QString fromSymbol(const QString &symbol)
{
    const qsizetype underscore = symbol.indexOf(QLatin1Char('_'));
    if (underscore <= 0 || underscore + 1 == symbol.size())
        return literal(symbol);
    return literal(symbol.left(underscore)) + QLatin1String("_{") + symbol.mid(underscore + 1) + QLatin1Char('}');
}

QString html(const QString &markup)
{
    QString out;
    for (const Run &run : runs(markup))
        out += run.subscript ? QStringLiteral("<sub>%1</sub>").arg(run.text.toHtmlEscaped()) : run.text.toHtmlEscaped();
    return out;
}

QFont subscriptFont(const QFont &font)
{
    QFont small = font;
    if (font.pixelSize() > 0)
        small.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * 0.7))));
    else
        small.setPointSizeF(font.pointSizeF() * 0.7);
    return small;
}

double width(const QString &markup, const QFont &font)
{
    // Remembered: labels are measured to be placed, kept inside and drawn, several times a replot, with texts
    // that rarely change (shaping one took a fifth of an X-graph drag step). Per thread: figures are drawn on
    // the GUI thread, but nothing here needs to know that.
    thread_local QHash<std::pair<QString, QFont>, double> known;
    const std::pair<QString, QFont> key(markup, font);
    if (const auto it = known.constFind(key); it != known.cend())
        return it.value();
    const QFontMetricsF base(font);
    const QFontMetricsF small(subscriptFont(font));
    double w = 0;
    for (const Run &run : runs(markup))
        w += run.subscript ? small.horizontalAdvance(run.text) : base.horizontalAdvance(run.text);
    if (known.size() >= 1024) // a drag through many values: start over rather than grow
        known.clear();
    known.insert(key, w);
    return w;
}

void draw(QPainter *painter, const QRectF &rect, int alignment, const QString &markup, const QFont &font)
{
    const QFontMetricsF metrics(font);
    const QFont small = subscriptFont(font);
    const double w = width(markup, font);
    double x = rect.left();
    if (alignment & Qt::AlignHCenter)
        x = rect.center().x() - w / 2;
    else if (alignment & Qt::AlignRight)
        x = rect.right() - w;
    double baseline = rect.top() + metrics.ascent();
    if (alignment & Qt::AlignVCenter)
        baseline = rect.center().y() - metrics.height() / 2 + metrics.ascent();
    else if (alignment & Qt::AlignBottom)
        baseline = rect.bottom() - metrics.descent();
    const QFont before = painter->font();
    for (const Run &run : runs(markup)) {
        painter->setFont(run.subscript ? small : font);
        const double drop = run.subscript ? kSubscriptDrop * metrics.height() : 0;
        painter->drawText(QPointF(x, baseline + drop), run.text);
        x += QFontMetricsF(painter->font()).horizontalAdvance(run.text);
    }
    painter->setFont(before);
}

void useSymbolText(QCustomPlot *plot)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            useSymbolPainter(axis);
    }
    // The layout's elements, not the plot's children: this runs before every replot, and a plot has many.
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *scale = qobject_cast<QCPColorScale *>(element)) {
            for (QCPAxis *axis : scale->axis()->axisRect()->axes())
                useSymbolPainter(axis);
        }
    }
    if (QCPLegend *legend = plot->legend) {
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
            // Every entry, markup or not: a StaticLegendItem also draws the descent of its text (its clipRect()).
            if (item && !dynamic_cast<StaticLegendItem *>(item) && item->plottable())
                replaceEntry(legend, item);
        }
    }
}

} // namespace crossroof::widgets::symbol_text
