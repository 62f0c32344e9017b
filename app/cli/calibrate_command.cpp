// SPDX-License-Identifier: GPL-3.0-or-later
// calibrate: the X-model's machine parameters fitted to a measured kernel family (CLI.md).
#include "args.h"
#include "command_support.h"
#include "calibrate_report.h"
#include "calibration_sources.h"
#include "commands.h"
#include "core/calibration/calibration.h"
#include "core/calibration/joint_calibration.h"
#include "core/calibration/probe_analysis.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

Json residualJson(const core::RowPrediction &r)
{
    Json j;
    j["line"] = r.row.line;
    j["n"] = r.row.n;
    j["Z"] = r.row.Z;
    j["E"] = r.row.E;
    j["measured_gbs"] = r.row.gbs;
    j["predicted_gbs"] = r.predicted_gbs;
    j["measured_gops"] = r.measured_gops;
    j["predicted_gops"] = r.predicted_gops;
    j["error"] = r.error;
    j["accuracy"] = r.accuracy;
    return j;
}

/// The keys set with --set, in order, without repeats.
std::vector<std::string> setKeys(const Args &args)
{
    std::vector<std::string> keys;
    for (const std::string &assignment : args.all("set")) {
        std::string key = assignment.substr(0, assignment.find('='));
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            keys.push_back(std::move(key));
    }
    return keys;
}

/// Moves the machine keys given with --set (and not fitted) out of PROF's sources into one that names the
/// command line.
void addGivenSource(core::HardwareProfile &prof, const std::vector<std::string> &fitted,
                    const core::XModelParams &params, const Args &args)
{
    std::vector<std::string> given;
    std::string text;
    for (const std::string &key : setKeys(args)) {
        const core::ParameterInfo *info = core::findParameter(key);
        if (!info || info->side != core::ParameterSide::Machine
            || std::find(fitted.begin(), fitted.end(), key) != fitted.end())
            continue;
        given.push_back(key);
        text += (text.empty() ? "" : ", ") + key + " = " + fmt(params.*(info->member), "%.6g");
    }
    if (given.empty())
        return;
    for (core::ProfileSource &s : prof.sources)
        std::erase_if(s.fields, [&](const std::string &key) {
            return std::find(given.begin(), given.end(), key) != given.end();
        });
    std::erase_if(prof.sources, [](const core::ProfileSource &s) { return s.fields.empty(); });
    prof.sources.insert(prof.sources.end() - 1,
                        {given, "Given on the command line of crossroof-cli calibrate: " + text + "."});
}

/// The calibrated profile written by --out: the fit's sources, and one for the machine keys given by --set.
core::HardwareProfile outputProfile(const core::HardwareProfile &start, const core::CalibrationResult &fit,
                                    const std::string &familyPath, const std::filesystem::path &outPath,
                                    const Args &args)
{
    const std::string familyName = std::filesystem::path(familyPath).filename().string();
    core::HardwareProfile prof
            = core::calibratedProfile(start, fit, familyName, core::profileIdFrom(outPath.stem().string()),
                                      start.name + " (calibrated)");
    prof.description = "Calibrated with crossroof-cli calibrate to the kernel family " + familyName
                       + ", starting from " + start.name + " (" + start.id + ").";
    addGivenSource(prof, fit.fitted, fit.params, args);
    return prof;
}

/// Where --out sends the calibrated profile: nowhere (no --out), standard output ("-") or a file.
struct ProfileOut
{
    std::filesystem::path path;
    bool given = false;
    bool toStdout = false;
};

/// --out, checked before any fitting: empty is refused, and "-" (standard output, where the profile then goes
/// in place of the summary) with --json, which writes there too.
ProfileOut profileOut(const Args &args)
{
    ProfileOut o;
    if (!args.has("out"))
        return o;
    o.given = true;
    o.path = args.value("out");
    if (o.path.empty())
        throw InputError("option '--out' must not be empty");
    o.toStdout = o.path == "-";
    if (o.toStdout && args.flag("json"))
        throw InputError("options '--out -' and '--json' both write to standard output; give --out a file name");
    return o;
}

/// Writes PROF where O says and returns what the summary reports as written (empty for standard output).
std::string writeProfile(const ProfileOut &o, const core::HardwareProfile &prof, std::ostream &out)
{
    if (o.toStdout) {
        out << core::profileToText(prof);
        return {};
    }
    core::saveProfileFile(o.path, prof);
    return o.path.string();
}

/// The keys that describe how a family is predicted: accuracy, rows, rmse_gbs, r2, residuals.
void addFamilyJson(Json &j, const core::FamilyPrediction &p)
{
    j["accuracy"] = {{"mean", p.accuracy_mean}, {"median", p.accuracy_median}, {"min", p.accuracy_min}};
    j["rows"] = p.rows.size();
    j["rmse_gbs"] = p.rmse_gbs;
    j["r2"] = p.r2;
    Json residuals = Json::array();
    for (const core::RowPrediction &r : p.rows)
        residuals.push_back(residualJson(r));
    j["residuals"] = residuals;
}

void printText(const core::HardwareProfile &start, const std::string &familyPath,
               const core::CalibrationResult &fit, std::ostream &out)
{
    const core::FamilyPrediction &p = fit.prediction;
    out << "Family    " << familyPath << ", " << p.rows.size() << " kernels\n"
        << "Start     " << start.name << " (" << start.id << ")\n\n"
        << "Fitted (" << fit.starts << " starts" << fitRowsNote(", on ", fit.fit_rows, p.rows.size()) << "):\n";
    for (const std::string &key : fit.fitted) {
        const core::ParameterInfo &info = *core::findParameter(key);
        out << "  " << key << std::string(5 - std::min<std::size_t>(4, key.size()), ' ')
            << fmt(start.params.*(info.member), "%10.4g") << " -> "
            << fmt(fit.params.*(info.member), "%10.4g") << ' ' << info.unit
            << (std::find(fit.at_bound.begin(), fit.at_bound.end(), key) != fit.at_bound.end()
                        ? "  (at a bound: the family does not pin it down)"
                        : "")
            << '\n';
    }
    out << "\nAccuracy  mean " << fmt(p.accuracy_mean, "%.3f") << ", median "
        << fmt(p.accuracy_median, "%.3f") << ", min " << fmt(p.accuracy_min, "%.3f")
        << "  (1 - |predicted - measured| / measured)\n"
        << "RMSE      " << fmt(p.rmse_gbs, "%.4g") << " GB/s, r^2 " << fmt(p.r2, "%.4f") << "\n\n"
        << "Least accurate kernels:\n"
        << "      line      n        Z      E   measured GB/s  predicted GB/s   error\n";
    std::vector<const core::RowPrediction *> worst;
    for (const core::RowPrediction &r : p.rows)
        worst.push_back(&r);
    std::sort(worst.begin(), worst.end(), [](auto *a, auto *b) { return a->accuracy < b->accuracy; });
    worst.resize(std::min<std::size_t>(worst.size(), 5));
    for (const core::RowPrediction *r : worst) {
        out << fmt(r->row.line, "%10.0f") << fmt(r->row.n, "%7.0f") << fmt(r->row.Z, "%9.4g")
            << fmt(r->row.E, "%7.4g") << fmt(r->row.gbs, "%16.2f") << fmt(r->predicted_gbs, "%16.2f")
            << fmt(100 * r->error, "%+7.1f") << " %\n";
    }
}

/// Today's single-family calibration: only --family was given.
void runFamilyCalibration(const Args &args, const ProfileOut &o, const core::HardwareProfile &start,
                          const core::KernelFamily &family, const std::string &familyPath, std::ostream &out)
{
    const std::vector<std::string> keys = withOption("fit", [&] { return core::parseFitList(args.value("fit", "R,L,M,L_c")); });
    const core::CalibrationResult fit = core::calibrate(family, start.params, keys);

    std::string written;
    if (o.given)
        written = writeProfile(o, outputProfile(start, fit, familyPath, o.path, args), out);
    if (o.toStdout)
        return;

    if (!args.flag("json")) {
        printText(start, familyPath, fit, out);
        if (!written.empty())
            out << "\nProfile written to " << written << '\n';
        return;
    }
    Json j;
    Json params;
    for (const std::string &key : core::calibrationKeys())
        params[key] = fit.params.*(core::findParameter(key)->member);
    j["parameters"] = params;
    j["fitted"] = fit.fitted;
    j["at_bound"] = fit.at_bound;
    j["starts"] = fit.starts;
    j["fit_rows"] = fit.fit_rows;
    addFamilyJson(j, fit.prediction);
    j["family"] = familyPath;
    j["profile"] = start.id;
    j["machine"] = parametersJson(fit.params);
    j["out"] = written.empty() ? Json(nullptr) : Json(written);
    out << jsonOutput(j) << '\n';
}

/// SOURCES' weights from --weight NAME=VALUE: NAME a kind (family, stream, latency, kernels) or a source's
/// file.
void readWeights(const Args &args, core::CalibrationSources &sources)
{
    std::vector<std::string> names;
    const auto add = [&](std::string_view kind, const std::string &path) {
        if (std::find(names.begin(), names.end(), kind) == names.end())
            names.emplace_back(kind);
        names.push_back(std::filesystem::path(path).filename().string());
    };
    if (sources.family)
        add("family", sources.family->source);
    if (sources.stream)
        add("stream", sources.stream->source);
    if (sources.latency)
        add("latency", sources.latency->source);
    for (const core::KernelSet &set : sources.kernels)
        add("kernels", set.source);
    if (sources.parallel)
        add("parallel", sources.parallel->source);
    for (const std::string &assignment : args.all("weight")) {
        const std::size_t eq = assignment.find('=');
        const std::string name = assignment.substr(0, eq);
        if (eq == std::string::npos || std::find(names.begin(), names.end(), name) == names.end()) {
            throw InputError("--weight '" + assignment + "': give NAME=WEIGHT, NAME one of "
                             + core::briefList(names) + " (the kinds and file names of the sources given)");
        }
        const std::optional<double> w = core::parseNumber(assignment.substr(eq + 1)); // as every option: no hex
        if (!w || !std::isfinite(*w) || *w < 0)
            throw InputError("option '--weight': '" + assignment + "': the weight must be a number >= 0");
        sources.weights.emplace_back(name, *w);
    }
}

void runCalibrate(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"},
                           {"family", "probe", "profile", "fit", "out", "stream", "latency", "parallel", "cache", "l2-stream"},
                           {"set", "kernels", "weight"}});
    const bool others = args.has("stream") || args.has("latency") || args.has("kernels") || args.has("parallel")
                        || args.has("cache") || args.has("l2-stream");
    if (args.has("probe") && args.has("family"))
        throw InputError("give either '--family FILE' or '--probe DIR'");
    if (!args.has("probe") && !args.has("family") && !others)
        throw InputError("give '--family FILE', '--probe DIR' or other measurements ('--stream FILE', "
                         "'--latency FILE', '--parallel FILE', '--kernels FILE', '--cache FILE', "
                         "'--l2-stream FILE')");
    if (args.has("probe") && args.has("profile"))
        throw InputError("'--probe' takes the device from the probe's files: leave out '--profile'");
    if (args.has("probe") && (args.has("stream") || args.has("latency") || args.has("parallel")))
        throw InputError(
                "'--probe DIR' gives its stream.csv, latency.csv and parallel.csv: leave out '--stream', "
                "'--latency' and '--parallel'");
    for (const char *option : {"family", "stream", "latency", "parallel", "cache", "l2-stream"}) {
        if (args.has(option) && args.value(option).empty())
            throw InputError(std::string("option '--") + option + "' must not be empty");
    }
    const ProfileOut o = profileOut(args);
    // Not --profile: '--profile my.json --out my.json' updates the profile, as documented.
    refuseOutputOverInput(args, "out", {"family", "stream", "latency", "parallel", "kernels", "cache", "l2-stream"},
                          {"probe", {"device.csv", "family.csv", "stream.csv", "latency.csv", "parallel.csv"}});

    core::HardwareProfile start;
    core::CalibrationSources sources;
    std::string familyPath;
    std::optional<core::ParallelAnalysis> parallel; // a probe's parallel.csv, analysed
    if (args.has("probe")) {
        const std::filesystem::path dir = args.value("probe");
        const core::ProbeMeasurements probe = core::readProbe(dir);
        start = core::probeStartingProfile(probe, core::profileIdFrom(probe.device_name));
        sources.family = probe.family;
        sources.stream = core::readStreamCurve((dir / "stream.csv").string());
        sources.latency = core::readLatencyFile((dir / "latency.csv").string());
        sources.parallel = probe.parallel;
        parallel = probe.parallel_analysis;
        familyPath = (dir / "family.csv").string();
    } else {
        start = core::resolveProfile(args.value("profile", std::string(core::defaultProfileId())));
        if (args.has("family")) {
            familyPath = args.value("family");
            sources.family = core::readKernelFamily(familyPath);
        }
        if (args.has("stream"))
            sources.stream = core::readStreamCurve(args.value("stream"));
        if (args.has("latency"))
            sources.latency = core::readLatencyFile(args.value("latency"));
        if (args.has("parallel"))
            sources.parallel = core::readParallelFile(args.value("parallel"));
    }
    applySets(args, start.params);
    if (args.has("cache"))
        sources.levels.push_back(core::readCacheLevels(args.value("cache")));
    if (args.has("l2-stream"))
        sources.levels.push_back(core::readL2StreamLevels(args.value("l2-stream")));
    for (const std::string &path : args.all("kernels")) {
        if (path.empty())
            throw InputError("option '--kernels' must not be empty");
        sources.kernels.push_back(core::readKernelSet(path, start.params.warp_size));
    }
    readWeights(args, sources);

    if (!args.has("probe") && !others) {
        runFamilyCalibration(args, o, start, *sources.family, familyPath, out);
        return;
    }
    const std::vector<std::string> keys
            = args.has("fit") ? withOption("fit", [&] { return core::parseJointFitList(args.value("fit")); })
                              : core::defaultJointKeys(sources);
    const core::JointCalibration fit = namingTheSources(sources, [&] { return core::calibrateJointly(sources, start.params, keys); });

    std::string written;
    if (o.given) {
        core::HardwareProfile prof = core::jointCalibratedProfile(
                start, fit, core::profileIdFrom(o.path.stem().string()), start.name + " (calibrated)");
        prof.description = "Calibrated jointly with crossroof-cli calibrate, starting from " + start.name
                           + " (" + start.id + ").";
        addGivenSource(prof, fit.fitted, fit.params, args);
        written = writeProfile(o, prof, out);
        if (o.toStdout)
            return;
    }

    // With a family, the keys of the single-family output describe it, as before.
    std::optional<core::FamilyPrediction> family;
    if (sources.family)
        family = core::predictFamily(*sources.family, fit.params);
    if (!args.flag("json")) {
        if (parallel)
            printParallelAnalysis(*parallel, out);
        printJointText(start, fit, out);
        if (!written.empty())
            out << "\nProfile written to " << written << '\n';
        return;
    }
    Json j = jointJson(fit);
    Json params;
    for (const std::string &key : core::jointCalibrationKeys())
        params[key] = fit.params.*(core::findParameter(key)->member);
    j["parameters"] = params;
    j["fitted"] = fit.fitted;
    j["at_bound"] = fit.at_bound;
    j["starts"] = fit.starts;
    if (family) {
        addFamilyJson(j, *family);
        j["family"] = familyPath;
    }
    if (args.has("probe"))
        j["parallel_reads"] = parallel ? parallelAnalysisJson(*parallel) : Json(nullptr);
    j["profile"] = start.id;
    j["machine"] = parametersJson(fit.params);
    j["out"] = written.empty() ? Json(nullptr) : Json(written);
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli calibrate (--family FILE [--profile ID|PATH] | --probe DIR) [--set "
          "KEY=VALUE]...\n"
          "                               [--fit R,L,M,L_c] [--out PROFILE.json] [--json]\n"
          "       crossroof-cli calibrate [--family FILE | --probe DIR] [--stream FILE] [--latency FILE]\n"
          "                               [--parallel FILE] [--kernels NCU.csv]... [--cache FILE]\n"
          "                               [--l2-stream FILE] [--profile ID|PATH]\n"
          "                               [--set KEY=VALUE]...\n"
          "                               [--fit KEYS] [--weight NAME=W]... [--out PROFILE.json] [--json]\n\n"
          "Fits the X-model's machine parameters to measurements: least squares of log(predicted / "
          "measured)\n"
          "over every measured value, each parameter within its slider range, from the starting values and\n"
          "several spread starting points. With a family alone, prints the fitted values, the accuracy\n"
          "1 - |predicted - measured| / measured (mean, median, min), RMSE in GB/s, r^2 and every kernel's\n"
          "prediction. With several sources the fit is joint: each source's rows are weighted by\n"
          "weight / rows, so that every source counts as its weight (1) whatever its number of rows; the\n"
          "output gives each source's accuracy and the share each source has in each fitted parameter.\n\n"
          "  --family FILE      CSV with the columns n (warps per SM), Z (warp-instructions per request),\n"
          "                     E (ILP) and gbs (measured GB/s of the device); other columns are ignored\n"
          "  --profile ID|PATH  the device shape and starting values (default: the default profile)\n"
          "  --probe DIR        a crossroof-probe output directory: device.csv gives the device shape and\n"
          "                     starting values; family.csv, stream.csv, latency.csv and parallel.csv "
          "(where\n"
          "                     the probe wrote one) are fitted jointly\n"
          "  --stream FILE      stream curve, columns warps_per_sm and read_gbs (one request in flight per\n"
          "                     warp), or gpu-benches gpu-stream output (its read kernel): f(k) at k = warps\n"
          "  --latency FILE     pointer chases, columns footprint_bytes, load (ld.cg, ld, fma), cycles_per_hop:\n"
          "                     the DRAM and L2 chases are rows for L and L_2 where those are fitted and set\n"
          "                     them where not; the L1 chase sets L_s, an fma chain L_c likewise; or gpu-latency\n"
          "                     output as it is: its DRAM, L2 and L1 plateaus and its clock (clock_ghz)\n"
          "  --parallel FILE    parallel reads, columns level (dram, l2), bytes_per_thread, "
          "loads_in_flight,\n"
          "                     warps_per_sm, footprint_bytes, read_gbs: predicted as f(k) at k = "
          "warps_per_sm\n"
          "                     with m = loads_in_flight, req_bytes = 32 x bytes_per_thread (l2 rows: L2 "
          "hits,\n"
          "                     only those below half the highest l2 read_gbs)\n"
          "  --kernels FILE     an Nsight Compute CSV export of real kernels (repeatable): each kernel's "
          "DRAM GB/s\n"
          "                     against the prediction of crossroof-cli kernels\n"
          "  --cache FILE       gpu-benches gpu-cache output (bandwidth against the data set): its L1 level\n"
          "                     sets R_l1 and, where it runs out, S_s; its L2 level R_l2; a DRAM level, where\n"
          "                     reached, R_dram and S_2\n"
          "  --l2-stream FILE   gpu-benches gpu-l2-stream output (occupancy x footprint): the fastest kernel's\n"
          "                     L2 level sets R_l2 and, where it runs out, S_2; the highest DRAM level R_dram\n"
          "  --set KEY=VALUE    override a parameter before the fit (repeatable), e.g. --set L_c=4 (the\n"
          "                     keys as for xgraph)\n"
          "  --fit KEYS         the parameters to fit: any of R,L,M,L_c (family alone; default all four) or\n"
          "                     of R,R_dram,L,M,L_c,L_2 (jointly; default R,L,M,L_c, R_dram with kernels or\n"
          "                     parallel reads, L_2 with kernels that reach the L2 or latency-bound l2 "
          "rows);\n"
          "                     the others keep the profile's values\n"
          "  --weight NAME=W    weight of a source (repeatable; default 1): NAME a kind (family, stream,\n"
          "                     latency, kernels, parallel) or a source's file name, which wins over its "
          "kind\n"
          "  --out FILE         write the calibrated profile (complete, with sources) to FILE; '-' prints it\n"
          "                     to standard output in place of the summary (not with --json)\n"
          "  --json             JSON output (keys as in CLI.md); without it, a readable summary\n";

} // namespace

const Command kCalibrateCommand {"calibrate",
                                 "fit the machine to a kernel family, stream, latency and real kernels",
                                 kHelp, runCalibrate};

} // namespace crossroof::cli
