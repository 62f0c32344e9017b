// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov_counters.h"
#include "core/traces/perf_stat.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace crossroof::widgets {

/// The two `perf stat -x` runs the counters dialog reads (Mitra's thesis, 4.2.6): the
/// multi-threaded run gives the instructions retired and the measured CPI; once both are read, the suspend
/// events are the events counted in both (without cycles, instructions and time-valued events such as
/// cpu-clock).
class CounterRuns
{
    Q_DECLARE_TR_FUNCTIONS(CounterRuns)
public:
    enum class Run { Single, Multi };

    /// What reading a run gave: the error (naming the file and the line) and nothing else, or a status
    /// line and, when the run changes them, the new inputs.
    struct Outcome {
        QString error;
        QString status;
        std::optional<core::CounterInputs> inputs;
    };

    /// Reads PATH as RUN and keeps it (only on success); CURRENT are the inputs it changes.
    Outcome read(const QString &path, Run run, const core::CounterInputs &current);
    /// Forgets both runs.
    void clear();

private:
    std::optional<core::PerfStat> m_single; ///< events only
    std::optional<core::PerfStat> m_multi;
};

} // namespace crossroof::widgets
