// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/bandwidth/bandwidth_curve.h"
#include "core/traces/trace_set.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace crossroof::widgets {

class TraceState;

/// The bandwidth curves of a bytes-per-interval trace of the trace state (MODEL.md 4) for a window W and a
/// limit B: each connection's demand (the trace's own, then their total when there are several) smoothed over
/// W intervals and sorted, its slowdown under its limit, and which connection dominates how many intervals.
/// The trace's own connections each have the limit B. Reads and writes share one memory controller, so their
/// total has B too; other connections (the sockets of a perf stat -A file) are links of their own, and their
/// total has the sum of their limits. The dominance is found among all of them, total included, with the
/// limits the curves use: a curve over its limit in an interval means a dominant connection there. Computed
/// on the GUI thread when the inputs change (a trace of a few thousand intervals takes well under a frame);
/// updated() follows.
class BandwidthEvaluation : public QObject
{
    Q_OBJECT
public:
    struct ConnectionCurve {
        QString name;
        std::vector<double> bytes; ///< raw bytes per unit
        core::BandwidthCurve curve;
        std::vector<double> smoothed; ///< the demand smoothed over the window, per unit (bytes)
        double limit_gbs = 0;         ///< this connection's limit, GB/s; 0 without a limit
    };

    explicit BandwidthEvaluation(TraceState *traces, QObject *parent = nullptr);

    /// Computes the curves of the trace TRACE_ID (none there: nothing) smoothed over WINDOW units (clamped to
    /// the trace's length) under the limit LIMIT_GBS per connection (0: no limit, no slowdown and no
    /// dominance), and emits updated().
    void setInputs(const QString &traceId, int window, double limitGbs);

    /// Whether the trace's own connections are links of their own (sockets), their total limited by the sum
    /// of their limits; false for reads and writes, which share one.
    bool separateLinks() const { return m_separateLinks; }
    /// Whether a limit was given: otherwise the curves' slowdowns and over-limit counts mean nothing.
    bool limited() const { return m_limited; }

    /// The trace computed from; null when the trace state has none with the id asked for.
    const core::MeasuredTrace *trace() const;
    /// The window used, in units (1 to the trace's length).
    std::size_t window() const { return m_window; }
    /// Length of one unit (the median interval) of the last trace computed, seconds.
    double unitSeconds() const { return m_unitSeconds; }
    /// The curves (the trace's connections, then their total when there are several); empty on an error.
    const std::vector<ConnectionCurve> &curves() const { return m_curves; }
    /// Which connection, of curves() with their limits, limits each unit; none with one connection or no limit.
    const std::optional<core::Dominance> &dominance() const { return m_dominance; }
    /// Why the trace's curves could not be computed ("FILE: ..."); empty when they were.
    const QString &error() const { return m_error; }

Q_SIGNALS:
    void updated();

private:
    void recompute(int window, double limitGbs);

    TraceState *m_traces;
    QString m_traceId;
    std::size_t m_window = 1;
    bool m_separateLinks = false;
    bool m_limited = false;
    double m_unitSeconds = 1;
    std::vector<ConnectionCurve> m_curves;
    std::optional<core::Dominance> m_dominance;
    QString m_error;
};

} // namespace crossroof::widgets
