// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_clipping.h"

#include "common/label_placement.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace crossroof::widgets::figure {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Coordinates in which an axis is linear (log axes clip in log space).
struct AxisMap {
    bool log;
    double to(double v) const { return log ? std::log(v) : v; }
    double from(double v) const { return log ? std::exp(v) : v; }
};

/// Clips a polyline of data points to the axis ranges; pieces are separated by NaN points.
void clipPolyline(const std::vector<std::pair<double, double>> &points, const QCPAxis *keyAxis,
                  const QCPAxis *valueAxis, bool joined, std::vector<std::pair<double, double>> &out)
{
    const AxisMap km {keyAxis->scaleType() == QCPAxis::stLogarithmic};
    const AxisMap vm {valueAxis->scaleType() == QCPAxis::stLogarithmic};
    const double xlo = km.to(keyAxis->range().lower), xhi = km.to(keyAxis->range().upper);
    const double ylo = vm.to(valueAxis->range().lower), yhi = vm.to(valueAxis->range().upper);
    auto inside = [&](double x, double y) { return x >= xlo && x <= xhi && y >= ylo && y <= yhi; };
    auto push = [&](double x, double y) { out.emplace_back(km.from(x), vm.from(y)); };
    auto gap = [&] {
        if (!out.empty() && !std::isnan(out.back().second))
            out.emplace_back(out.back().first, kNaN);
    };
    if (!joined) {
        for (const auto &[k, v] : points) {
            if (std::isfinite(k) && std::isfinite(v) && inside(km.to(k), vm.to(v)))
                out.emplace_back(k, v);
        }
        return;
    }
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        double x0 = km.to(points[i].first), y0 = vm.to(points[i].second);
        double x1 = km.to(points[i + 1].first), y1 = vm.to(points[i + 1].second);
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) {
            gap();
            continue;
        }
        const bool startInside = inside(x0, y0);
        if (!clipSegment(x0, y0, x1, y1, xlo, xhi, ylo, yhi)) {
            gap();
            continue;
        }
        if (!startInside || out.empty() || std::isnan(out.back().second))
            push(x0, y0);
        push(x1, y1);
        if (!inside(km.to(points[i + 1].first), vm.to(points[i + 1].second)))
            gap();
    }
}

} // namespace

void clipToAxisRects(QCustomPlot *plot, std::vector<std::function<void()>> &restore)
{
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        if (auto *g = qobject_cast<QCPGraph *>(p)) {
            std::vector<std::pair<double, double>> in, out;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                in.emplace_back(it->key, it->value);
            // Step lines are not straight between points; their points stay, only those off the keys go.
            const bool joined = g->lineStyle() == QCPGraph::lsLine;
            clipPolyline(in, g->keyAxis(), g->valueAxis(), joined, out);
            if (g->lineStyle() != QCPGraph::lsLine && g->lineStyle() != QCPGraph::lsNone) {
                out.clear();
                const QCPRange keys = g->keyAxis()->range();
                for (const auto &pt : in) {
                    if (keys.contains(pt.first))
                        out.push_back({pt.first, std::clamp(pt.second, g->valueAxis()->range().lower,
                                                            g->valueAxis()->range().upper)});
                }
            }
            auto saved = g->data();
            auto clipped = QSharedPointer<QCPGraphDataContainer>::create();
            QVector<QCPGraphData> points;
            for (const auto &[k, v] : out)
                points.append(QCPGraphData(k, v));
            clipped->add(points, true);
            g->setData(clipped);
            restore.push_back([g, saved] { g->setData(saved); });
        } else if (auto *c = qobject_cast<QCPCurve *>(p)) {
            std::vector<std::pair<double, double>> in, out;
            for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
                in.emplace_back(it->key, it->value);
            clipPolyline(in, c->keyAxis(), c->valueAxis(), c->lineStyle() != QCPCurve::lsNone, out);
            auto saved = c->data();
            auto clipped = QSharedPointer<QCPCurveDataContainer>::create();
            QVector<QCPCurveData> points;
            double t = 0;
            for (const auto &[k, v] : out)
                points.append(QCPCurveData(t++, k, v));
            clipped->add(points, true);
            c->setData(clipped);
            restore.push_back([c, saved] { c->setData(saved); });
        }
    }
}

} // namespace crossroof::widgets::figure
