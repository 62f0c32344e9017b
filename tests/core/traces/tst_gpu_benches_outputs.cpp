// SPDX-License-Identifier: GPL-3.0-or-later
// gpu-benches' outputs as its programs write them today (tests/data/gpu_benches, README there): each read by
// its own reader, recognised by its content, its GPU named by the file name, and a wrong guess refused by
// name.
#include "core/support/error.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/gpu_benches_sweeps.h"
#include "core/traces/gpu_benches_text.h"
#include "core/traces/perf_stat.h"
#include "core/traces/trace_import.h"
#include "import_fixtures.h"

#include <QFile>
#include <QTest>

#include <filesystem>

using namespace crossroof;
using test::inputErrorOf;

Q_DECLARE_METATYPE(core::TraceFormat)

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/gpu_benches/";
const std::string kShared = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches/";

} // namespace

class TestGpuBenchesOutputs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void streamTodaysHeader();
    void latencyTodaysRows();
    void latencyPlateaus_data();
    void latencyPlateaus();
    void cacheSweeps();
    void l2Stream();
    void roofline();
    void strides();
    void gpuFromFileName_data();
    void gpuFromFileName();
    void wrongGuessesNamed();
    void rejects_data();
    void rejects();
    void sharedCurrentFiles_data();
    void sharedCurrentFiles();
};

void TestGpuBenchesOutputs::streamTodaysHeader()
{
    const auto traces = core::readGpuStream(kData + "stream_mi100.txt");
    QCOMPARE(traces.size(), std::size_t(6));
    QCOMPARE(traces[3].kernel, std::string("triad"));
    QCOMPARE(traces[3].gpu, std::string("mi100")); // "stream_" is the benchmark's name, not the GPU's
    QCOMPARE(traces[3].sm_count, 120.0);           // 1920 threads / (16 threads x 1 block)
    QCOMPARE(traces[3].warps_per_sm.front(), 0.5); // 16 threads x 1 block per SM, in 32-thread warps
    // Line 9: "64 15360 2 5.0% | GB/s: 256 194 280 494 268 257": 2 blocks of 64 threads = 4 warps per SM.
    QCOMPARE(traces[3].lines[7], 9);
    QCOMPARE(traces[3].warps_per_sm[7], 4.0);
    QCOMPARE(traces[3].gbs[7], 494.0);
    QCOMPARE(traces[3].warps_per_sm.back(), 64.0); // 1024 x 2 = 80 % of the CU's 2560 threads

    // Through the importer: one trace per kernel, named by GPU and kernel, and the device the file implies.
    const core::TraceFile file = core::readTraceFile(kData + "stream_mi100.txt");
    QCOMPARE(file.format, core::TraceFormat::GpuStream);
    QCOMPARE(file.traces[3].name, std::string("mi100 triad"));
    QVERIFY(file.device);
    QCOMPARE(file.device->name, std::string("mi100"));
    QCOMPARE(*file.device->sm_count, 120.0);
}

void TestGpuBenchesOutputs::latencyTodaysRows()
{
    const core::GpuLatency lat = core::readGpuLatency(kData + "latency_mi100.txt");
    QCOMPARE(lat.gpu, std::string("mi100"));
    QCOMPARE(lat.clock_mhz, 1430.0);
    QCOMPARE(lat.cycles.size(), std::size_t(235));
    QCOMPARE(lat.lines.front(), 2);
    // "2000000 1430 2 187.4 134.0 133.4 129.6 141.0": the cycles are the fifth column, the percentiles left.
    QCOMPARE(lat.chain_kb.front(), 2.0);
    QCOMPARE(lat.cycles.front(), 134.0);
    QCOMPARE(lat.largestChainCycles(), 635.7);

    const core::TraceFile file = core::readTraceFile(kData + "latency_mi100.txt");
    QCOMPARE(file.format, core::TraceFormat::GpuLatency);
    QCOMPARE(file.traces.front().kind, core::TraceKind::LatencyVsFootprint);
    QCOMPARE(file.traces.front().name, std::string("mi100 latency"));
    QCOMPARE(file.device->name, std::string("mi100"));
}

void TestGpuBenchesOutputs::latencyPlateaus_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<double>("l1");
    QTest::addColumn<double>("l2");
    QTest::addColumn<double>("dram");
    QTest::addColumn<double>("l1Reach");
    // MI100: L1 134-136 cycles to 15 kB, L2 261-268 from 16.6 kB to megabytes, DRAM 631-636 at 1-2 GB
    // (medians of the five smallest and largest footprints); the L1 level holds every footprint to 15 kB, not
    // only the five that give its median (2 to 5.8 kB).
    QTest::newRow("mi100, today's output") << QString::fromStdString(kData + "latency_mi100.txt") << 135.0
                                           << 264.4 << 634.3 << 15.0;
    // The older V100 output: 29.9 to 30.3 cycles, 215.0 from 177 kB to 5.8 MB, 436-437 at hundreds of MB.
    QTest::newRow("v100, older output") << QString::fromStdString(kShared + "latency/v100.txt") << 29.9 << 215.0
                                        << 436.6 << 0.0;
}

void TestGpuBenchesOutputs::latencyPlateaus()
{
    QFETCH(QString, path);
    QFETCH(double, l1);
    QFETCH(double, l2);
    QFETCH(double, dram);
    if (!QFile::exists(path))
        QSKIP("../shared/data/gpu-benches is not here");
    const core::LatencyPlateaus p = core::latencyPlateaus(core::readGpuLatency(path.toStdString()));
    QCOMPARE(p.l1.cycles, l1);
    QVERIFY(p.l2);
    QVERIFY2(std::abs(p.l2->cycles - l2) <= 0.01 * l2, qPrintable(QString::number(p.l2->cycles)));
    QVERIFY(p.l2->rows >= 20);
    QCOMPARE(p.dram.cycles, dram);
    QFETCH(double, l1Reach);
    if (l1Reach > 0)
        QCOMPARE(p.l1.level_to_kb, l1Reach);
    // Each level's footprints come before the next one's.
    QVERIFY(p.l1.level_from_kb == p.l1.from_kb && p.l1.level_to_kb >= p.l1.to_kb);
    QVERIFY(p.l1.level_to_kb < p.l2->from_kb && p.l2->to_kb < p.dram.level_from_kb);
    QVERIFY(p.dram.level_from_kb <= p.dram.from_kb && p.dram.level_to_kb == p.dram.to_kb);
}

void TestGpuBenchesOutputs::cacheSweeps()
{
    const core::GpuCacheSweep cache = core::readGpuCache(kData + "cache_mi100.txt");
    QVERIFY(!cache.l2);
    QCOMPARE(cache.gpu, std::string("mi100"));
    QCOMPARE(cache.gbs.size(), std::size_t(23));
    QCOMPARE(cache.footprint_kb.front(), 4.0);
    QCOMPARE(cache.gbs.front(), 9098.8);
    QCOMPARE(cache.lines.front(), 3); // after the clock line and the header
    QCOMPARE(cache.counters_gbs.front().size(), std::size_t(4)); // DRAM read/write, L2 read/store
    QCOMPARE(cache.footprint_kb.back(), 320.0);
    QCOMPARE(cache.gbs.back(), 2475.2);

    const core::GpuCacheSweep l2 = core::readGpuCache(kData + "l2-cache_mi100.txt");
    QVERIFY(l2.l2);
    QCOMPARE(l2.block_kb.front(), 384.0);
    QCOMPARE(l2.footprint_kb.front(), 768.0);
    QCOMPARE(l2.gbs.front(), 2696.8);
    QCOMPARE(l2.lines.front(), 2);

    const core::TraceFile file = core::readTraceFile(kData + "l2-cache_mi100.txt");
    QCOMPARE(file.format, core::TraceFormat::GpuL2Cache);
    QCOMPARE(file.traces.front().kind, core::TraceKind::BandwidthVsFootprint);
    QCOMPARE(file.traces.front().x.front(), 768.0);
}

void TestGpuBenchesOutputs::l2Stream()
{
    const core::GpuL2Stream s = core::readGpuL2Stream(kData + "l2-stream_mi100.txt");
    QCOMPARE(s.gpu, std::string("mi100"));
    QCOMPARE(s.kernels, std::size_t(4));
    QCOMPARE(s.sm_count, 120.0);
    QCOMPARE(s.rows.size(), std::size_t(26));
    // Line 2: "96 1 11520 383 4% | GB/s: 194 194 194 273 273 273 496 496 474 181 181 181": medians.
    QCOMPARE(s.rows.front().line, 2);
    QCOMPARE(s.rows.front().warpsPerSm(), 3.0);
    QCOMPARE(s.rows.front().median_gbs, (std::vector<double> {194, 273, 496, 181}));

    // One curve per footprint and kernel; the first footprint's shown.
    const core::TraceFile file = core::readTraceFile(kData + "l2-stream_mi100.txt");
    QCOMPARE(file.traces.size(), std::size_t(8));
    QCOMPARE(file.traces[2].name, std::string("mi100 kernel 3, 383 kB"));
    QCOMPARE(file.traces[2].kind, core::TraceKind::BandwidthVsWarps);
    QCOMPARE(file.traces[2].y.front(), 496.0);
    QVERIFY(file.traces[2].visible);
    QCOMPARE(file.traces[6].name, std::string("mi100 kernel 3, 511 kB"));
    QVERIFY(!file.traces[6].visible);
    QCOMPARE(*file.device->sm_count, 120.0);
}

void TestGpuBenchesOutputs::roofline()
{
    const core::GpuRoofline r = core::readGpuRoofline(kData + "roofline_h200.txt");
    QCOMPARE(r.gpu, std::string("h200"));
    QCOMPARE(r.devices.size(), std::size_t(1));
    const auto &d = r.devices.front();
    QCOMPARE(d.gbs.size(), std::size_t(14));
    QCOMPARE(d.lines.front(), 67); // after the 64 builds, "2" and "-- Finished Building --"
    QCOMPARE(d.flops_per_byte.front(), 0.25);
    QCOMPARE(d.gbs.front(), 3759.0);
    QCOMPARE(d.gflops.front(), 940.0);
    QCOMPARE(d.clock_mhz.front(), 1980.0);
    // The ridge: best GF/s 37227 over best GB/s 3780.
    QCOMPARE(core::GpuRoofline::ridge(d), 37227.0 / 3780.0);

    const core::TraceFile file = core::readTraceFile(kData + "roofline_h200.txt");
    QCOMPARE(file.format, core::TraceFormat::GpuRoofline);
    QCOMPARE(file.traces.front().kind, core::TraceKind::PerformanceVsIntensity);
    QCOMPARE(file.traces.front().name, std::string("h200 roofline"));
}

void TestGpuBenchesOutputs::strides()
{
    const core::GpuStrides s = core::readGpuStrides(kData + "strides_a100.txt");
    QCOMPARE(s.gpu, std::string("a100"));
    QCOMPARE(s.series.size(), std::size_t(3));
    QCOMPARE(s.series[0].name, std::string("float block"));
    QCOMPARE(s.series[0].arg.size(), std::size_t(7));
    QCOMPARE(s.series[2].name, std::string("float stride"));
    // "float stride 3 3 1.63 79 1.00 1.62 0.00" (line 20)
    QCOMPARE(s.series[2].arg[3], 3.0);
    QCOMPARE(s.series[2].cycles[3], 1.63);
    QCOMPARE(s.series[2].bytes_per_cycle[3], 79.0);
    QCOMPARE(s.series[2].lines[3], 22);

    const core::TraceFile file = core::readTraceFile(kData + "strides_a100.txt");
    QCOMPARE(file.traces[2].name, std::string("a100 float stride"));
    QCOMPARE(file.traces[2].kind, core::TraceKind::CyclesVsStride);
}

void TestGpuBenchesOutputs::gpuFromFileName_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("gpu");
    QTest::newRow("older, the GPU alone") << "stream/v100.txt" << "v100";
    QTest::newRow("bench_gpu") << "runs/stream_mi100.txt" << "mi100";
    QTest::newRow("l2-stream is not stream") << "l2-stream_mi100.txt" << "mi100";
    QTest::newRow("gpu-bench_gpu") << "gpu-stream_a100_40.txt" << "a100_40";
    QTest::newRow("gpu-bench-gpu") << "gpu-latency-h200.txt" << "h200";
    QTest::newRow("only the bench") << "latency.txt" << "latency";
}

void TestGpuBenchesOutputs::gpuFromFileName()
{
    QFETCH(QString, path);
    QFETCH(QString, gpu);
    QCOMPARE(QString::fromStdString(core::detail::benchGpuName(path.toStdString())), gpu);
}

void TestGpuBenchesOutputs::wrongGuessesNamed()
{
    const std::string roofline = kData + "roofline_h200.txt";
    // Asked for as perf stat, or read by perf stat's own reader: named, not read as broken records.
    QCOMPARE(inputErrorOf([&] { core::readTraceFileAs(roofline, core::TraceFormat::PerfStat); }),
             QString::fromStdString(roofline + ": a gpu-benches roofline output, not perf stat output"));
    QCOMPARE(inputErrorOf([&] { core::readPerfStat(roofline); }),
             QString::fromStdString(roofline + ": a gpu-benches roofline output, not perf stat output"));
    const std::string latency = kData + "latency_mi100.txt";
    QCOMPARE(inputErrorOf([&] { core::readTraceFileAs(latency, core::TraceFormat::GpuStream); }),
             QString::fromStdString(latency + ": a gpu-benches latency output, not a gpu-benches stream output"));
    // Any file may still be read as a table.
    QCOMPARE(core::readTraceFileAs(kData + "cache_mi100.txt", core::TraceFormat::GenericTable).format,
             core::TraceFormat::GenericTable);
}

void TestGpuBenchesOutputs::rejects_data()
{
    QTest::addColumn<core::TraceFormat>("format");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    using F = core::TraceFormat;
    QTest::newRow("stream, today's, no smBlocks")
            << F::GpuStream << QByteArray("block smBlocks threads occ% | init\n  16 1920 | GB/s: 3\n")
            << "x.txt:2:3: expected 'block threads smBlocks occ%' before '|'";
    QTest::newRow("stream, today's, half a block")
            << F::GpuStream << QByteArray("block smBlocks threads occ% | init\n 16 1920 0.5 1% | GB/s: 3\n")
            << "x.txt:2:10: smBlocks: must be a whole number of blocks per SM >= 1 (got 0.5)";
    QTest::newRow("latency, bad percentile")
            << F::GpuLatency << QByteArray("clock: 1430\n 2000000 1430 2 187.4 134.0 x\n")
            << "x.txt:2:29: latency percentile (cycles): 'x' is not a number";
    QTest::newRow("cache, no unit") << F::GpuCache << QByteArray("  data set\n  4 kB 424ms 1.5% 9098.8\n")
                                    << "x.txt:2:19: '9098.8' has no unit (kB, ms, %, GB/s)";
    QTest::newRow("cache, mixed rows")
            << F::GpuCache << QByteArray(" 4 kB 4ms 1% 9 GB/s\n 384 kB 768 kB 15ms 0.2% 2696.8 GB/s\n")
            << "x.txt:2:2: two data-set sizes, but the rows before have one";
    QTest::newRow("l2-stream, two values")
            << F::GpuL2Stream << QByteArray("96 1 11520 383 4% | GB/s: 194 194\n")
            << "x.txt:1:21: 2 values; expected three (min, median, max) per kernel";
    QTest::newRow("l2-stream, too many threads per SM")
            << F::GpuL2Stream << QByteArray("96 4 200 383 4% | GB/s: 1 2 3\n")
            << "x.txt:1:1: blockSize and blocksPerSM must be >= 1 and their product at most the threads";
    QTest::newRow("roofline, no GF/s")
            << F::GpuRoofline << QByteArray("0 1056 blocks 0 its 0.250 Fl/B 3759 GB/s 940\n")
            << "x.txt:1:1: no 'GF/s' (a gpu-roofline row: DEV BLOCKS blocks ITS its X Fl/B Y GB/s Z GF/s CLOCK Mhz "
               "...)";
    QTest::newRow("roofline, nan") << F::GpuRoofline
                                   << QByteArray("0 1056 blocks 0 its nan Fl/B 3759 GB/s 940 GF/s\n")
                                   << "x.txt:1:21: intensity (Fl/B): 'nan' is not a finite number";
    QTest::newRow("strides, short row") << F::GpuStrides << QByteArray("float stride 1 1 1.02\n")
                                        << "x.txt:1:1: expected 'float|double stride|block ARG ARG2 CYCLES B/CYCLE "
                                           "...' (a gpu-strides row)";
    QTest::newRow("strides, empty") << F::GpuStrides << QByteArray("clock: 1155\n\n") << "x.txt: no gpu-strides rows";
}

void TestGpuBenchesOutputs::rejects()
{
    QFETCH(core::TraceFormat, format);
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const std::string t = text.toStdString();
    const QString error = inputErrorOf([&] {
        switch (format) {
        case core::TraceFormat::GpuStream:
            core::parseGpuStream(t, "gpu", "x.txt");
            break;
        case core::TraceFormat::GpuLatency:
            core::parseGpuLatency(t, "gpu", "x.txt");
            break;
        case core::TraceFormat::GpuL2Stream:
            core::parseGpuL2Stream(t, "gpu", "x.txt");
            break;
        case core::TraceFormat::GpuRoofline:
            core::parseGpuRoofline(t, "gpu", "x.txt");
            break;
        case core::TraceFormat::GpuStrides:
            core::parseGpuStrides(t, "gpu", "x.txt");
            break;
        default:
            core::parseGpuCache(t, "gpu", "x.txt");
        }
    });
    QCOMPARE(error, message);
}

void TestGpuBenchesOutputs::sharedCurrentFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<core::TraceFormat>("format");
    QTest::addColumn<int>("traces");
    QTest::newRow("stream") << "stream_mi100.txt" << core::TraceFormat::GpuStream << 6;
    QTest::newRow("latency") << "latency_mi100.txt" << core::TraceFormat::GpuLatency << 1;
    QTest::newRow("cache") << "cache_mi100.txt" << core::TraceFormat::GpuCache << 1;
    QTest::newRow("l2-cache") << "l2-cache_mi100.txt" << core::TraceFormat::GpuL2Cache << 1;
    QTest::newRow("l2-stream") << "l2-stream_mi100.txt" << core::TraceFormat::GpuL2Stream << 4 * 119;
}

void TestGpuBenchesOutputs::sharedCurrentFiles()
{
    QFETCH(QString, file);
    QFETCH(core::TraceFormat, format);
    QFETCH(int, traces);
    const std::string path = kShared + "current/" + file.toStdString();
    if (!std::filesystem::exists(path))
        QSKIP("../shared/data/gpu-benches/current is not here");
    QCOMPARE(core::detectTraceFormat(path), format);
    const core::TraceFile read = core::readTraceFile(path);
    QCOMPARE(int(read.traces.size()), traces);
    QCOMPARE(read.device->name, std::string("mi100"));
}

QTEST_APPLESS_MAIN(TestGpuBenchesOutputs)
#include "tst_gpu_benches_outputs.moc"
