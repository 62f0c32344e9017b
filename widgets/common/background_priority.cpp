// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/background_priority.h"

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace crossroof::widgets {

void lowerThreadPriority()
{
#if defined(__linux__)
    // SCHED_IDLE: the thread runs on what no other thread wants, and a thread of normal priority that wakes
    // takes its core at once. Qt's raster engine splits a tall fill among the threads of Qt's global pool and
    // the painting thread waits for them: under nice 10 alone a woken pool thread could wait a time slice (3 to
    // 7 ms) for a refinement thread to yield, and the paint with it.
    sched_param none {};
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) == 0)
        return;
    // Linux schedules threads as tasks: PRIO_PROCESS with a thread id sets that thread's nice value alone.
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    if (getpriority(PRIO_PROCESS, tid) < 10)
        setpriority(PRIO_PROCESS, tid, 10);
#endif
}

} // namespace crossroof::widgets
