// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/nvprof_csv.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/traces/ncu_lexical.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

namespace crossroof::core::detail {

namespace {

constexpr std::string_view kMetricsHeader = "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\"";
constexpr std::string_view kTraceStart = "\"Start\",\"Duration\"";
constexpr double kSectorBytes = 32;

/// The metrics table's and the trace's lines, each as a text of the file's length in lines (other lines left
/// empty, so that messages give the file's line numbers).
struct Split
{
    std::string metrics, trace;
};

Split split(std::string_view text)
{
    Split out;
    std::string *current = nullptr;
    LineReader lines(text);
    while (const auto next = lines.next()) {
        const std::string_view line = trimBlanks(*next, " \t\r");
        if (line.starts_with(kMetricsHeader))
            current = &out.metrics;
        else if (line.starts_with(kTraceStart))
            current = &out.trace;
        const bool keep = current && !line.starts_with("==");
        for (std::string *t : {&out.metrics, &out.trace}) {
            if (keep && t == current)
                t->append(*next);
            t->push_back('\n');
        }
    }
    return out;
}

/// The warp slots of an SM of the device NAME: 48 on Fermi, 32 on Turing, 64 on Kepler, Maxwell, Pascal and
/// Volta (the GPUs nvprof's metrics run on).
double warpSlots(std::string_view name)
{
    for (std::string_view fermi : {"GTX 4", "GTX 5", "Tesla C20", "Tesla M20", "Tesla S20", "Quadro 2000",
                                   "Quadro 4000", "Quadro 5000", "Quadro 6000", "Quadro 7000"}) {
        if (name.find(fermi) != std::string_view::npos)
            return 48;
    }
    for (std::string_view turing : {"RTX 20", "GTX 16", "Tesla T4", "TITAN RTX", "Quadro RTX"}) {
        if (name.find(turing) != std::string_view::npos)
            return 32;
    }
    return 64;
}

/// "Tesla K20c (0)" -> ("Tesla K20c", "0").
std::pair<std::string, std::string> deviceOf(std::string_view cell)
{
    const std::string_view c = trimBlanks(cell);
    const auto open = c.rfind(" (");
    if (open != std::string_view::npos && c.ends_with(")"))
        return {std::string(c.substr(0, open)), std::string(c.substr(open + 2, c.size() - open - 3))};
    return {std::string(c), {}};
}

/// "kernel(float*, int) [123]" -> "kernel(float*, int)".
std::string_view withoutLaunchId(std::string_view name)
{
    name = trimBlanks(name);
    if (name.ends_with("]")) {
        const auto open = name.rfind(" [");
        if (open != std::string_view::npos)
            return name.substr(0, open);
    }
    return name;
}

/// A metric value with its unit glued on: "120.5GB/s" -> 120.5 (GB/s), "87.50%" -> 87.5, "1.2e6" -> 1.2e6.
double metricValue(const CsvTable &t, std::size_t r, std::size_t c, const std::string &metric)
{
    std::string_view text = trimBlanks(t.cell(r, c));
    double scale = 1;
    static constexpr std::array<std::pair<std::string_view, double>, 6> kUnits {
            {{"TB/s", 1e3}, {"GB/s", 1}, {"MB/s", 1e-3}, {"KB/s", 1e-6}, {"B/s", 1e-9}, {"%", 1}}};
    for (const auto &[unit, factor] : kUnits) {
        if (text.size() > unit.size() && text.ends_with(unit)) {
            text.remove_suffix(unit.size());
            scale = factor;
            break;
        }
    }
    const auto v = parseTableNumber(text, '.', true);
    const std::string what = t.where(r, c) + ": metric '" + metric + "'";
    if (!v)
        throw InputError(what + ": '" + brief(t.cell(r, c), 40) + "' is not a number");
    if (!std::isfinite(*v) || *v < 0)
        throw InputError(what + ": must be a finite number >= 0 (got " + brief(t.cell(r, c), 40) + ")");
    return *v * scale;
}

struct Metrics
{
    std::map<std::string, double, std::less<>> avg; ///< metric name -> Avg
};

void readMetrics(const std::string &text, const std::string &source, std::vector<NcuKernel> &kernels,
                 std::vector<Metrics> &metrics)
{
    const CsvTable t = parseCsv(text, source, {',', '.', true});
    const std::size_t device = t.column("Device"), kernel = t.column("Kernel"), name = t.column("Metric Name"),
                      avg = t.column("Avg");
    std::map<std::string, std::size_t, std::less<>> index; // device + kernel -> kernel
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        if (trimBlanks(t.cell(r, kernel)) == "Kernel")
            continue; // a repeated header
        const std::string key = std::string(t.cell(r, device)) + "\n" + std::string(t.cell(r, kernel));
        auto [it, added] = index.try_emplace(key, kernels.size());
        if (added) {
            NcuKernel k;
            k.name = std::string(trimBlanks(t.cell(r, kernel)));
            k.id = k.name;
            k.short_name = shortKernelName(k.name);
            std::tie(k.gpu.name, k.device) = deviceOf(t.cell(r, device));
            k.line = t.line(r);
            kernels.push_back(std::move(k));
            metrics.emplace_back();
        }
        const std::string metric(trimBlanks(t.cell(r, name)));
        NcuKernel &k = kernels[it->second];
        try {
            if (!ncu::notCollected(trimBlanks(t.cell(r, avg))))
                metrics[it->second].avg.emplace(metric, metricValue(t, r, avg, metric));
        } catch (const InputError &e) {
            if (k.problem.empty())
                k.problem = e.what();
        }
    }
}

/// Each kernel name's launches in the trace: the mean duration (ns) and the first launch's shape.
struct Launches
{
    double duration_sum_ns = 0;
    int count = 0;
    int line = 0;
    std::string grid, block, device_name, device;
    std::optional<double> registers, shared;
};

std::map<std::string, Launches, std::less<>> readTrace(const std::string &text, const std::string &source)
{
    const CsvTable t = parseCsv(text, source, {',', '.', true});
    const std::size_t duration = t.column("Duration"), name = t.column("Name");
    const auto device = t.findColumn("Device");
    const auto col = [&](const char *c) { return t.findColumn(c); };
    std::optional<double> unitScale;
    std::map<std::string, Launches, std::less<>> out;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        const std::string_view d = trimBlanks(t.cell(r, duration));
        if (const auto scale = ncu::timeScale(d); scale && !parseTableNumber(d, '.', true)) {
            unitScale = scale; // the row of units under the header
            continue;
        }
        const std::string_view n = trimBlanks(t.cell(r, name));
        if (n.empty() || n.starts_with("[CUDA ") || n == "Name")
            continue; // memory copies and sets, a repeated header
        if (!unitScale)
            throw InputError(t.where(r, duration) + ": no row of units under the header before the first launch");
        const double v = t.number(r, duration);
        if (v < 0)
            throw InputError(t.where(r, duration) + ": must not be negative");
        Launches &l = out[std::string(withoutLaunchId(n))];
        if (l.count == 0) {
            l.line = t.line(r);
            const auto dims = [&](const char *x, const char *y, const char *z) {
                const auto cx = col(x), cy = col(y), cz = col(z);
                if (!cx || !cy || !cz)
                    return std::string();
                return "(" + std::string(trimBlanks(t.cell(r, *cx))) + ", " + std::string(trimBlanks(t.cell(r, *cy)))
                       + ", " + std::string(trimBlanks(t.cell(r, *cz))) + ")";
            };
            l.grid = dims("Grid X", "Grid Y", "Grid Z");
            l.block = dims("Block X", "Block Y", "Block Z");
            if (device)
                std::tie(l.device_name, l.device) = deviceOf(t.cell(r, *device));
            if (const auto reg = col("Registers Per Thread"))
                l.registers = t.number(r, *reg);
        }
        l.duration_sum_ns += v * *unitScale; // timeScale(): ns per unit
        ++l.count;
    }
    return out;
}

std::optional<double> get(const Metrics &m, std::string_view name)
{
    const auto it = m.avg.find(name);
    return it == m.avg.end() ? std::nullopt : std::optional(it->second);
}

} // namespace

bool looksLikeNvprof(std::string_view text)
{
    return text.find(kMetricsHeader) != std::string_view::npos
           || (text.find(kTraceStart) != std::string_view::npos && text.find("\"Name\"") != std::string_view::npos);
}

NcuReport parseNvprof(std::string_view text, const std::string &source)
{
    if (text.size() > kCsvMaxBytes) {
        throw InputError(source + ": " + std::to_string(text.size()) + " bytes, over the "
                         + std::to_string(kCsvMaxBytes / (1024 * 1024)) + " MiB limit for nvprof CSV files");
    }
    checkText(text, source, "nvprof CSV");
    const Split parts = split(text);
    const bool haveMetrics = parts.metrics.find(kMetricsHeader) != std::string::npos;
    const bool haveTrace = parts.trace.find(kTraceStart) != std::string::npos;
    std::vector<NcuKernel> kernels;
    std::vector<Metrics> metrics;
    if (haveMetrics)
        readMetrics(parts.metrics, source, kernels, metrics);
    std::map<std::string, Launches, std::less<>> launches;
    if (haveTrace)
        launches = readTrace(parts.trace, source);
    if (!haveMetrics) { // the trace alone: one kernel per name, its launches' mean duration
        for (const auto &[name, l] : launches) {
            NcuKernel k;
            k.name = name;
            k.id = name;
            k.short_name = shortKernelName(name);
            k.line = l.line;
            kernels.push_back(std::move(k));
            metrics.emplace_back();
        }
    }
    if (kernels.empty())
        throw InputError(source + ": no kernels in the nvprof output (memory copies only, or no rows)");

    NcuReport report;
    report.source = source;
    report.form = haveMetrics ? NcuForm::NvprofMetrics : NcuForm::NvprofTrace;
    report.long_form = haveMetrics;
    double slots = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        NcuKernel &k = kernels[i];
        const Metrics &m = metrics[i];
        if (const auto it = launches.find(k.name); it != launches.end()) {
            const Launches &l = it->second;
            k.duration_ns = l.duration_sum_ns / l.count;
            k.grid_size = l.grid;
            k.block_size = l.block;
            k.registers_per_thread = l.registers;
            if (k.gpu.name.empty()) {
                k.gpu.name = l.device_name;
                k.device = l.device;
            }
        }
        if (const auto occ = get(m, "achieved_occupancy")) {
            slots = warpSlots(k.gpu.name);
            k.warps_per_sm = *occ * slots;
        }
        k.instructions = get(m, "inst_executed");
        if (!k.instructions)
            k.instructions = get(m, "inst_issued");
        k.sectors_ld = get(m, "gld_transactions");
        k.sectors_st = get(m, "gst_transactions");
        const auto requests = [&](const char *name, const char *perRequest, const std::optional<double> &tx) {
            if (const auto r = get(m, name))
                return r;
            const auto per = get(m, perRequest);
            return tx && per && *per > 0 ? std::optional(*tx / *per) : std::nullopt;
        };
        k.requests_ld = requests("gld_requests", "gld_transactions_per_request", k.sectors_ld);
        k.requests_st = requests("gst_requests", "gst_transactions_per_request", k.sectors_st);
        const auto read = get(m, "dram_read_throughput"), write = get(m, "dram_write_throughput");
        const auto readTx = get(m, "dram_read_transactions"), writeTx = get(m, "dram_write_transactions");
        if (read || write) {
            k.dram_gbs = read.value_or(0) + write.value_or(0);
        } else if ((readTx || writeTx) && k.duration_ns && *k.duration_ns > 0) {
            k.dram_gbs = (readTx.value_or(0) + writeTx.value_or(0)) * kSectorBytes / *k.duration_ns;
            k.derived.push_back("DRAM GB/s = (dram_read_transactions + dram_write_transactions) x 32 B / duration");
        }
        const auto rate = [&](std::initializer_list<const char *> names) -> std::optional<double> {
            for (const char *n : names) {
                if (const auto v = get(m, n); v && *v <= 100)
                    return *v / 100;
            }
            return std::nullopt;
        };
        k.l1_hit_rate = rate({"global_hit_rate", "l1_cache_global_hit_rate"});
        k.l2_hit_rate = rate({"l2_tex_hit_rate", "l2_l1_read_hit_rate"});
    }
    if (std::all_of(kernels.begin(), kernels.end(), [](const NcuKernel &k) { return !k.problem.empty(); }))
        throw InputError(kernels.front().problem);
    std::stable_sort(kernels.begin(), kernels.end(), [](const NcuKernel &a, const NcuKernel &b) { return a.line < b.line; });
    for (std::size_t i = 0; i < kernels.size(); ++i)
        kernels[i].id = std::to_string(i); // nvprof numbers no kernels: their order in the file
    for (const NcuKernel &k : kernels) {
        if (!k.problem.empty())
            report.warnings.push_back("kernel " + k.id + " (" + k.short_name + "): " + k.problem);
    }
    report.device = kernels.front().gpu;
    if (slots > 0) {
        report.warnings.push_back("warps per SM = achieved_occupancy x " + formatNumber(slots)
                                  + " warp slots per SM (of a " + (report.device.name.empty() ? std::string("GPU")
                                                                                              : report.device.name)
                                  + ", by its name)");
    }
    if (haveMetrics && !haveTrace)
        report.warnings.push_back(source + ": no GPU trace with the metrics: the kernels have no duration "
                                           "(put nvprof --csv --print-gpu-trace output after them)");
    report.kernels = std::move(kernels);
    return report;
}

} // namespace crossroof::core::detail
