// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/ncu_csv.h"

#include <QString>

namespace crossroof::widgets {

/// The label of KERNEL as the imported ncu trace and the table name it: "short name [ID]".
QString kernelLabel(const core::NcuKernel &kernel);

} // namespace crossroof::widgets
