// SPDX-License-Identifier: GPL-3.0-or-later
#include "occupancy/occupancy_evaluation.h"

#include "core/support/error.h"
#include "state/occupancy_state.h"

namespace crossroof::widgets {

core::SweepRange OccupancyEvaluation::sweepRange(const core::ComputeCapability &cc, core::SweepVariable v)
{
    // Every block size: warps are allocated per 32 threads, so 33..64 threads take two warps, as 64 do,
    // while the paper's rule counts threads. A curve through the multiples of 32 alone drew 33..63 at 32's
    // value (1,024 points cost well under a millisecond).
    if (v == core::SweepVariable::ThreadsPerBlock)
        return {1, core::kMaxThreadsPerBlock, 1};
    return core::defaultSweepRange(cc, v);
}

OccupancyEvaluation::OccupancyEvaluation(OccupancyState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
{
    connect(m_state, &OccupancyState::changed, this, &OccupancyEvaluation::recompute);
    recompute();
}

void OccupancyEvaluation::recompute()
{
    m_sweeps = {};
    if (m_state->result()) {
        const auto &cc = core::computeCapability(m_state->computeCapability());
        for (std::size_t i = 0; i < kSweeps.size(); ++i) {
            try {
                m_sweeps[i] = core::sweepOccupancy(cc, m_state->input(), m_state->mode(), kSweeps[i],
                                                   sweepRange(cc, kSweeps[i]));
            } catch (const core::InputError &) {
                // Left empty: the view draws no curve for it.
            }
        }
    }
    Q_EMIT updated();
}

} // namespace crossroof::widgets
