// SPDX-License-Identifier: GPL-3.0-or-later
// calibrate: the X-model's machine parameters fitted to a measured kernel family (CLI.md).
#include "args.h"
#include "core/calibration/calibration.h"
#include "core/calibration/probe_analysis.h"
#include "command_support.h"
#include "commands.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
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

/// The calibrated profile written by --out: the fit's sources, and one for the machine keys given by --set.
core::HardwareProfile outputProfile(const core::HardwareProfile &start, const core::CalibrationResult &fit,
                                    const std::string &familyPath, const std::filesystem::path &outPath,
                                    const Args &args)
{
    const std::string familyName = std::filesystem::path(familyPath).filename().string();
    core::HardwareProfile prof = core::calibratedProfile(start, fit, familyName,
                                                         core::profileIdFrom(outPath.stem().string()),
                                                         start.name + " (calibrated)");
    prof.description = "Calibrated with crossroof-cli calibrate to the kernel family " + familyName
                       + ", starting from " + start.name + " (" + start.id + ").";
    std::vector<std::string> given;
    std::string text;
    for (const std::string &key : setKeys(args)) {
        const core::ParameterInfo *info = core::findParameter(key);
        if (!info || info->side != core::ParameterSide::Machine
            || std::find(fit.fitted.begin(), fit.fitted.end(), key) != fit.fitted.end())
            continue;
        given.push_back(key);
        text += (text.empty() ? "" : ", ") + key + " = " + fmt(fit.params.*(info->member), "%.6g");
    }
    if (!given.empty()) {
        for (core::ProfileSource &s : prof.sources)
            std::erase_if(s.fields, [&](const std::string &key) {
                return std::find(given.begin(), given.end(), key) != given.end();
            });
        std::erase_if(prof.sources, [](const core::ProfileSource &s) { return s.fields.empty(); });
        prof.sources.insert(prof.sources.end() - 1,
                            {given, "Given on the command line of crossroof-cli calibrate: " + text + "."});
    }
    return prof;
}

void printText(const core::HardwareProfile &start, const std::string &familyPath,
               const core::CalibrationResult &fit, std::ostream &out)
{
    const core::FamilyPrediction &p = fit.prediction;
    out << "Family    " << familyPath << ", " << p.rows.size() << " kernels\n"
        << "Start     " << start.name << " (" << start.id << ")\n\n"
        << "Fitted (" << fit.starts << " starts):\n";
    for (const std::string &key : fit.fitted) {
        const core::ParameterInfo &info = *core::findParameter(key);
        out << "  " << key << std::string(5 - std::min<std::size_t>(4, key.size()), ' ')
            << fmt(start.params.*(info.member), "%10.4g") << " -> " << fmt(fit.params.*(info.member), "%10.4g") << ' '
            << info.unit
            << (std::find(fit.at_bound.begin(), fit.at_bound.end(), key) != fit.at_bound.end()
                        ? "  (at a bound: the family does not pin it down)"
                        : "")
            << '\n';
    }
    out << "\nAccuracy  mean " << fmt(p.accuracy_mean, "%.3f") << ", median " << fmt(p.accuracy_median, "%.3f")
        << ", min " << fmt(p.accuracy_min, "%.3f") << "  (1 - |predicted - measured| / measured)\n"
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

void runCalibrate(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"family", "probe", "profile", "fit", "out"}, {"set"}});
    if (args.has("probe") == args.has("family"))
        throw InputError("give either '--family FILE' or '--probe DIR'");
    if (args.has("probe") && args.has("profile"))
        throw InputError("'--probe' takes the device from the probe's files: leave out '--profile'");

    core::HardwareProfile start;
    core::KernelFamily family;
    std::string familyPath;
    if (args.has("probe")) {
        const std::filesystem::path dir = args.value("probe");
        const core::ProbeMeasurements probe = core::readProbe(dir);
        start = core::probeStartingProfile(probe, core::profileIdFrom(probe.device_name));
        family = probe.family;
        familyPath = (dir / "family.csv").string();
    } else {
        start = core::resolveProfile(args.value("profile", std::string(core::defaultProfileId())));
        familyPath = args.value("family");
        if (familyPath.empty())
            throw InputError("option '--family' must not be empty");
        family = core::readKernelFamily(familyPath);
    }
    applySets(args, start.params);
    const std::vector<std::string> keys = core::parseFitList(args.value("fit", "R,L,M,L_c"));
    const core::CalibrationResult fit = core::calibrate(family, start.params, keys);

    std::string written;
    if (args.has("out")) {
        const std::filesystem::path outPath = args.value("out");
        if (outPath.empty())
            throw InputError("option '--out' must not be empty");
        core::saveProfileFile(outPath, outputProfile(start, fit, familyPath, outPath, args));
        written = outPath.string();
    }

    if (!args.flag("json")) {
        printText(start, familyPath, fit, out);
        if (!written.empty())
            out << "\nProfile written to " << written << '\n';
        return;
    }
    const core::FamilyPrediction &p = fit.prediction;
    Json j;
    Json params;
    for (const std::string &key : core::calibrationKeys())
        params[key] = fit.params.*(core::findParameter(key)->member);
    j["parameters"] = params;
    j["fitted"] = fit.fitted;
    j["at_bound"] = fit.at_bound;
    j["starts"] = fit.starts;
    j["accuracy"] = {{"mean", p.accuracy_mean}, {"median", p.accuracy_median}, {"min", p.accuracy_min}};
    j["rows"] = p.rows.size();
    j["rmse_gbs"] = p.rmse_gbs;
    j["r2"] = p.r2;
    Json residuals = Json::array();
    for (const core::RowPrediction &r : p.rows)
        residuals.push_back(residualJson(r));
    j["residuals"] = residuals;
    j["family"] = familyPath;
    j["profile"] = start.id;
    j["machine"] = parametersJson(fit.params);
    j["out"] = written.empty() ? Json(nullptr) : Json(written);
    out << j.dump(2) << '\n';
}

constexpr const char *kHelp =
    "Usage: crossroof-cli calibrate (--family FILE [--profile ID|PATH] | --probe DIR) [--set KEY=VALUE]...\n"
    "                               [--fit R,L,M,L_c] [--out PROFILE.json] [--json]\n\n"
    "Fits the X-model's machine parameters to a measured kernel family: least squares of\n"
    "log(predicted / measured) throughput over every kernel, each parameter within its slider range,\n"
    "from the starting values and several spread starting points. Prints the fitted values, the accuracy\n"
    "1 - |predicted - measured| / measured (mean, median, min), RMSE in GB/s, r^2 and every kernel's\n"
    "prediction.\n\n"
    "  --family FILE      CSV with the columns n (warps per SM), Z (warp-instructions per request),\n"
    "                     E (ILP) and gbs (measured GB/s of the device); other columns are ignored\n"
    "  --profile ID|PATH  the device shape and starting values (default: the default profile)\n"
    "  --probe DIR        a crossroof-probe output directory: device.csv, latency.csv and stream.csv give\n"
    "                     the device shape and starting values, family.csv the kernels\n"
    "  --set KEY=VALUE    override a parameter before the fit (repeatable), e.g. --set L_c=4 (the\n"
    "                     keys as for xgraph)\n"
    "  --fit KEYS         the parameters to fit, any of R,L,M,L_c (default all four); the others keep\n"
    "                     the profile's (or --set) values\n"
    "  --out FILE         write the calibrated profile (complete, with sources) to FILE\n"
    "  --json             JSON output (keys as in CLI.md); without it, a readable summary\n";

} // namespace

const Command kCalibrateCommand{"calibrate", "fit R, L, M, L_c to a measured kernel family", kHelp, runCalibrate};

} // namespace crossroof::cli
