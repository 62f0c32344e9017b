// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/ncu_csv.h"

#include <QObject>
#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

namespace crossroof::widgets {

class ParameterState;

/// What the instruction roofline draws, from the state's parameters and the kernels of an ncu export: the
/// ceilings (memory R·I, compute M·warp_size·clock·SMs, the latency ceiling where E·n < M), the kernels as
/// points (intensity, throughput, duration) and the X-model's operating point. Computed on the GUI thread
/// when asked (recompute(): one model solve); updated() follows.
class RooflineEvaluation : public QObject
{
    Q_OBJECT
public:
    /// A plotted kernel: its index in the report, intensity (op/byte) and throughput (Gop/s).
    struct KernelPoint {
        std::size_t kernel = 0;
        double intensity = 0;
        double gops = 0;
        double duration_ns = 0;
        QString label;
    };

    explicit RooflineEvaluation(ParameterState *state, QObject *parent = nullptr);

    ParameterState *state() const { return m_state; }
    /// The kernels to draw (none: no export); recompute() takes them up.
    void setReport(const std::optional<core::NcuReport> &report) { m_report = report; }
    const std::optional<core::NcuReport> &report() const { return m_report; }

    /// Recomputes the points and the operating point from the report and the state's parameters; emits
    /// updated().
    void recompute();

    /// The kernels with instructions, duration and DRAM throughput, as points.
    const std::vector<KernelPoint> &points() const { return m_points; }
    /// The X-model operating point (intensity, Gop/s); (0, 0) when the parameters are refused or every
    /// request hits in the cache (no DRAM traffic, no finite intensity).
    QPointF operatingPoint() const { return m_operating; }
    /// Memory ceiling slope (GB/s) and compute ceiling (Gop/s) of the state's current parameters.
    double memoryCeilingGbs() const;
    double computeCeilingGops() const;
    /// The latency ceiling (Gop/s) where E·n/L_c < M, else none.
    const std::optional<double> &latencyCeilingGops() const { return m_latencyCeiling; }

Q_SIGNALS:
    void updated();

private:
    void rebuildPoints();

    ParameterState *m_state;
    std::optional<core::NcuReport> m_report;
    std::vector<KernelPoint> m_points;
    QPointF m_operating;
    std::optional<double> m_latencyCeiling;
};

} // namespace crossroof::widgets
