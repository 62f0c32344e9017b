// SPDX-License-Identifier: GPL-3.0-or-later
// kernels: the kernels of an Nsight Compute export next to the X-model (CLI.md).
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/traces/kernel_table.h"
#include "core/xmodel/memory_levels.h"
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

/// A kernel's ranked changes: [{change, gain}], gain as kernel time before / after - 1.
Json diagnosisJson(const std::vector<core::KernelChange> &changes)
{
    Json list = Json::array();
    for (const core::KernelChange &c : changes)
        list.push_back({{"change", c.change}, {"gain", c.gain}});
    return list;
}

/// The changes as one CSV cell: "change: +35 %; change: +12 %".
std::string diagnosisText(const std::vector<core::KernelChange> &changes)
{
    std::string text;
    for (const core::KernelChange &c : changes)
        text += (text.empty() ? "" : "; ") + c.change + ": " + fmt(c.gain * 100, "%+.0f %%");
    return text;
}

/// The most kernels `--json` writes (docs/CLI.md).
constexpr std::size_t kMaxJsonKernels = 100'000;

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
    // Each kernel is compared and written as it comes, so that a million of them are not held at once; the
    // warnings, which come first, are counted in a pass that predicts nothing.
    std::vector<std::string> warnings;
    {
        core::KernelComparer counting(in.params, report.form);
        for (const core::NcuKernel &k : report.kernels)
            counting.compare(k, false);
        warnings = counting.warnings(report, in.profile);
    }
    core::KernelComparer comparer(in.params, report.form);
    // The device check the warnings begin with (the Kernels dock's), for the profiles it offers.
    core::HardwareProfile inUse = in.profile;
    inUse.params = in.params;
    if (const core::DeviceCheck device = core::checkDevice(core::deviceFacts(report), inUse, core::bundledProfiles());
        device.mismatch) {
        std::string ids;
        for (const core::HardwareProfile *p : device.matches)
            ids += (ids.empty() ? "" : ", ") + p->id;
        if (ids.empty()) {
            const core::XModelParams made = core::profileFromDevice(report.device, in.profile, path).params;
            std::string sets;
            for (const char *key : {"sm_count", "clock_ghz", "max_warps", "R"}) {
                const double v = made.*(core::findParameter(key)->member);
                if (v != in.params.*(core::findParameter(key)->member))
                    sets += std::string(" --set ") + key + "=" + fmt(v, "%.6g");
            }
            warnings.push_back("no bundled profile matches the file's device"
                               + (sets.empty() ? std::string() : "; its attributes give" + sets));
        } else {
            warnings.push_back("bundled profile(s) matching the file's device: " + ids + " (--profile ID)");
        }
    }

    // One list of columns for the CSV and the JSON kernels, so that both say the same.
    using Field = std::pair<const char *, std::function<Json(const core::KernelRow &)>>;
    const auto workload = [](double core::KernelWorkload::*member) {
        return [member](const core::KernelRow &k) { return k.workload ? Json(*k.workload.*member) : Json(nullptr); };
    };
    const auto param = [&comparer](double core::XModelParams::*member) {
        return [&comparer, member](const core::KernelRow &k) {
            const std::optional<core::XModelParams> p = comparer.paramsOf(k);
            return p ? Json(*p.*member) : Json(nullptr);
        };
    };
    const auto text = [](const std::string &v) { return v.empty() ? Json(nullptr) : Json(v); };
    const std::vector<Field> fields{
        {"id", [](const auto &k) { return Json(k.id); }},
        {"name", [](const auto &k) { return Json(k.name); }},
        {"short_name", [](const auto &k) { return Json(k.short_name); }},
        {"grid", [](const auto &k) { return Json(k.grid); }},
        {"block", [](const auto &k) { return Json(k.block); }},
        {"warps_per_sm", [](const auto &k) { return optional(k.warps_per_sm); }},
        {"duration_ns", [](const auto &k) { return optional(k.duration_ns); }},
        {"dram_gbs", [](const auto &k) { return optional(k.dram_gbs); }},
        {"dram_gbs_derived", [](const auto &k) { return Json(k.dram_gbs_derived); }},
        {"Z", [](const auto &k) { return optional(k.Z); }},
        {"req_bytes", workload(&core::KernelWorkload::req_bytes)},
        {"dram_bytes", workload(&core::KernelWorkload::dram_bytes)},
        {"m", workload(&core::KernelWorkload::m)},
        {"stores_only", [](const auto &k) { return k.workload ? Json(k.workload->stores_only) : Json(nullptr); }},
        {"l1_hit", [](const auto &k) { return k.workload ? optional(k.workload->l1_hit) : Json(nullptr); }},
        {"l2_hit", [](const auto &k) { return k.workload ? optional(k.workload->l2_hit) : Json(nullptr); }},
        {"clock_ghz", param(&core::XModelParams::clock_ghz)},
        {"E", param(&core::XModelParams::E)},
        {"measured_gops", workload(&core::KernelWorkload::measured_gops)},
        {"predicted_gops", [](const auto &k) { return optional(k.predicted_gops); }},
        {"predicted_gbs", [](const auto &k) { return optional(k.predicted_gbs); }},
        {"naive_gbs", [](const auto &k) { return optional(k.naive_gbs); }},
        {"roofline_gbs", [](const auto &k) { return optional(k.roofline_gbs); }},
        {"error", [](const auto &k) { return optional(k.error); }},
        {"bound",
         [](const auto &k) { return k.bound ? Json(std::string(core::boundClassName(*k.bound))) : Json(nullptr); }},
        {"limit",
         [](const auto &k) { return k.limit ? Json(std::string(core::kernelLimitName(*k.limit))) : Json(nullptr); }},
        {"diagnosis", [](const auto &k) { return diagnosisJson(k.diagnosis); }},
        {"ncu_metrics", [text](const auto &k) { return text(k.ncu_metrics); }},
        {"skipped", [text](const auto &k) { return text(k.skipped); }},
    };
    core::KernelAccuracySum accuracy;

    if (format == OutputFormat::Csv) {
        // The kernels only; the device, the accuracy and the warnings are in the JSON (the warnings also go to
        // stderr).
        for (const std::string &w : warnings)
            err << "crossroof-cli kernels: warning: " << w << '\n';
        std::vector<std::string> header;
        for (const Field &f : fields)
            header.emplace_back(f.first);
        writeCsvRow(out, header);
        for (const core::NcuKernel &kernel : report.kernels) {
            const core::KernelRow k = comparer.compare(kernel);
            std::vector<std::string> cells;
            for (const Field &f : fields) {
                const Json v = f.second(k);
                cells.push_back(v.is_null()      ? std::string()
                                : v.is_boolean() ? std::string(v.get<bool>() ? "true" : "false")
                                : v.is_number()  ? csvNumber(v.get<double>())
                                : v.is_array()   ? csvText(diagnosisText(k.diagnosis))
                                                 : csvText(v.get<std::string>()));
            }
            writeCsvRow(out, cells);
        }
        return;
    }
    if (format == OutputFormat::Json) {
        // The JSON document is built whole before it is written (its accuracy comes before the kernels), about
        // 4 KB a kernel: a million kernels passed 4 GB in a minute. The CSV has the same columns, row by row.
        if (report.kernels.size() > kMaxJsonKernels) {
            throw core::InputError(path + ": " + std::to_string(report.kernels.size())
                                   + " kernels, more than the " + std::to_string(kMaxJsonKernels)
                                   + " --json writes; --format csv gives the same columns, one row per kernel");
        }
        Json j;
        j["source"] = path;
        j["format"] = std::string(core::ncuFormName(report.form));
        Json device;
        device["name"] = report.device.name.empty() ? Json(nullptr) : Json(report.device.name);
        device["sm_count"] = optional(report.device.sm_count);
        device["cc"] = report.device.cc.empty() ? Json(nullptr) : Json(report.device.cc);
        j["device"] = device;
        j["profile"] = in.profile.id;
        j["warnings"] = warnings;
        j["accuracy"] = nullptr; // in its place before the kernels; filled in after them
        Json kernels = Json::array();
        for (const core::NcuKernel &kernel : report.kernels) {
            const core::KernelRow k = comparer.compare(kernel);
            accuracy.add(k);
            Json row;
            for (const Field &f : fields)
                row[f.first] = f.second(k);
            kernels.push_back(std::move(row));
        }
        if (const std::optional<core::KernelAccuracy> a = accuracy.mean()) {
            j["accuracy"] = {{"kernels", a->kernels},
                             {"model", a->model},
                             {"naive", a->naive},
                             {"roofline", a->roofline}};
        }
        j["kernels"] = std::move(kernels);
        out << jsonOutput(j) << '\n';
        return;
    }
    // The table is written whole once every kernel is compared: a kernel that fails midway (an internal error)
    // leaves no half table behind (about 110 bytes a kernel).
    std::ostringstream table;
    table << "Kernels of " << path << " (" << core::ncuFormName(report.form) << "), device "
          << report.device.describe() << ", profile " << in.profile.id << '\n';
    for (const std::string &w : warnings)
        table << "Warning: " << w << '\n';
    table << "ID    warps/SM  duration_us        Z  B/req  B_dram      m  DRAM GB/s  predicted   error  limit     "
             "name\n";
    bool derived = false, storesOnly = false;
    for (const core::NcuKernel &kernel : report.kernels) {
        const core::KernelRow k = comparer.compare(kernel);
        accuracy.add(k);
        derived = derived || k.dram_gbs_derived;
        storesOnly = storesOnly || (k.workload && k.workload->stores_only);
        const auto w = [&](double core::KernelWorkload::*member) {
            return k.workload ? std::optional(*k.workload.*member) : std::nullopt;
        };
        char line[200];
        std::snprintf(line, sizeof line, "%-5s %9s %12s %8s %6s %7s %6s %10s%s %10s %7s  %-9s ", k.id.c_str(),
                      textOf(k.warps_per_sm).c_str(),
                      textOf(k.duration_ns ? std::optional(*k.duration_ns / 1e3) : std::nullopt).c_str(),
                      textOf(k.Z).c_str(), textOf(w(&core::KernelWorkload::req_bytes), "%.0f").c_str(),
                      textOf(w(&core::KernelWorkload::dram_bytes), "%.1f").c_str(),
                      k.workload && k.workload->stores_only ? "st" : textOf(w(&core::KernelWorkload::m), "%.2g").c_str(),
                      textOf(k.dram_gbs).c_str(), k.dram_gbs_derived ? "*" : " ", textOf(k.predicted_gbs).c_str(),
                      k.error ? fmt(*k.error * 100, "%+.1f%%").c_str() : "-",
                      k.limit ? std::string(core::kernelLimitName(*k.limit)).c_str() : "-");
        table << line << k.short_name;
        if (!k.skipped.empty())
            table << "  (skipped: " << k.skipped << ")";
        table << '\n';
    }
    if (derived)
        table << "* derived from DRAM Throughput % and the profile's peak DRAM bandwidth\n";
    if (storesOnly)
        table << "st: only stores, which do not hold a warp (m = " << fmt(core::kStoresOnlyInFlight, "%.0f") << ")\n";
    if (const std::optional<core::KernelAccuracy> a = accuracy.mean()) {
        table << "Mean accuracy over " << a->kernels << " kernel(s), 1 - |predicted - measured| / measured: "
              << fmt(a->model, "%.3f") << "; every kernel at the peak DRAM bandwidth: " << fmt(a->naive, "%.3f")
              << "; the roofline min(peak, M/Z) with the same inputs: " << fmt(a->roofline, "%.3f") << "\n";
    }
    out << table.view();
}

constexpr const char *kKernelsHelp
        = "Usage: crossroof-cli kernels --trace FILE [--profile ID|PATH] [--set KEY=VALUE]...\n"
          "                             [--format text|json|csv] [--json]\n\n"
          "Lists the kernels of an Nsight Compute export (ncu --csv: the details page, --page raw, or the\n"
          "per-kernel summary; several runs put together) with the X-model's predicted DRAM throughput at each\n"
          "kernel's own workload read from its counters: achieved warps per SM (n), Z = instructions /\n"
          "requests, bytes per request, DRAM bytes per request, requests in flight per warp (m = requests per\n"
          "load) and the SM clock it ran at; E and the machine come from the profile. A kernel that lacks a\n"
          "metric is listed with the ncu --metrics that adds it. Warns when the file's device (SM count,\n"
          "compute capability) differs from the profile.\n\n"
          "  --trace FILE       the ncu CSV export (a .ncu-rep report must be exported first: docs/NCU.md)\n"
          "  --profile ID|PATH  the machine (default profile without it)\n"
          "  --set KEY=VALUE    override a parameter, e.g. --set E=4 (repeatable; the keys as for xgraph,\n"
          "                     L_c and bypass included)\n"
          "  --format json      JSON output: source, format, device {name, sm_count, cc}, profile, warnings,\n"
          "                     accuracy {kernels, model, naive, roofline}, kernels [{id, name, short_name, grid, block,\n"
          "                     warps_per_sm, duration_ns, dram_gbs, dram_gbs_derived, Z, req_bytes,\n"
          "                     dram_bytes, m, stores_only, l1_hit, l2_hit, clock_ghz, E, measured_gops,\n"
          "                     predicted_gops, predicted_gbs, naive_gbs, roofline_gbs, error, bound,\n"
          "                     limit (L1, L2, DRAM, requests, latency, issue, tensor, FMA), diagnosis [{change,\n"
          "                     gain}] (the two changes the model ranks best), ncu_metrics, skipped}]\n"
          "                     (docs/CLI.md)\n"
          "  --format csv       CSV, one row per kernel with the columns of the JSON kernels (an empty\n"
          "                     field where JSON has null); the warnings go to standard error\n"
          "  --json             the same as --format json; without either, a table (--format text)\n";

} // namespace

const Command kKernelsCommand {"kernels", "the kernels of an Nsight Compute export against the X-model",
                               kKernelsHelp, nullptr, runKernels};

} // namespace crossroof::cli
