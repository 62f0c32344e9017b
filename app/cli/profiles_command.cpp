// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "command_support.h"
#include "core/profiles/profile_library.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace crossroof::cli {

namespace {

using Json = nlohmann::ordered_json;

void runProfiles(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err)
{
    const Args args(argv, {{"json"}, {}, {}});
    std::vector<std::string> problems;
    std::vector<core::HardwareProfile> profiles = core::bundledProfiles();
    for (auto &p : core::loadUserProfiles(core::userProfileDir(), problems))
        profiles.push_back(std::move(p));
    for (const auto &problem : problems)
        err << "crossroof-cli profiles: " << problem << '\n';
    if (!args.flag("json")) {
        for (const auto &p : profiles) {
            out << p.id << std::string(p.id.size() < 14 ? 14 - p.id.size() : 1, ' ') << p.kind << "  "
                << p.name << (p.id == core::defaultProfileId() ? "  (default)" : "")
                << (p.user ? "  (user: " + p.origin + ")" : "") << '\n';
        }
        return;
    }
    Json list = Json::array();
    for (const auto &p : profiles) {
        Json j;
        j["id"] = p.id;
        j["name"] = p.name;
        j["kind"] = p.kind;
        j["architecture"] = p.architecture;
        j["compute_capability"] = p.compute_capability.empty() ? Json(nullptr) : Json(p.compute_capability);
        j["default"] = p.id == core::defaultProfileId();
        j["user"] = p.user;
        j["origin"] = p.origin;
        j["sm_count"] = p.params.sm_count;
        j["clock_ghz"] = p.params.clock_ghz;
        j["R"] = p.params.R;
        j["L"] = p.params.L;
        j["M"] = p.params.M;
        j["delta"] = p.params.requestRate() * p.params.L;
        j["description"] = p.description;
        Json sources = Json::array();
        for (const auto &s : p.sources)
            sources.push_back({{"fields", s.fields}, {"text", s.text}});
        j["sources"] = sources;
        list.push_back(j);
    }
    out << jsonOutput(list) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli profiles [--json]\n\n"
          "Lists the hardware profiles: the bundled ones, then the user's own (every *.json in\n"
          "$XDG_DATA_HOME/Crossroof/profiles, by default ~/.local/share/Crossroof/profiles, where the\n"
          "GUI saves them), each with id, kind and name; with --json also \"user\", the file it came\n"
          "from, the main parameters and the source of every number. A user file that does not load,\n"
          "or that reuses a bundled id, is skipped with a message on stderr. --profile ID finds user\n"
          "profiles too.\n";

} // namespace

const Command kProfilesCommand{"profiles", "list the bundled and the user's hardware profiles", kHelp,
                               nullptr, runProfiles};

} // namespace crossroof::cli
