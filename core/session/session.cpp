// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/session.h"

#include "core/session/linked_files.h"
#include "core/session/view_settings_json.h"
#include "core/support/atomic_file.h"
#include "core/support/error.h"
#include "core/profiles/profile_json.h"
#include "core/traces/trace_file_cache.h"
#include "core/traces/trace_json.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/support/utf8.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace crossroof::core {

using namespace detail; // JsonReader, and the readers and writers of the session's fields

namespace {

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
                              "bandwidth, roofline, prediction, levels or skeleton (got '" + brief(s.current_view) + "')");
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
    if (!s.zoom.empty())
        doc["view"]["zoom"] = zoomToJson(s.zoom);
    doc["occupancy"] = occupancyToJson(s.occupancy);
    doc["tmm"] = tmmToJson(s.tmm);
    doc["markov"] = markovToJson(s.markov);
    doc["mapping"] = mappingToJson(s.mapping);
    doc["stability"] = stabilityToJson(s.stability);
    doc["roofline"] = rooflineToJson(s.roofline);
    doc["skeleton"] = skeletonToJson(s.skeleton);
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(file, ec).parent_path();
    doc["extrapolate"] = extrapolateToJson(s.extrapolate, savesTrainingAsLink(s), folder);
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
