// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// An event that suspends an active thread (for p, Eq. 5-6): its count in the multi-threaded and in the
/// single-threaded run of the same work.
struct SuspendEvent
{
    std::string name;
    double multi = 0;  ///< E_i,multi
    double single = 0; ///< E_i,single

    bool operator==(const SuspendEvent &) const = default;
};

/// An event that keeps a thread suspended (for q, Eq. 7-8): how often it occurs and its average latency.
struct StallEvent
{
    std::string name;
    double count = 0;   ///< occurrences
    double latency = 1; ///< m_i, stall cycles per occurrence (>= 1)

    bool operator==(const StallEvent &) const = default;
};

/// Everything p and q are estimated from (4.2.6, 4.2.7), as a user enters or imports it.
struct CounterInputs
{
    double instructions = 0;           ///< instructions retired by the multi-threaded run
    std::vector<SuspendEvent> suspend; ///< events that suspend a thread, for p
    std::vector<StallEvent> stall;     ///< events that keep it suspended, for q
    std::optional<double> measured_cpi; ///< of the multi-threaded run; picks the nearest starting pair

    /// The thesis' worked example (4.3.3): Tables 4.4 (50 instructions, events A-C) and 4.5 (events X-W).
    static CounterInputs thesisExample();

    bool operator==(const CounterInputs &) const = default;
};

/// Which boundary case of the per-event contributions (4.3.1).
enum class PecKind { Lowest, Highest, All };

std::string_view pecKindName(PecKind kind); ///< "lowest", "highest", "all"

/// The PEC vector (lowest, highest, all) of p or q, with the events that give the first two.
struct PecVector
{
    double lowest = 0;
    double highest = 0;
    double all = 0;
    std::optional<std::size_t> lowest_event;  ///< index into the events; none when no event contributes
    std::optional<std::size_t> highest_event;

    double value(PecKind kind) const;
};

/// p from counters (4.2.6, Table 4.4).
struct PEstimate
{
    std::vector<double> pec;    ///< (E_i,multi - E_i,single) / instructions per event, negative ones included
    std::vector<bool> rejected; ///< pec < 0: the event is no cause of stalls (fewer in the parallel run)
    PecVector vector;           ///< lowest and highest accepted PEC; all = p = sum of the accepted ones
};

/// q from counters (4.2.7, Table 4.5).
struct QEstimate
{
    std::vector<double> q;      ///< per event q_i = 1 - 1/m_i (Eq. 7)
    std::vector<double> cycles; ///< c_i = count_i * m_i, the event's stall cycles: its contribution
    double mean_latency = 1;    ///< M = sum(c_i m_i) / sum(c_i) (Eq. 8 with w_i = c_i / sum c)
    PecVector vector;           ///< q_i of the events with the lowest and highest c_i; all = 1 - 1/M
};

/// p = sum_i max(0, E_i,multi - E_i,single) / instructions (Eq. 6). Throws InputError naming the event on a
/// negative or non-finite count, on instructions <= 0, or when p exceeds 1.
PEstimate estimateP(std::span<const SuspendEvent> events, double instructions);

/// q_i = 1 - 1/m_i per event and q = 1 - 1/M for all of them. Throws InputError naming the event on a
/// negative count, a latency below 1 cycle, or when no event has any stall cycle.
/// The PEC vector's lowest and highest are the events that contribute the fewest and the most stall cycles,
/// as Table 4.5 marks them (event Y, 10 cycles, q = 0.8; event Z, 150 cycles, q = 0.9; the table prints
/// "1 - 1/10 = 0.1", a slip for 0.9).
QEstimate estimateQ(std::span<const StallEvent> events);

/// One of the nine starting points (4.3.1, items a-i).
struct StartingPair
{
    PecKind p_kind = PecKind::All;
    PecKind q_kind = PecKind::All;
    double p = 0;
    double q = 0;
};

/// The Starting Vector in the thesis' order: (lowest p, lowest q), (lowest p, highest q), (lowest p, all q),
/// (highest p, ...), (all p, ...).
std::array<StartingPair, 9> startingPairs(const PecVector &p, const PecVector &q);

/// The starting pair whose predicted CPI (exact solver, the same p and q in every group) is nearest the
/// measured CPI (4.3.2).
struct NearestPair
{
    std::size_t index = 0;     ///< into the pairs
    std::vector<double> cpi;   ///< predicted CPI of every pair, +infinity where absorbing
    double error = 0;          ///< |predicted - measured| of the chosen one
};

/// Why a measured CPI below 1 is refused: the model's CPI = 1 / (1 - P_all) is at least 1, one instruction
/// per cycle when no thread is suspended, while a superscalar core retires several per cycle.
std::string measuredCpiBelowOne(double measuredCpi);

/// Throws InputError for invalid thread counts or a measured CPI that is not a finite number >= 1 (below 1
/// with measuredCpiBelowOne()'s reason).
NearestPair nearestStartingPair(std::span<const StartingPair> pairs, std::span<const int> threadsPerGroup,
                                double measuredCpi, std::optional<long long> steps = std::nullopt);

/// The events perf stat counts for p and q when no run names them yet: cycles and instructions for the
/// measured CPI and the instructions retired, and three kinds of miss that suspend a thread (last-level cache
/// load misses, data TLB misses, branch mispredictions), perf's generic names, known on every x86 and ARM core.
const std::vector<std::string> &defaultRecordingEvents();

/// The two command lines that record the runs p needs (4.2.6): the same work multi-threaded, and on one CPU
/// (taskset -c 0), each counting EVENTS with perf stat -x, into multi.csv and single.csv. PROGRAM is the
/// command that runs the work. Events that hold characters a shell would take (braces, spaces, quotes) are
/// quoted as a whole list.
struct RecordingCommands
{
    std::string multi;
    std::string single;
};
RecordingCommands recordingCommands(std::span<const std::string> events, std::string_view program);

struct PQPoint
{
    double p = 0;
    double q = 0;
};

/// The iso-CPI curve at steady state: the (p, q) pairs with the given CPI, as a polyline ordered by q.
/// Closed form: P_all = 1 - 1/CPI, s = P_all^(1/N), p = s (1 - q) / (1 - s) for every q of QVALUES with
/// p <= 1, plus the end point where p reaches 1 (q = 2 - 1/s). CPI = 1 gives the line p = 0.
/// Throws InputError for invalid thread counts, q outside [0, 1], or a CPI that is not finite or below 1.
std::vector<PQPoint> isoCpiCurve(std::span<const int> threadsPerGroup, double cpi,
                                 std::span<const double> qValues);

} // namespace crossroof::core
