// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/empty_state.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace crossroof::widgets {

EmptyState::EmptyState(QWidget *covered, const QString &text)
    : QFrame(covered)
    , m_covered(covered)
    , m_label(new QLabel(text, this))
    , m_buttonRow(new QWidget(this))
{
    setObjectName(QStringLiteral("EmptyState"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true); // the palette's window colour, light or dark, over the empty plot
    m_label->setWordWrap(true);
    m_label->setAlignment(Qt::AlignCenter);
    m_label->setTextFormat(Qt::RichText);
    auto *row = new QHBoxLayout(m_buttonRow);
    row->setContentsMargins(0, 0, 0, 0);
    row->addStretch();
    row->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(18, 14, 18, 14);
    layout->setSpacing(10);
    layout->addWidget(m_label);
    layout->addWidget(m_buttonRow);
    covered->installEventFilter(this);
    hide();
}

QPushButton *EmptyState::addButton(const QString &text)
{
    auto *button = new QPushButton(text, m_buttonRow);
    auto *row = static_cast<QHBoxLayout *>(m_buttonRow->layout());
    row->insertWidget(row->count() - 1, button); // between the two stretches
    place();
    return button;
}

QList<QPushButton *> EmptyState::buttons() const
{
    return m_buttonRow->findChildren<QPushButton *>();
}

void EmptyState::setEmpty(bool empty)
{
    setVisible(empty);
    if (empty) {
        place();
        raise();
    }
}

bool EmptyState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_covered && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        place();
    return QFrame::eventFilter(watched, event);
}

void EmptyState::place()
{
    // At most 460 px wide, leaving a margin on a narrow view; as tall as the text and buttons need.
    const int width = std::max(160, std::min(460, m_covered->width() - 40));
    const int height = std::min(heightForWidth(width) > 0 ? heightForWidth(width) : sizeHint().height(),
                                std::max(60, m_covered->height() - 20));
    setGeometry((m_covered->width() - width) / 2, (m_covered->height() - height) / 2, width, height);
}

} // namespace crossroof::widgets
