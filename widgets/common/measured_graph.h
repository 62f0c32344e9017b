// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QVariant>

namespace crossroof::widgets {

/// What a graph an overlay adds to a view's plot draws, so that the view can say what it fits into its
/// ranges (the X-graph: "3 kernels lie beyond n") without knowing the overlay.
enum class MeasuredKind { None, TracePoints, KernelPoints };

inline constexpr const char *kMeasuredKindProperty = "crossroofMeasuredKind";

inline void setMeasuredKind(QCPGraph *graph, MeasuredKind kind)
{
    graph->setProperty(kMeasuredKindProperty, int(kind));
}

inline MeasuredKind measuredKind(const QCPGraph *graph)
{
    const QVariant v = graph->property(kMeasuredKindProperty);
    return v.isValid() ? MeasuredKind(v.toInt()) : MeasuredKind::None;
}

} // namespace crossroof::widgets
