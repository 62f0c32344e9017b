// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/analysis_document.h"

#include "common/native_path.h"
#include "common/parameter_state.h"
#include "common/settings_undo.h"
#include "state/kernel_state.h"
#include "state/occupancy_state.h"
#include "state/trace_state.h"

#include "core/session/settings_changes.h"

#include <QHash>
#include <QUndoStack>

#include <any>
#include <cstdio>
#include <string>

namespace crossroof::widgets {

/// What one undo step of the occupancy inputs changed ("Registers/thread 32 → 64"), or n alone (the link's):
/// found by SettingsUndo::track() by argument-dependent lookup, as core's describeChange() for the other parts.
std::string describeChange(const OccupancyState::UndoSnapshot &before, const OccupancyState::UndoSnapshot &after);
std::string describeChange(const OccupancyState::UndoSnapshot &before, const OccupancyState::UndoSnapshot &after)
{
    std::string said = core::describeChange(before.settings, after.settings);
    if (said.empty() && before.n != after.n) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "n %.6g \u2192 %.6g", before.n, after.n);
        said = buf;
    }
    return said;
}

template <class Settings>
SettingsPart<Settings> *AnalysisDocument::addPart()
{
    auto *part = new SettingsPart<Settings>(this);
    connect(part, &StatePart::changed, this, &AnalysisDocument::changed);
    return part;
}

AnalysisDocument::AnalysisDocument(QObject *parent)
    : QObject(parent)
    , m_params(new ParameterState(this))
    , m_occupancy(new OccupancyState(m_params, this))
    , m_traces(new TraceState(this))
    , m_kernels(new KernelState(m_params, this))
    , m_tmm(addPart<core::TmmSettings>())
    , m_markov(addPart<core::MarkovSettings>())
    , m_mapping(addPart<core::MappingSettings>())
    , m_stability(addPart<core::StabilitySettings>())
    , m_roofline(addPart<core::RooflineSettings>())
    , m_skeleton(addPart<core::SkeletonSettings>())
    , m_extrapolate(addPart<core::ExtrapolateSettings>())
{
    connect(m_params, &ParameterState::changed, this, &AnalysisDocument::changed);
    connect(m_occupancy, &OccupancyState::changed, this, &AnalysisDocument::changed);
    connect(m_traces, &TraceState::changed, this, &AnalysisDocument::changed);
    connect(m_kernels, &KernelState::reportChanged, this, &AnalysisDocument::changed);
}

AnalysisDocument::~AnalysisDocument() = default;

core::Session AnalysisDocument::toSession(Traces traces) const
{
    core::Session s;
    s.profile = m_params->profile();
    s.params = m_params->params();
    s.supply_trace = m_params->supplyTrace().toStdString();
    s.occupancy = m_occupancy->settings();
    s.tmm = m_tmm->settings();
    s.markov = m_markov->settings();
    s.mapping = m_mapping->settings();
    s.stability = m_stability->settings();
    s.roofline = m_roofline->settings();
    s.skeleton = m_skeleton->settings();
    s.extrapolate = m_extrapolate->settings();
    if (const core::NcuReport *report = m_kernels->report())
        s.kernel_file = report->source;
    if (traces == Traces::With)
        s.traces = m_traces->traces();
    return s;
}

QStringList AnalysisDocument::fromSession(core::Session s, QWidget *progressParent)
{
    QStringList problems;
    // Nothing of the analysis before stays: the what-if curves, the kernels.
    m_params->setComparison(std::nullopt);
    m_kernels->clear();
    m_params->setProfile(s.profile, s.params);
    m_params->noteCurveTrace(s.params.measured_f, QString::fromStdString(s.supply_trace));
    m_occupancy->setSettings(s.occupancy);
    m_tmm->setSettings(s.tmm);
    m_markov->setSettings(s.markov);
    m_mapping->setSettings(s.mapping);
    m_stability->setSettings(s.stability);
    m_roofline->setSettings(s.roofline);
    m_skeleton->setSettings(s.skeleton);
    m_extrapolate->setSettings(s.extrapolate);
    // Moved: a trace of millions of samples is held once. An Nsight Compute trace brings its kernels with it.
    m_traces->setTraces(std::move(s.traces));
    const QString kernels = pathFromNative(s.kernel_file);
    if (!kernels.isEmpty() && !(m_kernels->report() && m_kernels->report()->source == s.kernel_file)) {
        if (const QString why = m_kernels->loadFile(kernels, progressParent); !why.isEmpty())
            problems << tr("field 'kernel_file': %1").arg(why);
    }
    m_params->undoStack()->clear(); // after the parts, whose new values went onto it
    return problems;
}

void AnalysisDocument::trackUndo()
{
    m_undo = new SettingsUndo(m_params->undoStack(), this);
    const int occupancyInputs
            = m_undo->track(m_occupancy, &OccupancyState::undoSnapshot, &OccupancyState::restoreUndoSnapshot,
                            &OccupancyState::settingsChanged, tr("occupancy inputs"));
    // What a profile switch does to the SM count, or a parameter change to n, is undone with it.
    m_undo->resyncOn(occupancyInputs, m_occupancy, &OccupancyState::changed);
    m_undo->resyncOn(occupancyInputs, m_params, &ParameterState::changed);
    const int tmmInputs = m_undo->track(m_tmm, tr("TMM inputs"));
    const int markovInputs = m_undo->track(m_markov, tr("Markov CPI inputs"));
    const int mappingInputs = m_undo->track(m_mapping, tr("mapping inputs"));
    // A profile switch changes which CPU profiles these two offer; what that does is undone with the switch.
    m_undo->resyncOn(markovInputs, m_params, &ParameterState::profileChanged);
    m_undo->resyncOn(mappingInputs, m_params, &ParameterState::profileChanged);
    const int stabilityInputs = m_undo->track(m_stability, tr("stability map settings"));
    const int rooflineInputs = m_undo->track(m_roofline, tr("roofline options"));
    const int skeletonInputs = m_undo->track(m_skeleton, tr("code skeleton"));
    const int extrapolateInputs = m_undo->track(m_extrapolate, tr("Extrapolate inputs"));

    // Which view shows each part's inputs, as sessions name the views; the occupancy inputs are the Occupancy
    // view's but for SMs, B_a and B_r up to, which the Zigzag view edits.
    const QHash<int, QString> views{{occupancyInputs, QStringLiteral("occupancy")},
                                    {tmmInputs, QStringLiteral("zigzag")},
                                    {markovInputs, QStringLiteral("markov")},
                                    {mappingInputs, QStringLiteral("mapping")},
                                    {stabilityInputs, QStringLiteral("stability")},
                                    {rooflineInputs, QStringLiteral("roofline")},
                                    {skeletonInputs, QStringLiteral("skeleton")},
                                    {extrapolateInputs, QStringLiteral("extrapolate")}};
    connect(m_undo, &SettingsUndo::restored, this,
            [this, views, occupancyInputs](int handle, const std::any &from, const std::any &to,
                                           const QString &description) {
                QString view = views.value(handle);
                if (handle == occupancyInputs
                    && core::onlyZigzagInputsDiffer(std::any_cast<const OccupancyState::UndoSnapshot &>(from).settings,
                                                    std::any_cast<const OccupancyState::UndoSnapshot &>(to).settings))
                    view = QStringLiteral("zigzag");
                Q_EMIT inputsRestored(view, description);
            });
}

} // namespace crossroof::widgets
