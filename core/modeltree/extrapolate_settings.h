// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Extrapolate view's inputs, as a session saves them (core/session gathers them).

#include "core/modeltree/training_set.h"

#include <optional>

namespace crossroof::core {

/// The Extrapolate view's inputs (MODEL.md 9): the training runs the model trees learn from, and whether the
/// trees smooth their predictions.
struct ExtrapolateSettings
{
    /// The training runs, with the file and the columns they were read from; none: nothing imported.
    std::optional<TrainingSet> training;
    bool smoothing = true;
    bool operator==(const ExtrapolateSettings &) const = default;
};

} // namespace crossroof::core
