// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/schedule.h"

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstdint>
#include <numeric>
#include <queue>

namespace crossroof::core {

namespace {

/// The ready statements of one pipeline kind, by rank (0 = the longest path to the end): one bit per rank
/// with something ready, and per rank the ready copies.
struct ReadyBuckets
{
    std::vector<std::uint64_t> bits;
    void set(std::size_t rank) { bits[rank / 64] |= std::uint64_t(1) << (rank % 64); }
    void clear(std::size_t rank) { bits[rank / 64] &= ~(std::uint64_t(1) << (rank % 64)); }
    /// The best rank with something ready, or -1.
    long best() const
    {
        for (std::size_t w = 0; w < bits.size(); ++w)
            if (bits[w])
                return long(w * 64) + std::countr_zero(bits[w]);
        return -1;
    }
};

struct Pending
{
    double ready;
    int node;
    bool operator<(const Pending &o) const { return ready > o.ready; }
};

/// Registers live at the worst cycle of S, the schedule of COPIES copies of G.
int registersNeeded(const DependencyGraph &g, int copies, const Schedule &s)
{
    // A value holds a register from the issue of its statement to the issue of its last RAW reader.
    const std::size_t n = g.nodeCount();
    std::vector<char> holds(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::string &target = g.statementOf(int(k)).target;
        holds[k] = !target.empty() && std::find(g.carried.begin(), g.carried.end(), target) == g.carried.end();
    }
    // Intervals [issue, last use) on whole cycles: +1 where one starts, -1 where it ends.
    std::vector<int> delta(std::size_t(std::ceil(s.makespan)) + 2, 0);
    for (std::size_t node = 0; node < s.items.size(); ++node) {
        const std::size_t k = node % n;
        if (!holds[k])
            continue;
        const std::size_t offset = node - k;
        double end = s.items[node].finish;
        bool read = false;
        for (int e : g.out[k]) {
            const DependencyEdge &edge = g.edges[std::size_t(e)];
            if (edge.kind != DependencyKind::Raw)
                continue;
            const double use = s.items[offset + std::size_t(edge.to)].start;
            end = read ? std::max(end, use) : use;
            read = true;
        }
        ++delta[std::size_t(s.items[node].start)];
        --delta[std::size_t(std::ceil(end))];
    }
    int live = 0;
    int peak = 0;
    for (int d : delta) {
        live += d;
        peak = std::max(peak, live);
    }
    return peak + int(g.carried.size()) * g.unroll * copies;
}

} // namespace

Schedule scheduleGraph(const DependencyGraph &g, const CoreModel &model)
{
    return scheduleCopies(g, 1, model);
}

Schedule scheduleCopies(const DependencyGraph &g, int copies, const CoreModel &model)
{
    // Node c * n + k is node k of copy c; the copies share nothing, so G's edges and priorities serve all.
    const std::size_t n = g.nodeCount();
    const std::size_t total = n * std::size_t(copies);
    const CriticalPath cp = criticalPath(g);
    std::vector<std::size_t> pipeOf(n);
    for (std::size_t k = 0; k < n; ++k)
        pipeOf[k] = std::size_t(pipelineOf(g.statementOf(int(k)).kind));
    // Rank the nodes: the longest path to the end first, then the earlier statement of the body, then the
    // earlier copy (the same order whether G is unrolled already or its copies are made here).
    std::vector<std::size_t> byRank(n);
    std::iota(byRank.begin(), byRank.end(), std::size_t(0));
    const std::size_t bodySize = g.body.size();
    std::sort(byRank.begin(), byRank.end(), [&](std::size_t a, std::size_t b) {
        if (cp.bottom_level[a] != cp.bottom_level[b])
            return cp.bottom_level[a] > cp.bottom_level[b];
        return std::pair(a % bodySize, a / bodySize) < std::pair(b % bodySize, b / bodySize);
    });
    std::vector<std::size_t> rankOf(n);
    for (std::size_t r = 0; r < n; ++r)
        rankOf[byRank[r]] = r;
    std::vector<std::vector<int>> readyCopies(n); // by rank
    std::array<ReadyBuckets, kPipelineKinds> ready;
    for (ReadyBuckets &b : ready)
        b.bits.assign((n + 63) / 64, 0);
    Schedule s;
    s.items.resize(total);
    std::vector<int> waiting(total);
    std::vector<double> earliest(total, 0);
    std::priority_queue<Pending> pending;
    for (std::size_t node = 0; node < total; ++node) {
        waiting[node] = int(g.in[node % n].size());
        if (waiting[node] == 0)
            pending.push({0, int(node)});
    }
    std::size_t done = 0;
    double t = 0;
    double lastIssue = 0;
    while (done < total) {
        while (!pending.empty() && pending.top().ready <= t) {
            const auto node = std::size_t(pending.top().node);
            pending.pop();
            const std::size_t k = node % n;
            readyCopies[rankOf[k]].push_back(int(node / n));
            ready[pipeOf[k]].set(rankOf[k]);
        }
        std::array<int, kPipelineKinds> used{};
        int issued = 0;
        while (issued < model.issue_width) {
            int pick = -1;
            long rank = -1;
            for (std::size_t p = 0; p < kPipelineKinds; ++p) {
                if (used[p] >= model.pipelines[p])
                    continue;
                const long r = ready[p].best();
                if (r >= 0 && (rank < 0 || r < rank)) {
                    rank = r;
                    pick = int(p);
                }
            }
            if (pick < 0)
                break;
            // Of the ready copies of the best statement, the first copy.
            std::vector<int> &waitingCopies = readyCopies[std::size_t(rank)];
            const auto first = std::min_element(waitingCopies.begin(), waitingCopies.end());
            const std::size_t k = byRank[std::size_t(rank)];
            const std::size_t node = std::size_t(*first) * n + k;
            *first = waitingCopies.back();
            waitingCopies.pop_back();
            if (waitingCopies.empty())
                ready[std::size_t(pick)].clear(std::size_t(rank));
            const std::size_t offset = node - k;
            s.items[node] = {int(node), PipelineKind(pick), used[std::size_t(pick)]++, t, t + g.latency[k]};
            ++issued;
            ++done;
            for (int e : g.out[k]) {
                const DependencyEdge &edge = g.edges[std::size_t(e)];
                const std::size_t to = offset + std::size_t(edge.to);
                earliest[to] = std::max(earliest[to], t + edge.weight);
                if (--waiting[to] == 0)
                    pending.push({std::ceil(earliest[to]), int(to)});
            }
        }
        if (issued > 0) {
            ++s.issue_cycles;
            lastIssue = t;
        }
        const bool blocked = std::any_of(ready.begin(), ready.end(), [](const ReadyBuckets &b) { return b.best() >= 0; });
        if (blocked || pending.empty())
            t += 1;
        else
            t = std::max(t + 1, pending.top().ready);
    }
    double latencySum = 0;
    for (std::size_t node = 0; node < total; ++node) {
        s.makespan = std::max(s.makespan, s.items[node].finish);
        latencySum += g.latency[node % n];
    }
    s.stall_cycles = int(lastIssue) + 1 - s.issue_cycles;
    s.ilp = latencySum / s.makespan;
    s.registers = registersNeeded(g, copies, s);
    return s;
}

} // namespace crossroof::core
