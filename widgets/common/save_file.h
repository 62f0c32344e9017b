// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <QString>

namespace crossroof::widgets {

/// Writes DATA to PATH atomically: to a temporary file beside it, renamed over PATH only when every byte
/// reached the disk, so that a failure (a full disk, a read-only folder, the file size limit) leaves any old
/// file whole. Returns an empty string, or the system's reason ("No space left on device"). A symbolic link
/// or anything but a regular file at PATH is refused, untouched (core::writeFileAtomically()).
QString saveFileAtomically(const QString &path, QByteArrayView data);

} // namespace crossroof::widgets
