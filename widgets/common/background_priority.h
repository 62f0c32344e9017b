// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::widgets {

/// Called first thing in a thread that computes for a view in the background (the stability map's refinement,
/// a hysteresis sweep, the advisor): lowers the thread's scheduling priority, so that the GUI thread, which
/// draws what the user moves, and the threads that help it paint, get a core first on a small machine; threads
/// it starts inherit the priority. On Linux the thread is put in the SCHED_IDLE class (its nice value raised to
/// 10 where that is refused); elsewhere nothing changes.
void lowerThreadPriority();

} // namespace crossroof::widgets
