// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QObject;

namespace crossroof::app {

/// Every dialog of the application opens with its first field focused (the first line edit, spin box, combo box
/// or editable text in its tab order), so that a user types at once: Qt gives the focus to the default button
/// when the first widget that takes it is a button (an Import… or Browse… before the fields). A dialog that put
/// the focus on a field itself keeps it; message boxes, file and progress dialogs are left as Qt opens them.
/// The filter lives as long as OWNER.
void focusFirstFieldOfDialogs(QObject *owner);

} // namespace crossroof::app
