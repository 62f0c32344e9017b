// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Extrapolate view's inputs, as a session saves them (core/session gathers them).

#include "core/modeltree/training_set.h"

#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// The Extrapolate view's inputs (MODEL.md 9): the training runs the model trees learn from, whether the
/// trees smooth their predictions, and the CPI measured at larger sizes that the predictions are checked against.
struct ExtrapolateSettings
{
    /// The training runs, with the file and the columns they were read from; none: nothing imported.
    std::optional<TrainingSet> training;
    bool smoothing = true;
    /// CPI measured at larger sizes, to check the predictions against (readCpiMeasurements()); empty: none.
    std::vector<CpiMeasurement> measured;
    /// The file the measured CPI came from, for reference.
    std::string measured_source;
    bool operator==(const ExtrapolateSettings &) const = default;
};

} // namespace crossroof::core
