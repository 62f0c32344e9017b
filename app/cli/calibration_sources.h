// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// calibrate's refusals name the files they are about.

#include "core/calibration/joint_calibration.h"
#include "core/support/error.h"

#include <algorithm>
#include <string>
#include <vector>

namespace crossroof::cli {

/// BODY's result; its refusal names the measured files where it names none ("4 measured values cannot fit").
template<class Fn>
auto namingTheSources(const core::CalibrationSources &sources, Fn &&body)
{
    try {
        return body();
    } catch (const core::InputError &e) {
        std::vector<std::string> names;
        for (const auto *source : {sources.family ? &sources.family->source : nullptr, sources.stream ? &sources.stream->source : nullptr,
                                   sources.latency ? &sources.latency->source : nullptr, sources.parallel ? &sources.parallel->source : nullptr})
            if (source)
                names.push_back(*source);
        for (const core::KernelSet &set : sources.kernels)
            names.push_back(set.source);
        for (const core::LevelMeasurements &m : sources.levels)
            names.push_back(m.source);
        const std::string what = e.what();
        if (std::any_of(names.begin(), names.end(), [&](const std::string &n) { return what.find(n) != std::string::npos; }))
            throw;
        std::string list; // each whole: a long one loses its middle with the message (core::shortMessage())
        for (const std::string &n : names)
            list += (list.empty() ? "" : ", ") + n;
        throw core::InputError(list + ": " + what);
    }
}

} // namespace crossroof::cli
