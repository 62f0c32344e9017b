// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The sample skeletons (docs/samples/skeletons/*.skel), embedded at build time so that the GUI and the CLI
// always have them.

#include <span>
#include <string_view>

namespace crossroof::core {

struct BundledSkeleton
{
    std::string_view name; ///< the file name, "haccmk.skel"
    std::string_view text;
};

/// Every sample, sorted by file name.
std::span<const BundledSkeleton> bundledSkeletons();

} // namespace crossroof::core
