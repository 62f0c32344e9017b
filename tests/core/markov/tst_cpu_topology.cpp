// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/markov/cpu_topology.h"
#include "core/support/error.h"
#include "core/profiles/hardware_profile.h"
#include "core/markov/markov.h"
#include "core/profiles/profile_library.h"

#include <QTest>

#include <cmath>

using namespace crossroof;

namespace {

const core::CpuTopology &clovertown()
{
    const core::HardwareProfile *prof = core::findBundledProfile("clovertown-x5365");
    Q_ASSERT(prof && prof->topology);
    return *prof->topology;
}

const char *kProfile = R"({
  "format_version": 1, "id": "two-dies", "name": "Two dies", "kind": "cpu",
  "parameters": {"sm_count": 4, "clock_ghz": 2, "warp_size": 1, "max_warps": 4, "request_bytes": 64,
                 "R": 20, "L": 300, "M": 4, "S_s": 32, "L_s": 4},
  "topology": {"sockets": 1, "caches": [{"name": "L2 0", "socket": 0, "cores": [0, 1]},
                                        {"name": "L2 1", "socket": 0, "cores": [2, 3]}],
               "strategies": [{"id": "pair", "description": "both on one L2", "cores": [0, 1]}]},
  "sources": [{"fields": ["sm_count", "clock_ghz", "warp_size", "max_warps", "request_bytes", "R", "L", "M",
                          "S_s", "L_s"], "text": "made up for a test"}]
})";

QString broken(const QString &from, const QString &to)
{
    QString text = QString::fromUtf8(kProfile);
    Q_ASSERT(text.contains(from));
    return text.replace(from, to);
}

} // namespace

class TestCpuTopology : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void clovertownHasTheThesisStrategies();
    void usageMatchesTables58And517();
    void strategiesBecomeMarkovGroups();
    void atOnePointOnlyTheThreadCountMatters();
    void perStrategyPointsSeparateThem();
    void shapeText();
    void profileRoundTrip();
    void everyCpuProfileHasStrategies();
    void derivedStrategiesOfTheEpyc();
    void derivedStrategiesOfTwoSockets();
    void badTopologiesNameTheField_data();
    void badTopologiesNameTheField();
};

void TestCpuTopology::clovertownHasTheThesisStrategies()
{
    const auto &t = clovertown();
    QCOMPARE(t.sockets, 2);
    QCOMPARE(t.caches.size(), std::size_t(4));
    QCOMPARE(t.coreCount(), 8);
    QCOMPARE(t.strategies.size(), std::size_t(12));
    // Two cores per L2 (c and c + 4), odd and even cores on different sockets (5.2.4).
    for (int c = 0; c < 4; ++c) {
        QCOMPARE(t.cacheOf(c), t.cacheOf(c + 4));
        QCOMPARE(t.cacheOf(c)->socket, c % 2);
    }
    QVERIFY(t.findStrategy("4T_4"));
    QVERIFY(!t.findStrategy("5T_1"));
}

void TestCpuTopology::usageMatchesTables58And517()
{
    const auto &t = clovertown();
    auto usage = [&](const char *id) { return core::mappingUsage(t, *t.findStrategy(id)); };
    // Table 5.17: cores and L2-caches reserved.
    QCOMPARE(usage("4T_2").cores, 4);
    QCOMPARE(usage("4T_2").caches, 4);
    QCOMPARE(usage("4T_4").cores, 4);
    QCOMPARE(usage("4T_4").caches, 2);
    QCOMPARE(usage("8T_2").cores, 4);
    QCOMPARE(usage("8T_2").caches, 2);
    QCOMPARE(usage("8T_3").cores, 2);
    QCOMPARE(usage("8T_3").caches, 1);
    // Table 5.8's descriptions.
    QCOMPARE(usage("2T_1").sockets, 2); // different L2, different socket
    QCOMPARE(usage("2T_1").caches, 2);
    QCOMPARE(usage("2T_2").sockets, 1); // different L2, same socket
    QCOMPARE(usage("2T_2").caches, 2);
    QCOMPARE(usage("2T_3").max_threads_per_core, 2);
    QCOMPARE(usage("2T_4").caches, 1); // same L2, same socket
    QCOMPARE(usage("2T_4").cores, 2);
    QCOMPARE(usage("4T_3").sockets, 1); // 2 per core, all on one socket
    QCOMPARE(usage("4T_3").max_threads_per_core, 2);
    QCOMPARE(usage("4T_4").sockets, 2); // 2 per L2, two on each socket
    QCOMPARE(usage("8T_1").cores, 8);
    QCOMPARE(usage("8T_1").max_threads_per_core, 1);
    QCOMPARE(usage("8T_4").max_threads_per_core, 8);
    QCOMPARE(usage("8T_2").threads_per_cache, (std::vector<int>{4, 4}));
}

void TestCpuTopology::strategiesBecomeMarkovGroups()
{
    const auto &t = clovertown();
    const core::MarkovTopology m = core::markovTopology(t, *t.findStrategy("4T_4"), 0.3, 0.9);
    QCOMPARE(m, core::uniformTopology(2, 2, 0.3, 0.9));
    // 8T_1 is the thesis' 81-state system model: four L2 groups of two threads.
    const core::MarkovTopology all = core::markovTopology(t, *t.findStrategy("8T_1"), 0.3, 0.9);
    QCOMPARE(core::systemStateCount(all), 81.0);
}

void TestCpuTopology::atOnePointOnlyTheThreadCountMatters()
{
    // P_all = s^N: at one (p, q) the model's CPI depends on the number of threads, not on where they run;
    // and it falls as threads are added.
    const auto rows = core::compareMappings(clovertown(), 0.2, 0.95);
    QCOMPARE(rows.size(), std::size_t(12));
    for (const auto &a : rows) {
        for (const auto &b : rows) {
            if (a.usage.threads == b.usage.threads)
                QVERIFY(std::abs(a.result.cpi / b.result.cpi - 1) < 1e-12);
            else if (a.usage.threads < b.usage.threads)
                QVERIFY(a.result.cpi > b.result.cpi);
        }
        // ... and the literal system chain agrees where it fits.
        const auto literal = core::solveMarkov(core::markovTopology(clovertown(), *a.strategy, 0.2, 0.95),
                                               core::MarkovSolver::Literal);
        QVERIFY(std::abs(literal.cpi / a.result.cpi - 1) < 1e-9);
    }
}

void TestCpuTopology::perStrategyPointsSeparateThem()
{
    const auto &t = clovertown();
    std::vector<std::optional<std::pair<double, double>>> points(t.strategies.size());
    points[1] = std::pair(0.5, 0.99); // 2T_2 measured with more suspension
    const auto rows = core::compareMappings(t, 0.2, 0.95, std::nullopt, points);
    QCOMPARE(rows[1].p, 0.5);
    QCOMPARE(rows[1].q, 0.99);
    QCOMPARE(rows[1].result.cpi, core::solveMarkovExact(core::uniformTopology(2, 1, 0.5, 0.99)).cpi);
    QVERIFY(rows[1].result.cpi > rows[0].result.cpi);
    // Transients go through too.
    const auto early = core::compareMappings(t, 0.2, 0.95, 3);
    QCOMPARE(early[0].result.cpi, core::solveMarkovExact(core::uniformTopology(2, 1, 0.2, 0.95), 3).cpi);
}

void TestCpuTopology::shapeText()
{
    QCOMPARE(core::markovShapeText({2, 2}), std::string("2 × 2"));
    QCOMPARE(core::markovShapeText({8}), std::string("1 × 8"));
    QCOMPARE(core::markovShapeText({4, 2, 2}), std::string("1 × 4 + 2 × 2"));
    QCOMPARE(core::markovShapeText({4, 2, 2}, "x"), std::string("1 x 4 + 2 x 2"));
}

void TestCpuTopology::profileRoundTrip()
{
    const core::HardwareProfile *prof = core::findBundledProfile("clovertown-x5365");
    QVERIFY(prof);
    const core::HardwareProfile again = core::parseProfile(core::profileToText(*prof), "again.json");
    QVERIFY(again.topology);
    QCOMPARE(*again.topology, *prof->topology);
    // GPU profiles have none.
    QVERIFY(!core::findBundledProfile("gtx570-sp")->topology);
    QVERIFY(core::parseProfile(kProfile, "two.json").topology);
}

void TestCpuTopology::everyCpuProfileHasStrategies()
{
    int cpus = 0;
    for (const core::HardwareProfile &prof : core::bundledProfiles()) {
        if (prof.kind != "cpu")
            continue;
        ++cpus;
        QVERIFY2(prof.topology && !prof.topology->strategies.empty(), prof.id.c_str());
        QVERIFY(!core::compareMappings(*prof.topology, 0.3, 0.8).empty());
    }
    QCOMPARE(cpus, 3);
}

void TestCpuTopology::derivedStrategiesOfTheEpyc()
{
    // One socket of twelve 8-core CCDs, each with its L3, two threads per core; the profile names no strategy.
    const core::HardwareProfile *prof = core::findBundledProfile("epyc-9654");
    QVERIFY(prof && prof->topology);
    const core::CpuTopology &t = *prof->topology;
    QVERIFY(t.strategies_derived);
    QCOMPARE(t.threads_per_core, 2);
    QCOMPARE(t.coreCount(), 96);
    auto usage = [&](const char *id) {
        const core::MappingStrategy *s = t.findStrategy(id);
        if (!s)
            qFatal("no strategy %s", id);
        return core::mappingUsage(t, *s);
    };
    // Compact fills one CCD, then the next: 16 threads on 2 CCDs of 8.
    QCOMPARE(usage("16T_compact").caches, 2);
    QCOMPARE(usage("16T_compact").threads_per_cache, (std::vector<int> {8, 8}));
    // Scatter takes each CCD in turn: 16 threads on all 12 CCDs, a second thread on the first four.
    QCOMPARE(usage("16T_scatter").caches, 12);
    QCOMPARE(usage("16T_scatter").max_threads_per_core, 1);
    // SMT: both threads of each core, 8 threads on 4 cores of one CCD; 192 on every core.
    QCOMPARE(usage("8T_smt").cores, 4);
    QCOMPARE(usage("8T_smt").max_threads_per_core, 2);
    QCOMPARE(usage("192T_smt").cores, 96);
    // 96 threads compact or scattered bind the same cores: one strategy.
    QVERIFY(t.findStrategy("96T_compact"));
    QVERIFY(!t.findStrategy("96T_scatter"));
    // Written back, the derived strategies are left out and derived again on reading.
    const std::string text = core::profileToText(*prof);
    QVERIFY(text.find("16T_compact") == std::string::npos);
    QCOMPARE(*core::parseProfile(text, "again.json").topology, t);
}

void TestCpuTopology::derivedStrategiesOfTwoSockets()
{
    // Two sockets of two L2s of two cores: scatter alternates the sockets, then the caches within them.
    core::CpuTopology t;
    t.sockets = 2;
    t.caches = {{"L2 0", 0, {0, 1}}, {"L2 1", 0, {2, 3}}, {"L2 2", 1, {4, 5}}, {"L2 3", 1, {6, 7}}};
    const std::vector<core::MappingStrategy> derived = core::derivedStrategies(t);
    std::vector<std::string> ids;
    for (const auto &s : derived)
        ids.push_back(s.id);
    QCOMPARE(ids, (std::vector<std::string> {"2T_compact", "2T_scatter", "4T_compact", "4T_scatter", "8T_compact"}));
    QCOMPARE(derived[1].cores, (std::vector<int> {0, 4}));       // the two sockets
    QCOMPARE(derived[3].cores, (std::vector<int> {0, 4, 2, 6})); // then the other L2 of each
    QCOMPARE(derived[0].cores, (std::vector<int> {0, 1}));
    t.threads_per_core = 9;
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::derivedStrategies(t));
}

void TestCpuTopology::badTopologiesNameTheField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("core twice") << broken(QStringLiteral("[2, 3]"), QStringLiteral("[1, 3]"))
                                << QStringLiteral("d.json: field 'topology.caches[1].cores': core 1 is already in another cache");
    QTest::newRow("socket") << broken(QStringLiteral("\"L2 1\", \"socket\": 0"), QStringLiteral("\"L2 1\", \"socket\": 1"))
                            << QStringLiteral("d.json: field 'topology.caches[1].socket': must be from 0 to 0 (got 1)");
    QTest::newRow("unknown core") << broken(QStringLiteral("\"cores\": [0, 1]}]}"), QStringLiteral("\"cores\": [0, 9]}]}"))
                                  << QStringLiteral("d.json: field 'topology.strategies[0].cores': core 9 is in no cache of the topology");
    QTest::newRow("negative core") << broken(QStringLiteral("[2, 3]"), QStringLiteral("[2, -3]"))
                                   << QStringLiteral("d.json: field 'topology.caches[1].cores': must hold whole numbers from 0 to 4095 (got -3)");
    QTest::newRow("misspelt") << broken(QStringLiteral("\"sockets\": 1"), QStringLiteral("\"socket\": 1"))
                              << QStringLiteral("d.json: field 'topology.socket': is not a topology field (misspelt?)");
    QTest::newRow("empty strategy")
            << broken(QStringLiteral("\"cores\": [0, 1]}]}"), QStringLiteral("\"cores\": []}]}"))
            << QStringLiteral("d.json: field 'topology.strategies[0].cores': must bind 1 to 4096 threads");
    QTest::newRow("duplicate id")
            << broken(QStringLiteral("\"cores\": [0, 1]}]}"),
                      QStringLiteral("\"cores\": [0, 1]}, {\"id\": \"pair\", \"cores\": [2]}]}"))
            << QStringLiteral("d.json: field 'topology.strategies[1].id': 'pair' is used twice");
}

void TestCpuTopology::badTopologiesNameTheField()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
        core::parseProfile(text.toStdString(), "d.json");
        QFAIL("accepted");
    } catch (const core::InputError &e) {
        QCOMPARE(QString::fromStdString(e.what()), message);
    }
}

QTEST_APPLESS_MAIN(TestCpuTopology)
#include "tst_cpu_topology.moc"
