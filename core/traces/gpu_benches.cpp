// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/gpu_benches.h"

#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches_text.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/support/text_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <system_error>

namespace crossroof::core {

namespace {

constexpr std::string_view kStreamWhat = "gpu-stream files";
constexpr int kOldBlocksPerSm = 2; // the older benchmark's shared-memory spoiler (gpu-benches README)
constexpr double kWarpSize = 32;

using detail::BenchText;
using detail::BenchToken;
using detail::benchTokens;
using detail::shownToken;

/// gpu-stream output of either generation. The older header is `blockSize threads %occ | kernels`, two blocks
/// resident per SM; today's is `block smBlocks threads occ% | kernels`, whose rows give block size, threads
/// and blocks per SM (the two last in either order: the threads are the larger).
class StreamParser
{
public:
    explicit StreamParser(const std::string &source)
        : m_text(source, kStreamWhat)
    {
    }

    std::vector<StreamTrace> parse(std::string_view text, const std::string &gpu)
    {
        m_text.checkSize(text);
        std::vector<StreamTrace> traces;
        int headerLine = 0;
        bool current = false; // today's header (block smBlocks threads occ%)
        bool anyText = false;
        LineReader lines(text);
        while (const auto next = lines.next()) {
            const std::string_view raw = *next;
            const int line = lines.number();
            const auto first = raw.find_first_not_of(" \t\r");
            if (first == std::string_view::npos)
                continue;
            anyText = true;
            if (raw[first] == '#')
                continue;
            const auto bar = raw.find('|');
            if (!headerLine) {
                const auto left = benchTokens(raw, 0, bar == std::string_view::npos ? raw.size() : bar);
                current = !left.empty() && left.front().text == "block";
                if (bar == std::string_view::npos || left.empty()
                    || (left.front().text != "blockSize" && !current)) {
                    m_text.fail(line, raw, first,
                                "not a gpu-stream header (expected 'blockSize threads %occ | kernel names...' "
                                "or 'block smBlocks threads occ% | kernel names...')");
                }
                const auto kernels = benchTokens(raw, bar + 1, raw.size());
                if (kernels.empty())
                    m_text.fail(line, raw, bar, "no kernel names after '|'");
                if (kernels.size() > kCsvMaxColumns) {
                    m_text.fail(line, raw, bar,
                                "more than " + std::to_string(kCsvMaxColumns) + " kernels (the limit for "
                                        + std::string(kStreamWhat) + ")");
                }
                for (const BenchToken &k : kernels) {
                    StreamTrace t;
                    t.gpu = gpu;
                    t.kernel = std::string(k.text);
                    t.source = m_text.source();
                    traces.push_back(std::move(t));
                }
                headerLine = line;
                continue;
            }
            if (bar == std::string_view::npos)
                m_text.fail(line, raw, first, "no '|' between the launch columns and the GB/s columns");
            const auto left = benchTokens(raw, 0, bar);
            double warps = 0, sms = 0;
            launch(line, raw, left, current, warps, sms);
            const auto right = benchTokens(raw, bar + 1, raw.size());
            if (right.empty() || right.front().text != "GB/s:")
                m_text.fail(line, raw, right.empty() ? bar : right.front().offset, "expected 'GB/s:' after '|'");
            if (right.size() - 1 != traces.size()) {
                m_text.fail(line, raw, right.front().offset,
                            std::to_string(right.size() - 1) + " values, but the header (line "
                                    + std::to_string(headerLine) + ") names " + std::to_string(traces.size())
                                    + " kernels");
            }
            for (std::size_t k = 0; k < traces.size(); ++k) {
                StreamTrace &t = traces[k];
                const double gbs = m_text.number(line, raw, right[k + 1], t.kernel);
                if (t.warps_per_sm.empty())
                    t.sm_count = sms;
                t.warps_per_sm.push_back(warps);
                t.gbs.push_back(gbs);
                t.lines.push_back(line);
            }
        }
        if (!headerLine) {
            throw InputError(m_text.source()
                             + (anyText ? ": no gpu-stream header, only comment lines"
                                        : ": empty file, no gpu-stream output"));
        }
        if (traces.front().warps_per_sm.empty()) {
            throw InputError(m_text.source() + ":" + std::to_string(headerLine)
                             + ": a header but no rows of measurements");
        }
        return traces;
    }

private:
    /// Warps per SM and SMs of one row's launch columns.
    void launch(int line, std::string_view raw, const std::vector<BenchToken> &left, bool current, double &warps,
                double &sms) const
    {
        const std::size_t need = current ? 3 : 2;
        if (left.size() < need) {
            m_text.fail(line, raw, left.empty() ? 0 : left.front().offset,
                        current ? "expected 'block threads smBlocks occ%' before '|'"
                                : "expected 'blockSize threads %occ' before '|'");
        }
        const double blockSize = m_text.number(line, raw, left[0], current ? "block" : "blockSize");
        if (blockSize < 1 || blockSize != std::floor(blockSize) || blockSize > 1e6) {
            m_text.fail(line, raw, left[0].offset,
                        "blockSize: must be a whole number of threads >= 1 (got " + shownToken(left[0].text) + ")");
        }
        double threads = m_text.number(line, raw, left[1], "threads");
        double blocksPerSm = kOldBlocksPerSm;
        if (current) {
            blocksPerSm = m_text.number(line, raw, left[2], "smBlocks");
            const std::size_t smBlocksColumn = blocksPerSm > threads ? 1 : 2;
            if (blocksPerSm > threads)
                std::swap(blocksPerSm, threads);
            if (blocksPerSm < 1 || blocksPerSm != std::floor(blocksPerSm) || blocksPerSm > 1024) {
                m_text.fail(line, raw, left[smBlocksColumn].offset,
                            "smBlocks: must be a whole number of blocks per SM >= 1 (got "
                                    + shownToken(left[smBlocksColumn].text) + ")");
            }
            sms = threads / (blockSize * blocksPerSm);
        } else {
            sms = threads / blockSize;
        }
        warps = blocksPerSm * blockSize / kWarpSize;
    }

    BenchText m_text;
};

constexpr std::string_view kLatencyWhat = "gpu-latency files";

/// gpu-latency's measurement rows: chase steps, clock (MHz), footprint (kB), total time (ms), then the cycles
/// per load: one column in the older output, the median and percentiles in today's.
GpuLatency parseLatency(std::string_view text, const std::string &gpu, const std::string &source)
{
    const BenchText p(source, kLatencyWhat);
    p.checkSize(text);
    GpuLatency result;
    result.gpu = gpu;
    result.source = source;
    LineReader lines(text);
    while (const auto next = lines.next()) {
        const std::string_view raw = *next;
        const int line = lines.number();
        const auto first = raw.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || raw[first] == '#')
            continue;
        const auto fields = benchTokens(raw);
        if (fields.front().text == "clock:") // the clock of each SM before the run; the rows repeat it
            continue;
        if (fields.size() < 5) {
            p.fail(line, raw, first,
                   std::to_string(fields.size())
                           + " fields; gpu-latency rows have 5 (steps, clock MHz, chain kB, time ms, cycles), "
                             "today's also the latency percentiles");
        }
        const double clock = p.number(line, raw, fields[1], "clock (MHz)");
        const double chain = p.number(line, raw, fields[2], "chain size (kB)");
        for (std::size_t i = 5; i < fields.size(); ++i)
            p.number(line, raw, fields[i], "latency percentile (cycles)");
        const double cycles = p.number(line, raw, fields[4], "latency (cycles)");
        if (clock <= 0 || clock > 1e5) {
            p.fail(line, raw, fields[1].offset,
                   "clock (MHz): must be above 0 and at most 100000 (got " + shownToken(fields[1].text) + ")");
        }
        if (cycles <= 0 || cycles > 1e9) {
            p.fail(line, raw, fields[4].offset,
                   "latency (cycles): must be above 0 and at most 1e9 (got " + shownToken(fields[4].text) + ")");
        }
        if (result.clock_mhz == 0)
            result.clock_mhz = clock;
        result.chain_kb.push_back(chain);
        result.cycles.push_back(cycles);
        result.lines.push_back(line);
    }
    if (result.cycles.empty())
        throw InputError(source + ": no gpu-latency rows (steps, clock MHz, chain kB, time ms, cycles)");
    return result;
}

} // namespace

bool looksLikeGpuLatency(std::string_view head)
{
    return detail::gpuBenchesFormat(head) == TraceFormat::GpuLatency;
}

GpuLatency parseGpuLatency(std::string_view text, const std::string &gpu, const std::string &source)
{
    return parseLatency(text, gpu, source);
}

GpuLatency readGpuLatency(const std::string &path)
{
    return parseGpuLatency(readTextFile(path, kGpuBenchesMaxBytes, kLatencyWhat), detail::benchGpuName(path), path);
}

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

LatencyPlateaus latencyPlateaus(const GpuLatency &lat)
{
    const std::size_t n = lat.cycles.size();
    if (n < 3)
        throw InputError(lat.source + ": " + std::to_string(n) + " gpu-latency rows; the L1 and DRAM levels need 3 "
                                                                 "or more");
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return lat.chain_kb[a] < lat.chain_kb[b]; });
    // The plateau of the rows ORDER[FIRST, LAST).
    const auto plateau = [&](std::size_t first, std::size_t last) {
        LatencyPlateau p;
        std::vector<double> c;
        for (std::size_t i = first; i < last; ++i)
            c.push_back(lat.cycles[order[i]]);
        p.cycles = median(c);
        p.from_kb = lat.chain_kb[order[first]];
        p.to_kb = lat.chain_kb[order[last - 1]];
        p.line = lat.lines[order[first]];
        p.rows = last - first;
        p.level_from_kb = p.from_kb;
        p.level_to_kb = p.to_kb;
        return p;
    };
    const auto near = [&](std::size_t i, const LatencyPlateau &p) {
        return std::abs(lat.cycles[order[i]] - p.cycles) <= 0.05 * p.cycles;
    };
    const std::size_t k = std::max<std::size_t>(1, std::min(kPlateauRows, n / 3));
    LatencyPlateaus out;
    out.l1 = plateau(0, k);
    out.dram = plateau(n - k, n);
    if (!(out.dram.cycles > 1.3 * out.l1.cycles)) {
        throw InputError(lat.source + ": the largest footprints (" + formatNumber(out.dram.to_kb) + " kB) take "
                         + formatNumber(out.dram.cycles) + " cycles, not above 1.3 x the smallest's "
                         + formatNumber(out.l1.cycles) + ": the chase did not reach DRAM");
    }
    // The footprints each level holds: L1 on up and DRAM on down while the cycles stay at its median.
    std::size_t l1End = k;
    while (l1End < n - k && near(l1End, out.l1))
        out.l1.level_to_kb = lat.chain_kb[order[l1End++]];
    for (std::size_t i = n - k; i > l1End && near(i - 1, out.dram); --i)
        out.dram.level_from_kb = lat.chain_kb[order[i - 1]];
    const auto between = [&](double c) { return c > 1.5 * out.l1.cycles && c < out.dram.cycles / 1.3; };
    std::size_t bestFirst = 0, bestLast = 0;
    for (std::size_t i = k; i < n - k;) {
        const double first = lat.cycles[order[i]];
        std::size_t j = i;
        while (j < n - k && between(lat.cycles[order[j]]) && std::abs(lat.cycles[order[j]] - first) <= 0.05 * first)
            ++j;
        if (j - i > bestLast - bestFirst) {
            bestFirst = i;
            bestLast = j;
        }
        i = std::max(j, i + 1);
    }
    if (bestLast - bestFirst >= 3)
        out.l2 = plateau(bestFirst, bestLast);
    return out;
}

double GpuLatency::smallestChainCycles() const
{
    return cycles[std::size_t(std::min_element(chain_kb.begin(), chain_kb.end()) - chain_kb.begin())];
}

double GpuLatency::largestChainCycles() const
{
    return cycles[std::size_t(std::max_element(chain_kb.begin(), chain_kb.end()) - chain_kb.begin())];
}

std::vector<StreamTrace> parseGpuStream(std::string_view text, const std::string &gpu,
                                        const std::string &source)
{
    return StreamParser(source).parse(text, gpu);
}

std::vector<StreamTrace> readGpuStream(const std::string &path)
{
    return parseGpuStream(readTextFile(path, kGpuBenchesMaxBytes, kStreamWhat), detail::benchGpuName(path), path);
}

std::vector<StreamTrace> streamTracesFromTable(const CsvTable &table)
{
    const std::size_t gpuColumn = table.column("gpu");
    const std::size_t warpsColumn = table.column("warps_per_sm");
    const std::optional<std::size_t> smColumn = table.findColumn("sm_count");
    constexpr std::string_view kSuffix = "_GBs";
    std::vector<std::size_t> kernelColumns;
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        const std::string &name = table.header()[c];
        if (name.size() > kSuffix.size() && name.ends_with(kSuffix))
            kernelColumns.push_back(c);
    }
    if (kernelColumns.empty()) {
        throw InputError(table.source() + ": no kernel columns (named <kernel>_GBs, e.g. init_GBs)");
    }
    std::vector<StreamTrace> traces;
    std::map<std::string, std::size_t, std::less<>> firstTrace; // gpu -> index of its first kernel's trace
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const std::string gpu(table.cell(r, gpuColumn));
        if (gpu.empty())
            throw InputError(table.where(r, gpuColumn) + ": is empty, expected a GPU name");
        const double warps = table.number(r, warpsColumn);
        if (warps < 0)
            throw InputError(table.where(r, warpsColumn) + ": must not be negative");
        auto [it, added] = firstTrace.try_emplace(gpu, traces.size());
        if (added) {
            for (const std::size_t c : kernelColumns) {
                StreamTrace t;
                t.gpu = gpu;
                const std::string &name = table.header()[c];
                t.kernel = name.substr(0, name.size() - kSuffix.size());
                t.source = table.source();
                if (smColumn)
                    t.sm_count = table.number(r, *smColumn);
                traces.push_back(std::move(t));
            }
        }
        for (std::size_t k = 0; k < kernelColumns.size(); ++k) {
            const double gbs = table.number(r, kernelColumns[k]);
            if (gbs < 0)
                throw InputError(table.where(r, kernelColumns[k]) + ": must not be negative");
            StreamTrace &t = traces[it->second + k];
            t.warps_per_sm.push_back(warps);
            t.gbs.push_back(gbs);
            t.lines.push_back(table.line(r));
        }
    }
    return traces;
}

std::vector<StreamTrace> parseGpuStreamCsv(std::string_view text, const std::string &source)
{
    return streamTracesFromTable(parseCsv(text, source));
}

std::vector<StreamTrace> readGpuStreamCsv(const std::string &path)
{
    return streamTracesFromTable(readCsv(path));
}

GpuBenchesSet readGpuBenches(const std::string &dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(dir + ": not a directory");
    GpuBenchesSet set;
    std::vector<std::string> files;
    const fs::path streamDir = fs::path(dir) / "stream";
    if (fs::is_directory(streamDir, ec)) {
        for (const auto &entry : fs::directory_iterator(streamDir, ec)) {
            if (entry.is_regular_file(ec) && entry.path().extension() == ".txt")
                files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    for (const std::string &f : files) {
        auto traces = readGpuStream(f);
        set.stream.insert(set.stream.end(), std::make_move_iterator(traces.begin()),
                          std::make_move_iterator(traces.end()));
    }
    const fs::path tidy = fs::path(dir) / "stream_vs_warps_per_sm.csv";
    if (fs::exists(tidy, ec))
        set.tidy = readGpuStreamCsv(tidy.string());
    if (set.stream.empty() && set.tidy.empty())
        throw InputError(dir + ": no gpu-benches stream data (stream/*.txt or stream_vs_warps_per_sm.csv)");
    return set;
}

const StreamTrace *findStreamTrace(const std::vector<StreamTrace> &traces, std::string_view gpu,
                                   std::string_view kernel)
{
    for (const StreamTrace &t : traces) {
        if (t.gpu == gpu && t.kernel == kernel)
            return &t;
    }
    return nullptr;
}

} // namespace crossroof::core
