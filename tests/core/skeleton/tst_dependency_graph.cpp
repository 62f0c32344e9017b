// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/bundled_skeletons.h"
#include "core/skeleton/dependency_graph.h"
#include "core/support/error.h"

#include <QTest>

#include <tuple>

using namespace crossroof;

namespace {

core::CoreModel model()
{
    core::CoreModel m;
    m.latency[std::size_t(core::StatementKind::Fp)] = 6;
    m.latency[std::size_t(core::StatementKind::Store)] = 1;
    m.memory = {{"L1", 5, 32}, {"memory", 100, 0}};
    return m;
}

/// Each dependency kind once: a is written, read, rewritten (WAR, WAW) and read again; b is rewritten.
const char *kHand = "def hand ()\n{\n"
                    "  ld a\n"      // 0
                    "  fp b: a\n"   // 1: RAW 0->1 (a)
                    "  fp a: c\n"   // 2: WAR 1->2 (a), WAW 0->2 (a)
                    "  fp b: a\n"   // 3: RAW 2->3 (a), WAW 1->3 (b)
                    "  st b\n"      // 4: RAW 3->4 (b)
                    "}\n";

using EdgeTuple = std::tuple<int, int, core::DependencyKind, std::string>;

std::vector<EdgeTuple> tuples(const core::DependencyGraph &g)
{
    std::vector<EdgeTuple> out;
    for (const core::DependencyEdge &e : g.edges)
        out.emplace_back(e.from, e.to, e.kind, e.variable);
    return out;
}

} // namespace

class TestDependencyGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handExampleHasEachKind();
    void weightsAreTheSourceLatency();
    void criticalPathOfTheHandExample();
    void unrolledCopiesAreIndependent();
    void haccmkCriticalPath();
    void badUnrollIsRefused();
};

void TestDependencyGraph::handExampleHasEachKind()
{
    const core::Skeleton s = core::parseSkeleton(kHand, "hand.skel");
    const core::DependencyGraph g = core::buildDependencyGraph(s.body, model());
    using K = core::DependencyKind;
    const std::vector<EdgeTuple> expected{{0, 1, K::Raw, "a"}, {0, 2, K::Waw, "a"}, {1, 2, K::War, "a"},
                                          {1, 3, K::Waw, "b"}, {2, 3, K::Raw, "a"}, {3, 4, K::Raw, "b"}};
    QCOMPARE(tuples(g), expected);
    QCOMPARE(core::dependencyKindName(K::War), std::string_view("WAR"));
    QVERIFY(g.carried.empty());
}

void TestDependencyGraph::weightsAreTheSourceLatency()
{
    const core::Skeleton s = core::parseSkeleton(kHand, "hand.skel");
    const core::DependencyGraph g = core::buildDependencyGraph(s.body, model());
    for (const core::DependencyEdge &e : g.edges)
        QCOMPARE(e.weight, g.latency[std::size_t(e.from)]);
    QCOMPARE(g.latency[0], 5.0); // the load: L1's load-to-use latency
    QCOMPARE(g.latency[1], 6.0);
    QCOMPARE(g.latency[4], 1.0);
}

void TestDependencyGraph::criticalPathOfTheHandExample()
{
    const core::Skeleton s = core::parseSkeleton(kHand, "hand.skel");
    const core::CriticalPath cp = core::criticalPath(core::buildDependencyGraph(s.body, model()));
    // ld (5) -> fp b (6) -WAR-> fp a (6) -> fp b (6) -> st (1); the WAW shortcut 0 -> 2 is shorter.
    QCOMPARE(cp.cycles, 24.0);
    QCOMPARE(cp.nodes, (std::vector<int>{0, 1, 2, 3, 4}));
    QCOMPARE(cp.bottom_level[4], 1.0);
    QCOMPARE(cp.bottom_level[2], 13.0);
}

void TestDependencyGraph::unrolledCopiesAreIndependent()
{
    const core::Skeleton s = core::parseSkeleton("def r () { forall i = 0:8 {\n ld x\n fma acc: acc, x, w\n } }",
                                                 "r.skel");
    const core::DependencyGraph one = core::buildDependencyGraph(s.body, model(), 1);
    const core::DependencyGraph three = core::buildDependencyGraph(s.body, model(), 3);
    QCOMPARE(one.carried, (std::vector<std::string>{"acc"}));
    QCOMPARE(three.nodeCount(), std::size_t(6));
    QCOMPARE(three.edges.size(), 3 * one.edges.size());
    for (const core::DependencyEdge &e : three.edges)
        QCOMPARE(three.copyOf(e.from), three.copyOf(e.to)); // each copy its own partial sum
    QCOMPARE(core::criticalPath(three).cycles, core::criticalPath(one).cycles);
    QCOMPARE(three.statementOf(5).kind, core::StatementKind::Fma);
}

void TestDependencyGraph::haccmkCriticalPath()
{
    const core::Skeleton s = core::parseSkeleton(core::bundledSkeletons()[0].text, "haccmk.skel");
    const core::DependencyGraph g = core::buildDependencyGraph(s.body, model());
    const core::CriticalPath cp = core::criticalPath(g);
    // ld zz1, then 14 dependent floating-point statements: dzc, r2 three times, r1 five times, f four times
    // (r1 and m), and the accumulation into the forces.
    QCOMPARE(cp.cycles, 5.0 + 14 * 6.0);
    QCOMPARE(cp.nodes.size(), std::size_t(15));
    QCOMPARE(g.statementOf(cp.nodes.front()).target, std::string("zz1"));
    QCOMPARE(g.carried, (std::vector<std::string>{"xi", "yi", "zi"}));
}

void TestDependencyGraph::badUnrollIsRefused()
{
    const core::Skeleton s = core::parseSkeleton(kHand, "hand.skel");
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::buildDependencyGraph(s.body, model(), 0));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::buildDependencyGraph(s.body, model(), 65));
}

QTEST_APPLESS_MAIN(TestDependencyGraph)
#include "tst_dependency_graph.moc"
