// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/support/error.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace crossroof::test {

/// The message of the InputError that FN throws, or an empty string if it throws none. Any other exception
/// escapes and fails the test.
template<typename Fn>
QString inputErrorOf(Fn &&fn)
{
    try {
        fn();
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

/// A file of BYTES bytes that costs no disk: a short first line, then a hole (ftruncate).
inline void makeSparseFile(const std::string &path, std::uintmax_t bytes, const std::string &firstLine)
{
    {
        std::ofstream out(path, std::ios::binary);
        out << firstLine;
    }
    std::filesystem::resize_file(path, bytes);
}

} // namespace crossroof::test
