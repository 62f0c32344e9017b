// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/traces/perf_stat.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

using namespace crossroof;

namespace {

const std::string kExcerpt = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_excerpt.tsv";
const std::string kFull = std::string(CROSSROOF_SHARED_DIR) + "/data/perf-stat/perf_result.tsv";

QString parseError(const std::string &text, const std::string &source = "t.tsv")
{
    try {
        core::parsePerfStat(text, source);
    } catch (const core::InputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

} // namespace

class TestPerfStat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void excerpt();
    void fullFile();
    void layouts_data();
    void layouts();
    void notCountedAndComments();
    void oneEventPerLine();
    void eventLookup();
    void rejectsBadInput_data();
    void rejectsBadInput();
    void rejectsOversizedAndMissingFiles();
};

void TestPerfStat::excerpt()
{
    const core::PerfStat s = core::readPerfStat(kExcerpt);
    QCOMPARE(s.records.size(), std::size_t(207));
    QVERIFY(s.interval_mode);
    QVERIFY(s.per_cpu);
    QCOMPARE(s.separator, '\t');
    QCOMPARE(s.cpus, (std::vector<int>{0, 1, 2, 3}));
    QCOMPARE(s.times, (std::vector<double>{1.001047559, 2.011262328, 3.020441696}));
    QCOMPARE(s.events.size(), std::size_t(21));
    QCOMPARE(s.events.front().name, std::string("cpu-clock"));
    QCOMPARE(s.events.front().unit, std::string("msec"));

    // Sums per event (checked with awk on the file).
    const auto &cycles = s.event("cycles:D");
    QCOMPARE(cycles.total, 160398829.0);
    QCOMPARE(cycles.readings, 12);
    QCOMPARE(cycles.perCpu()[2], 42375694.0);
    QCOMPARE(s.event("instructions:D").total, 85572708.0);
    QVERIFY(std::abs(s.event("cpu-clock").total - 12169.34) < 1e-9);
    QCOMPARE(s.event("imc/event=0x04,umask=0x0f/").total, 3078612.0);
    QCOMPARE(s.event("duration_time").perCpu(), (std::vector<double>{3020441696.0, 0, 0, 0}));
    double perIntervalSum = 0;
    for (double v : cycles.perInterval())
        perIntervalSum += v;
    QCOMPARE(perIntervalSum, cycles.total);

    // One record, every field.
    const core::PerfStatRecord &r = s.records.front();
    QCOMPARE(*r.time, 1.001047559);
    QCOMPARE(r.cpu, 0);
    QCOMPARE(*r.value, 1023.54);
    QCOMPARE(r.unit, std::string("msec"));
    QCOMPARE(r.event, std::string("cpu-clock"));
    QCOMPARE(r.run_time, 1023539561.0);
    QCOMPARE(r.enabled_percent, 100.0);
    QCOMPARE(*r.metric_value, 1.024);
    QCOMPARE(r.metric_unit, std::string("CPUs utilized"));
    QCOMPARE(r.line, 1);
    QCOMPARE(core::cyclesPerInstruction(s), 160398829.0 / 85572708.0);
}

void TestPerfStat::fullFile()
{
    if (!QFile::exists(QString::fromStdString(kFull)))
        QSKIP("../shared/data/perf-stat/perf_result.tsv is not here");
    const core::PerfStat s = core::readPerfStat(kFull);
    QCOMPARE(s.records.size(), std::size_t(10330));
    QCOMPARE(s.cpus.size(), std::size_t(64));
    QCOMPARE(s.cpus.back(), 63);
    QCOMPARE(s.times.size(), std::size_t(10));
    QCOMPARE(s.events.size(), std::size_t(21));
    // Totals over 10 intervals and 64 CPUs (awk: sum of column 3 per event).
    QCOMPARE(s.event("cycles").total, 48416815706.0);
    QCOMPARE(s.event("instructions").total, 62807577205.0);
    QCOMPARE(s.event("r83d0").total, 26272352772.0);
    QCOMPARE(s.event("cha/event=0x34,umask=0x1fffff/").total, 484550180.0);
    QCOMPARE(s.event("cycles:D").perCpu()[0], 223808769.0);
    QCOMPARE(s.event("instructions:D").perCpu()[0], 109346613.0);
    // Uncore counters are reported on one CPU per socket.
    const auto &imc = s.event("imc/event=0x04,umask=0x0f/");
    QCOMPARE(imc.readings, 20);
    QVERIFY(imc.perCpu()[0] > 0 && imc.perCpu()[16] > 0 && imc.perCpu()[1] == 0); // CPU16 starts socket 1
    // CPI per interval: the seventh second is the busy one.
    QVERIFY(std::abs(core::cyclesPerInstruction(s) - 48416815706.0 / 62807577205.0) < 1e-15);
    const auto cpi = core::cyclesPerInstructionPerInterval(s);
    QCOMPARE(cpi.size(), std::size_t(10));
    QVERIFY(std::abs(*cpi[0] - 0.6434326906) < 1e-9);
    QVERIFY(std::abs(*cpi[6] - 1.485819215) < 1e-9);
}

void TestPerfStat::layouts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("interval");
    QTest::addColumn<bool>("perCpu");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<int>("times");
    QTest::newRow("-I -A") << "  1.0\tCPU0\t100\t\tcycles\t1000\t100.00\t1.0\tGHz\n"
                              "  1.0\tCPU1\t50\t\tcycles\t1000\t100.00\t\t\n"
                              "  2.0\tCPU0\t70\t\tcycles\t1000\t100.00\t\t\n"
                           << true << true << 2 << 2;
    QTest::newRow("-I") << "     1.000\t120\t\tcycles\t2000\t100.00\t1.2\tGHz\n"
                           "     2.000\t100\t\tcycles\t2000\t100.00\t\t\n"
                        << true << false << 0 << 2;
    QTest::newRow("-A") << "CPU0\t120\t\tcycles\t2000\t100.00\n"
                           "CPU7\t100\t\tcycles\t2000\t100.00\n"
                        << false << true << 2 << 0;
    QTest::newRow("neither") << "220\t\tcycles\t2000\t100.00\t\t\n" << false << false << 0 << 0;
    QTest::newRow("neither, unit msec") << "3.05\tmsec\tcpu-clock\t3050000\t100.00\t0.9\tCPUs utilized\n"
                                        << false << false << 0 << 0;
    QTest::newRow("comma separator")
            << "1.0,CPU0,120,,cycles,2000,100.00,,\n2.0,CPU0,100,,cycles,2000,100.00,,\n"
            << true << true << 1 << 2;
    QTest::newRow("CRLF")
            << "1.0\tCPU0\t120\t\tcycles\t2000\t100.00\r\n2.0\tCPU0\t100\t\tcycles\t2000\t100.00\r\n"
            << true << true << 1 << 2;
}

void TestPerfStat::layouts()
{
    QFETCH(QString, text);
    QFETCH(bool, interval);
    QFETCH(bool, perCpu);
    QFETCH(int, cpus);
    QFETCH(int, times);
    const core::PerfStat s = core::parsePerfStat(text.toStdString(), "t.tsv");
    QCOMPARE(s.interval_mode, interval);
    QCOMPARE(s.per_cpu, perCpu);
    QCOMPARE(int(s.cpus.size()), cpus);
    QCOMPARE(int(s.times.size()), times);
    const core::PerfStatEvent &e = s.events.front();
    QCOMPARE(int(e.perCpu().size()), std::max(1, cpus));
    QCOMPARE(int(e.perInterval().size()), std::max(1, times));
    double sum = 0;
    for (const auto &r : s.records)
        sum += *r.value;
    QCOMPARE(e.total, sum);
    QVERIFY(e.unit.empty() || e.unit == "msec");
}

void TestPerfStat::notCountedAndComments()
{
    const std::string text = "# started on Mon Jun 12 10:00:00 2023\n"
                             "\n"
                             "     1.001\tCPU0\t<not counted>\t\tr08d1\t0\t0.00\t\t\n"
                             "     1.001\tCPU1\t<not supported>\t\tr08d1\t0\t0.00\t\t\n"
                             "     1.001\tCPU0\t300\t\tcycles\t100\t100.00\t\t\n"
                             "     1.001\tCPU1\t500\t\tcycles\t100\t50.00\tnan\t\n"
                             "   # a comment in between\n"
                             "     2.002\tCPU0\t7\t\tr08d1\t100\t100.00\t\t\n";
    const core::PerfStat s = core::parsePerfStat(text, "t.tsv");
    QCOMPARE(s.records.size(), std::size_t(5));
    QCOMPARE(s.records.front().line, 3);
    QVERIFY(!s.records.front().value);
    const core::PerfStatEvent &miss = s.event("r08d1");
    QCOMPARE(miss.not_counted, 2);
    QCOMPARE(miss.readings, 1);
    QCOMPARE(miss.total, 7.0);
    QCOMPARE(miss.perInterval(), (std::vector<double>{0, 7}));
    QCOMPARE(s.event("cycles").perCpu(), (std::vector<double>{300, 500}));
    QCOMPARE(s.records[3].enabled_percent, 50.0);
    QVERIFY(!s.records[3].metric_value); // a derived nan metric is left out, not an error
    const auto cpi = core::cyclesPerInstructionPerInterval(s, "cycles", "cycles");
    QVERIFY(cpi[0] && *cpi[0] == 1 && !cpi[1]);
}

void TestPerfStat::oneEventPerLine()
{
    // Every line its own interval and its own event, on two CPUs in turn: the sums stay one per reading (a
    // dense table of events x intervals was 20,000 x 20,000 numbers here, 3.2 GB, and 7 GB for a 1 MB file).
    constexpr int kLines = 20000;
    std::string text;
    for (int i = 0; i < kLines; ++i)
        text += std::to_string(i + 1) + ".0,CPU" + std::to_string(i % 2) + "," + std::to_string(100 + i) + ",,ev"
                + std::to_string(i) + ",1000,100.00\n";
    // And one event counted on both CPUs in two intervals, the readings of an interval summed.
    text += "1.0,CPU0,5,,cycles,1000,100.00\n1.0,CPU1,6,,cycles,1000,100.00\n3.0,CPU1,7,,cycles,1000,100.00\n";
    const core::PerfStat s = core::parsePerfStat(text, "t.csv");
    QCOMPARE(s.events.size(), std::size_t(kLines + 1));
    QCOMPARE(s.times.size(), std::size_t(kLines));
    QCOMPARE(s.cpus, (std::vector<int>{0, 1}));
    for (int i : {0, 1, 4567, kLines - 1}) {
        const core::PerfStatEvent &e = s.event("ev" + std::to_string(i));
        QCOMPARE(e.interval_sums.size(), std::size_t(1));
        QCOMPARE(e.cpu_sums.size(), std::size_t(1));
        const std::vector<double> perInterval = e.perInterval();
        QCOMPARE(perInterval.size(), std::size_t(kLines));
        QCOMPARE(perInterval[std::size_t(i)], 100.0 + i);
        QCOMPARE(std::accumulate(perInterval.begin(), perInterval.end(), 0.0), 100.0 + i);
        QCOMPARE(e.perCpu(), (i % 2 == 0 ? std::vector<double>{100.0 + i, 0} : std::vector<double>{0, 100.0 + i}));
    }
    const core::PerfStatEvent &cycles = s.event("cycles");
    QCOMPARE(cycles.perCpu(), (std::vector<double>{5, 13}));
    QCOMPARE(cycles.interval_sums, (std::vector<std::pair<std::size_t, double>>{{0, 11}, {2, 7}}));
    QCOMPARE(cycles.perInterval()[0], 11.0);
    QCOMPARE(cycles.perInterval()[2], 7.0);
}

void TestPerfStat::eventLookup()
{
    const std::string text = "1\t\tcycles:u\t1\t100\n2\t\tcycles:k\t1\t100\n3\t\tinstructions:D\t1\t100\n";
    const core::PerfStat s = core::parsePerfStat(text, "t.tsv");
    QVERIFY(s.find("instructions") == &s.events[2]); // the modifier is optional
    QVERIFY(s.find("cycles:k") == &s.events[1]);
    QVERIFY(s.find("cycles") == nullptr); // ambiguous
    QVERIFY(s.find("branches") == nullptr);
    try {
        s.event("branches");
        QFAIL("no exception");
    } catch (const core::InputError &e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral(
                         "t.tsv: no single event 'branches' (events: cycles:u, cycles:k, instructions:D)"));
    }
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::cyclesPerInstruction(s));
}

void TestPerfStat::rejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray good = "  1.0\tCPU0\t100\t\tcycles\t1000\t100.00\t\t\n";
    QTest::newRow("empty file") << QByteArray() << "t.tsv: empty file, no perf stat records";
    QTest::newRow("blank lines") << QByteArray("\n  \n\n") << "t.tsv: empty file";
    QTest::newRow("header only") << QByteArray("# started on Mon Jun 12 2023\n\n")
                                 << "t.tsv: no perf stat records, only comment lines";
    QTest::newRow("binary junk") << QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", 16)
                                 << "t.tsv:1: binary data (byte 0x7f in column 1)";
    QTest::newRow("NUL later on") << good + QByteArray("  2.0\tCPU0\t1\0", 14)
                                  << "t.tsv:2: binary data (byte 0x00";
    QTest::newRow("nan value") << good + "  2.0\tCPU0\tnan\t\tcycles\t1000\t100.00\t\t\n"
                               << "t.tsv:2: field 'value': 'nan' is not a finite number";
    QTest::newRow("inf value") << good + "  2.0\tCPU0\tinf\t\tcycles\t1000\t100.00\t\t\n"
                               << "t.tsv:2: field 'value': 'inf' is not a finite number";
    QTest::newRow("text value") << good + "  2.0\tCPU0\tlots\t\tcycles\t1000\t100.00\t\t\n"
                                << "t.tsv:2: field 'value': 'lots' is not a number";
    QTest::newRow("negative value") << good + "  2.0\tCPU0\t-5\t\tcycles\t1000\t100.00\t\t\n"
                                    << "t.tsv:2: field 'value': must not be negative";
    QTest::newRow("too few fields")
            << good + good + "  2.0\tCPU0\t100\t\n"
            << "t.tsv:3: 4 fields, expected at least 7 (time, CPU, value, unit, event, "
               "run time, percentage)";
    QTest::newRow("too many fields") << good + "1\tCPU0\t1\t\tcycles\t1\t100\t\t\t\textra\n"
                                     << "t.tsv:2: 11 fields, expected at most 9";
    QTest::newRow("bad CPU") << good + "  2.0\tcore0\t100\t\tcycles\t1000\t100.00\t\t\n"
                             << "t.tsv:2: field 'CPU': 'core0' is not CPU<number>";
    QTest::newRow("bad time") << good + "  soon\tCPU0\t100\t\tcycles\t1000\t100.00\t\t\n"
                              << "t.tsv:2: field 'time': 'soon' is not a number";
    QTest::newRow("inf run time") << good + "  2.0\tCPU0\t100\t\tcycles\tinf\t100.00\t\t\n"
                                  << "t.tsv:2: field 'run time': 'inf' is not a finite number";
    QTest::newRow("percentage > 100") << good + "  2.0\tCPU0\t100\t\tcycles\t1000\t250\t\t\n"
                                      << "t.tsv:2: field 'percentage': must be at most 100";
    QTest::newRow("empty event") << good + "  2.0\tCPU0\t100\t\t\t1000\t100.00\t\t\n"
                                 << "t.tsv:2: field 'event': is empty";
    QTest::newRow("bad metric") << good + "  2.0\tCPU0\t100\t\tcycles\t1000\t100.00\tx\t\n"
                                << "t.tsv:2: field 'metric value': 'x' is not a number";
    QTest::newRow("prose") << QByteArray("Performance counter stats for 'sleep 1':\n")
                           << "t.tsv:1: 1 field, expected at least 5";
}

void TestPerfStat::rejectsBadInput()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const QString e = parseError(text.toStdString());
    QVERIFY2(e.startsWith(message), qPrintable(e));
}

void TestPerfStat::rejectsOversizedAndMissingFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (dir.path() + QStringLiteral("/huge.tsv")).toStdString();
    {
        std::ofstream out(path);
        out << "  1.0\tCPU0\t100\t\tcycles\t1000\t100.00\t\t\n";
    }
    std::filesystem::resize_file(path, core::kPerfStatMaxBytes + 1); // sparse: costs no disk
    try {
        core::readPerfStat(path);
        QFAIL("no exception");
    } catch (const core::InputError &e) {
        QCOMPARE(
                QString::fromUtf8(e.what()),
                QString::fromStdString(path + ": 67108865 bytes, over the 64 MiB limit for perf stat files"));
    }
    try {
        core::readPerfStat(path + ".missing");
        QFAIL("no exception");
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).startsWith(
                QString::fromStdString(path + ".missing: cannot read")));
    }
}

QTEST_APPLESS_MAIN(TestPerfStat)
#include "tst_perf_stat.moc"
