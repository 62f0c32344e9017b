// SPDX-License-Identifier: GPL-3.0-or-later
// File paths between Qt and core: Qt 6 decodes every file name as UTF-8 and turns a byte that is not UTF-8
// (a Latin-1 "r\xe9sultats") into U+FFFD, whatever the locale, so such a path cannot reach core through
// QString::toStdString() or QFile::encodeName().
#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace crossroof::widgets {

/// The path NATIVE (bytes, as core and the system take them) as a QString that keeps every byte: UTF-8 is
/// decoded, and each byte that is not part of valid UTF-8 becomes the lone surrogate U+DC00 + byte (as
/// Python's "surrogateescape"), which shows as a replacement character. nativePath() gives the bytes back.
QString pathFromNative(std::string_view native);

/// The bytes of PATH for core: UTF-8, with each lone surrogate U+DC80..U+DCFF of pathFromNative() the byte it
/// stands for. A path typed or chosen in Qt (UTF-8 all through) comes out as toStdString() makes it.
std::string nativePath(const QString &path);

/// PATH (or a name) as it is shown: each byte that pathFromNative() kept as a lone surrogate becomes the
/// replacement character U+FFFD, as Qt's own decoding shows it; a lone surrogate is no character to draw,
/// type or copy. The path itself stays the one with the surrogates.
QString displayedPath(QString path);

} // namespace crossroof::widgets
