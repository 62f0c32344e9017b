// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/session.h"

#include "core/support/atomic_file.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/profiles/profile_json.h"
#include "core/markov/cpu_topology.h"
#include "core/markov/markov.h"
#include "core/modeltree/training_set.h"
#include "core/skeleton/projection.h"
#include "core/skeleton/skeleton.h"
#include "core/traces/trace_file_cache.h"
#include "core/traces/trace_import.h"
#include "core/traces/trace_json.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/support/utf8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <utility>

namespace crossroof::core {

namespace {

/// The most points a session's traces hold in all, the linked ones as read from their files: twice a
/// 16.7-million-interval trace. 500 links to a table of 400,000 rows (200 million points, each trace its own
/// copy) took 9.5 GB and two minutes to draw; the traces past the limit are left out, each with a problem.
constexpr std::size_t kMaxSessionPoints = std::size_t(1) << 25;

using detail::json;
using detail::JsonReader;

constexpr std::array kViews{"xgraph",    "stability", "occupancy", "zigzag",     "markov",  "mapping",
                            "extrapolate", "bandwidth", "roofline",  "prediction", "skeleton"};

OccupancySettings readOccupancy(const JsonReader &r, const json &obj)
{
    r.checkKeys(obj, "",
                {"cc", "threads_per_block", "regs_per_thread", "smem_per_block", "smem_config", "mode",
                 "linked", "manual_active_blocks", "sm_count", "requested_blocks_max"},
                "a session field");
    OccupancySettings o;
    o.cc = r.string(obj, "cc", "cc", false);
    if (o.cc.empty())
        o.cc = OccupancySettings{}.cc;
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
    o.sm_count = r.integer(obj, "sm_count", "sm_count", 1, 1 << 20, 1);
    o.requested_blocks_max = r.integer(obj, "requested_blocks_max", "requested_blocks_max", 0, 1000000, 0);
    return o;
}

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

/// The zoomed plots: [{"view", "plot", "x": [lower, upper], "y": [lower, upper]}].
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

/// The path of a linked file as written in a session (LINK), relative to FOLDER unless absolute, made absolute.
std::filesystem::path resolveLink(const std::string &link, const std::filesystem::path &folder)
{
    std::filesystem::path path(link);
    if (path.is_relative())
        path = folder / path;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal();
}

TrainingColumns readTrainingColumns(const JsonReader &r, const json &obj)
{
    const TrainingColumns defaults;
    TrainingColumns c;
    std::vector<const char *> keys;
    for (std::string_view key : TrainingColumns::keys())
        keys.push_back(key.data());
    r.checkKeys(obj, "", std::span(keys.data(), keys.size()), "a training column key");
    for (const char *key : keys) {
        const std::string name = r.string(obj, key, key, false);
        if (!name.empty())
            c.set(key, name);
    }
    return c;
}

/// Extrapolate's training runs: embedded ("rows") or linked to their file ("link"), read again from it. Errors
/// in the record throw; a linked file that cannot be read leaves PROBLEM set and gives no training runs.
ExtrapolateSettings readExtrapolate(const JsonReader &r, const json &obj, const std::filesystem::path &folder,
                                    std::string &problem)
{
    r.checkKeys(obj, "", {"smoothing", "source", "columns", "rows", "link"}, "a session field");
    ExtrapolateSettings e;
    e.smoothing = r.boolean(obj, "smoothing", "smoothing", true);
    if (obj.contains("rows") && obj.contains("link"))
        r.fail("link", "linked training runs have no rows: remove 'link' to embed them, or 'rows'");
    if (!obj.contains("rows") && !obj.contains("link"))
        return e;
    TrainingColumns columns;
    if (obj.contains("columns"))
        columns = readTrainingColumns(r.nested("columns."), obj["columns"]);
    if (obj.contains("link")) {
        const std::string link = r.string(obj, "link", "link", true);
        const std::filesystem::path path = resolveLink(link, folder);
        try {
            e.training = readTrainingSet(path.string(), columns);
        } catch (const InputError &error) {
            problem = r.label() + ": field '" + r.prefix() + "link' (" + quoteForMessage(link) + "): " + error.what();
        }
        return e;
    }
    const json &rows = obj["rows"];
    if (!rows.is_array())
        r.fail("rows", "must be an array of training runs");
    TrainingSet set;
    set.source = r.string(obj, "source", "source", false);
    set.columns = columns;
    constexpr double kHuge = 1e100; // kMaxRegressionMagnitude
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const JsonReader rr = r.nested("rows[" + std::to_string(i) + "].");
        rr.checkKeys(rows[i], "",
                     {"line", "size", "iteration", "num_l2", "threads_per_l2", "strategy", "states", "p", "q"},
                     "a training run field");
        TrainingRow row;
        row.line = int(rr.integer(rows[i], "line", "line", 0, 1LL << 31, 0));
        row.size = rr.number(rows[i], "size", "size", -kHuge, kHuge, std::nullopt);
        row.iteration = rr.number(rows[i], "iteration", "iteration", -kHuge, kHuge, std::nullopt);
        row.num_l2 = int(rr.integer(rows[i], "num_l2", "num_l2", 1, kMaxThreadsPerGroup, std::nullopt));
        row.threads_per_l2
                = int(rr.integer(rows[i], "threads_per_l2", "threads_per_l2", 1, kMaxThreadsPerGroup, std::nullopt));
        row.strategy = rr.string(rows[i], "strategy", "strategy", true);
        if (row.strategy.empty())
            rr.fail("strategy", "is empty");
        row.states = rr.number(rows[i], "states", "states", -kHuge, kHuge, std::nullopt);
        row.p = rr.number(rows[i], "p", "p", 0, 1, std::nullopt);
        row.q = rr.number(rows[i], "q", "q", 0, 1, std::nullopt);
        set.rows.push_back(std::move(row));
    }
    r.validate([&] {
        try {
            checkTrainingSet(set);
        } catch (const InputError &error) {
            throw InputError(std::string("rows: ") + error.what());
        }
    });
    e.training = std::move(set);
    return e;
}

/// One linked trace ("link" and "origin" instead of points), read again from its file through FILES (which
/// reads each file once for the whole session). Errors in the record throw; a file that cannot be read (or no
/// longer holds the trace) leaves PROBLEM set and gives none.
std::optional<MeasuredTrace> readLinkedTrace(const JsonReader &r, const json &obj,
                                             const std::filesystem::path &folder, TraceFileCache &files,
                                             std::size_t room, std::string &problem)
{
    for (const char *points : {"x", "y", "extra", "labels"}) {
        if (obj.contains(points))
            r.fail(points, "a linked trace has no points: remove 'link' to embed the trace, or its points");
    }
    r.checkKeys(obj, "", {"id", "name", "kind", "visible", "link", "origin"}, "a session field");
    const std::string id = r.string(obj, "id", "id", true);
    const std::string name = r.string(obj, "name", "name", true);
    const std::string kindName = r.string(obj, "kind", "kind", true);
    const auto kind = traceKindFromName(kindName);
    if (!kind)
        r.fail("kind", "must be bandwidth-vs-warps, kernel-points, runtimes or bytes-per-interval (got '"
                               + brief(kindName) + "')");
    const bool visible = r.boolean(obj, "visible", "visible", true);
    const std::string link = r.string(obj, "link", "link", true);
    const TraceOrigin origin = traceOriginFromJson(r.require(obj, "origin", "origin").dump(), r.label(),
                                                   r.prefix() + "origin.");
    const std::filesystem::path path = resolveLink(link, folder);
    try {
        // Over the session's point limit: left out before its points are made (500 links to one large table
        // made and dropped every trace past the limit).
        if (const std::size_t n = files.pointsAtMost(path.string(), origin); n > room) {
            problem = r.label() + ": field '" + r.prefix() + "link' (" + quoteForMessage(link) + "): left out: its "
                      + std::to_string(n) + " points would put the session's traces over "
                      + std::to_string(kMaxSessionPoints) + " points in all";
            return std::nullopt;
        }
        MeasuredTrace t = files.reread(path.string(), origin);
        if (t.kind != *kind) {
            throw InputError(path.string() + ": now gives a " + std::string(traceKindName(t.kind))
                             + " trace, not the " + kindName + " trace it gave");
        }
        t.id = id;
        t.name = name;
        t.visible = visible;
        return t;
    } catch (const InputError &e) {
        problem = r.label() + ": field '" + r.prefix() + "link' (" + quoteForMessage(link) + "): " + e.what();
        return std::nullopt;
    }
}

/// DOC as session text with TRACES (each the text of one JSON object) as its "traces": one top-level field
/// per line and one trace per line, each written without spaces or line breaks inside. The file stays about
/// as large as its numbers (an indented dump puts every number on a line of its own, several times their
/// size) and its layout costs time linear in it.
std::string layout(const nlohmann::ordered_json &doc, const std::vector<std::string> &traces)
{
    std::string out = "{\n";
    std::size_t field = 0;
    for (auto it = doc.begin(); it != doc.end(); ++it, ++field) {
        out += field == 0 ? "  " : ",\n  ";
        out += nlohmann::ordered_json(it.key()).dump();
        out += ": ";
        if (it.key() != "traces" || traces.empty()) {
            out += it.value().dump();
            continue;
        }
        out += "[\n";
        for (std::size_t i = 0; i < traces.size(); ++i) {
            out += "    ";
            out += traces[i];
            out += i + 1 < traces.size() ? ",\n" : "\n";
        }
        out += "  ]";
    }
    out += "\n}\n";
    return out;
}

/// The path to write for a linked trace read from SOURCE: relative to FOLDER where there is such a path.
std::string linkPath(const std::string &source, const std::filesystem::path &folder)
{
    std::error_code ec;
    const auto file = std::filesystem::weakly_canonical(source, ec);
    const auto base = std::filesystem::weakly_canonical(folder.empty() ? "." : folder, ec);
    const auto relative = file.lexically_relative(base);
    return (relative.empty() ? file : relative).generic_string();
}

} // namespace

Session parseSession(std::string_view text, const std::string &label, const std::filesystem::path &folder)
{
    const json doc = detail::parseJsonText(text, label);
    if (!doc.is_object())
        throw InputError(label + ": a session must be a JSON object");
    const JsonReader r(label);
    const std::string format = r.string(doc, "format", "format", true);
    if (format != "crossroof-session")
        r.fail("format", "must be \"crossroof-session\" (got \"" + brief(format) + "\"): is this a Crossroof session?");
    const long long version = r.integer(doc, "format_version", "format_version", 1, 1LL << 31, std::nullopt);
    if (version > kSessionFormatVersion) {
        throw InputError(label + ": written by a newer Crossroof (session format " + std::to_string(version)
                         + "); this one reads format " + std::to_string(kSessionFormatVersion)
                         + " and older. Update Crossroof to open it.");
    }
    r.checkKeys(doc, "",
                {"format", "format_version", "profile", "parameters", "view", "occupancy", "tmm", "markov",
                 "mapping", "stability", "roofline", "skeleton", "extrapolate", "kernel_file", "link_traces", "traces",
                 "measured_curves"},
                "a session field");

    Session s;
    const json &profile = r.require(doc, "profile", "profile");
    if (!profile.is_object())
        r.fail("profile", "must be an object");
    s.profile = detail::profileFromJson(profile, r.nested("profile."));
    s.profile.origin = "session " + label;
    s.params = s.profile.params;
    detail::readParameters(r, r.require(doc, "parameters", "parameters"), s.params);
    validate(s.params);
    if (doc.contains("view")) {
        const JsonReader v = r.nested("view.");
        const json &view = doc["view"];
        v.checkKeys(view, "", {"current", "zoom"}, "a session field");
        s.current_view = v.string(view, "current", "current", false);
        if (s.current_view.empty())
            s.current_view = "xgraph";
        if (std::find(kViews.begin(), kViews.end(), s.current_view) == kViews.end())
            v.fail("current", "must be xgraph, stability, occupancy, zigzag, markov, mapping, extrapolate, "
                              "bandwidth, roofline, prediction or skeleton (got '" + brief(s.current_view) + "')");
        if (view.contains("zoom"))
            s.zoom = readZoom(v, view["zoom"]);
    }
    if (doc.contains("occupancy"))
        s.occupancy = readOccupancy(r.nested("occupancy."), doc["occupancy"]);
    if (doc.contains("tmm"))
        s.tmm = readTmm(r.nested("tmm."), doc["tmm"]);
    if (doc.contains("markov"))
        s.markov = readMarkov(r.nested("markov."), doc["markov"]);
    if (doc.contains("mapping"))
        s.mapping = readMapping(r.nested("mapping."), doc["mapping"]);
    if (doc.contains("stability"))
        s.stability = readStability(r.nested("stability."), doc["stability"]);
    if (doc.contains("roofline"))
        s.roofline = readRoofline(r.nested("roofline."), doc["roofline"]);
    if (doc.contains("skeleton"))
        s.skeleton = readSkeleton(r.nested("skeleton."), doc["skeleton"]);
    if (doc.contains("extrapolate")) {
        std::string problem;
        s.extrapolate = readExtrapolate(r.nested("extrapolate."), doc["extrapolate"], folder, problem);
        if (!problem.empty())
            s.trace_problems.push_back(std::move(problem));
    }
    if (const std::string kernels = r.string(doc, "kernel_file", "kernel_file", false); !kernels.empty())
        s.kernel_file = resolveLink(kernels, folder).string();
    if (doc.contains("traces")) {
        const json &traces = doc["traces"];
        if (!traces.is_array())
            r.fail("traces", "must be an array of traces");
        TraceFileCache files; // 500 links to one table read it once
        std::size_t points = 0;
        for (std::size_t i = 0; i < traces.size(); ++i) {
            const std::string prefix = "traces[" + std::to_string(i) + "].";
            if (!traces[i].is_object() || !traces[i].contains("link")) {
                s.traces.push_back(detail::traceFromJsonValue(traces[i], label, prefix));
                points += std::max(s.traces.back().x.size(), s.traces.back().y.size());
                continue;
            }
            std::string problem;
            if (auto t = readLinkedTrace(r.nested(prefix), traces[i], folder, files,
                                         kMaxSessionPoints - std::min(points, kMaxSessionPoints), problem)) {
                points += std::max(t->x.size(), t->y.size());
                s.traces.push_back(std::move(*t));
            } else {
                s.trace_problems.push_back(std::move(problem));
            }
        }
    }
    s.link_traces = r.boolean(doc, "link_traces", "link_traces", false);
    if (doc.contains("measured_curves")) {
        // {"supply": TRACE ID, "demand": TRACE ID}: the traces whose points stand in for f(k) and g(x).
        const JsonReader c = r.nested("measured_curves.");
        const json &curves = doc["measured_curves"];
        if (!curves.is_object())
            r.fail("measured_curves", "must be an object");
        c.checkKeys(curves, "", {"supply", "demand"}, "a measured-curve field");
        for (const char *key : {"supply", "demand"}) {
            const std::string id = c.string(curves, key, key, false);
            if (id.empty())
                continue;
            const auto trace = std::find_if(s.traces.begin(), s.traces.end(),
                                            [&](const MeasuredTrace &t) { return t.id == id; });
            if (trace == s.traces.end()) {
                // A linked trace that could not be read is already described; the curve goes with it.
                s.trace_problems.push_back(label + ": field 'measured_curves." + key + "': no trace '" + brief(id)
                                           + "' in the session: the analytic curve is used");
                continue;
            }
            try {
                (key == std::string("supply") ? s.params.measured_f : s.params.measured_g)
                        = measuredCurveFromTrace(*trace);
            } catch (const InputError &e) {
                c.fail(key, e.what());
            }
            (key == std::string("supply") ? s.supply_trace : s.demand_trace) = id;
        }
    }
    return s;
}

bool savesTrainingAsLink(const Session &session)
{
    std::error_code ec;
    const auto &training = session.extrapolate.training;
    return session.link_traces && training && !training->source.empty()
           && std::filesystem::is_regular_file(training->source, ec);
}

Session loadSessionFile(const std::filesystem::path &path)
{
    return parseSession(readTextFile(path, kMaxSessionBytes, "session files"), path.string(),
                        path.parent_path());
}

bool savesAsLink(const Session &session, const MeasuredTrace &trace)
{
    std::error_code ec;
    return session.link_traces && trace.origin && !trace.source.empty()
           && std::filesystem::is_regular_file(trace.source, ec);
}

std::string sessionToJson(const Session &s, const std::filesystem::path &file)
{
    // Ordered keys: a person reading the file sees the format first and the view settings last.
    using Ordered = nlohmann::ordered_json;
    Ordered doc = Ordered::object();
    doc["format"] = "crossroof-session";
    doc["format_version"] = kSessionFormatVersion;
    json profile = detail::profileToJson(s.profile);
    escapeInvalidUtf8InJson(profile);
    doc["profile"] = Ordered::parse(profile.dump());
    doc["parameters"] = Ordered::parse(detail::parametersToJson(s.params).dump());
    doc["view"] = {{"current", s.current_view}};
    if (!s.zoom.empty()) {
        Ordered zoom = Ordered::array();
        for (const PlotZoom &z : s.zoom) {
            zoom.push_back({{"view", z.view},
                            {"plot", z.plot},
                            {"x", Ordered::array({z.x_lower, z.x_upper})},
                            {"y", Ordered::array({z.y_lower, z.y_upper})}});
        }
        doc["view"]["zoom"] = zoom;
    }
    const auto &o = s.occupancy;
    doc["occupancy"] = {{"cc", o.cc},
                        {"threads_per_block", o.threads_per_block},
                        {"regs_per_thread", o.regs_per_thread},
                        {"smem_per_block", o.smem_per_block},
                        {"smem_config", o.smem_config ? Ordered(*o.smem_config) : Ordered(nullptr)},
                        {"mode", o.mode},
                        {"linked", o.linked},
                        {"manual_active_blocks", o.manual_active_blocks ? Ordered(*o.manual_active_blocks) : Ordered(nullptr)},
                        {"sm_count", o.sm_count},
                        {"requested_blocks_max", o.requested_blocks_max}};
    const auto &t = s.tmm;
    doc["tmm"] = {{"T1", t.work},
                  {"T_inf", t.span},
                  {"M", t.transactions},
                  {"L", t.latency},
                  {"T", t.threads_per_core},
                  {"P", t.cores},
                  {"B_r", t.requested_blocks},
                  {"apsp_n", t.apsp_vertices},
                  {"apsp_S_D", t.apsp_sub_block},
                  {"apsp_C", t.apsp_chunk}};
    const auto &m = s.markov;
    doc["markov"] = {{"groups", m.groups},
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
        doc["markov"]["counters"] = {{"instructions", m.counters->instructions},
                                     {"suspend", suspend},
                                     {"stall", stall},
                                     {"measured_cpi", m.counters->measured_cpi ? Ordered(*m.counters->measured_cpi)
                                                                               : Ordered(nullptr)}};
    }
    Ordered points = Ordered::array();
    for (const auto &point : s.mapping.points)
        points.push_back({{"strategy", point.strategy}, {"p", point.p}, {"q", point.q}});
    doc["mapping"] = {{"profile", s.mapping.profile_id}, {"p", s.mapping.p}, {"q", s.mapping.q}, {"points", points}};
    if (!s.mapping.own_strategies.empty()) {
        Ordered own = Ordered::array();
        for (const auto &strategy : s.mapping.own_strategies)
            own.push_back({{"id", strategy.id}, {"cores", strategy.cores}});
        doc["mapping"]["own_strategies"] = own;
    }
    const auto &st = s.stability;
    doc["stability"] = {{"x_key", st.x_key},
                        {"y_key", st.y_key},
                        {"resolution", st.resolution},
                        {"sweep_key", st.sweep_key},
                        {"sweep_shows_k", st.sweep_shows_k}};
    doc["roofline"] = {{"names", s.roofline.names},
                       {"predictions", s.roofline.predictions},
                       {"levels", s.roofline.levels}};
    Ordered skeleton = {{"profile", s.skeleton.profile_id}, {"unroll", s.skeleton.unroll}};
    if (s.skeleton.text)
        skeleton["text"] = *s.skeleton.text;
    if (!s.skeleton.measured.empty()) {
        Ordered measured = Ordered::array();
        for (const auto &[factor, cycles] : s.skeleton.measured)
            measured.push_back({{"unroll", factor}, {"cycles", cycles}});
        skeleton["measured"] = measured;
    }
    doc["skeleton"] = skeleton;
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(file, ec).parent_path();
    Ordered extrapolate = {{"smoothing", s.extrapolate.smoothing}};
    if (const auto &training = s.extrapolate.training) {
        Ordered columns = Ordered::object();
        const TrainingColumns &c = training->columns;
        for (const auto &[key, name] : {std::pair{"size", &c.size}, std::pair{"iteration", &c.iteration},
                                        std::pair{"num_l2", &c.num_l2}, std::pair{"threads_per_l2", &c.threads_per_l2},
                                        std::pair{"strategy", &c.strategy}, std::pair{"states", &c.states},
                                        std::pair{"p", &c.p}, std::pair{"q", &c.q}})
            columns[key] = *name;
        extrapolate["columns"] = columns;
        if (savesTrainingAsLink(s)) {
            extrapolate["link"] = linkPath(training->source, folder);
        } else {
            extrapolate["source"] = training->source;
            Ordered rows = Ordered::array();
            for (const TrainingRow &row : training->rows) {
                rows.push_back({{"line", row.line},
                                {"size", row.size},
                                {"iteration", row.iteration},
                                {"num_l2", row.num_l2},
                                {"threads_per_l2", row.threads_per_l2},
                                {"strategy", row.strategy},
                                {"states", row.states},
                                {"p", row.p},
                                {"q", row.q}});
            }
            extrapolate["rows"] = rows;
        }
    }
    doc["extrapolate"] = extrapolate;
    if (!s.kernel_file.empty())
        doc["kernel_file"] = linkPath(s.kernel_file, folder);
    doc["link_traces"] = s.link_traces;
    std::vector<std::string> traces; // each as the text of one JSON object
    for (const auto &trace : s.traces) {
        if (!savesAsLink(s, trace)) {
            traces.push_back(traceToJson(trace));
            continue;
        }
        Ordered link{{"id", trace.id},
                     {"name", trace.name},
                     {"kind", std::string(traceKindName(trace.kind))},
                     {"visible", trace.visible},
                     {"link", linkPath(trace.source, folder)},
                     {"origin", Ordered::parse(traceOriginToJson(*trace.origin))}};
        escapeInvalidUtf8InJson(link);
        traces.push_back(link.dump());
    }
    doc["traces"] = Ordered::array(); // where layout() puts them
    if (!s.supply_trace.empty() || !s.demand_trace.empty())
        doc["measured_curves"] = {{"supply", s.supply_trace}, {"demand", s.demand_trace}};
    escapeInvalidUtf8InJson(doc); // text that is not UTF-8 (a Latin-1 name) as "\xNN", not a failed save
    return layout(doc, traces);
}

std::string saveSessionFile(const Session &session, const std::filesystem::path &file)
{
    const std::string text = sessionToJson(session, file);
    if (text.size() > kMaxSessionBytes) {
        char size[32];
        std::snprintf(size, sizeof size, "%.1f", double(text.size()) / double(1u << 20));
        return "the session would be " + std::string(size) + " MiB, over the "
               + std::to_string(kMaxSessionBytes >> 20)
               + " MiB a session file may hold, and could not be opened again; link its traces to their "
                 "files instead of embedding their points, or remove some traces";
    }
    return writeFileAtomically(file, text);
}

} // namespace crossroof::core
