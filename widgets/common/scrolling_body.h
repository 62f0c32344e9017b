// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QEvent>
#include <QFrame>
#include <QScrollArea>

namespace crossroof::widgets {

/// BODY in a frameless scroll area that lays it out in the room there is, down to BODY's minimum size, and
/// scrolls it where the window is smaller still: a dialog built with its body in one and its buttons outside can
/// be as small as a screen at a scale factor of 2 (800x500 device-independent pixels on a 1600x1000 laptop),
/// with its buttons in sight. (A scroll area resizing BODY itself would give a body with word-wrapped labels its
/// preferred height for the width and scroll where squeezing to the minimum fits.) The area is named
/// "DialogBody".
class ScrollingBody : public QScrollArea
{
public:
    ScrollingBody(QWidget *body, QWidget *parent)
        : QScrollArea(parent)
        , m_holder(new Holder(body))
    {
        setObjectName(QStringLiteral("DialogBody"));
        setFrameShape(QFrame::NoFrame);
        setWidget(m_holder);
        setWidgetResizable(true);
    }

private:
    /// Holds BODY without a layout of its own, so that the scroll area sees no height for width: BODY fills it
    /// and it is never smaller than BODY's minimum.
    class Holder : public QWidget
    {
    public:
        explicit Holder(QWidget *body)
            : m_body(body)
        {
            body->setParent(this);
            body->installEventFilter(this);
        }
        QSize minimumSizeHint() const override { return m_body->minimumSizeHint(); }
        QSize sizeHint() const override { return m_body->minimumSizeHint(); }

    protected:
        void resizeEvent(QResizeEvent *) override { m_body->setGeometry(rect()); }
        bool eventFilter(QObject *watched, QEvent *event) override
        {
            if (watched == m_body && event->type() == QEvent::LayoutRequest)
                updateGeometry(); // the body's content changed its minimum
            return false;
        }

    private:
        QWidget *m_body;
    };

    Holder *m_holder;
};

} // namespace crossroof::widgets
