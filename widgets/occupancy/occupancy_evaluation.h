// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/occupancy/occupancy.h"

#include <QObject>

#include <array>
#include <optional>

namespace crossroof::widgets {

class OccupancyState;

/// The occupancy calculator's sweeps: occupancy against threads per block, registers per thread and shared
/// memory per block around the occupancy state's launch configuration (the result itself is the state's).
/// Recomputed on the GUI thread whenever the state changes (three sweeps of a few hundred points); updated()
/// follows.
class OccupancyEvaluation : public QObject
{
    Q_OBJECT
public:
    /// What each sweep varies, in the order sweeps() holds them.
    static constexpr std::array<core::SweepVariable, 3> kSweeps {core::SweepVariable::ThreadsPerBlock,
                                                                 core::SweepVariable::RegistersPerThread,
                                                                 core::SweepVariable::SharedMemoryPerBlock};

    explicit OccupancyEvaluation(OccupancyState *state, QObject *parent = nullptr);

    /// The range each sweep covers: every block size from 1 to 1,024 threads (the view draws each value up
    /// to the next block size), core's defaultSweepRange() for the others.
    static core::SweepRange sweepRange(const core::ComputeCapability &cc, core::SweepVariable v);

    /// The sweeps of kSweeps over sweepRange(); none where core refuses one, all none while the configuration is invalid.
    const std::array<std::optional<core::OccupancySweep>, 3> &sweeps() const { return m_sweeps; }

    /// Recomputes the sweeps (also on every state change) and emits updated().
    void recompute();

Q_SIGNALS:
    void updated();

private:
    OccupancyState *m_state;
    std::array<std::optional<core::OccupancySweep>, 3> m_sweeps;
};

} // namespace crossroof::widgets
