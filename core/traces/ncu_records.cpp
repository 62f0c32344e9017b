// SPDX-License-Identifier: GPL-3.0-or-later
// The records an Nsight Compute export yields: device facts, per-kernel derived values, short kernel names.
#include "core/traces/ncu_csv.h"

#include "core/support/text.h"
#include "core/traces/ncu_lexical.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

using namespace detail::ncu;

std::optional<double> NcuDevice::peakDramGbs() const
{
    if (!memory_clock_khz || !bus_width_bits || !(*memory_clock_khz > 0) || !(*bus_width_bits > 0))
        return std::nullopt;
    return 2 * *memory_clock_khz * 1e3 * *bus_width_bits / 8 / 1e9;
}

std::string NcuDevice::describe() const
{
    std::string text = name;
    const auto add = [&](const std::string &part) { text += (text.empty() ? "" : ", ") + part; };
    if (sm_count)
        add(formatNumber(*sm_count) + " SMs");
    if (!cc.empty())
        add("CC " + cc);
    return text.empty() ? "unknown device" : text;
}

std::string_view ncuFormName(NcuForm form)
{
    switch (form) {
    case NcuForm::Details:
        return "ncu-details";
    case NcuForm::Summary:
        return "ncu-summary";
    case NcuForm::Raw:
        return "ncu-raw";
    case NcuForm::NvprofMetrics:
        return "nvprof-metrics";
    case NcuForm::NvprofTrace:
        return "nvprof-trace";
    }
    return "ncu-details";
}

std::optional<double> NcuKernel::requests() const
{
    if (!requests_ld && !requests_st)
        return std::nullopt;
    return requests_ld.value_or(0) + requests_st.value_or(0);
}

std::optional<double> NcuKernel::sectors() const
{
    if (!sectors_ld && !sectors_st)
        return std::nullopt;
    return sectors_ld.value_or(0) + sectors_st.value_or(0);
}

std::optional<double> NcuKernel::intensity() const
{
    const auto r = requests();
    if (!instructions || !r || !(*r > 0))
        return std::nullopt;
    return *instructions / *r;
}

std::optional<double> NcuKernel::intensityFromSectors(double requestBytes) const
{
    constexpr double kSectorBytes = 32;
    const auto s = sectors();
    if (!instructions || !s || !(*s > 0) || !(requestBytes > 0))
        return std::nullopt;
    return *instructions / (*s * kSectorBytes / requestBytes);
}

std::optional<double> ncuRateToGbs(std::string_view unit)
{
    std::string_view base;
    if (unit.ends_with("/second"))
        base = unit.substr(0, unit.size() - 7);
    else if (unit.ends_with("/s"))
        base = unit.substr(0, unit.size() - 2);
    else
        return std::nullopt;
    if (base.empty() || !base.ends_with("byte"))
        return std::nullopt;
    const auto bytes = byteScale(base);
    if (!bytes)
        return std::nullopt;
    return *bytes / 1e9;
}

std::string shortKernelName(std::string_view name)
{
    std::string_view s = trimBlanks(name);
    // The parameter list: the last top-level "(...)" (a trailing " const" or similar may follow).
    int depth = 0;
    std::size_t open = std::string_view::npos;
    constexpr std::string_view kAnonymous = "(anonymous namespace)"; // a scope, not the parameter list
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '<' || c == '[')
            ++depth;
        else if ((c == '>' || c == ']') && depth > 0)
            --depth;
        else if (c == '(' && s.substr(i).starts_with(kAnonymous))
            i += kAnonymous.size() - 1;
        else if (c == '(' && depth == 0 && open == std::string_view::npos)
            open = i;
    }
    if (open == std::string_view::npos || open == 0)
        return std::string(s);
    s = trimBlanks(s.substr(0, open));
    // The return type: everything before the last top-level blank.
    depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '<' || c == '(' || c == '[')
            ++depth;
        else if ((c == '>' || c == ')' || c == ']') && depth > 0)
            --depth;
        else if (c == ' ' && depth == 0)
            start = i + 1;
    }
    const std::string_view shortName = s.substr(start);
    return shortName.empty() ? std::string(trimBlanks(name)) : std::string(shortName);
}

std::string baseKernelName(std::string_view name)
{
    // Anonymous namespaces are scopes, not template arguments or a parameter list.
    std::string full(name);
    for (const std::string_view anonymous :
         {std::string_view("<unnamed>::"), std::string_view("(anonymous namespace)::")}) {
        for (std::size_t at = full.find(anonymous); at != std::string::npos; at = full.find(anonymous, at))
            full.erase(at, anonymous.size());
    }
    const std::string s = shortKernelName(full);
    // The template arguments (every top-level "<...>"; a stray '>' is part of the name), then the scopes:
    // what follows the last top-level "::".
    std::string bare;
    int depth = 0;
    for (const char c : s) {
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (depth == 0)
            bare += c;
    }
    const std::size_t scope = bare.rfind("::");
    std::string out = scope == std::string::npos ? bare : bare.substr(scope + 2);
    out = std::string(trimBlanks(out));
    return out.empty() ? s : out;
}

void ncuOccupancyTrace(const NcuReport &report, std::vector<double> &warpsPerSm, std::vector<double> &gbs)
{
    warpsPerSm.clear();
    gbs.clear();
    for (const NcuKernel &k : report.kernels) {
        if (k.warps_per_sm && k.dram_gbs) {
            warpsPerSm.push_back(*k.warps_per_sm);
            gbs.push_back(*k.dram_gbs);
        }
    }
}

} // namespace crossroof::core
