// SPDX-License-Identifier: GPL-3.0-or-later
#include "skeleton/schedule.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace crossroof::core {

namespace {

/// The highest bottom level first; among equals, the earlier statement, then the earlier copy.
struct Priority
{
    double level;
    int order;
    int node;
    bool operator<(const Priority &o) const { return level != o.level ? level < o.level : order > o.order; }
};

struct Pending
{
    double ready;
    int node;
    bool operator<(const Pending &o) const { return ready > o.ready; }
};

int registersNeeded(const DependencyGraph &g, const Schedule &s)
{
    // A value holds a register from the issue of its statement to the issue of its last RAW reader.
    std::vector<std::pair<double, int>> events;
    for (std::size_t k = 0; k < g.nodeCount(); ++k) {
        const SkeletonStatement &st = g.statementOf(int(k));
        if (st.target.empty()
            || std::find(g.carried.begin(), g.carried.end(), st.target) != g.carried.end())
            continue;
        double end = s.items[k].finish;
        bool read = false;
        for (int e : g.out[k]) {
            const DependencyEdge &edge = g.edges[std::size_t(e)];
            if (edge.kind == DependencyKind::Raw) {
                end = read ? std::max(end, s.items[std::size_t(edge.to)].start) : s.items[std::size_t(edge.to)].start;
                read = true;
            }
        }
        events.emplace_back(s.items[k].start, +1);
        events.emplace_back(end, -1);
    }
    std::sort(events.begin(), events.end()); // at equal times, a release before an allocation
    int live = 0;
    int peak = 0;
    for (const auto &[time, delta] : events) {
        live += delta;
        peak = std::max(peak, live);
    }
    return peak + int(g.carried.size()) * g.unroll;
}

} // namespace

Schedule scheduleGraph(const DependencyGraph &g, const CoreModel &model)
{
    const std::size_t n = g.nodeCount();
    const std::size_t bodySize = g.body.size();
    const CriticalPath cp = criticalPath(g);
    Schedule s;
    s.items.resize(n);
    std::vector<int> waiting(n);
    std::vector<double> earliest(n, 0);
    std::array<std::priority_queue<Priority>, kPipelineKinds> ready;
    std::priority_queue<Pending> pending;
    const auto orderOf = [&](int node) { return int(std::size_t(node) % bodySize) * g.unroll + g.copyOf(node); };
    for (std::size_t k = 0; k < n; ++k) {
        waiting[k] = int(g.in[k].size());
        if (waiting[k] == 0)
            pending.push({0, int(k)});
    }
    std::size_t done = 0;
    double t = 0;
    double lastIssue = 0;
    while (done < n) {
        while (!pending.empty() && pending.top().ready <= t) {
            const int node = pending.top().node;
            pending.pop();
            const auto kind = pipelineOf(g.statementOf(node).kind);
            ready[std::size_t(kind)].push({cp.bottom_level[std::size_t(node)], orderOf(node), node});
        }
        std::array<int, kPipelineKinds> used{};
        int issued = 0;
        while (issued < model.issue_width) {
            int pick = -1;
            for (std::size_t k = 0; k < kPipelineKinds; ++k) {
                if (ready[k].empty() || used[k] >= model.pipelines[k])
                    continue;
                if (pick < 0 || ready[std::size_t(pick)].top() < ready[k].top())
                    pick = int(k);
            }
            if (pick < 0)
                break;
            const int node = ready[std::size_t(pick)].top().node;
            ready[std::size_t(pick)].pop();
            ScheduledStatement &item = s.items[std::size_t(node)];
            item = {node, PipelineKind(pick), used[std::size_t(pick)]++, t, t + g.latency[std::size_t(node)]};
            ++issued;
            ++done;
            for (int e : g.out[std::size_t(node)]) {
                const DependencyEdge &edge = g.edges[std::size_t(e)];
                const auto to = std::size_t(edge.to);
                earliest[to] = std::max(earliest[to], t + edge.weight);
                if (--waiting[to] == 0)
                    pending.push({std::ceil(earliest[to]), edge.to});
            }
        }
        if (issued > 0) {
            ++s.issue_cycles;
            lastIssue = t;
        }
        const bool blocked = std::any_of(ready.begin(), ready.end(), [](const auto &q) { return !q.empty(); });
        if (blocked || pending.empty())
            t += 1;
        else
            t = std::max(t + 1, pending.top().ready);
    }
    double latencySum = 0;
    for (std::size_t k = 0; k < n; ++k) {
        s.makespan = std::max(s.makespan, s.items[k].finish);
        latencySum += g.latency[k];
    }
    s.stall_cycles = int(lastIssue) + 1 - s.issue_cycles;
    s.ilp = latencySum / s.makespan;
    s.registers = registersNeeded(g, s);
    return s;
}

} // namespace crossroof::core
