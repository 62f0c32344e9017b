// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/projection.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace crossroof::core {

namespace {

bool isForall(const Skeleton &s)
{
    return !s.loops.empty() && s.loops.back().parallel;
}

/// Bytes the loop's loads and stores touch in one pass: each array once per iteration.
double streamBytes(const Skeleton &s, const CoreModel &m)
{
    std::set<std::string, std::less<>> arrays;
    for (const SkeletonStatement &st : s.body) {
        if (st.kind == StatementKind::Load)
            arrays.insert(st.target);
        else if (st.kind == StatementKind::Store)
            arrays.insert(st.sources.front());
    }
    const double trips = s.loops.empty() ? 1.0 : double(s.loops.back().trips());
    return double(arrays.size()) * trips * m.element_bytes;
}

std::string percent(double ratio)
{
    return formatNumber(std::round(ratio * 1000) / 10) + "%";
}

std::string reasoningFor(const std::vector<UnrollPoint> &points, int best, const CoreModel &m)
{
    const UnrollPoint &one = points.front();
    const UnrollPoint &b = points[std::size_t(best - 1)];
    const UnrollPoint &least = *std::min_element(points.begin(), points.end(), [](const auto &x, const auto &y) {
        return x.cost_per_iteration < y.cost_per_iteration;
    });
    std::string text = "Unroll " + std::to_string(best) + ": " + formatNumber(b.cost_per_iteration)
                       + " cycles per iteration with spills, ";
    if (least.factor == best)
        text += "the least of any factor";
    else
        text += "within 5% of the least (" + formatNumber(least.cost_per_iteration) + " at unroll "
                + std::to_string(least.factor) + ", " + percent(b.cost_per_iteration / least.cost_per_iteration - 1)
                + " fewer), the smallest factor that close";
    text += "; " + std::to_string(b.registers) + " values live at the worst cycle for " + std::to_string(m.registers)
            + " registers";
    if (b.spills)
        text += " (spilling " + std::to_string(b.registers - m.registers) + " adds " + formatNumber(b.spill_cycles)
                + " cycles to the body of " + formatNumber(b.body_cycles) + ")";
    text += ". Stalls: " + std::to_string(one.stall_cycles) + " in the body as written, "
            + std::to_string(b.stall_cycles) + " at unroll " + std::to_string(best) + ".";
    if (best < int(points.size())) {
        const UnrollPoint &next = points[std::size_t(best)];
        text += " Unroll " + std::to_string(next.factor) + " would take " + formatNumber(next.cost_per_iteration)
                + " cycles per iteration with spills";
        text += next.spills ? " (" + std::to_string(next.registers) + " values live): " : ": ";
        text += next.cost_per_iteration < b.cost_per_iteration ? "less than 5% faster." : "no faster.";
    }
    return text;
}

} // namespace

double spillCycles(int registers, const CoreModel &model)
{
    const double excess = std::max(0, registers - model.registers);
    return std::max({excess / model.pipelines[std::size_t(PipelineKind::Store)],
                     excess / model.pipelines[std::size_t(PipelineKind::Load)],
                     2 * excess / model.issue_width});
}

const UnrollPoint &SkeletonProjection::point(int factor) const
{
    if (factor < 1 || factor > int(unroll.size()))
        throw InputError("the unroll factor must be from 1 to " + std::to_string(unroll.size()) + " (got "
                         + std::to_string(factor) + ")");
    return unroll[std::size_t(factor - 1)];
}

SkeletonProjection projectSkeleton(const Skeleton &skeleton, const CoreModel &model)
{
    validate(model);
    SkeletonProjection p;
    p.graph = buildDependencyGraph(skeleton.body, model, 1);
    p.critical = criticalPath(p.graph);
    p.schedule = scheduleGraph(p.graph, model);
    const double lanes = isForall(skeleton) ? model.vector_lanes : 1;
    const double trips = skeleton.loops.empty() ? 1.0 : double(skeleton.loops.back().trips());
    p.inner_trips = trips / lanes;
    p.passes = skeleton.outerIterations();

    // The stride-1 memory model: cold streams once, then each pass re-reads them from the level holding them.
    const double footprint = streamBytes(skeleton, model);
    const MemoryLevel *holder = &model.memory.back();
    for (const MemoryLevel &level : model.memory) {
        if (level.capacity_kib > 0 && footprint <= level.capacity_kib * 1024) {
            holder = &level;
            break;
        }
    }
    p.stream_level = holder->name;
    if (footprint > 0)
        p.first_touch_cycles = model.memory.back().latency
                               + (p.passes - 1) * (holder->latency - model.memory.front().latency);

    for (int u = 1; u <= kMaxUnroll; ++u) {
        const Schedule s = u == 1 ? p.schedule : scheduleCopies(p.graph, u, model);
        UnrollPoint point;
        point.factor = u;
        point.body_cycles = s.makespan;
        point.cycles_per_iteration = s.makespan / (u * lanes);
        point.loop_cycles = p.passes * p.inner_trips / u * s.makespan;
        point.total_cycles = point.loop_cycles + p.first_touch_cycles;
        point.stall_cycles = s.stall_cycles;
        point.registers = s.registers;
        point.spills = s.registers > model.registers;
        point.ilp = s.ilp;
        point.spill_cycles = spillCycles(s.registers, model);
        point.cost_per_iteration = (s.makespan + point.spill_cycles) / (u * lanes);
        p.unroll.push_back(point);
    }
    double least = p.unroll.front().cost_per_iteration;
    for (const UnrollPoint &q : p.unroll)
        least = std::min(least, q.cost_per_iteration);
    p.best_unroll = std::find_if(p.unroll.begin(), p.unroll.end(), [&](const UnrollPoint &q) {
                        return q.cost_per_iteration <= (1 + kUnrollTolerance) * least;
                    })->factor;
    p.reasoning = reasoningFor(p.unroll, p.best_unroll, model);
    return p;
}

SkeletonWorkload deriveWorkload(const SkeletonProjection &projection, const Skeleton &skeleton,
                                const CoreModel &model, int factor)
{
    SkeletonWorkload w;
    w.factor = factor;
    w.E = projection.point(factor).ilp;
    const auto memory = std::count_if(skeleton.body.begin(), skeleton.body.end(), [](const SkeletonStatement &s) {
        return s.kind == StatementKind::Load || s.kind == StatementKind::Store;
    });
    if (memory > 0) {
        const double lanes = isForall(skeleton) ? model.vector_lanes : 1;
        const double requests = double(memory) * lanes * model.element_bytes / model.line_bytes;
        w.Z = double(skeleton.body.size()) / requests;
    }
    return w;
}

double projectionErrorPercent(double projected, double measured)
{
    if (!(measured >= kMinMeasuredCycles && measured <= kMaxMeasuredCycles)) {
        throw InputError("measured cycles must be a number from " + formatNumber(kMinMeasuredCycles) + " to "
                         + formatNumber(kMaxMeasuredCycles) + " (got " + formatNumber(measured) + ")");
    }
    return (projected - measured) / measured * 100;
}

std::vector<MeasuredComparison> compareWithMeasured(const SkeletonProjection &projection,
                                                    const std::vector<std::pair<int, double>> &measured)
{
    std::vector<MeasuredComparison> out;
    for (const auto &[factor, cycles] : measured) {
        const double projected = projection.point(factor).total_cycles;
        out.push_back({factor, projected, cycles, projectionErrorPercent(projected, cycles)});
    }
    return out;
}

} // namespace crossroof::core
