// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// calibrate's report of a joint calibration: the readable summary and the JSON keys (CLI.md, calibrate).

#include "command_support.h"
#include "core/calibration/joint_calibration.h"
#include "core/calibration/probe_analysis.h"
#include "core/profiles/profile_library.h"

#include <cstddef>
#include <ostream>
#include <string>

namespace crossroof::cli {

/// PREFIX + "2048 of 100000 rows spread over their range" when the fit used a part of a large source.
std::string fitRowsNote(const char *prefix, std::size_t fitRows, std::size_t rows);

/// The sources, parameter_sources, undetermined, set, notes and objective keys of a joint calibration.
Json jointJson(const core::JointCalibration &fit);

/// What a probe's parallel.csv says before any fit.
Json parallelAnalysisJson(const core::ParallelAnalysis &a);
void printParallelAnalysis(const core::ParallelAnalysis &a, std::ostream &out);

/// The readable summary: each source's accuracy, the fitted keys and where they come from, the keys set from
/// measurements (and what they leave out), each source's least accurate values.
void printJointText(const core::HardwareProfile &start, const core::JointCalibration &fit, std::ostream &out);

} // namespace crossroof::cli
