// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/markov_counters.h"
#include "core/traces/perf_counters.h"
#include "core/traces/perf_stat.h"

#include <QCoreApplication>
#include <QString>

#include <cstddef>
#include <optional>

namespace crossroof::widgets {

/// The two `perf stat -x` runs the counters dialog reads (Mitra's thesis, 4.2.6) and the use of each of their
/// events (core::mapPerfEvents(): by name, changed by the user): the multi-threaded run gives the
/// instructions retired and the measured CPI, both runs the suspend events' counts, the stall events their
/// counts (their latencies the user's). What a use lacks is named (core::PerfCounterInputs), never filled in.
class CounterRuns
{
    Q_DECLARE_TR_FUNCTIONS(CounterRuns)
public:
    enum class Run { Single, Multi };

    /// What reading a run or changing a use gave: the error (naming the file and the line, or the event)
    /// and nothing else, or a status line and, when the inputs change, the new ones.
    struct Outcome {
        QString error;
        QString status;
        std::optional<core::CounterInputs> inputs;
    };

    /// Reads PATH as RUN and keeps it (only on success); CURRENT are the inputs it changes. The uses the user
    /// set stay for the events the runs still have. A run with the same counts as the other one (the same
    /// file, or the same run recorded twice) is refused: p would be 0 for every event.
    Outcome read(const QString &path, Run run, const core::CounterInputs &current);
    /// Takes CPU's counts in the multi-threaded run (perf stat -A) as the single-threaded run: each event's
    /// count on that CPU, scaled by the run's instructions over that CPU's, so that both runs count the same
    /// instructions. Refused without a per-CPU multi-threaded run, for a CPU it has not, or without instructions.
    Outcome singleFromCpu(int cpu, const core::CounterInputs &current);
    /// The CPUs of the multi-threaded run (perf stat -A) with the instructions each retired (0 without an
    /// instructions event); empty when it summed them or is not read.
    std::vector<std::pair<int, double>> cpuInstructions() const;
    /// The events the runs should count: those of the mapping used as cycles, instructions, suspend or stall,
    /// else core::defaultRecordingEvents().
    std::vector<std::string> recordingEvents() const;
    /// Sets the use of event ROW of mapping() (a stall use without a latency is kept, and named as missing);
    /// an invalid latency is refused.
    Outcome setUse(std::size_t row, core::CounterUse use, std::optional<double> latency,
                   const core::CounterInputs &current);
    /// Forgets both runs.
    void clear();

    /// Whether the multi-threaded run is read: then mapping() and mapped() hold.
    bool hasMapping() const { return m_mapping.has_value(); }
    const core::PerfCounterMapping &mapping() const { return *m_mapping; }
    const core::PerfCounterInputs &mapped() const { return m_mapped; }
    /// The CPUs the multi-threaded run counted on, one by one (perf stat -A); 0 when it summed them or is not
    /// read. The only trace of the machine that perf stat -x output carries: it names no CPU model.
    std::size_t countedCpus() const { return m_multi && m_multi->per_cpu ? m_multi->cpus.size() : 0; }

private:
    core::CounterInputs apply(const core::CounterInputs &current);
    /// Maps the runs kept and gives the inputs and a status line.
    Outcome remap(const core::CounterInputs &current);

    std::optional<core::PerfStat> m_single; ///< events only
    std::optional<core::PerfStat> m_multi;
    std::optional<core::PerfCounterMapping> m_mapping;
    core::PerfCounterInputs m_mapped;
};

} // namespace crossroof::widgets
