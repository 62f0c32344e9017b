// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace crossroof::core {

/// Centred sliding mean of weight W (MODEL.md 4; Weidendorfer, PROPER 2013, "Smoothing of Bandwidth
/// Demands"): d_i = (sum of bytes[i-h .. i+h]) / W with h = floor(W/2), the two outer units weighing half when
/// W is even, and the trace mirrored about its ends (unit -1 reads unit 0, unit N reads unit N-1). Every unit's
/// bytes are spread over the units around it and none is lost or counted twice: the smoothed total is the raw
/// total (the area under the curve is the data moved, as the paper has it), a constant trace stays constant,
/// W = 1 changes nothing, and a trace read backwards gives the same curve. Throws InputError for W < 1, W
/// longer than the trace, a value that is negative or not finite, or values whose sum is beyond a double (each
/// named by its unit index).
std::vector<double> smoothDemand(std::span<const double> bytes, std::size_t window);

/// The bandwidth curve of one connection under one limit.
struct BandwidthCurve
{
    std::vector<double> sorted;       ///< smoothed demand per unit, descending (bytes per unit)
    double area = 0;                  ///< sum of sorted: the bytes moved (total_bytes, up to rounding)
    double total_bytes = 0;           ///< sum of the raw trace
    double limit = 0;                 ///< B, bytes per unit
    double slowdown = 1;              ///< sum max(1, d_i/B) / count
    std::size_t units = 0;            ///< count
    std::size_t units_over_limit = 0; ///< units with d_i > B
    double peak = 0;                  ///< largest smoothed demand
    double mean = 0;                  ///< area / units
};

/// Smooths (window W), sorts descending, and applies the limit B > 0 (MODEL.md 4). Throws InputError on an
/// empty trace, a bad window (as smoothDemand()), a limit that is not a finite number > 0, or a sum or a
/// demand/limit ratio beyond a double (a limit of 1e-310), so that every field is finite.
BandwidthCurve bandwidthCurve(std::span<const double> bytes, std::size_t window, double limit);

/// Slowdown under limit B of an already smoothed demand: sum max(1, d_i/B) / count. Throws InputError as
/// bandwidthCurve() does for a ratio or a sum beyond a double.
double slowdownUnderLimit(std::span<const double> demand, double limit);

/// One connection of a multi-connection analysis: its bytes per unit and its real limit.
struct Connection
{
    std::string name;
    std::vector<double> bytes; ///< per unit; every connection has the same number of units
    double limit = 0;          ///< bytes per unit
};

/// Which connection limits each unit: the one with the largest demand/limit ratio ("dominant bandwidth
/// limitation", Weidendorfer, PROPER 2013), when that ratio exceeds 1.
struct Dominance
{
    std::vector<int> dominant;       ///< per unit: connection index, or -1 when no ratio exceeds 1
    std::vector<double> ratio;       ///< per unit: the largest demand/limit ratio (smoothed demand)
    std::vector<std::size_t> units;  ///< per connection: units it dominates
    std::vector<double> extra_units; ///< per connection: sum of (ratio - 1) over those units
    double slowdown = 1;             ///< sum max(1, ratio_i) / count
    std::size_t free_units = 0;      ///< units without a dominant connection
};

/// Smooths every connection with window W and finds the dominant one per unit. Throws InputError when there
/// is no connection, their lengths differ, a trace or limit is bad, or a ratio or sum is beyond a double (named
/// by the connection and the unit).
Dominance dominance(std::span<const Connection> connections, std::size_t window);

} // namespace crossroof::core
