// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/roofline/roofline.h"

#include <QObject>
#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

namespace crossroof::widgets {

class KernelState;
class ParameterState;

/// What the instruction roofline draws (core/roofline/roofline.h computes it): the ceilings of the state's
/// parameters and profile, the kernels of the KernelState's report at their DRAM, L2 and L1 intensities with the
/// state's prediction for each (the Kernels table's number), and the X-model's operating point. Recomputed on the
/// GUI thread when asked (recompute(): one model solve; the kernels' predictions are the state's); updated()
/// follows.
class RooflineEvaluation : public QObject
{
    Q_OBJECT
public:
    /// A plotted kernel: its index in the report, intensity per DRAM byte (op/byte) and throughput (Gop/s).
    struct KernelPoint {
        std::size_t kernel = 0;
        double intensity = 0;
        double gops = 0;
        double duration_ns = 0;
        QString label;      ///< "short name [ID]", as the kernel table names it
        QString shortLabel; ///< the name on the plot: without namespaces and template arguments
        std::optional<double> l1Intensity; ///< core::RooflineKernel::l1_intensity
        std::optional<double> l2Intensity; ///< core::RooflineKernel::l2_intensity
        /// The X-model's prediction for the kernel (the Kernels table's): intensity per DRAM byte and Gop/s;
        /// none where the kernel has none.
        std::optional<QPointF> predicted;
    };

    explicit RooflineEvaluation(KernelState *kernels, QObject *parent = nullptr);

    ParameterState *state() const { return m_state; }
    KernelState *kernels() const { return m_kernels; }

    /// Recomputes the ceilings, the points and the operating point from the state's report, predictions and
    /// parameters; emits updated().
    void recompute();

    /// The kernels with instructions, duration and DRAM throughput, as points.
    const std::vector<KernelPoint> &points() const { return m_points; }
    /// The X-model operating point (intensity, Gop/s); (0, 0) when the parameters are refused or every
    /// request hits in the cache (no DRAM traffic, no finite intensity).
    QPointF operatingPoint() const { return m_operating; }
    /// The ceilings of the last recompute().
    const core::RooflineCeilings &ceilings() const { return m_ceilings; }
    /// Whether any point has an L1 (L2) intensity: the hierarchical roofline is drawn.
    bool hasL1() const;
    bool hasL2() const;

Q_SIGNALS:
    void updated();

private:
    void rebuildPoints();

    KernelState *m_kernels;
    ParameterState *m_state;
    std::vector<KernelPoint> m_points;
    QPointF m_operating;
    core::RooflineCeilings m_ceilings;
};

} // namespace crossroof::widgets
