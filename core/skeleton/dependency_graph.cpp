// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/dependency_graph.h"

#include "core/support/error.h"

#include <algorithm>
#include <map>
#include <set>

namespace crossroof::core {

namespace {

/// The edges of one copy of the body, between statement indices.
std::vector<DependencyEdge> bodyEdges(const std::vector<SkeletonStatement> &body)
{
    std::map<std::string, int, std::less<>> lastWriter;
    std::map<std::string, std::vector<int>, std::less<>> readersSince;
    std::map<std::pair<int, int>, std::size_t> byPair;
    std::vector<DependencyEdge> edges;
    const auto add = [&](int from, int to, DependencyKind kind, const std::string &variable) {
        const auto [it, inserted] = byPair.try_emplace({from, to}, edges.size());
        if (inserted)
            edges.push_back({from, to, kind, variable, 0});
        else if (int(kind) < int(edges[it->second].kind))
            edges[it->second] = {from, to, kind, variable, 0};
    };
    for (int j = 0; j < int(body.size()); ++j) {
        const SkeletonStatement &s = body[std::size_t(j)];
        for (const std::string &v : s.sources) {
            const auto w = lastWriter.find(v);
            if (w != lastWriter.end() && w->second != j)
                add(w->second, j, DependencyKind::Raw, v);
        }
        if (!s.target.empty()) {
            const auto w = lastWriter.find(s.target);
            if (w != lastWriter.end())
                add(w->second, j, DependencyKind::Waw, s.target);
            for (int reader : readersSince[s.target])
                if (reader != j)
                    add(reader, j, DependencyKind::War, s.target);
        }
        for (const std::string &v : s.sources)
            readersSince[v].push_back(j);
        if (!s.target.empty()) {
            lastWriter[s.target] = j;
            readersSince[s.target].clear();
        }
    }
    std::sort(edges.begin(), edges.end(),
              [](const DependencyEdge &a, const DependencyEdge &b) { return std::tie(a.to, a.from) < std::tie(b.to, b.from); });
    return edges;
}

std::vector<std::string> carriedVariables(const std::vector<SkeletonStatement> &body)
{
    std::set<std::string, std::less<>> targets;
    for (const SkeletonStatement &s : body)
        targets.insert(s.target);
    std::set<std::string, std::less<>> written;
    std::vector<std::string> carried;
    for (const SkeletonStatement &s : body) {
        for (const std::string &v : s.sources) {
            if (!written.count(v) && targets.count(v) && std::find(carried.begin(), carried.end(), v) == carried.end())
                carried.push_back(v);
        }
        if (!s.target.empty())
            written.insert(s.target);
    }
    return carried;
}

} // namespace

std::string_view dependencyKindName(DependencyKind kind)
{
    switch (kind) {
    case DependencyKind::War:
        return "WAR";
    case DependencyKind::Waw:
        return "WAW";
    case DependencyKind::Raw:
        break;
    }
    return "RAW";
}

DependencyGraph buildDependencyGraph(const std::vector<SkeletonStatement> &body, const CoreModel &model, int unroll)
{
    if (body.empty())
        throw InputError("the loop body has no statements");
    if (unroll < 1 || unroll > 64)
        throw InputError("the unroll factor must be from 1 to 64 (got " + std::to_string(unroll) + ")");
    DependencyGraph g;
    g.unroll = unroll;
    g.body = body;
    g.carried = carriedVariables(body);
    const std::vector<DependencyEdge> once = bodyEdges(body);
    const std::size_t n = body.size();
    g.latency.reserve(n * std::size_t(unroll));
    g.edges.reserve(once.size() * std::size_t(unroll));
    for (int copy = 0; copy < unroll; ++copy) {
        for (const SkeletonStatement &s : body)
            g.latency.push_back(model.latencyOf(s.kind));
        const int offset = copy * int(n);
        for (const DependencyEdge &e : once)
            g.edges.push_back({e.from + offset, e.to + offset, e.kind, e.variable, 0});
    }
    g.out.resize(g.latency.size());
    g.in.resize(g.latency.size());
    for (std::size_t i = 0; i < g.edges.size(); ++i) {
        DependencyEdge &e = g.edges[i];
        e.weight = g.latency[std::size_t(e.from)];
        g.out[std::size_t(e.from)].push_back(int(i));
        g.in[std::size_t(e.to)].push_back(int(i));
    }
    return g;
}

CriticalPath criticalPath(const DependencyGraph &g)
{
    // Edges only go forward in statement order, so one backward sweep finds every bottom level.
    const std::size_t n = g.nodeCount();
    CriticalPath cp;
    cp.bottom_level.assign(n, 0);
    std::vector<int> next(n, -1);
    for (std::size_t k = n; k-- > 0;) {
        double best = 0;
        for (int e : g.out[k]) {
            const DependencyEdge &edge = g.edges[std::size_t(e)];
            const double through = edge.weight - g.latency[k] + cp.bottom_level[std::size_t(edge.to)];
            if (through > best) {
                best = through;
                next[k] = edge.to;
            }
        }
        cp.bottom_level[k] = g.latency[k] + best;
    }
    int start = -1;
    for (std::size_t k = 0; k < n; ++k)
        if (start < 0 || cp.bottom_level[k] > cp.bottom_level[std::size_t(start)])
            start = int(k);
    cp.cycles = cp.bottom_level[std::size_t(start)];
    for (int k = start; k >= 0; k = next[std::size_t(k)])
        cp.nodes.push_back(k);
    return cp;
}

} // namespace crossroof::core
