// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiles/profile_library.h"

#include "profiles/bundled_profiles.h"
#include "support/error.h"

#include <algorithm>

namespace crossroof::core {

const std::vector<HardwareProfile> &bundledProfiles()
{
    static const std::vector<HardwareProfile> profiles = [] {
        std::vector<HardwareProfile> list;
        for (const auto &file : detail::bundledProfileFiles()) {
            auto prof = parseProfile(file.json, std::string("hardware_profiles/") + std::string(file.name));
            prof.origin = "bundled";
            list.push_back(std::move(prof));
        }
        std::stable_sort(list.begin(), list.end(), [](const HardwareProfile &a, const HardwareProfile &b) {
            return a.kind != b.kind ? a.kind > b.kind : a.name < b.name; // GPUs first
        });
        return list;
    }();
    return profiles;
}

const HardwareProfile *findBundledProfile(std::string_view id)
{
    const auto &all = bundledProfiles();
    const auto it = std::find_if(all.begin(), all.end(), [id](const HardwareProfile &p) { return p.id == id; });
    return it == all.end() ? nullptr : &*it;
}

std::string_view defaultProfileId()
{
    return "gtx570-sp";
}

HardwareProfile resolveProfile(const std::string &idOrPath)
{
    const bool looksLikePath = idOrPath.find('/') != std::string::npos
        || (idOrPath.size() > 5 && idOrPath.compare(idOrPath.size() - 5, 5, ".json") == 0);
    if (looksLikePath)
        return loadProfileFile(idOrPath);
    if (const HardwareProfile *p = findBundledProfile(idOrPath))
        return *p;
    std::string known;
    for (const auto &p : bundledProfiles())
        known += (known.empty() ? "" : ", ") + p.id;
    throw InputError("unknown profile '" + idOrPath + "' (bundled: " + known + ")");
}

} // namespace crossroof::core
