// SPDX-License-Identifier: GPL-3.0-or-later
// calibrate's report of a joint calibration (CLI.md, calibrate).
#include "calibrate_report.h"

#include "core/support/text.h"

#include <algorithm>
#include <filesystem>

namespace crossroof::cli {

/// PREFIX + "2048 of 100000 rows spread over their range" when the fit used a part of a large source.
std::string fitRowsNote(const char *prefix, std::size_t fitRows, std::size_t rows)
{
    if (fitRows >= rows)
        return {};
    return prefix + std::to_string(fitRows) + " of " + std::to_string(rows) + " rows spread over their range";
}

namespace {

Json parallelRowJson(const core::ParallelRow &row)
{
    return {{"line", row.line},
            {"level", core::readLevelName(row.level)},
            {"bytes_per_thread", row.bytes_per_thread},
            {"loads_in_flight", row.loads_in_flight},
            {"warps_per_sm", row.warps},
            {"footprint_bytes", row.footprint_bytes},
            {"read_gbs", row.gbs}};
}

Json readLevelJson(const core::ReadLevelSummary &s)
{
    Json byM = Json::array();
    for (const core::InFlightLatency &l : s.by_m)
        byM.push_back({{"loads_in_flight", l.loads_in_flight}, {"cycles", l.cycles}, {"rows", l.rows}});
    return {{"peak", parallelRowJson(s.peak)},
            {"latency_cycles", s.latency ? Json(*s.latency) : Json(nullptr)},
            {"latency_rows", s.latency_rows},
            {"latency_by_m", byM},
            {"m_spread", s.m_spread}};
}

} // namespace

Json jointJson(const core::JointCalibration &fit)
{
    Json sources = Json::array();
    for (const core::SourceReport &r : fit.sources) {
        Json rows = Json::array();
        for (const core::SourceRow &row : r.rows) {
            rows.push_back({{"line", row.line},
                            {"label", row.label},
                            {"measured", row.measured},
                            {"predicted", row.predicted},
                            {"error", row.error},
                            {"accuracy", row.accuracy}});
        }
        sources.push_back(
                {{"kind", core::sourceKindName(r.kind)},
                 {"file", r.source},
                 {"unit", r.unit},
                 {"weight", r.weight},
                 {"rows", r.rows.size()},
                 {"fit_rows", r.fit_rows},
                 {"cost", r.cost},
                 {"accuracy",
                  {{"mean", r.accuracy_mean}, {"median", r.accuracy_median}, {"min", r.accuracy_min}}},
                 {"skipped", r.skipped},
                 {"residuals", rows}});
    }
    Json origins = Json::object();
    Json undetermined = Json::object();
    for (const core::KeyOrigin &o : fit.origins) {
        Json shares = Json::array();
        for (const auto &[index, share] : o.shares)
            shares.push_back({{"file", fit.sources[index].source}, {"share", share}});
        origins[o.key] = shares;
        if (o.undetermined)
            undetermined[o.key] = o.within_noise ? "within noise" : o.free_upward ? "up" : "down";
    }
    Json settings = Json::object();
    for (const core::KeySetting &s : fit.settings)
        settings[s.key] = {{"value", s.value}, {"file", s.source}, {"how", s.how}};
    return {{"sources", sources},
            {"parameter_sources", origins},
            {"undetermined", undetermined},
            {"set", settings},
            {"notes", fit.notes},
            {"objective", fit.cost}};
}

/// What a probe's parallel.csv says before any fit (CLI.md, calibrate).
Json parallelAnalysisJson(const core::ParallelAnalysis &a)
{
    Json widths = Json::array();
    for (const core::WidthSaturation &w : a.widths) {
        widths.push_back({{"bytes_per_thread", w.bytes_per_thread},
                          {"peak", parallelRowJson(w.peak)},
                          {"saturating", parallelRowJson(w.saturating)}});
    }
    return {{"file", a.source},
            {"R_dram", a.dram.peak.gbs},
            {"dram", readLevelJson(a.dram)},
            {"l2", a.l2 ? readLevelJson(*a.l2) : Json(nullptr)},
            {"widths", widths},
            {"m_honoured", a.m_honoured},
            {"warnings", a.warnings}};
}

void printParallelAnalysis(const core::ParallelAnalysis &a, std::ostream &out)
{
    const auto level = [&](const char *name, const core::ReadLevelSummary &s) {
        out << "  " << name << ": highest " << fmt(s.peak.gbs, "%.1f") << " GB/s (line " << s.peak.line
            << ": " << s.peak.label() << ")";
        if (s.latency) {
            out << "; the latency-bound rows imply " << fmt(*s.latency, "%.0f") << " cycles per load (";
            for (std::size_t i = 0; i < s.by_m.size(); ++i) {
                out << (i ? ", " : "") << "m = " << fmt(s.by_m[i].loads_in_flight) << ": "
                    << fmt(s.by_m[i].cycles, "%.0f");
            }
            out << ")";
        }
        out << '\n';
    };
    out << "Parallel reads (" << a.source << "):\n";
    level("dram", a.dram);
    if (a.l2)
        level("l2", *a.l2);
    for (const core::WidthSaturation &w : a.widths) {
        out << "  " << fmt(w.bytes_per_thread) << "-byte loads: highest " << fmt(w.peak.gbs, "%.1f")
            << " GB/s, within 5 % of it from m = " << fmt(w.saturating.loads_in_flight) << " at "
            << fmt(w.saturating.warps) << " warps per SM (line " << w.saturating.line << ")\n";
    }
    for (const std::string &warning : a.warnings)
        out << "  warning: " << warning << '\n';
    out << '\n';
}

void printJointText(const core::HardwareProfile &start, const core::JointCalibration &fit, std::ostream &out)
{
    if (!fit.sources.empty())
        out << "Sources (each counts as its weight, whatever its number of rows):\n";
    for (const core::SourceReport &r : fit.sources) {
        out << "  " << core::sourceKindName(r.kind)
            << std::string(9 - core::sourceKindName(r.kind).size(), ' ') << r.source << ": " << r.rows.size()
            << (r.rows.size() == 1 ? " value" : " values") << ", weight " << fmt(r.weight, "%.3g")
            << ", accuracy mean " << fmt(r.accuracy_mean, "%.3f") << ", median "
            << fmt(r.accuracy_median, "%.3f") << ", min " << fmt(r.accuracy_min, "%.3f")
            << fitRowsNote("; fitted on ", r.fit_rows, r.rows.size()) << '\n';
        for (const std::string &why : r.skipped)
            out << "           left out: " << why << '\n';
    }
    out << "Start     " << start.name << " (" << start.id << ")\n\n";
    if (fit.fitted.empty())
        out << "Fitted: nothing (the measurements set what they measure)\n";
    else
        out << "Fitted (" << fit.starts << " starts, objective " << fmt(fit.cost, "%.4g") << "):\n";
    for (const core::KeyOrigin &o : fit.origins) {
        const core::ParameterInfo &info = *core::findParameter(o.key);
        out << "  " << o.key << std::string(7 - std::min<std::size_t>(6, o.key.size()), ' ')
            << fmt(start.params.*(info.member), "%10.4g") << " -> "
            << fmt(fit.params.*(info.member), "%10.4g") << ' ' << info.unit;
        if (o.undetermined && o.within_noise) {
            out << "  not determined by these measurements: half or twice this value predicts as well within "
                   "their noise (the start is kept, or the value nearest it that does)";
        } else if (o.undetermined) {
            out << "  not determined by these measurements: every value "
                << (o.free_upward ? "from this one up" : "up to this one")
                << " predicts the same (the one nearest the start is kept)";
        } else {
            out << "  from";
        }
        for (const auto &[index, share] : o.shares)
            out << ' ' << std::filesystem::path(fit.sources[index].source).filename().string() << ' '
                << fmt(100 * share, "%.0f") << " %";
        if (!o.bound.empty())
            out << "  (held at " << o.bound << ": the measurements would take it further)";
        else if (std::find(fit.at_bound.begin(), fit.at_bound.end(), o.key) != fit.at_bound.end())
            out << "  (at a bound: no source pins it down)";
        out << '\n';
    }
    if (!fit.settings.empty() || !fit.notes.empty()) {
        out << "\nSet from measurements:\n";
        for (const core::KeySetting &s : fit.settings) {
            out << "  " << s.key << " = " << fmt(s.value) << ' ' << core::findParameter(s.key)->unit << "  ("
                << s.source << ": " << s.how << ")\n";
        }
        for (const std::string &note : fit.notes)
            out << "  note: " << note << '\n';
    }
    if (fit.sources.empty())
        return;
    out << "\nLeast accurate values of each source:\n";
    for (const core::SourceReport &r : fit.sources) {
        std::vector<const core::SourceRow *> worst;
        for (const core::SourceRow &row : r.rows)
            worst.push_back(&row);
        std::sort(worst.begin(), worst.end(), [](auto *a, auto *b) { return a->accuracy < b->accuracy; });
        worst.resize(std::min<std::size_t>(worst.size(), 3));
        for (const core::SourceRow *row : worst) {
            out << "  " << std::filesystem::path(r.source).filename().string() << ':' << row->line << "  "
                << core::brief(row->label, 48) << ": measured " << fmt(row->measured) << ", predicted "
                << fmt(row->predicted) << ' ' << r.unit << " (" << fmt(100 * row->error, "%+.1f") << " %)\n";
        }
    }
}

} // namespace crossroof::cli
