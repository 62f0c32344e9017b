// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/view_settings_json.h"

#include "core/markov/cpu_topology.h"
#include "core/markov/markov.h"
#include "core/skeleton/projection.h"
#include "core/skeleton/skeleton.h"
#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace crossroof::core::detail {

OccupancySettings readOccupancy(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "",
                {"cc", "threads_per_block", "regs_per_thread", "smem_per_block", "smem_config", "mode",
                 "linked", "manual_active_blocks", "sm_count", "requested_blocks_max"},
                "a session field");
    OccupancySettings o;
    o.cc = r.string(obj, "cc", "cc", false); // none: the profile's
    o.threads_per_block = int(r.integer(obj, "threads_per_block", "threads_per_block", 1, 1024, 256));
    o.regs_per_thread = int(r.integer(obj, "regs_per_thread", "regs_per_thread", 0, 65536, 32));
    o.smem_per_block = r.integer(obj, "smem_per_block", "smem_per_block", 0, 1LL << 30, 0);
    if (obj.contains("smem_config") && !obj["smem_config"].is_null())
        o.smem_config = r.integer(obj, "smem_config", "smem_config", 0, 1LL << 30, std::nullopt);
    o.mode = r.string(obj, "mode", "mode", false);
    if (o.mode.empty())
        o.mode = "cuda";
    if (o.mode != "cuda" && o.mode != "paper")
        r.fail("mode", "must be cuda or paper (got '" + brief(o.mode) + "')");
    o.linked = r.boolean(obj, "linked", "linked", false);
    if (obj.contains("manual_active_blocks") && !obj["manual_active_blocks"].is_null())
        o.manual_active_blocks = int(r.integer(obj, "manual_active_blocks", "manual_active_blocks", 1, 1 << 20, std::nullopt));
    o.sm_count = r.integer(obj, "sm_count", "sm_count", 1, 1 << 20, 0); // none: the profile's
    o.requested_blocks_max = r.integer(obj, "requested_blocks_max", "requested_blocks_max", 0, 1000000, 0);
    return o;
}

namespace {

CounterInputs readCounters(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"instructions", "suspend", "stall", "measured_cpi"}, "a session field");
    constexpr double kHuge = 1e300;
    CounterInputs c;
    c.instructions = r.number(obj, "instructions", "instructions", 0, kHuge, 0);
    auto list = [&](const char *key) -> const json & {
        static const json empty = json::array();
        if (!obj.contains(key))
            return empty;
        if (!obj[key].is_array())
            r.fail(key, "must be an array of events");
        return obj[key];
    };
    const json &suspend = list("suspend");
    for (std::size_t i = 0; i < suspend.size(); ++i) {
        const JsonReader er = r.nested("suspend[" + std::to_string(i) + "].");
        er.checkKeys(suspend[i], "", {"name", "multi", "single"}, "a session field");
        c.suspend.push_back({er.string(suspend[i], "name", "name", false),
                             er.number(suspend[i], "multi", "multi", 0, kHuge, std::nullopt),
                             er.number(suspend[i], "single", "single", 0, kHuge, std::nullopt)});
    }
    const json &stall = list("stall");
    for (std::size_t i = 0; i < stall.size(); ++i) {
        const JsonReader er = r.nested("stall[" + std::to_string(i) + "].");
        er.checkKeys(stall[i], "", {"name", "count", "latency"}, "a session field");
        c.stall.push_back({er.string(stall[i], "name", "name", false),
                           er.number(stall[i], "count", "count", 0, kHuge, std::nullopt),
                           er.number(stall[i], "latency", "latency", 1, kHuge, std::nullopt)});
    }
    if (obj.contains("measured_cpi") && !obj["measured_cpi"].is_null())
        c.measured_cpi = r.number(obj, "measured_cpi", "measured_cpi", 1, 1e6, std::nullopt);
    return c;
}

} // namespace

TmmSettings readTmm(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"T1", "T_inf", "M", "L", "T", "P", "B_r", "apsp_n", "apsp_S_D", "apsp_C"},
                "a session field");
    // Texts as typed: any string (even empty or not a number, which the view reports) short enough to be one.
    auto text = [&](const char *key, const std::string &fallback) {
        if (!obj.contains(key))
            return fallback;
        std::string v = r.string(obj, key, key, false);
        if (v.size() > kMaxTmmTextLength)
            r.fail(key, "must be at most " + std::to_string(kMaxTmmTextLength) + " characters (got "
                                + std::to_string(v.size()) + ")");
        return v;
    };
    const TmmSettings d;
    TmmSettings t;
    t.work = text("T1", d.work);
    t.span = text("T_inf", d.span);
    t.transactions = text("M", d.transactions);
    t.latency = text("L", d.latency);
    t.threads_per_core = text("T", d.threads_per_core);
    t.cores = text("P", d.cores);
    t.requested_blocks = text("B_r", d.requested_blocks);
    t.apsp_vertices = int(r.integer(obj, "apsp_n", "apsp_n", 2, 1 << 24, d.apsp_vertices));
    t.apsp_sub_block = int(r.integer(obj, "apsp_S_D", "apsp_S_D", 1, 1 << 24, d.apsp_sub_block));
    t.apsp_chunk = text("apsp_C", d.apsp_chunk);
    return t;
}

MarkovSettings readMarkov(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "",
                {"groups", "threads_per_group", "topology_source", "grid", "steps", "p_index", "q_index",
                 "measured_cpi", "counters"},
                "a session field");
    MarkovSettings m;
    m.groups = int(r.integer(obj, "groups", "groups", 1, 64, 4));
    m.threads_per_group = int(r.integer(obj, "threads_per_group", "threads_per_group", 1, 64, 2));
    m.topology_source = r.string(obj, "topology_source", "topology_source", false);
    if (!m.topology_source.empty() && std::count(m.topology_source.begin(), m.topology_source.end(), '/') != 1)
        r.fail("topology_source", "must be PROFILE/STRATEGY, e.g. clovertown-x5365/4T_4 (got '" + brief(m.topology_source) + "')");
    m.grid = r.string(obj, "grid", "grid", false);
    if (m.grid.empty())
        m.grid = "thesis";
    try {
        MarkovGrid::fromText(m.grid).values();
    } catch (const InputError &e) {
        r.fail("grid", e.what());
    }
    if (obj.contains("steps") && !obj["steps"].is_null())
        m.steps = r.integer(obj, "steps", "steps", 1, 1000000, std::nullopt);
    m.p_index = int(r.integer(obj, "p_index", "p_index", 0, 100000, 12));
    m.q_index = int(r.integer(obj, "q_index", "q_index", 0, 100000, 20));
    if (obj.contains("measured_cpi") && !obj["measured_cpi"].is_null())
        m.measured_cpi = r.number(obj, "measured_cpi", "measured_cpi", 1, 1e6, std::nullopt);
    if (obj.contains("counters") && !obj["counters"].is_null())
        m.counters = readCounters(r.nested("counters."), obj["counters"]);
    return m;
}

MappingSettings readMapping(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"profile", "p", "q", "points", "own_strategies"}, "a session field");
    MappingSettings m;
    const std::string profile = r.string(obj, "profile", "profile", false);
    if (!profile.empty())
        m.profile_id = profile;
    m.p = r.number(obj, "p", "p", 0, 1, m.p);
    m.q = r.number(obj, "q", "q", 0, 1, m.q);
    if (obj.contains("points")) {
        const json &points = obj["points"];
        if (!points.is_array())
            r.fail("points", "must be an array of {\"strategy\", \"p\", \"q\"}");
        for (std::size_t i = 0; i < points.size(); ++i) {
            const std::string at = "points[" + std::to_string(i) + "]";
            const JsonReader pr = r.nested(at + ".");
            pr.checkKeys(points[i], "", {"strategy", "p", "q"}, "a session field");
            MappingSettings::Point point;
            point.strategy = pr.string(points[i], "strategy", "strategy", true);
            point.p = pr.number(points[i], "p", "p", 0, 1, std::nullopt);
            point.q = pr.number(points[i], "q", "q", 0, 1, std::nullopt);
            m.points.push_back(point);
        }
    }
    if (obj.contains("own_strategies")) {
        const json &own = obj["own_strategies"];
        if (!own.is_array())
            r.fail("own_strategies", "must be an array of {\"id\", \"cores\"}");
        for (std::size_t i = 0; i < own.size(); ++i) {
            const std::string at = "own_strategies[" + std::to_string(i) + "]";
            const JsonReader sr = r.nested(at + ".");
            sr.checkKeys(own[i], "", {"id", "cores"}, "a session field");
            MappingSettings::OwnStrategy strategy;
            strategy.id = sr.string(own[i], "id", "id", true);
            const json &cores = sr.require(own[i], "cores", "cores");
            if (!cores.is_array() || cores.empty() || cores.size() > std::size_t(kMaxMappedThreads))
                sr.fail("cores", "must be an array of 1 to " + std::to_string(kMaxMappedThreads) + " core ids");
            for (const json &core : cores) {
                if (!core.is_number_integer() || core.get<long long>() < 0 || core.get<long long>() > kMaxCoreId)
                    sr.fail("cores", "must hold whole core ids from 0 to " + std::to_string(kMaxCoreId));
                strategy.cores.push_back(int(core.get<long long>()));
            }
            m.own_strategies.push_back(std::move(strategy));
        }
    }
    return m;
}

StabilitySettings readStability(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"x_key", "y_key", "resolution", "sweep_key", "sweep_shows_k"}, "a session field");
    StabilitySettings s;
    auto key = [&](const char *field, std::string fallback) {
        std::string v = r.string(obj, field, field, false);
        if (v.empty())
            return fallback;
        if (!findParameter(v))
            r.fail(field, "is not a parameter key (got '" + brief(v) + "')");
        return v;
    };
    s.x_key = key("x_key", s.x_key);
    s.y_key = key("y_key", s.y_key);
    s.resolution = int(r.integer(obj, "resolution", "resolution", 16, 512, 128));
    s.sweep_key = key("sweep_key", s.sweep_key);
    s.sweep_shows_k = r.boolean(obj, "sweep_shows_k", "sweep_shows_k", false);
    return s;
}

RooflineSettings readRoofline(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"names", "predictions", "levels"}, "a session field");
    RooflineSettings s;
    s.names = r.boolean(obj, "names", "names", s.names);
    s.predictions = r.boolean(obj, "predictions", "predictions", s.predictions);
    s.levels = r.boolean(obj, "levels", "levels", s.levels);
    return s;
}

SkeletonSettings readSkeleton(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "", {"text", "profile", "unroll", "measured"}, "a session field");
    SkeletonSettings s;
    if (obj.contains("text")) {
        std::string text = r.string(obj, "text", "text", true);
        if (text.size() > kMaxSkeletonBytes)
            r.fail("text", "must be at most " + std::to_string(kMaxSkeletonBytes) + " bytes");
        s.text = std::move(text);
    }
    if (std::string id = r.string(obj, "profile", "profile", false); !id.empty())
        s.profile_id = std::move(id);
    s.unroll = int(r.integer(obj, "unroll", "unroll", 1, kMaxUnroll, s.unroll));
    if (obj.contains("measured")) {
        const json &measured = obj["measured"];
        if (!measured.is_array() || measured.size() > std::size_t(kMaxUnroll))
            r.fail("measured", "must be an array of at most 16 {\"unroll\", \"cycles\"}");
        for (std::size_t i = 0; i < measured.size(); ++i) {
            const std::string at = "measured[" + std::to_string(i) + "].";
            const JsonReader mr = r.nested(at);
            mr.checkKeys(measured[i], "", {"unroll", "cycles"}, "a session field");
            const int factor = int(mr.integer(measured[i], "unroll", "unroll", 1, kMaxUnroll, std::nullopt));
            const double cycles = mr.number(measured[i], "cycles", "cycles", 1e-300, 1e300, std::nullopt);
            s.measured.emplace_back(factor, cycles);
        }
    }
    return s;
}

std::vector<PlotZoom> readZoom(const JsonReader &r, const json &zoom)
{
    if (!zoom.is_array())
        r.fail("zoom", "must be an array of {\"view\", \"plot\", \"x\", \"y\"}");
    std::vector<PlotZoom> out;
    for (std::size_t i = 0; i < zoom.size(); ++i) {
        const std::string at = "zoom[" + std::to_string(i) + "]";
        const JsonReader zr = r.nested(at + ".");
        zr.checkKeys(zoom[i], "", {"view", "plot", "x", "y"}, "a session field");
        PlotZoom z;
        z.view = zr.string(zoom[i], "view", "view", true);
        if (std::find(kViews.begin(), kViews.end(), z.view) == kViews.end())
            zr.fail("view", "is not a view (got '" + brief(z.view) + "')");
        z.plot = int(zr.integer(zoom[i], "plot", "plot", 0, 16, 0));
        for (const char *axis : {"x", "y"}) {
            const json &range = zr.require(zoom[i], axis, axis);
            if (!range.is_array() || range.size() != 2 || !range[0].is_number() || !range[1].is_number())
                zr.fail(axis, "must be [lower, upper]");
            const double lower = range[0].get<double>();
            const double upper = range[1].get<double>();
            if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper))
                zr.fail(axis, "must be [lower, upper] with lower < upper, both finite");
            (axis == std::string("x") ? z.x_lower : z.y_lower) = lower;
            (axis == std::string("x") ? z.x_upper : z.y_upper) = upper;
        }
        out.push_back(z);
    }
    return out;
}

using Ordered = nlohmann::ordered_json;

Ordered occupancyToJson(const OccupancySettings &o)
{
    // The profile's capability and SM count (none of the occupancy's own) are left out, as they were read.
    Ordered out = {{"cc", o.cc},
                   {"threads_per_block", o.threads_per_block},
                   {"regs_per_thread", o.regs_per_thread},
                   {"smem_per_block", o.smem_per_block},
                   {"smem_config", o.smem_config ? Ordered(*o.smem_config) : Ordered(nullptr)},
                   {"mode", o.mode},
                   {"linked", o.linked},
                   {"manual_active_blocks", o.manual_active_blocks ? Ordered(*o.manual_active_blocks) : Ordered(nullptr)},
                   {"sm_count", o.sm_count},
                   {"requested_blocks_max", o.requested_blocks_max}};
    if (o.cc.empty())
        out.erase("cc");
    if (o.sm_count <= 0)
        out.erase("sm_count");
    return out;
}

Ordered tmmToJson(const TmmSettings &t)
{
    return {{"T1", t.work},
            {"T_inf", t.span},
            {"M", t.transactions},
            {"L", t.latency},
            {"T", t.threads_per_core},
            {"P", t.cores},
            {"B_r", t.requested_blocks},
            {"apsp_n", t.apsp_vertices},
            {"apsp_S_D", t.apsp_sub_block},
            {"apsp_C", t.apsp_chunk}};
}

Ordered markovToJson(const MarkovSettings &m)
{
    Ordered markov = {{"groups", m.groups},
                      {"threads_per_group", m.threads_per_group},
                      {"topology_source", m.topology_source},
                      {"grid", m.grid},
                      {"steps", m.steps ? Ordered(*m.steps) : Ordered(nullptr)},
                      {"p_index", m.p_index},
                      {"q_index", m.q_index},
                      {"measured_cpi", m.measured_cpi ? Ordered(*m.measured_cpi) : Ordered(nullptr)},
                      {"counters", nullptr}};
    if (m.counters) {
        Ordered suspend = Ordered::array();
        for (const auto &e : m.counters->suspend)
            suspend.push_back({{"name", e.name}, {"multi", e.multi}, {"single", e.single}});
        Ordered stall = Ordered::array();
        for (const auto &e : m.counters->stall)
            stall.push_back({{"name", e.name}, {"count", e.count}, {"latency", e.latency}});
        markov["counters"] = {{"instructions", m.counters->instructions},
                              {"suspend", suspend},
                              {"stall", stall},
                              {"measured_cpi", m.counters->measured_cpi ? Ordered(*m.counters->measured_cpi)
                                                                        : Ordered(nullptr)}};
    }
    return markov;
}

Ordered mappingToJson(const MappingSettings &mapping)
{
    Ordered points = Ordered::array();
    for (const auto &point : mapping.points)
        points.push_back({{"strategy", point.strategy}, {"p", point.p}, {"q", point.q}});
    Ordered out = {{"profile", mapping.profile_id}, {"p", mapping.p}, {"q", mapping.q}, {"points", points}};
    if (!mapping.own_strategies.empty()) {
        Ordered own = Ordered::array();
        for (const auto &strategy : mapping.own_strategies)
            own.push_back({{"id", strategy.id}, {"cores", strategy.cores}});
        out["own_strategies"] = own;
    }
    return out;
}

Ordered stabilityToJson(const StabilitySettings &st)
{
    return {{"x_key", st.x_key},
            {"y_key", st.y_key},
            {"resolution", st.resolution},
            {"sweep_key", st.sweep_key},
            {"sweep_shows_k", st.sweep_shows_k}};
}

Ordered rooflineToJson(const RooflineSettings &roofline)
{
    return {{"names", roofline.names}, {"predictions", roofline.predictions}, {"levels", roofline.levels}};
}

Ordered skeletonToJson(const SkeletonSettings &s)
{
    Ordered skeleton = {{"profile", s.profile_id}, {"unroll", s.unroll}};
    if (s.text)
        skeleton["text"] = *s.text;
    if (!s.measured.empty()) {
        Ordered measured = Ordered::array();
        for (const auto &[factor, cycles] : s.measured)
            measured.push_back({{"unroll", factor}, {"cycles", cycles}});
        skeleton["measured"] = measured;
    }
    return skeleton;
}

Ordered zoomToJson(const std::vector<PlotZoom> &zoom)
{
    Ordered out = Ordered::array();
    for (const PlotZoom &z : zoom) {
        out.push_back({{"view", z.view},
                       {"plot", z.plot},
                       {"x", Ordered::array({z.x_lower, z.x_upper})},
                       {"y", Ordered::array({z.y_lower, z.y_upper})}});
    }
    return out;
}

} // namespace crossroof::core::detail
