// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace crossroof::core {

/// One measured point of a curve, with the line of the file it came from (0 when it came from no file).
struct CurvePoint
{
    double x = 0;
    double y = 0;
    int line = 0;
};

/// A measured curve that stands in for one of the X-model's analytic curves (the paper's Section IV profiles
/// f(k) and reads throttling and bypassing off the graph): the supply f(k) in GB/s against warps in the memory
/// system, or the compute throughput g(x) in Gop/s against warps computing.
///
/// Between the points it is the monotone piecewise-cubic Hermite interpolant with Fritsch-Butland slopes (as
/// SciPy's pchip; MODEL.md 1.3): it rises where the data rise, falls where they fall, and has its peaks and valleys at measured points, never between them. The curve
/// starts at (0, 0) (no warp, no throughput) when the first point has x > 0. Beyond the last point the model
/// takes over (XModel joins its analytic curve there).
class MeasuredCurve
{
public:
    /// Throws InputError "SOURCE:LINE: ..." for fewer than 3 points, x not strictly increasing (a repeated or
    /// an unordered x), a negative x or y, or a value that is not finite.
    MeasuredCurve(std::vector<CurvePoint> points, std::string source);

    const std::string &source() const { return m_source; }
    const std::vector<CurvePoint> &points() const { return m_points; }
    /// The last measured x: the curve is measured on [0, last()].
    double last() const { return m_x.back(); }
    /// The interpolated value at X, clamped to [0, last()].
    double value(double x) const;
    /// The measured x at which the curve turns from rising to falling (a peak) or back (a valley), in order.
    const std::vector<double> &turns() const { return m_turns; }

private:
    std::vector<CurvePoint> m_points;
    std::string m_source;
    std::vector<double> m_x;     // with (0, 0) first when the data start above 0
    std::vector<double> m_y;
    std::vector<double> m_slope; // Fritsch-Butland tangents at m_x
    std::vector<double> m_turns;
};

} // namespace crossroof::core
