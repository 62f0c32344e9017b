// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/curve_thinning.h"

#include <qcustomplot.h>

#include <QDynamicPropertyChangeEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

constexpr double kTiny = std::numeric_limits<double>::min();

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

std::vector<qsizetype> columnSamples(const QVector<double> &keys, const QVector<double> &values, double keyLo,
                                     double keyHi, int columns, bool logKeys)
{
    const qsizetype n = std::min(keys.size(), values.size());
    std::vector<qsizetype> out;
    const auto key = [logKeys](double k) { return logKeys ? std::log10(k) : k; };
    const double lo = key(keyLo);
    const double span = key(keyHi) - lo;
    if (n == 0)
        return out;
    const auto first = qsizetype(std::lower_bound(keys.cbegin(), keys.cbegin() + n, keyLo) - keys.cbegin());
    const auto end = qsizetype(std::upper_bound(keys.cbegin() + first, keys.cbegin() + n, keyHi) - keys.cbegin());
    if (first > 0)
        out.push_back(first - 1);
    // The column being gathered: its first, lowest, highest and last finite samples.
    qsizetype column = -1, firstAt = -1, lowAt = -1, highAt = -1, lastAt = -1;
    const auto flush = [&] {
        if (firstAt < 0)
            return;
        qsizetype kept[4] = {firstAt, lowAt, highAt, lastAt};
        std::sort(std::begin(kept), std::end(kept));
        for (qsizetype i : kept) {
            if (out.empty() || out.back() != i)
                out.push_back(i);
        }
        firstAt = -1;
    };
    for (qsizetype i = first; i < end; ++i) {
        if (!std::isfinite(values[i])) {
            flush();
            if (out.empty() || std::isfinite(values[out.back()]))
                out.push_back(i); // one break between pieces
            continue;
        }
        const double at = span > 0 && std::isfinite(span) ? (key(keys[i]) - lo) / span * columns : 0.0;
        const qsizetype c = std::isfinite(at) ? qsizetype(std::clamp(at, 0.0, double(columns - 1))) : 0;
        if (c != column || firstAt < 0) {
            flush();
            column = c;
            firstAt = lowAt = highAt = i;
        }
        if (values[i] < values[lowAt])
            lowAt = i;
        if (values[i] > values[highAt])
            highAt = i;
        lastAt = i;
    }
    flush();
    if (end < n && (out.empty() || out.back() != end))
        out.push_back(end);
    return out;
}

ThinnedGraphs::ThinnedGraphs(QCustomPlot *plot, double tolerance)
    : QObject(plot)
    , m_plot(plot)
    , m_tolerance(std::max(tolerance, 0.0))
{
    // Zoom, pan and resizing change how many samples a pixel holds: thin again before drawing.
    connect(plot, &QCustomPlot::beforeReplot, this, [this] { update(); });
    plot->installEventFilter(this); // a figure export asks for every sample (kFullDetailProperty)
}

void ThinnedGraphs::set(QCPGraph *graph, QVector<double> keys, QVector<double> values, std::vector<bool> keep,
                        Kind kind)
{
    const auto it = std::find_if(m_dense.begin(), m_dense.end(), [graph](const Dense &d) { return d.graph == graph; });
    Dense curve{graph, std::move(keys), std::move(values), std::move(keep), kind};
    const std::size_t i = it != m_dense.end() ? std::size_t(it - m_dense.begin()) : m_dense.size();
    if (it != m_dense.end())
        *it = std::move(curve);
    else
        m_dense.push_back(std::move(curve));
    m_thinnedFor.resize(m_dense.size());
    m_thinnedFor[i].reset(); // thinned at the next update()
}

void ThinnedGraphs::setTolerance(double pixels)
{
    m_tolerance = std::max(pixels, 0.0);
    update(true);
}

bool ThinnedGraphs::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::DynamicPropertyChange
        && static_cast<QDynamicPropertyChangeEvent *>(event)->propertyName() == kFullDetailProperty)
        update();
    return QObject::eventFilter(watched, event);
}

void ThinnedGraphs::update(bool force)
{
    m_thinnedFor.resize(m_dense.size());
    const bool full = m_tolerance <= 0 || m_plot->property(kFullDetailProperty).toBool();
    for (std::size_t i = 0; i < m_dense.size(); ++i) {
        const Dense &curve = m_dense[i];
        if (!curve.graph)
            continue;
        const QCPRange x = curve.graph->keyAxis()->range();
        const QCPRange y = curve.graph->valueAxis()->range();
        // The plot's own size bounds its axis rect's, so the tolerance holds before the first layout too.
        const ThinnedFor now{x.lower, x.upper, y.lower, y.upper,
                             curve.graph->keyAxis()->scaleType() == QCPAxis::stLogarithmic,
                             curve.graph->valueAxis()->scaleType() == QCPAxis::stLogarithmic, m_plot->width(),
                             m_plot->height(), int(std::ceil(m_plot->width() * m_plot->devicePixelRatioF())),
                             full};
        if (!force && m_thinnedFor[i] == now)
            continue;
        m_thinnedFor[i] = now;
        thin(curve, now);
    }
}

void ThinnedGraphs::thin(const Dense &dense, const ThinnedFor &now) const
{
    // Millions of samples: those columnSamples() keeps of the keys in view, and only they are thinned further.
    const int columns = std::max(1, now.full ? kFigureColumns : now.columns);
    std::optional<Dense> cut;
    if (std::min(dense.keys.size(), dense.values.size()) > qsizetype(kSamplesPerColumn) * columns) {
        cut.emplace(Dense{dense.graph, {}, {}, {}, dense.kind});
        for (qsizetype i : columnSamples(dense.keys, dense.values, now.x0, now.x1, columns, now.logKeys)) {
            cut->keys << dense.keys[i];
            cut->values << dense.values[i];
            if (!dense.keep.empty())
                cut->keep.push_back(std::size_t(i) < dense.keep.size() && dense.keep[std::size_t(i)]);
        }
    }
    const Dense &curve = cut ? *cut : dense;
    if (now.full || curve.kind == Kind::Measured) {
        curve.graph->setData(curve.keys, curve.values, true);
        return;
    }
    // Pixels are even in the logarithm along a logarithmic axis: thinned there, drawn at the samples themselves.
    const auto span = [](double lo, double hi, bool log) {
        return log ? std::log10(std::max(hi, kTiny)) - std::log10(std::max(lo, kTiny)) : hi - lo;
    };
    const double xScale = now.width / std::max(span(now.x0, now.x1, now.logKeys), 1e-300);
    const double yScale = now.height / std::max(span(now.y0, now.y1, now.logValues), 1e-300);
    if (!now.logKeys && !now.logValues) {
        const DrawnCurve drawn = thinCurve(curve.keys, curve.values, xScale, yScale, m_tolerance, curve.keep);
        curve.graph->setData(drawn.keys, drawn.values, true);
        return;
    }
    const auto transform = [](const QVector<double> &v, bool log) {
        if (!log)
            return v;
        QVector<double> out(v.size());
        for (qsizetype i = 0; i < v.size(); ++i) // nothing to draw at zero or below on a log axis
            out[i] = v[i] > 0 ? std::log10(v[i]) : std::numeric_limits<double>::quiet_NaN();
        return out;
    };
    const QVector<double> keys = transform(curve.keys, now.logKeys);
    const DrawnCurve drawn
            = thinCurve(keys, transform(curve.values, now.logValues), xScale, yScale, m_tolerance, curve.keep);
    // Each kept sample is one of the input's (keys ascending): draw the sample itself, not its logarithm.
    QVector<double> outKeys, outValues;
    outKeys.reserve(drawn.keys.size());
    outValues.reserve(drawn.keys.size());
    for (qsizetype j = 0; j < drawn.keys.size(); ++j) {
        const auto at = std::lower_bound(keys.cbegin(), keys.cend(), drawn.keys[j]) - keys.cbegin();
        if (at >= curve.keys.size())
            continue;
        outKeys << curve.keys[at];
        outValues << (std::isfinite(drawn.values[j]) ? curve.values[at] : std::numeric_limits<double>::quiet_NaN());
    }
    curve.graph->setData(outKeys, outValues, true);
}

} // namespace crossroof::widgets
