// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/hardware_profile.h"

#include "core/support/error.h"
#include "core/profiles/profile_json.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/support/utf8.h"

#include <algorithm>
#include <array>
#include <set>

namespace crossroof::core {

namespace {

using detail::json;
using detail::JsonReader;

constexpr std::array kTopLevelKeys{"format_version", "id",         "name",     "kind",       "architecture",
                                   "compute_capability", "fp64_lanes_sm", "description", "parameters", "topology",
                                   "core_model", "sources", "notes"};

/// The name a source gives in its fields for a profile's core_model object.
constexpr const char *kCoreModelField = "core_model";
/// Likewise for the FP64 rate of a device that differs from its compute capability's.
constexpr const char *kFp64Field = "fp64_lanes_sm";

bool validId(const std::string &id)
{
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    });
}

bool validComputeCapability(const std::string &cc)
{
    const auto dot = cc.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == cc.size())
        return false;
    return std::all_of(cc.begin(), cc.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); })
        && std::count(cc.begin(), cc.end(), '.') == 1;
}

/// The "sources" array; every machine parameter the profile gives (all but the optional ones are required)
/// must be named by a source, and so must "core_model" when the profile has one.
std::vector<ProfileSource> readSources(const JsonReader &r, const json &obj, const json &parameters)
{
    const json &arr = r.require(obj, "sources", "sources");
    if (!arr.is_array() || arr.empty())
        r.fail("sources", "must be a non-empty array of {\"fields\": [...], \"text\": \"...\"}");
    std::vector<ProfileSource> sources;
    std::set<std::string> named;
    for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string path = "sources[" + std::to_string(i) + "]";
        const json &entry = arr[i];
        if (!entry.is_object())
            r.fail(path, "must be an object");
        ProfileSource src;
        src.text = r.string(entry, "text", path + ".text", true);
        const json &fields = r.require(entry, "fields", path + ".fields");
        if (!fields.is_array())
            r.fail(path + ".fields", "must be an array of parameter keys");
        for (const auto &f : fields) {
            if (!f.is_string())
                r.fail(path + ".fields", "must contain only strings");
            const auto key = f.get<std::string>();
            if (key != "cache" && key != kCoreModelField && key != kFp64Field && !findParameter(key))
                r.fail(path + ".fields", "names an unknown parameter '" + key + "'");
            named.insert(key);
            src.fields.push_back(key);
        }
        sources.push_back(std::move(src));
    }
    for (const auto &info : parameterInfos()) {
        const std::string key(info.key);
        const bool given = !info.optional_in_profile || parameters.contains(key);
        if (info.side == ParameterSide::Machine && given && !named.count(key))
            r.fail("sources", "no source names the machine parameter '" + std::string(info.key) + "'");
    }
    if (obj.contains(kCoreModelField) && !named.count(kCoreModelField))
        r.fail("sources", "no source names 'core_model' (say where the latencies and pipelines come from)");
    if (obj.contains(kFp64Field) && !named.count(kFp64Field))
        r.fail("sources", "no source names 'fp64_lanes_sm' (say where the FP64 rate comes from)");
    return sources;
}

} // namespace

HardwareProfile parseProfile(std::string_view text, const std::string &label)
{
    const json doc = detail::parseJsonText(text, label);
    if (!doc.is_object())
        throw InputError(label + ": a profile must be a JSON object");
    HardwareProfile prof = detail::profileFromJson(doc, JsonReader(label));
    prof.origin = label;
    return prof;
}

HardwareProfile loadProfileFile(const std::filesystem::path &path)
{
    return parseProfile(readTextFile(path, kMaxProfileBytes, "profile files"), path.string());
}

std::string profileToText(const HardwareProfile &profile)
{
    auto j = detail::profileToJson(profile);
    escapeInvalidUtf8InJson(j); // a Latin-1 file name in a source or the origin: "\xe9", not a failed save
    return nlohmann::ordered_json::parse(j.dump()).dump(2) + "\n";
}

namespace detail {

void readParameters(const JsonReader &r, const json &obj, XModelParams &p)
{
    if (!obj.is_object())
        r.fail("parameters", std::string("must be an object (got ") + obj.type_name() + ")");
    for (const auto &[key, value] : obj.items()) {
        const std::string path = "parameters." + key;
        if (key == "cache") {
            if (!value.is_string())
                r.fail(path, std::string("must be a string (got ") + value.type_name() + ")");
            const auto mode = cacheModeFromName(value.get<std::string>());
            if (!mode)
                r.fail(path, "must be " + std::string(cacheModeChoices()) + " (got '"
                                     + brief(value.get<std::string>()) + "')");
            p.cache = *mode;
            continue;
        }
        const ParameterInfo *info = findParameter(key);
        if (!info)
            r.fail(path, "is not a known parameter");
        if (!value.is_number())
            r.fail(path, std::string("must be a number (got ") + value.type_name() + ")");
        const double v = value.get<double>();
        if (auto problem = checkValue(*info, v))
            r.fail(path, *problem);
        p.*(info->member) = v;
    }
    for (const auto &info : parameterInfos()) {
        if (info.side == ParameterSide::Machine && !info.optional_in_profile && !obj.contains(std::string(info.key)))
            r.fail("parameters." + std::string(info.key), "is missing (a machine parameter every profile needs)");
    }
    if (!obj.contains("n"))
        p.n = p.max_warps;
}

HardwareProfile profileFromJson(const json &doc, const JsonReader &r)
{
    r.checkKeys(doc, "", kTopLevelKeys, "a profile field");
    const json &version = r.require(doc, "format_version", "format_version");
    if (!version.is_number_integer() || version.get<long long>() != 1)
        r.fail("format_version",
               "must be 1 (got " + describeValue(version) + "); this Crossroof reads version 1");

    HardwareProfile prof;
    prof.id = r.string(doc, "id", "id", true);
    if (!validId(prof.id))
        r.fail("id", "must use only lower-case letters, digits, '-', '_' and '.' (got '" + brief(prof.id) + "')");
    prof.name = r.string(doc, "name", "name", true);
    prof.kind = r.string(doc, "kind", "kind", true);
    if (prof.kind != "gpu" && prof.kind != "cpu")
        r.fail("kind", "must be gpu or cpu (got '" + brief(prof.kind) + "')");
    prof.architecture = r.string(doc, "architecture", "architecture", false);
    prof.compute_capability = r.string(doc, "compute_capability", "compute_capability", false);
    if (!prof.compute_capability.empty() && !validComputeCapability(prof.compute_capability))
        r.fail("compute_capability", "must look like 8.0 (got '" + brief(prof.compute_capability) + "')");
    if (doc.contains(kFp64Field)) {
        if (prof.kind != "gpu")
            r.fail(kFp64Field, "is for GPU profiles only (kind is '" + prof.kind + "')");
        prof.fp64_lanes_sm = int(r.integer(doc, kFp64Field, kFp64Field, 1, 1024, std::nullopt));
    }
    prof.description = r.string(doc, "description", "description", false);
    readParameters(r, r.require(doc, "parameters", "parameters"), prof.params);
    if (doc.contains("topology"))
        prof.topology = topologyFromJson(doc["topology"], r);
    if (doc.contains(kCoreModelField)) {
        if (prof.kind != "cpu")
            r.fail(kCoreModelField, "is for CPU profiles only (kind is '" + prof.kind + "')");
        prof.core_model = coreModelFromJson(doc[kCoreModelField], r);
    }
    prof.sources = readSources(r, doc, doc.at("parameters"));
    prof.origin = r.label();
    return prof;
}

json parametersToJson(const XModelParams &p)
{
    json j = json::object();
    for (const auto &info : parameterInfos())
        j[std::string(info.key)] = p.*(info.member);
    j["cache"] = std::string(cacheModeName(p.cache));
    return j;
}

json profileToJson(const HardwareProfile &prof)
{
    json j = json::object();
    j["format_version"] = 1;
    j["id"] = prof.id;
    j["name"] = prof.name;
    j["kind"] = prof.kind;
    if (!prof.architecture.empty())
        j["architecture"] = prof.architecture;
    if (!prof.compute_capability.empty())
        j["compute_capability"] = prof.compute_capability;
    if (prof.fp64_lanes_sm)
        j[kFp64Field] = *prof.fp64_lanes_sm;
    if (!prof.description.empty())
        j["description"] = prof.description;
    j["parameters"] = parametersToJson(prof.params);
    // An optional machine key at its default that no source names is left out, as in the file it came from
    // (a profile that gives a machine number must say where it comes from).
    for (const auto &info : parameterInfos()) {
        const std::string key(info.key);
        const auto names = [&key](const ProfileSource &s) {
            return std::find(s.fields.begin(), s.fields.end(), key) != s.fields.end();
        };
        const bool atDefault = prof.params.*(info.member) == XModelParams{}.*(info.member);
        const bool unsourced = std::none_of(prof.sources.begin(), prof.sources.end(), names);
        if (info.optional_in_profile && atDefault && unsourced)
            j["parameters"].erase(key);
    }
    if (prof.topology)
        j["topology"] = topologyToJson(*prof.topology);
    if (prof.core_model)
        j[kCoreModelField] = coreModelToJson(*prof.core_model);
    json sources = json::array();
    for (const auto &s : prof.sources)
        sources.push_back({{"fields", s.fields}, {"text", s.text}});
    j["sources"] = sources;
    return j;
}

} // namespace detail

} // namespace crossroof::core
