// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/profile_identity.h"

#include "core/markov/topology_json.h"
#include "core/skeleton/core_model_json.h"
#include "core/support/text.h"
#include "core/xmodel/parameters.h"

namespace crossroof::core {

namespace {

template<typename T, typename ToJson>
bool sameOptional(const std::optional<T> &a, const std::optional<T> &b, ToJson toJson)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || toJson(*a) == toJson(*b);
}

} // namespace

std::vector<std::string> profileDifferences(const HardwareProfile &library, const HardwareProfile &other)
{
    std::vector<std::string> keys;
    for (const ParameterInfo &info : parameterInfos()) {
        if (library.params.*(info.member) != other.params.*(info.member))
            keys.emplace_back(info.key);
    }
    if (library.params.cache != other.params.cache)
        keys.emplace_back("cache");
    const auto text = [&keys](const std::string &a, const std::string &b, const char *field) {
        if (a != b)
            keys.emplace_back(field);
    };
    text(library.name, other.name, "name");
    text(library.kind, other.kind, "kind");
    text(library.architecture, other.architecture, "architecture");
    text(library.compute_capability, other.compute_capability, "compute_capability");
    if (library.fp64_lanes_sm != other.fp64_lanes_sm)
        keys.emplace_back("fp64_lanes_sm");
    if (!sameOptional(library.topology, other.topology, detail::topologyToJson))
        keys.emplace_back("topology");
    if (!sameOptional(library.core_model, other.core_model, detail::coreModelToJson))
        keys.emplace_back("core_model");
    return keys;
}

std::string embeddedProfileLabel(const HardwareProfile &profile, const std::string &source,
                                 const std::vector<std::string> &differences)
{
    std::string label = profile.name + ", from " + source;
    if (!differences.empty())
        label += ": " + briefList(differences, 60) + (differences.size() == 1 ? " differs" : " differ");
    return label;
}

} // namespace crossroof::core
