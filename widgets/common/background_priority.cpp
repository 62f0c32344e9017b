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

void lowerThreadPriority(BackgroundPriority priority)
{
#if defined(__linux__)
    if (priority == BackgroundPriority::Idle) {
        sched_param none {};
        if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) == 0)
            return;
    }
    // Linux schedules threads as tasks: PRIO_PROCESS with a thread id sets that thread's nice value alone.
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    if (getpriority(PRIO_PROCESS, tid) < 10)
        setpriority(PRIO_PROCESS, tid, 10);
#else
    (void)priority;
#endif
}

} // namespace crossroof::widgets
