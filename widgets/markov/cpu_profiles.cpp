// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/cpu_profiles.h"

#include "core/profiles/profile_library.h"

namespace crossroof::widgets {

std::vector<core::HardwareProfile> cpuProfiles(const core::HardwareProfile &current)
{
    std::vector<core::HardwareProfile> cpus;
    for (const auto &prof : core::bundledProfiles()) {
        if (prof.topology)
            cpus.push_back(prof);
    }
    if (current.topology) {
        std::erase_if(cpus, [&](const core::HardwareProfile &p) { return p.id == current.id; });
        cpus.insert(cpus.begin(), current);
    }
    return cpus;
}

} // namespace crossroof::widgets
