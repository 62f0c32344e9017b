// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The JSON form of a CPU topology: the "topology" object of a CPU profile (docs/PROFILES.md).

#include "core/markov/cpu_topology.h"
#include "core/support/json_reader.h"

namespace crossroof::core::detail {

/// A CPU topology from a profile's "topology" object; errors name the field ("topology.caches[1].socket").
CpuTopology topologyFromJson(const json &obj, const JsonReader &reader);
json topologyToJson(const CpuTopology &topology);

} // namespace crossroof::core::detail
