// SPDX-License-Identifier: GPL-3.0-or-later
// roofline: the instruction roofline of a profile with the kernels of an Nsight Compute export (CLI.md).
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/roofline/roofline.h"
#include "core/support/error.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <ostream>
#include <sstream>

namespace crossroof::cli {

namespace {

Json optional(const std::optional<double> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

std::string textOf(const std::optional<double> &v)
{
    return v ? fmt(*v, "%.4g") : "-";
}

/// The most kernels `--json` writes, as for `kernels` (docs/CLI.md).
constexpr std::size_t kMaxJsonKernels = 100'000;

/// A kernel on the roofline with its row of the kernel table and the ceilings at its intensities.
struct Point
{
    const core::NcuKernel *kernel;
    core::RooflineKernel roof;
    core::KernelCeilings at;
};

Json ceilingsJson(const core::RooflineCeilings &c)
{
    Json pipes = Json::array();
    for (const core::PipeCeiling &pipe : c.pipes)
        pipes.push_back({{"precision", pipe.precision}, {"lanes", pipe.lanes}, {"gops", pipe.gops}});
    return {{"memory_gbs", c.memory_gbs},
            {"compute_gops", c.compute_gops},
            {"ridge", c.ridge()},
            {"issue_gops", optional(c.issue_gops)},
            {"pipes", pipes},
            {"dram_latency_gbs", optional(c.dram_latency_gbs)},
            {"l2_latency_gbs", optional(c.l2_latency_gbs)},
            {"l1_latency_gbs", optional(c.l1_latency_gbs)}};
}

void runRoofline(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err)
{
    const Args args(argv, {{"json"}, {"trace", "profile", "format"}, {"set"}});
    const OutputFormat format = outputFormat(args);
    const ModelInputs in = modelInputs(args);
    const core::RooflineCeilings ceilings = core::rooflineCeilings(in.profile, in.params);
    std::optional<core::RooflinePoint> operating;
    std::string operatingProblem;
    try {
        operating = core::rooflineOperatingPoint(in.params);
    } catch (const core::InputError &e) {
        operatingProblem = e.what();
    }
    std::optional<core::NcuReport> report;
    const std::string path = args.has("trace") ? args.value("trace") : std::string();
    if (args.has("trace")) {
        if (path.empty())
            throw core::InputError("option '--trace' needs a file");
        report = core::readNcuCsv(path);
    }
    // Each kernel is predicted as `kernels` predicts it (its own workload and clock, the profile's machine)
    // and written as it comes.
    core::KernelComparer comparer(in.params);
    const double warpSize = in.params.warp_size;
    const auto forEachPoint = [&](const std::function<void(const Point &)> &take) {
        if (!report)
            return;
        for (const core::NcuKernel &kernel : report->kernels) {
            const core::KernelRow row = comparer.compare(kernel);
            if (const auto roof = core::rooflineKernel(kernel, warpSize, &row))
                take({&kernel, *roof, core::ceilingsAt(ceilings, *roof)});
        }
    };

    using Field = std::pair<const char *, std::function<Json(const Point &)>>;
    const std::vector<Field> fields{
            {"id", [](const Point &p) { return Json(p.kernel->id); }},
            {"name", [](const Point &p) { return Json(p.kernel->name); }},
            {"short_name", [](const Point &p) { return Json(p.kernel->short_name); }},
            {"duration_ns", [](const Point &p) { return Json(p.roof.duration_ns); }},
            {"gops", [](const Point &p) { return Json(p.roof.gops); }},
            {"dram_intensity", [](const Point &p) { return Json(p.roof.dram_intensity); }},
            {"l2_intensity", [](const Point &p) { return optional(p.roof.l2_intensity); }},
            {"l1_intensity", [](const Point &p) { return optional(p.roof.l1_intensity); }},
            {"predicted_gops", [](const Point &p) { return optional(p.roof.predicted_gops); }},
            {"predicted_gbs", [](const Point &p) { return optional(p.roof.predicted_gbs); }},
            {"predicted_intensity", [](const Point &p) { return optional(p.roof.predicted_intensity); }},
            {"memory_ceiling_gops", [](const Point &p) { return Json(p.at.memory_gops); }},
            {"compute_ceiling_gops", [](const Point &p) { return Json(p.at.compute_gops); }},
            {"issue_ceiling_gops", [](const Point &p) { return optional(p.at.issue_gops); }},
            {"fp32_ceiling_gops", [](const Point &p) { return optional(p.at.fp32_gops); }},
            {"fp64_ceiling_gops", [](const Point &p) { return optional(p.at.fp64_gops); }},
            {"dram_latency_ceiling_gops", [](const Point &p) { return optional(p.at.dram_latency_gops); }},
            {"l2_latency_ceiling_gops", [](const Point &p) { return optional(p.at.l2_latency_gops); }},
            {"l1_latency_ceiling_gops", [](const Point &p) { return optional(p.at.l1_latency_gops); }},
    };
    const auto warnings = [&] {
        return report ? comparer.warnings(*report, in.profile)
                      : std::vector<std::string>();
    };

    if (format == OutputFormat::Csv) {
        std::vector<std::string> header;
        for (const Field &f : fields)
            header.emplace_back(f.first);
        writeCsvRow(out, header);
        forEachPoint([&](const Point &p) {
            std::vector<std::string> cells;
            for (const Field &f : fields) {
                const Json v = f.second(p);
                cells.push_back(v.is_null() ? std::string() : v.is_number() ? csvNumber(v.get<double>())
                                                                            : csvText(v.get<std::string>()));
            }
            writeCsvRow(out, cells);
        });
        for (const std::string &w : warnings())
            err << "crossroof-cli roofline: warning: " << w << '\n';
        return;
    }
    if (format == OutputFormat::Json) {
        if (report && report->kernels.size() > kMaxJsonKernels) {
            throw core::InputError(path + ": " + std::to_string(report->kernels.size()) + " kernels, more than the "
                                   + std::to_string(kMaxJsonKernels)
                                   + " --json writes; --format csv gives the kernels, one row each");
        }
        Json j;
        j["source"] = report ? Json(path) : Json(nullptr);
        j["profile"] = in.profile.id;
        j["ceilings"] = ceilingsJson(ceilings);
        j["operating_point"] = operating ? Json {{"intensity", operating->intensity}, {"gops", operating->gops}}
                                         : Json(nullptr);
        Json kernels = Json::array();
        forEachPoint([&](const Point &p) {
            Json row;
            for (const Field &f : fields)
                row[f.first] = f.second(p);
            kernels.push_back(std::move(row));
        });
        j["warnings"] = warnings();
        j["kernels_left_out"] = report ? report->kernels.size() - kernels.size() : 0;
        j["kernels"] = std::move(kernels);
        out << jsonOutput(j) << '\n';
        return;
    }
    std::ostringstream text;
    const core::XModelParams &p = in.params;
    text << "Roofline of profile " << in.profile.id << " (thread-instructions per byte against Gop/s)\n";
    text << "Memory ceiling R = " << fmt(ceilings.memory_gbs) << " GB/s x I; compute ceiling "
         << fmt(ceilings.compute_gops) << " Gop/s (M x warp size x clock x SMs); ridge at I = "
         << fmt(ceilings.ridge()) << " op/B\n";
    if (ceilings.issue_gops)
        text << "Issue ceiling E n / L_c = " << fmt(p.issueRate() * p.n) << " inst/cycle: " << fmt(*ceilings.issue_gops)
             << " Gop/s\n";
    for (const core::PipeCeiling &pipe : ceilings.pipes)
        text << pipe.precision << " pipe: " << pipe.lanes << " lanes/SM x clock x SMs = " << fmt(pipe.gops)
             << " Gop/s\n";
    text << "Latency ceilings (Little's law, n = " << fmt(p.n) << ", m = " << fmt(p.m) << ", "
         << fmt(p.workloadRequestBytes()) << " B per request): DRAM " << textOf(ceilings.dram_latency_gbs)
         << " GB/s x I (L), L2 " << textOf(ceilings.l2_latency_gbs) << " (L_2), L1 "
         << textOf(ceilings.l1_latency_gbs) << " (L_s)\n";
    if (operating)
        text << "X-model operating point (n = " << fmt(p.n) << ", Z = " << fmt(p.Z) << ", E = " << fmt(p.E)
             << "): I = " << fmt(operating->intensity) << " op/B, " << fmt(operating->gops) << " Gop/s\n";
    else
        text << "X-model operating point: none ("
             << (operatingProblem.empty() ? "every request hits the cache: no DRAM traffic" : operatingProblem)
             << ")\n";
    if (report) {
        text << "Kernels of " << path << '\n';
        std::ostringstream rows;
        rows << "ID     I_DRAM     I_L2     I_L1      Gop/s  pred I  pred Gop/s  R x I_DRAM  name\n";
        std::size_t drawn = 0;
        forEachPoint([&](const Point &k) {
            ++drawn;
            char line[200];
            std::snprintf(line, sizeof line, "%-5s %8s %8s %8s %10s %7s %11s %12s  ", k.kernel->id.c_str(),
                          fmt(k.roof.dram_intensity).c_str(), textOf(k.roof.l2_intensity).c_str(),
                          textOf(k.roof.l1_intensity).c_str(), fmt(k.roof.gops).c_str(),
                          textOf(k.roof.predicted_intensity).c_str(), textOf(k.roof.predicted_gops).c_str(),
                          fmt(k.at.memory_gops).c_str());
            rows << line << k.kernel->short_name << '\n';
        });
        for (const std::string &w : warnings())
            text << "Warning: " << w << '\n';
        text << rows.str();
        text << "I: thread-instructions per DRAM, L2 and L1 byte; pred: the X-model's prediction (as `kernels`); "
             << drawn << " of " << report->kernels.size()
             << " kernel(s) drawn (the others lack instructions, duration or DRAM throughput)\n";
    }
    out << text.view();
}

constexpr const char *kRooflineHelp
        = "Usage: crossroof-cli roofline [--trace FILE] [--profile ID|PATH] [--set KEY=VALUE]...\n"
          "                              [--format text|json|csv] [--json]\n\n"
          "The instruction roofline the GUI's Roofline view draws: thread-instructions per byte (intensity I)\n"
          "against Gop/s. Ceilings: memory R x I, compute M x warp size x clock x SMs, the issue ceiling where\n"
          "E n / L_c < M, the FP32 and FP64 pipes of the profile's compute capability, and the latency\n"
          "ceilings of Little's law (n m request bytes x clock x SMs over L, L_2 and L_s). With --trace, each\n"
          "kernel of an Nsight Compute export at its DRAM, L2 and L1 intensities with its attained Gop/s, the\n"
          "X-model's prediction for it (as `kernels` predicts it: its own workload and clock) and each ceiling\n"
          "at its intensities.\n\n"
          "  --trace FILE       the ncu CSV export (docs/NCU.md); without it, the ceilings and the operating point\n"
          "  --profile ID|PATH  the machine (default profile without it)\n"
          "  --set KEY=VALUE    override a parameter, e.g. --set n=16 (repeatable; the keys as for xgraph)\n"
          "  --format json      JSON output: source, profile, ceilings {memory_gbs, compute_gops, ridge,\n"
          "                     issue_gops, pipes [{precision, lanes, gops}], dram_latency_gbs,\n"
          "                     l2_latency_gbs, l1_latency_gbs}, operating_point {intensity, gops}, warnings,\n"
          "                     kernels_left_out, kernels [{id, name, short_name, duration_ns, gops,\n"
          "                     dram_intensity, l2_intensity, l1_intensity, predicted_gops, predicted_gbs,\n"
          "                     predicted_intensity, memory_ceiling_gops, compute_ceiling_gops,\n"
          "                     issue_ceiling_gops, fp32_ceiling_gops, fp64_ceiling_gops,\n"
          "                     dram_latency_ceiling_gops, l2_latency_ceiling_gops, l1_latency_ceiling_gops}]\n"
          "  --format csv       CSV, one row per kernel with the columns of the JSON kernels (an empty field\n"
          "                     where JSON has null); the warnings go to standard error\n"
          "  --json             the same as --format json; without either, text (--format text)\n";

} // namespace

const Command kRooflineCommand {"roofline", "the instruction roofline: ceilings and the kernels of an ncu export",
                                kRooflineHelp, nullptr, runRoofline};

} // namespace crossroof::cli
