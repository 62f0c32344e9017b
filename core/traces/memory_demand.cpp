// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/memory_demand.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/traces/perf_stat.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace crossroof::core {

namespace {

/// Value of KEY=NUMBER inside a perf event name ("imc/event=0x04,umask=0x0f/"), hex with 0x.
std::optional<unsigned> eventField(std::string_view name, std::string_view key)
{
    std::size_t at = 0;
    while ((at = name.find(key, at)) != std::string_view::npos) {
        const bool boundary = at == 0 || name[at - 1] == '/' || name[at - 1] == ',';
        at += key.size();
        if (!boundary || at >= name.size() || name[at] != '=')
            continue;
        std::string_view v = name.substr(at + 1);
        v = v.substr(0, v.find_first_of(",/"));
        int base = 10;
        if (v.starts_with("0x") || v.starts_with("0X")) {
            v.remove_prefix(2);
            base = 16;
        }
        return parseInteger<unsigned>(v, base);
    }
    return std::nullopt;
}

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

bool isCasEvent(std::string_view name, bool read)
{
    if (contains(name, read ? "cas_count_read" : "cas_count_write")
        || contains(name, read ? "cas_count.rd" : "cas_count.wr"))
        return true;
    if (!contains(name, "imc"))
        return false;
    const auto event = eventField(name, "event");
    const auto umask = eventField(name, "umask");
    if (!event || *event != 0x04 || !umask)
        return false;
    return read ? (*umask == 0x0f || *umask == 0x03) : (*umask == 0x30 || *umask == 0x0c);
}

/// The line of STAT's last reading of EVENT in interval I (the one whose count made a sum overflow), or of
/// the interval's first reading when EVENT is empty.
int lineOf(const PerfStat &stat, std::size_t i, std::string_view event)
{
    int line = 0;
    for (const PerfStatRecord &r : stat.records) {
        if (r.time != stat.times[i] || (!event.empty() && r.event != event))
            continue;
        line = r.line;
        if (event.empty())
            break;
    }
    return line;
}

[[noreturn]] void failTooLarge(const PerfStat &stat, std::size_t i, std::string_view event,
                               const std::string &what)
{
    throw InputError(stat.source + ":" + std::to_string(lineOf(stat, i, event)) + ": field 'value': " + what
                     + " in the interval ending at " + formatNumber(stat.times[i])
                     + " s: more bytes than a double holds (about 1.8e308)");
}

} // namespace

std::vector<double> MemoryDemand::gbs() const
{
    std::vector<double> out(bytes.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = seconds[i] > 0 ? bytes[i] / seconds[i] / 1e9 : 0.0;
    return out;
}

MemoryDemand memoryDemandFromPerfStat(const PerfStat &stat, double bytesPerCas)
{
    if (!stat.interval_mode || stat.times.empty()) {
        throw InputError(stat.source
                         + ": not interval output; a demand trace needs perf stat -I (one line per "
                           "interval)");
    }
    if (!std::isfinite(bytesPerCas) || bytesPerCas <= 0)
        throw InputError("memory demand: bytes per CAS must be a finite number > 0 (got " + formatNumber(bytesPerCas)
                         + ")");
    MemoryDemand m;
    m.times = stat.times;
    m.seconds.resize(m.times.size());
    for (std::size_t i = 0; i < m.times.size(); ++i)
        m.seconds[i] = m.times[i] - (i ? m.times[i - 1] : 0.0);
    m.read_bytes.assign(m.times.size(), 0.0);
    m.write_bytes.assign(m.times.size(), 0.0);
    for (const PerfStatEvent &e : stat.events) {
        for (const bool read : {true, false}) {
            if (!isCasEvent(e.name, read))
                continue;
            (read ? m.read_events : m.write_events).push_back(e.name);
            auto &target = read ? m.read_bytes : m.write_bytes;
            for (const auto &[i, sum] : e.interval_sums) {
                target[i] += sum * bytesPerCas;
                if (!std::isfinite(target[i])) {
                    const bool alone = !std::isfinite(sum * bytesPerCas);
                    failTooLarge(stat, i, e.name,
                                 "event '" + quoteForMessage(e.name) + "' counts " + formatNumber(sum)
                                         + " CAS x " + formatNumber(bytesPerCas) + " bytes"
                                         + (alone ? "" : read ? " with the other read events"
                                                              : " with the other write events"));
                }
            }
        }
    }
    if (m.read_events.empty() || m.write_events.empty()) {
        std::vector<std::string> names;
        for (const auto &e : stat.events)
            names.push_back(e.name);
        const std::string list = briefList(names);
        throw InputError(stat.source + ": no memory-controller CAS "
                         + (m.read_events.empty() ? "read" : "write") + " event (e.g. imc/event=0x04,umask="
                         + (m.read_events.empty() ? "0x0f" : "0x30") + "/); events: " + list);
    }
    // Per reporting CPU (perf stat -A): each socket's memory controllers.
    if (stat.per_cpu) {
        std::vector<std::string> cas;
        for (const auto &names : {m.read_events, m.write_events})
            cas.insert(cas.end(), names.begin(), names.end());
        for (const PerfStatRecord &r : stat.records) {
            if (!r.value || !r.time || r.cpu < 0 || std::find(cas.begin(), cas.end(), r.event) == cas.end())
                continue;
            const auto cpu = std::lower_bound(m.cpus.begin(), m.cpus.end(), r.cpu);
            if (cpu == m.cpus.end() || *cpu != r.cpu) {
                m.cpu_bytes.insert(m.cpu_bytes.begin() + (cpu - m.cpus.begin()),
                                   std::vector<double>(m.times.size(), 0.0));
                m.cpus.insert(cpu, r.cpu);
            }
            const auto slot = std::size_t(std::lower_bound(m.cpus.begin(), m.cpus.end(), r.cpu) - m.cpus.begin());
            const auto i = std::size_t(std::lower_bound(m.times.begin(), m.times.end(), *r.time) - m.times.begin());
            if (i < m.times.size())
                m.cpu_bytes[slot][i] += *r.value * bytesPerCas; // a part of the interval's sum: finite
        }
    }
    m.bytes.resize(m.times.size());
    for (std::size_t i = 0; i < m.bytes.size(); ++i) {
        m.bytes[i] = m.read_bytes[i] + m.write_bytes[i];
        if (!std::isfinite(m.bytes[i]))
            failTooLarge(stat, i, {}, "reads " + formatNumber(m.read_bytes[i]) + " and writes "
                                          + formatNumber(m.write_bytes[i]) + " bytes");
    }
    return m;
}

} // namespace crossroof::core
