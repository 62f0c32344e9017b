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
/// ceilings (memory R·I, compute M·warp_size·clock·SMs, the issue ceiling where E·n/L_c < M, and the
/// memory-latency ceilings of Little's law: the bytes n warps keep in flight per SM over a level's latency),
/// the kernels as points at their DRAM, L2 and L1 intensities with the X-model's prediction for each, and the
/// X-model's operating point. Computed on the GUI thread when asked (recompute(): one model solve and one per
/// kernel); updated() follows.
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
        /// Intensity per L1 byte: thread-instructions over the global load and store sectors × 32 B, where the
        /// export has the sectors.
        std::optional<double> l1Intensity;
        /// Intensity per L2 byte: the L1 bytes that missed L1 (× (1 − L1 hit rate)), where the export also has
        /// the L1 hit rate.
        std::optional<double> l2Intensity;
        /// The X-model's prediction for the kernel (its own workload, as the Kernels dock predicts it): intensity
        /// per DRAM byte and Gop/s; none where the export lacks a metric the prediction needs.
        std::optional<QPointF> predicted;
    };

    explicit RooflineEvaluation(ParameterState *state, QObject *parent = nullptr);

    ParameterState *state() const { return m_state; }
    /// The kernels to draw (none: no export); recompute() takes them up.
    void setReport(const std::optional<core::NcuReport> &report) { m_report = report; }
    const std::optional<core::NcuReport> &report() const { return m_report; }

    /// Recomputes the points, the predictions and the operating point from the report and the state's
    /// parameters; emits updated().
    void recompute();

    /// The kernels with instructions, duration and DRAM throughput, as points.
    const std::vector<KernelPoint> &points() const { return m_points; }
    /// The X-model operating point (intensity, Gop/s); (0, 0) when the parameters are refused or every
    /// request hits in the cache (no DRAM traffic, no finite intensity).
    QPointF operatingPoint() const { return m_operating; }
    /// Memory ceiling slope (GB/s) and compute ceiling (Gop/s) of the state's current parameters.
    double memoryCeilingGbs() const;
    double computeCeilingGops() const;
    /// The issue ceiling (Gop/s) where E·n/L_c < M: n warps, each issuing E instructions per L_c cycles, cannot
    /// fill the issue slots; else none.
    const std::optional<double> &issueCeilingGops() const { return m_issueCeiling; }
    /// Little's law for the current n and m: n·m requests of request_bytes in flight per SM, served in
    /// LATENCYCYCLES each, move at most n·m·request_bytes·clock·SMs / LATENCYCYCLES GB/s; none when the latency is
    /// not positive. The DRAM ceiling takes L, the L2 one L_2 and the L1 one L_s.
    std::optional<double> littleCeilingGbs(double latencyCycles) const;
    /// A floating-point pipe's ceiling: its lanes per SM (results per clock) times clock and SMs, in
    /// thread-instructions per second like the other ceilings (one FMA instruction per lane and cycle).
    struct PipeCeiling {
        QString precision; ///< "FP32" or "FP64"
        int lanes = 0;     ///< per SM
        double gops = 0;
    };
    /// The FP32 and FP64 pipe ceilings of the profile's compute capability (the profile's own FP64 rate where
    /// it gives one) at the current clock and SM count; none for a CPU, an unknown compute capability or a rate
    /// the table does not know. Tensor cores have none: one MMA instruction does hundreds of operations.
    std::vector<PipeCeiling> pipeCeilings() const;
    /// Whether any point has an L1 (L2) intensity: the hierarchical roofline is drawn.
    bool hasL1() const;
    bool hasL2() const;

Q_SIGNALS:
    void updated();

private:
    void rebuildPoints();

    ParameterState *m_state;
    std::optional<core::NcuReport> m_report;
    std::vector<KernelPoint> m_points;
    QPointF m_operating;
    std::optional<double> m_issueCeiling;
};

} // namespace crossroof::widgets
