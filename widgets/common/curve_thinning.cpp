// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/curve_thinning.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

/// A local maximum or minimum of VALUES at I (a plateau's first and last samples count), within one piece.
bool isExtreme(const QVector<double> &values, qsizetype i)
{
    if (i == 0 || i + 1 >= values.size())
        return false;
    const double before = values[i - 1], here = values[i], after = values[i + 1];
    if (!std::isfinite(before) || !std::isfinite(after))
        return false;
    return (here > before && here >= after) || (here < before && here <= after) || (here >= before && here > after)
           || (here <= before && here < after);
}

} // namespace

DrawnCurve thinCurve(const QVector<double> &keys, const QVector<double> &values, double xScale, double yScale,
                     double tolerance, const std::vector<bool> &keep)
{
    DrawnCurve out;
    const qsizetype n = std::min(keys.size(), values.size());
    if (!(xScale > 0) || !(yScale > 0) || !(tolerance > 0) || !std::isfinite(xScale) || !std::isfinite(yScale)) {
        out.keys = keys.mid(0, n);
        out.values = values.mid(0, n);
        return out;
    }
    auto push = [&](qsizetype i) {
        out.keys.push_back(keys[i]);
        out.values.push_back(values[i]);
    };
    auto mustKeep = [&](qsizetype i) { return (std::size_t(i) < keep.size() && keep[std::size_t(i)]) || isExtreme(values, i); };
    constexpr double kInf = std::numeric_limits<double>::infinity();
    qsizetype i = 0;
    while (i < n) {
        if (!std::isfinite(values[i])) {
            if (!out.values.isEmpty() && std::isfinite(out.values.back()))
                push(i); // one break between pieces
            ++i;
            continue;
        }
        // From the anchor A, the slopes (in pixels) a segment may take and still pass within the tolerance of
        // every sample it skips form a wedge that narrows with each sample; the segment ends at the last sample
        // inside the wedge.
        push(i);
        const qsizetype a = i;
        double lo = -kInf, hi = kInf;
        qsizetype last = -1;
        for (qsizetype j = a + 1; j < n && std::isfinite(values[j]); ++j) {
            const double dx = (keys[j] - keys[a]) * xScale;
            if (!(dx > 0))
                break;
            const double dy = (values[j] - values[a]) * yScale;
            const double slope = dy / dx;
            if (slope < lo || slope > hi)
                break;
            lo = std::max(lo, (dy - tolerance) / dx);
            hi = std::min(hi, (dy + tolerance) / dx);
            last = j;
            if (mustKeep(j))
                break;
        }
        if (last < 0) {
            ++i;
        } else if (last + 1 >= n || !std::isfinite(values[last + 1])) {
            push(last); // the piece's last sample
            i = last + 1;
        } else {
            i = last; // the next anchor
        }
    }
    return out;
}

} // namespace crossroof::widgets
