// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The dependency graph of a skeleton's loop body (docs/MODEL.md, "Code skeletons"): one node per statement,
// an edge for every read-after-write, write-after-read and write-after-write between statements, weighted by
// the latency of the statement the edge leaves.

#include "core/skeleton/skeleton.h"

#include <string_view>
#include <vector>

namespace crossroof::core {

enum class DependencyKind { Raw, War, Waw };
/// "RAW", "WAR", "WAW".
std::string_view dependencyKindName(DependencyKind kind);

struct DependencyEdge
{
    int from = 0; ///< node index
    int to = 0;
    DependencyKind kind = DependencyKind::Raw;
    std::string variable; ///< as written in the skeleton
    double weight = 0;    ///< the latency of `from`
};

/// A loop body unrolled `unroll` times: node copy * body.size() + i is statement i of copy `copy`. Every
/// variable the body writes is renamed per copy, so the copies are independent (a reduction such as
/// `fma xi: xi, ...` becomes one partial sum per copy); variables it only reads are shared.
struct DependencyGraph
{
    int unroll = 1;
    std::vector<SkeletonStatement> body;
    std::vector<double> latency; ///< per node
    std::vector<DependencyEdge> edges;
    std::vector<std::vector<int>> out; ///< per node, indices into edges
    std::vector<std::vector<int>> in;
    /// Variables the body reads before it writes them (carried from one iteration to the next).
    std::vector<std::string> carried;

    std::size_t nodeCount() const { return latency.size(); }
    const SkeletonStatement &statementOf(int node) const { return body[std::size_t(node) % body.size()]; }
    int copyOf(int node) const { return int(std::size_t(node) / body.size()); }
};

/// The graph of BODY unrolled UNROLL (1 to 64) times, with the latencies of MODEL. For each statement, in
/// order: a RAW edge from the last writer of each variable it reads, a WAW edge from the last writer of the
/// variable it writes, and a WAR edge from each statement that read that variable since its last write. One
/// edge per pair of statements (RAW before WAW before WAR when a pair has several).
DependencyGraph buildDependencyGraph(const std::vector<SkeletonStatement> &body, const CoreModel &model,
                                     int unroll = 1);

/// The longest path through the graph, counting each node's latency (the last node's too).
struct CriticalPath
{
    double cycles = 0;
    std::vector<int> nodes; ///< entry node first
    /// Per node: the longest path from its start to the end of the graph (its list-scheduling priority).
    std::vector<double> bottom_level;
};
CriticalPath criticalPath(const DependencyGraph &graph);

} // namespace crossroof::core
