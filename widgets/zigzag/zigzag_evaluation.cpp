// SPDX-License-Identifier: GPL-3.0-or-later
#include "zigzag/zigzag_evaluation.h"

#include "core/support/error.h"
#include "state/occupancy_state.h"

#include <QLocale>

#include <cmath>

namespace crossroof::widgets {

double parseTmmNumber(const QString &text, const std::string &what)
{
    bool ok = false;
    const double v = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok)
        throw core::InputError(what + ": not a number (got '" + text.trimmed().toStdString() + "')");
    return v;
}

long long parseTmmCount(const QString &text, const std::string &what)
{
    const double v = parseTmmNumber(text, what);
    if (!std::isfinite(v) || std::abs(v) > 1e18 || v != std::floor(v))
        throw core::InputError(what + ": must be a whole number (got '" + text.trimmed().toStdString()
                               + "')");
    return static_cast<long long>(v);
}

ZigzagEvaluation::ZigzagEvaluation(OccupancyState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
{
}

void ZigzagEvaluation::recomputeZigzag()
{
    m_zigzag.reset();
    m_zigzagError.clear();
    const int ba = m_state->activeBlocks();
    if (ba > 0) {
        try {
            m_zigzag = core::zigzag(m_state->smCount(), ba, 1, m_state->requestedBlocksMax());
        } catch (const core::InputError &e) {
            m_zigzagError = QString::fromStdString(e.what());
        }
    }
    Q_EMIT zigzagUpdated();
}

void ZigzagEvaluation::setTmmSettings(const core::TmmSettings &s)
{
    m_tmm.reset();
    m_tmmError.clear();
    m_requestedBlocks = 0;
    auto text = [](const std::string &t) { return QString::fromStdString(t); };
    try {
        core::TmmParams p;
        p.work = parseTmmNumber(text(s.work), "work T1");
        p.span = parseTmmNumber(text(s.span), "span T_inf");
        p.transactions = parseTmmNumber(text(s.transactions), "memory transactions M");
        p.latency = parseTmmNumber(text(s.latency), "latency L");
        p.threads_per_core = parseTmmNumber(text(s.threads_per_core), "threads per core T");
        p.cores = parseTmmNumber(text(s.cores), "cores P");
        m_requestedBlocks = parseTmmCount(text(s.requested_blocks), "requested blocks B_r");
        p.requested_blocks = m_requestedBlocks;
        p.active_blocks = m_state->activeBlocks();
        p.sms = m_state->smCount();
        m_tmm = core::evaluateTmm(p);
    } catch (const core::InputError &e) {
        m_tmmError = QString::fromStdString(e.what());
    }
    Q_EMIT tmmUpdated();
}

} // namespace crossroof::widgets
