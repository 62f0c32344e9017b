// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QGroupBox>
#include <QPixmap>
#include <QString>
#include <QStyleOptionGroupBox>

namespace crossroof::widgets {

/// A group box that repaints its frame from a picture. The slider, spin box and labels inside a group box paint
/// no background of their own, so every step of a drag repaints the box below them too, and the Fusion style
/// loads its frame image again for each such paint (it checks the image file's time). This box renders its
/// frame once for its size, title, palette, font and style and copies the part a repaint asks for; a repaint
/// that reaches the title, or any paint of a checkable box, is drawn by the style as QGroupBox draws it.
class CachedGroupBox : public QGroupBox
{
public:
    explicit CachedGroupBox(const QString &title, QWidget *parent = nullptr);

    /// How many times the frame was rendered into the picture (tests).
    int framesRendered() const { return m_framesRendered; }
    /// How many paints copied from the picture (tests).
    int paintsFromPicture() const { return m_paintsFromPicture; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    /// Everything the style's drawing of a box that cannot be checked depends on.
    struct Key
    {
        QSize size;
        qreal dpr = 0;
        QString title;
        qint64 palette = 0;
        QFont font;
        int state = 0;
        int features = 0;
        const QStyle *style = nullptr;
        bool operator==(const Key &) const = default;
    };
    /// The style option, its title rectangle, and the key of the picture it gives.
    struct Frame
    {
        QStyleOptionGroupBox option;
        QRect title;
        Key key;
    };
    Frame currentFrame() const;

    QPixmap m_picture;
    Key m_pictureKey;
    int m_framesRendered = 0;
    int m_paintsFromPicture = 0;
};

} // namespace crossroof::widgets
