// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"
#include "core/xmodel/parameters.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QUndoStack;

namespace crossroof::widgets {

/// The one shared state of the application: the current profile and every X-model parameter. Views
/// subscribe to its signals and never call each other. Setters return early when nothing changes.
/// The undoable entry points (apply*) push commands on the undo stack; the plain setters are what the
/// commands call.
class ParameterState : public QObject
{
    Q_OBJECT
public:
    explicit ParameterState(QObject *parent = nullptr);

    const core::XModelParams &params() const { return m_params; }
    const core::HardwareProfile &profile() const { return m_profile; }
    double value(const QString &key) const;
    QUndoStack *undoStack() const { return m_undo; }

    // Plain setters (no undo). Values out of the key's hard range are clamped.
    void setValue(const QString &key, double value);
    void setCacheMode(core::CacheMode mode);
    void setProfile(const core::HardwareProfile &profile, const core::XModelParams &params);

    // Undoable changes. While an interaction is open (a slider held down), changes to the same key merge
    // into one undo step.
    void applyValue(const QString &key, double value);
    void applyCacheMode(core::CacheMode mode);
    void applyProfile(const core::HardwareProfile &profile);
    void applyResetToProfile();
    /// Puts CURVE (a measured f(k), from trace TRACEID) in place of the analytic supply, or the analytic
    /// supply back when CURVE is null; one undo step.
    void applySupplyCurve(std::shared_ptr<const core::MeasuredCurve> curve, const QString &traceId);
    /// The trace whose curve stands in for f(k) now (a session saves it), or empty.
    QString supplyTrace() const;
    /// Records that CURVE came from trace TRACEID (a session that was opened with one).
    void noteCurveTrace(const std::shared_ptr<const core::MeasuredCurve> &curve, const QString &traceId);
    void beginInteraction();
    void endInteraction();
    bool interactionOpen() const { return m_interaction; }

    /// What-ifs to compare the current parameters with on the X-graph (the advisor's compare mode), each with
    /// the name its legend entry gives it, in the order they were added; none is empty.
    struct WhatIf
    {
        core::XModelParams params;
        QString label;
        bool operator==(const WhatIf &) const = default;
    };
    const std::vector<WhatIf> &comparisons() const { return m_comparisons; }
    /// The last what-if added, and its label (empty without one).
    std::optional<core::XModelParams> comparison() const;
    QString comparisonLabel() const;
    /// PARAMS, labelled LABEL, as the only what-if; none with std::nullopt.
    void setComparison(const std::optional<core::XModelParams> &params, const QString &label = {});
    /// Every what-if at once, in the order given.
    void setComparisons(std::vector<WhatIf> comparisons);
    /// Adds PARAMS as a what-if beside the others; one with the same label is replaced in its place.
    void addComparison(const core::XModelParams &params, const QString &label);
    int interactionSerial() const { return m_interactionSerial; }

Q_SIGNALS:
    void valueChanged(const QString &key, double value);
    void cacheModeChanged(crossroof::core::CacheMode mode);
    void profileChanged();
    /// Any change at all; views redraw on this.
    void changed();
    void comparisonChanged();
    /// A slider was let go (endInteraction()): views that held still during the drag may catch up.
    void interactionEnded();

private:
    core::HardwareProfile m_profile;
    core::XModelParams m_params;
    QUndoStack *m_undo;
    bool m_interaction = false;
    std::vector<WhatIf> m_comparisons;
    int m_interactionSerial = 0;
    /// Which trace each measured curve came from (the curves are kept alive, so a pointer is never reused).
    std::vector<std::pair<std::shared_ptr<const core::MeasuredCurve>, QString>> m_curveTraces;
};

} // namespace crossroof::widgets
