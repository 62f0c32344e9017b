// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "markov/coloured_surface.h"

#include <qcustomplot.h>

#include <vector>

namespace crossroof::widgets {

/// A perceptually uniform, colour-blind-safe map (viridis stops); grey where the CPI is infinite (NaN).
QCPColorGradient viridis();

/// The ticks of a probability axis of SURFACE whose grid values are VALUES and axis coordinates AXIS: round
/// probabilities on value and logit axes, the grid values nearest them on the thesis grid (drawn by index);
/// a uniform grid's axis gets plain numeric ticks.
QSharedPointer<QCPAxisTicker> probabilityTicker(const ColouredSurface &surface,
                                                const std::vector<double> &values,
                                                const std::vector<double> &axis);

/// The colour scale's ticks, at 1, 2 and 5 times powers of ten of CPI between LO and HI, labelled in CPI
/// (the scale holds log10 CPI); LO alone if none falls between.
QSharedPointer<QCPAxisTicker> cpiTicker(double lo, double hi);

} // namespace crossroof::widgets
