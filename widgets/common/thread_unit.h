// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <QCoreApplication>
#include <QString>

namespace crossroof::widgets {

/// What n, k and x count on PROFILE's device: warps on a GPU, hardware threads on a CPU (where one thread is the
/// model's "warp").
inline QString threadUnit(const core::HardwareProfile &profile)
{
    return profile.kind == "cpu" ? QCoreApplication::translate("crossroof", "threads")
                                 : QCoreApplication::translate("crossroof", "warps");
}

} // namespace crossroof::widgets
