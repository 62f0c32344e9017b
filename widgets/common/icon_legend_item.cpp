// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/icon_legend_item.h"

#include "common/legend_groups.h"
#include "common/static_text.h"
#include "common/symbol_text.h"

#include <utility>

namespace crossroof::widgets {

IconLegendItem::IconLegendItem(QCPLegend *legend, const QString &text, IconPainter draw)
    : QCPAbstractLegendItem(legend)
    , m_text(text)
    , m_draw(std::move(draw))
{
}

void IconLegendItem::draw(QCPPainter *painter)
{
    if (!mParentLegend)
        return;
    // As QCPPlottableLegendItem lays an entry out: the icon, then the text at the entry's top, both as tall
    // as the taller of them.
    painter->setFont(mSelected ? mSelectedFont : mFont);
    painter->setPen(QPen(mSelected ? mSelectedTextColor : mTextColor));
    const QSize icon = mParentLegend->iconSize();
    const QString text = fittedLegendText(m_text, painter->font(),
                                          mRect.width() - icon.width() - mParentLegend->iconTextPadding());
    const QRect textBox = painter->fontMetrics().boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text);
    const int height = std::max(textBox.height(), icon.height());
    const int textX = mRect.x() + icon.width() + mParentLegend->iconTextPadding();
    if (symbol_text::hasMarkup(text)) { // with its subscripts, a line high, as a plottable's entry draws them
        const QFont font = painter->font(); // a copy: drawing the subscripts changes the painter's
        symbol_text::draw(painter, QRectF(textX, mRect.y(), mRect.width(), QFontMetricsF(font).height()),
                          Qt::AlignLeft | Qt::AlignTop, text, font);
    } else {
        painter->drawText(textX, mRect.y(), textBox.width(), height, Qt::TextDontClip, text);
    }
    const QRectF box(mRect.x(), mRect.y() + (height - icon.height()) / 2.0, icon.width(), icon.height());
    painter->save();
    painter->setClipRect(box, Qt::IntersectClip);
    m_draw(painter, box);
    painter->restore();
    if (mParentLegend->iconBorderPen().style() != Qt::NoPen) {
        painter->setPen(mParentLegend->iconBorderPen());
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box);
    }
}

QSize IconLegendItem::minimumOuterSizeHint() const
{
    if (!mParentLegend)
        return {};
    const QFont &font = mSelected ? mSelectedFont : mFont;
    return limitLegendEntry(legendEntrySize(*mParentLegend, font, m_text, mParentLegend->iconSize(), mMargins),
                            *mParentLegend, font, mMargins);
}

QRect IconLegendItem::clipRect() const
{
    return legendClipRect(mOuterRect, mSelected ? mSelectedFont : mFont);
}

bool arrangeLegend(QCPLegend *legend, const QList<QCPAbstractLegendItem *> &wanted,
                   const QList<QCPAbstractLegendItem *> &managed)
{
    QList<QCPAbstractLegendItem *> now;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) // cells of a wrapped grid can be empty
            now << item;
    }
    QList<QCPAbstractLegendItem *> order;
    for (QCPAbstractLegendItem *item : wanted) {
        if (item && !order.contains(item))
            order << item;
    }
    for (QCPAbstractLegendItem *item : std::as_const(now)) {
        if (!order.contains(item) && !managed.contains(item))
            order << item;
    }
    // An entry out of the legend is still a layerable of the plot, drawn where it last was: hidden till it
    // comes back.
    for (QCPAbstractLegendItem *item : managed) {
        if (item)
            item->setVisible(order.contains(item));
    }
    if (order == now)
        return false;
    for (QCPAbstractLegendItem *item : std::as_const(now))
        legend->take(item);
    legend->simplify();
    for (QCPAbstractLegendItem *item : std::as_const(order))
        legend->addItem(item);
    legend->setFillOrder(legend->fillOrder(), true); // no empty cells
    return true;
}

QStringList legendTexts(const QCPLegend *legend)
{
    QStringList texts;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (auto *own = qobject_cast<QCPPlottableLegendItem *>(item); own && own->plottable())
            texts << own->plottable()->name();
        else if (auto *merged = qobject_cast<legend_groups::GroupLegendItem *>(item))
            texts << merged->text();
        else if (auto *icon = qobject_cast<IconLegendItem *>(item))
            texts << icon->text();
    }
    return texts;
}

} // namespace crossroof::widgets
