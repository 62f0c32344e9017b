// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What several commands read and print alike: the model's inputs (--profile, --set), probabilities, numbers.

#include "profiles/hardware_profile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace crossroof::cli {

class Args;

using Json = nlohmann::ordered_json;

/// V as printf's SPEC prints it (e.g. "%.4g").
std::string fmt(double v, const char *spec = "%.4g");

/// The machine and workload a command works on: --profile (an id or a file; the default profile without
/// it) with each --set KEY=VALUE applied in order. Throws InputError naming the option.
struct ModelInputs
{
    core::HardwareProfile profile;
    core::XModelParams params;
};
ModelInputs modelInputs(const Args &args);
/// Applies each --set KEY=VALUE of ARGS to PARAMS, in order. Throws InputError naming the option or key.
void applySets(const Args &args, core::XModelParams &params);

/// Every parameter, in the registry's order, and the cache mode.
Json parametersJson(const core::XModelParams &p);

/// TEXT as a probability in [0, 1]; errors start with WHAT ("option '--p': 'half' is not a number").
double probabilityValue(const std::string &text, const std::string &what);

} // namespace crossroof::cli
