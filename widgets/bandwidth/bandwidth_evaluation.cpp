// SPDX-License-Identifier: GPL-3.0-or-later
#include "bandwidth/bandwidth_evaluation.h"

#include "core/support/error.h"
#include "state/trace_state.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace crossroof::widgets {

BandwidthEvaluation::BandwidthEvaluation(TraceState *traces, QObject *parent)
    : QObject(parent)
    , m_traces(traces)
{
}

const core::MeasuredTrace *BandwidthEvaluation::trace() const
{
    return m_traces->trace(m_traceId);
}

void BandwidthEvaluation::setInputs(const QString &traceId, int window, double limitGbs)
{
    m_traceId = traceId;
    recompute(window, limitGbs);
    Q_EMIT updated();
}

void BandwidthEvaluation::recompute(int window, double limitGbs)
{
    m_curves.clear();
    m_dominance.reset();
    m_error.clear();
    const core::MeasuredTrace *t = trace();
    if (!t)
        return;
    // The median interval; most traces have one length throughout, and a copy of a long trace's lengths to
    // order is its size again in memory.
    const std::vector<double> &lengths = t->extra;
    if (std::adjacent_find(lengths.begin(), lengths.end(), std::not_equal_to<>()) == lengths.end()) {
        m_unitSeconds = lengths.front();
    } else {
        std::vector<double> seconds = lengths;
        std::nth_element(seconds.begin(), seconds.begin() + std::ptrdiff_t(seconds.size() / 2), seconds.end());
        m_unitSeconds = seconds[seconds.size() / 2];
    }
    const std::size_t units = core::pointCount(*t);
    m_window = std::size_t(std::clamp<int>(window, 1, int(units)));
    m_limited = limitGbs > 0;
    const std::size_t own = core::connectionCount(*t);
    m_separateLinks = own > 1 && t->labels != std::vector<std::string>{"reads", "writes"};
    try {
        for (std::size_t c = 0; c < own; ++c) {
            const auto bytes = core::connectionBytes(*t, c);
            m_curves.push_back({QString::fromStdString(t->labels[c]),
                                std::vector<double>(bytes.begin(), bytes.end()),
                                {},
                                {},
                                m_limited ? limitGbs : 0.0});
        }
        if (own > 1) {
            std::vector<double> total(units, 0.0);
            for (std::size_t c = 0; c < own; ++c) {
                for (std::size_t u = 0; u < units; ++u)
                    total[u] += m_curves[c].bytes[u];
            }
            const double totalLimit = m_limited ? limitGbs * double(m_separateLinks ? own : 1) : 0.0;
            m_curves.push_back({tr("total"), std::move(total), {}, {}, totalLimit});
        }
        // Without a limit the curves are sorted under one no demand reaches: nothing is over it.
        for (auto &c : m_curves) {
            const double limit = m_limited ? c.limit_gbs * 1e9 * m_unitSeconds : std::numeric_limits<double>::max();
            c.curve = core::bandwidthCurve(c.bytes, m_window, limit);
            c.smoothed = core::smoothDemand(c.bytes, m_window);
        }
        if (own > 1 && m_limited) {
            std::vector<core::Connection> connections;
            for (const auto &c : m_curves)
                connections.push_back({c.name.toStdString(), c.bytes, c.curve.limit});
            m_dominance = core::dominance(connections, m_window);
        }
    } catch (const core::InputError &e) {
        m_error = QStringLiteral("%1: %2").arg(QString::fromStdString(t->source),
                                               QString::fromStdString(e.what()));
        m_curves.clear();
        m_dominance.reset();
    }
}

} // namespace crossroof::widgets
