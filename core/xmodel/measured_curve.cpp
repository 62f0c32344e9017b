// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/xmodel/measured_curve.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

namespace {

std::string where(const std::string &source, const CurvePoint &p)
{
    return p.line > 0 ? source + ":" + std::to_string(p.line) : source;
}

} // namespace

MeasuredCurve::MeasuredCurve(std::vector<CurvePoint> points, std::string source)
    : m_points(std::move(points))
    , m_source(std::move(source))
{
    if (m_points.size() < 3) {
        throw InputError(m_source + ": a measured curve needs at least 3 points (got "
                         + std::to_string(m_points.size()) + ")");
    }
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const CurvePoint &p = m_points[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
            throw InputError(where(m_source, p) + ": the point (" + formatExact(p.x) + ", " + formatExact(p.y)
                             + ") is not finite");
        if (p.x < 0)
            throw InputError(where(m_source, p) + ": warps must not be negative (got " + formatExact(p.x) + ")");
        if (p.y < 0)
            throw InputError(where(m_source, p) + ": throughput must not be negative (got " + formatExact(p.y)
                             + ")");
        if (i > 0 && p.x == m_points[i - 1].x)
            throw InputError(where(m_source, p) + ": warps " + formatExact(p.x) + " repeat the point before it: "
                             "a measured curve needs one throughput per number of warps");
        if (i > 0 && p.x < m_points[i - 1].x)
            throw InputError(where(m_source, p) + ": warps " + formatExact(p.x) + " come after "
                             + formatExact(m_points[i - 1].x) + ": the points must be in increasing order");
    }
    if (m_points.front().x > 0) {
        m_x.push_back(0);
        m_y.push_back(0);
    }
    for (const CurvePoint &p : m_points) {
        m_x.push_back(p.x);
        m_y.push_back(p.y);
    }
    // Fritsch-Butland (SciPy's pchip): secant slopes, tangents that are 0 at a turn and the weighted harmonic
    // mean of the two secants elsewhere, which keeps each piece monotone.
    const std::size_t n = m_x.size();
    std::vector<double> d(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i)
        d[i] = (m_y[i + 1] - m_y[i]) / (m_x[i + 1] - m_x[i]);
    m_slope.assign(n, 0);
    m_slope.front() = d.front();
    m_slope.back() = d.back();
    for (std::size_t i = 1; i + 1 < n; ++i) {
        if (d[i - 1] * d[i] <= 0)
            continue;
        const double h0 = m_x[i] - m_x[i - 1];
        const double h1 = m_x[i + 1] - m_x[i];
        const double w0 = 2 * h1 + h0;
        const double w1 = h1 + 2 * h0;
        m_slope[i] = (w0 + w1) / (w0 / d[i - 1] + w1 / d[i]);
    }
    // End tangents: no steeper than three times the secant, and of its sign (keeps the end pieces monotone).
    for (std::size_t end : {std::size_t(0), n - 1}) {
        const double s = end == 0 ? d.front() : d.back();
        if (m_slope[end] * s <= 0)
            m_slope[end] = 0;
        else if (std::abs(m_slope[end]) > 3 * std::abs(s))
            m_slope[end] = 3 * s;
    }
    for (std::size_t i = 1; i + 1 < n; ++i) {
        if ((d[i - 1] > 0 && d[i] < 0) || (d[i - 1] < 0 && d[i] > 0))
            m_turns.push_back(m_x[i]);
    }
}

double MeasuredCurve::value(double x) const
{
    if (x <= m_x.front())
        return m_y.front();
    if (x >= m_x.back())
        return m_y.back();
    const std::size_t i = std::size_t(std::upper_bound(m_x.begin(), m_x.end(), x) - m_x.begin()) - 1;
    const double h = m_x[i + 1] - m_x[i];
    const double t = (x - m_x[i]) / h;
    const double t2 = t * t;
    const double t3 = t2 * t;
    return (2 * t3 - 3 * t2 + 1) * m_y[i] + (t3 - 2 * t2 + t) * h * m_slope[i] + (-2 * t3 + 3 * t2) * m_y[i + 1]
           + (t3 - t2) * h * m_slope[i + 1];
}

} // namespace crossroof::core
