// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/equilibrium_scan.h"
#include "core/xmodel/parameters.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace crossroof::core {

/// One axis of a stability map (MODEL.md 1.6): a numeric parameter key and how it is sampled.
struct MapAxis
{
    std::string key;
    double min = 0;
    double max = 0;
    int count = 2;    ///< samples, min and max included; 1 only when min = max
    bool log = false; ///< geometric spacing (min > 0)
};

/// Throws InputError naming the key if it is not a numeric parameter (MODEL.md 1.2), an end is out of the
/// key's range, min > max, log with min <= 0, or count is outside [1, kMaxMapAxisCount].
void checkAxis(const MapAxis &axis);
constexpr int kMaxMapAxisCount = 4096;

/// The sampled values of a checked axis, ascending. Keys that must be whole numbers (n, sm_count, ...)
/// are rounded to the nearest whole number, so neighbouring values can repeat on a dense axis.
std::vector<double> axisValues(const MapAxis &axis);

/// Number of stable equilibria and operating-point throughput over a grid of two parameters.
struct StabilityMap
{
    MapAxis x;
    MapAxis y;
    std::vector<double> x_values;
    std::vector<double> y_values;
    /// Stable and neutral equilibria per cell (XGraphResult::stableCount()), at [index(i, j)]; -1 where
    /// not computed yet.
    std::vector<int> stable_count;
    /// MS throughput of the device at the operating point, GB/s; 0 where not computed yet.
    std::vector<double> operating_gbs;
    /// Finest stride completed by StabilityMapper::compute(); 0 before the first completes.
    int completed_stride = 0;

    std::size_t index(std::size_t i, std::size_t j) const { return j * x_values.size() + i; }
    /// The computed cell that stands for cell (i, j) in a progressive display: (i, j) rounded down to the
    /// finest completed stride.
    std::size_t shownIndex(std::size_t i, std::size_t j) const;
};

/// Region edges for outlining: per cell, bit 0 set when its stable count differs from cell (i+1, j), bit 1
/// when it differs from cell (i, j+1). Cells not computed yet have no edges. Edges sit on tangencies
/// (MODEL.md 1.6); the GUI draws each set bit as the shared side of the two cells.
std::vector<std::uint8_t> regionEdges(const StabilityMap &map);
constexpr std::uint8_t kEdgeRight = 1;
constexpr std::uint8_t kEdgeUp = 2;

/// Computes a stability map progressively: compute(8), then compute(4), compute(2), compute(1) show a coarse
/// map at once and refine it, each level reusing the cells already computed. Each cell costs a handful of
/// evaluations of f (EquilibriumScan), not a full XModel::solve().
class StabilityMapper
{
public:
    /// Throws InputError on a bad axis, equal axis keys, or invalid base parameters.
    StabilityMapper(const XModelParams &base, const MapAxis &x, const MapAxis &y);

    /// Computes every cell (i, j) with i and j multiples of stride that is not computed yet, rows shared
    /// among `threads` workers (std::thread). Stops at the next cell once stop is requested (a row at full
    /// resolution takes several milliseconds, and the GUI waits for the stop) and returns false; cells computed
    /// so far are kept and a later call goes on from there. Returns true when complete.
    bool compute(int stride, int threads = 2, std::stop_token stop = {});

    const StabilityMap &map() const { return m_map; }

private:
    /// The cells of row j at STRIDE not computed yet; false when STOP came first.
    bool computeRow(std::size_t j, std::size_t stride, const std::stop_token &stop);

    XModelParams m_base;
    double XModelParams::*m_xMember = nullptr;
    double XModelParams::*m_yMember = nullptr;
    StabilityMap m_map;
    /// When only x changes f, one shape per column serves every row (shared by the workers).
    std::vector<std::optional<SupplyShape>> m_columnShapes;
};

/// The whole map in one call (compute(1)); for scripts and the benchmark.
StabilityMap computeStabilityMap(const XModelParams &base, const MapAxis &x, const MapAxis &y,
                                 int threads = 2);

} // namespace crossroof::core
