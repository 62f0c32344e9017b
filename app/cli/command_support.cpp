// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_support.h"

#include "trace_selection.h"

#include "args.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/profiles/profile_library.h"

#include <sys/stat.h>

#include <charconv>
#include <filesystem>
#include <utility>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace crossroof::cli {

std::string fmt(double v, const char *spec)
{
    if (!std::isfinite(v))
        throw std::logic_error(std::string("text output: a number that is not finite (printed with ") + spec + ")");
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

std::string siQuantity(double giga, const std::string &unit, bool signed_)
{
    static constexpr const char *kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int power = 3; // G
    double v = giga;
    while (v != 0 && std::abs(v) < 1 && power > 0) {
        v *= 1000;
        --power;
    }
    while (std::abs(v) >= 999.95 && power < 6) {
        v /= 1000;
        ++power;
    }
    return fmt(v, signed_ ? "%+.4g" : "%.4g") + ' ' + kPrefixes[power] + unit;
}

ModelInputs modelInputs(const Args &args)
{
    ModelInputs in{core::resolveProfile(args.value("profile", std::string(core::defaultProfileId()))), {}};
    in.params = in.profile.params;
    applySets(args, in.params);
    // Commands whose spec has --supply/--demand take a measured f(k) or g(x) in place of the analytic curve.
    in.params.measured_f = measuredCurveOption(args, "supply");
    in.params.measured_g = measuredCurveOption(args, "demand");
    return in;
}

void applySets(const Args &args, core::XModelParams &params)
{
    for (const std::string &assignment : args.all("set")) {
        const auto eq = assignment.find('=');
        if (eq == std::string::npos || eq == 0)
            throw core::InputError("option '--set': expected KEY=VALUE (got '" + core::quoteForMessage(assignment) + "')");
        core::setFromText(params, assignment.substr(0, eq), assignment.substr(eq + 1));
    }
}

Json parametersJson(const core::XModelParams &p)
{
    Json j;
    for (const auto &info : core::parameterInfos())
        j[std::string(info.key)] = p.*(info.member);
    j["cache"] = core::cacheModeName(p.cache);
    return j;
}

OutputFormat outputFormat(const Args &args)
{
    OutputFormat format = OutputFormat::Text;
    if (args.has("format")) {
        const std::string key = args.value("format");
        if (key == "json")
            format = OutputFormat::Json;
        else if (key == "csv")
            format = OutputFormat::Csv;
        else if (key != "text")
            throw core::InputError("option '--format': must be text, json or csv (got '" + core::quoteForMessage(key) + "')");
    }
    if (args.flag("json")) {
        if (format == OutputFormat::Csv || (args.has("format") && format == OutputFormat::Text))
            throw core::InputError("option '--json': conflicts with '--format " + core::quoteForMessage(args.value("format")) + "'");
        format = OutputFormat::Json;
    }
    return format;
}

std::string csvText(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string csvNumber(double v)
{
    if (!std::isfinite(v))
        return {};
    char buf[64];
    const auto result = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, result.ptr);
}

std::string csvInteger(long long v)
{
    return std::to_string(v);
}

std::string csvColumn(std::string_view key, std::string_view unit)
{
    std::string name(key);
    if (unit.empty())
        return name;
    name += '_';
    for (const char c : unit) {
        if (c == '/')
            name += "_per_";
        else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
            name += c;
        else
            name += '_';
    }
    return name;
}

std::string csvParameterColumn(const std::string &key)
{
    const core::ParameterInfo *info = core::findParameter(key);
    return csvColumn(key, info ? info->unit : std::string_view());
}

void writeCsvRow(std::ostream &out, const std::vector<std::string> &fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i)
        out << (i ? "," : "") << fields[i];
    out << '\n';
}

double probabilityValue(const std::string &text, const std::string &what)
{
    return decimalValue(text, what, 0, 1);
}

void refuseOutputOverInput(const Args &args, const std::string &outOption, std::initializer_list<const char *> fileOptions,
                           const FolderInputs &folder)
{
    const std::string out = args.value(outOption);
    struct stat target{};
    if (out.empty() || out == "-" || ::stat(out.c_str(), &target) != 0)
        return;
    std::vector<std::pair<std::string, std::string>> inputs; // how a message names it, path
    for (const char *option : fileOptions) {
        for (const std::string &path : args.all(option))
            inputs.emplace_back(std::string("'--") + option + "'", path);
    }
    if (folder.option && args.has(folder.option)) {
        for (const std::string &name : folder.names)
            inputs.emplace_back(std::string("'--") + folder.option + "' (its " + name + ")",
                                (std::filesystem::path(args.value(folder.option)) / name).string());
    }
    for (const auto &[option, path] : inputs) {
        struct stat source{};
        if (path.empty() || path == "-" || ::stat(path.c_str(), &source) != 0)
            continue;
        if (source.st_dev == target.st_dev && source.st_ino == target.st_ino) {
            throw core::InputError("option '--" + outOption + "': '" + out + "' is the file given with " + option
                                   + (out == path ? std::string() : " (the same file by another path)")
                                   + "; writing it would replace that input, so nothing was written");
        }
    }
}

} // namespace crossroof::cli
