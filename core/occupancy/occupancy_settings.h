// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The occupancy calculator's and the zigzag view's inputs, as a session saves them (core/session gathers them).

#include <cstddef>
#include <optional>
#include <string>

namespace crossroof::core {

/// The occupancy and zigzag views' inputs (MODEL.md 2).
struct OccupancySettings
{
    std::string cc; ///< the compute capability ("8.0"); empty: the profile's
    int threads_per_block = 256;
    int regs_per_thread = 32;
    long long smem_per_block = 0;
    std::optional<long long> smem_config;
    std::string mode = "cuda";
    bool linked = false;
    std::optional<int> manual_active_blocks;
    long long sm_count = 0; ///< 0: the profile's
    long long requested_blocks_max = 0; ///< 0: automatic
    bool operator==(const OccupancySettings &) const = default;
};

/// The zigzag view's TMM inputs (MODEL.md 2.2; Eq. 1, 6-8) and its APSP preset (Eq. 10-14), kept as the text
/// the user typed, so that an entry the view cannot read (half typed, not a number) reopens as it was left.
struct TmmSettings
{
    std::string work = "1e9";             ///< T1
    std::string span = "0";               ///< T_inf
    std::string transactions = "1e7";     ///< M
    std::string latency = "400";          ///< L
    std::string threads_per_core = "1";   ///< T
    std::string cores = "480";            ///< P
    std::string requested_blocks = "100"; ///< B_r the panel evaluates at
    int apsp_vertices = 8192;             ///< APSP n
    int apsp_sub_block = 32;              ///< APSP S_D
    std::string apsp_chunk = "32";        ///< APSP C
    bool operator==(const TmmSettings &) const = default;
};
/// The longest text a TMM input may hold in a session.
inline constexpr std::size_t kMaxTmmTextLength = 64;

} // namespace crossroof::core
