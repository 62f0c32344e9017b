// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/kernel_marks.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_set>

namespace crossroof::widgets {

KernelMarks::KernelMarks(QCPAxis *keyAxis, QCPAxis *valueAxis, bool uniform)
    : QCPGraph(keyAxis, valueAxis)
    , m_uniform(uniform)
{
    setLineStyle(QCPGraph::lsNone);
}

void KernelMarks::setMarks(std::vector<Mark> marks)
{
    m_marks = std::move(marks);
    QVector<double> keys, values;
    keys.reserve(qsizetype(m_marks.size()));
    values.reserve(qsizetype(m_marks.size()));
    for (const Mark &m : m_marks) {
        keys << m.key;
        values << m.value;
    }
    setData(keys, values); // the plot's ranges and the legend see the marks as a graph's points
}

void KernelMarks::draw(QCPPainter *painter)
{
    m_lastDrawn = 0;
    QCPAxis *keyAxis = mKeyAxis.data();
    QCPAxis *valueAxis = mValueAxis.data();
    if (!keyAxis || !valueAxis || m_marks.empty() || mScatterStyle.isNone())
        return;
    const QRectF clip = clipRect();
    // Last to first: of the marks on one pixel with one size, the one drawn last is kept.
    std::vector<std::size_t> drawn;
    std::unordered_set<std::uint64_t> cells;
    std::vector<QPointF> at(m_marks.size());
    for (std::size_t i = m_marks.size(); i-- > 0;) {
        const Mark &m = m_marks[i];
        const QPointF p(keyAxis->coordToPixel(m.key), valueAxis->coordToPixel(m.value));
        const double size = m_uniform ? mScatterStyle.size() : m.size;
        const double reach = size / 2 + mScatterStyle.pen().widthF() + 1; // the mark and its outline
        if (!std::isfinite(p.x()) || !std::isfinite(p.y()) || p.x() + reach < clip.left()
            || p.x() - reach > clip.right() || p.y() + reach < clip.top() || p.y() - reach > clip.bottom())
            continue;
        // A cell: the pixel (counted from the clip rect's corner, so that it fits its 16 bits) and the size in
        // hundredths of a pixel.
        const auto column = std::uint64_t(std::clamp(std::floor(p.x() - clip.left() + reach + 32), 0.0, 65535.0));
        const auto row = std::uint64_t(std::clamp(std::floor(p.y() - clip.top() + reach + 32), 0.0, 65535.0));
        const auto hundredths = std::uint64_t(std::clamp(std::round(size * 100), 0.0, 4294967295.0));
        if (!cells.insert(column | row << 16 | hundredths << 32).second)
            continue;
        at[i] = p;
        drawn.push_back(i);
    }
    applyScattersAntialiasingHint(painter);
    QCPScatterStyle look = mScatterStyle;
    look.applyTo(painter, mPen);
    for (auto it = drawn.rbegin(); it != drawn.rend(); ++it) {
        if (!m_uniform)
            look.setSize(m_marks[*it].size);
        look.drawShape(painter, at[*it]);
    }
    m_lastDrawn = int(drawn.size());
}

KernelArrow::KernelArrow(QCustomPlot *plot, std::shared_ptr<Pass> pass, bool first)
    : QCPItemLine(plot)
    , m_pass(std::move(pass))
    , m_first(first)
{
}

void KernelArrow::draw(QCPPainter *painter)
{
    if (m_first) {
        m_pass->cells.clear();
        m_pass->drawn = 0;
    }
    const QPointF from = start->pixelPosition();
    const QPointF to = end->pixelPosition();
    if (!std::isfinite(from.x()) || !std::isfinite(from.y()) || !std::isfinite(to.x()) || !std::isfinite(to.y()))
        return;
    const auto pixel = [](double v) { return std::uint64_t(std::clamp(std::floor(v) + 32768, 0.0, 65535.0)); };
    const std::uint64_t cell = pixel(from.x()) | pixel(from.y()) << 16 | pixel(to.x()) << 32 | pixel(to.y()) << 48;
    if (!m_pass->cells.insert(cell).second)
        return;
    ++m_pass->drawn;
    QCPItemLine::draw(painter);
}

} // namespace crossroof::widgets
