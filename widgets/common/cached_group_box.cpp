// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/cached_group_box.h"

#include <QPaintEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionGroupBox>

namespace crossroof::widgets {

CachedGroupBox::CachedGroupBox(const QString &title, QWidget *parent)
    : QGroupBox(title, parent)
{
}

CachedGroupBox::Frame CachedGroupBox::currentFrame() const
{
    Frame frame;
    initStyleOption(&frame.option);
    frame.title = style()->subControlRect(QStyle::CC_GroupBox, &frame.option, QStyle::SC_GroupBoxLabel, this);
    frame.key = {size(),
                 devicePixelRatioF(),
                 frame.option.text,
                 frame.option.palette.cacheKey(),
                 font(),
                 int(frame.option.state),
                 int(frame.option.features),
                 style()};
    return frame;
}

void CachedGroupBox::paintEvent(QPaintEvent *event)
{
    if (isCheckable()) {
        QGroupBox::paintEvent(event); // its look follows the mouse and the check state
        return;
    }
    const Frame frame = currentFrame();
    if (event->rect().intersects(frame.title)) {
        QGroupBox::paintEvent(event); // the title's text, drawn as the screen wants text drawn
        return;
    }
    if (frame.key != m_pictureKey || m_picture.isNull()) {
        const qreal dpr = devicePixelRatioF();
        m_picture = QPixmap(size() * dpr);
        m_picture.setDevicePixelRatio(dpr);
        m_picture.fill(Qt::transparent);
        QPainter painter(&m_picture);
        style()->drawComplexControl(QStyle::CC_GroupBox, &frame.option, &painter, this);
        m_pictureKey = frame.key;
        ++m_framesRendered;
    }
    QPainter painter(this);
    painter.setClipRegion(event->region());
    painter.drawPixmap(0, 0, m_picture);
    ++m_paintsFromPicture;
}

} // namespace crossroof::widgets
