// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <sstream>

using nlohmann::json;

namespace {

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;

std::vector<std::string> strings(const json &array)
{
    std::vector<std::string> out;
    for (const auto &v : array)
        out.push_back(v.get<std::string>());
    return out;
}

} // namespace

class TestCliOccupancy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void occupancyJsonKeys();
    void occupancyMatchesNvidiaCalculator();
    void occupancyPaperMode();
    void occupancySmemConfig();
    void occupancySweep();
    void occupancyText();
    void zigzagJson();
    void zigzagText();
    void helpTexts();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
};

void TestCliOccupancy::occupancyJsonKeys()
{
    const json j = runJson(
            {"occupancy", "--cc", "8.0", "--threads", "256", "--regs", "64", "--smem", "12288", "--json"});
    for (const char *key : {"blocks", "warps_per_sm", "occupancy", "limiters", "by"})
        QVERIFY2(j.contains(key), key);
    for (const char *key : {"warps", "blocks", "registers", "shared_memory"})
        QVERIFY2(j["by"].contains(key), key);
    QVERIFY(j["limiters"].is_array());
    QVERIFY(j["blocks"].is_number_integer());
    QVERIFY(j["warps_per_sm"].is_number_integer()); // whole warps in the CUDA rule
    QCOMPARE(j["mode"].get<std::string>(), std::string("cuda"));
    QVERIFY(!j.contains("sweep")); // only with --sweep
}

void TestCliOccupancy::occupancyMatchesNvidiaCalculator()
{
    json j = runJson(
            {"occupancy", "--cc", "8.0", "--threads", "256", "--regs", "64", "--smem", "12288", "--json"});
    QCOMPARE(j["blocks"].get<int>(), 4);
    QCOMPARE(j["warps_per_sm"].get<int>(), 32);
    QCOMPARE(j["occupancy"].get<double>(), 0.5);
    QCOMPARE(strings(j["limiters"]), std::vector<std::string> {"registers"});
    QCOMPARE(j["by"]["warps"].get<int>(), 8);
    QCOMPARE(j["by"]["blocks"].get<int>(), 32);
    QCOMPARE(j["by"]["registers"].get<int>(), 4);
    QCOMPARE(j["by"]["shared_memory"].get<int>(), 12);

    j = runJson({"occupancy", "--cc", "7.0", "--threads", "128", "--regs", "32", "--smem", "0", "--json"});
    QCOMPARE(j["blocks"].get<int>(), 16);
    QCOMPARE(j["warps_per_sm"].get<int>(), 64);
    QCOMPARE(j["occupancy"].get<double>(), 1.0);
    QCOMPARE(strings(j["limiters"]), (std::vector<std::string> {"warps", "registers"}));
    QVERIFY(j["by"]["shared_memory"].is_null()); // no shared memory: no limit
    QCOMPARE(j["smem_config"].get<long long>(), 98304LL);
}

void TestCliOccupancy::occupancyPaperMode()
{
    // Eq. 4 as printed on CC 8.0 with 100 threads: 65536/(64*100) = 10 by registers; 100 threads are 3.125
    // warps, so 31.25 warps per SM.
    const json j = runJson({"occupancy", "--cc", "8.0", "--threads", "100", "--regs", "64", "--smem", "12288",
                            "--mode", "paper", "--json"});
    QCOMPARE(j["mode"].get<std::string>(), std::string("paper"));
    QCOMPARE(j["blocks"].get<int>(), 10);
    QCOMPARE(j["warps_per_sm"].get<double>(), 31.25);
    QCOMPARE(j["occupancy"].get<double>(), 1000.0 / 2048);
    QCOMPARE(strings(j["limiters"]), std::vector<std::string> {"registers"});
    QCOMPARE(j["by"]["warps"].get<int>(), 20);
    QCOMPARE(j["by"]["shared_memory"].get<int>(), 13);
    const json cuda = runJson({"occupancy", "--cc", "8.0", "--threads", "100", "--regs", "64", "--smem",
                               "12288", "--mode=cuda", "--json"});
    QCOMPARE(cuda["blocks"].get<int>(), 8);
}

void TestCliOccupancy::occupancySmemConfig()
{
    // 32 KiB per block in the 32 KiB carveout of CC 7.0: one block, limited by shared memory.
    const json j = runJson({"occupancy", "--cc", "7.0", "--threads", "128", "--regs", "32", "--smem", "32768",
                            "--smem-config", "32768", "--json"});
    QCOMPARE(j["blocks"].get<int>(), 1);
    QCOMPARE(strings(j["limiters"]), std::vector<std::string> {"shared_memory"});
    QCOMPARE(j["smem_config"].get<long long>(), 32768LL);
    // Too many registers per thread: zero blocks is an answer, not an error.
    const json zero = runJson(
            {"occupancy", "--cc", "8.0", "--threads", "128", "--regs", "300", "--smem", "0", "--json"});
    QCOMPARE(zero["blocks"].get<int>(), 0);
    QCOMPARE(zero["occupancy"].get<double>(), 0.0);
    QCOMPARE(zero["by"]["registers"].get<int>(), 0);
}

void TestCliOccupancy::occupancySweep()
{
    const json j = runJson({"occupancy", "--cc", "8.6", "--threads", "256", "--regs", "32", "--smem", "0",
                            "--sweep", "threads", "--json"});
    const json &s = j["sweep"];
    QCOMPARE(s["variable"].get<std::string>(), std::string("threads"));
    QCOMPARE(s["x"].size(), std::size_t(32));
    QCOMPARE(s["x"].front().get<int>(), 32);
    QCOMPARE(s["x"].back().get<int>(), 1024);
    for (const char *key : {"blocks", "warps_per_sm", "occupancy", "limiters"})
        QCOMPARE(s[key].size(), s["x"].size());
    for (const auto &o : s["occupancy"])
        QVERIFY(o.get<double>() >= 0 && o.get<double>() <= 1);
    // The point at the base configuration is the single-point answer.
    QCOMPARE(s["blocks"][7].get<int>(), j["blocks"].get<int>());
    const Run text = run({"occupancy", "--cc", "8.6", "--threads", "256", "--regs", "32", "--smem", "0",
                          "--sweep", "registers"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("Sweep over registers") != std::string::npos);
}

void TestCliOccupancy::occupancyText()
{
    const Run r = run({"occupancy", "--cc", "8.0", "--threads", "256", "--regs", "64", "--smem", "12288"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.err.empty());
    for (const char *text : {"CC 8.0, cuda rule", "Active blocks per SM  4", "Resident warps per SM 32 of 64",
                             "Occupancy             50.0 %", "Limited by            registers",
                             "registers      4  <- limiter", "shared_memory  12"}) {
        QVERIFY2(r.out.find(text) != std::string::npos, text);
    }
    QVERIFY(r.out.find('{') == std::string::npos); // not JSON
}

void TestCliOccupancy::zigzagJson()
{
    // Fig. 1: B_a = 1, 15 SMs: f_sched = 1 exactly at 15, 30, 45 and above 1 elsewhere.
    const json j = runJson({"zigzag", "--sms", "15", "--ba", "1", "--br", "1:45", "--json"});
    QCOMPARE(j["br"].size(), std::size_t(45));
    QCOMPARE(j["f_sched"].size(), std::size_t(45));
    for (std::size_t i = 0; i < 45; ++i) {
        const long long br = j["br"][i].get<long long>();
        QCOMPARE(br, (long long)(i) + 1);
        const double f = j["f_sched"][i].get<double>();
        if (br % 15 == 0)
            QCOMPARE(f, 1.0);
        else
            QVERIFY(f > 1.0);
    }
    QCOMPARE(j["minima"].get<std::vector<long long>>(), (std::vector<long long> {15, 30, 45}));
    QCOMPARE(j["blocks_per_pass"].get<long long>(), 15LL);
    QCOMPARE(j["f_sched"][15].get<double>(), 30.0 / 16);
}

void TestCliOccupancy::zigzagText()
{
    const Run r = run({"zigzag", "--sms", "15", "--ba", "2", "--br", "25:35"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("30 blocks per pass") != std::string::npos);
    QVERIFY(r.out.find("Minima (f_sched = 1) at B_r = 30") != std::string::npos);
    QVERIFY(r.out.find("          30       1    1.0000") != std::string::npos);
    QVERIFY(r.out.find("          31       2    1.9355") != std::string::npos);
}

void TestCliOccupancy::helpTexts()
{
    Run r = run({"occupancy", "--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("--mode cuda|paper") != std::string::npos);
    QVERIFY(r.out.find("--smem-config BYTES") != std::string::npos);
    r = run({"zigzag", "--help"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("--br MIN:MAX") != std::string::npos);
    r = run({"--help"});
    QVERIFY(r.out.find("occupancy") != std::string::npos);
    QVERIFY(r.out.find("zigzag") != std::string::npos);
}

void TestCliOccupancy::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QStringList ok{"--cc", "8.0", "--threads", "128", "--regs", "32", "--smem", "0"};
    auto with = [&](const QString &option, const QString &value) {
        QStringList args{QStringLiteral("occupancy")};
        for (qsizetype i = 0; i < ok.size(); i += 2)
            args << ok[i] << (ok[i] == option ? value : ok[i + 1]);
        return args;
    };
    QTest::newRow("0 threads") << with("--threads", "0")
                               << "option '--threads': must be between 1 and 1024 (got 0)";
    QTest::newRow("2000 threads") << with("--threads", "2000")
                                  << "option '--threads': must be between 1 and 1024 (got 2000)";
    QTest::newRow("threads not a number")
            << with("--threads", "many") << "option '--threads': 'many' is not a whole number";
    QTest::newRow("unknown CC") << with("--cc", "4.2")
                                << "option '--cc': unknown compute capability '4.2' (known: 2.0, 3.5, 5.0, 5.2";
    QTest::newRow("negative registers")
            << with("--regs", "-1") << "option '--regs': must be between 0 and 65536 (got -1)";
    QTest::newRow("negative smem") << with("--smem", "-4") << "option '--smem': must be between 0";
    const QStringList noCc{"occupancy", "--threads", "128", "--regs", "32", "--smem", "0"};
    QTest::newRow("missing --cc") << noCc << "option '--cc' is required";
    const QStringList noSmem{"occupancy", "--cc", "8.0", "--threads", "128", "--regs", "32"};
    QTest::newRow("missing --smem") << noSmem << "option '--smem' is required";
    const QStringList valid = with(QString(), QString());
    QTest::newRow("bad mode") << valid + QStringList{"--mode", "exact"}
                              << "option '--mode': must be cuda or paper (got 'exact')";
    QTest::newRow("bad carveout") << valid + QStringList{"--smem-config", "1000"}
                                  << "option '--smem-config': 1000 bytes is not a configuration of CC 8.0";
    QTest::newRow("bad sweep") << valid + QStringList{"--sweep", "warps"}
                               << "option '--sweep': must be threads, registers or shared_memory";
    QTest::newRow("unknown option") << valid + QStringList{"--sm", "80"} << "unknown option '--sm'";
    QTest::newRow("zigzag 0 SMs") << QStringList{"zigzag", "--sms", "0", "--ba", "1", "--br", "1:10"}
                                  << "option '--sms': must be between 1";
    QTest::newRow("zigzag negative B_a")
            << QStringList{"zigzag", "--sms", "15", "--ba", "-2", "--br", "1:10"}
            << "option '--ba': must be between 1";
    QTest::newRow("zigzag bad range") << QStringList{"zigzag", "--sms", "15", "--ba", "1", "--br", "10"}
                                      << "option '--br': expected MIN:MAX";
    QTest::newRow("zigzag reversed range")
            << QStringList{"zigzag", "--sms", "15", "--ba", "1", "--br", "10:5"}
            << "option '--br': need 1 <= MIN <= MAX";
    QTest::newRow("zigzag range from 0") << QStringList{"zigzag", "--sms", "15", "--ba", "1", "--br", "0:5"}
                                         << "option '--br': need 1 <= MIN <= MAX";
    QTest::newRow("zigzag too many SMs") << QStringList{"zigzag", "--sms", "2000000", "--ba", "1", "--br", "1:10"}
                                         << "option '--sms': must be between 1 and 1048576 (got 2000000)";
    QTest::newRow("zigzag huge range")
            << QStringList{"zigzag", "--sms", "15", "--ba", "1", "--br", "1:5000000"}
            << "option '--br': 5000000 values, at most 1000000";
    QTest::newRow("zigzag missing --br")
            << QStringList{"zigzag", "--sms", "15", "--ba", "1"} << "option '--br' is required";
}

void TestCliOccupancy::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    crossroof::test::expectUsageError(args, message);
}

QTEST_APPLESS_MAIN(TestCliOccupancy)
#include "tst_cli_occupancy.moc"
