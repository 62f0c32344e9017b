// SPDX-License-Identifier: GPL-3.0-or-later
// kernels: the kernels of an Nsight Compute export next to the X-model (CLI.md).
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace crossroof::cli {

namespace {

Json optional(const std::optional<double> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

std::string textOf(const std::optional<double> &v, const char *spec = "%.4g")
{
    return v ? fmt(*v, spec) : "-";
}

void runKernels(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err)
{
    const Args args(argv, {{"json"}, {"trace", "profile", "format"}, {"set"}});
    const OutputFormat format = outputFormat(args);
    if (!args.has("trace") || args.value("trace").empty())
        throw core::InputError("option '--trace' is required");
    const std::string path = args.value("trace");
    const core::NcuReport report = core::readNcuCsv(path);
    const ModelInputs in = modelInputs(args);
    core::KernelTable table = core::compareKernels(report, in.params, in.profile.compute_capability,
                                                   in.profile.id);
    if (core::deviceMismatch(report.device, in.params.sm_count, in.profile.compute_capability, in.profile.id)) {
        std::string ids;
        for (const core::HardwareProfile *p : core::matchingProfiles(report.device, core::bundledProfiles()))
            ids += (ids.empty() ? "" : ", ") + p->id;
        if (ids.empty()) {
            const core::XModelParams made = core::profileFromDevice(report.device, in.profile, path).params;
            std::string sets;
            for (const char *key : {"sm_count", "clock_ghz", "max_warps", "R"}) {
                const double v = made.*(core::findParameter(key)->member);
                if (v != in.params.*(core::findParameter(key)->member))
                    sets += std::string(" --set ") + key + "=" + fmt(v, "%.6g");
            }
            table.warnings.push_back("no bundled profile matches the file's device"
                                     + (sets.empty() ? std::string() : "; its attributes give" + sets));
        } else {
            table.warnings.push_back("bundled profile(s) matching the file's device: " + ids + " (--profile ID)");
        }
    }

    if (format == OutputFormat::Csv) {
        // The kernels only; the device and the warnings are in the JSON (the warnings also go to stderr).
        for (const std::string &w : table.warnings)
            err << "crossroof-cli kernels: warning: " << w << '\n';
        const auto number = [](const std::optional<double> &v) { return v ? csvNumber(*v) : std::string(); };
        writeCsvRow(out, {"id", "name", "short_name", "grid", "block", "warps_per_sm", "duration_ns", "dram_gbs",
                          "dram_gbs_derived", "Z", "predicted_gbs", "error", "skipped"});
        for (const core::KernelRow &k : table.rows) {
            writeCsvRow(out, {csvText(k.id), csvText(k.name), csvText(k.short_name), csvText(k.grid),
                              csvText(k.block), number(k.warps_per_sm), number(k.duration_ns), number(k.dram_gbs),
                              k.dram_gbs_derived ? "true" : "false", number(k.Z), number(k.predicted_gbs),
                              number(k.error), csvText(k.skipped)});
        }
        return;
    }
    if (format == OutputFormat::Json) {
        Json j;
        j["source"] = path;
        j["format"] = std::string(core::ncuFormName(report.form));
        Json device;
        device["name"] = report.device.name.empty() ? Json(nullptr) : Json(report.device.name);
        device["sm_count"] = optional(report.device.sm_count);
        device["cc"] = report.device.cc.empty() ? Json(nullptr) : Json(report.device.cc);
        j["device"] = device;
        j["profile"] = in.profile.id;
        j["warnings"] = table.warnings;
        Json kernels = Json::array();
        for (const core::KernelRow &k : table.rows) {
            Json row;
            row["id"] = k.id;
            row["name"] = k.name;
            row["short_name"] = k.short_name;
            row["grid"] = k.grid;
            row["block"] = k.block;
            row["warps_per_sm"] = optional(k.warps_per_sm);
            row["duration_ns"] = optional(k.duration_ns);
            row["dram_gbs"] = optional(k.dram_gbs);
            row["dram_gbs_derived"] = k.dram_gbs_derived;
            row["Z"] = optional(k.Z);
            row["predicted_gbs"] = optional(k.predicted_gbs);
            row["error"] = optional(k.error);
            row["skipped"] = k.skipped.empty() ? Json(nullptr) : Json(k.skipped);
            kernels.push_back(std::move(row));
        }
        j["kernels"] = std::move(kernels);
        out << j.dump(2) << '\n';
        return;
    }
    out << "Kernels of " << path << " (" << core::ncuFormName(report.form) << "), device "
        << report.device.describe() << ", profile " << in.profile.id << '\n';
    for (const std::string &w : table.warnings)
        out << "Warning: " << w << '\n';
    out << "ID    warps/SM  duration_us   DRAM GB/s        Z  predicted   error  name\n";
    for (const core::KernelRow &k : table.rows) {
        char line[160];
        std::snprintf(line, sizeof line, "%-5s %9s %12s %10s%s %8s %10s %7s  ", k.id.c_str(),
                      textOf(k.warps_per_sm).c_str(),
                      textOf(k.duration_ns ? std::optional(*k.duration_ns / 1e3) : std::nullopt).c_str(),
                      textOf(k.dram_gbs).c_str(), k.dram_gbs_derived ? "*" : " ", textOf(k.Z).c_str(),
                      textOf(k.predicted_gbs).c_str(),
                      k.error ? fmt(*k.error * 100, "%+.1f%%").c_str() : "-");
        out << line << k.short_name;
        if (!k.skipped.empty())
            out << "  (skipped: " << k.skipped << ")";
        out << '\n';
    }
    if (std::any_of(table.rows.begin(), table.rows.end(), [](const auto &k) { return k.dram_gbs_derived; }))
        out << "* derived from DRAM Throughput % and the profile's R\n";
}

constexpr const char *kKernelsHelp
        = "Usage: crossroof-cli kernels --trace FILE [--profile ID|PATH] [--set KEY=VALUE]...\n"
          "                             [--format text|json|csv] [--json]\n\n"
          "Lists the kernels of an Nsight Compute export (ncu --csv: the details page, --page raw, or the\n"
          "per-kernel summary; several runs put together) with the X-model's predicted DRAM throughput at each\n"
          "kernel's achieved warps per SM (n) and Z = instructions / requests where the file has both.\n"
          "Warns when the file's device (SM count, compute capability) differs from the profile.\n\n"
          "  --trace FILE       the ncu CSV export (a .ncu-rep report must be exported first: docs/NCU.md)\n"
          "  --profile ID|PATH  the machine (default profile without it)\n"
          "  --set KEY=VALUE    override a parameter, e.g. --set E=4 (repeatable; the keys as for xgraph,\n"
          "                     L_c and bypass included)\n"
          "  --format json      JSON output: source, format, device {name, sm_count, cc}, profile, warnings,\n"
          "                     kernels [{id, name, short_name, grid, block, warps_per_sm, duration_ns, "
          "dram_gbs,\n"
          "                     dram_gbs_derived, Z, predicted_gbs, error, skipped}] (docs/CLI.md)\n"
          "  --format csv       CSV, one row per kernel with the columns of the JSON kernels (an empty\n"
          "                     field where JSON has null); the warnings go to standard error\n"
          "  --json             the same as --format json; without either, a table (--format text)\n";

} // namespace

const Command kKernelsCommand {"kernels", "the kernels of an Nsight Compute export against the X-model",
                               kKernelsHelp, nullptr, runKernels};

} // namespace crossroof::cli
