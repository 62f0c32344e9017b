// SPDX-License-Identifier: GPL-3.0-or-later
// The memory levels' bandwidths and capacities as gpu-benches' footprint sweeps show them: gpu-cache
// (bandwidth against the data set each SM reads) and gpu-l2-stream (bandwidth against occupancy, per
// footprint). A joint calibration sets the keys they measure (R_l1, S_s, R_l2, S_2, R_dram) directly.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace crossroof::core {

/// One level of a bandwidth-against-footprint curve.
struct BandwidthPlateau {
    double gbs = 0; ///< the median bandwidth of its rows
    double from_kb = 0, to_kb = 0; ///< footprints of its first and last row
    /// The largest footprint, from its last row on, whose bandwidth is still at least the geometric mean of
    /// this level's and the next one's: where the level's capacity runs out. 0 for the last level.
    double capacity_kb = 0;
    int capacity_line = 0;
    int line = 0; ///< its first row's line
    std::size_t rows = 0;
};

/// The levels of a curve given in order of footprint (KB ascending, GBS and LINES aligned with it): runs of
/// rows whose bandwidth stays within a factor 1.25 of the run's median so far, those of kMinPlateauRows rows
/// or more, and a median above 0; the rows between them (a level's bandwidth falling to the next one's) belong
/// to none.
inline constexpr std::size_t kMinPlateauRows = 3;
std::vector<BandwidthPlateau> bandwidthPlateaus(const std::vector<double> &kb, const std::vector<double> &gbs,
                                                const std::vector<int> &lines);

/// A machine key a footprint sweep measures: its value, the line it comes from and how it was measured.
struct LevelSetting {
    std::string key; ///< R_l1, S_s, R_l2, R_dram, or S_2
    double value = 0; ///< GB/s or KiB; S_2's is the device's capacity, divided by the machine's SMs when set
    int line = 0;
    std::string how; ///< e.g. "L1 plateau, 3 rows 4-16 kB"
};

/// What one gpu-cache or gpu-l2-stream file measures.
struct LevelMeasurements {
    std::string source;
    std::string tool; ///< "gpu-cache" or "gpu-l2-stream"
    std::vector<LevelSetting> settings;
    std::vector<std::string> notes; ///< levels the sweep does not reach, rows left out
};

/// A gpu-cache output (one block per SM reads the same data set over and over): its first level is the L1
/// (R_l1, and S_s, the data set at which it runs out), its second the L2 (R_l2), and a third, where the data
/// sets reach it, the DRAM (R_dram; the L2's capacity S_2 is then where the second level runs out, the data set
/// being the same for every SM). Throws InputError naming the file when it is not a gpu-cache output (a
/// gpu-l2-cache output is named as such) or shows fewer than two levels.
LevelMeasurements readCacheLevels(const std::string &path);

/// A gpu-l2-stream output: each kernel's bandwidth at each footprint is its best over the occupancies. The
/// kernel fastest at the smallest footprints gives the L2 (R_l2, and the capacity S_2 where its level runs
/// out, the footprint as the file prints it), and the highest last level of the kernels whose bandwidth falls
/// to one the DRAM (R_dram). Throws InputError naming the file when no kernel shows a level of
/// kMinPlateauRows footprints.
LevelMeasurements readL2StreamLevels(const std::string &path);

} // namespace crossroof::core
