// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"
#include "command_support.h"

#include <nlohmann/json.hpp>

#include "core/profiles/profile_library.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include <sstream>

using nlohmann::json;

namespace {

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nonFiniteOutputIsAnInternalError();
    void profilesListUserProfiles();
    void latin1ProfileNameInJson();
    void xgraphJsonKeys();
    void xgraphSetOverridesProfile();
    void xgraphCurves();
    void xgraphFindsBistableState();
    void profilesJson();
    void helpAndVersion();
    void helpCommandIsTheCommandsHelp();
    void doubleDashEndsTheOptions();
    void writeFailureExitsTwo();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
    void echoedArgumentsStayOneShortLine_data();
    void echoedArgumentsStayOneShortLine();
    void unknownProfileListsAFewSkippedFiles();
};

void TestCli::xgraphJsonKeys()
{
    const json j = runJson({"xgraph", "--json"});
    for (const char *key : {"parameters", "equilibria", "operating_point", "margin_warps", "landmarks", "metrics"})
        QVERIFY2(j.contains(key), key);
    QVERIFY(!j.contains("curves")); // only with --curves
    QVERIFY(j["equilibria"].is_array() && !j["equilibria"].empty());
    for (const auto &e : j["equilibria"]) {
        for (const char *key : {"k", "x", "stability", "ms_throughput_gbs", "cs_throughput_gops", "hit_rate", "bound"})
            QVERIFY2(e.contains(key), key);
        const std::string s = e["stability"];
        QVERIFY(s == "stable" || s == "unstable" || s == "critical" || s == "neutral");
    }
    for (const char *key : {"pi", "delta", "psi", "valley", "plateau_gbs"})
        QVERIFY2(j["landmarks"].contains(key), key);
    for (const char *key : {"mlp", "dlp_machine", "tlp_machine", "ilp"})
        QVERIFY2(j["metrics"].contains(key), key);
    for (const char *key : {"n", "Z", "E", "R", "L", "M", "S_s", "L_s", "h", "alpha", "beta", "cache", "sm_count",
                            "clock_ghz", "warp_size", "max_warps", "request_bytes"}) {
        QVERIFY2(j["parameters"].contains(key), key);
    }
}

void TestCli::xgraphSetOverridesProfile()
{
    const json j = runJson({"xgraph", "--profile", "gtx570-sp", "--set", "cache=none", "--set", "Z=1000",
                            "--set=n=16", "--json"});
    QCOMPARE(j["parameters"]["Z"].get<double>(), 1000.0);
    QCOMPARE(j["parameters"]["n"].get<double>(), 16.0);
    QCOMPARE(j["parameters"]["cache"].get<std::string>(), std::string("none"));
    QVERIFY(j["operating_point"]["hit_rate"].is_null());
    QCOMPARE(j["equilibria"].size(), std::size_t(1));
    // Z = 1000 with M = 1: the compute side barely asks; almost every warp computes.
    QVERIFY(j["operating_point"]["x"].get<double>() > 15);
}

void TestCli::xgraphCurves()
{
    const json j = runJson({"xgraph", "--curves", "100", "--json"});
    const auto &c = j["curves"];
    QVERIFY(c["k"].size() >= 100);
    QCOMPARE(c["f_gbs"].size(), c["k"].size());
    QCOMPARE(c["g_gbs"].size(), c["k"].size());
    QCOMPARE(c["k"].front().get<double>(), 0.0);
    QCOMPARE(c["k"].back().get<double>(), j["parameters"]["n"].get<double>());
}

void TestCli::xgraphFindsBistableState()
{
    // The default profile's workload thrashes its cache: two stable states and a margin (Fig. 9-B).
    const json j = runJson({"xgraph", "--json"});
    QCOMPARE(j["equilibria"].size(), std::size_t(3));
    QCOMPARE(j["equilibria"][1]["stability"].get<std::string>(), std::string("unstable"));
    QVERIFY(j["margin_warps"].is_number());
    QCOMPARE(j["operating_point"]["k"].get<double>(), j["equilibria"][0]["k"].get<double>());
    QVERIFY(j["landmarks"]["psi"].is_number());
}

void TestCli::profilesJson()
{
    const json j = runJson({"profiles", "--json"});
    QVERIFY(j.is_array() && j.size() >= 10);
    for (const auto &p : j) {
        for (const char *key : {"id", "name", "kind"})
            QVERIFY2(p.contains(key), key);
        const std::string kind = p["kind"];
        QVERIFY(kind == "gpu" || kind == "cpu");
    }
    const Run text = run({"profiles"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("gtx570-sp") != std::string::npos);
}

void TestCli::latin1ProfileNameInJson()
{
    // A user profile whose file name is Latin-1, not UTF-8: profiles --json listed nothing ("internal error",
    // a JSON type error); the byte is now escaped as "\xe9" in the file's path.
    QTemporaryDir data;
    QVERIFY(QDir(data.path()).mkpath(QStringLiteral("Crossroof/profiles")));
    auto mine = nlohmann::json::parse(crossroof::core::profileToText(*crossroof::core::findBundledProfile("v100")));
    mine["id"] = "latin-v100";
    const std::string file = data.filePath(QStringLiteral("Crossroof/profiles")).toStdString() + "/r\xe9glage.json";
    std::ofstream(file) << mine.dump();
    const QByteArray old = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const Run r = run({"profiles", "--json"});
    old.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", old);
    QVERIFY2(r.status == 0, r.err.c_str());
    const auto list = nlohmann::json::parse(r.out);
    QCOMPARE(list.back()["id"].get<std::string>(), std::string("latin-v100"));
    const std::string origin = list.back()["origin"].get<std::string>();
    QVERIFY2(origin.ends_with("/r\\xe9glage.json"), origin.c_str());
}

void TestCli::profilesListUserProfiles()
{
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QVERIFY(QDir(data.path()).mkpath(QStringLiteral("Crossroof/profiles")));
    const QString dir = data.filePath(QStringLiteral("Crossroof/profiles"));
    const auto *v100 = crossroof::core::findBundledProfile("v100");
    auto mine = nlohmann::json::parse(crossroof::core::profileToText(*v100));
    mine["id"] = "my-v100";
    QFile good(dir + QStringLiteral("/my-v100.json"));
    QVERIFY(good.open(QIODevice::WriteOnly));
    good.write(QByteArray::fromStdString(mine.dump()));
    good.close();
    QFile bad(dir + QStringLiteral("/bad.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("[]");
    bad.close();

    const QByteArray old = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const Run r = run({"profiles", "--json"});
    const Run x = run({"xgraph", "--profile", "my-v100", "--json"});
    old.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", old);

    QCOMPARE(r.status, 0);
    const auto list = nlohmann::json::parse(r.out);
    QCOMPARE(list.size(), crossroof::core::bundledProfiles().size() + 1);
    const auto &last = list.back();
    QCOMPARE(last["id"].get<std::string>(), std::string("my-v100"));
    QVERIFY(last["user"].get<bool>());
    QVERIFY(!list.front()["user"].get<bool>());
    // The bad file is skipped with one message naming it, and the listing still succeeds.
    QVERIFY2(QString::fromStdString(r.err).contains(dir + QStringLiteral("/bad.json")), r.err.c_str());
    QCOMPARE(QString::fromStdString(r.err).count(QLatin1Char('\n')), 1);
    QCOMPARE(x.status, 0);
}

void TestCli::helpAndVersion()
{
    Run r = run({"--version"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.rfind("crossroof-cli ", 0) == 0);
    r = run({"xgraph", "--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("--set KEY=VALUE") != std::string::npos);
    r = run({"--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("xgraph") != std::string::npos);
    r = run({});
    QCOMPARE(r.status, 2);
}

void TestCli::helpCommandIsTheCommandsHelp()
{
    const Run help = run({"help", "markov"});
    QCOMPARE(help.status, 0);
    QCOMPARE(help.out, run({"markov", "--help"}).out);
    QVERIFY(help.out.find("--threads-per-group") != std::string::npos);
}

void TestCli::doubleDashEndsTheOptions()
{
    // A trailing "--" is accepted; "--help" after it is no longer an option.
    const Run r = run({"xgraph", "--profile", "v100", "--json", "--"});
    QCOMPARE(r.status, 0);
    QCOMPARE(nlohmann::json::parse(r.out).at("parameters").at("n").get<double>(), 64.0);
    QCOMPARE(run({"xgraph", "--", "--help"}).status, 2);
}

namespace {

/// A stream buffer that refuses every byte, as a full disk does.
class FullDisk : public std::streambuf
{
protected:
    int_type overflow(int_type) override { return traits_type::eof(); }
};

} // namespace

void TestCli::writeFailureExitsTwo()
{
    FullDisk full;
    std::ostream out(&full);
    std::ostringstream err;
    QCOMPARE(crossroof::cli::run({"xgraph", "--json"}, out, err), 2);
    QVERIFY2(err.str().find("crossroof-cli xgraph: cannot write the output") != std::string::npos,
             err.str().c_str());
    QCOMPARE(crossroof::cli::run({"--version"}, out, err), 2);
}

void TestCli::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown command") << QStringList{"rooftop"} << "unknown command 'rooftop'";
    QTest::newRow("unknown option") << QStringList{"xgraph", "--frobnicate"} << "unknown option '--frobnicate'";
    QTest::newRow("missing value") << QStringList{"xgraph", "--profile"} << "option '--profile' needs a value";
    QTest::newRow("unknown profile") << QStringList{"xgraph", "--profile", "gtx9999"} << "unknown profile 'gtx9999'";
    QTest::newRow("missing file") << QStringList{"xgraph", "--profile", "/no/such/file.json"}
                                  << "/no/such/file.json: cannot read (No such file or directory)";
    QTest::newRow("set without =") << QStringList{"xgraph", "--set", "Z"} << "expected KEY=VALUE";
    QTest::newRow("set unknown key") << QStringList{"xgraph", "--set", "foo=1"} << "unknown parameter 'foo'";
    QTest::newRow("set not a number") << QStringList{"xgraph", "--set", "Z=abc"} << "parameter 'Z': 'abc' is not a number";
    QTest::newRow("set negative latency") << QStringList{"xgraph", "--set", "L=-1"} << "parameter 'L': must be between";
    QTest::newRow("set nan") << QStringList{"xgraph", "--set", "Z=nan"} << "must be a finite number";
    QTest::newRow("set beyond double") << QStringList{"xgraph", "--set", "Z=1e400"}
                                       << "parameter 'Z': '1e400' is out of range: must be between 0.0001 and 10000000";
    QTest::newRow("set just above the limit") << QStringList{"xgraph", "--set", "cache=fixed", "--set", "h=1.0000001"}
                                              << "must be between 0 and 1 (got 1.0000001)";
    QTest::newRow("curves too few") << QStringList{"xgraph", "--curves", "1"} << "option '--curves': must be between";
    QTest::newRow("curves not a number") << QStringList{"xgraph", "--curves", "many"} << "is not a whole number";
    QTest::newRow("duplicate option") << QStringList{"xgraph", "--profile", "v100", "--profile", "v100"} << "given twice";
    QTest::newRow("stray argument") << QStringList{"xgraph", "v100"} << "unexpected argument 'v100'";
    QTest::newRow("flag with value") << QStringList{"profiles", "--json=yes"} << "takes no value";
    QTest::newRow("help unknown command") << QStringList{"help", "rooftop"} << "unknown command 'rooftop'";
    QTest::newRow("operand after --") << QStringList{"xgraph", "--", "--json"}
                                      << "unexpected argument '--json' after '--'";
}

void TestCli::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    crossroof::test::expectUsageError(args, message);
}

void TestCli::echoedArgumentsStayOneShortLine_data()
{
    // What a user typed is echoed with its line breaks and control characters escaped and cut to about 80
    // characters: the message is one line (expectUsageError checks that) of a readable length.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString huge(100'000, QLatin1Char('x'));
    QTest::newRow("--set value with line breaks")
        << QStringList{"xgraph", "--set", "Z=1\n2\n3"} << R"(parameter 'Z': '1\n2\n3' is not a number)";
    QTest::newRow("--set key with a line break") << QStringList{"xgraph", "--set", "Z\n=1"}
                                                 << R"(unknown parameter 'Z\n')";
    QTest::newRow("--set without = and an escape")
        << QStringList{"xgraph", "--set", "a\x1b[31mb"} << R"(expected KEY=VALUE (got 'a\x1b[31mb'))";
    QTest::newRow("--set huge value")
        << QStringList{"xgraph", "--set", "Z=" + huge} << "parameter 'Z': '" + QString(80, QLatin1Char('x'))
               + "... (100000 characters)' is not a number";
    QTest::newRow("--set huge key") << QStringList{"xgraph", "--set", huge + "=1"} << "... (100000 characters)'";
    QTest::newRow("unknown option with a line break") << QStringList{"xgraph", "--fo\no"} << R"(unknown option '--fo\no')";
    QTest::newRow("huge unknown option") << QStringList{"xgraph", "--" + huge} << "(100000 characters)'";
    QTest::newRow("huge stray argument") << QStringList{"xgraph", huge} << "unexpected argument 'xxx";
    QTest::newRow("unknown profile with a line break")
        << QStringList{"xgraph", "--profile", "a\nb"} << R"(unknown profile 'a\nb' (bundled: )";
    QTest::newRow("huge whole number") << QStringList{"xgraph", "--curves", huge} << "is not a whole number";
    QTest::newRow("huge --format") << QStringList{"stability-map", "--format", huge} << "(100000 characters)')";
    QTest::newRow("huge command") << QStringList{huge} << "unknown command 'xxx";
    // The third hostile review (scripts/hostile_review.sh): these were echoed whole, cut at 2,000 characters.
    const QString cut = QString(80, QLatin1Char('x')) + QStringLiteral("... (100000 characters)'");
    QTest::newRow("huge --cc")
        << QStringList{"occupancy", "--cc", huge, "--threads", "256", "--regs", "32", "--smem", "0"}
        << "unknown compute capability '" + cut;
    const QStringList mappings{"mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.5", "--point"};
    QTest::newRow("huge --point") << mappings + QStringList{huge} << "option '--point': '" + cut + " is not";
    QTest::newRow("huge --point strategy")
        << mappings + QStringList{huge + "=0.5,0.5"} << "has no strategy '" + cut;
}

void TestCli::echoedArgumentsStayOneShortLine()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    crossroof::test::expectUsageError(args, message);
    std::vector<std::string> argv;
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    const Run r = run(argv);
    QVERIFY2(r.err.size() < 700, r.err.substr(0, 1000).c_str());
}

void TestCli::unknownProfileListsAFewSkippedFiles()
{
    // 50 bad user profiles with long names: an unknown id's message names the first few and counts the rest.
    QTemporaryDir data;
    QVERIFY(data.isValid());
    QVERIFY(QDir(data.path()).mkpath(QStringLiteral("Crossroof/profiles")));
    const QString dir = data.filePath(QStringLiteral("Crossroof/profiles"));
    for (int i = 0; i < 50; ++i) {
        QFile bad(dir + QStringLiteral("/bad-%1-%2.json").arg(i, 2, 10, QLatin1Char('0')).arg(QString(150, QLatin1Char('b'))));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[]");
    }
    const QByteArray old = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const Run r = run({"xgraph", "--profile", "no-such-gpu"});
    old.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", old);
    QCOMPARE(r.status, 2);
    const QString e = QString::fromStdString(r.err);
    QVERIFY2(e.startsWith(QStringLiteral("crossroof-cli xgraph: unknown profile 'no-such-gpu' (bundled: ")), qPrintable(e));
    // Three skipped files' names would fill the line: the long ones lose their middle (tst_cli_hostile).
    QVERIFY2(e.contains(QStringLiteral("skipped: ")) && e.endsWith(QStringLiteral("; and 47 more\n")), qPrintable(e));
    QVERIFY2(!e.contains(QStringLiteral("bad-03-")), qPrintable(e));
    QCOMPARE(e.count(QLatin1Char('\n')), 1);
    QVERIFY2(e.size() < 300, qPrintable(QString::number(e.size())));
}

void TestCli::nonFiniteOutputIsAnInternalError()
{
    // The last line of defence behind the checks where sums and products are made: a number that is not finite
    // never reaches the output as null, inf or nan; it is an internal error naming the field (exit status 1).
    using crossroof::cli::Json;
    const auto messageOf = [](const auto &f) {
        try {
            f();
        } catch (const std::logic_error &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    Json j;
    j["points"] = Json::array({Json::object({{"R", 1.0}}), Json::object({{"R", std::nan("")}})});
    QCOMPARE(messageOf([&] { crossroof::cli::jsonOutput(j); }),
             std::string("--json output: field 'points[1].R' is a number that is not finite"));
    Json nested;
    nested["grid"] = Json::array({Json::array({1.0, 2.0}), Json::array({3.0, -HUGE_VAL})});
    QCOMPARE(messageOf([&] { crossroof::cli::jsonOutput(nested); }),
             std::string("--json output: field 'grid[1][1]' is a number that is not finite"));
    QCOMPARE(messageOf([] { crossroof::cli::fmt(HUGE_VAL, "%.4f"); }),
             std::string("text output: a number that is not finite (printed with %.4f)"));
    // Finite numbers, integers and the nulls a command writes on purpose (an infinite CPI) pass.
    Json fine;
    fine["cpi"] = nullptr;
    fine["values"] = Json::array({1e308, -1e-308, 0.0, 42});
    QCOMPARE(crossroof::cli::jsonOutput(fine, -1), std::string(R"({"cpi":null,"values":[1e+308,-1e-308,0.0,42]})"));
    QCOMPARE(crossroof::cli::fmt(1e308, "%.3g"), std::string("1e+308"));
}

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
