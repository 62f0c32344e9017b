// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace crossroof::core {

/// One reading: one line of `perf stat -x SEP` output.
struct PerfStatRecord
{
    std::optional<double> time;   ///< end of the interval in seconds (interval mode, -I)
    int cpu = -1;                 ///< CPU number with -A (per CPU); -1 for aggregated output
    std::optional<double> value;  ///< none for <not counted> and <not supported>
    std::string unit;             ///< e.g. "msec"; often empty
    std::string event;            ///< as perf prints it, modifiers included ("cycles:D")
    double run_time = 0;          ///< counter run time (ns)
    double enabled_percent = 100; ///< share of the time the counter was on (multiplexing)
    std::optional<double> metric_value;
    std::string metric_unit;
    int line = 0;                 ///< 1-based line in the file
};

/// One event, summed over the readings that were counted.
struct PerfStatEvent
{
    std::string name;
    std::string unit;
    double total = 0;                 ///< over every interval and CPU
    int readings = 0;                 ///< counted readings
    int not_counted = 0;              ///< <not counted> or <not supported> readings
    /// The sums where the event was counted, as (index into PerfStat::cpus or PerfStat::times, sum), ascending
    /// by index (index 0 without -A or -I). Sparse, so that the memory follows the file's lines: a file of many
    /// events on few CPUs or intervals each would otherwise hold events x (CPUs + intervals) numbers.
    std::vector<std::pair<std::size_t, double>> cpu_sums;
    std::vector<std::pair<std::size_t, double>> interval_sums;
    std::size_t cpu_slots = 1;      ///< PerfStat::cpus' size, 1 without -A
    std::size_t interval_slots = 1; ///< PerfStat::times' size, 1 without -I

    /// The sums aligned with PerfStat::cpus (one entry without -A), 0 where the event was not counted.
    std::vector<double> perCpu() const;
    /// The sums aligned with PerfStat::times (one entry without -I), 0 where the event was not counted.
    std::vector<double> perInterval() const;
};

/// The contents of a `perf stat -x` file (with or without -I interval mode, with or without -A per CPU).
struct PerfStat
{
    std::string source;             ///< the file name, for messages
    char separator = '\t';
    bool interval_mode = false;     ///< lines start with the interval time
    bool per_cpu = false;           ///< lines carry a CPU field ("CPU12")
    std::vector<PerfStatRecord> records;
    std::vector<int> cpus;          ///< ascending; empty without -A
    std::vector<double> times;      ///< ascending interval times; empty without -I
    std::vector<PerfStatEvent> events; ///< in order of first appearance

    /// The event named NAME, or else the only event whose name without modifiers (before ':') is NAME
    /// ("cycles" finds "cycles:D"); nullptr if none or ambiguous.
    const PerfStatEvent *find(std::string_view name) const;
    /// Like find(); throws InputError naming the file and listing the events when there is none.
    const PerfStatEvent &event(std::string_view name) const;
};

/// Largest file readPerfStat() accepts.
inline constexpr std::uintmax_t kPerfStatMaxBytes = 64ull * 1024 * 1024;

/// Parses `perf stat -x` output. Fields per line: [time] [CPU] value unit event run-time percentage
/// [metric-value metric-unit]; '#' lines and blank lines are skipped. The separator is a tab if the first
/// record line has one, else a comma. Throws InputError "SOURCE:LINE: field 'NAME': problem" on anything
/// else: binary data, too few or too many fields, a value that is not a finite number >= 0, a line whose
/// layout differs from the first record's, no records at all, text over kPerfStatMaxBytes, or the counts of
/// one event adding up to more than a double holds (named by the line that passed it).
PerfStat parsePerfStat(std::string_view text, const std::string &source = "<input>");

/// Reads and parses a file; refuses files over kPerfStatMaxBytes before reading them.
PerfStat readPerfStat(const std::string &path);

/// Cycles per instruction, total(cycles) / total(instructions), with the events found as PerfStat::find
/// does. Throws InputError naming a missing event or zero instructions.
double cyclesPerInstruction(const PerfStat &stat, std::string_view cycles = "cycles",
                            std::string_view instructions = "instructions");
/// The same per interval (aligned with PerfStat::times); none for an interval without instructions.
std::vector<std::optional<double>>
cyclesPerInstructionPerInterval(const PerfStat &stat, std::string_view cycles = "cycles",
                                std::string_view instructions = "instructions");

} // namespace crossroof::core
