// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string kDetails = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_details.csv";
const std::string kRaw = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/ncu_h100_raw.csv";
const std::string kTorch = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h100_sxm/torch_raw.csv";

using Run = crossroof::test::CliRun;
using crossroof::test::run;
using crossroof::test::runJson;

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace

class TestCliKernels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detailsAgainstOtherDevice();
    void realKernels();
    void rawOnItsDevice();
    void text();
    void errors();
    void jsonOfTooManyKernelsIsRefused();
    void fitTraceReadsNcu();
    void readRateAloneIsTakenWithAWarning();
};

void TestCliKernels::detailsAgainstOtherDevice()
{
    // The real H100 SXM details export against the bundled H100 PCIe (114 SMs): read, and the mismatch said.
    const json j = runJson({"kernels", "--trace", kDetails, "--profile", "h100-pcie", "--json"});
    QCOMPARE(j["source"].get<std::string>(), kDetails);
    QCOMPARE(j["format"].get<std::string>(), std::string("ncu-details"));
    QVERIFY(j["device"]["name"].is_null());
    QCOMPARE(j["device"]["sm_count"].get<double>(), 132.0);
    QCOMPARE(j["device"]["cc"].get<std::string>(), std::string("9.0"));
    QCOMPARE(j["warnings"].size(), std::size_t(3));
    QCOMPARE(j["warnings"][0].get<std::string>(),
             std::string("file: unnamed device (132 SMs, CC 9.0); profile: H100 PCIe (Hopper): 132 SMs, not 114; "
                         "the predictions are for the profile's machine"));
    // The details sections hold no instruction or request counts: said once, with the metrics to add.
    QCOMPARE(j["warnings"][1].get<std::string>(),
             std::string("10 kernel(s) get no prediction: the export lacks smsp__inst_executed.sum,"
                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum; "
                         "profile again adding ncu --metrics smsp__inst_executed.sum,"
                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    const std::string hint = j["warnings"][2].get<std::string>();
    QVERIFY2(hint.find("sm_count=132") != std::string::npos || hint.find("matching") != std::string::npos,
             hint.c_str());
    QCOMPARE(j["kernels"].size(), std::size_t(10));
    const json &k = j["kernels"][0];
    QCOMPARE(k["id"].get<std::string>(), std::string("0"));
    QCOMPARE(k["short_name"].get<std::string>(), std::string("xkernel<8, 1>"));
    QCOMPARE(k["grid"].get<std::string>(), std::string("(264, 1, 1)"));
    QCOMPARE(k["block"].get<std::string>(), std::string("(64, 1, 1)"));
    QCOMPARE(k["warps_per_sm"].get<double>(), 3.99);
    QCOMPARE(k["duration_ns"].get<double>(), 902784.0);
    QVERIFY(near(k["dram_gbs"].get<double>(), 156.42053027081));
    QCOMPARE(k["dram_gbs_derived"].get<bool>(), false);
    QVERIFY(k["Z"].is_null()); // the details sections hold no instruction or request counts
    // ... so there is no prediction: the kernel says which metrics are missing and how to collect them.
    QVERIFY(k["predicted_gbs"].is_null());
    QVERIFY(k["error"].is_null());
    const std::string metrics = k["ncu_metrics"].get<std::string>();
    QVERIFY2(metrics.starts_with("ncu --metrics ") && metrics.find("smsp__inst_executed.sum") != std::string::npos,
             metrics.c_str());
    QVERIFY(k["skipped"].get<std::string>().find(metrics) != std::string::npos);
    QVERIFY(j["accuracy"].is_null());
}

void TestCliKernels::realKernels()
{
    // Eleven real PyTorch and cuBLAS kernels on the H100 SXM: each predicted from its own counters, with the
    // basis of the prediction, and the mean accuracy beside a memory roofline's.
    const json j = runJson({"kernels", "--trace", kTorch, "--profile", "h100-sxm", "--json"});
    QCOMPARE(j["kernels"].size(), std::size_t(11));
    QCOMPARE(j["accuracy"]["kernels"].get<int>(), 11);
    QVERIFY(j["accuracy"]["model"].get<double>() >= 0.90);
    QVERIFY(j["accuracy"]["naive"].get<double>() < 0.6);
    const json &add = j["kernels"][4]; // a + b, vectorized: 16 sectors a request, two loads and a store
    QCOMPARE(add["req_bytes"].get<double>(), 512.0);
    QVERIFY(near(add["m"].get<double>(), 1.5));
    QCOMPARE(add["stores_only"].get<bool>(), false);
    QCOMPARE(add["bound"].get<std::string>(), std::string("memory"));
    QVERIFY(add["clock_ghz"].get<double>() < 1.6); // ncu locked the clock
    QVERIFY(add["measured_gops"].get<double>() > 0 && add["predicted_gops"].get<double>() > 0);
    QVERIFY(j["kernels"][0]["stores_only"].get<bool>());
    const Run text = run({"kernels", "--trace", kTorch, "--profile", "h100-sxm"});
    QCOMPARE(text.status, 0);
    QVERIFY2(text.out.find("Mean accuracy over 11 kernel(s)") != std::string::npos, text.out.c_str());
}

void TestCliKernels::rawOnItsDevice()
{
    // With the profile set to the file's device, no mismatch; Z comes from the counts in the file. ncu locked
    // the SM clock near 1.59 GHz: said with both clocks.
    const json j = runJson({"kernels", "--trace", kRaw, "--profile", "h100-sxm", "--json"});
    QCOMPARE(j["format"].get<std::string>(), std::string("ncu-raw"));
    QCOMPARE(j["device"]["name"].get<std::string>(), std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(j["warnings"].size(), std::size_t(3));
    QCOMPARE(j["warnings"][0].get<std::string>(),
             std::string("SM clock: file 1.59 GHz, profile 1.98 GHz (20 % lower): a kernel whose clock the file "
                         "gives is predicted at that clock"));
    // The family's export has no store counts: said once, and the kernels predicted as the loads they are.
    QVERIFY(j["warnings"][1].get<std::string>().find("without store counts") != std::string::npos);
    // Nor L1 hit rates: the L2 ceiling takes every L1 sector as L2 traffic, and the metric that adds them is named.
    QVERIFY(j["warnings"][2].get<std::string>().find("ncu --metrics l1tex__t_sector_hit_rate.pct")
            != std::string::npos);
    QCOMPARE(j["kernels"].size(), std::size_t(10));
    QVERIFY(near(j["kernels"][6]["Z"].get<double>(), 2491720709.0 / 17301504)); // 128 FMAs + 16
    QVERIFY(near(j["kernels"][3]["dram_gbs"].get<double>(), 2061.88220588673));
    QCOMPARE(j["kernels"][3]["warps_per_sm"].get<double>(), 61.73);
}

void TestCliKernels::text()
{
    const Run r = run({"kernels", "--trace", kDetails});
    QCOMPARE(r.status, 0);
    QVERIFY(r.out.find("xkernel<32, 4>") != std::string::npos);
    QVERIFY2(r.out.find("Warning: file: unnamed device (132 SMs, CC 9.0); profile: GeForce GTX 570 (Fermi), single "
                        "precision: 132 SMs, not 15; CC 9.0, not 2.0; the predictions are for the profile's machine\n")
                     != std::string::npos,
             r.out.c_str());
    // An H200's export under the H100 SXM's profile: the same SMs and CC, but another GPU, said as the Kernels
    // dock says it, and only the H200's profile offered.
    const Run h200 = run({"kernels", "--trace", std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/h200_probe/ncu_raw.csv",
                          "--profile", "h100-sxm"});
    QCOMPARE(h200.status, 0);
    QVERIFY2(h200.out.find("Warning: file: NVIDIA H200; profile: H100 SXM 80GB (Hopper): another GPU (H200, not "
                           "H100); peak DRAM bandwidth 4814 GB/s, the profile's 2964 GB/s; the predictions are for "
                           "the profile's machine\n")
                     != std::string::npos,
             h200.out.c_str());
    QVERIFY2(h200.out.find("Warning: bundled profile(s) matching the file's device: h200 (--profile ID)\n")
                     != std::string::npos,
             h200.out.c_str());
}

void TestCliKernels::errors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string rep = (dir.path() + QStringLiteral("/run.ncu-rep")).toStdString();
    std::ofstream(rep, std::ios::binary) << "NVIDIA";
    Run r = run({"kernels", "--trace", rep});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.find("ncu --import \"" + rep + "\" --csv --page raw") != std::string::npos, r.err.c_str());
    r = run({"kernels", "--json"});
    QCOMPARE(r.status, 2);
    QVERIFY(r.err.find("option '--trace' is required") != std::string::npos);
    const std::string empty = (dir.path() + QStringLiteral("/empty.csv")).toStdString();
    std::ofstream(empty, std::ios::binary) << "==PROF== Connected to process 1\n\"ID\",\"Kernel Name\","
                                              "\"Metric Name\",\"Metric Value\"\n";
    r = run({"kernels", "--trace", empty});
    QCOMPARE(r.status, 2);
    QCOMPARE(r.err, "crossroof-cli kernels: " + empty + ":2: a header but no data rows\n");
}

void TestCliKernels::jsonOfTooManyKernelsIsRefused()
{
    // 100,001 kernels: --json, built whole (a million kernels passed 4 GB in a minute), refuses with the limit
    // and names the CSV, which writes them row by row.
    QTemporaryDir dir;
    const std::string file = (dir.path() + QStringLiteral("/many.csv")).toStdString();
    {
        std::ofstream out(file, std::ios::binary);
        out << "\"ID\",\"Kernel Name\",\"dram__bytes.sum.per_second\",\"sm__warps_active.avg.per_cycle_active\","
               "\"smsp__inst_executed.sum\"\n\"\",\"\",\"Tbyte/second\",\"warp\",\"inst\"\n";
        for (int i = 0; i < 100'001; ++i)
            out << '"' << i << "\",\"copy(float *)\",\"1.25\",\"12.5\",\"2,000\"\n";
    }
    Run r = run({"kernels", "--trace", file, "--profile", "h100-sxm", "--json"});
    QCOMPARE(r.status, 2);
    QVERIFY(r.out.empty());
    QCOMPARE(r.err, "crossroof-cli kernels: " + file + ": 100001 kernels, more than the 100000 --json writes; "
                    "--format csv gives the same columns, one row per kernel\n");
    r = run({"kernels", "--trace", file, "--profile", "h100-sxm", "--format", "csv"});
    QCOMPARE(r.status, 0);
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), std::ptrdiff_t(100'002)); // the header and each kernel
}

void TestCliKernels::fitTraceReadsNcu()
{
    // fit-trace detects the ncu export: achieved warps per SM against DRAM GB/s of the ten kernels.
    const json j = runJson({"fit-trace", "--trace", kDetails, "--json"});
    QCOMPARE(j["points"].get<int>(), 10);
    QCOMPARE(j["residuals"].size(), std::size_t(10));
    QVERIFY(j["R_gbs"].get<double>() > 0 && j["R_gbs"].get<double>() <= 2147.2); // not above the fastest kernel
    const json forced = runJson({"fit-trace", "--trace", kRaw, "--format", "ncu-csv", "--json"});
    QCOMPARE(forced["points"].get<int>(), 10);
    const Run bad = run({"fit-trace", "--trace", kRaw, "--format", "xls"});
    QCOMPARE(bad.status, 2);
    QVERIFY(bad.err.find("option '--format': must be csv") != std::string::npos);
    const Run curve = run({"bandwidth-curve", "--trace", kRaw, "--column", "x", "--limit", "1"});
    QCOMPARE(curve.status, 2);
    QVERIFY2(curve.err.find("a ncu-csv file has no bytes per time unit") != std::string::npos, curve.err.c_str());
}

void TestCliKernels::readRateAloneIsTakenWithAWarning()
{
    // The real H100 raw export as a recipe collecting dram__bytes_read.sum.per_second alone makes it: every
    // dram__bytes.*.per_second column taken out. The read rate is then each kernel's DRAM rate, said once
    // with the metric that adds the writes, and every kernel is predicted (it used to predict none: "the
    // export lacks dram__bytes.sum.per_second").
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string file = dir.filePath(QStringLiteral("read_only.csv")).toStdString();
    {
        std::ifstream in(kRaw);
        std::ofstream out(file);
        std::vector<bool> keep;
        for (std::string line; std::getline(in, line);) {
            std::vector<std::string> cells; // "..." cells, commas inside quotes kept
            bool quoted = false;
            cells.emplace_back();
            for (const char c : line) {
                if (c == '"')
                    quoted = !quoted;
                if (c == ',' && !quoted)
                    cells.emplace_back();
                else
                    cells.back() += c;
            }
            if (keep.empty() && cells.front() == "\"ID\"") {
                for (const std::string &cell : cells)
                    keep.push_back(!cell.starts_with("\"dram__bytes."));
            }
            if (keep.size() != cells.size()) { // ncu's lines before the table
                out << line << '\n';
                continue;
            }
            std::string kept;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (keep[i])
                    kept += (kept.empty() ? "" : ",") + cells[i];
            }
            out << kept << '\n';
        }
        QCOMPARE(std::count(keep.begin(), keep.end(), false), std::ptrdiff_t(4)); // avg, max, min, sum
    }
    const json j = runJson({"kernels", "--trace", file, "--profile", "h100-sxm", "--json"});
    QCOMPARE(j["kernels"].size(), std::size_t(10));
    QCOMPARE(j["accuracy"]["kernels"].get<int>(), 10);
    // Kernel 3's dram__bytes_read.sum.per_second in the file (its read and write rate is 2,061.88 GB/s).
    QVERIFY(near(j["kernels"][3]["dram_gbs"].get<double>(), 2059.6851284188));
    for (const json &k : j["kernels"])
        QVERIFY(k["predicted_gbs"].is_number());
    const auto warned = std::count_if(j["warnings"].begin(), j["warnings"].end(), [](const json &w) {
        return w.get<std::string>()
               == "DRAM GB/s of 10 kernel(s) is the read rate alone (dram__bytes_read.sum.per_second; the export "
                  "has no write rate): their writes are not counted; profile again adding ncu --metrics "
                  "dram__bytes.sum.per_second";
    });
    QCOMPARE(warned, std::ptrdiff_t(1));
    for (const json &w : j["warnings"])
        QVERIFY2(w.get<std::string>().find("get no prediction") == std::string::npos, w.dump().c_str());
}

QTEST_APPLESS_MAIN(TestCliKernels)
#include "tst_cli_kernels.moc"
