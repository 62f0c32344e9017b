// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/support/contour.h"
#include "markov/coloured_surface.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace crossroof::widgets {

/// The Markov view's surface (Mitra's thesis 4.2, 5.3; MODEL.md 3) computed from its inputs: the CPI over the
/// (p, q) grid as the colour map draws it, its contour lines at round CPI values and the measured CPI's
/// iso-CPI curve, all in the map's axis coordinates. Computed on the GUI thread when the inputs change (a
/// surface takes a few milliseconds: see computeColouredSurface()); updated() follows.
class MarkovEvaluation : public QObject
{
    Q_OBJECT
public:
    struct Inputs {
        std::string grid = "thesis"; ///< core::MarkovGrid::fromText()
        std::vector<int> shape {2, 2, 2, 2}; ///< threads per cache group
        std::optional<long long> steps; ///< the transient CPI after this many steps; none: steady state
        double measured_cpi = 0; ///< whose iso-CPI curve is drawn; 0: none
    };

    explicit MarkovEvaluation(QObject *parent = nullptr);

    const Inputs &inputs() const { return m_inputs; }
    /// Computes the surface of INPUTS and emits updated(). Inputs the model refuses keep the surface,
    /// contours and curve of the last good ones and set error().
    void setInputs(Inputs inputs);

    const ColouredSurface &surface() const { return m_surface; }
    /// The upper end of the colour scale: the highest finite CPI, a little above the lowest if they are
    /// equal.
    double cpiHigh() const;
    /// The contour lines at round CPI values (core::niceContourLevels()), pieces separated by NaN points.
    const core::ContourLines &contours() const { return m_contours; }
    /// Where a contour line's CPI is written: on the line, at the middle of its piece farthest from the
    /// grid's edges.
    struct ContourLabel
    {
        double cpi;
        double p;
        double q;
    };
    /// One label for each contour level that has a line, lowest CPI first.
    const std::vector<ContourLabel> &contourLabels() const { return m_contourLabels; }
    /// The iso-CPI curve of the measured CPI; empty when there is none or it lies outside the surface's
    /// range.
    const core::ContourLines &measuredCurve() const { return m_measuredCurve; }
    /// Why the last inputs were refused; empty when they were not.
    const QString &error() const { return m_error; }

Q_SIGNALS:
    void updated();

private:
    Inputs m_inputs;
    ColouredSurface m_surface;
    ColouredSurface m_spare; ///< computed into, then swapped with m_surface
    core::ContourLines m_contours;
    std::vector<ContourLabel> m_contourLabels;
    core::ContourLines m_measuredCurve;
    QString m_error;
};

} // namespace crossroof::widgets
