// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/static_text.h"

#include "common/curve_thinning.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QHash>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// Reaches QCPAbstractPlottable::drawLegendIcon, which QCustomPlot opens to its own legend entry only.
struct LegendIcon : QCPAbstractPlottable
{
    using QCPAbstractPlottable::drawLegendIcon;
};

} // namespace

void StaticTextCache::use(const QString &text, const QFont &font)
{
    if (text == m_text && font == m_font)
        return;
    m_text = text;
    m_font = font;
    m_prepared = false;
    m_measured = false;
}

const QStaticText &StaticTextCache::text(const QString &text, const QFont &font)
{
    use(text, font);
    if (!m_prepared) {
        m_static.setText(text);
        m_static.setTextFormat(Qt::PlainText);
        m_static.setPerformanceHint(QStaticText::AggressiveCaching);
        m_static.prepare(QTransform(), font);
        m_prepared = true;
    }
    return m_static;
}

QRect StaticTextCache::boundingRect(const QString &text, const QFont &font, int height, int flags)
{
    use(text, font);
    if (!m_measured || height != m_height || flags != m_flags) {
        m_height = height;
        m_flags = flags;
        m_rect = QFontMetrics(font).boundingRect(0, 0, 0, height, flags, text);
        m_measured = true;
    }
    return m_rect;
}

void StaticTextItem::drawSymbols(QCPPainter *painter)
{
    // As QCPItemText draws it (box, padding, alignment, rotation, frame), with the markup's subscripts.
    const QPointF pos(position->pixelPosition());
    // In the plot's pixels, as clipRect() is: the painter's own transform (a figure's scale onto a PNG's pixels,
    // a stacked plot's offset) comes after, or the label would be tested against its clip in other units and left
    // out of one format only.
    QTransform local;
    local.translate(pos.x(), pos.y());
    if (!qFuzzyIsNull(mRotation))
        local.rotate(mRotation);
    const QFont font = mainFont();
    const QRectF boxRect = this->boxRect();
    const QRectF textRect = boxRect.adjusted(mPadding.left(), mPadding.top(), -mPadding.right(), -mPadding.bottom());
    const double clipPad = std::ceil(mainPen().widthF());
    if (!local.mapRect(boxRect.adjusted(-clipPad, -clipPad, clipPad, clipPad)).intersects(clipRect()))
        return;
    painter->setTransform(local * painter->transform());
    if ((mainBrush().style() != Qt::NoBrush && mainBrush().color().alpha() != 0)
        || (mainPen().style() != Qt::NoPen && mainPen().color().alpha() != 0)) {
        painter->setPen(mainPen());
        painter->setBrush(mainBrush());
        painter->drawRect(boxRect);
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mainColor()));
    symbol_text::draw(painter, textRect, Qt::AlignLeft | Qt::AlignTop, mText, font);
}

QRectF StaticTextItem::boxRect() const
{
    const QFont font = mainFont();
    if (symbol_text::hasMarkup(mText)) {
        const QRectF text(0, 0, symbol_text::width(mText, font), QFontMetricsF(font).height());
        QRectF box = text.adjusted(-mPadding.left(), -mPadding.top(), mPadding.right(), mPadding.bottom());
        box.moveTopLeft(getTextDrawPoint(QPointF(0, 0), box, mPositionAlignment));
        return box;
    }
    const QRect text = m_cache.boundingRect(mText, font, 0, Qt::TextDontClip | int(mTextAlignment));
    QRect box = text.adjusted(-mPadding.left(), -mPadding.top(), mPadding.right(), mPadding.bottom());
    // Placed in whole pixels from the position, which itself may fall between pixels.
    box.moveTopLeft(getTextDrawPoint(QPointF(0, 0), box, mPositionAlignment).toPoint());
    return box;
}

QPointF StaticTextItem::anchorPixelPosition(int anchorId) const
{
    QTransform local;
    local.translate(position->pixelPosition().x(), position->pixelPosition().y());
    if (!qFuzzyIsNull(mRotation))
        local.rotate(mRotation);
    const QRectF box = boxRect();
    const QPointF topLeft = local.map(box.topLeft());
    const QPointF topRight = local.map(box.topRight());
    const QPointF bottomRight = local.map(box.bottomRight());
    const QPointF bottomLeft = local.map(box.bottomLeft());
    switch (anchorId) {
    case aiTopLeft:
        return topLeft;
    case aiTop:
        return (topLeft + topRight) / 2;
    case aiTopRight:
        return topRight;
    case aiRight:
        return (topRight + bottomRight) / 2;
    case aiBottomRight:
        return bottomRight;
    case aiBottom:
        return (bottomRight + bottomLeft) / 2;
    case aiBottomLeft:
        return bottomLeft;
    case aiLeft:
        return (bottomLeft + topLeft) / 2;
    default:
        return QCPItemText::anchorPixelPosition(anchorId);
    }
}

void StaticTextItem::draw(QCPPainter *painter)
{
    if (symbol_text::hasMarkup(mText)) {
        drawSymbols(painter);
        return;
    }
    if (!plot_style::drawsPixelsAsTheyAre(painter) || !qFuzzyIsNull(mRotation) || mText.contains(QLatin1Char('\n'))) {
        QCPItemText::draw(painter);
        return;
    }
    // As QCPItemText draws it: the text's box, padded, placed by the position's alignment, framed and filled
    // when asked; only the text's layout is remembered.
    const QPointF pos(position->pixelPosition());
    const QFont font = mainFont();
    const QRect boxRect = this->boxRect().toRect();
    const QRect textRect = boxRect.adjusted(mPadding.left(), mPadding.top(), -mPadding.right(), -mPadding.bottom());
    const int clipPad = int(std::ceil(mainPen().widthF()));
    if (!QRectF(boxRect.adjusted(-clipPad, -clipPad, clipPad, clipPad)).translated(pos).intersects(clipRect()))
        return;
    if ((mainBrush().style() != Qt::NoBrush && mainBrush().color().alpha() != 0)
        || (mainPen().style() != Qt::NoPen && mainPen().color().alpha() != 0)) {
        painter->setPen(mainPen());
        painter->setBrush(mainBrush());
        painter->drawRect(QRectF(boxRect).translated(pos));
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mainColor()));
    painter->setFont(font);
    // One line aligned in a box of its own width: its layout starts at the box's left, on the nearest pixel.
    const QPointF at = pos + QPointF(textRect.topLeft());
    painter->drawStaticText(QPointF(std::round(at.x()), std::round(at.y())), m_cache.text(mText, font));
}

void StaticLegendItem::draw(QCPPainter *painter)
{
    if (!mPlottable)
        return;
    // A marker taller than the icon (the X-graph's operating point) is drawn to the icon's height, whole, rather
    // than cut by it: the name, then the marker, as QCPGraph draws a legend icon of marks alone.
    const QSize icon = mParentLegend->iconSize();
    auto *graph = qobject_cast<QCPGraph *>(mPlottable);
    if (graph && graph->lineStyle() == QCPGraph::lsNone && graph->brush().style() == Qt::NoBrush
        && !graph->scatterStyle().isNone() && graph->scatterStyle().shape() != QCPScatterStyle::ssPixmap
        && graph->scatterStyle().size() > icon.height() - 2 && icon.height() > 4) {
        QCPScatterStyle fitted = graph->scatterStyle();
        const double room = icon.height() - 2;
        QPen pen = fitted.pen();
        pen.setWidthF(std::max(1.0, pen.widthF() * room / fitted.size()));
        fitted.setPen(pen);
        fitted.setSize(room);
        drawName(painter);
        painter->save();
        const QRect iconRect(mRect.topLeft(), icon);
        painter->setClipRect(iconRect, Qt::IntersectClip);
        painter->setAntialiasing(true);
        fitted.applyTo(painter, graph->pen());
        fitted.drawShape(painter, QRectF(iconRect).center());
        painter->restore();
        return;
    }
    const QString name = mPlottable->name();
    const bool symbols = symbol_text::hasMarkup(name);
    const bool fits = QCPPlottableLegendItem::minimumOuterSizeHint().width() <= mOuterRect.width();
    if (!symbols && (!plot_style::drawsPixelsAsTheyAre(painter) || name.contains(QLatin1Char('\n'))) && fits) {
        QCPPlottableLegendItem::draw(painter);
        return;
    }
    // As QCPPlottableLegendItem draws it: the icon, then the name beside it at the top of the entry.
    const QSize iconSize = mParentLegend->iconSize();
    const QRect iconRect(mRect.topLeft(), iconSize);
    drawName(painter);
    painter->save();
    painter->setClipRect(iconRect, Qt::IntersectClip);
    (mPlottable->*&LegendIcon::drawLegendIcon)(painter, iconRect);
    painter->restore();
    if (getIconBorderPen().style() != Qt::NoPen) {
        painter->setPen(getIconBorderPen());
        painter->setBrush(Qt::NoBrush);
        const int halfPen = int(std::ceil(painter->pen().widthF() * 0.5)) + 1;
        painter->setClipRect(mOuterRect.adjusted(-halfPen, -halfPen, halfPen, halfPen));
        painter->drawRect(iconRect);
    }
}

bool keepLabelInside(QCPItemText *label)
{
    const QCPAxisRect *rect = label->clipAxisRect();
    if (!rect || !label->visible() || label->rotation() != 0 || label->text().isEmpty())
        return false;
    const QRectF area = rect->rect();
    const Qt::Alignment align = label->positionAlignment();
    const Qt::Alignment vertical = align & Qt::AlignVertical_Mask;
    // The box as the label draws it (a StaticTextItem measures its text once for its anchors and its drawing).
    const QRectF whole = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    const double width = whole.width();
    const double x = label->position->pixelPosition().x();
    // A label beside a line goes to the line's other side.
    if (align.testFlag(Qt::AlignLeft) && x + width > area.right() && x - width >= area.left()) {
        label->setPositionAlignment(Qt::AlignRight | vertical);
        return true;
    }
    if (align.testFlag(Qt::AlignRight) && x - width < area.left() && x + width <= area.right()) {
        label->setPositionAlignment(Qt::AlignLeft | vertical);
        return true;
    }
    // Else it moves in by as much as it stands out (a contour's value along its line), where it fits at all.
    if (whole.width() > area.width() || whole.height() > area.height())
        return false;
    const double dx = std::max(0.0, area.left() - whole.left()) - std::max(0.0, whole.right() - area.right());
    const double dy = std::max(0.0, area.top() - whole.top()) - std::max(0.0, whole.bottom() - area.bottom());
    if (std::abs(dx) < 0.5 && std::abs(dy) < 0.5)
        return false;
    label->position->setPixelPosition(label->position->pixelPosition() + QPointF(dx, dy));
    return true;
}

QSize StaticLegendItem::minimumOuterSizeHint() const
{
    const QSize size = QCPPlottableLegendItem::minimumOuterSizeHint();
    return mParentLegend ? limitLegendEntry(size, *mParentLegend, getFont(), mMargins) : size;
}

void StaticLegendItem::drawName(QCPPainter *painter)
{
    const QFont font = getFont();
    const QString name = fittedLegendText(mPlottable->name(), font,
                                          mRect.width() - mParentLegend->iconSize().width()
                                                  - mParentLegend->iconTextPadding());
    painter->setFont(font);
    painter->setPen(QPen(getTextColor()));
    const QPointF textAt(mRect.x() + mParentLegend->iconSize().width() + mParentLegend->iconTextPadding(), mRect.y());
    if (symbol_text::hasMarkup(name)) // with its subscripts, a line high
        symbol_text::draw(painter, QRectF(textAt, QSizeF(mRect.width(), QFontMetricsF(font).height())),
                          Qt::AlignLeft | Qt::AlignTop, name, font);
    else if (plot_style::drawsPixelsAsTheyAre(painter) && !name.contains(QLatin1Char('\n')))
        painter->drawStaticText(textAt, m_cache.text(name, font));
    else
        painter->drawText(QRectF(textAt, QSizeF(mRect.width(), mRect.height())), Qt::AlignLeft | Qt::AlignTop, name);
}

QRect StaticLegendItem::clipRect() const
{
    return legendClipRect(mOuterRect, getFont());
}

QRect legendClipRect(const QRect &outerRect, const QFont &font)
{
    return outerRect.adjusted(0, 0, 0, QFontMetrics(font).descent() + 1);
}

namespace {

struct MeasuredText
{
    QString text;
    QFont font;
    int height = 0;
    friend bool operator==(const MeasuredText &a, const MeasuredText &b)
    {
        return a.height == b.height && a.text == b.text && a.font == b.font;
    }
    friend std::size_t qHash(const MeasuredText &key, std::size_t seed = 0)
    {
        return qHashMulti(seed, key.text, key.font, key.height);
    }
};

} // namespace

QSize legendEntrySize(const QCPLegend &legend, const QFont &font, const QString &text, QSize icon,
                      const QMargins &margins)
{
    // The text's box is remembered per text, font and icon height. Legend entries that are not a plottable's
    // (GroupLegendItem, IconLegendItem) are measured at every layout of their plot, and laying the same text
    // out again through HarfBuzz was 4 % of a linked drag step with data (callgrind of `crossroof-bench
    // --quick --only linked_data`: 99 of 2,401 million instructions, 1,602 measures in 119 steps).
    static QHash<MeasuredText, QRect> measured;
    const MeasuredText key {text, font, icon.height()};
    QRect textBox;
    if (const auto it = measured.constFind(key); it != measured.constEnd()) {
        textBox = *it;
    } else {
        if (measured.size() >= 512) // texts long gone (an operating point's entry names its throughput)
            measured.clear();
        textBox = QFontMetrics(font).boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text);
        measured.insert(key, textBox);
    }
    return QSize(icon.width() + legend.iconTextPadding() + textBox.width(), std::max(textBox.height(), icon.height()))
           + QSize(margins.left() + margins.right(), margins.top() + margins.bottom());
}

QSize limitLegendEntry(QSize size, const QCPLegend &legend, const QFont &font, const QMargins &margins)
{
    // A legend of one column only (the columns of a wider one share the width unevenly, as their entries ask),
    // and on screen: a figure's export lays its legend out and shortens its names itself.
    const QCustomPlot *plot = legend.parentPlot();
    if (!plot || legend.columnCount() > 1 || plot->property(kFullDetailProperty).toBool())
        return size;
    const QMargins outer = legend.margins();
    const int room = plot->viewport().width() - outer.left() - outer.right();
    const int least = margins.left() + legend.iconSize().width() + legend.iconTextPadding()
            + 6 * QFontMetrics(font).averageCharWidth() + margins.right();
    size.setWidth(std::min(size.width(), std::max(room, least)));
    return size;
}

QString shortenedEntryName(const QString &plain, const QFontMetricsF &metrics, double room, bool fileFirst)
{
    if (const qsizetype colon = plain.indexOf(QLatin1String(": ")); fileFirst && colon > 0) {
        const QString list = plain.mid(colon);
        const double headRoom = room - metrics.horizontalAdvance(list);
        if (headRoom >= 4 * metrics.averageCharWidth())
            return metrics.elidedText(plain.left(colon), Qt::ElideMiddle, headRoom) + list;
    }
    const auto fits = [&metrics, room](const QString &text) { return metrics.horizontalAdvance(text) <= room; };
    const QString comma = QStringLiteral(", ");
    const QString more(QChar(0x2026));
    const QStringList parts = plain.split(comma);
    for (qsizetype dropped = 1; dropped + 1 < parts.size(); ++dropped) {
        const QString shorter = parts.front() + comma + more + comma + parts.mid(dropped + 1).join(comma);
        if (fits(shorter))
            return shorter;
    }
    QStringList words = parts.front().split(QLatin1Char(' '));
    if (fits(parts.front()))
        return parts.front();
    while (words.size() > 1) {
        words.removeLast();
        const QString shorter = words.join(QLatin1Char(' ')) + more;
        if (fits(shorter))
            return shorter;
    }
    return metrics.elidedText(plain, Qt::ElideMiddle, room);
}

QString fittedLegendText(const QString &text, const QFont &font, int room, bool fileFirst)
{
    if (symbol_text::hasMarkup(text) || text.contains(QLatin1Char('\n')))
        return text;
    const QFontMetricsF metrics(font);
    // A shortened name keeps a few pixels off the edge it would otherwise touch (and look cut at).
    constexpr int gap = 3;
    return metrics.horizontalAdvance(text) > room ? shortenedEntryName(text, metrics, room - gap, fileFirst) : text;
}

bool addLegendEntry(QCPAbstractPlottable *plottable)
{
    QCPLegend *legend = plottable->parentPlot()->legend;
    if (!legend || legend->hasItemWithPlottable(plottable))
        return false;
    return legend->addItem(new StaticLegendItem(legend, plottable));
}

} // namespace crossroof::widgets
