// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The core model of a CPU profile (docs/PROFILES.md, "core_model"): what a code skeleton is scheduled on.

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// What one statement of a code skeleton does (docs/MODEL.md, "Code skeletons").
enum class StatementKind {
    Load,  ///< ld X
    Store, ///< st X
    Fp,    ///< fp X: A, B  (an add, a multiply or another floating-point operation)
    Fma,   ///< fma X: A, B, C
    Xp,    ///< xp X: A  (integer or other scalar work: index and address arithmetic)
};
inline constexpr std::size_t kStatementKinds = 5;

/// The classes of execution pipeline a core has; each statement kind runs on one class.
enum class PipelineKind { Fp, Load, Store, Int };
inline constexpr std::size_t kPipelineKinds = 4;

/// The statement kinds whose latency a core model gives (a load's comes from its memory levels).
inline constexpr std::array kGivenLatencies{StatementKind::Store, StatementKind::Fp, StatementKind::Fma,
                                            StatementKind::Xp};

/// "ld", "st", "fp", "fma", "xp": the keyword of the skeleton language.
std::string_view statementKindName(StatementKind kind);
/// "fp", "load", "store", "int": the key in a profile's core_model.pipelines.
std::string_view pipelineKindName(PipelineKind kind);
/// fp and fma run on the FP pipelines, ld on load, st on store, xp on int.
PipelineKind pipelineOf(StatementKind kind);

/// One level of the memory hierarchy as a load sees it.
struct MemoryLevel
{
    std::string name;         ///< "L1", "L2", "MCDRAM"
    double latency = 1;       ///< load-to-use latency in cycles
    double capacity_kib = 0;  ///< 0 for the last level (memory), which holds everything

    bool operator==(const MemoryLevel &) const = default;
};

/// One core as the skeleton scheduler sees it: pipelines, latencies, issue width and a stride-1 memory
/// model. The defaults are only placeholders for building one by hand; profiles give every field.
struct CoreModel
{
    /// Statements issued per cycle in total (decode and dispatch width).
    int issue_width = 2;
    /// How many pipelines of each PipelineKind; each accepts one statement per cycle (fully pipelined).
    std::array<int, kPipelineKinds> pipelines{2, 2, 1, 2};
    /// Latency in cycles of st, fp, fma and xp, indexed by StatementKind. The Load entry is not used: a
    /// load's latency is the first memory level's (stride-1 streams hit L1 after their first touch).
    std::array<double, kStatementKinds> latency{0, 1, 6, 6, 2};
    /// Elements one statement handles in a forall (vectorised) loop.
    int vector_lanes = 16;
    /// Vector registers an unrolled body may keep live without spilling.
    int registers = 32;
    int element_bytes = 4;
    int line_bytes = 64;
    /// L1 first, memory last (capacity 0).
    std::vector<MemoryLevel> memory{{"L1", 5, 32}, {"memory", 200, 0}};

    /// The latency of a statement of KIND in the dependency graph.
    double latencyOf(StatementKind kind) const;
    int pipelineCount(StatementKind kind) const { return pipelines[std::size_t(pipelineOf(kind))]; }

    bool operator==(const CoreModel &) const = default;
};

/// Bounds checked by validate().
inline constexpr int kMaxIssueWidth = 64;
inline constexpr int kMaxPipelines = 64;
inline constexpr double kMaxLatency = 100000;
inline constexpr int kMaxVectorLanes = 1024;
inline constexpr int kMaxRegisters = 4096;
inline constexpr int kMaxMemoryLevels = 8;

/// Checks the rules of docs/PROFILES.md ("core_model"). Throws InputError naming the field
/// ("core_model.pipelines.fp: must be ...").
void validate(const CoreModel &model);

} // namespace crossroof::core
