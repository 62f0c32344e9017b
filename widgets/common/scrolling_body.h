// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QScrollArea>

namespace crossroof::widgets {

/// BODY in a frameless scroll area that shows it at its full size where there is room and scrolls it where the
/// window is smaller: a dialog built with its body in one and its buttons outside can be as small as a screen
/// at a scale factor of 2 (800x500 device-independent pixels on a 1600x1000 laptop), with its buttons in sight.
inline QScrollArea *scrollingBody(QWidget *body, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setWidget(body);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace crossroof::widgets
