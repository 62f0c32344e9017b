// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "trace_selection.h"
#include "core/support/error.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/xmodel.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

Json optional(const std::optional<double> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

Json toJson(const core::Equilibrium &e)
{
    Json j;
    j["k"] = e.k;
    j["x"] = e.x;
    j["stability"] = core::stabilityName(e.stability);
    j["ms_throughput_gbs"] = e.ms_gbs;
    j["dram_throughput_gbs"] = e.dram_gbs;
    j["cs_throughput_gops"] = e.cs_gops;
    j["hit_rate"] = optional(e.hit_rate);
    j["bound"] = core::boundClassName(e.bound);
    if (e.stability == core::Stability::Neutral)
        j["k_end"] = e.k_end;
    return j;
}

void printText(const core::HardwareProfile &prof, const core::XModel &model, const core::XGraphResult &r,
               std::ostream &out)
{
    const auto &p = model.params();
    out << "Profile   " << prof.name << " (" << prof.id << ")\n"
        << "Workload  n=" << fmt(p.n) << " warps, Z=" << fmt(p.Z) << ", E=" << fmt(p.E)
        << ", cache=" << core::cacheModeName(p.cache) << "\n\n"
        << "Equilibria (k warps in memory, x computing):\n";
    for (std::size_t i = 0; i < r.equilibria.size(); ++i) {
        const auto &e = r.equilibria[i];
        out << (i == r.operating_index ? "  * " : "    ") << "k=" << fmt(e.k, "%8.3f") << "  x=" << fmt(e.x, "%8.3f")
            << "  " << fmt(e.ms_gbs, "%9.2f") << " GB/s  " << fmt(e.cs_gops, "%10.2f") << " Gop/s  "
            << core::stabilityName(e.stability) << ", " << core::boundClassName(e.bound) << '\n';
    }
    out << "  (* operating point, reached from a cold start)\n";
    if (r.margin_warps)
        out << "Margin    " << fmt(*r.margin_warps) << " warps to the unstable root\n";
    const auto &lm = r.landmarks;
    out << "Landmarks pi=M*L_c/E=" << fmt(lm.pi) << " warps, delta=R*L/m=" << fmt(lm.delta) << " warps, plateau R="
        << fmt(lm.plateau_gbs) << " GB/s";
    if (lm.psi)
        out << ", cache peak psi=" << fmt(*lm.psi) << " warps";
    if (lm.valley)
        out << ", valley=" << fmt(*lm.valley) << " warps";
    out << '\n';
}

void runXGraph(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, withMeasuredCurves({{"json"}, {"profile", "curves"}, {"set"}}));
    const ModelInputs in = modelInputs(args);
    const core::HardwareProfile &prof = in.profile;
    const core::XModelParams &params = in.params;
    const long long curves = args.integer("curves", 0, 2, 1000000);

    const core::XModel model(params);
    const core::XGraphResult r = model.solve();
    if (!args.flag("json")) {
        printText(prof, model, r, out);
        return;
    }
    Json j;
    j["parameters"] = parametersJson(params);
    Json eqs = Json::array();
    for (const auto &e : r.equilibria)
        eqs.push_back(toJson(e));
    j["equilibria"] = eqs;
    j["operating_point"] = toJson(r.operatingPoint());
    j["margin_warps"] = optional(r.margin_warps);
    j["landmarks"] = {{"pi", r.landmarks.pi},
                      {"delta", r.landmarks.delta},
                      {"psi", optional(r.landmarks.psi)},
                      {"valley", optional(r.landmarks.valley)},
                      {"plateau_gbs", r.landmarks.plateau_gbs}};
    const core::DegradationBounds degradation = core::degradationBounds(params);
    j["metrics"] = {{"mlp", r.metrics.mlp},
                    {"dlp_machine", r.metrics.dlp_machine},
                    {"tlp_machine", optional(r.metrics.tlp_machine)},
                    {"ilp", r.metrics.ilp},
                    {"degradation_max_gbs", degradation.bistable ? Json(degradation.max_gbs) : Json(nullptr)}};
    j["stable_count"] = r.stableCount();
    j["profile"] = prof.id;
    if (curves > 0) {
        core::XGraphCurves c;
        model.sampleCurves(int(curves), c);
        j["curves"] = {{"k", c.k}, {"f_gbs", c.f_gbs}, {"g_gbs", c.g_gbs}};
    }
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp =
    "Usage: crossroof-cli xgraph [--profile ID|PATH] [--set KEY=VALUE]... [--curves N]\n"
    "           [--supply FILE ...] [--demand FILE ...] [--json]\n\n"
    "Solves the X-model (memory supply f(k) against compute demand G(n-k)) and prints every equilibrium\n"
    "with its stability, the operating point reached from a cold start, landmarks and metrics.\n\n"
    "  --profile ID|PATH  a bundled profile id (see 'crossroof-cli profiles') or a profile JSON file;\n"
    "                     default: the default profile\n"
    "  --set KEY=VALUE    override a parameter (repeatable; units and ranges in docs/MODEL.md 1.2):\n"
    "                     machine:  sm_count clock_ghz warp_size max_warps request_bytes R L M S_s L_s\n"
    "                               L_c  dependent-issue latency in cycles (1, the paper's model, unless\n"
    "                                    the profile gives one: the *-lc profiles do)\n"
    "                               R_dram  DRAM byte bandwidth, GB/s (0: only R limits)\n"
    "                               L_2  L2 hit latency, cycles (with h_2, or cache=two-level)\n"
    "                               S_2  L2 capacity per SM, KiB (cache=two-level)\n"
    "                               R_l2 R_l1  L2 and L1 byte bandwidths, GB/s (0: no ceiling)\n"
    "                               registers  32-bit registers per SM (0: unknown)\n"
    "                     workload: n Z E h alpha beta\n"
    "                               cache  none, fixed, locality or two-level\n"
    "                               alpha_2  sharpness of the L2's capacity step (cache=two-level)\n"
    "                               bypass share of the warps that bypass the cache (0, the paper's\n"
    "                                    model)\n"
    "                               m  requests in flight per warp (1, the paper's model)\n"
    "                               req_bytes dram_bytes  bytes and DRAM bytes per request (0: the\n"
    "                                    machine's request_bytes, and what misses the caches)\n"
    "                               h_2  L2 hit rate of the shared cache's misses (cache=fixed)\n"
    "                               l2_bytes  bytes per request that reach the L2 (0: what misses\n"
    "                                    the shared cache)\n"
    "  --curves N         also print N samples of f(k) and G(n-k) in GB/s over k in [0, n]\n"
    "  --supply FILE      a measured f(k) (GB/s against warps in the memory system) in place of the\n"
    "                     analytic curve up to its last point, joined to it beyond: a table with\n"
    "                     --supply-x COLUMN --supply-y COLUMN (rows kept by --supply-where COLUMN=VALUE,\n"
    "                     repeatable), or a gpu-stream, ncu or probe file (--supply-series NAME picks\n"
    "                     one of its traces)\n"
    "  --demand FILE      a measured g(x) (Gop/s against warps computing), with --demand-x, --demand-y,\n"
    "                     --demand-where and --demand-series likewise\n"
    "  --json             JSON output (keys as in docs/CLI.md); without it, a readable summary\n";

} // namespace

const Command kXGraphCommand{"xgraph", "equilibria, stability and landmarks of the X-model", kHelp, runXGraph};

} // namespace crossroof::cli
