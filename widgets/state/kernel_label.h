// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/ncu_csv.h"

#include <QString>

namespace crossroof::widgets {

/// The label of KERNEL as the imported ncu trace and the table name it: "short name [ID]".
QString kernelLabel(const core::NcuKernel &kernel);

/// A short label for a kernel's point on a plot: core::baseKernelName() of SHORTNAME (no namespaces, no
/// template arguments: at::<unnamed>::kernel<float> is "kernel"), cut to 28 characters, and its launch ID:
/// "xkernel [3]".
QString shortKernelLabel(const std::string &shortName, const std::string &id);

} // namespace crossroof::widgets
