// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <sstream>

using nlohmann::json;

namespace {

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;

} // namespace

class TestCliMarkov : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void markovJsonKeys();
    void markovSolversAgree();
    void markovTransient();
    void markovInfinite();
    void markovText();
    void surfaceJsonKeys();
    void surfaceTableFiveEighteen();
    void surfaceGrids();
    void strategyTopology();
    void mappingsSideBySide();
    void help();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
};

void TestCliMarkov::markovJsonKeys()
{
    const json j = runJson(
            {"markov", "--groups", "4", "--threads-per-group", "2", "--p", "0.5", "--q", "0.5", "--json"});
    for (const char *key : {"cpi", "p_all_suspended", "system_states", "solver", "infinite", "steps"})
        QVERIFY2(j.contains(key), key);
    QCOMPARE(j["system_states"].get<long long>(), 81LL); // 3^4, as in 4.2.2
    QCOMPARE(j["solver"].get<std::string>(), std::string("exact"));
    QCOMPARE(j["infinite"].get<bool>(), false);
    QVERIFY(j["steps"].is_null());
    QCOMPARE(j["p_all_suspended"].get<double>(), std::pow(0.5, 8)); // s = 1/2 for each of 8 threads
    QCOMPARE(j["cpi"].get<double>(), 1 / (1 - std::pow(0.5, 8)));
    QCOMPARE(j["threads"].get<int>(), 8);
}

void TestCliMarkov::markovSolversAgree()
{
    for (const std::string steps : {"", "3"}) {
        std::vector<std::string> args{"markov", "--groups", "4", "--threads-per-group", "2", "--p", "0.2",
                                      "--q", "0.85", "--json"};
        if (!steps.empty())
            args.insert(args.end(), {"--steps", steps});
        const json exact = runJson(args);
        args.insert(args.end(), {"--solver", "literal"});
        const json literal = runJson(args);
        QCOMPARE(literal["solver"].get<std::string>(), std::string("literal"));
        QVERIFY(literal["iterations"].get<long long>() > 0);
        QVERIFY(std::abs(exact["cpi"].get<double>() / literal["cpi"].get<double>() - 1) < 1e-9);
        QVERIFY(exact["system_states"] == literal["system_states"]);
    }
}

void TestCliMarkov::markovTransient()
{
    const json j = runJson({"markov", "--groups", "2", "--threads-per-group", "3", "--p", "0.4", "--q", "0.8",
                            "--steps", "1", "--json"});
    QCOMPARE(j["steps"].get<long long>(), 1LL);
    QVERIFY(std::abs(j["p_all_suspended"].get<double>() - std::pow(0.4, 6)) < 1e-15); // one step: p each
    const json zero = runJson({"markov", "--groups", "2", "--threads-per-group", "3", "--p", "0.4", "--q",
                               "0.8", "--steps", "0", "--json"});
    QCOMPARE(zero["cpi"].get<double>(), 1.0);
}

void TestCliMarkov::markovInfinite()
{
    for (const char *solver : {"exact", "literal"}) {
        const json j = runJson({"markov", "--groups", "2", "--threads-per-group", "2", "--p", "1", "--q", "1",
                                "--solver", solver, "--json"});
        QVERIFY(j["cpi"].is_null());
        QCOMPARE(j["infinite"].get<bool>(), true);
        QCOMPARE(j["p_all_suspended"].get<double>(), 1.0);
    }
    const Run text = run({"markov", "--groups", "2", "--threads-per-group", "2", "--p", "1", "--q", "1"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("infinite") != std::string::npos);
    QVERIFY(text.out.find("nan") == std::string::npos);
}

void TestCliMarkov::markovText()
{
    const Run r
            = run({"markov", "--groups", "8", "--threads-per-group", "2", "--p", "0.999", "--q", "0.999"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.err.empty());
    QVERIFY(r.out.find("6561 system states") != std::string::npos);
    QVERIFY(r.out.find("CPI       62.97") != std::string::npos);
    // 10^6 groups of 10^6 threads: 1000001^1000000 states, beyond a double (printed "inf system states"): the
    // count from its logarithm, (1 + 1e-6)^1e6 = e times 10^6000000; JSON's system_states is null then, and
    // system_states_log10 says how many.
    const std::vector<std::string> huge{"markov", "--groups", "1000000", "--threads-per-group", "1000000",
                                        "--p", "0.5", "--q", "0.5"};
    const Run big = run(huge);
    QCOMPARE(big.status, 0);
    QVERIFY2(big.out.find("(1000000000000 threads), about 2.71828e+6000000 system states\n") != std::string::npos,
             big.out.c_str());
    QVERIFY(big.out.find("inf") == std::string::npos);
    std::vector<std::string> hugeJson = huge;
    hugeJson.push_back("--json");
    const json j = runJson(hugeJson);
    QVERIFY(j["system_states"].is_null());
    QVERIFY(std::abs(j["system_states_log10"].get<double>() - 6000000.4342942) < 1e-6);
    QCOMPARE(runJson({"markov", "--groups", "4", "--threads-per-group", "2", "--p", "0.5", "--q", "0.5", "--json"})
                     ["system_states_log10"].get<double>(),
             4 * std::log10(3.0));
}

void TestCliMarkov::surfaceJsonKeys()
{
    const json j = runJson({"markov-surface", "--groups", "2", "--threads-per-group", "2", "--json"});
    for (const char *key : {"p", "q", "cpi", "max", "min"})
        QVERIFY2(j.contains(key), key);
    for (const char *key : {"cpi", "p", "q"}) {
        QVERIFY2(j["max"].contains(key), key);
        QVERIFY2(j["min"].contains(key), key);
    }
    QCOMPARE(j["grid"].get<std::string>(), std::string("thesis"));
    QCOMPARE(j["p"].size(), std::size_t(25));
    QCOMPARE(j["q"].size(), std::size_t(25));
    QCOMPARE(j["cpi"].size(), std::size_t(25));
    // cpi[j][i] at q index j, p index i: with steps = 1 the CPI depends on p only, so rows are equal.
    const json t = runJson(
            {"markov-surface", "--groups", "2", "--threads-per-group", "2", "--steps", "1", "--json"});
    QVERIFY(t["cpi"][3] == t["cpi"][17]);
    QVERIFY(t["cpi"][0][0] != t["cpi"][0][24]);
    // At steady state CPI rises along both axes.
    QVERIFY(j["cpi"][24][10].get<double>() > j["cpi"][10][10].get<double>());
    QVERIFY(j["cpi"][10][24].get<double>() > j["cpi"][10][10].get<double>());
}

void TestCliMarkov::surfaceTableFiveEighteen()
{
    // Table 5.18: 8 L2 with 2 threads, maximum 63.08 (+-1 %) at q = 0.999.
    const json j = runJson({"markov-surface", "--groups", "8", "--threads-per-group", "2", "--json"});
    QCOMPARE(j["system_states"].get<long long>(), 6561LL);
    QVERIFY(std::abs(j["max"]["cpi"].get<double>() / 63.08 - 1) < 0.01);
    QCOMPARE(j["max"]["q"].get<double>(), 0.999);
    QVERIFY(j["min"]["cpi"].get<double>() >= 1);
}

void TestCliMarkov::surfaceGrids()
{
    json j = runJson(
            {"markov-surface", "--groups", "1", "--threads-per-group", "1", "--grid", "uniform:7", "--json"});
    QCOMPARE(j["p"].size(), std::size_t(7));
    QCOMPARE(j["cpi"].size(), std::size_t(7));
    QCOMPARE(j["cpi"][0].size(), std::size_t(7));
    QCOMPARE(j["p"][0].get<double>(), 0.001);
    QCOMPARE(j["p"][6].get<double>(), 0.999);
    j = runJson(
            {"markov-surface", "--groups", "16", "--threads-per-group", "8", "--grid", "logit:40", "--json"});
    QCOMPARE(j["q"].size(), std::size_t(40));
    QCOMPARE(j["grid"].get<std::string>(), std::string("logit:40"));
    QVERIFY(j["system_states"].is_number());
    const Run text = run({"markov-surface", "--groups", "4", "--threads-per-group", "4"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("Maximum   CPI 62.97") != std::string::npos);
}

void TestCliMarkov::strategyTopology()
{
    // A mapping strategy of a CPU profile gives the groups: 8T_2 loads two L2s with four threads each.
    const json j = runJson({"markov", "--profile", "clovertown-x5365", "--strategy", "8T_2", "--p", "0.3", "--q",
                            "0.9", "--json"});
    QVERIFY(j["group_threads"] == json({4, 4}));
    QCOMPARE(j["threads_per_group"].get<int>(), 4);
    QCOMPARE(j["system_states"].get<long long>(), 25LL);
    QCOMPARE(j["strategy"].get<std::string>(), std::string("8T_2"));
    const json same = runJson({"markov", "--groups", "2", "--threads-per-group", "4", "--p", "0.3", "--q", "0.9", "--json"});
    QCOMPARE(j["cpi"].get<double>(), same["cpi"].get<double>());
    const json surface = runJson({"markov-surface", "--profile", "clovertown-x5365", "--strategy", "4T_2", "--json"});
    QVERIFY(surface["group_threads"] == json({1, 1, 1, 1}));
    QCOMPARE(surface["system_states"].get<long long>(), 16LL);
}

void TestCliMarkov::mappingsSideBySide()
{
    const json j = runJson({"mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.862", "--point",
                            "2T_2=0.4,0.99", "--json"});
    const json &rows = j["strategies"];
    QCOMPARE(rows.size(), std::size_t(12));
    // Table 5.17: 8T_3 takes 2 cores and 1 L2-cache.
    QCOMPARE(rows[10]["id"].get<std::string>(), std::string("8T_3"));
    QCOMPARE(rows[10]["cores_used"].get<int>(), 2);
    QCOMPARE(rows[10]["caches_used"].get<int>(), 1);
    // The measured point applies to its strategy only, and each CPI is what `markov --strategy` says.
    QCOMPARE(rows[1]["q"].get<double>(), 0.99);
    QCOMPARE(rows[0]["q"].get<double>(), 0.862);
    for (int i : {0, 1, 7}) {
        const json one = runJson({"markov", "--profile", "clovertown-x5365", "--strategy", rows[i]["id"].get<std::string>(),
                                  "--p", std::to_string(rows[i]["p"].get<double>()), "--q",
                                  std::to_string(rows[i]["q"].get<double>()), "--json"});
        QCOMPARE(rows[i]["cpi"].get<double>(), one["cpi"].get<double>());
    }
    const Run text = run({"mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.862"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("4T_4             4     4      2       2  2 x 2") != std::string::npos);
}

void TestCliMarkov::help()
{
    Run r = run({"markov", "--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("--solver exact|literal") != std::string::npos);
    r = run({"markov-surface", "--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("logit:K") != std::string::npos);
    r = run({"--help"});
    QVERIFY(r.out.find("markov-surface") != std::string::npos);
}

void TestCliMarkov::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QStringList base{"markov", "--groups", "2", "--threads-per-group", "2"};
    QTest::newRow("missing p") << base + QStringList{"--q", "0.5"} << "option '--p' is required";
    QTest::newRow("missing groups") << QStringList{"markov", "--threads-per-group", "2", "--p", "0.5"}
                                    << "option '--groups' is required";
    QTest::newRow("p above 1") << base + QStringList{"--p", "1.5", "--q", "0.5"}
                               << "option '--p': must be between 0 and 1 (got 1.5)";
    QTest::newRow("q negative") << base + QStringList{"--p", "0.5", "--q", "-0.1"}
                                << "option '--q': must be between";
    QTest::newRow("q nan") << base + QStringList{"--p", "0.5", "--q", "nan"} << "option '--q': must be";
    QTest::newRow("p text") << base + QStringList{"--p", "half", "--q", "0.5"}
                            << "option '--p': 'half' is not a number";
    const QStringList pq{"--p", "0.5", "--q", "0.5"};
    QTest::newRow("zero groups") << QStringList{"markov", "--groups", "0", "--threads-per-group", "2"} + pq
                                 << "option '--groups': must be between 1";
    QTest::newRow("negative steps") << base + pq + QStringList{"--steps", "-1"}
                                    << "option '--steps': must be between 0";
    QTest::newRow("bad solver") << base + pq + QStringList{"--solver", "fast"}
                                << "option '--solver': must be exact or literal (got 'fast')";
    QTest::newRow("literal too large")
            << QStringList{"markov", "--groups", "8", "--threads-per-group", "4", "--solver", "literal"} + pq
            << "option '--solver literal': the literal solver handles at most 10000 system states";
    QTest::newRow("unknown option") << base + pq + QStringList{"--grid", "thesis"} << "unknown option";
    const QStringList surface{"markov-surface", "--groups", "2", "--threads-per-group", "2"};
    QTest::newRow("surface bad grid") << surface + QStringList{"--grid", "square:5"}
                                      << "option '--grid': grid must be thesis, uniform:K or logit:K";
    QTest::newRow("surface grid too fine") << surface + QStringList{"--grid", "uniform:100000"}
                                           << "option '--grid': grid 'uniform:100000': K must be";
    QTest::newRow("surface missing threads") << QStringList{"markov-surface", "--groups", "2"}
                                             << "option '--threads-per-group' is required";
    const QStringList cpu{"markov", "--profile", "clovertown-x5365"};
    QTest::newRow("strategy without profile") << QStringList{"markov", "--strategy", "4T_4"} + pq
                                              << "option '--strategy' needs '--profile'";
    QTest::newRow("profile without strategy") << cpu + pq << "option '--profile' goes with '--strategy'";
    QTest::newRow("strategy and groups") << cpu + QStringList{"--strategy", "4T_4", "--groups", "2"} + pq
                                         << "option '--strategy' replaces '--groups'";
    QTest::newRow("unknown strategy") << cpu + QStringList{"--strategy", "3T_1"} + pq
                                      << "clovertown-x5365 has no strategy '3T_1' (it has 2T_1, 2T_2";
    QTest::newRow("gpu has no strategies")
            << QStringList{"markov", "--profile", "v100", "--strategy", "4T_4"} + pq
            << "option '--profile': v100 has no mapping strategies";
    const QStringList mappings{"mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.5"};
    QTest::newRow("mappings without profile") << QStringList{"mappings", "--p", "0.5", "--q", "0.5"}
                                              << "option '--profile' is required";
    QTest::newRow("mappings bad point") << mappings + QStringList{"--point", "2T_1:0.4"}
                                        << "option '--point': '2T_1:0.4' is not STRATEGY=P,Q";
    QTest::newRow("mappings point strategy") << mappings + QStringList{"--point", "9T_1=0.4,0.5"}
                                             << "option '--point': clovertown-x5365 has no strategy '9T_1'";
    QTest::newRow("mappings point range") << mappings + QStringList{"--point", "2T_1=0.4,1.5"}
                                          << "option '--point 2T_1': must be between 0 and 1 (got 1.5)";
    QTest::newRow("surface p option") << surface + QStringList{"--p", "0.5"} << "unknown option '--p'";
}

void TestCliMarkov::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    crossroof::test::expectUsageError(args, message);
}

QTEST_APPLESS_MAIN(TestCliMarkov)
#include "tst_cli_markov.moc"
