// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/ncu_csv.h"

#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/traces/ncu_lexical.h"
#include "core/traces/ncu_metrics.h"
#include "core/traces/nvprof_csv.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace crossroof::core {

using namespace detail::ncu;

namespace {

/// One table of an ncu file: the lines under one header (and under every repetition of it).
class NcuParser
{
public:
    NcuParser(const CsvTable &table, int headerLine)
        : m_table(table)
        , m_run(headerLine)
    {
    }

    /// Reads the kernels into KERNELS (with the matching PARTS); returns the table's form.
    NcuForm parse(std::vector<NcuKernel> &kernels, std::vector<Parts> &parts)
    {
        m_kernels = &kernels;
        m_parts = &parts;
        m_name = m_table.findColumn("Kernel Name");
        m_id = m_table.findColumn("ID");
        m_block = m_table.findColumn("Block Size");
        m_grid = m_table.findColumn("Grid Size");
        m_device = m_table.findColumn("Device");
        m_cc = m_table.findColumn("CC");
        if (!m_name) {
            throw InputError(m_table.source() + ":" + std::to_string(m_table.headerLine())
                             + ": no column 'Kernel Name'; not ncu --csv output (columns: "
                             + briefList(m_table.header()) + ")");
        }
        if (const auto metricName = m_table.findColumn("Metric Name"))
            return parseLong(*metricName);
        parseWide();
        return NcuForm::Raw;
    }

private:
    std::string columnList() const
    {
        return briefList(m_table.header());
    }

    std::string_view text(std::size_t row, std::optional<std::size_t> column) const
    {
        return column ? trimBlanks(m_table.cell(row, *column)) : std::string_view();
    }

    /// A header line again (outputs of several ncu runs put together): launch IDs start again.
    bool repeatedHeader(std::size_t row)
    {
        if (text(row, m_name) != "Kernel Name")
            return false;
        m_run = m_table.line(row);
        return true;
    }

    std::size_t kernelFor(std::size_t row)
    {
        const std::string id(text(row, m_id ? m_id : m_name));
        auto [it, added] = m_index.try_emplace(std::to_string(m_run) + ":" + id, m_kernels->size());
        if (added) {
            NcuKernel k;
            k.id = id;
            k.name = std::string(text(row, m_name));
            k.short_name = shortKernelName(k.name);
            k.block_size = std::string(text(row, m_block));
            k.grid_size = std::string(text(row, m_grid));
            k.device = std::string(text(row, m_device));
            k.gpu.cc = std::string(text(row, m_cc));
            k.line = m_table.line(row);
            m_kernels->push_back(std::move(k));
            m_parts->emplace_back();
        }
        return it->second;
    }

    /// The value of an accepted metric (VALUEROW/VALUECOL) with its unit (UNITCELL, if any); a bad value or
    /// unit becomes the kernel's problem.
    void apply(std::size_t kernel, Metric metric, std::string_view metricName, std::size_t valueRow,
               std::size_t valueCol, std::optional<std::pair<std::size_t, std::size_t>> unitCell)
    {
        NcuKernel &k = (*m_kernels)[kernel];
        try {
            applyValue(k, (*m_parts)[kernel], metric, metricName, valueRow, valueCol, unitCell);
        } catch (const InputError &e) {
            if (k.problem.empty())
                k.problem = e.what();
        }
    }

    void applyValue(NcuKernel &k, Parts &d, Metric metric, std::string_view metricName, std::size_t valueRow,
                    std::size_t valueCol, std::optional<std::pair<std::size_t, std::size_t>> unitCell)
    {
        const std::string_view cellText = trimBlanks(m_table.cell(valueRow, valueCol));
        if (notCollected(cellText))
            return;
        if (metric == Metric::DisplayName) {
            if (k.gpu.name.empty())
                k.gpu.name = std::string(cellText);
            return;
        }
        const std::string what
                = m_table.where(valueRow, valueCol) + ": metric '" + std::string(metricName) + "'";
        const auto value = parseTableNumber(cellText, '.', true);
        if (!value)
            throw InputError(what + ": '" + shown(cellText) + "' is not a number");
        if (!std::isfinite(*value))
            throw InputError(what + ": '" + shown(cellText) + "' is not a finite number");
        if (*value < 0)
            throw InputError(what + ": must not be negative (got " + shown(cellText) + ")");
        const std::string_view unit
                = unitCell ? trimBlanks(m_table.cell(unitCell->first, unitCell->second)) : std::string_view();
        const auto badUnit = [&](const std::string &expected) {
            const std::string at = unitCell ? m_table.where(unitCell->first, unitCell->second) : what;
            throw InputError(at + ": unit '" + shown(unit) + "' of metric '" + std::string(metricName)
                             + "' is not " + expected);
        };
        const auto set = [](std::optional<double> &slot, double v) {
            if (!slot)
                slot = v; // the first value of a metric wins
        };
        const auto scaled = [&](std::optional<double> &slot, std::optional<double> scale,
                                const std::string &expected) {
            if (!scale)
                badUnit(expected);
            set(slot, *value * *scale);
        };
        const auto count = [&](std::optional<double> &slot, std::string_view base) {
            scaled(slot, countScale(unit, base), "a count of " + std::string(base) + "s");
        };
        const auto rate = [&](std::optional<double> &slot) {
            scaled(slot, ncuRateToGbs(unit), "a byte rate (e.g. Gbyte/second)");
        };
        const auto perBlock = [&](std::optional<double> &slot) {
            const std::string_view bytes = unit.ends_with("/block") ? unit.substr(0, unit.size() - 6) : unit;
            scaled(slot, byteScale(bytes), "bytes per block (e.g. Kbyte/block)");
        };
        switch (metric) {
        case Metric::Warps:
        case Metric::TheoreticalWarps:
        case Metric::MaxWarps:
            if (!unit.empty() && unit != "warp" && unit != "warp/cycle")
                badUnit("warp");
            set(metric == Metric::Warps              ? k.warps_per_sm
                : metric == Metric::TheoreticalWarps ? k.theoretical_warps_per_sm
                                                     : k.gpu.max_warps_per_sm,
                *value);
            break;
        case Metric::DramRate:
            rate(d.dram_total);
            break;
        case Metric::DramReadRate:
            rate(d.dram_read);
            break;
        case Metric::DramWriteRate:
            rate(d.dram_write);
            break;
        case Metric::DramThroughput:
            if (unit == "%")
                set(k.dram_percent, *value);
            else
                rate(d.dram_display);
            break;
        case Metric::MemoryThroughput:
            if (unit != "%")
                rate(d.dram_memory);
            break;
        case Metric::DramPercent:
            if (!unit.empty() && unit != "%")
                badUnit("%");
            set(k.dram_percent, *value);
            break;
        case Metric::Duration:
            scaled(k.duration_ns, timeScale(unit), "a time (ns, us, ms, s)");
            break;
        case Metric::SmFrequency:
            scaled(k.sm_frequency_hz, frequencyScale(unit), "a frequency (hz, Mhz, Ghz, cycle/nsecond)");
            break;
        case Metric::DramFrequency:
            scaled(k.dram_frequency_hz, frequencyScale(unit), "a frequency (hz, Mhz, Ghz, cycle/nsecond)");
            break;
        case Metric::Registers:
            if (!unit.empty() && unit != "register/thread")
                badUnit("register/thread");
            set(k.registers_per_thread, *value);
            break;
        case Metric::SharedTotal:
            perBlock(d.shared_total);
            break;
        case Metric::SharedDriver:
            perBlock(d.shared_driver);
            break;
        case Metric::SharedDynamic:
            perBlock(d.shared_dynamic);
            break;
        case Metric::SharedStatic:
            perBlock(d.shared_static);
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
        case Metric::L2Traffic:
            scaled(d.l2_bytes, byteScale(unit), "bytes (byte, Kbyte, Mbyte ...)");
            break;
        case Metric::L2Sectors:
            count(d.l2_sectors, "sector");
            break;
        case Metric::FmaInstructions:
            count(k.fma_instructions, "inst");
            break;
        case Metric::TensorCycles:
            count(metricName.find("gmma") != std::string_view::npos ? d.gmma_cycles : d.hmma_cycles, "cycle");
            break;
        case Metric::L1HitRate:
        case Metric::L2HitRate: {
            if (unit != "%")
                badUnit("%");
            if (*value > 100 + kHitRateSlack) { // an optional metric: left out with a note, the kernel kept
                if (d.hit_rate_dropped.empty())
                    d.hit_rate_dropped = what + ": a hit rate of " + shown(cellText) + " % is over 100 %; left out";
                break;
            }
            if (*value > 100) // ncu's rounding: taken as 100 %, noted
                d.hit_rate_over = std::max(d.hit_rate_over.value_or(0), *value);
            set(metric == Metric::L1HitRate ? k.l1_hit_rate : k.l2_hit_rate, std::min(*value, 100.0) / 100);
            break;
        }
        case Metric::DramBytes:
            scaled(d.dram_bytes, byteScale(unit), "bytes");
            break;
        case Metric::DramReadBytes:
            scaled(d.dram_read_bytes, byteScale(unit), "bytes");
            break;
        case Metric::DramWriteBytes:
            scaled(d.dram_write_bytes, byteScale(unit), "bytes");
            break;
        case Metric::SmCycles:
            count(d.sm_cycles, "cycle");
            break;
        case Metric::SmCount:
            count(k.gpu.sm_count, "SM");
            break;
        case Metric::ClockKhz:
            count(k.gpu.clock_khz, "khz");
            break;
        case Metric::MemoryClockKhz:
            count(k.gpu.memory_clock_khz, "khz");
            break;
        case Metric::BusWidth:
            count(k.gpu.bus_width_bits, "bit");
            break;
        case Metric::L2Bytes:
            scaled(k.gpu.l2_bytes, byteScale(unit), "bytes");
            break;
        case Metric::CcMajor:
            count(d.cc_major, "");
            break;
        case Metric::CcMinor:
            count(d.cc_minor, "");
            break;
        case Metric::DisplayName:
            break;
        }
    }

    NcuForm parseLong(std::size_t metricName)
    {
        NcuForm form = NcuForm::Details;
        std::optional<std::size_t> value = m_table.findColumn("Metric Value");
        if (!value) {
            value = m_table.findColumn("Average"); // --print-summary per-kernel
            form = NcuForm::Summary;
        }
        if (!value) {
            throw InputError(m_table.source()
                             + ": no column 'Metric Value' (or 'Average') next to 'Metric Name'");
        }
        const auto unit = m_table.findColumn("Metric Unit");
        for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
            if (repeatedHeader(r))
                continue;
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
        return form;
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
        // The raw page puts the units in the row under each header, which has no ID and no kernel name.
        std::optional<std::size_t> unitsRow;
        const auto isUnitsRow = [&](std::size_t r) {
            return m_id && text(r, m_id).empty() && text(r, m_name).empty();
        };
        // A kernel per row, at most: room for them all at once (a million-kernel export grew these vectors
        // by copying, and held up to twice their size).
        m_kernels->reserve(m_kernels->size() + m_table.rowCount());
        m_parts->reserve(m_parts->size() + m_table.rowCount());
        m_index.reserve(m_index.size() + m_table.rowCount());
        for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
            if (repeatedHeader(r)) {
                unitsRow.reset();
                continue;
            }
            if (isUnitsRow(r)) {
                unitsRow = r;
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
    std::optional<std::size_t> m_name, m_id, m_block, m_grid, m_device, m_cc;
    std::vector<NcuKernel> *m_kernels = nullptr;
    std::vector<Parts> *m_parts = nullptr;
    std::unordered_map<std::string, std::size_t> m_index; ///< "run:ID" -> kernel
    int m_run = 0;                                        ///< line of the header the rows are under
};

} // namespace

NcuReport parseNcuCsv(std::string_view text, const std::string &source)
{
    if (text.size() > kCsvMaxBytes) {
        throw InputError(source + ": " + std::to_string(text.size()) + " bytes, over the "
                         + std::to_string(kCsvMaxBytes / (1024 * 1024)) + " MiB limit for ncu CSV files");
    }
    if (detail::looksLikeNvprof(text.substr(0, 64 * 1024)))
        return detail::parseNvprof(text, source);
    checkText(text, source, "ncu CSV");
    const Tables tables = splitTables(text, source);
    std::vector<NcuKernel> kernels;
    std::vector<Parts> parts;
    NcuReport report;
    report.source = source;
    try {
        for (std::size_t t = 0; t < tables.texts.size(); ++t) {
            const CsvTable table = parseCsv(tables.texts[t], source, {',', '.', true});
            const NcuForm form = NcuParser(table, tables.header_lines[t]).parse(kernels, parts);
            if (t == 0)
                report.form = form;
        }
    } catch (const InputError &) {
        if (!tables.truncated.empty() && kernels.empty())
            throw InputError(tables.truncated);
        throw;
    }
    if (kernels.empty())
        throw InputError(tables.truncated.empty() ? source + ": no kernels" : tables.truncated);
    report.long_form = report.form != NcuForm::Raw;

    // The parts a kernel's metrics came in (several DRAM and shared-memory forms) give its values.
    NcuDerived derived;
    for (std::size_t i = 0; i < kernels.size(); ++i)
        finishKernel(kernels[i], parts[i], derived);
    derived.addWarnings(report.warnings);
    // In the order of their lines. One table (the raw page, one run) is in that order already and is taken as it
    // is: moving a million kernels into a second vector held both at once (650 MB more).
    const auto byLine = [](const NcuKernel &a, const NcuKernel &b) { return a.line < b.line; };
    if (std::is_sorted(kernels.begin(), kernels.end(), byLine)) {
        report.kernels = std::move(kernels);
    } else {
        std::vector<std::size_t> order(kernels.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return byLine(kernels[a], kernels[b]); });
        report.kernels.reserve(kernels.size());
        for (const std::size_t i : order)
            report.kernels.push_back(std::move(kernels[i]));
    }
    if (std::all_of(report.kernels.begin(), report.kernels.end(),
                    [](const NcuKernel &k) { return !k.problem.empty(); }))
        throw InputError(report.kernels.front().problem);

    NcuDevice &device = report.device;
    device = report.kernels.front().gpu;
    bool mixed = false;
    for (const NcuKernel &k : report.kernels) {
        const NcuDevice &g = k.gpu;
        mixed = mixed || (g.sm_count && device.sm_count && *g.sm_count != *device.sm_count)
                || (!g.cc.empty() && !device.cc.empty() && g.cc != device.cc);
        if (device.name.empty())
            device.name = g.name;
        if (device.cc.empty())
            device.cc = g.cc;
        for (auto field : {&NcuDevice::sm_count, &NcuDevice::max_warps_per_sm, &NcuDevice::clock_khz,
                           &NcuDevice::memory_clock_khz, &NcuDevice::bus_width_bits, &NcuDevice::l2_bytes}) {
            if (!(device.*field))
                device.*field = g.*field;
        }
        if (!k.problem.empty())
            report.warnings.push_back("kernel " + k.id + " (" + k.short_name + "): " + k.problem);
    }
    if (mixed) {
        report.warnings.push_back(source + ": kernels ran on more than one kind of device; the first ("
                                  + device.describe() + ") is taken for the file");
    }
    if (!tables.truncated.empty()) {
        report.warnings.push_back(source + ":" + std::to_string(tables.truncated_line)
                                  + ": the file ends inside a quoted field (a truncated export?); the rows "
                                    "from this line on are ignored");
    }
    return report;
}

std::string ncuReportMessage(const std::string &path)
{
    std::string csv = path.substr(0, path.size() - std::string_view(".ncu-rep").size()) + ".csv";
    return path + ": an Nsight Compute report is binary and needs NVIDIA's libraries to read; export it as CSV "
                  "with\n  ncu --import \"" + path + "\" --csv --page raw > \"" + csv
           + "\"\n(or --page details for the sections' display names) and open that file";
}

NcuReport readNcuCsv(const std::string &path)
{
    if (path.size() >= 8 && path.ends_with(".ncu-rep"))
        throw InputError(ncuReportMessage(path));
    return parseNcuCsv(readTextFile(path, kCsvMaxBytes, "ncu CSV files"), path);
}

} // namespace crossroof::core
