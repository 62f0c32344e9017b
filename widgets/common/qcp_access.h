// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What SteadyPlot reaches of QCustomPlot's protected members, through pointers to members of these subclasses
// (never instantiated): a layerable's drawing and clip rectangle, a layer's drawing, an axis's sub-tick
// coordinates.

#include <qcustomplot.h>

namespace crossroof::widgets::qcp_access {

struct LayerableDrawing : QCPLayerable
{
    using QCPLayerable::applyDefaultAntialiasingHint;
    using QCPLayerable::clipRect;
    using QCPLayerable::draw;
};
struct LayerDrawing : QCPLayer
{
    using QCPLayer::draw;
};
struct AxisTicks : QCPAxis
{
    using QCPAxis::mSubTickVector;
};

} // namespace crossroof::widgets::qcp_access
