// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/gpu_benches.h"

#include "core/traces/csv_table.h"
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
constexpr int kBlocksPerSm = 2; // the benchmark's shared-memory spoiler (gpu-benches README)
constexpr double kWarpSize = 32;

std::string shown(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

struct Token
{
    std::string_view text;
    std::size_t offset = 0; ///< within the line
};

std::vector<Token> tokens(std::string_view line, std::size_t from, std::size_t to)
{
    std::vector<Token> out;
    std::size_t i = from;
    while (i < to) {
        while (i < to && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        if (i >= to)
            break;
        const std::size_t start = i;
        while (i < to && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        out.push_back({line.substr(start, i - start), start});
    }
    return out;
}

class StreamParser
{
public:
    explicit StreamParser(const std::string &source)
        : m_source(source)
    {
    }

    [[noreturn]] void fail(int line, std::string_view text, std::size_t offset,
                           const std::string &problem) const
    {
        int column = 1;
        for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
            if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80)
                ++column;
        }
        throw InputError(m_source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": "
                         + problem);
    }

    double number(int line, std::string_view text, const Token &t, const std::string &name) const
    {
        const std::string field = brief(name, 40); // a kernel name from the header: any length
        const auto v = parseTableNumber(t.text, '.', false);
        if (!v)
            fail(line, text, t.offset, field + ": '" + shown(t.text) + "' is not a number");
        if (!std::isfinite(*v))
            fail(line, text, t.offset, field + ": '" + shown(t.text) + "' is not a finite number");
        if (*v < 0)
            fail(line, text, t.offset, field + ": must not be negative (got " + shown(t.text) + ")");
        return *v;
    }

    std::vector<StreamTrace> parse(std::string_view text, const std::string &gpu)
    {
        if (text.size() > kGpuBenchesMaxBytes) {
            throw InputError(m_source + ": " + std::to_string(text.size()) + " bytes, over the "
                             + std::to_string(kGpuBenchesMaxBytes / (1024 * 1024)) + " MiB limit for "
                             + std::string(kStreamWhat));
        }
        checkText(text, m_source, kStreamWhat);
        std::vector<StreamTrace> traces;
        int headerLine = 0;
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
                const auto left = tokens(raw, 0, bar == std::string_view::npos ? raw.size() : bar);
                if (bar == std::string_view::npos || left.empty() || left.front().text != "blockSize") {
                    fail(line, raw, first,
                         "not a gpu-stream header (expected 'blockSize threads %occ | kernel names...')");
                }
                const auto kernels = tokens(raw, bar + 1, raw.size());
                if (kernels.empty())
                    fail(line, raw, bar, "no kernel names after '|'");
                if (kernels.size() > kCsvMaxColumns) {
                    fail(line, raw, bar,
                         "more than " + std::to_string(kCsvMaxColumns) + " kernels (the limit for "
                                 + std::string(kStreamWhat) + ")");
                }
                for (const Token &k : kernels) {
                    StreamTrace t;
                    t.gpu = gpu;
                    t.kernel = std::string(k.text);
                    t.source = m_source;
                    traces.push_back(std::move(t));
                }
                headerLine = line;
                continue;
            }
            if (bar == std::string_view::npos)
                fail(line, raw, first, "no '|' between the launch columns and the GB/s columns");
            const auto left = tokens(raw, 0, bar);
            if (left.size() < 2)
                fail(line, raw, first, "expected 'blockSize threads %occ' before '|'");
            const double blockSize = number(line, raw, left[0], "blockSize");
            const double threads = number(line, raw, left[1], "threads");
            if (blockSize < 1 || blockSize != std::floor(blockSize) || blockSize > 1e6) {
                fail(line, raw, left[0].offset,
                     "blockSize: must be a whole number of threads >= 1 (got " + shown(left[0].text) + ")");
            }
            const auto right = tokens(raw, bar + 1, raw.size());
            if (right.empty() || right.front().text != "GB/s:")
                fail(line, raw, right.empty() ? bar : right.front().offset, "expected 'GB/s:' after '|'");
            if (right.size() - 1 != traces.size()) {
                fail(line, raw, right.front().offset,
                     std::to_string(right.size() - 1) + " values, but the header (line "
                             + std::to_string(headerLine) + ") names " + std::to_string(traces.size())
                             + " kernels");
            }
            const double warps = kBlocksPerSm * blockSize / kWarpSize;
            for (std::size_t k = 0; k < traces.size(); ++k) {
                StreamTrace &t = traces[k];
                const double gbs = number(line, raw, right[k + 1], t.kernel);
                if (t.warps_per_sm.empty())
                    t.sm_count = threads / blockSize;
                t.warps_per_sm.push_back(warps);
                t.gbs.push_back(gbs);
                t.lines.push_back(line);
            }
        }
        if (!headerLine) {
            throw InputError(m_source
                             + (anyText ? ": no gpu-stream header, only comment lines"
                                        : ": empty file, no gpu-stream output"));
        }
        if (traces.front().warps_per_sm.empty()) {
            throw InputError(m_source + ":" + std::to_string(headerLine)
                             + ": a header but no rows of measurements");
        }
        return traces;
    }

private:
    std::string m_source;
};

std::string stem(const std::string &path)
{
    return std::filesystem::path(path).stem().string();
}

constexpr std::string_view kLatencyWhat = "gpu-latency files";

/// gpu-latency's measurement rows: chase steps, clock (MHz), chain size (kB), total time (ms), cycles per load.
GpuLatency parseLatency(const StreamParser &p, const std::string &source, std::string_view text,
                        const std::string &gpu)
{
    if (text.size() > kGpuBenchesMaxBytes) {
        throw InputError(source + ": " + std::to_string(text.size()) + " bytes, over the "
                         + std::to_string(kGpuBenchesMaxBytes / (1024 * 1024)) + " MiB limit for "
                         + std::string(kLatencyWhat));
    }
    checkText(text, source, kLatencyWhat);
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
        const auto fields = tokens(raw, 0, raw.size());
        if (fields.front().text == "clock:") // the clock of each SM before the run; the rows repeat it
            continue;
        if (fields.size() != 5) {
            p.fail(line, raw, first,
                   std::to_string(fields.size())
                           + " fields; gpu-latency rows have 5 (steps, clock MHz, chain kB, time ms, cycles)");
        }
        const double clock = p.number(line, raw, fields[1], "clock (MHz)");
        const double chain = p.number(line, raw, fields[2], "chain size (kB)");
        const double cycles = p.number(line, raw, fields[4], "latency (cycles)");
        if (clock <= 0 || clock > 1e5) {
            p.fail(line, raw, fields[1].offset,
                   "clock (MHz): must be above 0 and at most 100000 (got " + shown(fields[1].text) + ")");
        }
        if (cycles <= 0 || cycles > 1e9) {
            p.fail(line, raw, fields[4].offset,
                   "latency (cycles): must be above 0 and at most 1e9 (got " + shown(fields[4].text) + ")");
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
    LineReader lines(head);
    while (const auto next = lines.next()) {
        const auto fields = tokens(*next, 0, next->size());
        if (fields.empty())
            continue;
        if (fields.front().text == "clock:")
            return true;
        return fields.size() == 5 && std::all_of(fields.begin(), fields.end(), [](const Token &t) {
                   return parseTableNumber(t.text, '.', false).has_value();
               });
    }
    return false;
}

GpuLatency parseGpuLatency(std::string_view text, const std::string &gpu, const std::string &source)
{
    return parseLatency(StreamParser(source), source, text, gpu);
}

GpuLatency readGpuLatency(const std::string &path)
{
    return parseGpuLatency(readTextFile(path, kGpuBenchesMaxBytes, kLatencyWhat), stem(path), path);
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
    return parseGpuStream(readTextFile(path, kGpuBenchesMaxBytes, kStreamWhat), stem(path), path);
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
