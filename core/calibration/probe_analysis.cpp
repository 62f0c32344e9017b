// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/probe_analysis.h"

#include "core/occupancy/compute_capability.h"
#include "core/support/atomic_file.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/xmodel/parameters.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <system_error>

namespace crossroof::core {

namespace {

/// device.csv: "key,value" lines without a header.
std::map<std::string, std::pair<std::string, int>> readDeviceFacts(const std::filesystem::path &path)
{
    const std::string source = path.string();
    const std::string text = readTextFile(source, kCsvMaxBytes, "probe files");
    std::map<std::string, std::pair<std::string, int>> facts;
    LineReader lines(text);
    while (const auto line = lines.next()) {
        const std::string_view trimmed = trimBlanks(*line);
        if (trimmed.empty() || trimmed.front() == '#')
            continue;
        const std::size_t comma = trimmed.find(',');
        if (comma == std::string_view::npos)
            throw InputError(source + ":" + std::to_string(lines.number()) + ": expected key,value (got '"
                             + std::string(trimmed) + "')");
        facts[std::string(trimBlanks(trimmed.substr(0, comma)))]
                = {std::string(trimBlanks(trimmed.substr(comma + 1))), lines.number()};
    }
    return facts;
}

double positiveFact(const std::map<std::string, std::pair<std::string, int>> &facts, const std::string &key,
                    const std::string &source)
{
    const auto it = facts.find(key);
    if (it == facts.end())
        throw InputError(source + ": no line '" + key + ",...'");
    const auto v = parseTableNumber(it->second.first, '.', false);
    if (!v || !std::isfinite(*v) || *v <= 0)
        throw InputError(source + ":" + std::to_string(it->second.second) + ": '" + key
                         + "' must be a number > 0 (got '" + quoteForMessage(it->second.first) + "')");
    return *v;
}

/// VALUE, what the line KEY of device.csv gives for the model parameter PARAMETER, checked against that
/// parameter's range: a message names the file, the line and the key, not only the parameter.
double deviceParameter(const std::map<std::string, std::pair<std::string, int>> &facts, const std::string &key,
                       const std::string &source, std::string_view parameter, double value)
{
    if (const auto why = checkValue(*findParameter(parameter), value)) {
        const auto &[text, line] = facts.at(key);
        throw InputError(source + ":" + std::to_string(line) + ": '" + key + "' (" + quoteForMessage(text)
                         + ") gives the parameter " + std::string(parameter) + ", which " + *why);
    }
    return value;
}

/// V with DIGITS significant digits, as %g writes it.
std::string significant(double v, int digits)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

std::string sourceLabel(const ProbeMeasurements &probe, const char *file)
{
    return (probe.directory / file).filename().string();
}

} // namespace

ProbeMeasurements readProbe(const std::filesystem::path &directory)
{
    ProbeMeasurements probe;
    probe.directory = directory;

    const std::filesystem::path devicePath = directory / "device.csv";
    const auto facts = readDeviceFacts(devicePath);
    const std::string deviceSource = devicePath.string();
    const auto name = facts.find("name");
    probe.device_name = name == facts.end() ? std::string("GPU") : name->second.first;
    const auto cc = facts.find("cc");
    if (cc == facts.end())
        throw InputError(deviceSource + ": no line 'cc,...'");
    probe.compute_capability = cc->second.first;
    probe.sm_count = deviceParameter(facts, "sms", deviceSource, "sm_count",
                                     positiveFact(facts, "sms", deviceSource));
    probe.clock_ghz = deviceParameter(facts, "clock_khz", deviceSource, "clock_ghz",
                                      positiveFact(facts, "clock_khz", deviceSource) / 1e6);
    probe.max_warps = deviceParameter(facts, "max_threads_sm", deviceSource, "max_warps",
                                      std::floor(positiveFact(facts, "max_threads_sm", deviceSource) / 32));
    probe.l1_smem_kib = deviceParameter(facts, "smem_per_sm", deviceSource, "S_s",
                                        positiveFact(facts, "smem_per_sm", deviceSource) / 1024);
    if (facts.count("l2_bytes"))
        probe.l2_bytes = positiveFact(facts, "l2_bytes", deviceSource);
    if (facts.count("mem_clock_khz") && facts.count("bus_width_bits")) {
        probe.peak_dram_gbs = 2 * positiveFact(facts, "mem_clock_khz", deviceSource) * 1e3
                              * positiveFact(facts, "bus_width_bits", deviceSource) / 8 / 1e9;
    }

    const LatencyMeasurements latency = readLatencyFile((directory / "latency.csv").string());
    probe.dram_latency = latency.dram_cycles;
    probe.l2_latency = latency.l2_cycles.value_or(latency.dram_cycles);
    probe.l1_latency = latency.l1_cycles;
    probe.dependent_issue = latency.dependent_issue;

    for (const StreamRow &row : readStreamCurve((directory / "stream.csv").string()).rows) {
        if (row.gbs > probe.stream_peak_gbs) {
            probe.stream_peak_gbs = row.gbs;
            probe.stream_peak_warps = row.warps;
        }
    }

    probe.family = readKernelFamily((directory / "family.csv").string());

    const std::filesystem::path parallel = directory / "parallel.csv";
    std::error_code ec;
    if (std::filesystem::exists(parallel, ec)) {
        probe.parallel = readParallelFile(parallel.string(), probe.l2_bytes);
        probe.parallel_analysis = analyseParallelReads(*probe.parallel, probe.sm_count, probe.clock_ghz);
    }
    return probe;
}

DeviceFacts deviceFacts(const ProbeMeasurements &probe)
{
    DeviceFacts facts;
    facts.name = probe.device_name;
    facts.sm_count = probe.sm_count;
    facts.cc = probe.compute_capability;
    facts.clock_ghz = probe.clock_ghz;
    facts.bandwidth_gbs = probe.peak_dram_gbs;
    return facts;
}

HardwareProfile probeStartingProfile(const ProbeMeasurements &probe, const std::string &id)
{
    HardwareProfile prof;
    prof.id = id;
    prof.name = probe.device_name;
    prof.kind = "gpu";
    prof.compute_capability = probe.compute_capability;
    prof.description = "Measured with crossroof-probe on " + probe.device_name + ".";
    prof.origin = probe.directory.string();

    XModelParams &p = prof.params;
    p.sm_count = probe.sm_count;
    p.clock_ghz = probe.clock_ghz;
    p.warp_size = 32;
    p.max_warps = probe.max_warps;
    p.request_bytes = 128;
    p.L = probe.dram_latency;
    p.L_s = probe.l1_latency;
    p.S_s = probe.l1_smem_kib;
    p.R = probe.stream_peak_gbs;
    p.L_c = probe.dependent_issue.value_or(4);
    const ComputeCapability *cc = findComputeCapability(probe.compute_capability);
    p.M = cc ? cc->fp32_lanes_sm / 32.0 : 4;
    const FamilyRow &last = probe.family.rows.back();
    p.n = std::min(last.n, p.max_warps);
    p.Z = last.Z;
    p.E = last.E;
    p.cache = CacheMode::None;

    const std::string device = sourceLabel(probe, "device.csv");
    const std::string latency = sourceLabel(probe, "latency.csv");
    prof.sources = {
            {{"sm_count", "clock_ghz", "max_warps"},
             device + " (cudaGetDeviceProperties): " + formatNumber(p.sm_count) + " SMs, SM clock "
                     + formatNumber(p.clock_ghz) + " GHz, max_threads_sm / 32 = " + formatNumber(p.max_warps)
                     + " warps per SM."},
            {{"warp_size", "request_bytes"},
             "CUDA warps of 32 threads; the probe's loads are 4-byte words, fully coalesced: 32 x 4 B = 128 "
             "B per "
             "warp request."},
            {{"L"},
             latency + ": pointer chase with ld.cg (L1 bypassed) over the largest footprint (DRAM): "
                     + formatNumber(probe.dram_latency) + " cycles per load."},
            {{"L_s"},
             latency + ": pointer chase with ld (L1 hits) over the smallest footprint: "
                     + formatNumber(probe.l1_latency) + " cycles per load."},
            {{"S_s"},
             device + ": shared memory per SM, " + formatNumber(p.S_s)
                     + " KiB: an upper bound of the L1 data cache, which shares that storage."},
            {{"R"},
             sourceLabel(probe, "stream.csv") + ": the highest read throughput, " + formatNumber(p.R)
                     + " GB/s at " + formatNumber(probe.stream_peak_warps)
                     + " warps per SM (one request in flight per warp)."},
            {{"L_c"},
             probe.dependent_issue
                     ? latency + ": a chain of dependent FMAs, " + formatNumber(p.L_c)
                               + " cycles per instruction."
                     : "Not measured: 4 cycles, the dependent FP32 latency of Volta and later GPUs."},
            {{"M"},
             cc ? "Compute capability " + probe.compute_capability + ": " + std::to_string(cc->fp32_lanes_sm)
                             + " FP32 lanes per SM / 32 = " + formatNumber(p.M)
                             + " warp-instructions per cycle."
                : "Compute capability " + probe.compute_capability
                             + " is not in the occupancy table: 4 warp-instructions per cycle assumed."},
            {{"n", "Z", "E", "cache", "h", "alpha", "beta"},
             "Workload: the last kernel of " + sourceLabel(probe, "family.csv")
                     + "; no cache (the probe's data is far larger than L2)."},
    };
    if (probe.parallel_analysis) {
        const ParallelAnalysis &a = *probe.parallel_analysis;
        const std::string file = sourceLabel(probe, "parallel.csv");
        const ParallelRow &peak = a.dram.peak;
        p.R_dram = peak.gbs;
        // Beside the other machine keys, before the workload's entry.
        const auto workload = prof.sources.end() - 1;
        const auto rdramSource = prof.sources.insert(
                workload, {{"R_dram"},
                           file + ":" + std::to_string(peak.line)
                                   + ": the highest read throughput over a DRAM footprint ("
                                   + formatExact(peak.footprint_bytes) + " B), " + formatNumber(peak.gbs)
                                   + " GB/s with " + formatNumber(peak.bytes_per_thread) + "-byte loads, "
                                   + formatNumber(peak.loads_in_flight) + " in flight per warp, "
                                   + formatNumber(peak.warps) + " warps per SM."});
        if (a.l2 && a.l2->latency) {
            p.L_2 = *a.l2->latency;
            prof.sources.insert(
                    rdramSource + 1,
                    {{"L_2"},
                     file + ": the " + std::to_string(a.l2->latency_rows)
                             + " latency-bound l2 rows (at most half the highest l2 read throughput, "
                             + formatNumber(a.l2->peak.gbs) + " GB/s, over "
                             + formatExact(a.l2->peak.footprint_bytes)
                             + " B): warps x loads in flight x SMs x request bytes x clock / throughput, "
                               "median "
                             + significant(p.L_2, 4) + " cycles per load."});
        }
    }
    validate(p);
    return prof;
}

HardwareProfile calibratedProfile(const HardwareProfile &start, const CalibrationResult &calibration,
                                  const std::string &familyName, const std::string &id,
                                  const std::string &name)
{
    HardwareProfile prof = start;
    prof.id = id;
    prof.name = name;
    prof.params = calibration.params;
    std::vector<ProfileSource> sources;
    for (ProfileSource s : start.sources) {
        std::erase_if(s.fields, [&](const std::string &key) {
            return std::find(calibration.fitted.begin(), calibration.fitted.end(), key)
                   != calibration.fitted.end();
        });
        if (!s.fields.empty())
            sources.push_back(std::move(s));
    }
    std::string values, startValues;
    for (const std::string &key : calibration.fitted) {
        const double XModelParams::*member = findParameter(key)->member;
        values += (values.empty() ? "" : ", ") + key + " = " + formatNumber(calibration.params.*member);
        startValues += (startValues.empty() ? "" : ", ") + key + " = " + formatNumber(start.params.*member);
    }
    const FamilyPrediction &fit = calibration.prediction;
    std::string text = "Fitted by crossroof-cli calibrate to the kernel family " + familyName + " ("
                       + std::to_string(fit.rows.size())
                       + " kernels; least squares of log(predicted / measured) " + "throughput, "
                       + std::to_string(calibration.starts) + " starts, the first at " + startValues
                       + "): " + values + ". Accuracy 1 - |predicted - measured| / measured: mean "
                       + formatNumber(fit.accuracy_mean) + ", median " + formatNumber(fit.accuracy_median)
                       + ", min " + formatNumber(fit.accuracy_min) + ".";
    if (!calibration.at_bound.empty()) {
        std::string keys;
        for (const std::string &key : calibration.at_bound)
            keys += (keys.empty() ? "" : ", ") + key;
        text += " At a bound of the fit (the family does not pin it down): " + keys + ".";
    }
    sources.push_back({calibration.fitted, text});
    prof.sources = std::move(sources);
    return prof;
}

HardwareProfile jointCalibratedProfile(const HardwareProfile &start, const JointCalibration &calibration,
                                       const std::string &id, const std::string &name,
                                       const std::string &tool)
{
    HardwareProfile prof = start;
    prof.id = id;
    prof.name = name;
    prof.params = calibration.params;
    std::vector<std::string> replaced = calibration.fitted;
    for (const KeySetting &s : calibration.settings)
        replaced.push_back(s.key);
    std::vector<ProfileSource> sources;
    for (ProfileSource s : start.sources) {
        std::erase_if(s.fields, [&](const std::string &key) {
            return std::find(replaced.begin(), replaced.end(), key) != replaced.end();
        });
        if (!s.fields.empty())
            sources.push_back(std::move(s));
    }
    const auto fileName
            = [](const std::string &path) { return std::filesystem::path(path).filename().string(); };
    std::string text = "Fitted jointly by " + tool
                       + " (least squares of log(predicted / measured), each "
                         "source's rows weighted by its weight / its rows, "
                       + std::to_string(calibration.starts) + " starts) to";
    for (std::size_t i = 0; i < calibration.sources.size(); ++i) {
        const SourceReport &r = calibration.sources[i];
        text += std::string(i == 0 ? " " : "; ") + "the " + std::string(sourceKindName(r.kind)) + " "
                + fileName(r.source) + " (" + std::to_string(r.rows.size())
                + (r.rows.size() == 1 ? " value" : " values") + ", weight " + formatNumber(r.weight)
                + ", accuracy mean " + significant(r.accuracy_mean, 3) + ", min "
                + significant(r.accuracy_min, 3) + ")";
    }
    text += ":";
    for (const KeyOrigin &o : calibration.origins) {
        const double value = calibration.params.*(findParameter(o.key)->member);
        text += " " + o.key + " = " + significant(value, 4);
        if (o.undetermined) {
            text += std::string(" (not determined by the measurements: any ") + (o.free_upward ? "larger" : "smaller")
                    + " value predicts the same)";
        } else if (!o.shares.empty()) {
            text += " (from";
            for (std::size_t i = 0; i < o.shares.size() && i < 2; ++i) {
                text += std::string(i == 0 ? " " : ", ")
                        + fileName(calibration.sources[o.shares[i].first].source) + " "
                        + formatNumber(std::round(100 * o.shares[i].second)) + " %";
            }
            text += ")";
        }
        text += o.key == calibration.origins.back().key ? "." : ",";
    }
    if (!calibration.at_bound.empty()) {
        std::string keys;
        for (const std::string &key : calibration.at_bound)
            keys += (keys.empty() ? "" : ", ") + key;
        text += " At a bound of the fit (no source pins it down): " + keys + ".";
    }
    sources.push_back({calibration.fitted, text});
    for (const KeySetting &s : calibration.settings) {
        sources.push_back({{s.key},
                           fileName(s.source) + ": " + s.how + ": " + formatNumber(s.value) + " ("
                                   + std::string(findParameter(s.key)->unit) + ")."});
    }
    prof.sources = std::move(sources);
    return prof;
}

void saveProfileFile(const std::filesystem::path &path, const HardwareProfile &profile)
{
    const std::string text = profileToText(profile);
    parseProfile(text, path.string()); // never write a profile that would not load
    if (const std::string why = writeFileAtomically(path, text); !why.empty())
        throw InputError(path.string() + ": cannot write the profile: " + why);
}

std::string profileIdFrom(const std::string &text)
{
    std::string id;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            id += char(std::tolower(u));
        else if ((c == '-' || c == '_' || c == '.' || c == ' ') && !id.empty() && id.back() != '-')
            id += c == ' ' ? '-' : c;
    }
    while (!id.empty() && (id.back() == '-' || id.back() == '.'))
        id.pop_back();
    return id.empty() ? std::string("calibrated") : id;
}

} // namespace crossroof::core
