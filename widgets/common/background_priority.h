// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::widgets {

/// How far below the GUI thread a background thread runs.
enum class BackgroundPriority {
    /// Below the GUI thread (Linux: nice 10): work whose result the user waits for, such as a hysteresis sweep,
    /// the advice or a model's training; it still gets a share of a machine that other programs keep busy.
    Lower,
    /// Only on what no other thread wants (Linux: the SCHED_IDLE class): the refinement of a result already
    /// shown, such as the stability map's finer levels. A thread of normal priority that wakes takes its core at
    /// once: Qt's raster engine splits a tall fill of the GUI thread's paint among Qt's pool threads and waits for
    /// them, and behind a thread at nice 10 a woken pool thread could wait a time slice (3 to 7 ms), the paint
    /// with it. On a machine whose every core is busy the refinement waits until one is free.
    Idle,
};

/// Called first thing in a thread that computes for a view in the background: lowers the thread's scheduling
/// priority to PRIORITY, so that the GUI thread, which draws what the user moves, gets a core first on a small
/// machine; threads it starts inherit the priority. Elsewhere than on Linux nothing changes.
void lowerThreadPriority(BackgroundPriority priority);

} // namespace crossroof::widgets
