// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// p and q from counters beyond the thesis' definitions: the rules its later tables print, and counter values
// read from a file (crossroof-cli counters).

#include "core/markov/markov_counters.h"

#include <span>
#include <string>
#include <string_view>

namespace crossroof::core {

/// Reads counter values from a JSON file (docs/CLI.md, `counters --file`): {"instructions": N, "suspend":
/// [{"name", "multi", "single"}], "stall": [{"name", "count", "latency"}], "measured_cpi": CPI}, the same
/// object a session keeps under "markov"."counters". "-" is standard input. Throws InputError naming the file
/// and the field.
CounterInputs readCounterFile(const std::string &path);

/// How one suspending event contributes to p. Eq. 6 and Table 4.4 count the events the multi-threaded run has
/// in excess; Table 5.20 prints single - multi (its columns read the other way round). Negative terms are
/// rejected either way.
enum class SuspendDifference { MultiMinusSingle, SingleMinusMulti };

/// How the stall events' latencies are averaged into M for q = 1 - 1/M.
enum class LatencyWeighting {
    /// Eq. 8 with w_i = c_i / sum c, c_i = f_i m_i the event's stall cycles: M = sum f m^2 / sum f m
    /// (Table 4.5, M = 7.25). A mean: it lies between the smallest and the largest latency.
    StallCycles,
    /// Table 5.21's arithmetic: M = sum f m^2 / sum f (8.8, 246.4, 642.4, 880). Not a mean of the latencies
    /// (8.8 exceeds both 2 and 4 cycles), so q_all can exceed every event's q_i.
    Occurrences
};

std::string_view suspendDifferenceName(SuspendDifference d); ///< "multi-single", "single-multi"
std::string_view latencyWeightingName(LatencyWeighting w);   ///< "cycles", "occurrences"

/// estimateP() with the difference taken as DIFFERENCE says (MultiMinusSingle is estimateP() itself).
PEstimate estimateP(std::span<const SuspendEvent> events, double instructions, SuspendDifference difference);

/// estimateQ() with M averaged as WEIGHTING says (StallCycles is estimateQ() itself); mean_latency is that M.
QEstimate estimateQ(std::span<const StallEvent> events, LatencyWeighting weighting);

} // namespace crossroof::core
