// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_support.h"

#include "args.h"
#include "support/error.h"
#include "support/numbers.h"
#include "profiles/profile_library.h"

#include <cstdio>
#include <optional>

namespace crossroof::cli {

std::string fmt(double v, const char *spec)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

ModelInputs modelInputs(const Args &args)
{
    ModelInputs in{core::resolveProfile(args.value("profile", std::string(core::defaultProfileId()))), {}};
    in.params = in.profile.params;
    applySets(args, in.params);
    return in;
}

void applySets(const Args &args, core::XModelParams &params)
{
    for (const std::string &assignment : args.all("set")) {
        const auto eq = assignment.find('=');
        if (eq == std::string::npos || eq == 0)
            throw core::InputError("option '--set': expected KEY=VALUE (got '" + assignment + "')");
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

double probabilityValue(const std::string &text, const std::string &what)
{
    const std::optional<double> v = core::parseNumber(text);
    if (!v)
        throw core::InputError(what + ": '" + text + "' is not a number");
    if (!(*v >= 0 && *v <= 1))
        throw core::InputError(what + ": must be between 0 and 1 (got " + text + ")");
    return *v;
}

} // namespace crossroof::cli
