// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The JSON form of profiles and of the X-model parameters, shared by the profile and session readers.

#include "core/markov/topology_json.h"
#include "core/skeleton/core_model_json.h"
#include "core/profiles/hardware_profile.h"
#include "core/support/json_reader.h"

namespace crossroof::core::detail {

/// A profile from its JSON object (docs/PROFILES.md); errors name LABEL and the field under READER's prefix.
HardwareProfile profileFromJson(const json &doc, const JsonReader &reader);
/// The JSON object of a profile, in the format profileFromJson() reads.
json profileToJson(const HardwareProfile &profile);

/// Reads the "parameters" object of a profile or a session into P (machine keys required).
void readParameters(const JsonReader &r, const json &obj, XModelParams &p);
/// Every parameter as a JSON object (MODEL.md 1.2 keys).
json parametersToJson(const XModelParams &p);

} // namespace crossroof::core::detail
