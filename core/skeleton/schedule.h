// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// List scheduling of a dependency graph on a core's pipelines, by critical path (docs/MODEL.md, "Code
// skeletons").

#include "core/skeleton/dependency_graph.h"

#include <vector>

namespace crossroof::core {

/// Where and when one node runs.
struct ScheduledStatement
{
    int node = 0;
    PipelineKind pipeline = PipelineKind::Fp;
    int unit = 0;      ///< which pipeline of its kind, 0-based
    double start = 0;  ///< the cycle it issues
    double finish = 0; ///< start + latency
};

struct Schedule
{
    std::vector<ScheduledStatement> items; ///< one per node, by node index
    double makespan = 0;                   ///< cycles from the first issue to the last result
    int issue_cycles = 0;                  ///< cycles in which at least one statement issues
    int stall_cycles = 0;                  ///< cycles before the last issue in which nothing issues
    /// Registers live at once at the worst cycle: one per carried variable per copy, plus the values in flight
    /// (from a statement's issue to the issue of its last reader). Loop invariants are not counted: they can
    /// be memory or broadcast operands.
    int registers = 0;
    /// Achieved instruction-level parallelism: the sum of the nodes' latencies over the makespan (the mean
    /// number of statements in flight; 1 for a chain).
    double ilp = 0;
};

/// Schedules GRAPH on MODEL: each cycle, of the statements whose predecessors have finished (each edge's
/// weight after the predecessor's issue), the ones with the longest path to the end go first, up to
/// issue_width per cycle and one per pipeline of their kind per cycle (pipelines are fully pipelined).
Schedule scheduleGraph(const DependencyGraph &graph, const CoreModel &model);

/// COPIES independent copies of GRAPH scheduled together: the same as scheduling
/// buildDependencyGraph(body, model, COPIES) of GRAPH's body (node c * size + k is node k of copy c), without
/// building the larger graph.
Schedule scheduleCopies(const DependencyGraph &graph, int copies, const CoreModel &model);

} // namespace crossroof::core
