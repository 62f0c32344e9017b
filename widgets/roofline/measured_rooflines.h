// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/measured_roofline.h"

#include <vector>

class QCustomPlot;

namespace crossroof::widgets {

class TraceState;

/// The visible measured rooflines (gpu-benches' gpu-roofline traces) of TRACES in the instruction roofline's
/// units (core::measuredRoofline()); none without TRACES.
std::vector<core::MeasuredRoofline> visibleMeasuredRooflines(const TraceState *traces);

/// Draws each of ROOFLINES on PLOT: its rows as a line with points, and its ridge (best rate over best
/// bandwidth) as a diamond at its peak, named in the legend with its bandwidth, peak and ridge.
void drawMeasuredRooflines(QCustomPlot *plot, const std::vector<core::MeasuredRoofline> &rooflines);

} // namespace crossroof::widgets
