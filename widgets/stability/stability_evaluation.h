// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/drag_hold.h"
#include "common/latest_job.h"
#include "common/progressive_job.h"
#include "core/xmodel/stability_settings.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/stability_map.h"

#include <QObject>
#include <QString>

#include <array>
#include <optional>
#include <string>
#include <vector>

class QTimer;

namespace crossroof::widgets {

class ParameterState;

/// What the stability view draws, computed from the state's parameters and the view's settings
/// (MODEL.md 1.6): the stability map over two parameters, refined in the background coarse first and
/// restarted on every change that moves it; the hysteresis of a sweep; the what-if advisor's ranked
/// operations. Each is computed off the GUI thread and announced by its own signal. An inactive evaluation
/// (its view hidden) computes nothing and catches up when made active again.
class StabilityEvaluation : public QObject
{
    Q_OBJECT
public:
    explicit StabilityEvaluation(ParameterState *state, QObject *parent = nullptr);

    ParameterState *state() const { return m_state; }

    const core::StabilitySettings &settings() const { return m_settings; }
    /// New axes, resolution or sweep: recomputed (once per turn of the event loop however many change).
    void setSettings(const core::StabilitySettings &settings);
    /// Whether the view is shown. Changes made while inactive are computed when it becomes active again.
    void setActive(bool active);

    /// The map's axis WHICH (0: x, 1: y) for the present parameters: while the map's point is dragged the
    /// axes held (holdAxes()); while a slider is held the axes shown, as long as the point stays on them.
    core::MapAxis axis(int which) const;
    /// VALUE of axis WHICH's key in plot units (log10 on a log axis), and back.
    double toAxis(int which, double value) const;
    double fromAxis(int which, double u) const;
    /// Holds the map's axes as they are until the state's interaction ends (the point is dragged on the map:
    /// otherwise it would run away from the pointer as the map re-centres on it).
    void holdAxes();

    /// The map as last refined (possibly still coarse).
    const core::StabilityMap &map() const { return m_map; }

    /// The hysteresis sweep last computed: the values of KEY swept up and then down.
    struct Sweep {
        std::string key;
        std::vector<double> values;
        bool showK = false; ///< the chart shows k instead of the MS throughput
        core::HysteresisResult result; ///< empty when the parameters could not be swept
    };
    const Sweep &sweep() const { return m_sweep; }
    /// The advisor's operations for the parameters last advised on; none if the model refuses them.
    const std::optional<core::Advice> &advice() const { return m_advice; }

    /// The equilibria at plot coordinates (u, v) of the map, as text; empty off the keys' ranges.
    QString describeAt(double u, double v) const;

    /// Brings everything up to date (also while inactive) and blocks until the map is refined to its last
    /// level, the sweep and the advice computed, and each signal emitted (tests, figure export).
    void wait();

Q_SIGNALS:
    /// The map changed (a new one, or a finer level of it).
    void mapUpdated();
    /// Only the current point moved: the map is the same.
    void pointMoved();
    void sweepUpdated();
    void adviceUpdated();

private:
    struct SweepRequest {
        core::XModelParams params; ///< the swept key's member set to 0
        std::string key;
        std::vector<double> values;
        bool showK = false;
        bool operator==(const SweepRequest &) const = default;
    };
    /// What the map shown (or being refined) was computed from: the parameters without its two axes' keys,
    /// and the axes.
    struct MapInputs {
        core::XModelParams base;
        std::array<core::MapAxis, 2> axes;
    };

    void scheduleRefresh();
    void refresh();
    /// Whether the map for the present inputs differs from the one shown or being refined.
    bool mapInputsChanged(const core::MapAxis &x, const core::MapAxis &y) const;
    void startMap();
    void showMap(core::StabilityMap map);
    void requestSweep();
    void requestAdvice();

    ParameterState *m_state;
    core::StabilitySettings m_settings;
    bool m_active = false;
    bool m_stale = true; ///< inputs changed while inactive: recompute when active
    QTimer *m_refreshTimer; ///< one refresh per turn of the event loop, however many changes

    core::StabilityMap m_map;
    std::optional<MapInputs> m_mapInputs;
    bool m_refinementStopped = false; ///< the background refinement was stopped before it finished
    DragHold<std::array<core::MapAxis, 2>> m_dragAxes;
    ProgressiveJob<core::StabilityMap> m_mapJob;

    std::optional<SweepRequest> m_sweepRequested; ///< the last sweep asked for (computed, or being computed)
    Sweep m_sweep;
    LatestJob<Sweep> m_sweepJob;

    std::optional<core::Advice> m_advice;
    LatestJob<std::optional<core::Advice>> m_adviceJob; ///< none: parameters the model refuses
};

} // namespace crossroof::widgets
