// SPDX-License-Identifier: GPL-3.0-or-later
// --format csv of every command whose output is a table: the CSV, read back with an RFC 4180 reader, holds
// the same values as the command's JSON (numbers exactly, null as an empty field), a header with units, no
// NaN or inf.

#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;
using Table = std::vector<std::vector<std::string>>;

const std::string kRaw = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_raw.csv";
const std::string kDetails = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_details.csv";
const std::string kPerfStat = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/perf_stat_excerpt.tsv";

/// An RFC 4180 reader: quoted fields may hold commas, doubled quotes and line breaks. Records end in LF
/// (CRLF is accepted). Fails the test on a malformed quote or a ragged table.
bool parseCsv(const std::string &text, Table &table)
{
    table.clear();
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    bool wasQuoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            if (!field.empty() || wasQuoted)
                return false; // a quote inside an unquoted field
            quoted = wasQuoted = true;
        } else if (c == ',') {
            record.push_back(field);
            field.clear();
            wasQuoted = false;
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            continue;
        } else if (c == '\n') {
            record.push_back(field);
            field.clear();
            wasQuoted = false;
            table.push_back(record);
            record.clear();
        } else {
            if (wasQuoted)
                return false; // text after a closing quote
            field += c;
        }
    }
    if (quoted || !field.empty() || !record.empty())
        return false; // an open quote or a last record without its line end
    for (const auto &r : table) {
        if (r.size() != table.front().size())
            return false;
    }
    return !table.empty();
}

Table runCsv(const std::vector<std::string> &args)
{
    const Run r = run(args);
    if (r.status != 0)
        qWarning("%s", r.err.c_str());
    Table t;
    if (r.status != 0 || !parseCsv(r.out, t))
        qWarning("not CSV: %s", r.out.substr(0, 300).c_str());
    return t;
}

/// FIELD as a number: it must read back completely, and be finite.
double number(const std::string &field)
{
    double v = std::nan("");
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || end != field.data() + field.size() || !std::isfinite(v)) {
        qWarning("'%s' is not a finite number", field.c_str());
        return std::nan("");
    }
    return v;
}

/// FIELD against the JSON value V: null is the empty field, numbers compare exactly, booleans are
/// true/false, strings as they are.
bool same(const std::string &field, const json &v)
{
    bool ok = false;
    if (v.is_null())
        ok = field.empty();
    else if (v.is_boolean())
        ok = field == (v.get<bool>() ? "true" : "false");
    else if (v.is_number())
        ok = !field.empty() && number(field) == v.get<double>();
    else if (v.is_string())
        ok = field == v.get<std::string>();
    else if (v.is_array()) {
        // A kernel's diagnosis: its changes in one cell, "change: +35 %; change: +12 %".
        std::string joined;
        for (const json &c : v) {
            char gain[32];
            std::snprintf(gain, sizeof gain, "%+.0f %%", c["gain"].get<double>() * 100);
            joined += (joined.empty() ? "" : "; ") + c["change"].get<std::string>() + ": " + gain;
        }
        ok = field == joined;
    }
    if (!ok)
        qWarning("CSV field '%s' differs from JSON %s", field.c_str(), v.dump().c_str());
    return ok;
}

std::vector<std::string> withFormat(std::vector<std::string> args, const char *format)
{
    args.push_back("--format");
    args.push_back(format);
    return args;
}

} // namespace

class TestCliCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fieldQuoting();
    void zigzag();
    void stabilityMap();
    void hysteresis();
    void markovSurface();
    void mappings();
    void bandwidthCurve();
    void kernels();
    void roofline();
    void formatJsonIsJson_data();
    void formatJsonIsJson();
    void noNanOrInf();
    void badFormats();
};

void TestCliCsv::fieldQuoting()
{
    // The reader itself: a field with a comma, a quote and a line break, and a malformed one.
    Table t;
    QVERIFY(parseCsv("a,b\n\"x, \"\"y\"\"\nz\",2\n", t));
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(t[1][0], std::string("x, \"y\"\nz"));
    QVERIFY(!parseCsv("a,b\nx\"y,2\n", t));
    QVERIFY(!parseCsv("a,b\n1\n", t));
}

void TestCliCsv::zigzag()
{
    const std::vector<std::string> args{"zigzag", "--sms", "15", "--ba", "2", "--br", "1:70"};
    const json j = runJson(withFormat(args, "json"));
    const Table t = runCsv(withFormat(args, "csv"));
    QCOMPARE(t.size(), std::size_t(71));
    QCOMPARE(t[0], (std::vector<std::string>{"br_blocks", "passes", "f_sched"}));
    for (std::size_t i = 0; i < j["br"].size(); ++i) {
        QVERIFY(same(t[i + 1][0], j["br"][i]));
        QVERIFY(same(t[i + 1][2], j["f_sched"][i]));
        const long long br = j["br"][i].get<long long>();
        const long long per = j["blocks_per_pass"].get<long long>();
        QCOMPARE(number(t[i + 1][1]), double((br + per - 1) / per));
    }
}

void TestCliCsv::stabilityMap()
{
    const std::vector<std::string> args{"stability-map", "--profile", "gtx570-sp", "--x", "n:1:96:7",
                                        "--y",           "Z:4:40:5:log"};
    const json j = runJson(withFormat(args, "json"));
    const Table t = runCsv(withFormat(args, "csv"));
    QCOMPARE(t[0], (std::vector<std::string>{"n_warps", "Z_inst_per_req", "stable_count", "operating_gbs"}));
    QCOMPARE(t.size(), std::size_t(1 + 7 * 5));
    std::size_t row = 1;
    for (std::size_t y = 0; y < 5; ++y) {
        for (std::size_t x = 0; x < 7; ++x, ++row) {
            QVERIFY(same(t[row][0], j["x"]["values"][x]));
            QVERIFY(same(t[row][1], j["y"]["values"][y]));
            QVERIFY(same(t[row][2], j["stable_count"][y][x]));
            QVERIFY(same(t[row][3], j["operating_gbs"][y][x]));
        }
    }
}

void TestCliCsv::hysteresis()
{
    const std::vector<std::string> args{"hysteresis", "--profile", "gtx570-sp", "--n", "1:48:1"};
    const json j = runJson(withFormat(args, "json"));
    const Table t = runCsv(withFormat(args, "csv"));
    QCOMPARE(t[0], (std::vector<std::string>{"n_warps", "up_gbs", "down_gbs", "up_k_warps", "down_k_warps",
                                             "stable_count"}));
    QCOMPARE(t.size(), j["values"].size() + 1);
    for (std::size_t i = 0; i < j["values"].size(); ++i) {
        QVERIFY(same(t[i + 1][0], j["values"][i]));
        QVERIFY(same(t[i + 1][1], j["up_gbs"][i]));
        QVERIFY(same(t[i + 1][2], j["down_gbs"][i]));
        QVERIFY(same(t[i + 1][3], j["up_k"][i]));
        QVERIFY(same(t[i + 1][4], j["down_k"][i]));
        QVERIFY(same(t[i + 1][5], j["stable_count"][i]));
    }
    // Another parameter: its key and unit name the first column.
    const Table r = runCsv({"hysteresis", "--param", "R", "--range", "100:200:50", "--format", "csv"});
    QCOMPARE(r[0][0], std::string("R_GB_per_s"));
    QCOMPARE(r.size(), std::size_t(4));
}

void TestCliCsv::markovSurface()
{
    const std::vector<std::string> args{"markov-surface", "--groups", "2", "--threads-per-group", "2",
                                        "--grid",         "uniform:6"};
    const json j = runJson(withFormat(args, "json"));
    const Table t = runCsv(withFormat(args, "csv"));
    QCOMPARE(t[0], (std::vector<std::string>{"p", "q", "cpi"}));
    QCOMPARE(t.size(), std::size_t(1 + 36));
    std::size_t row = 1;
    for (std::size_t q = 0; q < 6; ++q) {
        for (std::size_t p = 0; p < 6; ++p, ++row) {
            QVERIFY(same(t[row][0], j["p"][p]));
            QVERIFY(same(t[row][1], j["q"][q]));
            QVERIFY(same(t[row][2], j["cpi"][q][p]));
        }
    }
}

void TestCliCsv::mappings()
{
    // q = 1 with p > 0: every CPI is infinite, null in JSON and an empty field in CSV.
    for (const char *q : {"0.862", "1"}) {
        const std::vector<std::string> args{"mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", q};
        const json j = runJson(withFormat(args, "json"));
        const Table t = runCsv(withFormat(args, "csv"));
        const std::vector<std::string> header{"id",           "description",          "cores",         "threads",
                                              "cores_used",   "caches_used",          "sockets_used",
                                              "max_threads_per_core", "group_threads", "p",
                                              "q",            "cpi",                  "infinite",      "system_states"};
        QCOMPARE(t[0], header);
        const json &list = j["strategies"];
        QVERIFY(list.size() >= 2);
        QCOMPARE(t.size(), list.size() + 1);
        for (std::size_t i = 0; i < list.size(); ++i) {
            for (std::size_t c = 0; c < header.size(); ++c) {
                const json &v = list[i][header[c]];
                if (v.is_array()) {
                    std::string spaced;
                    for (const auto &e : v)
                        spaced += (spaced.empty() ? "" : " ") + std::to_string(e.get<int>());
                    QCOMPARE(t[i + 1][c], spaced);
                } else {
                    QVERIFY2(same(t[i + 1][c], v), header[c].c_str());
                }
            }
            QCOMPARE(t[i + 1][11].empty(), std::string(q) == "1");
        }
    }
}

void TestCliCsv::bandwidthCurve()
{
    const std::vector<std::string> args{"bandwidth-curve", "--trace",  kPerfStat, "--input-format", "perf-stat",
                                        "--column",        "imc-bytes", "--window", "2", "--limit", "1e8"};
    const json j = runJson(withFormat(args, "json"));
    const Table t = runCsv(withFormat(args, "csv"));
    QCOMPARE(t[0], (std::vector<std::string>{"rank", "sorted_bytes_per_unit"}));
    QCOMPARE(t.size(), j["sorted"].size() + 1);
    QCOMPARE(j["units"].get<std::size_t>(), j["sorted"].size());
    for (std::size_t i = 0; i < j["sorted"].size(); ++i) {
        QCOMPARE(t[i + 1][0], std::to_string(i + 1));
        QVERIFY(same(t[i + 1][1], j["sorted"][i]));
    }
    // --format perf-stat still names the input format, as it did before --format named the output.
    std::vector<std::string> legacy = args;
    legacy[3] = "--format";
    legacy.push_back("--json");
    QVERIFY(runJson(legacy) == j);
}

void TestCliCsv::kernels()
{
    for (const std::string &file : {kRaw, kDetails}) {
        const std::vector<std::string> args{"kernels", "--trace", file, "--profile", "h100-pcie"};
        const json j = runJson(withFormat(args, "json"));
        const Run csv = run(withFormat(args, "csv"));
        QCOMPARE(csv.status, 0);
        Table t;
        QVERIFY(parseCsv(csv.out, t));
        const std::vector<std::string> header{
                "id",           "name",        "short_name",    "grid",           "block",     "warps_per_sm",
                "duration_ns",  "dram_gbs",    "dram_gbs_derived", "Z",           "req_bytes", "dram_bytes",
                "m",            "stores_only", "l1_hit",        "l2_hit",         "clock_ghz", "E",
                "measured_gops", "predicted_gops", "predicted_gbs", "naive_gbs", "roofline_gbs", "error",
                "bound",        "limit",       "diagnosis",     "ncu_metrics",    "skipped"};
        QCOMPARE(t[0], header);
        const json &list = j["kernels"];
        QVERIFY(!list.empty());
        QCOMPARE(t.size(), list.size() + 1);
        bool quotedName = false;
        for (std::size_t i = 0; i < list.size(); ++i) {
            for (std::size_t c = 0; c < header.size(); ++c)
                QVERIFY2(same(t[i + 1][c], list[i][header[c]]), header[c].c_str());
            quotedName = quotedName || t[i + 1][1].find(',') != std::string::npos;
        }
        // Kernel names with template arguments hold commas: the reader got them back whole.
        QVERIFY(quotedName);
        // The warnings JSON lists go to standard error, one line each.
        for (const auto &w : j["warnings"])
            QVERIFY2(csv.err.find(w.get<std::string>()) != std::string::npos, csv.err.c_str());
    }
}

void TestCliCsv::roofline()
{
    // The kernels of both exports on the roofline: the CSV holds the JSON kernels, each ceiling at each kernel's
    // intensities beside its intensities and its attained and predicted throughput.
    for (const std::string &file : {kRaw, kDetails}) {
        const std::vector<std::string> args{"roofline", "--trace", file, "--profile", "h100-sxm"};
        const json j = runJson(withFormat(args, "json"));
        const Run csv = run(withFormat(args, "csv"));
        QCOMPARE(csv.status, 0);
        Table t;
        QVERIFY(parseCsv(csv.out, t));
        const std::vector<std::string> header{
                "id", "name", "short_name", "duration_ns", "gops", "dram_intensity", "l2_intensity", "l1_intensity",
                "predicted_gops", "predicted_gbs", "predicted_intensity", "memory_ceiling_gops",
                "compute_ceiling_gops", "issue_ceiling_gops", "fp32_ceiling_gops", "fp64_ceiling_gops",
                "dram_latency_ceiling_gops", "l2_latency_ceiling_gops", "l1_latency_ceiling_gops"};
        QCOMPARE(t[0], header);
        const json &list = j["kernels"];
        QCOMPARE(t.size(), list.size() + 1);
        for (std::size_t i = 0; i < list.size(); ++i) {
            for (std::size_t c = 0; c < header.size(); ++c)
                QVERIFY2(same(t[i + 1][c], list[i][header[c]]), header[c].c_str());
        }
        for (const auto &w : j["warnings"])
            QVERIFY2(csv.err.find(w.get<std::string>()) != std::string::npos, csv.err.c_str());
    }
    // The raw export: every kernel drawn, at DRAM and L1 (no hit rates: no L2), each with a prediction.
    const json raw = runJson({"roofline", "--trace", kRaw, "--profile", "h100-sxm", "--json"});
    QCOMPARE(raw["kernels"].size(), std::size_t(10));
    QCOMPARE(raw["kernels_left_out"].get<int>(), 0);
    for (const auto &k : raw["kernels"]) {
        QVERIFY(k["l1_intensity"].is_number() && k["l2_intensity"].is_null() && k["predicted_gbs"].is_number());
        // The memory ceiling at the kernel's intensity per DRAM byte: R x I.
        QCOMPARE(k["memory_ceiling_gops"].get<double>(),
                 raw["ceilings"]["memory_gbs"].get<double>() * k["dram_intensity"].get<double>());
    }
    // The details page has no instruction counts: no kernel is drawn, the ceilings are.
    const json details = runJson({"roofline", "--trace", kDetails, "--profile", "h100-sxm", "--json"});
    QVERIFY(details["kernels"].empty());
    QCOMPARE(details["kernels_left_out"].get<int>(), 10);
    QVERIFY(details["ceilings"]["compute_gops"].get<double>() > 0);
}

void TestCliCsv::formatJsonIsJson_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("zigzag") << QStringList{"zigzag", "--sms", "15", "--ba", "1", "--br", "1:30"};
    QTest::newRow("markov-surface") << QStringList{"markov-surface", "--groups", "2", "--threads-per-group", "1"};
    QTest::newRow("hysteresis") << QStringList{"hysteresis", "--n", "1:20:1"};
    QTest::newRow("kernels") << QStringList{"kernels", "--trace", QString::fromStdString(kRaw)};
    QTest::newRow("roofline") << QStringList{"roofline", "--trace", QString::fromStdString(kRaw)};
    QTest::newRow("tmm") << QStringList{"tmm", "--work", "1e6", "--transactions", "1e4", "--br", "1:30"};
    QTest::newRow("counters") << QStringList{"counters", "--instructions", "50", "--suspend", "A=20,10",
                                             "--stall", "X=10,3", "--stall", "Y=2,5"};
}

void TestCliCsv::formatJsonIsJson()
{
    // --json and --format json print the same; --json --format json is allowed.
    QFETCH(QStringList, args);
    std::vector<std::string> argv;
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    std::vector<std::string> a = argv, b = argv, c = argv;
    a.push_back("--json");
    b.insert(b.end(), {"--format", "json"});
    c.insert(c.end(), {"--format", "json", "--json"});
    const Run ra = run(a);
    QCOMPARE(ra.status, 0);
    QCOMPARE(run(b).out, ra.out);
    QCOMPARE(run(c).out, ra.out);
    std::vector<std::string> text = argv;
    text.insert(text.end(), {"--format", "text"});
    QCOMPARE(run(text).out, run(argv).out);
}

void TestCliCsv::noNanOrInf()
{
    const Run r = run({"mappings", "--profile", "clovertown-x5365", "--p", "1", "--q", "1", "--format", "csv"});
    QCOMPARE(r.status, 0);
    Table t;
    QVERIFY(parseCsv(r.out, t));
    for (const auto &record : t) {
        for (std::string field : record) {
            for (char &c : field)
                c = char(std::tolower((unsigned char)c));
            if (!field.empty() && (field[0] == '-' || field[0] == '+'))
                field.erase(0, 1);
            QVERIFY2(field != "nan" && field != "inf" && field != "infinity", r.out.c_str());
        }
    }
}

void TestCliCsv::badFormats()
{
    crossroof::test::expectUsageError({"zigzag", "--sms", "15", "--ba", "1", "--br", "1:30", "--format", "xml"},
                                      "crossroof-cli zigzag: option '--format': must be text, json or csv (got 'xml')");
    crossroof::test::expectUsageError(
            {"markov-surface", "--groups", "2", "--threads-per-group", "1", "--format", "csv", "--json"},
            "crossroof-cli markov-surface: option '--json': conflicts with '--format csv'");
    crossroof::test::expectUsageError({"hysteresis", "--n", "1:20:1", "--format", "text", "--json"},
                                      "option '--json': conflicts with '--format text'");
    // Every table command lists the option in its help.
    for (const char *command :
         {"stability-map", "hysteresis", "markov-surface", "zigzag", "bandwidth-curve", "kernels", "roofline",
          "mappings", "tmm", "counters"}) {
        const Run h = run({"help", command});
        QVERIFY2(h.out.find("--format csv") != std::string::npos, command);
        QVERIFY2(h.out.find("--json") != std::string::npos, command);
    }
}

QTEST_GUILESS_MAIN(TestCliCsv)
#include "tst_cli_csv.moc"
