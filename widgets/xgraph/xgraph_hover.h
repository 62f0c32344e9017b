// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/xmodel.h"

#include <QString>

namespace crossroof::widgets {

/// What lies at plot coordinates (K, GBS) of the X-graph of MODEL, solved as RESULT, within the tolerances:
/// an equilibrium, f or G with its formula and value, or a landmark (delta, pi, the plateau); empty over
/// nothing. The hover text of XGraphView::describeAt().
QString describeXGraphAt(const core::XModel &model, const core::XGraphResult &result, double k, double gbs,
                         double kTolerance, double gbsTolerance);

} // namespace crossroof::widgets
