// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/flow_arrows.h"

namespace crossroof::widgets {

namespace {

const QColor kArrowColour(0x55, 0x55, 0x55);
constexpr double kHeadLength = 9; ///< pixels, tip to the head's back corners
constexpr double kHeadHalfWidth = 4;
constexpr double kHeadNotch = 6;  ///< pixels from the tip to where the shaft meets the head

} // namespace

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

void FlowArrows::draw(QCPPainter *painter)
{
    if (m_arrows.isEmpty())
        return;
    const QCPAxis *x = mParentPlot->xAxis;
    // The shafts are horizontal: on a whole pixel row they need no antialiasing.
    const double y = std::round(mParentPlot->yAxis->coordToPixel(m_y)) + 0.5;
    QVector<QLineF> shafts;
    QPainterPath heads;
    for (const Arrow &a : std::as_const(m_arrows)) {
        const double from = x->coordToPixel(a.k - a.direction * m_halfLength);
        const double to = x->coordToPixel(a.k + a.direction * m_halfLength);
        const double way = to >= from ? 1 : -1;
        shafts << QLineF(from, y, to - way * kHeadNotch, y);
        heads.moveTo(to, y);
        heads.lineTo(to - way * kHeadLength, y - kHeadHalfWidth);
        heads.lineTo(to - way * kHeadNotch, y);
        heads.lineTo(to - way * kHeadLength, y + kHeadHalfWidth);
        heads.closeSubpath();
    }
    painter->setPen(QPen(kArrowColour, 1.2));
    painter->setAntialiasing(false);
    painter->drawLines(shafts);
    painter->setAntialiasing(true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(kArrowColour);
    painter->drawPath(heads);
}

} // namespace crossroof::widgets
