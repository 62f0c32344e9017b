// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/xmodel/stability_map.h"

#include <qcustomplot.h>

namespace crossroof::widgets {

/// The stability map drawn: cells coloured by the number of stable equilibria (a band each) and shaded by
/// operating throughput, the key beside it, the regions' edges outlined, and the current point on a layer of
/// its own, so that moving it redraws neither the map nor the axes.
class StabilityMapPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit StabilityMapPlot(QWidget *parent = nullptr);

    QCPColorMap *colorMap() const { return m_colorMap; }
    /// The key beside the map: its colours, a band per number of stable states (1, 2, 3+).
    QCPColorScale *key() const { return m_key; }
    /// The key's side towards the map: round MS throughputs in GB/s where the bands' shades show them.
    QCPAxis *shadeAxis() const { return m_shadeAxis; }
    QCPGraph *currentPoint() const { return m_current; }

    /// Draws MAP (its cells, edges, axes and their labels); the point is marked with markPoint().
    void showMap(const core::StabilityMap &map);
    /// Marks the current point at plot coordinates (u, v); with MAP_CHANGED false only the point's layer is
    /// drawn again.
    void markPoint(double u, double v, bool mapChanged);

private:
    QCPColorMap *m_colorMap;
    QCPColorScale *m_key;
    QCPAxis *m_shadeAxis;
    QSharedPointer<QCPAxisTicker> m_shadeTicker; ///< a ShadeTicker
    QCPCurve *m_edges;
    QCPGraph *m_current;
    bool m_fullReplotQueued = false;
};

/// The highest operating throughput of MAP's cells (GB/s): the darkest shade of its bands.
double highestThroughput(const core::StabilityMap &map);

/// A parameter's axis title, "Compute intensity Z (inst/req)": its name, symbol and unit, a unit the name already
/// says not said again ("Resident warps n").
QString parameterTitle(const core::ParameterInfo &info);

} // namespace crossroof::widgets
