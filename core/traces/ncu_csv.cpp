// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/ncu_csv.h"

#include "traces/csv_table.h"
#include "support/error.h"
#include "support/text.h"

#include <array>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace crossroof::core {

namespace {

enum class Metric {
    Warps,
    DramRate, ///< total bytes per second
    DramReadRate,
    DramWriteRate,
    DramThroughput, ///< the display name: a byte rate or a percentage, by its unit
    DramPercent,
    Instructions,
    RequestsLd,
    RequestsSt,
    SectorsLd,
    SectorsSt,
};

constexpr std::array<std::pair<std::string_view, Metric>, 15> kMetrics {{
        {"sm__warps_active.avg.per_cycle_active", Metric::Warps},
        {"Achieved Active Warps Per SM", Metric::Warps},
        {"dram__bytes.sum.per_second", Metric::DramRate},
        {"dram__bytes_read.sum.per_second", Metric::DramReadRate},
        {"dram__bytes_write.sum.per_second", Metric::DramWriteRate},
        {"DRAM Throughput", Metric::DramThroughput},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", Metric::DramPercent},
        {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", Metric::DramPercent},
        {"smsp__inst_executed.sum", Metric::Instructions},
        {"sm__inst_executed.sum", Metric::Instructions},
        {"Executed Instructions", Metric::Instructions},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Metric::RequestsLd},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Metric::RequestsSt},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Metric::SectorsLd},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Metric::SectorsSt},
}};

std::optional<Metric> metricOf(std::string_view name)
{
    // Not "Memory Throughput": that is the busiest memory unit, not necessarily DRAM.
    for (const auto &[n, m] : kMetrics) {
        if (n == name)
            return m;
    }
    return std::nullopt;
}

std::string shown(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

/// Scale of a count unit: "", "inst", "Kinst", "request", "sector", "warp" ...; none if not a count.
std::optional<double> countScale(std::string_view unit, std::string_view base)
{
    if (unit.empty() || unit == base)
        return 1.0;
    if (unit.size() == base.size() + 1 && unit.substr(1) == base) {
        switch (unit[0]) {
        case 'K':
            return 1e3;
        case 'M':
            return 1e6;
        case 'G':
            return 1e9;
        case 'T':
            return 1e12;
        default:
            break;
        }
    }
    return std::nullopt;
}

/// Rates of the read and write parts, and the display-name rate, until every row of a kernel is read.
struct DramParts
{
    std::optional<double> total;
    std::optional<double> read;
    std::optional<double> write;
    std::optional<double> display;
};

class NcuParser
{
public:
    explicit NcuParser(const CsvTable &table)
        : m_table(table)
    {
    }

    NcuReport parse()
    {
        NcuReport report;
        report.source = m_table.source();
        m_name = m_table.findColumn("Kernel Name");
        m_id = m_table.findColumn("ID");
        m_block = m_table.findColumn("Block Size");
        m_grid = m_table.findColumn("Grid Size");
        m_device = m_table.findColumn("Device");
        const auto metricName = m_table.findColumn("Metric Name");
        report.long_form = metricName.has_value();
        if (!m_name) {
            throw InputError(m_table.source() + ": no column 'Kernel Name'; not ncu --csv output (columns: "
                             + columnList() + ")");
        }
        if (report.long_form)
            parseLong(*metricName);
        else
            parseWide();
        if (m_kernels.empty())
            throw InputError(m_table.source() + ": no kernels");
        for (std::size_t k = 0; k < m_kernels.size(); ++k) {
            NcuKernel &kernel = m_kernels[k];
            const DramParts &d = m_dram[k];
            if (d.total)
                kernel.dram_gbs = d.total;
            else if (d.read && d.write)
                kernel.dram_gbs = *d.read + *d.write;
            else if (d.display)
                kernel.dram_gbs = d.display;
        }
        report.kernels = std::move(m_kernels);
        return report;
    }

private:
    std::string columnList() const
    {
        std::string list;
        for (std::size_t c = 0; c < m_table.columnCount() && c < 20; ++c)
            list += (c ? ", " : "") + m_table.header()[c];
        return list + (m_table.columnCount() > 20 ? ", ..." : "");
    }

    /// A header line again (files of several ncu runs put together).
    bool repeatedHeader(std::size_t row) const { return trimBlanks(m_table.cell(row, *m_name)) == "Kernel Name"; }

    std::size_t kernelFor(std::size_t row)
    {
        const std::string id(trimBlanks(m_id ? m_table.cell(row, *m_id) : m_table.cell(row, *m_name)));
        auto [it, added] = m_index.try_emplace(std::to_string(m_run) + ":" + id, m_kernels.size());
        if (added) {
            NcuKernel k;
            k.id = id;
            k.name = std::string(trimBlanks(m_table.cell(row, *m_name)));
            if (m_block)
                k.block_size = std::string(trimBlanks(m_table.cell(row, *m_block)));
            if (m_grid)
                k.grid_size = std::string(trimBlanks(m_table.cell(row, *m_grid)));
            if (m_device)
                k.device = std::string(trimBlanks(m_table.cell(row, *m_device)));
            k.line = m_table.line(row);
            m_kernels.push_back(std::move(k));
            m_dram.emplace_back();
        }
        return it->second;
    }

    /// The value of an accepted metric (VALUEROW/VALUECOL) with its unit (UNITROW/UNITCOL, if any).
    void apply(std::size_t kernel, Metric metric, std::string_view metricName, std::size_t valueRow,
               std::size_t valueCol, std::optional<std::pair<std::size_t, std::size_t>> unitCell)
    {
        const std::string_view text = trimBlanks(m_table.cell(valueRow, valueCol));
        if (text.empty() || text == "n/a" || text == "N/A")
            return;
        const std::string what
                = m_table.where(valueRow, valueCol) + ": metric '" + std::string(metricName) + "'";
        const auto value = parseTableNumber(text, '.', true);
        if (!value)
            throw InputError(what + ": '" + shown(text) + "' is not a number");
        if (!std::isfinite(*value))
            throw InputError(what + ": '" + shown(text) + "' is not a finite number");
        if (*value < 0)
            throw InputError(what + ": must not be negative (got " + shown(text) + ")");
        const std::string_view unit
                = unitCell ? trimBlanks(m_table.cell(unitCell->first, unitCell->second)) : std::string_view();
        const auto badUnit = [&](const std::string &expected) {
            const std::string at = unitCell ? m_table.where(unitCell->first, unitCell->second) : what;
            throw InputError(at + ": unit '" + shown(unit) + "' of metric '" + std::string(metricName)
                             + "' is not " + expected);
        };
        NcuKernel &k = m_kernels[kernel];
        DramParts &d = m_dram[kernel];
        const auto set = [](std::optional<double> &slot, double v) {
            if (!slot)
                slot = v; // the first value of a metric wins
        };
        const auto count = [&](std::optional<double> &slot, std::string_view base) {
            const auto scale = countScale(unit, base);
            if (!scale)
                badUnit("a count of " + std::string(base) + "s");
            set(slot, *value * *scale);
        };
        const auto rate = [&](std::optional<double> &slot) {
            const auto factor = ncuRateToGbs(unit);
            if (!factor)
                badUnit("a byte rate (e.g. Gbyte/second)");
            set(slot, *value * *factor);
        };
        switch (metric) {
        case Metric::Warps:
            if (!unit.empty() && unit != "warp" && unit != "warp/cycle")
                badUnit("warp");
            set(k.warps_per_sm, *value);
            break;
        case Metric::DramRate:
            rate(d.total);
            break;
        case Metric::DramReadRate:
            rate(d.read);
            break;
        case Metric::DramWriteRate:
            rate(d.write);
            break;
        case Metric::DramThroughput:
            if (unit == "%")
                set(k.dram_percent, *value);
            else
                rate(d.display);
            break;
        case Metric::DramPercent:
            if (!unit.empty() && unit != "%")
                badUnit("%");
            set(k.dram_percent, *value);
            break;
        case Metric::Instructions:
            count(k.instructions, "inst");
            break;
        case Metric::RequestsLd:
            count(k.requests_ld, "request");
            break;
        case Metric::RequestsSt:
            count(k.requests_st, "request");
            break;
        case Metric::SectorsLd:
            count(k.sectors_ld, "sector");
            break;
        case Metric::SectorsSt:
            count(k.sectors_st, "sector");
            break;
        }
    }

    void parseLong(std::size_t metricName)
    {
        std::optional<std::size_t> value = m_table.findColumn("Metric Value");
        if (!value)
            value = m_table.findColumn("Average"); // --print-summary per-kernel
        if (!value) {
            throw InputError(m_table.source()
                             + ": no column 'Metric Value' (or 'Average') next to 'Metric Name'");
        }
        const auto unit = m_table.findColumn("Metric Unit");
        for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
            if (repeatedHeader(r)) {
                ++m_run; // launch IDs start again
                continue;
            }
            const std::size_t kernel = kernelFor(r);
            const std::string_view name = trimBlanks(m_table.cell(r, metricName));
            const auto metric = metricOf(name);
            if (!metric)
                continue; // rule rows have an empty metric name; other metrics are not ours
            std::optional<std::pair<std::size_t, std::size_t>> unitCell;
            if (unit)
                unitCell = std::pair {r, *unit};
            apply(kernel, *metric, name, r, *value, unitCell);
        }
    }

    void parseWide()
    {
        std::vector<std::pair<std::size_t, Metric>> columns;
        for (std::size_t c = 0; c < m_table.columnCount(); ++c) {
            if (const auto m = metricOf(m_table.header()[c]))
                columns.push_back({c, *m});
        }
        if (columns.empty()) {
            throw InputError(m_table.source()
                             + ": neither a 'Metric Name' column (ncu --csv) nor a column of a known metric "
                               "(ncu --csv --page raw); columns: "
                             + columnList());
        }
        // The raw page puts the units in the first row, which has no ID.
        std::size_t first = 0;
        std::optional<std::size_t> unitsRow;
        if (m_id && trimBlanks(m_table.cell(0, *m_id)).empty()) {
            unitsRow = 0;
            first = 1;
        }
        for (std::size_t r = first; r < m_table.rowCount(); ++r) {
            if (repeatedHeader(r)) {
                ++m_run; // launch IDs start again
                continue;
            }
            const std::size_t kernel = kernelFor(r);
            for (const auto &[c, metric] : columns) {
                std::optional<std::pair<std::size_t, std::size_t>> unitCell;
                if (unitsRow)
                    unitCell = std::pair {*unitsRow, c};
                apply(kernel, metric, m_table.header()[c], r, c, unitCell);
            }
        }
    }

    const CsvTable &m_table;
    std::optional<std::size_t> m_name, m_id, m_block, m_grid, m_device;
    std::vector<NcuKernel> m_kernels;
    std::vector<DramParts> m_dram;
    std::unordered_map<std::string, std::size_t> m_index; ///< "run:ID" -> kernel
    int m_run = 0;
};

/// Keeps the CSV: blanks the lines before the header (profiler messages, the program's output) and later
/// "==PROF==" style lines, so that line numbers stay those of the file.
std::string withoutProfilerLines(std::string_view text)
{
    // The header is the first line with a quoted "Kernel Name" column (ncu quotes every field), else the first
    // line that mentions Kernel Name at all.
    std::size_t header = std::string_view::npos;
    for (const std::string_view wanted : {std::string_view("\"Kernel Name\""), std::string_view("Kernel Name")}) {
        LineReader lines(text);
        while (header == std::string_view::npos) {
            const auto line = lines.next();
            if (!line)
                break;
            if (line->find(wanted) != std::string_view::npos)
                header = lines.offset();
        }
        if (header != std::string_view::npos)
            break;
    }
    if (header == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size());
    LineReader lines(text);
    while (const auto line = lines.next()) {
        if (lines.offset() >= header && !trimBlanks(*line).starts_with("=="))
            out.append(*line);
        if (lines.ended())
            out.push_back('\n');
    }
    return out;
}

} // namespace

std::optional<double> NcuKernel::requests() const
{
    if (!requests_ld && !requests_st)
        return std::nullopt;
    return requests_ld.value_or(0) + requests_st.value_or(0);
}

std::optional<double> NcuKernel::sectors() const
{
    if (!sectors_ld && !sectors_st)
        return std::nullopt;
    return sectors_ld.value_or(0) + sectors_st.value_or(0);
}

std::optional<double> NcuKernel::intensity() const
{
    const auto r = requests();
    if (!instructions || !r || !(*r > 0))
        return std::nullopt;
    return *instructions / *r;
}

std::optional<double> NcuKernel::intensityFromSectors(double requestBytes) const
{
    constexpr double kSectorBytes = 32;
    const auto s = sectors();
    if (!instructions || !s || !(*s > 0) || !(requestBytes > 0))
        return std::nullopt;
    return *instructions / (*s * kSectorBytes / requestBytes);
}

std::optional<double> ncuRateToGbs(std::string_view unit)
{
    std::string_view base;
    if (unit.ends_with("byte/second"))
        base = unit.substr(0, unit.size() - 11);
    else if (unit.ends_with("byte/s"))
        base = unit.substr(0, unit.size() - 6);
    else
        return std::nullopt;
    if (base.empty())
        return 1e-9;
    if (base.size() == 2 && base[1] == 'i') {
        switch (base[0]) {
        case 'K':
            return 1024.0 / 1e9;
        case 'M':
            return 1024.0 * 1024 / 1e9;
        case 'G':
            return 1024.0 * 1024 * 1024 / 1e9;
        case 'T':
            return 1024.0 * 1024 * 1024 * 1024 / 1e9;
        default:
            return std::nullopt;
        }
    }
    if (base.size() != 1)
        return std::nullopt;
    switch (base[0]) {
    case 'K':
        return 1e-6;
    case 'M':
        return 1e-3;
    case 'G':
        return 1.0;
    case 'T':
        return 1e3;
    case 'P':
        return 1e6;
    default:
        return std::nullopt;
    }
}

NcuReport parseNcuCsv(std::string_view text, const std::string &source)
{
    if (text.size() > kCsvMaxBytes) {
        throw InputError(source + ": " + std::to_string(text.size()) + " bytes, over the "
                         + std::to_string(kCsvMaxBytes / (1024 * 1024)) + " MiB limit for ncu CSV files");
    }
    checkText(text, source, "ncu CSV");
    const CsvTable table = parseCsv(withoutProfilerLines(text), source, {',', '.', true});
    return NcuParser(table).parse();
}

NcuReport readNcuCsv(const std::string &path)
{
    return parseNcuCsv(readTextFile(path, kCsvMaxBytes, "ncu CSV files"), path);
}

void ncuOccupancyTrace(const NcuReport &report, std::vector<double> &warpsPerSm, std::vector<double> &gbs)
{
    warpsPerSm.clear();
    gbs.clear();
    for (const NcuKernel &k : report.kernels) {
        if (k.warps_per_sm && k.dram_gbs) {
            warpsPerSm.push_back(*k.warps_per_sm);
            gbs.push_back(*k.dram_gbs);
        }
    }
}

} // namespace crossroof::core
