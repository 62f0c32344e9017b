// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string_view>

namespace crossroof::widgets {

/// A UTF-8 string view from core (keys, names, messages) as a QString.
inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace crossroof::widgets
