// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/linked_files.h"

#include "core/markov/markov.h"
#include "core/modeltree/training_set.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/traces/trace_file_cache.h"
#include "core/traces/trace_import.h"
#include "core/traces/trace_json.h"

#include <span>
#include <utility>
#include <vector>

namespace crossroof::core::detail {

std::string linkPath(const std::string &source, const std::filesystem::path &folder)
{
    std::error_code ec;
    const auto file = std::filesystem::weakly_canonical(source, ec);
    const auto base = std::filesystem::weakly_canonical(folder.empty() ? "." : folder, ec);
    const auto relative = file.lexically_relative(base);
    return (relative.empty() ? file : relative).generic_string();
}

std::filesystem::path resolveLink(const std::string &link, const std::filesystem::path &folder)
{
    std::filesystem::path path(link);
    if (path.is_relative())
        path = folder / path;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return ec ? path : absolute.lexically_normal();
}

namespace {

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

} // namespace

namespace {

/// "measured": {"source", "rows": [{"line", "size", "iteration" (optional), "strategy", "cpi"}]}, checked as
/// a measured-CPI file is (a CPI of at least 1).
void readMeasuredCpi(const JsonReader &r, const json &obj, ExtrapolateSettings &e)
{
    r.checkKeys(obj, "", {"source", "rows"}, "a measured CPI field");
    e.measured_source = r.string(obj, "source", "source", false);
    const json &rows = r.require(obj, "rows", "rows");
    if (!rows.is_array())
        r.fail("rows", "must be an array of measured CPI");
    constexpr double kHuge = 1e100;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const JsonReader rr = r.nested("rows[" + std::to_string(i) + "].");
        rr.checkKeys(rows[i], "", {"line", "size", "iteration", "strategy", "cpi"}, "a measured CPI field");
        CpiMeasurement m;
        m.line = int(rr.integer(rows[i], "line", "line", 0, 1LL << 31, 0));
        m.size = rr.number(rows[i], "size", "size", -kHuge, kHuge, std::nullopt);
        if (rows[i].contains("iteration"))
            m.iteration = rr.number(rows[i], "iteration", "iteration", -kHuge, kHuge, std::nullopt);
        m.strategy = rr.string(rows[i], "strategy", "strategy", true);
        if (m.strategy.empty())
            rr.fail("strategy", "is empty");
        m.cpi = rr.number(rows[i], "cpi", "cpi", 1, kHuge, std::nullopt);
        e.measured.push_back(std::move(m));
    }
}

} // namespace

ExtrapolateSettings readExtrapolate(const JsonReader &r, const json &obj, const std::filesystem::path &folder,
                                    std::string &problem)
{
    r.checkKeys(obj, "", {"smoothing", "source", "columns", "rows", "link", "measured"}, "a session field");
    ExtrapolateSettings e;
    e.smoothing = r.boolean(obj, "smoothing", "smoothing", true);
    if (obj.contains("measured"))
        readMeasuredCpi(r.nested("measured."), obj["measured"], e);
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

nlohmann::ordered_json extrapolateToJson(const ExtrapolateSettings &settings, bool asLink,
                                         const std::filesystem::path &folder)
{
    using Ordered = nlohmann::ordered_json;
    Ordered extrapolate = {{"smoothing", settings.smoothing}};
    if (const auto &training = settings.training) {
        Ordered columns = Ordered::object();
        const TrainingColumns &c = training->columns;
        for (const auto &[key, name] : {std::pair{"size", &c.size}, std::pair{"iteration", &c.iteration},
                                        std::pair{"num_l2", &c.num_l2}, std::pair{"threads_per_l2", &c.threads_per_l2},
                                        std::pair{"strategy", &c.strategy}, std::pair{"states", &c.states},
                                        std::pair{"p", &c.p}, std::pair{"q", &c.q}})
            columns[key] = *name;
        extrapolate["columns"] = columns;
        if (asLink) {
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
    if (!settings.measured.empty()) {
        Ordered rows = Ordered::array();
        for (const CpiMeasurement &m : settings.measured) {
            Ordered row = {{"line", m.line}, {"size", m.size}};
            if (m.iteration)
                row["iteration"] = *m.iteration;
            row["strategy"] = m.strategy;
            row["cpi"] = m.cpi;
            rows.push_back(row);
        }
        extrapolate["measured"] = {{"source", settings.measured_source}, {"rows", rows}};
    }
    return extrapolate;
}

} // namespace crossroof::core::detail
