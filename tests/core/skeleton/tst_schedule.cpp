// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/bundled_skeletons.h"
#include "core/skeleton/schedule.h"

#include <QTest>

#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace crossroof;

namespace {

/// A random loop body of N statements over a few variables, so that every kind of dependency occurs.
std::vector<core::SkeletonStatement> randomBody(std::mt19937 &rng, int n)
{
    const char *names[] = {"a", "b", "c", "d", "e", "f"};
    std::uniform_int_distribution<int> kind(0, 4);
    std::uniform_int_distribution<int> var(0, 5);
    std::uniform_int_distribution<int> count(1, 3);
    std::vector<core::SkeletonStatement> body;
    for (int i = 0; i < n; ++i) {
        core::SkeletonStatement s;
        s.kind = core::StatementKind(kind(rng));
        if (s.kind == core::StatementKind::Store) {
            s.sources = {names[var(rng)]};
        } else {
            s.target = names[var(rng)];
            if (s.kind != core::StatementKind::Load)
                for (int k = count(rng); k > 0; --k)
                    s.sources.push_back(names[var(rng)]);
        }
        body.push_back(s);
    }
    return body;
}

/// Every property a valid schedule has; returns what is wrong, or nothing.
QString violation(const core::DependencyGraph &g, const core::Schedule &s, const core::CoreModel &m)
{
    for (const core::DependencyEdge &e : g.edges) {
        const auto &from = s.items[std::size_t(e.from)];
        const auto &to = s.items[std::size_t(e.to)];
        if (to.start < from.start + e.weight)
            return QStringLiteral("node %1 starts at %2, before %3 + %4 of node %5")
                    .arg(e.to).arg(to.start).arg(from.start).arg(e.weight).arg(e.from);
    }
    std::map<double, int> perCycle;
    std::map<std::pair<double, int>, int> perPipeline;
    std::set<std::tuple<double, int, int>> units;
    double makespan = 0;
    for (std::size_t k = 0; k < s.items.size(); ++k) {
        const auto &it = s.items[k];
        if (it.node != int(k) || it.finish != it.start + g.latency[k])
            return QStringLiteral("node %1 has a wrong record").arg(k);
        if (it.pipeline != core::pipelineOf(g.statementOf(int(k)).kind))
            return QStringLiteral("node %1 on the wrong pipeline").arg(k);
        if (it.unit < 0 || it.unit >= m.pipelines[std::size_t(it.pipeline)])
            return QStringLiteral("node %1 on unit %2").arg(k).arg(it.unit);
        if (!units.insert({it.start, int(it.pipeline), it.unit}).second)
            return QStringLiteral("two statements on one unit in cycle %1").arg(it.start);
        if (++perCycle[it.start] > m.issue_width)
            return QStringLiteral("more than the issue width in cycle %1").arg(it.start);
        if (++perPipeline[{it.start, int(it.pipeline)}] > m.pipelines[std::size_t(it.pipeline)])
            return QStringLiteral("more than the pipelines in cycle %1").arg(it.start);
        makespan = std::max(makespan, it.finish);
    }
    if (s.makespan != makespan)
        return QStringLiteral("makespan %1, last finish %2").arg(s.makespan).arg(makespan);
    if (s.makespan < core::criticalPath(g).cycles)
        return QStringLiteral("shorter than the critical path");
    return {};
}

} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void randomBodiesGiveValidSchedules();
    void pipelinesLimitIndependentWork();
    void issueWidthLimitsIndependentWork();
    void chainRunsAtItsCriticalPath();
    void criticalStatementsGoFirst();
    void ilpAndRegisters();
    void copiesMatchTheUnrolledGraph();
};

void TestSchedule::randomBodiesGiveValidSchedules()
{
    std::mt19937 rng(14);
    std::uniform_int_distribution<int> small(1, 3);
    for (int round = 0; round < 200; ++round) {
        core::CoreModel m;
        m.issue_width = small(rng);
        for (int &p : m.pipelines)
            p = small(rng);
        m.latency = {0, double(small(rng)), double(small(rng) * 2), double(small(rng) * 3), 1};
        m.memory = {{"L1", double(small(rng) + 2), 32}, {"memory", 100, 0}};
        const auto body = randomBody(rng, 1 + round % 40);
        const int unroll = 1 + round % 5;
        const core::DependencyGraph g = core::buildDependencyGraph(body, m, unroll);
        const core::Schedule s = core::scheduleGraph(g, m);
        const QString problem = violation(g, s, m);
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("round %1: ").arg(round) + problem));
    }
}

void TestSchedule::pipelinesLimitIndependentWork()
{
    // Six independent fp statements on two FP pipelines: three cycles of issue, then the latency.
    std::vector<core::SkeletonStatement> body;
    for (const char *v : {"a", "b", "c", "d", "e", "f"})
        body.push_back({core::StatementKind::Fp, v, {"x"}, 1, 1});
    core::CoreModel m;
    m.issue_width = 8;
    m.pipelines = {2, 2, 1, 2};
    const core::Schedule s = core::scheduleGraph(core::buildDependencyGraph(body, m), m);
    QCOMPARE(s.makespan, 2 + 6.0);
    QCOMPARE(s.issue_cycles, 3);
    QCOMPARE(s.stall_cycles, 0);
}

void TestSchedule::issueWidthLimitsIndependentWork()
{
    // Two loads and two fp statements, all independent, on a one-wide core: four cycles of issue.
    std::vector<core::SkeletonStatement> body{{core::StatementKind::Load, "a", {}, 1, 1},
                                              {core::StatementKind::Load, "b", {}, 2, 1},
                                              {core::StatementKind::Fp, "c", {"x"}, 3, 1},
                                              {core::StatementKind::Fp, "d", {"x"}, 4, 1}};
    core::CoreModel m;
    m.issue_width = 1;
    const core::Schedule s = core::scheduleGraph(core::buildDependencyGraph(body, m), m);
    QCOMPARE(s.issue_cycles, 4);
    // The fp statements (6 cycles) go before the loads (5) and the last load ends the schedule: 3 + 5.
    QCOMPARE(s.items[2].start + s.items[3].start, 1.0);
    QCOMPARE(s.makespan, 8.0);
}

void TestSchedule::chainRunsAtItsCriticalPath()
{
    const core::Skeleton sk = core::parseSkeleton("def c () {\n ld a\n fp b: a\n fma c: b, b, b\n st c\n}", "c.skel");
    core::CoreModel m;
    const core::DependencyGraph g = core::buildDependencyGraph(sk.body, m);
    const core::Schedule s = core::scheduleGraph(g, m);
    QCOMPARE(s.makespan, 5 + 6 + 6 + 1.0);
    QCOMPARE(s.makespan, core::criticalPath(g).cycles);
    QCOMPARE(s.ilp, 1.0);
    QCOMPARE(s.stall_cycles, 17 - 3);
}

void TestSchedule::criticalStatementsGoFirst()
{
    // On one FP pipeline, the statement that heads the long chain issues before the independent one even
    // though it comes later in the body.
    const core::Skeleton sk = core::parseSkeleton("def p () {\n fp lone: x\n fp a: x\n fp b: a\n fp c: b\n}", "p.skel");
    core::CoreModel m;
    m.pipelines = {1, 1, 1, 1};
    const core::Schedule s = core::scheduleGraph(core::buildDependencyGraph(sk.body, m), m);
    QCOMPARE(s.items[1].start, 0.0);
    QCOMPARE(s.items[0].start, 1.0);
    QCOMPARE(s.makespan, 18.0);
}

void TestSchedule::ilpAndRegisters()
{
    const core::Skeleton hacc = core::parseSkeleton(core::bundledSkeletons()[0].text, "haccmk.skel");
    core::CoreModel m;
    const core::DependencyGraph one = core::buildDependencyGraph(hacc.body, m, 1);
    const core::DependencyGraph four = core::buildDependencyGraph(hacc.body, m, 4);
    const core::Schedule s1 = core::scheduleGraph(one, m);
    const core::Schedule s4 = core::scheduleGraph(four, m);
    // ILP: the latencies (four loads of 5 cycles, 24 statements of 6) over the makespan.
    QCOMPARE(s1.ilp, (4 * 5 + 24 * 6) / s1.makespan);
    QVERIFY(s4.ilp > 3 * s1.ilp);
    // Four copies keep more values live, at least their four sets of carried forces.
    QVERIFY(s1.registers >= 3);
    QVERIFY(s4.registers > s1.registers);
    QVERIFY(s4.registers >= 12);
}

void TestSchedule::copiesMatchTheUnrolledGraph()
{
    const core::Skeleton hacc = core::parseSkeleton(core::bundledSkeletons()[0].text, "haccmk.skel");
    core::CoreModel m;
    const core::DependencyGraph one = core::buildDependencyGraph(hacc.body, m, 1);
    for (int u : {2, 5, 16}) {
        const core::DependencyGraph unrolled = core::buildDependencyGraph(hacc.body, m, u);
        const core::Schedule a = core::scheduleCopies(one, u, m);
        const core::Schedule b = core::scheduleGraph(unrolled, m);
        QCOMPARE(a.items.size(), b.items.size());
        for (std::size_t k = 0; k < a.items.size(); ++k) {
            QCOMPARE(a.items[k].start, b.items[k].start);
            QCOMPARE(a.items[k].unit, b.items[k].unit);
        }
        QCOMPARE(a.makespan, b.makespan);
        QCOMPARE(a.registers, b.registers);
        QVERIFY(violation(unrolled, a, m).isEmpty());
    }
}

QTEST_APPLESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
