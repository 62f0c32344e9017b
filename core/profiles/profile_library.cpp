// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/profile_library.h"

#include "core/profiles/bundled_profiles.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"

#include <algorithm>
#include <cstdlib>

namespace crossroof::core {

namespace {

/// Whether resolveProfile() reads ID_OR_PATH as a file: "-", a name with a '/', or one ending in ".json".
bool looksLikeProfilePath(const std::string &idOrPath)
{
    return idOrPath == "-" || idOrPath.find('/') != std::string::npos
        || (idOrPath.size() > 5 && idOrPath.compare(idOrPath.size() - 5, 5, ".json") == 0);
}

} // namespace

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

std::filesystem::path userProfileDir()
{
    std::filesystem::path base;
    const char *xdg = std::getenv("XDG_DATA_HOME");
    if (xdg && std::filesystem::path(xdg).is_absolute()) {
        base = xdg;
    } else {
        const char *home = std::getenv("HOME");
        if (!home || !*home)
            return {};
        base = std::filesystem::path(home) / ".local" / "share";
    }
    return base / "Crossroof" / "profiles";
}

std::vector<HardwareProfile> loadUserProfiles(const std::filesystem::path &dir,
                                              std::vector<std::string> &problems)
{
    std::vector<HardwareProfile> profiles;
    std::error_code ec;
    if (dir.empty() || !std::filesystem::is_directory(dir, ec))
        return profiles;
    std::vector<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeError;
        if (it->path().extension() == ".json" && it->is_regular_file(typeError))
            files.push_back(it->path());
    }
    if (ec)
        problems.push_back(dir.string() + ": cannot list the profile directory: " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto &file : files) {
        try {
            HardwareProfile prof = loadProfileFile(file);
            if (findBundledProfile(prof.id)) {
                problems.push_back(file.string() + ": skipped: id '" + prof.id
                                   + "' is a bundled profile's id (give the user profile an id of its own)");
                continue;
            }
            const auto same = [&prof](const HardwareProfile &p) { return p.id == prof.id; };
            if (const auto it = std::find_if(profiles.begin(), profiles.end(), same); it != profiles.end()) {
                problems.push_back(file.string() + ": skipped: id '" + prof.id + "' is already taken by "
                                   + it->origin);
                continue;
            }
            prof.user = true;
            profiles.push_back(std::move(prof));
        } catch (const InputError &e) {
            problems.push_back(std::string("skipped: ") + e.what()); // the message starts with the file
        } catch (const std::exception &e) {
            problems.push_back(file.string() + ": skipped: " + e.what());
        }
    }
    return profiles;
}

HardwareProfile resolveProfile(const std::string &idOrPath, const std::vector<HardwareProfile> &userProfiles)
{
    if (looksLikeProfilePath(idOrPath))
        return loadProfileFile(idOrPath);
    if (const HardwareProfile *p = findBundledProfile(idOrPath))
        return *p;
    const auto same = [&idOrPath](const HardwareProfile &p) { return p.id == idOrPath; };
    const auto it = std::find_if(userProfiles.begin(), userProfiles.end(), same);
    if (it != userProfiles.end())
        return *it;
    std::string known;
    for (const auto &p : bundledProfiles())
        known += (known.empty() ? "" : ", ") + p.id;
    std::vector<std::string> user;
    for (const auto &p : userProfiles)
        user.push_back(p.id);
    // Every bundled id (a few dozen, the ones a user looks for), the user's cut to a line's worth.
    throw InputError("unknown profile '" + quoteForMessage(idOrPath) + "' (bundled: " + known
                     + (user.empty() ? "" : "; user: " + briefList(user, 240)) + ")");
}

HardwareProfile resolveProfile(const std::string &idOrPath)
{
    // A file or a bundled id needs nothing of the user's folder, whose files may be many, large or broken.
    if (looksLikeProfilePath(idOrPath))
        return loadProfileFile(idOrPath);
    if (const HardwareProfile *p = findBundledProfile(idOrPath))
        return *p;
    std::vector<std::string> problems;
    const auto user = loadUserProfiles(userProfileDir(), problems);
    try {
        return resolveProfile(idOrPath, user);
    } catch (const InputError &e) {
        // A few of the skipped files, not a line as long as every one of their problems.
        throw InputError(problems.empty() ? std::string(e.what()) : std::string(e.what()) + "; " + problemList(problems));
    }
}

} // namespace crossroof::core
