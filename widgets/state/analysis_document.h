// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/settings_part.h"

#include "core/session/session.h"

#include <QObject>
#include <QStringList>

class QWidget;

namespace crossroof::widgets {

class KernelState;
class OccupancyState;
class ParameterState;
class SettingsUndo;
class TraceState;

/// The analysis as one document: every input of it, each a state part that a view edits and draws and that no
/// other view reads. The profile and the X-model's parameters (with the what-if comparison and a measured f(k)),
/// the imported traces, the Kernels dock's report and its predictions, the occupancy calculator's inputs, and
/// the inputs of the TMM, Markov CPI, mapping, stability map, roofline, code skeleton and Extrapolate views.
///
/// A session is this document written and read: toSession() gathers every part, fromSession() replaces every
/// part, so that nothing of the analysis before survives an open or File > New Session. Undo is registered per
/// part on the parameters' undo stack (trackUndo()), so one Edit > Undo history walks back any of them.
class AnalysisDocument : public QObject
{
    Q_OBJECT
public:
    explicit AnalysisDocument(QObject *parent = nullptr);
    ~AnalysisDocument() override;

    ParameterState *parameters() const { return m_params; }
    OccupancyState *occupancy() const { return m_occupancy; }
    TraceState *traces() const { return m_traces; }
    KernelState *kernels() const { return m_kernels; }
    SettingsPart<core::TmmSettings> *tmm() const { return m_tmm; }
    SettingsPart<core::MarkovSettings> *markov() const { return m_markov; }
    SettingsPart<core::MappingSettings> *mapping() const { return m_mapping; }
    SettingsPart<core::StabilitySettings> *stability() const { return m_stability; }
    SettingsPart<core::RooflineSettings> *roofline() const { return m_roofline; }
    SettingsPart<core::SkeletonSettings> *skeleton() const { return m_skeleton; }
    SettingsPart<core::ExtrapolateSettings> *extrapolate() const { return m_extrapolate; }

    enum class Traces { With, Without };
    /// Every part as a session (the window adds what it shows: the view in front, the zoom, link_traces).
    /// Without the traces' points when TRACES is Without (a session of millions of points is compared often).
    core::Session toSession(Traces traces = Traces::With) const;
    /// Replaces every part with SESSION's: the profile as given (the caller decides its identity in the
    /// library), the parameters without a what-if, the traces (moved, not copied), the Kernels dock's report
    /// read from session.kernel_file unless a trace of the session brought that file already, and every view's
    /// inputs. Reading the kernels shows progress over PROGRESSPARENT. Returns what could not be restored, one
    /// message each naming the session field.
    QStringList fromSession(core::Session session, QWidget *progressParent = nullptr);

    /// Registers undo for every part but the parameters (which have their own commands): call once, after the
    /// views are bound (bindView()), so that what a view makes of a profile switch is undone with the switch.
    void trackUndo();

Q_SIGNALS:
    /// Any part changed (the window's modified mark).
    void changed();
    /// An undo or redo restored inputs that VIEW shows (as sessions name the views: "skeleton", "zigzag", ...);
    /// DESCRIPTION says what changed ("Unroll 8 → 4"). The window brings that view forward.
    void inputsRestored(const QString &view, const QString &description);

private:
    template <class Settings>
    SettingsPart<Settings> *addPart();

    ParameterState *m_params;
    OccupancyState *m_occupancy;
    TraceState *m_traces;
    KernelState *m_kernels;
    SettingsPart<core::TmmSettings> *m_tmm;
    SettingsPart<core::MarkovSettings> *m_markov;
    SettingsPart<core::MappingSettings> *m_mapping;
    SettingsPart<core::StabilitySettings> *m_stability;
    SettingsPart<core::RooflineSettings> *m_roofline;
    SettingsPart<core::SkeletonSettings> *m_skeleton;
    SettingsPart<core::ExtrapolateSettings> *m_extrapolate;
    SettingsUndo *m_undo = nullptr;
};

} // namespace crossroof::widgets
