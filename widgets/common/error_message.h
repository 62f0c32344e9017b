// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QWidget;

namespace crossroof::widgets {

/// Tells the user MESSAGE in a window-modal box over PARENT that does not block (the application, and a test
/// driving it, keeps running). The box is named "ErrorMessage" and deletes itself when closed.
void showError(QWidget *parent, const QString &message);

} // namespace crossroof::widgets
