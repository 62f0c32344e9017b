// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli calibrate on the measured H100 SXM family (tests/data/h100_sxm).
#include "cli.h"
#include "cli_run.h"
#include "support/full_disk.h"
#include "core/profiles/hardware_profile.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

using nlohmann::json;

namespace {

const std::string kProbe = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm";
const std::string kFamily = kProbe + "/family.csv";
const std::string kStream = kProbe + "/stream.csv";
const std::string kLatency = kProbe + "/latency.csv";
const std::string kTorch = kProbe + "/torch_raw.csv";
const std::string kFamilyNcu = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_raw.csv";
const std::string kParallel = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/probe_parallel/parallel.csv";

/// A probe directory in DIR: the H100 SXM files and the synthetic parallel.csv (an X-model machine with
/// R_dram = 2964 GB/s and L_2 = 270 cycles made it, tests/data/README.md).
std::string probeWithParallel(const QTemporaryDir &dir)
{
    const std::filesystem::path d = dir.path().toStdString();
    for (const char *file : {"device.csv", "latency.csv", "stream.csv", "family.csv"})
        std::filesystem::copy_file(kProbe + "/" + file, d / file);
    std::filesystem::copy_file(kParallel, d / "parallel.csv");
    return d.string();
}

/// The source of kind KIND in a joint calibration's JSON.
const json &source(const json &j, const std::string &file)
{
    for (const json &s : j["sources"]) {
        if (s["file"].get<std::string>().ends_with(file))
            return s;
    }
    qFatal("no source %s", file.c_str());
}

using crossroof::test::run;
using crossroof::test::runJson;
using crossroof::test::writeFile;

} // namespace

class TestCliCalibrate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void probeJson()
    {
        const json j = runJson({"calibrate", "--probe", kProbe, "--json"});
        for (const char *key : {"R", "L", "M", "L_c"})
            QVERIFY2(j["parameters"].contains(key), key);
        QCOMPARE(j["rows"].get<int>(), 312);
        QCOMPARE(j["residuals"].size(), std::size_t(312));
        QVERIFY(j["accuracy"]["mean"].get<double>() >= 0.93);
        QVERIFY(j["accuracy"]["median"].get<double>() >= j["accuracy"]["min"].get<double>());
        QVERIFY(j["r2"].get<double>() > 0.9);
        QVERIFY(j["rmse_gbs"].get<double>() > 0);
        const double L_c = j["parameters"]["L_c"];
        QVERIFY2(L_c > 3 && L_c < 5, qPrintable(QString::number(L_c)));
        const json &first = j["residuals"][0];
        QCOMPARE(first["line"].get<int>(), 2);
        QCOMPARE(first["measured_gbs"].get<double>(), 42.73);
        QCOMPARE(first["accuracy"].get<double>(),
                 1 - std::abs(first["predicted_gbs"].get<double>() - 42.73) / 42.73);
        QCOMPARE(j["machine"]["sm_count"].get<double>(), 132.0);
        QVERIFY(j["out"].is_null());
        // A probe directory without parallel.csv (older probes): no byte bandwidth to fit.
        QVERIFY(j["parallel_reads"].is_null());
        QVERIFY(j["fitted"] == json({"R", "L", "M", "L_c"}));
    }

    void probeWithParallelReads()
    {
        QTemporaryDir dir;
        const std::string probe = probeWithParallel(dir);
        const json j = runJson({"calibrate", "--probe", probe, "--json"});
        // The analysis before the fit: the byte bandwidth, m honoured, the L2 level.
        const json &a = j["parallel_reads"];
        QVERIFY(a["file"].get<std::string>().ends_with("parallel.csv"));
        const double peak = a["R_dram"];
        QVERIFY2(std::abs(peak / 2964 - 1) < 0.04, qPrintable(QString::number(peak)));
        QCOMPARE(a["dram"]["peak"]["read_gbs"].get<double>(), peak);
        QVERIFY(a["m_honoured"].get<bool>());
        QVERIFY(a["warnings"].empty());
        QCOMPARE(a["dram"]["latency_by_m"].size(), std::size_t(4));
        QVERIFY(std::abs(a["dram"]["latency_cycles"].get<double>() / 760 - 1) < 0.02);
        QVERIFY(std::abs(a["l2"]["latency_cycles"].get<double>() / 270 - 1) < 0.02);
        QCOMPARE(a["widths"].size(), std::size_t(3));
        QCOMPARE(a["widths"][2]["bytes_per_thread"].get<double>(), 16.0);
        QCOMPARE(a["widths"][2]["saturating"]["loads_in_flight"].get<double>(), 1.0);
        // The joint fit: parallel.csv is a source, and the byte bandwidth and L_2 are fitted by default.
        QCOMPARE(j["sources"].size(), std::size_t(4));
        const json &parallel = source(j, "parallel.csv");
        QCOMPARE(parallel["kind"].get<std::string>(), std::string("parallel"));
        QCOMPARE(parallel["skipped"].size(), std::size_t(1));
        QVERIFY(j["fitted"] == json({"R", "R_dram", "L", "M", "L_c", "L_2"}));
        QVERIFY(j["parameter_sources"]["R_dram"][0]["file"].get<std::string>().ends_with("parallel.csv"));
        const double rdram = j["parameters"]["R_dram"];
        QVERIFY2(std::abs(rdram / 2964 - 1) < 0.02, qPrintable(QString::number(rdram)));
        const double l2 = j["parameters"]["L_2"];
        QVERIFY2(l2 > 260 && l2 < 290, qPrintable(QString::number(l2))); // 270 from the reads, 284.8 chased
        QVERIFY(parallel["accuracy"]["mean"].get<double>() > 0.9);
        QVERIFY(source(j, "family.csv")["accuracy"]["mean"].get<double>() >= 0.93);

        // Text: the analysis first, then the fit; the written profile names parallel.csv for R_dram.
        const std::string out = (dir.path() + QStringLiteral("/mine.json")).toStdString();
        const auto r = run({"calibrate", "--probe", probe, "--out", out});
        QCOMPARE(r.status, 0);
        const QString text = QString::fromStdString(r.out);
        QVERIFY2(text.startsWith("Parallel reads (") && text.contains("16-byte loads: highest")
                         && text.contains("left out:") && text.contains("parallel.csv"),
                 qPrintable(text));
        std::ifstream in(out);
        const json prof = json::parse(in);
        QCOMPARE(prof["parameters"]["R_dram"].get<double>(), rdram);
        bool named = false;
        for (const json &s : prof["sources"]) {
            if (s["fields"] == j["fitted"]) {
                const std::string t = s["text"];
                named = t.find("the parallel parallel.csv (") != std::string::npos;
                QVERIFY2(named, t.c_str());
            }
        }
        QVERIFY(named);
    }

    void realH200ProbeAndItsKernels()
    {
        // A user's own GPU: tests/data/h200_probe is crossroof-probe's output on an H200, with Nsight Compute
        // exports of ten of its family's kernels. Calibrate to the probe, then predict the kernels.
        const std::string probe = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h200_probe";
        QTemporaryDir dir;
        const std::string out = (dir.path() + QStringLiteral("/h200-measured.json")).toStdString();
        const json j = runJson({"calibrate", "--probe", probe, "--out", out, "--json"});
        // The analysis says what the real reads showed: 8 loads in flight per warp did not overlap.
        const json &a = j["parallel_reads"];
        QVERIFY(!a["m_honoured"].get<bool>());
        QVERIFY(a["warnings"][0].get<std::string>().find("m is not honoured") != std::string::npos);
        QVERIFY2(std::abs(a["R_dram"].get<double>() / 4729.67 - 1) < 1e-6, a.dump().c_str());
        // The fit: the dependent-issue latency as chased, the family and the stream curve predicted well.
        const json &p = j["parameters"];
        QVERIFY2(std::abs(p["L_c"].get<double>() / 4.10 - 1) < 0.05, p.dump().c_str());
        QVERIFY(source(j, "family.csv")["accuracy"]["mean"].get<double>() >= 0.9);
        QVERIFY(source(j, "stream.csv")["accuracy"]["mean"].get<double>() >= 0.95);
        // R_dram limits every read, so nothing measured here tells R: it is said to be undetermined and kept
        // at the least value that predicts the same (R_dram), not wherever the fit's starts left it.
        QVERIFY2(j["undetermined"] == json({{"R", "up"}}), j["undetermined"].dump().c_str());
        QVERIFY2(std::abs(p["R"].get<double>() / p["R_dram"].get<double>() - 1) < 0.01, p.dump().c_str());
        QVERIFY(j["parameter_sources"]["R"].empty());
        const std::string text = run({"calibrate", "--probe", probe}).out;
        QVERIFY2(text.find("not determined by these measurements") != std::string::npos, text.c_str());

        // The kernels on the calibrated profile: how far off the model is, against the naive guesses.
        const std::string raw = probe + "/ncu_raw.csv";
        const json k = runJson({"kernels", "--trace", raw, "--profile", out, "--json"});
        QCOMPARE(k["kernels"].size(), std::size_t(10));
        const json &acc = k["accuracy"];
        QVERIFY2(acc["model"].get<double>() >= 0.88, acc.dump().c_str());
        QVERIFY(acc["model"].get<double>() > acc["roofline"].get<double>() + 0.3);
        QVERIFY(acc["model"].get<double>() > acc["naive"].get<double>() + 0.3);
        // The probe's Z (FMAs + 19 + 2 per further chain) is within 1.25 of what Nsight Compute counted for the
        // same configurations, matched by grid (132 x n / 2 blocks of 2 warps, or 132 x n of 1) and FMAs.
        std::ifstream family(probe + "/family.csv");
        std::string line;
        std::getline(family, line);
        std::size_t matched = 0;
        while (std::getline(family, line)) {
            int n = 0, fma = 0, Z = 0, E = 0, grid = 0;
            QCOMPARE(std::sscanf(line.c_str(), "%d,%d,%d,%d,%d", &n, &fma, &Z, &E, &grid), 5);
            const std::string name = "family<" + std::to_string(fma) + ", " + std::to_string(E) + ">";
            for (const json &kernel : k["kernels"]) {
                if (kernel["short_name"].get<std::string>().ends_with(name)
                    && kernel["grid"].get<std::string>() == "(" + std::to_string(grid) + ", 1, 1)") {
                    QVERIFY2(std::abs(kernel["Z"].get<double>() - Z) <= 1.25, line.c_str());
                    ++matched;
                }
            }
        }
        QCOMPARE(matched, std::size_t(10));
        // The details page lacks the instruction and request counts: every kernel says what to add.
        const json d = runJson({"kernels", "--trace", probe + "/ncu_details.csv", "--profile", out, "--json"});
        QCOMPARE(d["kernels"].size(), std::size_t(10));
        for (const json &kernel : d["kernels"])
            QVERIFY(kernel["ncu_metrics"].get<std::string>().find("smsp__inst_executed.sum") != std::string::npos);
    }

    void parallelFileAlone()
    {
        const json j = runJson({"calibrate", "--parallel", kParallel, "--profile", "h100-sxm", "--fit",
                                "R_dram,L_2", "--weight", "parallel=2", "--json"});
        QCOMPARE(j["sources"].size(), std::size_t(1));
        QCOMPARE(j["sources"][0]["weight"].get<double>(), 2.0);
        QVERIFY(!j.contains("parallel_reads")); // only a probe directory's file is summarised
        QVERIFY(std::abs(j["parameters"]["R_dram"].get<double>() / 2964 - 1) < 0.02);
        QVERIFY(std::abs(j["parameters"]["L_2"].get<double>() / 270 - 1) < 0.02);
    }

    void heldParametersAndOut()
    {
        QTemporaryDir dir;
        const std::string out = (dir.path() + QStringLiteral("/My H100.json")).toStdString();
        const json j = runJson({"calibrate", "--family", kFamily, "--profile", "h100-pcie", "--set",
                                "sm_count=132", "--set", "clock_ghz=1.98", "--set", "M=4", "--fit", "L,L_c",
                                "--out", out, "--json"});
        QCOMPARE(j["parameters"]["M"].get<double>(), 4.0);
        QVERIFY(j["fitted"] == json({"L", "L_c"}));
        QCOMPARE(j["out"].get<std::string>(), out);

        // The written profile is complete: other commands take it, and its sources say where values came
        // from.
        const json x = runJson({"xgraph", "--profile", out, "--json"});
        QCOMPARE(x["profile"].get<std::string>(), std::string("my-h100"));
        QCOMPARE(x["parameters"]["L_c"].get<double>(), j["parameters"]["L_c"].get<double>());
        QCOMPARE(x["parameters"]["sm_count"].get<double>(), 132.0);
        std::ifstream in(out);
        const json prof = json::parse(in);
        const json &sources = prof["sources"];
        const std::string fitted = sources.back()["text"];
        QVERIFY(sources.back()["fields"] == json({"L", "L_c"}));
        QVERIFY(fitted.find("family.csv (312 kernels") != std::string::npos);
        bool given = false;
        for (const json &s : sources) {
            if (s["text"].get<std::string>().find("command line") != std::string::npos) {
                given = true;
                QVERIFY2(s["fields"] == json({"sm_count", "clock_ghz", "M"}), s.dump().c_str());
            }
        }
        QVERIFY(given);
    }

    void textSummary()
    {
        const auto r = run({"calibrate", "--family", kFamily, "--profile", "h100-sxm", "--fit", "L_c"});
        QCOMPARE(r.status, 0);
        const QString text = QString::fromStdString(r.out);
        QVERIFY2(text.contains("Accuracy  mean") && text.contains("L_c") && text.contains("312 kernels"),
                 qPrintable(text));
    }

    void physicalBoundsAndUndeterminedKeys()
    {
        // docs/MODEL.md 7: the real kernels would take R_dram past a DRAM peak of 2900 GB/s: it is held there
        // and the text says so; L_2, which the one L2-served kernel moves by less than the noise, keeps the
        // profile's 284.8 cycles and is reported as not determined ("within noise" in the JSON).
        const std::vector<std::string> args {"calibrate",   "--family",      kFamily,     "--kernels", kTorch,
                                             "--kernels",   kFamilyNcu,      "--profile", "h100-sxm",  "--set",
                                             "R_dram=2900", "--fit",         "R,R_dram,L,M,L_2"};
        std::vector<std::string> withJson = args;
        withJson.push_back("--json");
        const json j = runJson(withJson);
        QVERIFY(j["parameters"]["R_dram"].get<double>() <= 2900);
        QVERIFY(j["parameters"]["R_dram"].get<double>() > 2899.99);
        QCOMPARE(j["parameters"]["L_2"].get<double>(), 284.8);
        QCOMPARE(j["undetermined"]["L_2"].get<std::string>(), std::string("within noise"));
        QVERIFY(!j["undetermined"].contains("R_dram"));
        const auto r = run(args);
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("(held at the profile's DRAM peak R_dram = 2900 GB/s: the measurements would take it "
                            "further)")
                         != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("L_2         284.8 ->      284.8 cycles  not determined by these measurements: half or "
                            "twice this value predicts as well within their noise")
                         != std::string::npos,
                 r.out.c_str());
    }

    void outDashPrintsTheProfile()
    {
        // "--out -" prints the calibrated profile (and nothing else) to standard output, writes no file named
        // "-", and is refused with --json, which writes there too, before any fitting.
        QTemporaryDir dir;
        const std::filesystem::path cwd = std::filesystem::current_path();
        std::filesystem::current_path(dir.path().toStdString());
        const auto r = run({"calibrate", "--family", kFamily, "--profile", "h100-sxm", "--fit", "L_c", "--out", "-"});
        const auto refused = run({"calibrate", "--family", kFamily, "--profile", "h100-sxm", "--fit", "L_c",
                                  "--out", "-", "--json"});
        const bool dashFile = std::filesystem::exists(std::filesystem::path(dir.path().toStdString()) / "-");
        std::filesystem::current_path(cwd);
        QCOMPARE(r.status, 0);
        QVERIFY(!dashFile);
        const crossroof::core::HardwareProfile prof = crossroof::core::parseProfile(r.out, "stdout");
        QCOMPARE(QString::fromStdString(prof.id), QStringLiteral("calibrated"));
        QVERIFY(!QString::fromStdString(r.out).contains("Accuracy  mean"));
        QCOMPARE(refused.status, 2);
        QVERIFY2(QString::fromStdString(refused.err).contains("both write to standard output"), refused.err.c_str());
        QVERIFY(refused.out.empty());
    }

    void outWritesOnlyARegularFile()
    {
        // --out replaces a regular file only: a FIFO, a link (and what it points to) stay as they were, a
        // link planted under the old fixed temporary name (OUT.part) is not written through, and a full
        // disk leaves nothing behind.
        QTemporaryDir dir;
        const std::filesystem::path d = dir.path().toStdString();
        const auto calibrateTo = [](const std::filesystem::path &out) {
            return run({"calibrate", "--family", kFamily, "--profile", "h100-sxm", "--fit", "L_c", "--out", out});
        };
        const std::filesystem::path victim = d / "victim.txt";
        std::ofstream(victim) << "precious";
        QVERIFY(::mkfifo((d / "fifo.json").c_str(), 0644) == 0);
        std::filesystem::create_symlink(victim, d / "link.json");
        std::filesystem::create_symlink(victim, d / "x.json.part");

        auto r = calibrateTo(d / "fifo.json");
        QCOMPARE(r.status, 2);
        QCOMPARE(QString::fromStdString(r.err),
                 QString::fromStdString("crossroof-cli calibrate: " + (d / "fifo.json").string()
                                        + ": cannot write the profile: it is a FIFO (Crossroof saves only to a "
                                          "regular file)\n"));
        QVERIFY(std::filesystem::is_fifo(d / "fifo.json"));
        r = calibrateTo(d / "link.json");
        QCOMPARE(r.status, 2);
        QVERIFY2(QString::fromStdString(r.err).contains("link.json: cannot write the profile: it is a symbolic link"),
                 r.err.c_str());
        QVERIFY(std::filesystem::is_symlink(d / "link.json"));
        r = calibrateTo(d / "x.json");
        QCOMPARE(r.status, 0);
        QVERIFY(std::filesystem::is_regular_file(d / "x.json") && !std::filesystem::is_symlink(d / "x.json"));
        QVERIFY(std::ifstream(d / "x.json").peek() == '{');
        {
            const crossroof::test::FullDisk full(100);
            QVERIFY(full.active());
            r = calibrateTo(d / "full.json");
        }
        QCOMPARE(r.status, 2);
        QVERIFY2(QString::fromStdString(r.err).endsWith(": cannot write the profile: File too large\n"), r.err.c_str());

        std::ifstream in(victim);
        QCOMPARE(std::string(std::istreambuf_iterator<char>(in), {}), std::string("precious"));
        std::set<std::string> names;
        for (const auto &entry : std::filesystem::directory_iterator(d))
            names.insert(entry.path().filename().string());
        QCOMPARE(names, (std::set<std::string>{"victim.txt", "fifo.json", "link.json", "x.json.part", "x.json"}));
    }

    void jointJson()
    {
        // Every shared H100 SXM measurement at once, as the bundled profile was fitted (PROFILES.md).
        const json j = runJson({"calibrate", "--family", kFamily, "--stream", kStream, "--latency", kLatency,
                                "--kernels", kTorch, "--kernels", kFamilyNcu, "--profile", "h100-sxm",
                                "--fit", "R,R_dram,L,M,L_2", "--json"});
        QCOMPARE(j["sources"].size(), std::size_t(5));
        QCOMPARE(source(j, "family.csv")["rows"].get<int>(), 312);
        QCOMPARE(source(j, "stream.csv")["rows"].get<int>(), 48);
        QCOMPARE(source(j, "latency.csv")["rows"].get<int>(),
                 2); // the DRAM and L2 chases: L and L_2 are fitted
        QCOMPARE(source(j, "torch_raw.csv")["kind"].get<std::string>(), std::string("kernels"));
        QVERIFY(source(j, "family.csv")["accuracy"]["mean"].get<double>() >= 0.93);
        QVERIFY(source(j, "torch_raw.csv")["accuracy"]["mean"].get<double>() >= 0.90);
        QVERIFY(source(j, "ncu_h100_raw.csv")["accuracy"]["mean"].get<double>() >= 0.93);
        double cost = 0;
        for (const json &s : j["sources"]) {
            QCOMPARE(s["weight"].get<double>(), 1.0);
            QVERIFY(s["accuracy"]["min"].get<double>() <= s["accuracy"]["median"].get<double>());
            QCOMPARE(s["residuals"].size(), s["rows"].get<std::size_t>());
            cost += s["cost"].get<double>();
        }
        QVERIFY(std::abs(cost - j["objective"].get<double>()) < 1e-12);
        // Which file gave which parameter.
        QVERIFY(j["parameter_sources"]["R_dram"][0]["file"].get<std::string>().ends_with("torch_raw.csv"));
        QVERIFY(j["parameter_sources"]["L_2"][0]["file"].get<std::string>().ends_with("latency.csv"));
        QVERIFY(!j["parameter_sources"].contains("L_c"));
        QCOMPARE(j["set"]["L_s"]["value"].get<double>(), 40.4);
        // The family keys of the single-family output describe the family, as before.
        QCOMPARE(j["rows"].get<int>(), 312);
        QCOMPARE(j["accuracy"]["mean"].get<double>(),
                 source(j, "family.csv")["accuracy"]["mean"].get<double>());
        QCOMPARE(j["parameters"]["L_c"].get<double>(), 3.798);
        const json &gemm = source(j, "torch_raw.csv")["residuals"][8];
        QCOMPARE(gemm["line"].get<int>(), 14);
        QVERIFY(gemm["label"].get<std::string>().find("gemm") != std::string::npos);
    }

    void jointOutNamesEveryFile()
    {
        QTemporaryDir dir;
        const std::string out = (dir.path() + QStringLiteral("/joint.json")).toStdString();
        const auto r
                = run({"calibrate", "--stream", kStream, "--latency", kLatency, "--kernels", kTorch,
                       "--profile", "h100-sxm", "--fit", "R,R_dram,L", "--weight", "stream=2", "--out", out});
        QCOMPARE(r.status, 0);
        const QString text = QString::fromStdString(r.out);
        QVERIFY2(text.contains("weight 2") && text.contains("R_dram") && text.contains("from torch_raw.csv")
                         && text.contains("L_s = 40.4"),
                 qPrintable(text));
        std::ifstream in(out);
        const json prof = json::parse(in);
        bool fitted = false, chase = false;
        for (const json &s : prof["sources"]) {
            const std::string t = s["text"];
            if (s["fields"] == json({"R", "R_dram", "L"})) {
                fitted = true;
                QVERIFY2(t.find("stream.csv (48 values, weight 2") != std::string::npos, t.c_str());
                QVERIFY2(t.find("torch_raw.csv (11 values") != std::string::npos, t.c_str());
            }
            chase = chase || (s["fields"] == json({"L_2"}) && t.find("latency.csv") != std::string::npos);
        }
        QVERIFY(fitted && chase); // L_2 is not fitted here: the L2 chase sets it
        QCOMPARE(prof["parameters"]["L_2"].get<double>(), 284.8);
        const json x = runJson({"xgraph", "--profile", out, "--json"});
        QCOMPARE(x["profile"].get<std::string>(), std::string("joint"));
    }

    void help()
    {
        const auto r = run({"calibrate", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find("--family FILE") != std::string::npos);
        QVERIFY(r.out.find("--probe DIR") != std::string::npos);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString family = QString::fromStdString(kFamily);
        QTest::newRow("no family") << QStringList {"calibrate", "--json"} << "--family FILE";
        QTest::newRow("both") << QStringList {"calibrate", "--family", family, "--probe", "x"} << "either";
        QTest::newRow("missing file")
                << QStringList {"calibrate", "--family", "/nonexistent.csv"} << "/nonexistent.csv";
        QTest::newRow("bad key") << QStringList {"calibrate", "--family", family, "--fit", "L,Z"}
                                 << "cannot fit 'Z'";
        const QString stream = QString::fromStdString(kStream);
        QTest::newRow("probe and stream")
                << QStringList {"calibrate", "--probe", "x", "--stream", stream} << "leave out '--stream'";
        QTest::newRow("probe and parallel")
                << QStringList {"calibrate", "--probe", "x", "--parallel", QString::fromStdString(kParallel)}
                << "'--parallel'";
        QTest::newRow("weight of nothing")
                << QStringList {"calibrate", "--stream", stream, "--weight", "kernels=2"}
                << "NAME one of stream, stream.csv";
        QTest::newRow("negative weight")
                << QStringList {"calibrate", "--stream", stream, "--weight", "stream=-1"} << "number >= 0";
        QTest::newRow("joint key alone")
                << QStringList {"calibrate", "--family", family, "--fit", "R_dram"} << "cannot fit 'R_dram'";
        QTest::newRow("details page") << QStringList {"calibrate", "--kernels",
                                                      QString::fromStdString(kProbe + "/torch_details.csv")}
                                      << "torch_details.csv: no kernel can be used for a calibration";
        QTest::newRow("n over max_warps")
                << QStringList {"calibrate", "--family", family,        "--profile",
                                "h100-sxm",  "--set",    "max_warps=48"}
                << "family.csv:13: n = 56 warps is more than the machine's max_warps = 48";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        crossroof::test::expectUsageError(args, message);
    }

    void badFiles()
    {
        QTemporaryDir dir;
        const std::string text = writeFile(dir, "text.csv", "n,Z,E,gbs\n1,17,1,42\n2,17,one,80\n");
        crossroof::test::expectUsageError({"calibrate", "--family", QString::fromStdString(text)},
                                          "text.csv:3:6: column 'E': 'one' is not a number");
        const std::string few = writeFile(dir, "few.csv", "n,Z,E,gbs\n1,17,1,42\n2,17,1,80\n");
        crossroof::test::expectUsageError({"calibrate", "--family", QString::fromStdString(few)},
                                          "few.csv: 2 rows cannot fit 4 parameters");
        // Throughputs outside R's range: a family row of 1e300 GB/s printed "RMSE inf GB/s, r^2 -nan" with
        // exit 0, one of 1e-300 GB/s an accuracy of -1.9e61; a stream row likewise.
        const std::string huge = writeFile(dir, "huge.csv", "n,Z,E,gbs\n1,17,1,42\n2,17,1,1e300\n4,17,1,150\n"
                                                            "8,17,1,300\n16,17,1,600\n");
        crossroof::test::expectUsageError({"calibrate", "--family", QString::fromStdString(huge), "--json"},
                                          "huge.csv:3:8: column 'gbs': must be from 0.001 to 1e+06 GB/s, the range "
                                          "of R (got 1e300)");
        const std::string slow = writeFile(dir, "slow.csv", "warps_per_sm,read_gbs\n1,1e-300\n2,80\n");
        crossroof::test::expectUsageError({"calibrate", "--stream", QString::fromStdString(slow)},
                                          "slow.csv:2:3: column 'read_gbs': must be from 0.001 to 1e+06 GB/s, the "
                                          "range of R (got 1e-300)");
        const std::string stream = writeFile(dir, "stream.csv", "warps_per_sm,read_gbs\n1,40\n2,x\n");
        crossroof::test::expectUsageError({"calibrate", "--stream", QString::fromStdString(stream)},
                                          "stream.csv:3:3: column 'read_gbs': 'x' is not a number");
        const std::string lat
                = writeFile(dir, "latency.csv", "footprint_bytes,load,cycles_per_hop\n8192,ld,0\n");
        crossroof::test::expectUsageError({"calibrate", "--latency", QString::fromStdString(lat)},
                                          "latency.csv:2:");
        const std::string parallel = writeFile(dir, "parallel.csv",
                                               "level,bytes_per_thread,loads_in_flight,warps_per_sm,"
                                               "footprint_bytes,read_gbs\ndram,4,1,1,2147483648,40\n"
                                               "dram,4,1,1,2147483648,41\n");
        crossroof::test::expectUsageError(
                {"calibrate", "--parallel", QString::fromStdString(parallel)},
                "parallel.csv:3:10: column 'warps_per_sm': repeats warps_per_sm = 1");
        // In a probe directory too, named with its file and line.
        QTemporaryDir probeDir;
        const std::string probe = probeWithParallel(probeDir);
        std::filesystem::copy_file(parallel, probe + "/parallel.csv",
                                   std::filesystem::copy_options::overwrite_existing);
        crossroof::test::expectUsageError({"calibrate", "--probe", QString::fromStdString(probe)},
                                          "parallel.csv:3:10: column 'warps_per_sm'");
    }

    void latin1NamesAreEscapedNotFatal()
    {
        // File names are bytes: a family and an --out path in Latin-1 ("donn\xe9es") gave "internal error" and
        // wrote nothing (the profile's sources name the family file, and JSON text must be UTF-8). The bytes
        // are written as "\xe9" in the JSON; the profile is saved and loads.
        QTemporaryDir dir;
        const std::filesystem::path d = std::filesystem::path(dir.path().toStdString()) / "donn\xe9" "es";
        std::filesystem::create_directory(d);
        std::filesystem::copy_file(kFamily, d / "famille-\xe9t\xe9.csv");
        const std::filesystem::path out = d / "r\xe9sultat.json";
        const auto r = run({"calibrate", "--family", (d / "famille-\xe9t\xe9.csv").string(), "--profile", "h100-sxm",
                            "--fit", "L_c", "--out", out.string(), "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const json j = json::parse(r.out);
        QVERIFY2(j.dump().find("famille-\\\\xe9t\\\\xe9.csv") != std::string::npos, r.out.c_str());
        QVERIFY(std::filesystem::is_regular_file(out));
        const auto saved = crossroof::core::loadProfileFile(out);
        bool named = false;
        for (const auto &source : saved.sources)
            named = named || source.text.find("famille-\\xe9t\\xe9.csv") != std::string::npos;
        QVERIFY(named);
    }
};

QTEST_GUILESS_MAIN(TestCliCalibrate)
#include "tst_cli_calibrate.moc"
