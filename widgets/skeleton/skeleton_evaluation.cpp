// SPDX-License-Identifier: GPL-3.0-or-later
#include "skeleton/skeleton_evaluation.h"

#include "core/support/error.h"

#include <utility>

namespace crossroof::widgets {

SkeletonEvaluation::SkeletonEvaluation(QObject *parent)
    : QObject(parent)
{
}

void SkeletonEvaluation::setInputs(const QString &text, const core::CoreModel &model, int unroll)
{
    try {
        core::Skeleton skeleton = core::parseSkeleton(text.toStdString(), "skeleton");
        core::SkeletonProjection projection = core::projectSkeleton(skeleton, model);
        m_skeleton = std::move(skeleton);
        m_projection = std::move(projection);
        m_error.clear();
    } catch (const core::InputError &e) {
        // Keep the last good projection while the text is being typed.
        m_error = QString::fromUtf8(e.what());
    }
    if (m_projection) {
        m_schedule = core::scheduleCopies(m_projection->graph, unroll, model);
        m_workload = core::deriveWorkload(*m_projection, *m_skeleton, model, unroll);
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
