// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>
#include <string_view>

namespace crossroof::core::detail {

/// One bundled profile file, embedded at build time from hardware_profiles/ (core/embed_files.cmake).
struct BundledProfileFile
{
    std::string_view name;
    std::string_view json;
};

std::span<const BundledProfileFile> bundledProfileFiles();

} // namespace crossroof::core::detail
