// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The JSON form of a core model: the "core_model" object of a CPU profile (docs/PROFILES.md).

#include "core/skeleton/core_model.h"
#include "core/support/json_reader.h"

namespace crossroof::core::detail {

/// A core model from a profile's "core_model" object; errors name the field ("core_model.latency.fma").
CoreModel coreModelFromJson(const json &obj, const JsonReader &reader);
json coreModelToJson(const CoreModel &model);

} // namespace crossroof::core::detail
