// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The SKOPE-style projection of a skeleton on a core model: cycles against the unroll factor, the best
// factor, the X-model workload (Z and E) and the error against measured cycles (docs/MODEL.md).

#include "core/skeleton/schedule.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crossroof::core {

inline constexpr int kMaxUnroll = 16;

/// One unroll factor of the innermost loop.
struct UnrollPoint
{
    int factor = 1;
    double body_cycles = 0;          ///< the schedule's makespan for `factor` copies of the body
    double cycles_per_iteration = 0; ///< per iteration of the innermost loop as written (per element of a forall)
    double loop_cycles = 0;          ///< the whole nest from the schedule alone: passes x inner_trips / factor x body
    double total_cycles = 0;         ///< loop_cycles + the projection's first_touch_cycles
    int stall_cycles = 0;
    int registers = 0;               ///< values the unrolled body keeps live at the worst cycle (Schedule)
    bool spills = false;             ///< registers > the core's vector registers
    double ilp = 0;                  ///< Schedule::ilp
    /// What spilling the values beyond the core's registers adds to the body: a store and a reload each, on
    /// the store and load pipelines and in the issue width, whichever takes longest (spillCycles()).
    double spill_cycles = 0;
    /// (body_cycles + spill_cycles) / (factor x lanes): the cost the best factor minimises.
    double cost_per_iteration = 0;
};

struct SkeletonProjection
{
    DependencyGraph graph;       ///< the body as written (unroll 1)
    CriticalPath critical;       ///< of `graph`
    Schedule schedule;           ///< of `graph`
    std::vector<UnrollPoint> unroll; ///< factors 1..kMaxUnroll
    int best_unroll = 1;
    std::string reasoning;       ///< why best_unroll: stalls and registers, one or two sentences
    double inner_trips = 1;      ///< innermost iterations per pass, divided by the vector lanes of a forall
    double passes = 1;           ///< how often the innermost loop runs (the outer loops' iterations)
    double first_touch_cycles = 0;
    std::string stream_level;    ///< the memory level that holds the streams between passes

    const UnrollPoint &point(int factor) const;
};

/// Cycles the spill code of a body that keeps REGISTERS values live adds on MODEL: each value beyond
/// model.registers is stored once and reloaded once, max(excess / store pipelines, excess / load pipelines,
/// 2 x excess / issue width); 0 when the values fit.
double spillCycles(int registers, const CoreModel &model);

/// The best factor is the smallest whose cost per iteration is within this share of the least: past it more
/// copies gain less than 5 % and hold more registers.
inline constexpr double kUnrollTolerance = 0.05;

/// Projects SKELETON on MODEL for unroll factors 1..kMaxUnroll. Total cycles = passes x inner_trips /
/// factor x body cycles + first_touch_cycles: the first pass pays the last memory level's latency once (the
/// streams start together), each later pass the latency of the level that holds the streams' footprint
/// minus L1's. The best factor is the smallest whose cost per iteration (the schedule plus its spill code) is
/// within kUnrollTolerance of the least: the curve the view draws, so the pick is where the curve says.
SkeletonProjection projectSkeleton(const Skeleton &skeleton, const CoreModel &model);

/// The X-model workload a skeleton implies at one unroll factor.
struct SkeletonWorkload
{
    /// Instructions per memory request of `line_bytes` (stride-1: one request per line the loads and stores
    /// move); none when the body neither loads nor stores.
    std::optional<double> Z;
    double E = 1; ///< the ILP the schedule achieves at `factor`
    int factor = 1;
};
SkeletonWorkload deriveWorkload(const SkeletonProjection &projection, const Skeleton &skeleton,
                                const CoreModel &model, int factor);

/// Measured cycles of a whole nest that a projection is compared with: at least one cycle (below it the
/// relative error means nothing, and passes a double: 1e-300 cycles printed "+inf %"), at most 1e300.
inline constexpr double kMinMeasuredCycles = 1;
inline constexpr double kMaxMeasuredCycles = 1e300;

/// (projected - measured) / measured in %. Throws InputError for measured cycles outside kMinMeasuredCycles ..
/// kMaxMeasuredCycles.
double projectionErrorPercent(double projected, double measured);

struct MeasuredComparison
{
    int factor = 1;
    double projected = 0;
    double measured = 0;
    double error_percent = 0;
};
/// Projected total cycles against MEASURED (factor, cycles) pairs. Throws InputError for a factor outside
/// 1..kMaxUnroll or cycles outside kMinMeasuredCycles .. kMaxMeasuredCycles.
std::vector<MeasuredComparison> compareWithMeasured(const SkeletonProjection &projection,
                                                    const std::vector<std::pair<int, double>> &measured);

} // namespace crossroof::core
