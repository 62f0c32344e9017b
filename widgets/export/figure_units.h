// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::widgets::figure {

constexpr double kPointsPerMm = 72.0 / 25.4;
// Figures are laid out on a canvas of two logical units per point: text keeps its size in points while pens
// and markers, given in screen pixels, come out at half a point per pixel, as printed figures want.
constexpr double kUnitsPerPoint = 2.0;

} // namespace crossroof::widgets::figure
