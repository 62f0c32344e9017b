// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/core_model.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

namespace {

constexpr std::array<std::string_view, kStatementKinds> kStatementNames{"ld", "st", "fp", "fma", "xp"};
constexpr std::array<std::string_view, kPipelineKinds> kPipelineNames{"fp", "load", "store", "int"};

[[noreturn]] void fail(const std::string &field, const std::string &what)
{
    throw InputError("core_model." + field + ": " + what);
}

void checkWhole(int value, int max, const std::string &field)
{
    if (value < 1 || value > max)
        fail(field, "must be a whole number from 1 to " + std::to_string(max) + " (got " + std::to_string(value)
                            + ")");
}

void checkLatency(double value, const std::string &field)
{
    if (!std::isfinite(value) || value < 1 || value > kMaxLatency)
        fail(field, "must be a latency from 1 to " + formatNumber(kMaxLatency) + " cycles (got "
                            + formatNumber(value) + ")");
}

} // namespace

std::string_view statementKindName(StatementKind kind)
{
    return kStatementNames[std::size_t(kind)];
}

std::string_view pipelineKindName(PipelineKind kind)
{
    return kPipelineNames[std::size_t(kind)];
}

PipelineKind pipelineOf(StatementKind kind)
{
    switch (kind) {
    case StatementKind::Load:
        return PipelineKind::Load;
    case StatementKind::Store:
        return PipelineKind::Store;
    case StatementKind::Xp:
        return PipelineKind::Int;
    case StatementKind::Fp:
    case StatementKind::Fma:
        break;
    }
    return PipelineKind::Fp;
}

double CoreModel::latencyOf(StatementKind kind) const
{
    return kind == StatementKind::Load ? memory.front().latency : latency[std::size_t(kind)];
}

void validate(const CoreModel &m)
{
    checkWhole(m.issue_width, kMaxIssueWidth, "issue_width");
    for (std::size_t k = 0; k < kPipelineKinds; ++k)
        checkWhole(m.pipelines[k], kMaxPipelines, "pipelines." + std::string(kPipelineNames[k]));
    for (StatementKind kind : kGivenLatencies)
        checkLatency(m.latency[std::size_t(kind)], "latency." + std::string(statementKindName(kind)));
    checkWhole(m.vector_lanes, kMaxVectorLanes, "vector_lanes");
    checkWhole(m.registers, kMaxRegisters, "registers");
    checkWhole(m.element_bytes, 64, "memory.element_bytes");
    checkWhole(m.line_bytes, 4096, "memory.line_bytes");
    if (m.memory.empty() || m.memory.size() > std::size_t(kMaxMemoryLevels))
        fail("memory.levels", "must list 1 to " + std::to_string(kMaxMemoryLevels)
                                      + " levels, the first cache (L1) first and memory last");
    for (std::size_t i = 0; i < m.memory.size(); ++i) {
        const MemoryLevel &level = m.memory[i];
        const std::string at = "memory.levels[" + std::to_string(i) + "]";
        if (level.name.empty())
            fail(at + ".name", "must not be empty");
        checkLatency(level.latency, at + ".latency");
        const bool last = i + 1 == m.memory.size();
        if (last && level.capacity_kib != 0)
            fail(at + ".capacity_kib", "must be 0 on the last level (memory holds everything)");
        if (!last && (!std::isfinite(level.capacity_kib) || level.capacity_kib <= 0 || level.capacity_kib > 1e9))
            fail(at + ".capacity_kib", "must be a capacity above 0 KiB on every level but the last (got "
                                               + formatNumber(level.capacity_kib) + ")");
        if (i > 0 && level.latency < m.memory[i - 1].latency)
            fail(at + ".latency", "must not be below the level before it (levels go from L1 to memory)");
        if (i > 0 && !last && level.capacity_kib <= m.memory[i - 1].capacity_kib)
            fail(at + ".capacity_kib", "must be larger than the level before it");
    }
}

} // namespace crossroof::core
