// SPDX-License-Identifier: GPL-3.0-or-later
// The machine keys a joint calibration sets from measurements rather than fitting them: the latency file's
// chases (where their keys are not fitted) and the gpu-cache and gpu-l2-stream levels.
#pragma once

#include "core/calibration/joint_calibration.h"

#include <string>
#include <vector>

namespace crossroof::core::detail {

/// One quantity the latency file measures directly, and the key it measures.
struct DirectMeasurement {
    std::string key;
    double value = 0;
    int line = 0;
    std::string how;
};

/// The latency file's measurements: its clock where it gives one, L, L_2 where measured, L_s, L_c where
/// measured.
std::vector<DirectMeasurement> directMeasurements(const LatencyMeasurements &lat);

/// Sets on MACHINE the keys SOURCES measure directly and FIT does not name (the latency file's, then each
/// footprint sweep's, the first to measure a key setting it; S_2 as the device's capacity over the machine's
/// SMs), recording them in RESULT's settings and what is not used in its notes. Returns the latency keys FIT
/// names: those are rows of the objective. Throws InputError naming the file and line of a value out of its
/// parameter's range.
std::vector<std::string> applyDirectSettings(const CalibrationSources &sources, const std::vector<std::string> &fit,
                                             XModelParams &machine, JointCalibration &result);

} // namespace crossroof::core::detail
