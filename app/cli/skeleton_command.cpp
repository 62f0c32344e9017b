// SPDX-License-Identifier: GPL-3.0-or-later
// skeleton: a code skeleton projected on a CPU core model, the SKOPE way (CLI.md).
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/profiles/profile_library.h"
#include "core/skeleton/bundled_skeletons.h"
#include "core/skeleton/projection.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/support/text_file.h"

#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

constexpr const char *kDefaultProfile = "xeon-phi-7210";

/// The skeleton's text and a label for messages: --file or --sample.
std::pair<std::string, std::string> skeletonText(const Args &args)
{
    if (args.has("file") == args.has("sample"))
        throw InputError("give either '--file FILE' or '--sample NAME'");
    if (args.has("file")) {
        const std::string path = args.value("file");
        if (path.empty())
            throw InputError("option '--file' must not be empty");
        return {core::readTextFile(path, core::kMaxSkeletonBytes, "skeleton files"), path};
    }
    const std::string name = args.value("sample");
    std::string names;
    for (const core::BundledSkeleton &b : core::bundledSkeletons()) {
        const std::string stem(b.name.substr(0, b.name.rfind('.')));
        if (stem == name)
            return {std::string(b.text), std::string(b.name)};
        names += (names.empty() ? "" : ", ") + stem;
    }
    throw InputError("option '--sample': no sample '" + core::quoteForMessage(name) + "' (the samples are " + names + ")");
}

/// The factors to print: 1..16, or the one --unroll names.
std::vector<int> factors(const Args &args)
{
    const std::string v = args.value("unroll", "all");
    if (v == "all") {
        std::vector<int> all;
        for (int u = 1; u <= core::kMaxUnroll; ++u)
            all.push_back(u);
        return all;
    }
    const auto u = core::parseInteger<int>(v);
    if (!u || *u < 1 || *u > core::kMaxUnroll)
        throw InputError("option '--unroll': must be a whole number from 1 to 16 or 'all' (got '" + core::quoteForMessage(v) + "')");
    return {*u};
}

/// --measured FACTOR=CYCLES, repeatable.
std::vector<std::pair<int, double>> measurements(const Args &args)
{
    std::vector<std::pair<int, double>> out;
    for (const std::string &m : args.all("measured")) {
        const auto eq = m.find('=');
        const auto factor = core::parseInteger<int>(m.substr(0, eq == std::string::npos ? m.size() : eq));
        const auto cycles = eq == std::string::npos ? std::nullopt : core::parseNumber(m.substr(eq + 1));
        if (!factor || !cycles || *factor < 1 || *factor > core::kMaxUnroll
            || !(*cycles >= core::kMinMeasuredCycles && *cycles <= core::kMaxMeasuredCycles))
            throw InputError("option '--measured': expected FACTOR=CYCLES with a factor from 1 to 16 and cycles "
                             "from 1 to 1e300, those of the whole nest (got '" + core::quoteForMessage(m) + "')");
        out.emplace_back(*factor, *cycles);
    }
    return out;
}

Json statementsJson(const core::SkeletonProjection &p)
{
    Json arr = Json::array();
    for (std::size_t k = 0; k < p.graph.nodeCount(); ++k) {
        const core::SkeletonStatement &s = p.graph.statementOf(int(k));
        const core::ScheduledStatement &at = p.schedule.items[k];
        Json j;
        j["index"] = k;
        j["line"] = s.line;
        j["kind"] = std::string(core::statementKindName(s.kind));
        j["target"] = s.target.empty() ? Json(nullptr) : Json(s.target);
        j["sources"] = s.sources;
        j["latency"] = p.graph.latency[k];
        j["pipeline"] = std::string(core::pipelineKindName(at.pipeline));
        j["unit"] = at.unit;
        j["start"] = at.start;
        j["bottom_level"] = p.critical.bottom_level[k];
        arr.push_back(j);
    }
    return arr;
}

void printText(const core::Skeleton &s, const core::HardwareProfile &prof, const core::SkeletonProjection &p,
               const std::vector<int> &shown, const core::SkeletonWorkload &w,
               const std::vector<core::MeasuredComparison> &measured, std::ostream &out)
{
    out << "Skeleton  " << s.name << ": " << s.body.size() << " statements, " << p.graph.edges.size()
        << " dependencies, " << fmt(p.passes, "%.0f") << " passes of " << fmt(p.inner_trips, "%.6g")
        << " iterations\n"
        << "Core      " << prof.name << " (" << prof.id << ")\n"
        << "Critical path  " << fmt(p.critical.cycles, "%.6g") << " cycles\n\n"
        << "unroll  body cycles  cycles/iteration   total cycles  stalls  registers  with spills\n";
    for (int u : shown) {
        const core::UnrollPoint &q = p.point(u);
        out << fmt(u, "%6.0f") << fmt(q.body_cycles, "%13.6g") << fmt(q.cycles_per_iteration, "%18.6g")
            << fmt(q.total_cycles, "%15.0f") << fmt(q.stall_cycles, "%8.0f") << fmt(q.registers, "%11.0f")
            << fmt(q.cost_per_iteration, "%13.6g") << (u == p.best_unroll ? "  <- best" : "") << '\n';
    }
    out << "\n" << p.reasoning << "\n\n"
        << "X-model at unroll " << w.factor << ":  Z = " << (w.Z ? fmt(*w.Z, "%.4g") : std::string("none (no loads or stores)"))
        << ", E = " << fmt(w.E, "%.4g") << '\n';
    if (!measured.empty()) {
        out << "\nunroll      projected       measured    error\n";
        for (const core::MeasuredComparison &m : measured)
            out << fmt(m.factor, "%6.0f") << fmt(m.projected, "%15.0f") << fmt(m.measured, "%15.0f")
                << fmt(m.error_percent, "%+8.2f") << " %\n";
    }
}

void runSkeleton(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"file", "sample", "profile", "unroll"}, {"measured"}});
    const auto [text, label] = skeletonText(args);
    const std::vector<int> shown = factors(args);
    const auto measured = measurements(args);
    const core::HardwareProfile prof = core::resolveProfile(args.value("profile", kDefaultProfile));
    if (!prof.core_model)
        throw InputError("profile '" + prof.id + "' has no core_model; skeletons need a CPU profile with one "
                         "(xeon-phi-7210, epyc-9654)");
    const core::Skeleton skel = core::parseSkeleton(text, label);
    const core::SkeletonProjection p = core::projectSkeleton(skel, *prof.core_model);
    const int workloadFactor = shown.size() == 1 ? shown.front() : p.best_unroll;
    const core::SkeletonWorkload w = core::deriveWorkload(p, skel, *prof.core_model, workloadFactor);
    const auto comparison = core::compareWithMeasured(p, measured);

    if (!args.flag("json")) {
        printText(skel, prof, p, shown, w, comparison, out);
        return;
    }
    Json j;
    j["skeleton"] = skel.name;
    j["profile"] = prof.id;
    j["statements"] = statementsJson(p);
    Json edges = Json::array();
    for (const core::DependencyEdge &e : p.graph.edges)
        edges.push_back({{"from", e.from}, {"to", e.to}, {"kind", std::string(core::dependencyKindName(e.kind))},
                         {"variable", e.variable}, {"weight", e.weight}});
    j["edges"] = edges;
    j["critical_path_cycles"] = p.critical.cycles;
    j["critical_path"] = p.critical.nodes;
    Json unroll = Json::array();
    for (int u : shown) {
        const core::UnrollPoint &q = p.point(u);
        unroll.push_back({{"factor", u}, {"body_cycles", q.body_cycles},
                          {"cycles_per_iteration", q.cycles_per_iteration}, {"loop_cycles", q.loop_cycles},
                          {"total_cycles", q.total_cycles}, {"stall_cycles", q.stall_cycles},
                          {"registers", q.registers}, {"spills", q.spills}, {"spill_cycles", q.spill_cycles},
                          {"cost_per_iteration", q.cost_per_iteration}});
    }
    j["unroll"] = unroll;
    j["best_unroll"] = p.best_unroll;
    j["reasoning"] = p.reasoning;
    j["passes"] = p.passes;
    j["inner_trips"] = p.inner_trips;
    j["first_touch_cycles"] = p.first_touch_cycles;
    j["stream_level"] = p.stream_level;
    j["Z"] = w.Z ? Json(*w.Z) : Json(nullptr);
    j["E"] = w.E;
    j["workload_unroll"] = w.factor;
    Json rows = Json::array();
    for (const core::MeasuredComparison &m : comparison)
        rows.push_back({{"factor", m.factor}, {"projected", m.projected}, {"measured", m.measured},
                        {"error_percent", m.error_percent}});
    j["measured"] = rows;
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp =
    "Usage: crossroof-cli skeleton (--file FILE | --sample NAME) [--profile ID|PATH] [--unroll 1..16|all]\n"
    "                              [--measured FACTOR=CYCLES]... [--json]\n\n"
    "Projects a code skeleton on a CPU core model, as the SKOPE framework does: the dependency graph of\n"
    "the innermost loop body (RAW, WAR and WAW edges weighted by the profile's latencies), its critical\n"
    "path, list scheduling by critical path on the core's pipelines, and the cycles of the whole loop nest\n"
    "for unroll factors 1 to 16 with the best factor and why. Also the X-model workload the skeleton\n"
    "implies: Z (instructions per memory request) and E (the ILP the schedule achieves).\n\n"
    "  --file FILE        the skeleton (def, :var = value, for/forall, ld, st, fp, fma, xp; see CLI.md)\n"
    "  --sample NAME      a bundled sample instead: haccmk, nekbone-mxf12 or nekbone-glsc3i\n"
    "  --profile ID|PATH  a CPU profile with a core_model (default: xeon-phi-7210)\n"
    "  --unroll N|all     print only unroll factor N, and give Z and E at N (default: all factors, Z and E\n"
    "                     at the best one)\n"
    "  --measured F=C     measured cycles C of the whole nest at unroll factor F (repeatable): prints the\n"
    "                     projection's error in %\n"
    "  --json             JSON output (keys as in CLI.md); without it, a readable summary\n";

} // namespace

const Command kSkeletonCommand{"skeleton", "project a code skeleton's cycles on a CPU core model", kHelp,
                               runSkeleton};

} // namespace crossroof::cli
