// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/perf_stat.h"

#include "core/support/error.h"
#include "core/support/numbers.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/support/text_file.h"
#include "core/traces/gpu_benches_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace crossroof::core {

namespace {

constexpr std::string_view kNotCounted = "<not counted>";
constexpr std::string_view kNotSupported = "<not supported>";

bool isCpuField(std::string_view s)
{
    return s.size() > 3 && s.substr(0, 3) == "CPU"
            && std::all_of(s.begin() + 3, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isValueField(std::string_view s)
{
    return s == kNotCounted || s == kNotSupported || parseNumber(s).has_value();
}

std::string shown(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    return s.size() <= kMax ? std::string(s) : std::string(s.substr(0, kMax)) + "...";
}

/// Splits one line; fields keep their text untrimmed (events may hold spaces), numbers are trimmed later.
std::vector<std::string_view> split(std::string_view line, char sep)
{
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const auto at = line.find(sep, start);
        fields.push_back(
                line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            break;
        start = at + 1;
    }
    return fields;
}

class Parser
{
public:
    explicit Parser(const std::string &source)
        : m_source(source)
    {
    }

    [[noreturn]] void fail(int line, const std::string &problem) const
    {
        throw InputError(m_source + ":" + std::to_string(line) + ": " + problem);
    }

    [[noreturn]] void failField(int line, std::string_view field, const std::string &problem) const
    {
        fail(line, "field '" + std::string(field) + "': " + problem);
    }

    double number(int line, std::string_view field, std::string_view text, bool allowEmpty,
                  double empty) const
    {
        const std::string_view t = trimBlanks(text);
        if (t.empty()) {
            if (allowEmpty)
                return empty;
            failField(line, field, "is empty");
        }
        const auto v = parseNumber(t);
        if (!v)
            failField(line, field, "'" + shown(t) + "' is not a number");
        if (!std::isfinite(*v))
            failField(line, field, "'" + shown(t) + "' is not a finite number");
        if (*v < 0)
            failField(line, field, "must not be negative (got " + shown(t) + ")");
        return *v;
    }

    void checkText(int line, std::string_view text) const
    {
        for (std::size_t i = 0; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "0x%02x", unsigned(c));
                fail(line, std::string("binary data (byte ") + buf + " in column " + std::to_string(i + 1)
                             + "); not perf stat -x text");
            }
        }
    }

    void detectLayout(PerfStat &stat, std::string_view line)
    {
        stat.separator = line.find('\t') != std::string_view::npos ? '\t' : ',';
        const auto f = split(line, stat.separator);
        const std::string_view f0 = trimBlanks(f[0]);
        const std::string_view f1 = f.size() > 1 ? trimBlanks(f[1]) : std::string_view();
        if (isCpuField(f0)) {
            stat.per_cpu = true;
        } else if (isCpuField(f1)) {
            stat.interval_mode = true;
            stat.per_cpu = true;
        } else {
            // Without -I the second field is the unit (never a number); with -I it is the value.
            stat.interval_mode = parseNumber(f0).has_value() && isValueField(f1);
        }
    }

    PerfStatRecord record(const PerfStat &stat, int line, std::string_view text) const
    {
        const auto f = split(text, stat.separator);
        const std::size_t prefix = (stat.interval_mode ? 1 : 0) + (stat.per_cpu ? 1 : 0);
        const std::size_t least = prefix + 5;
        const std::size_t most = prefix + 7;
        const std::string names = std::string(stat.interval_mode ? "time, " : "")
                                  + (stat.per_cpu ? "CPU, " : "")
                                  + "value, unit, event, run time, percentage";
        if (f.size() < least) {
            fail(line, std::to_string(f.size()) + (f.size() == 1 ? " field" : " fields")
                         + ", expected at least " + std::to_string(least) + " (" + names + ")");
        }
        if (f.size() > most) {
            fail(line, std::to_string(f.size()) + " fields, expected at most " + std::to_string(most) + " ("
                         + names + ", metric value, metric unit); is the separator right?");
        }
        PerfStatRecord r;
        r.line = line;
        std::size_t k = 0;
        if (stat.interval_mode)
            r.time = number(line, "time", f[k++], false, 0);
        if (stat.per_cpu) {
            const std::string_view cpu = trimBlanks(f[k++]);
            if (!isCpuField(cpu) || cpu.size() > 9)
                failField(line, "CPU", "'" + shown(cpu) + "' is not CPU<number>");
            r.cpu = std::stoi(std::string(cpu.substr(3)));
        }
        const std::string_view value = trimBlanks(f[k++]);
        if (value != kNotCounted && value != kNotSupported)
            r.value = number(line, "value", value, false, 0);
        r.unit = std::string(trimBlanks(f[k++]));
        r.event = std::string(trimBlanks(f[k++]));
        if (r.event.empty())
            failField(line, "event", "is empty");
        r.run_time = number(line, "run time", f[k++], true, 0);
        r.enabled_percent = number(line, "percentage", f[k++], true, 100);
        if (r.enabled_percent > 100.0001)
            failField(line, "percentage", "must be at most 100 (got " + shown(trimBlanks(f[k - 1])) + ")");
        if (k < f.size()) {
            // Derived metrics may be nan where perf divides by zero: keep them absent rather than fail.
            const std::string_view metric = trimBlanks(f[k++]);
            if (!metric.empty()) {
                const auto v = parseNumber(metric);
                if (!v)
                    failField(line, "metric value", "'" + shown(metric) + "' is not a number");
                if (std::isfinite(*v))
                    r.metric_value = *v;
            }
        }
        if (k < f.size())
            r.metric_unit = std::string(trimBlanks(f[k++]));
        return r;
    }

    PerfStat parse(std::string_view text)
    {
        PerfStat stat;
        stat.source = m_source;
        if (text.size() > kPerfStatMaxBytes) {
            throw InputError(m_source + ": " + std::to_string(text.size()) + " bytes, over the "
                             + std::to_string(kPerfStatMaxBytes / (1024 * 1024))
                             + " MiB limit for perf stat files");
        }
        bool layoutKnown = false;
        bool anyText = false;
        LineReader lines(text);
        while (const auto next = lines.next()) {
            const std::string_view raw = *next;
            const int line = lines.number();
            checkText(line, raw);
            const std::string_view content = trimBlanks(raw);
            if (content.empty())
                continue;
            anyText = true;
            if (content.front() == '#')
                continue;
            const std::string_view body = raw.back() == '\r' ? raw.substr(0, raw.size() - 1) : raw;
            if (!layoutKnown) {
                detectLayout(stat, body);
                layoutKnown = true;
            }
            stat.records.push_back(record(stat, line, body));
        }
        if (stat.records.empty()) {
            throw InputError(m_source + (anyText ? ": no perf stat records, only comment lines"
                                                 : ": empty file, no perf stat records"));
        }
        summarise(stat);
        return stat;
    }

private:
    void summarise(PerfStat &stat) const
    {
        for (const auto &r : stat.records) {
            if (r.cpu >= 0)
                stat.cpus.push_back(r.cpu);
            if (r.time)
                stat.times.push_back(*r.time);
        }
        const auto sortUnique = [](auto &v) {
            std::sort(v.begin(), v.end());
            v.erase(std::unique(v.begin(), v.end()), v.end());
        };
        sortUnique(stat.cpus);
        sortUnique(stat.times);
        std::map<int, std::size_t> cpuIndex;
        for (std::size_t i = 0; i < stat.cpus.size(); ++i)
            cpuIndex[stat.cpus[i]] = i;
        std::map<double, std::size_t> timeIndex;
        for (std::size_t i = 0; i < stat.times.size(); ++i)
            timeIndex[stat.times[i]] = i;

        std::unordered_map<std::string, std::size_t> eventIndex;
        for (const auto &r : stat.records) {
            auto [it, added] = eventIndex.try_emplace(r.event, stat.events.size());
            if (added) {
                PerfStatEvent e;
                e.name = r.event;
                e.unit = r.unit;
                e.cpu_slots = std::max<std::size_t>(1, stat.cpus.size());
                e.interval_slots = std::max<std::size_t>(1, stat.times.size());
                stat.events.push_back(std::move(e));
            }
            PerfStatEvent &e = stat.events[it->second];
            if (!r.value) {
                ++e.not_counted;
                continue;
            }
            ++e.readings;
            e.total += *r.value;
            e.cpu_sums.emplace_back(r.cpu >= 0 ? cpuIndex[r.cpu] : 0, *r.value);
            e.interval_sums.emplace_back(r.time ? timeIndex[*r.time] : 0, *r.value);
            // Every sum is at most the total, so one check holds for all of them.
            if (!std::isfinite(e.total)) {
                failField(r.line, "value", "the counts of event '" + quoteForMessage(e.name)
                                                   + "' add up to more than a double holds (about 1.8e308)");
            }
        }
        for (PerfStatEvent &e : stat.events) {
            mergeSums(e.cpu_sums);
            mergeSums(e.interval_sums);
        }
    }

    /// One entry per index, ascending, each the sum of its readings in the order of the file.
    static void mergeSums(std::vector<std::pair<std::size_t, double>> &sums)
    {
        std::stable_sort(sums.begin(), sums.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        std::size_t out = 0;
        for (std::size_t i = 0; i < sums.size(); ++i) {
            if (out > 0 && sums[out - 1].first == sums[i].first)
                sums[out - 1].second += sums[i].second;
            else
                sums[out++] = sums[i];
        }
        sums.resize(out);
        sums.shrink_to_fit();
    }

    std::string m_source;
};

} // namespace

namespace {

std::vector<double> dense(const std::vector<std::pair<std::size_t, double>> &sums, std::size_t slots)
{
    std::vector<double> out(slots, 0.0);
    for (const auto &[index, sum] : sums)
        out[index] = sum;
    return out;
}

} // namespace

std::vector<double> PerfStatEvent::perCpu() const
{
    return dense(cpu_sums, cpu_slots);
}

std::vector<double> PerfStatEvent::perInterval() const
{
    return dense(interval_sums, interval_slots);
}

const PerfStatEvent *PerfStat::find(std::string_view name) const
{
    for (const auto &e : events) {
        if (e.name == name)
            return &e;
    }
    const PerfStatEvent *found = nullptr;
    for (const auto &e : events) {
        const std::string_view base = std::string_view(e.name).substr(0, e.name.find(':'));
        if (base == name) {
            if (found)
                return nullptr; // ambiguous: "cycles:u" and "cycles:k"
            found = &e;
        }
    }
    return found;
}

const PerfStatEvent &PerfStat::event(std::string_view name) const
{
    if (const PerfStatEvent *e = find(name))
        return *e;
    std::vector<std::string> names;
    for (const auto &e : events)
        names.push_back(e.name);
    throw InputError(source + ": no single event '" + brief(name) + "' (events: " + briefList(names) + ")");
}

PerfStat parsePerfStat(std::string_view text, const std::string &source)
{
    // A gpu-benches output has numbers first too: named, not read as broken records.
    if (const auto bench = detail::gpuBenchesFormat(text.substr(0, 64 * 1024)))
        throw InputError(source + ": " + std::string(traceFormatTitle(*bench)) + ", not perf stat output");
    return Parser(source).parse(text);
}

PerfStat readPerfStat(const std::string &path)
{
    return parsePerfStat(readTextFile(path, kPerfStatMaxBytes, "perf stat files"), path);
}

double cyclesPerInstruction(const PerfStat &stat, std::string_view cycles, std::string_view instructions)
{
    const PerfStatEvent &c = stat.event(cycles);
    const PerfStatEvent &i = stat.event(instructions);
    if (!(i.total > 0))
        throw InputError(stat.source + ": event '" + i.name + "' counted no instructions");
    return c.total / i.total;
}

std::vector<std::optional<double>>
cyclesPerInstructionPerInterval(const PerfStat &stat, std::string_view cycles, std::string_view instructions)
{
    const PerfStatEvent &c = stat.event(cycles);
    const PerfStatEvent &i = stat.event(instructions);
    const std::vector<double> cycleSums = c.perInterval();
    const std::vector<double> instructionSums = i.perInterval();
    std::vector<std::optional<double>> cpi(instructionSums.size());
    for (std::size_t k = 0; k < cpi.size(); ++k) {
        if (instructionSums[k] > 0)
            cpi[k] = cycleSums[k] / instructionSums[k];
    }
    return cpi;
}

} // namespace crossroof::core
