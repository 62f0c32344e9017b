// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bandwidth/bandwidth_evaluation.h"
#include "core/bandwidth/bandwidth_curve.h"

#include "core/profiles/hardware_profile.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace crossroof::widgets {

class EmptyState;
class ThinnedGraphs;
class TraceState;

/// Bandwidth curves (MODEL.md 4; Weidendorfer, PROPER 2013) of a bytes-per-interval trace: each connection's
/// demand smoothed over W intervals and sorted descending, against the share of the time, with the limit B
/// drawn across; the demand over time below; and a readout of the slowdown under B per connection
/// (sum max(1, d/limit) / units) and of which connection dominates how many intervals. The connections are the
/// trace's own (reads and writes from perf stat's memory-controller CAS counts, or each socket's with -A) plus
/// their total (BandwidthEvaluation says which limits they get). B comes from a CPU profile's peak, is typed,
/// or is none, and the readout says which. A trace of
/// millions of intervals is drawn, and exported, from the lowest and highest of each pixel column (ThinnedGraphs).
class BandwidthView : public QWidget
{
    Q_OBJECT
public:
    explicit BandwidthView(TraceState *traces, QWidget *parent = nullptr);

    /// Loads a perf stat -x -I file (or any file loadTraceFile() turns into bytes per interval) into the
    /// trace state and shows it. Returns the error (also shown in the readout), or an empty string.
    QString loadFile(const QString &path);
    /// Shows the bytes-per-interval trace ID; false if there is none with that id.
    bool setTrace(const QString &id);
    QString traceId() const;
    void setWindow(int units);
    /// B in GB/s, each connection's limit (0: none); the limit's source becomes "typed".
    void setLimit(double gbs);
    /// Takes B from the bundled CPU profile ID: its peak memory bandwidth R over its sockets; "" for no limit.
    /// False for an id the list does not hold (a GPU or a profile without R).
    bool setLimitSource(const QString &profileId);
    /// The profile id B comes from, "typed", or "" for none.
    QString limitSource() const;

    /// Length of one unit (the median interval), seconds.
    double unitSeconds() const;
    /// B in bytes per unit: B·1e9·unitSeconds().
    double limitBytesPerUnit() const;

    using ConnectionCurve = BandwidthEvaluation::ConnectionCurve;
    /// The curves shown (the trace's connections, then their total when there are several).
    const std::vector<ConnectionCurve> &curves() const;
    /// Which of the trace's own connections limits each unit (all with limit B); none with one connection.
    const std::optional<core::Dominance> &dominance() const;
    /// Why the last file was not loaded or the trace's curves not computed; empty when nothing went wrong.
    const QString &error() const;

    QCustomPlot *curvePlot() const { return m_curvePlot; }
    QCustomPlot *timePlot() const { return m_timePlot; }
    /// What a figure of this view shows.
    QList<QCustomPlot *> figurePlots() const { return {m_curvePlot, m_timePlot}; }
    QComboBox *traceBox() const { return m_traceBox; }
    QSpinBox *windowBox() const { return m_window; }
    QDoubleSpinBox *limitBox() const { return m_limit; }
    QComboBox *limitSourceBox() const { return m_limitFrom; }
    QLabel *readout() const { return m_readout; }
    /// Over the curve plot while there is no trace: what to load, and a button for it.
    EmptyState *emptyState() const { return m_empty; }

private:
    void rebuildTraceList();
    void traceSelected();
    /// Hands the trace, window and limit to the evaluation; showCurves() draws what it computes.
    void recompute();
    void showCurves();
    /// The readout beside the plots: the trace, each connection's slowdown, the dominant connection.
    QString readoutHtml(const core::MeasuredTrace &trace) const;
    void loadInteractively();
    /// Where B comes from, a paragraph of the readout.
    QString limitSourceHtml() const;
    const core::HardwareProfile *limitProfile() const;

    TraceState *m_traces;
    QComboBox *m_traceBox;
    QPushButton *m_load;
    QSpinBox *m_window;
    QComboBox *m_limitFrom;
    QDoubleSpinBox *m_limit;
    QLabel *m_readout;
    QCustomPlot *m_curvePlot;
    EmptyState *m_empty = nullptr;
    QCustomPlot *m_timePlot;
    QCPItemStraightLine *m_curveLimit;
    QCPItemStraightLine *m_timeLimit;
    QCPItemStraightLine *m_curveTotalLimit; ///< the total's limit where the connections are links of their own
    QCPItemStraightLine *m_timeTotalLimit;
    QCPItemText *m_limitLabel;
    ThinnedGraphs *m_curveThinned; ///< the sorted curves, a few samples per pixel column of a long trace
    ThinnedGraphs *m_timeThinned;  ///< the demand over time, likewise
    BandwidthEvaluation *m_eval;
    QString m_shownId;   ///< the trace the window and limit were chosen for
    QString m_loadError; ///< why the last file was not loaded, until the next drawing
};

} // namespace crossroof::widgets
