// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/markup_delegate.h"

#include "common/symbol_text.h"

#include <QApplication>
#include <QPainter>

#include <cmath>

namespace crossroof::widgets {

void MarkupDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QString text = index.data(Qt::DisplayRole).toString();
    if (!symbol_text::hasMarkup(text)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the style draws the cell's background, selection and focus; the text is drawn here
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const QRect box = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const bool selected = opt.state & QStyle::State_Selected;
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
                                       : (opt.state & QStyle::State_Active) ? QPalette::Active
                                                                             : QPalette::Inactive;
    painter->save();
    painter->setPen(selected ? opt.palette.color(group, QPalette::HighlightedText)
                             : opt.palette.color(group, QPalette::Text)); // initStyleOption put a foreground there
    painter->setClipRect(box);
    symbol_text::draw(painter, box.adjusted(margin, 0, -margin, 0), Qt::AlignLeft | Qt::AlignVCenter, text, opt.font);
    painter->restore();
}

QSize MarkupDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QString text = index.data(Qt::DisplayRole).toString();
    if (symbol_text::hasMarkup(text)) {
        // As wide as drawn with its subscripts, not as its raw characters.
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const double raw = QFontMetricsF(opt.font).horizontalAdvance(text);
        size.setWidth(size.width() - int(std::floor(raw)) + int(std::ceil(symbol_text::width(text, opt.font))));
    }
    return size;
}

} // namespace crossroof::widgets
