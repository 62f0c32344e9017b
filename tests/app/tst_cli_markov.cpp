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
