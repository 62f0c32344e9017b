// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The render command with the GUI's drawing code: it links Qt Widgets, so it runs in the crossroof-render
// helper, not in crossroof-cli itself (which runs the helper through kRenderProxyCommand).

#include "commands.h"

namespace crossroof::cli {

/// Draws a view of a session to a file with the GUI's drawing code (built with the GUI only).
extern const Command kRenderCommand;

} // namespace crossroof::cli
