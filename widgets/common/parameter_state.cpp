// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"

#include "core/profiles/profile_library.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

constexpr int kSetValueId = 1;

/// Swaps one numeric parameter. Consecutive changes of the same key inside one interaction merge.
class SetValueCommand : public QUndoCommand
{
public:
    SetValueCommand(ParameterState *state, const QString &key, double before, double after)
        : m_state(state)
        , m_key(key)
        , m_before(before)
        , m_after(after)
        , m_serial(state->interactionOpen() ? state->interactionSerial() : -1)
    {
        const auto *info = core::findParameter(key.toStdString());
        setText(QObject::tr("Change %1").arg(info ? QString::fromUtf8(info->symbol.data(), qsizetype(info->symbol.size()))
                                                  : key));
    }
    int id() const override { return kSetValueId; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = static_cast<const SetValueCommand *>(other);
        if (m_serial < 0 || o->m_serial != m_serial || o->m_key != m_key)
            return false;
        m_after = o->m_after;
        return true;
    }
    void undo() override { m_state->setValue(m_key, m_before); }
    void redo() override { m_state->setValue(m_key, m_after); }

private:
    ParameterState *m_state;
    QString m_key;
    double m_before;
    double m_after;
    int m_serial;
};

class SetCacheModeCommand : public QUndoCommand
{
public:
    SetCacheModeCommand(ParameterState *state, core::CacheMode before, core::CacheMode after)
        : QUndoCommand(QObject::tr("Change cache mode"))
        , m_state(state)
        , m_before(before)
        , m_after(after)
    {
    }
    void undo() override { m_state->setCacheMode(m_before); }
    void redo() override { m_state->setCacheMode(m_after); }

private:
    ParameterState *m_state;
    core::CacheMode m_before;
    core::CacheMode m_after;
};

/// Replaces the profile and every parameter at once (profile switch, reset to profile).
class SetProfileCommand : public QUndoCommand
{
public:
    SetProfileCommand(ParameterState *state, const QString &text, core::HardwareProfile profile,
                      core::XModelParams params)
        : QUndoCommand(text)
        , m_state(state)
        , m_beforeProfile(state->profile())
        , m_beforeParams(state->params())
        , m_afterProfile(std::move(profile))
        , m_afterParams(params)
    {
    }
    void undo() override { m_state->setProfile(m_beforeProfile, m_beforeParams); }
    void redo() override { m_state->setProfile(m_afterProfile, m_afterParams); }

private:
    ParameterState *m_state;
    core::HardwareProfile m_beforeProfile;
    core::XModelParams m_beforeParams;
    core::HardwareProfile m_afterProfile;
    core::XModelParams m_afterParams;
};

} // namespace

ParameterState::ParameterState(QObject *parent)
    : QObject(parent)
    , m_undo(new QUndoStack(this))
{
    const auto *prof = core::findBundledProfile(core::defaultProfileId());
    if (!prof && !core::bundledProfiles().empty())
        prof = &core::bundledProfiles().front();
    if (prof) {
        m_profile = *prof;
        m_params = prof->params;
    }
}

double ParameterState::value(const QString &key) const
{
    const auto *info = core::findParameter(key.toStdString());
    return info ? m_params.*(info->member) : 0.0;
}

void ParameterState::setValue(const QString &key, double value)
{
    const auto *info = core::findParameter(key.toStdString());
    if (!info || !std::isfinite(value))
        return;
    value = std::clamp(value, info->min, info->max);
    if (info->integer)
        value = std::round(value);
    double &slot = m_params.*(info->member);
    if (slot == value)
        return;
    slot = value;
    Q_EMIT valueChanged(key, value);
    Q_EMIT changed();
}

void ParameterState::setCacheMode(core::CacheMode mode)
{
    if (m_params.cache == mode)
        return;
    m_params.cache = mode;
    Q_EMIT cacheModeChanged(mode);
    Q_EMIT changed();
}

void ParameterState::setProfile(const core::HardwareProfile &profile, const core::XModelParams &params)
{
    m_profile = profile;
    m_params = params;
    Q_EMIT profileChanged();
    Q_EMIT changed();
}

void ParameterState::applyValue(const QString &key, double value)
{
    const auto *info = core::findParameter(key.toStdString());
    if (!info || !std::isfinite(value))
        return;
    const double before = m_params.*(info->member);
    double after = std::clamp(value, info->min, info->max);
    if (info->integer)
        after = std::round(after);
    if (before == after)
        return;
    m_undo->push(new SetValueCommand(this, key, before, after));
}

void ParameterState::applyCacheMode(core::CacheMode mode)
{
    if (mode != m_params.cache)
        m_undo->push(new SetCacheModeCommand(this, m_params.cache, mode));
}

void ParameterState::applyProfile(const core::HardwareProfile &profile)
{
    m_undo->push(new SetProfileCommand(this, tr("Load profile %1").arg(QString::fromStdString(profile.name)),
                                       profile, profile.params));
}

void ParameterState::applyResetToProfile()
{
    if (m_params == m_profile.params)
        return;
    m_undo->push(new SetProfileCommand(this, tr("Reset to profile"), m_profile, m_profile.params));
}

void ParameterState::applySupplyCurve(std::shared_ptr<const core::MeasuredCurve> curve, const QString &traceId)
{
    if (curve == m_params.measured_f)
        return;
    if (curve)
        noteCurveTrace(curve, traceId);
    core::XModelParams after = m_params;
    after.measured_f = std::move(curve);
    m_undo->push(new SetProfileCommand(this,
                                       after.measured_f ? tr("Use trace as f(k)") : tr("Use the analytic f(k)"),
                                       m_profile, after));
}

QString ParameterState::supplyTrace() const
{
    for (const auto &[curve, id] : m_curveTraces) {
        if (curve && curve == m_params.measured_f)
            return id;
    }
    return {};
}

void ParameterState::noteCurveTrace(const std::shared_ptr<const core::MeasuredCurve> &curve, const QString &traceId)
{
    if (curve && !traceId.isEmpty())
        m_curveTraces.emplace_back(curve, traceId);
}

std::optional<core::XModelParams> ParameterState::comparison() const
{
    if (m_comparisons.empty())
        return std::nullopt;
    return m_comparisons.back().params;
}

QString ParameterState::comparisonLabel() const
{
    return m_comparisons.empty() ? QString() : m_comparisons.back().label;
}

void ParameterState::setComparison(const std::optional<core::XModelParams> &params, const QString &label)
{
    std::vector<WhatIf> one;
    if (params)
        one.push_back({*params, label});
    setComparisons(std::move(one));
}

void ParameterState::setComparisons(std::vector<WhatIf> comparisons)
{
    if (comparisons == m_comparisons)
        return;
    m_comparisons = std::move(comparisons);
    Q_EMIT comparisonChanged();
}

void ParameterState::addComparison(const core::XModelParams &params, const QString &label)
{
    std::vector<WhatIf> next = m_comparisons;
    const auto same = std::find_if(next.begin(), next.end(), [&label](const WhatIf &w) { return w.label == label; });
    if (same != next.end())
        same->params = params;
    else
        next.push_back({params, label});
    setComparisons(std::move(next));
}

void ParameterState::beginInteraction()
{
    m_interaction = true;
    ++m_interactionSerial;
}

void ParameterState::endInteraction()
{
    const bool wasOpen = m_interaction;
    m_interaction = false;
    if (wasOpen)
        Q_EMIT interactionEnded();
}

} // namespace crossroof::widgets
