// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/flow_arrows.h"

#include "common/plot_style.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

const QColor kArrowColour(0x55, 0x55, 0x55);
constexpr double kHeadLength = 9; ///< pixels, tip to the head's back corners
constexpr double kHeadHalfWidth = 4;
constexpr double kHeadNotch = 6;  ///< pixels from the tip to where the shaft meets the head
constexpr int kHeadColumns = int(kHeadLength) + 1;      ///< the head image's width: the tip at one edge
constexpr int kHeadRows = 2 * int(kHeadHalfWidth) + 3; ///< the head image's height: the axis through row 5

/// Adds the head with its tip at (TIP_X, Y), pointing the way of WAY (+1 right, -1 left), to PATH.
void addHead(QPainterPath &path, double tipX, double y, double way)
{
    path.moveTo(tipX, y);
    path.lineTo(tipX - way * kHeadLength, y - kHeadHalfWidth);
    path.lineTo(tipX - way * kHeadNotch, y);
    path.lineTo(tipX - way * kHeadLength, y + kHeadHalfWidth);
    path.closeSubpath();
}

} // namespace

void FlowArrows::setFlowOf(const core::XModel &model, double top)
{
    constexpr int kArrows = 14;
    const double n = model.params().n;
    QList<Arrow> flow;
    for (int i = 0; i < kArrows; ++i) {
        const double k = n * (i + 0.5) / kArrows;
        const double F = model.balance(k);
        if (std::abs(F) < 1e-9 * std::max(model.msSupply(k), 1e-12))
            continue;
        flow.append({k, F > 0 ? -1 : 1});
    }
    setArrows(std::move(flow), n / kArrows * 0.3, top * 0.035);
}

FlowArrows::FlowArrows(QCustomPlot *plot)
    : QCPLayerable(plot, QStringLiteral("main"))
{
}

void FlowArrows::setArrows(QList<Arrow> arrows, double halfLength, double y)
{
    m_arrows = std::move(arrows);
    m_halfLength = halfLength;
    m_y = y;
}

void FlowArrows::applyDefaultAntialiasingHint(QCPPainter *painter) const
{
    applyAntialiasingHint(painter, mAntialiased, QCP::aeItems);
}

QRect FlowArrows::clipRect() const
{
    return mParentPlot->axisRect()->rect();
}

const QImage &FlowArrows::headImage(int direction, qreal dpr)
{
    QImage &image = m_heads[direction > 0 ? 1 : 0];
    if (!image.isNull() && image.devicePixelRatio() == dpr)
        return image;
    image = QImage(QSize(kHeadColumns, kHeadRows) * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainterPath head;
    addHead(head, direction > 0 ? kHeadColumns : 0, kHeadRows / 2 + 0.5, direction > 0 ? 1 : -1);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(kArrowColour);
    painter.drawPath(head);
    return image;
}

void FlowArrows::draw(QCPPainter *painter)
{
    if (m_arrows.isEmpty())
        return;
    const QCPAxis *x = mParentPlot->xAxis;
    // The shafts are horizontal: on a whole pixel row they need no antialiasing.
    const double y = std::round(mParentPlot->yAxis->coordToPixel(m_y)) + 0.5;
    // Stamped on a screen's pixels; drawn as paths into a vector figure or a scaled one.
    const bool stamp = plot_style::drawsPixelsAsTheyAre(painter);
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    QVector<QLineF> shafts;
    QPainterPath heads;
    QList<std::pair<QPointF, int>> stamps;
    for (const Arrow &a : std::as_const(m_arrows)) {
        const double from = x->coordToPixel(a.k - a.direction * m_halfLength);
        const double to = x->coordToPixel(a.k + a.direction * m_halfLength);
        const double way = to >= from ? 1 : -1;
        shafts << QLineF(from, y, to - way * kHeadNotch, y);
        if (stamp) {
            const double left = way > 0 ? to - kHeadColumns : to;
            stamps.append({QPointF(std::round(left), y - 0.5 - kHeadRows / 2), int(way)});
        } else {
            addHead(heads, to, y, way);
        }
    }
    painter->setPen(QPen(kArrowColour, 1.2));
    painter->setAntialiasing(false);
    painter->drawLines(shafts);
    if (stamp) {
        for (const auto &[at, way] : std::as_const(stamps))
            painter->drawImage(at, headImage(way, dpr));
        return;
    }
    painter->setAntialiasing(true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(kArrowColour);
    painter->drawPath(heads);
}

} // namespace crossroof::widgets
