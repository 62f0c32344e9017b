// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/occupancy/compute_capability.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/quote.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

namespace crossroof::core {

namespace detail {
// Defined in the file that core/embed_files.cmake generates from core/occupancy/data/cc_limits.csv.
std::string_view ccLimitsCsv();
} // namespace detail

namespace {

using CC = ComputeCapability;

struct Column
{
    std::string_view name;
    int CC::*member;
};

// Every integer column of cc_limits.csv; "cc" and "smem_carveouts_kb" are read separately.
const std::array<Column, 13> kColumns{{
        {"max_warps_sm", &CC::max_warps_sm},
        {"max_threads_sm", &CC::max_threads_sm},
        {"max_blocks_sm", &CC::max_blocks_sm},
        {"regs_per_sm", &CC::regs_per_sm},
        {"reg_alloc_unit", &CC::reg_alloc_unit},
        {"max_regs_thread", &CC::max_regs_thread},
        {"sub_partitions", &CC::sub_partitions},
        {"smem_per_sm_bytes", &CC::smem_per_sm_bytes},
        {"smem_alloc_unit", &CC::smem_alloc_unit},
        {"reserved_smem_per_block", &CC::reserved_smem_per_block},
        {"max_smem_block_bytes", &CC::max_smem_block_bytes},
        {"fp32_lanes_sm", &CC::fp32_lanes_sm},
        {"fp64_lanes_sm", &CC::fp64_lanes_sm},
}};

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(sep, start);
        parts.push_back(
                text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

// The table is bundled data: a defect in it is a packaging error, not bad user input.
[[noreturn]] void fail(int line, const std::string &what)
{
    throw std::runtime_error("core/occupancy/data/cc_limits.csv line " + std::to_string(line) + ": " + what);
}

int toInt(std::string_view text, int line, std::string_view column)
{
    const std::optional<int> v = parseInteger<int>(text);
    if (!v || *v < 0)
        fail(line,
             "column '" + std::string(column) + "': '" + std::string(text) + "' is not a whole number >= 0");
    return *v;
}

std::vector<ComputeCapability> parseTable(std::string_view csv)
{
    std::vector<std::string_view> lines = split(csv, '\n');
    for (auto &l : lines) {
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    if (lines.empty())
        fail(1, "no header");
    const std::vector<std::string_view> header = split(lines.front(), ',');
    auto indexOf = [&](std::string_view name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end())
            fail(1, "no column '" + std::string(name) + "'");
        return std::size_t(it - header.begin());
    };
    const std::size_t ccIndex = indexOf("cc");
    const std::size_t carveIndex = indexOf("smem_carveouts_kb");
    std::array<std::size_t, kColumns.size()> indices{};
    for (std::size_t c = 0; c < kColumns.size(); ++c)
        indices[c] = indexOf(kColumns[c].name);

    std::vector<ComputeCapability> table;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const int line = int(i) + 1;
        const std::vector<std::string_view> cells = split(lines[i], ',');
        if (cells.size() != header.size())
            fail(line, std::to_string(cells.size()) + " cells, expected " + std::to_string(header.size()));
        ComputeCapability cc;
        cc.name = std::string(cells[ccIndex]);
        for (std::size_t c = 0; c < kColumns.size(); ++c)
            cc.*(kColumns[c].member) = toInt(cells[indices[c]], line, kColumns[c].name);
        for (std::string_view kb : split(cells[carveIndex], '|'))
            cc.smem_carveouts_kb.push_back(toInt(kb, line, "smem_carveouts_kb"));
        std::sort(cc.smem_carveouts_kb.begin(), cc.smem_carveouts_kb.end());

        // The rules of MODEL.md 2.1 divide by these and assume warps of kWarpSize threads.
        if (cc.max_warps_sm == 0 || cc.max_blocks_sm == 0 || cc.regs_per_sm == 0 || cc.reg_alloc_unit == 0
            || cc.max_regs_thread == 0 || cc.sub_partitions == 0 || cc.smem_alloc_unit == 0) {
            fail(line, "a per-SM limit is zero");
        }
        if (cc.max_threads_sm != cc.max_warps_sm * kWarpSize)
            fail(line, "max_threads_sm is not max_warps_sm * 32");
        if (cc.smem_carveouts_kb.back() * 1024 != cc.smem_per_sm_bytes)
            fail(line, "smem_per_sm_bytes is not the largest carveout");
        if (std::any_of(table.begin(), table.end(), [&](const CC &o) { return o.name == cc.name; }))
            fail(line, "compute capability " + cc.name + " is listed twice");
        table.push_back(std::move(cc));
    }
    return table;
}

const std::vector<ComputeCapability> &table()
{
    static const std::vector<ComputeCapability> rows = parseTable(detail::ccLimitsCsv());
    return rows;
}

} // namespace

std::vector<long long> ComputeCapability::smemConfigsBytes() const
{
    std::vector<long long> bytes;
    bytes.reserve(smem_carveouts_kb.size());
    for (int kb : smem_carveouts_kb)
        bytes.push_back(kb * 1024LL);
    return bytes;
}

bool ComputeCapability::isSmemConfig(long long bytes) const
{
    return std::any_of(smem_carveouts_kb.begin(), smem_carveouts_kb.end(),
                       [bytes](int kb) { return kb * 1024LL == bytes; });
}

std::span<const ComputeCapability> computeCapabilities()
{
    return table();
}

const ComputeCapability *findComputeCapability(std::string_view name)
{
    const auto &rows = table();
    const auto it = std::find_if(rows.begin(), rows.end(), [name](const CC &cc) { return cc.name == name; });
    return it == rows.end() ? nullptr : &*it;
}

const ComputeCapability &computeCapability(std::string_view name)
{
    if (const ComputeCapability *cc = findComputeCapability(name))
        return *cc;
    std::string known;
    for (const auto &cc : table())
        known += (known.empty() ? "" : ", ") + cc.name;
    throw InputError("unknown compute capability '" + quoteForMessage(name) + "' (known: " + known + ")");
}

} // namespace crossroof::core
