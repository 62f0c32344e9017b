// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStyledItemDelegate>

namespace crossroof::widgets {

/// Draws an item view's cells whose text is markup (symbol_text.h: "S_{s} 16 → 32 KiB") with their subscripts,
/// in the cell's font and colours, selected or not; other cells as QStyledItemDelegate draws them.
class MarkupDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace crossroof::widgets
