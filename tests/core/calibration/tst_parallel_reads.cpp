// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-probe's parallel reads (parallel.csv): the reader, the analysis (R_dram, m, the L2 level) on a
// file that a known X-model machine generated (tests/data/probe_parallel), its place in a probe directory,
// and bad input named by file and line.

#include "core/calibration/parallel_reads.h"
#include "core/calibration/probe_analysis.h"
#include "core/error_of.h"
#include "core/support/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace crossroof::core;
using crossroof::test::errorOf;

namespace {

const std::string kData = CROSSROOF_SOURCE_DIR "/tests/data/";
const std::string kParallel = kData + "probe_parallel/parallel.csv";
const std::string kH100 = kData + "h100_sxm/";

// The machine scripts/generate_probe_parallel_sample.py wrote the file from.
constexpr double kSms = 132, kClock = 1.98, kL = 760, kR = 2072, kRdram = 2964, kL2 = 270, kL2Gbs = 6800;
constexpr double kL2Bytes = 52428800;

double relative(double a, double b)
{
    return std::abs(a - b) / std::abs(b);
}

const char *kHeader = "level,bytes_per_thread,loads_in_flight,warps_per_sm,footprint_bytes,read_gbs\n";

/// A probe directory: the real H100 SXM files and TEXT as its parallel.csv (none when empty).
std::filesystem::path probeDirectory(const QTemporaryDir &dir, const std::string &parallel)
{
    const std::filesystem::path d = dir.path().toStdString();
    for (const char *file : {"device.csv", "latency.csv", "stream.csv", "family.csv"})
        std::filesystem::copy_file(kH100 + file, d / file);
    if (!parallel.empty())
        std::ofstream(d / "parallel.csv") << parallel;
    return d;
}

std::string fileText(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestParallelReads : public QObject
{
    Q_OBJECT

private slots:
    void readsTheProbeFormat()
    {
        const ParallelReads reads = readParallelFile(kParallel, kL2Bytes);
        // 2 levels x 3 widths x 4 loads in flight x 8 warp counts, less 16 B x 8 at 64 warps at each level.
        QCOMPARE(reads.rows.size(), std::size_t(190));
        const ParallelRow &first = reads.rows.front();
        QCOMPARE(first.line, 2);
        QVERIFY(first.level == ReadLevel::Dram);
        QCOMPARE(first.bytes_per_thread, 4.0);
        QCOMPARE(first.loads_in_flight, 1.0);
        QCOMPARE(first.warps, 1.0);
        QCOMPARE(first.footprint_bytes, 2147483648.0);
        QCOMPARE(first.gbs, 43.67);
        QCOMPARE(first.requestBytes(), 128.0);
        QCOMPARE(first.label(), std::string("dram 4 B x 1, 1 warp"));
        const ParallelRow &last = reads.rows.back();
        QCOMPARE(last.line, 191);
        QVERIFY(last.level == ReadLevel::L2);
        QCOMPARE(last.requestBytes(), 512.0);
        QCOMPARE(last.footprint_bytes, 13107200.0);
    }

    void analysisRecoversTheMachine()
    {
        const ParallelAnalysis a = analyseParallelReads(readParallelFile(kParallel, kL2Bytes), kSms, kClock);
        // The byte bandwidth: the highest DRAM row, within the file's noise of R_dram.
        QVERIFY2(relative(a.dram.peak.gbs, kRdram) < 0.04, qPrintable(QString::number(a.dram.peak.gbs)));
        QVERIFY(a.dram.peak.bytes_per_thread > 4); // 4-byte loads stop at R, below R_dram
        // The latency-bound DRAM rows give L, and the same L for every number of loads in flight.
        QVERIFY(a.dram.latency);
        QVERIFY2(relative(*a.dram.latency, kL) < 0.02, qPrintable(QString::number(*a.dram.latency)));
        QCOMPARE(a.dram.by_m.size(), std::size_t(4));
        for (const InFlightLatency &l : a.dram.by_m)
            QVERIFY2(relative(l.cycles, kL) < 0.03, qPrintable(QString::number(l.cycles)));
        QVERIFY(a.dram.m_spread < 1.05);
        QVERIFY(a.m_honoured);
        QVERIFY(a.warnings.empty());
        // The L2 level: its latency from the latency-bound rows, its ceiling from the highest.
        QVERIFY(a.l2);
        QVERIFY2(relative(*a.l2->latency, kL2) < 0.02, qPrintable(QString::number(*a.l2->latency)));
        QVERIFY(relative(a.l2->peak.gbs, kL2Gbs) < 0.04);
        QVERIFY(a.l2->m_spread < 1.05);
        // Each width: 4-byte loads saturate at R (its requests are 128 B), the wider ones at R_dram; one load
        // in flight is enough with the warps that make n x m x SMs x req_bytes x clock / L reach 95 % of it.
        QCOMPARE(a.widths.size(), std::size_t(3));
        QCOMPARE(a.widths[0].bytes_per_thread, 4.0);
        QVERIFY(relative(a.widths[0].peak.gbs, kR) < 0.04);
        QVERIFY(relative(a.widths[2].peak.gbs, kRdram) < 0.04);
        for (const WidthSaturation &w : a.widths) {
            QCOMPARE(w.saturating.loads_in_flight, 1.0);
            const double inFlight = 0.95 * w.peak.gbs * kL / (kSms * 32 * w.bytes_per_thread * kClock);
            QVERIFY2(w.saturating.warps >= 0.9 * inFlight && w.saturating.warps / 2 < inFlight,
                     qPrintable(QString::number(w.saturating.warps)));
            QVERIFY(w.saturating.gbs >= 0.95 * w.peak.gbs);
        }
    }

    void loadsInFlightMultiplyTheLatencyBoundThroughput()
    {
        // What m means to a user: one warp with 8 loads in flight reads as fast as 8 warps with one each.
        const ParallelReads reads = readParallelFile(kParallel, kL2Bytes);
        const auto gbs = [&](ReadLevel level, double width, double m, double n) {
            for (const ParallelRow &r : reads.rows) {
                if (r.level == level && r.bytes_per_thread == width && r.loads_in_flight == m && r.warps == n)
                    return r.gbs;
            }
            return 0.0;
        };
        QVERIFY(relative(gbs(ReadLevel::Dram, 4, 8, 1), gbs(ReadLevel::Dram, 4, 1, 8)) < 0.05);
        QVERIFY(relative(gbs(ReadLevel::Dram, 4, 8, 1), 8 * gbs(ReadLevel::Dram, 4, 1, 1)) < 0.05);
        QVERIFY(relative(gbs(ReadLevel::L2, 8, 4, 1), 4 * gbs(ReadLevel::L2, 8, 1, 1)) < 0.05);
        // The implied latency of a latency-bound row is L whatever its m.
        for (const ParallelRow &r : reads.rows) {
            if (r.level == ReadLevel::Dram && isLatencyBound(reads, r))
                QVERIFY2(relative(impliedLatency(r, kSms, kClock), kL) < 0.04, r.label().c_str());
        }
    }

    void overlappingLoadsThatDidNotOverlapAreReported()
    {
        // A kernel whose loads were serialised: 8 "in flight" read no faster than 1.
        std::string text = kHeader;
        for (int m : {1, 2, 4, 8}) {
            for (int n : {1, 2, 4, 8}) {
                const double gbs = n * kSms * 128 * kClock / kL;
                text += "dram,4," + std::to_string(m) + "," + std::to_string(n) + ",2147483648,"
                        + std::to_string(gbs) + "\n";
            }
        }
        text += "dram,16,1,64,2147483648,3000\n";
        QTemporaryDir dir;
        const std::string path = dir.filePath("serial.csv").toStdString();
        std::ofstream(path) << text;
        const ParallelAnalysis a = analyseParallelReads(readParallelFile(path), kSms, kClock);
        QVERIFY(!a.m_honoured);
        QVERIFY2(std::abs(a.dram.m_spread - 8) < 1e-6, qPrintable(QString::number(a.dram.m_spread)));
        QCOMPARE(a.warnings.size(), std::size_t(1));
        QVERIFY2(a.warnings[0].find(
                         "serial.csv: the latency-bound dram rows imply 760 cycles per load with 1 in "
                         "flight but 6080 with 8 (8.00 times)")
                         != std::string::npos,
                 a.warnings[0].c_str());
        QVERIFY(a.warnings[0].find("m is not honoured") != std::string::npos);
        QVERIFY(!a.l2);
    }

    void badInputNamesFileAndLine()
    {
        QTemporaryDir dir;
        const auto error = [&](const char *name, const std::string &rows, std::optional<double> l2 = {}) {
            const std::string path = dir.filePath(name).toStdString();
            std::ofstream(path) << rows;
            return errorOf([&] { readParallelFile(path, l2); });
        };
        const std::string h = kHeader;
        QVERIFY(error("p1.csv",
                      "level,bytes_per_thread,warps_per_sm,footprint_bytes,read_gbs\ndram,4,1,1,40\n")
                        .contains("p1.csv:1: no column 'loads_in_flight'"));
        QVERIFY(error("p2.csv", h + "dram,4,1,1,2147483648,40\ndram,4,1,2,2147483648,nan\n")
                        .contains("p2.csv:3:23: column 'read_gbs': 'nan' is not a finite number"));
        QVERIFY(error("p3.csv", h + "dram,4,1,1,2147483648,-40\n")
                        .contains("p3.csv:2:23: column 'read_gbs': must be > 0 (got -40)"));
        QVERIFY(error("p4.csv", h + "dram,4,1,1,-1,40\n").contains("p4.csv:2:"));
        QVERIFY(error("p5.csv", h + "dram,6.5,1,1,2147483648,40\n")
                        .contains("p5.csv:2:6: column 'bytes_per_thread': must be a whole number from 1 to "
                                  "2048 "
                                  "(got 6.5)"));
        QVERIFY(error("p6.csv", h + "dram,4,0,1,2147483648,40\n")
                        .contains("column 'loads_in_flight': must be a whole number from 1 to 256 (got 0)"));
        QVERIFY(error("p7.csv", h + "dram,4,1,0,2147483648,40\n")
                        .contains("column 'warps_per_sm': must be a whole number >= 1 (got 0)"));
        QVERIFY(error("p8.csv", h + "hbm,4,1,1,2147483648,40\n")
                        .contains("p8.csv:2:1: column 'level': must be dram or l2 (got 'hbm')"));
        // A series (level, width, loads in flight) goes up in warps: a repeat or a step back is refused.
        const std::string rows
                = "dram,4,1,1,2147483648,40\ndram,4,2,1,2147483648,80\ndram,4,1,4,2147483648,160\n";
        QVERIFY(error("p9.csv", h + rows + "dram,4,1,4,2147483648,161\n")
                        .contains("p9.csv:5:10: column 'warps_per_sm': repeats warps_per_sm = 4 of line 4"));
        QVERIFY(error("p10.csv", h + rows + "dram,4,1,2,2147483648,80\n")
                        .contains("p10.csv:5:10: column 'warps_per_sm': warps_per_sm = 2 comes after 4 on "
                                  "line 4"));
        QVERIFY(error("p11.csv", h + rows + "l2,4,1,1,13107200,100\n").isEmpty()); // another series
        QVERIFY(error("p12.csv", h + "l2,4,1,1,13107200,100\n").contains("p12.csv: no dram row"));
        QVERIFY(error("p13.csv", h).contains("p13.csv:1: a header but no data rows"));
        // With the device's L2: the footprints must say what the level says.
        QVERIFY(error("p14.csv", h + "dram,4,1,1,2147483648,40\nl2,4,1,1,104857600,100\n", kL2Bytes)
                        .contains("p14.csv:3:10: column 'footprint_bytes': an l2 row's footprint must fit in "
                                  "the "
                                  "L2 of 52428800 B (got 104857600)"));
        QVERIFY(error("p15.csv", h + "dram,4,1,1,13107200,40\n", kL2Bytes)
                        .contains("p15.csv:2:12: column 'footprint_bytes': a dram row's footprint must be at "
                                  "least 4 times the L2 of 52428800 B (got 13107200)"));
        QVERIFY(error("p16.csv", h + "dram,4,1,1,13107200,40\n").isEmpty());
    }

    void probeDirectoryWithoutParallelReadsStillReads()
    {
        const ProbeMeasurements probe = readProbe(kH100);
        QVERIFY(!probe.parallel);
        QVERIFY(!probe.parallel_analysis);
        QCOMPARE(*probe.l2_bytes, kL2Bytes);
        const HardwareProfile start = probeStartingProfile(probe, "h100");
        QCOMPARE(start.params.R_dram, 0.0);
        QCOMPARE(start.params.L_2, 0.0);
        for (const ProfileSource &s : start.sources)
            QVERIFY(s.text.find("parallel.csv") == std::string::npos);
    }

    void probeDirectoryWithParallelReadsGivesRdramAndL2()
    {
        QTemporaryDir dir;
        const std::filesystem::path d = probeDirectory(dir, fileText(kParallel));
        const ProbeMeasurements probe = readProbe(d);
        QVERIFY(probe.parallel && probe.parallel_analysis);
        QCOMPARE(probe.parallel->rows.size(), std::size_t(190));
        const HardwareProfile start = probeStartingProfile(probe, "h100");
        QCOMPARE(start.params.R_dram, probe.parallel_analysis->dram.peak.gbs);
        QVERIFY(relative(start.params.L_2, kL2) < 0.02);
        QCOMPARE(start.params.R, probe.stream_peak_gbs); // R still from stream.csv
        bool rdram = false, l2 = false;
        for (const ProfileSource &s : start.sources) {
            if (s.fields == std::vector<std::string> {"R_dram"}) {
                rdram = true;
                QVERIFY2(s.text.find("parallel.csv:" + std::to_string(probe.parallel_analysis->dram.peak.line)
                                     + ": the highest read throughput over a DRAM footprint")
                                 != std::string::npos,
                         s.text.c_str());
            }
            if (s.fields == std::vector<std::string> {"L_2"}) {
                l2 = true;
                QVERIFY2(s.text.find("latency-bound l2 rows") != std::string::npos, s.text.c_str());
            }
        }
        QVERIFY(rdram && l2);
    }

    void badParallelReadsInAProbeDirectoryAreNamed()
    {
        QTemporaryDir dir;
        // An "l2" footprint twice the device's L2 (device.csv: l2_bytes 52428800).
        const std::filesystem::path d = probeDirectory(
                dir, std::string(kHeader) + "dram,4,1,1,2147483648,40\nl2,4,1,1,104857600,90\n");
        QVERIFY(errorOf([&] {
                    readProbe(d);
                }).contains("parallel.csv:3:10: column 'footprint_bytes': an l2 row's footprint must fit"));
    }
};

QTEST_GUILESS_MAIN(TestParallelReads)
#include "tst_parallel_reads.moc"
