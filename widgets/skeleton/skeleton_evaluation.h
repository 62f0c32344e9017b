// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/skeleton/core_model.h"
#include "core/skeleton/projection.h"
#include "core/skeleton/schedule.h"
#include "core/skeleton/skeleton.h"

#include <QObject>
#include <QString>

#include <optional>

namespace crossroof::widgets {

/// A code skeleton projected on a core model (MODEL.md 8; the SKOPE/KNL paper): the text parsed, its
/// dependency graph, critical path and unroll projection, the schedule of the chosen unroll factor and the
/// Z and E it gives the X-model. While the text does not parse the last good projection stays and error()
/// says why. Computed on the GUI thread at every edit (a skeleton of a few dozen statements takes well under
/// a frame); updated() follows.
class SkeletonEvaluation : public QObject
{
    Q_OBJECT
public:
    explicit SkeletonEvaluation(QObject *parent = nullptr);

    /// Projects TEXT on MODEL and schedules UNROLL copies (1..core::kMaxUnroll) of its body; emits updated().
    void setInputs(const QString &text, const core::CoreModel &model, int unroll);

    /// The last skeleton that parsed and its projection, or none before the first.
    const std::optional<core::Skeleton> &skeleton() const { return m_skeleton; }
    const std::optional<core::SkeletonProjection> &projection() const { return m_projection; }
    /// The schedule at the unroll factor asked for, and the X-model's Z and E there (of the last projection).
    const std::optional<core::Schedule> &schedule() const { return m_schedule; }
    const std::optional<core::SkeletonWorkload> &workload() const { return m_workload; }
    /// The parse error of the last text ("skeleton:3:7: ..."), empty when it parsed.
    const QString &error() const { return m_error; }

Q_SIGNALS:
    void updated();

private:
    std::optional<core::Skeleton> m_skeleton;
    std::optional<core::SkeletonProjection> m_projection;
    std::optional<core::Schedule> m_schedule;
    std::optional<core::SkeletonWorkload> m_workload;
    QString m_error;
};

} // namespace crossroof::widgets
