// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::widgets {

/// Called first thing in a thread that computes for a view in the background (the stability map's refinement,
/// a hysteresis sweep, the advisor): lowers the thread's scheduling priority, so that the GUI thread, which
/// draws what the user moves, gets a core first on a small machine; threads it starts inherit the priority.
/// On Linux the thread's nice value is raised to 10; elsewhere nothing changes.
void lowerThreadPriority();

} // namespace crossroof::widgets
