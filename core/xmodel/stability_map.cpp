// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/stability_map.h"

#include "core/xmodel/equilibrium_scan.h"
#include "core/support/error.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace crossroof::core {

namespace {

std::string axisName(const MapAxis &axis)
{
    return "axis '" + axis.key + "'";
}

double XModelParams::*memberOf(const MapAxis &axis)
{
    const ParameterInfo *info = findParameter(axis.key);
    return info ? info->member : nullptr;
}

} // namespace

void checkAxis(const MapAxis &axis)
{
    const ParameterInfo *info = findParameter(axis.key);
    if (!info) {
        throw InputError(axisName(axis)
                         + ": not a numeric parameter (n, Z, E, R, L, M, S_s, L_s, h, alpha, beta, "
                           "sm_count, clock_ghz, warp_size, max_warps, request_bytes)");
    }
    if (auto problem = checkValue(*info, axis.min))
        throw InputError(axisName(axis) + ": min " + *problem);
    if (auto problem = checkValue(*info, axis.max))
        throw InputError(axisName(axis) + ": max " + *problem);
    if (axis.min > axis.max)
        throw InputError(axisName(axis) + ": min must not be above max");
    if (axis.log && axis.min <= 0)
        throw InputError(axisName(axis) + ": a log axis needs min > 0");
    if (axis.count < 1 || axis.count > kMaxMapAxisCount) {
        throw InputError(axisName(axis) + ": count must be between 1 and " + std::to_string(kMaxMapAxisCount)
                         + " (got " + std::to_string(axis.count) + ")");
    }
    if (axis.count == 1 && axis.min != axis.max)
        throw InputError(axisName(axis) + ": one sample needs min = max");
}

std::vector<double> axisValues(const MapAxis &axis)
{
    checkAxis(axis);
    const bool integer = findParameter(axis.key)->integer;
    std::vector<double> values(std::size_t(axis.count));
    for (int i = 0; i < axis.count; ++i) {
        double v = axis.min;
        if (i == axis.count - 1) {
            v = axis.max;
        } else if (i > 0) {
            const double t = double(i) / (axis.count - 1);
            v = axis.log ? axis.min * std::pow(axis.max / axis.min, t) : axis.min + (axis.max - axis.min) * t;
        }
        values[std::size_t(i)] = integer ? std::round(v) : v;
    }
    return values;
}

std::size_t StabilityMap::shownIndex(std::size_t i, std::size_t j) const
{
    const std::size_t s = completed_stride > 0 ? std::size_t(completed_stride) : 1;
    return index(i - i % s, j - j % s);
}

std::vector<std::uint8_t> regionEdges(const StabilityMap &map)
{
    const std::size_t nx = map.x_values.size();
    const std::size_t ny = map.y_values.size();
    std::vector<std::uint8_t> edges(nx * ny, 0);
    for (std::size_t j = 0; j < ny; ++j) {
        for (std::size_t i = 0; i < nx; ++i) {
            const int c = map.stable_count[map.index(i, j)];
            if (c < 0)
                continue;
            auto differs = [&](std::size_t ii, std::size_t jj) {
                const int other = map.stable_count[map.index(ii, jj)];
                return other >= 0 && other != c;
            };
            std::uint8_t e = 0;
            if (i + 1 < nx && differs(i + 1, j))
                e |= kEdgeRight;
            if (j + 1 < ny && differs(i, j + 1))
                e |= kEdgeUp;
            edges[map.index(i, j)] = e;
        }
    }
    return edges;
}

StabilityMapper::StabilityMapper(const XModelParams &base, const MapAxis &x, const MapAxis &y)
    : m_base(base)
{
    checkAxis(x);
    checkAxis(y);
    if (x.key == y.key)
        throw InputError("axes: x and y need two different parameters (both are '" + x.key + "')");
    validate(base);
    m_xMember = memberOf(x);
    m_yMember = memberOf(y);
    m_map.x = x;
    m_map.y = y;
    m_map.x_values = axisValues(x);
    m_map.y_values = axisValues(y);
    const std::size_t cells = m_map.x_values.size() * m_map.y_values.size();
    m_map.stable_count.assign(cells, -1);
    m_map.operating_gbs.assign(cells, 0.0);
}

bool StabilityMapper::computeRow(std::size_t j, std::size_t stride, const std::stop_token &stop)
{
    XModelParams p = m_base;
    p.*m_yMember = m_map.y_values[j];
    // f depends on machine and cache keys only: along a row over n, Z, E or M one shape serves every cell.
    std::optional<SupplyShape> rowShape;
    for (std::size_t i = 0; i < m_map.x_values.size(); i += stride) {
        const std::size_t cell = m_map.index(i, j);
        if (m_map.stable_count[cell] >= 0)
            continue;
        if (stop.stop_requested())
            return false;
        p.*m_xMember = m_map.x_values[i];
        const bool column = i < m_columnShapes.size() && m_columnShapes[i];
        const SupplyShape *shape = column ? &*m_columnShapes[i] : nullptr;
        if (!shape) {
            if (!rowShape || !rowShape->sameSupply(p))
                rowShape.emplace(p);
            shape = &*rowShape;
        }
        const XModel model(p);
        const EquilibriumScan scan(model, *shape);
        m_map.operating_gbs[cell] = scan.operatingGbs();
        m_map.stable_count[cell] = scan.stableCount();
    }
    return true;
}

bool StabilityMapper::compute(int stride, int threads, std::stop_token stop)
{
    if (stride < 1)
        throw InputError("stability map: stride must be at least 1 (got " + std::to_string(stride) + ")");
    const std::size_t s = std::size_t(stride);
    if (SupplyShape::dependsOn(m_map.x.key) && !SupplyShape::dependsOn(m_map.y.key)) {
        m_columnShapes.resize(m_map.x_values.size());
        for (std::size_t i = 0; i < m_map.x_values.size(); i += s) {
            if (m_columnShapes[i])
                continue;
            if (stop.stop_requested())
                return false;
            XModelParams p = m_base;
            p.*m_xMember = m_map.x_values[i];
            m_columnShapes[i].emplace(p);
        }
    }
    std::vector<std::size_t> rows;
    for (std::size_t j = 0; j < m_map.y_values.size(); j += s)
        rows.push_back(j);

    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        try {
            while (!stop.stop_requested() && !failed.load()) {
                const std::size_t r = next.fetch_add(1);
                if (r >= rows.size())
                    return;
                if (computeRow(rows[r], s, stop))
                    done.fetch_add(1);
            }
        } catch (...) {
            const std::lock_guard lock(errorMutex);
            if (!error)
                error = std::current_exception();
            failed = true;
        }
    };
    const int workers = std::clamp(threads, 1, 64);
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(workers - 1));
    for (int w = 1; w < workers; ++w)
        pool.emplace_back(work);
    work();
    for (auto &t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
    if (done.load() < rows.size())
        return false;
    m_map.completed_stride = m_map.completed_stride == 0 ? stride : std::min(m_map.completed_stride, stride);
    return true;
}

StabilityMap computeStabilityMap(const XModelParams &base, const MapAxis &x, const MapAxis &y, int threads)
{
    StabilityMapper mapper(base, x, y);
    mapper.compute(1, threads);
    return mapper.map();
}

} // namespace crossroof::core
