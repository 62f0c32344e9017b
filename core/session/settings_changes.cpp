// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/settings_changes.h"

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

namespace crossroof::core {

namespace {

/// The changed fields of one settings value, described as they are added.
class Changes
{
public:
    /// NAME BEFORE → AFTER, when they differ.
    void add(const std::string &name, const std::string &before, const std::string &after)
    {
        const auto shown = [](const std::string &v) { return v.empty() ? std::string("(empty)") : v; };
        if (before != after)
            m_items.push_back(name + " " + shown(before) + " \u2192 " + shown(after));
    }
    /// NAME on → off, when they differ.
    void flag(const std::string &name, bool before, bool after) { add(name, onOff(before), onOff(after)); }
    /// NAME alone ("Skeleton edited"), when CHANGED.
    void note(const std::string &text, bool changed)
    {
        if (changed)
            m_items.push_back(text);
    }

    std::string text() const
    {
        std::string out;
        const std::size_t shown = m_items.size() > 3 ? 3 : m_items.size();
        for (std::size_t i = 0; i < shown; ++i)
            out += (i ? "; " : "") + m_items[i];
        if (m_items.size() > shown)
            out += "; and " + std::to_string(m_items.size() - shown) + " more";
        return out;
    }

private:
    static std::string onOff(bool on) { return on ? "on" : "off"; }
    std::vector<std::string> m_items;
};

/// A number as the controls show it: up to 6 significant digits, no trailing zeros.
std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string count(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// A grid as the Markov view lists it: "thesis", "uniform 100", "logit 200".
std::string gridName(std::string grid)
{
    for (char &c : grid) {
        if (c == ':')
            c = ' ';
    }
    return grid;
}

} // namespace

std::string describeChange(const TmmSettings &a, const TmmSettings &b)
{
    Changes c;
    c.add("T1", a.work, b.work);
    c.add("T_inf", a.span, b.span);
    c.add("M", a.transactions, b.transactions);
    c.add("L", a.latency, b.latency);
    c.add("T", a.threads_per_core, b.threads_per_core);
    c.add("P", a.cores, b.cores);
    c.add("B_r", a.requested_blocks, b.requested_blocks);
    c.add("APSP n", std::to_string(a.apsp_vertices), std::to_string(b.apsp_vertices));
    c.add("APSP S_D", std::to_string(a.apsp_sub_block), std::to_string(b.apsp_sub_block));
    c.add("APSP C", a.apsp_chunk, b.apsp_chunk);
    return c.text();
}

std::string describeChange(const OccupancySettings &a, const OccupancySettings &b)
{
    const auto config = [](const std::optional<long long> &bytes) {
        return bytes ? std::to_string(*bytes) + " B" : std::string("largest");
    };
    const auto manual = [](const std::optional<int> &blocks) {
        return blocks ? std::to_string(*blocks) : std::string("from the calculator");
    };
    const auto brMax = [](long long v) { return v > 0 ? std::to_string(v) : std::string("automatic"); };
    Changes c;
    c.add("Compute capability", a.cc, b.cc);
    c.add("Mode", a.mode, b.mode);
    c.add("Block size", std::to_string(a.threads_per_block), std::to_string(b.threads_per_block));
    c.add("Registers/thread", std::to_string(a.regs_per_thread), std::to_string(b.regs_per_thread));
    c.add("Shared memory/block", std::to_string(a.smem_per_block) + " B", std::to_string(b.smem_per_block) + " B");
    c.add("Shared memory/SM", config(a.smem_config), config(b.smem_config));
    c.flag("Link n to B_a", a.linked, b.linked);
    c.add("SMs", std::to_string(a.sm_count), std::to_string(b.sm_count));
    c.add("B_a", manual(a.manual_active_blocks), manual(b.manual_active_blocks));
    c.add("B_r up to", brMax(a.requested_blocks_max), brMax(b.requested_blocks_max));
    return c.text();
}

bool onlyZigzagInputsDiffer(const OccupancySettings &before, const OccupancySettings &after)
{
    OccupancySettings zigzagAsBefore = after;
    zigzagAsBefore.sm_count = before.sm_count;
    zigzagAsBefore.manual_active_blocks = before.manual_active_blocks;
    zigzagAsBefore.requested_blocks_max = before.requested_blocks_max;
    return zigzagAsBefore == before && !(before == after);
}

std::string describeChange(const MarkovSettings &a, const MarkovSettings &b)
{
    const auto topology = [](const MarkovSettings &s) {
        return s.topology_source.empty() ? std::string("groups × threads") : s.topology_source;
    };
    const auto steps = [](const std::optional<long long> &n) {
        return n ? std::to_string(*n) + " steps" : std::string("steady state");
    };
    const auto cpi = [](const std::optional<double> &v) { return v ? number(*v) : std::string("none"); };
    Changes c;
    c.add("Topology", topology(a), topology(b));
    c.add("Groups", std::to_string(a.groups), std::to_string(b.groups));
    c.add("Threads each", std::to_string(a.threads_per_group), std::to_string(b.threads_per_group));
    c.add("Grid", gridName(a.grid), gridName(b.grid));
    c.add("Transient", steps(a.steps), steps(b.steps));
    c.add("Measured CPI", cpi(a.measured_cpi), cpi(b.measured_cpi));
    c.add("Picked (p, q) cell", "(" + std::to_string(a.p_index) + ", " + std::to_string(a.q_index) + ")",
          "(" + std::to_string(b.p_index) + ", " + std::to_string(b.q_index) + ")");
    if (a.counters.has_value() != b.counters.has_value())
        c.add("Counters", a.counters ? "imported" : "none", b.counters ? "imported" : "none");
    else
        c.note("Counters changed", a.counters != b.counters);
    return c.text();
}

std::string describeChange(const MappingSettings &a, const MappingSettings &b)
{
    Changes c;
    c.add("CPU", a.profile_id, b.profile_id);
    c.add("Common p", number(a.p), number(b.p));
    c.add("Common q", number(a.q), number(b.q));
    // A point per strategy: name the strategy whose measured (p, q) changed.
    for (const MappingSettings::Point &after : b.points) {
        const MappingSettings::Point *before = nullptr;
        for (const MappingSettings::Point &p : a.points) {
            if (p.strategy == after.strategy)
                before = &p;
        }
        const auto pq = [](const MappingSettings::Point &p) { return "(" + number(p.p) + ", " + number(p.q) + ")"; };
        c.add(after.strategy + " (p, q)", before ? pq(*before) : std::string("none"), pq(after));
    }
    for (const MappingSettings::Point &before : a.points) {
        bool kept = false;
        for (const MappingSettings::Point &p : b.points)
            kept = kept || p.strategy == before.strategy;
        if (!kept)
            c.add(before.strategy + " (p, q)", "(" + number(before.p) + ", " + number(before.q) + ")", "none");
    }
    c.add("Own strategies", count(a.own_strategies.size(), "strategy", "strategies"),
          count(b.own_strategies.size(), "strategy", "strategies"));
    c.note("Own strategies edited", a.own_strategies.size() == b.own_strategies.size() && a.own_strategies != b.own_strategies);
    return c.text();
}

std::string describeChange(const StabilitySettings &a, const StabilitySettings &b)
{
    const auto shows = [](bool k) { return std::string(k ? "k" : "MS throughput"); };
    Changes c;
    c.add("Map x", a.x_key, b.x_key);
    c.add("Map y", a.y_key, b.y_key);
    c.add("Resolution", std::to_string(a.resolution), std::to_string(b.resolution));
    c.add("Hysteresis of", a.sweep_key, b.sweep_key);
    c.add("showing", shows(a.sweep_shows_k), shows(b.sweep_shows_k));
    return c.text();
}

std::string describeChange(const RooflineSettings &a, const RooflineSettings &b)
{
    Changes c;
    c.flag("Names", a.names, b.names);
    c.flag("Predictions", a.predictions, b.predictions);
    c.flag("L1/L2", a.levels, b.levels);
    return c.text();
}

std::string describeChange(const SkeletonSettings &a, const SkeletonSettings &b)
{
    Changes c;
    if (a.text.has_value() != b.text.has_value())
        c.add("Skeleton", a.text ? "own text" : "sample", b.text ? "own text" : "sample");
    else
        c.note("Skeleton edited", a.text != b.text);
    c.add("Core", a.profile_id, b.profile_id);
    c.add("Unroll", std::to_string(a.unroll), std::to_string(b.unroll));
    c.add("Measured cycles", count(a.measured.size(), "point", "points"), count(b.measured.size(), "point", "points"));
    c.note("Measured cycles edited", a.measured.size() == b.measured.size() && a.measured != b.measured);
    return c.text();
}

std::string describeChange(const ExtrapolateSettings &a, const ExtrapolateSettings &b)
{
    const auto runs = [](const std::optional<TrainingSet> &t) {
        return t ? count(t->rows.size(), "run", "runs") + " of " + t->source : std::string("none");
    };
    Changes c;
    c.add("Training runs", runs(a.training), runs(b.training));
    c.note("Training columns changed",
           a.training && b.training && runs(a.training) == runs(b.training) && a.training != b.training);
    c.flag("Smoothing", a.smoothing, b.smoothing);
    const auto measured = [](const ExtrapolateSettings &e) {
        return e.measured.empty() ? std::string("none")
                                  : count(e.measured.size(), "measurement", "measurements") + " of " + e.measured_source;
    };
    c.add("Measured CPI", measured(a), measured(b));
    return c.text();
}

} // namespace crossroof::core
