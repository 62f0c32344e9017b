// SPDX-License-Identifier: GPL-3.0-or-later
// The Markov model's counter inputs from real perf stat files, mapped by the events' names.
#include "core/markov/markov_counters.h"
#include "core/support/error.h"
#include "core/traces/perf_counters.h"
#include "core/traces/perf_stat.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace crossroof;
using core::CounterUse;

namespace {

const std::string kInterval = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_interval1.tsv";
const std::string kFull = std::string(CROSSROOF_SHARED_DIR) + "/data/perf-stat/perf_result.tsv";

std::string fileText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// CPU0's lines of TEXT: a one-CPU slice of the same measurement, standing in for a single-threaded run.
std::string cpu0Lines(const std::string &text)
{
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.find("\tCPU0\t") != std::string::npos)
            out += line + '\n';
    }
    return out;
}

QString messageOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

CounterUse useOf(const core::PerfCounterMapping &m, const char *name)
{
    const core::PerfEventUse *u = m.find(name);
    return u ? u->use : CounterUse::Unused;
}

} // namespace

class TestPerfCounters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesOfTheRealFile();
    void multiRunAloneGivesNoP();
    void bothRunsGiveP();
    void stallNeedsALatency();
    void useSpecs();
    void fullFileCpiIsRefusedWithTheReason();
    void cpiOfOneOrMoreIsKept();
};

void TestPerfCounters::namesOfTheRealFile()
{
    const core::PerfStat multi = core::readPerfStat(kInterval);
    const core::PerfCounterMapping m = core::mapPerfEvents(multi, nullptr);
    QCOMPARE(m.events.size(), std::size_t(21));
    QCOMPARE(useOf(m, "cycles:D"), CounterUse::Cycles);
    QCOMPARE(useOf(m, "instructions:D"), CounterUse::Instructions);
    // r10d1 is MEM_LOAD_RETIRED.L2_MISS (umask 0x10 of event 0xd1), the deepest miss level of the file, so the
    // L1 misses (r08d1), which it counts again, stay unused.
    QCOMPARE(useOf(m, "r10d1"), CounterUse::Suspend);
    QVERIFY(QString::fromStdString(m.find("r10d1")->meaning).startsWith("MEM_LOAD_RETIRED.L2_MISS"));
    QCOMPARE(useOf(m, "r08d1"), CounterUse::Unused);
    QVERIFY(QString::fromStdString(m.find("r08d1")->meaning).contains("counted again by r10d1"));
    for (const char *walk : {"r0e08", "r0e49", "r0e85", "r00c5"})
        QVERIFY2(useOf(m, walk) == CounterUse::Suspend, walk);
    for (const char *unused : {"cpu-clock", "duration_time", "cs", "msr/tsc/", "ref-cycles:D", "r01d1", "r02d1",
                               "r00c4", "r83d0", "imc/event=0x04,umask=0x0f/", "cha/event=0x34,umask=0x1fffff/"})
        QVERIFY2(useOf(m, unused) == CounterUse::Unused, unused);
    QVERIFY(QString::fromStdString(m.find("imc/event=0x04,umask=0x30/")->meaning).contains("not per thread"));
    // No stall by default: perf stat has no latency.
    for (const auto &u : m.events) {
        QVERIFY2(!core::useNeedsLatency(u.use), u.name.c_str());
        QVERIFY(u.multi);
        QCOMPARE(*u.multi, multi.event(u.name).total);
        QVERIFY(!u.single);
        QCOMPARE(u.use, u.default_use);
    }
}

void TestPerfCounters::multiRunAloneGivesNoP()
{
    const core::PerfStat multi = core::readPerfStat(kInterval);
    const core::PerfCounterInputs in = core::perfCounterInputs(core::mapPerfEvents(multi, nullptr));
    // No placeholder: without the single-threaded run there are no suspend events, and the message names them.
    QVERIFY(in.inputs.suspend.empty());
    QVERIFY(in.inputs.stall.empty());
    const QString p = QString::fromStdString(in.p_missing);
    QVERIFY2(p.startsWith("p needs the single-threaded run of the same work for E_single of r10d1"), qPrintable(p));
    QVERIFY(QString::fromStdString(in.q_missing).startsWith("no event is used as stall"));
    QCOMPARE(in.inputs.instructions, multi.event("instructions:D").total);
    // The interval's CPI, 0.64, is refused with the reason, and still reported.
    QVERIFY(in.file_cpi);
    QCOMPARE(*in.file_cpi, core::cyclesPerInstruction(multi));
    QVERIFY(*in.file_cpi > 0.6 && *in.file_cpi < 0.7);
    QVERIFY(!in.inputs.measured_cpi);
    QCOMPARE(in.cpi_note, core::measuredCpiBelowOne(*in.file_cpi));
    QVERIFY(std::find(in.unused.begin(), in.unused.end(), "r08d1") != in.unused.end());
}

void TestPerfCounters::bothRunsGiveP()
{
    const std::string text = fileText(kInterval);
    const core::PerfStat multi = core::parsePerfStat(text, "multi.tsv");
    const core::PerfStat single = core::parsePerfStat(cpu0Lines(text), "cpu0.tsv");
    const core::PerfCounterMapping m = core::mapPerfEvents(multi, &single);
    QCOMPARE(m.single_source, std::string("cpu0.tsv"));
    const core::PerfCounterInputs in = core::perfCounterInputs(m);
    QVERIFY2(in.p_missing.empty(), in.p_missing.c_str());
    QCOMPARE(in.inputs.suspend.size(), std::size_t(5));
    double extra = 0;
    for (const auto &e : in.inputs.suspend) {
        QCOMPARE(e.multi, multi.event(e.name).total);
        QCOMPARE(e.single, single.event(e.name).total);
        extra += e.multi - e.single;
    }
    QCOMPARE(in.inputs.suspend[0].name, std::string("r10d1"));
    const core::PEstimate p = core::estimateP(in.inputs.suspend, in.inputs.instructions);
    QVERIFY(std::abs(p.vector.all - extra / multi.event("instructions:D").total) < 1e-15);
    // About one suspension per hundred instructions: finite, in (0, 1).
    QVERIFY2(p.vector.all > 1e-3 && p.vector.all < 0.1, std::to_string(p.vector.all).c_str());
}

void TestPerfCounters::stallNeedsALatency()
{
    const core::PerfStat multi = core::readPerfStat(kInterval);
    core::PerfCounterMapping m = core::mapPerfEvents(multi, nullptr);
    QCOMPARE(messageOf([&] { core::setEventUse(m, "r10d1", CounterUse::Stall); }),
             QString("event 'r10d1': the use 'stall' needs its latency in cycles (perf stat counts events, not "
                     "their latency)"));
    QVERIFY(messageOf([&] { core::setEventUse(m, "r10d1", CounterUse::Stall, 0.5); })
                    .contains("latency must be a number of cycles from 1 to 1e9 (got 0.5)"));
    QVERIFY(messageOf([&] { core::setEventUse(m, "r10d1", CounterUse::Suspend, 40.0); })
                    .contains("only a stall use takes a latency"));
    QVERIFY(messageOf([&] { core::setEventUse(m, "r99d1", CounterUse::Suspend); })
                    .startsWith("no event 'r99d1' in the perf files (events: cpu-clock, "));
    QCOMPARE(useOf(m, "r10d1"), CounterUse::Suspend); // refused changes change nothing

    core::setEventUse(m, "r10d1", CounterUse::SuspendAndStall, 40.0);
    core::setEventUse(m, "r0e08", CounterUse::Stall, 30.0);
    const core::PerfCounterInputs in = core::perfCounterInputs(m);
    QVERIFY2(in.q_missing.empty(), in.q_missing.c_str());
    QCOMPARE(in.inputs.stall.size(), std::size_t(2));
    QCOMPARE(in.inputs.stall[0].name, std::string("r10d1")); // in the file's order
    QCOMPARE(in.inputs.stall[0].count, multi.event("r10d1").total);
    QCOMPARE(in.inputs.stall[0].latency, 40.0);
    QCOMPARE(in.inputs.stall[1].name, std::string("r0e08"));
    QCOMPARE(in.inputs.stall[1].count, multi.event("r0e08").total);
    QCOMPARE(in.inputs.stall[1].latency, 30.0);
    const core::QEstimate q = core::estimateQ(in.inputs.stall);
    QVERIFY(q.vector.all > 1 - 1 / 30.0 && q.vector.all < 1 - 1 / 40.0);
    // Suspend still wants the single-threaded run, r10d1 still among its events.
    QVERIFY(QString::fromStdString(in.p_missing).contains("r10d1"));
}

void TestPerfCounters::useSpecs()
{
    const core::PerfStat multi = core::readPerfStat(kInterval);
    core::PerfCounterMapping m = core::mapPerfEvents(multi, nullptr);
    core::applyUseSpec(m, "imc/event=0x04,umask=0x0f/=stall:200"); // the last '=' splits
    QCOMPARE(useOf(m, "imc/event=0x04,umask=0x0f/"), CounterUse::Stall);
    QCOMPARE(*m.find("imc/event=0x04,umask=0x0f/")->latency, 200.0);
    core::applyUseSpec(m, "r08d1=suspend");
    QCOMPARE(useOf(m, "r08d1"), CounterUse::Suspend);
    core::applyUseSpec(m, "cycles=unused"); // the name without its modifier
    QCOMPARE(useOf(m, "cycles:D"), CounterUse::Unused);
    QVERIFY(QString::fromStdString(core::perfCounterInputs(m).cpi_note)
                    .startsWith("no measured CPI (cycles / instructions): no event of "));
    QVERIFY(messageOf([&] { core::applyUseSpec(m, "r10d1"); }).contains("is not EVENT=USE"));
    QVERIFY(messageOf([&] { core::applyUseSpec(m, "r10d1=sleep"); }).contains("'sleep' is no use"));
    QVERIFY(messageOf([&] { core::applyUseSpec(m, "r10d1=stall:soon"); }).contains("latency 'soon' is not a number"));
    core::applyUseSpec(m, "ref-cycles:D=cycles");
    core::applyUseSpec(m, "r83d0=instructions");
    core::applyUseSpec(m, "instructions=instructions");
    QVERIFY(QString::fromStdString(core::perfCounterInputs(m).p_missing)
                    .contains("more than one event is used as instructions: instructions:D, r83d0"));
}

void TestPerfCounters::fullFileCpiIsRefusedWithTheReason()
{
    if (!QFile::exists(QString::fromStdString(kFull)))
        QSKIP("../shared/data/perf-stat/perf_result.tsv is not here");
    const core::PerfCounterInputs in = core::perfCounterInputs(core::mapPerfEvents(core::readPerfStat(kFull), nullptr));
    QVERIFY(in.file_cpi);
    QCOMPARE(QString::number(*in.file_cpi, 'f', 2), QString("0.77"));
    QVERIFY(!in.inputs.measured_cpi);
    QVERIFY(QString::fromStdString(in.cpi_note).contains("superscalar"));
    QVERIFY(QString::fromStdString(in.p_missing).contains("single-threaded run"));
}

void TestPerfCounters::cpiOfOneOrMoreIsKept()
{
    // CPUs 0-3 of the first intervals (tests/data/perf_stat_excerpt.tsv) ran at CPI 1.87.
    const core::PerfStat s = core::readPerfStat(std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_excerpt.tsv");
    const core::PerfCounterInputs in = core::perfCounterInputs(core::mapPerfEvents(s, nullptr));
    QVERIFY(in.inputs.measured_cpi);
    QCOMPARE(*in.inputs.measured_cpi, core::cyclesPerInstruction(s));
    QVERIFY(in.cpi_note.empty());
}

QTEST_APPLESS_MAIN(TestPerfCounters)
#include "tst_perf_counters.moc"
