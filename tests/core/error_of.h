// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The message of a refusal, for tests that check what a user is told.

#include "core/support/error.h"

#include <QString>

namespace crossroof::test {

/// What the core::InputError that F throws says, or an empty string when F throws none.
template<typename F>
QString errorOf(F &&f)
{
    try {
        f();
    } catch (const core::InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace crossroof::test
