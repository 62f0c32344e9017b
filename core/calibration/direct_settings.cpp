// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/direct_settings.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/xmodel/parameters.h"

#include <algorithm>
#include <filesystem>

namespace crossroof::core::detail {

std::vector<DirectMeasurement> directMeasurements(const LatencyMeasurements &lat)
{
    std::vector<DirectMeasurement> out;
    if (lat.clock_mhz)
        out.push_back({"clock_ghz", *lat.clock_mhz / 1000, lat.clock_line, "the clock the file's cycles count at"});
    out.push_back({"L", lat.dram_cycles, lat.dram_line, lat.dram_how});
    if (lat.l2_cycles)
        out.push_back({"L_2", *lat.l2_cycles, lat.l2_line, lat.l2_how});
    out.push_back({"L_s", lat.l1_cycles, lat.l1_line, lat.l1_how});
    if (lat.dependent_issue)
        out.push_back({"L_c", *lat.dependent_issue, lat.fma_line, "chain of dependent FMAs"});
    return out;
}

std::vector<std::string> applyDirectSettings(const CalibrationSources &sources, const std::vector<std::string> &fit,
                                             XModelParams &machine, JointCalibration &result)
{
    const auto fitted = [&](std::string_view key) { return std::find(fit.begin(), fit.end(), key) != fit.end(); };
    const auto set = [&](const std::string &key, double value, const std::string &source, int line,
                         const std::string &how) {
        const ParameterInfo *info = findParameter(key);
        if (const auto bad = checkValue(*info, value)) {
            throw InputError(source + ":" + std::to_string(line) + ": parameter '" + key + "' " + *bad);
        }
        machine.*(info->member) = value;
        result.settings.push_back({key, value, source, how + ", line " + std::to_string(line)});
    };
    std::vector<std::string> latencyKeys;
    if (sources.latency) {
        for (const DirectMeasurement &d : directMeasurements(*sources.latency)) {
            if (fitted(d.key))
                latencyKeys.push_back(d.key);
            else
                set(d.key, d.value, sources.latency->source, d.line, d.how);
        }
    }
    for (const LevelMeasurements &m : sources.levels) {
        const std::string file = std::filesystem::path(m.source).filename().string();
        for (const LevelSetting &s : m.settings) {
            // S_2 is per SM: the device's capacity over the machine's SMs.
            const double value = s.key == "S_2" ? s.value / machine.sm_count : s.value;
            const std::string measured = s.key + " measured by " + file + " as " + formatNumber(value) + " "
                                         + std::string(findParameter(s.key)->unit);
            const auto earlier = std::find_if(result.settings.begin(), result.settings.end(),
                                              [&](const KeySetting &k) { return k.key == s.key; });
            if (fitted(s.key)) {
                result.notes.push_back(measured + ": fitted instead, as it is among the keys to fit");
            } else if (earlier != result.settings.end()) {
                result.notes.push_back(measured + ": not used, " + std::filesystem::path(earlier->source).filename().string()
                                       + " sets it");
            } else {
                std::string how = m.tool + ": " + s.how;
                if (s.key == "S_2")
                    how += "; " + formatNumber(s.value) + " kB over the machine's " + formatNumber(machine.sm_count)
                           + " SMs";
                set(s.key, value, m.source, s.line, how);
            }
        }
        result.notes.insert(result.notes.end(), m.notes.begin(), m.notes.end());
    }
    return latencyKeys;
}

} // namespace crossroof::core::detail
