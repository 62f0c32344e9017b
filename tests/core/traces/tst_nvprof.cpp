// SPDX-License-Identifier: GPL-3.0-or-later
// nvprof's CSV as a kernel set (core/traces/nvprof_csv.h): the metrics table, the GPU trace and both put
// together, in the layouts nvprof prints (written for the test: no nvprof output is in the repository).
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_import.h"
#include "import_fixtures.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace crossroof;

namespace {

// nvprof --csv --metrics achieved_occupancy,inst_executed,gld_transactions,gld_transactions_per_request,
// gst_transactions,gst_requests,dram_read_throughput,dram_write_throughput ./stream
const std::string kMetrics
        = "==4711== NVPROF is profiling process 4711, command: ./stream\n"
          "==4711== Profiling application: ./stream\n"
          "==4711== Profiling result:\n"
          "==4711== Metric result:\n"
          "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"achieved_occupancy\","
          "\"Achieved Occupancy\",0.851234,0.875432,0.862500\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"inst_executed\","
          "\"Instructions Executed\",1048576,1048576,1048576\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"gld_transactions\","
          "\"Global Load Transactions\",524288,524288,524288\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,"
          "\"gld_transactions_per_request\",\"Global Load Transactions Per Request\",8.000000,8.000000,8.000000\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"gst_transactions\","
          "\"Global Store Transactions\",262144,262144,262144\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"gst_requests\","
          "\"Global Store Requests\",32768,32768,32768\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"dram_read_throughput\","
          "\"Device Memory Read Throughput\",120.10GB/s,122.30GB/s,121.50GB/s\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"dram_write_throughput\","
          "\"Device Memory Write Throughput\",60.20GB/s,61.00GB/s,600.00MB/s\n"
          "\"Tesla K20c (0)\",\"triad(double*, double const *, double const *, int)\",10,\"gld_efficiency\","
          "\"Global Memory Load Efficiency\",100.00%,100.00%,100.00%\n";

// nvprof --csv --print-gpu-trace ./stream
const std::string kTrace
        = "==4712== NVPROF is profiling process 4712, command: ./stream\n"
          "==4712== Profiling application: ./stream\n"
          "==4712== Profiling result:\n"
          "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\",\"Block Z\","
          "\"Registers Per Thread\",\"Static SMem\",\"Dynamic SMem\",\"Size\",\"Throughput\",\"SrcMemType\","
          "\"DstMemType\",\"Device\",\"Context\",\"Stream\",\"Name\",\"Correlation_ID\"\n"
          "ms,us,,,,,,,,B,B,MB,GB/s,,,,,,,\n"
          "312.4,2630.1,,,,,,,,,,32.000000,12.170000,Pageable,Device,\"Tesla K20c (0)\",1,7,\"[CUDA memcpy HtoD]\",110\n"
          "318.2,4.000000,4096,1,1,256,1,1,16,0,0,,,,,\"Tesla K20c (0)\",1,7,"
          "\"triad(double*, double const *, double const *, int) [116]\",116\n"
          "318.3,6.000000,4096,1,1,256,1,1,16,0,0,,,,,\"Tesla K20c (0)\",1,7,"
          "\"triad(double*, double const *, double const *, int) [118]\",118\n";

std::string write(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const std::string path = (dir.path() + QLatin1Char('/') + QLatin1String(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestNvprof : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void metricsAndTrace();
    void metricsAlone();
    void traceAlone();
    void importedAsKernelPoints();
    void badValueNamed();
    void missingMetricNamedForNvprof();
};

void TestNvprof::metricsAndTrace()
{
    const core::NcuReport r = core::parseNcuCsv(kMetrics + kTrace, "k20c.csv");
    QCOMPARE(r.form, core::NcuForm::NvprofMetrics);
    QCOMPARE(r.kernels.size(), std::size_t(1));
    const core::NcuKernel &k = r.kernels.front();
    QCOMPARE(k.short_name, std::string("triad"));
    QCOMPARE(k.id, std::string("0")); // nvprof numbers no kernels: their order
    QCOMPARE(k.gpu.name, std::string("Tesla K20c"));
    QCOMPARE(k.device, std::string("0"));
    QCOMPARE(r.device.name, std::string("Tesla K20c"));
    QCOMPARE(k.line, 6);
    QCOMPARE(*k.warps_per_sm, 0.8625 * 64); // Kepler: 64 warp slots per SM
    QCOMPARE(*k.instructions, 1048576.0);
    QCOMPARE(*k.sectors_ld, 524288.0);
    QCOMPARE(*k.requests_ld, 65536.0); // transactions / transactions per request
    QCOMPARE(*k.requests_st, 32768.0);
    QCOMPARE(*k.dram_gbs, 121.5 + 0.6); // the Avg column, MB/s as GB/s
    QCOMPARE(*k.duration_ns, 5000.0);   // the mean of the trace's two launches (4 and 6 us); the copy left out
    QCOMPARE(k.grid_size, std::string("(4096, 1, 1)"));
    QCOMPARE(k.block_size, std::string("(256, 1, 1)"));
    QCOMPARE(*k.registers_per_thread, 16.0);
    QCOMPARE(*k.intensity(), 1048576.0 / (65536 + 32768));
    QCOMPARE(std::string(core::ncuFormName(r.form)), std::string("nvprof-metrics"));
}

void TestNvprof::metricsAlone()
{
    const core::NcuReport r = core::parseNcuCsv(kMetrics, "m.csv");
    QVERIFY(!r.kernels.front().duration_ns);
    QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string &w) {
        return w.find("no GPU trace with the metrics") != std::string::npos;
    }));
}

void TestNvprof::traceAlone()
{
    const core::NcuReport r = core::parseNcuCsv(kTrace, "t.csv");
    QCOMPARE(r.form, core::NcuForm::NvprofTrace);
    QCOMPARE(r.kernels.size(), std::size_t(1));
    QCOMPARE(*r.kernels.front().duration_ns, 5000.0);
    QCOMPARE(r.kernels.front().line, 7);
    QCOMPARE(r.device.name, std::string("Tesla K20c"));
}

void TestNvprof::importedAsKernelPoints()
{
    QTemporaryDir dir;
    const std::string path = write(dir, "k20c.csv", kMetrics + kTrace);
    QCOMPARE(core::detectTraceFormat(path), core::TraceFormat::NcuCsv);
    const core::TraceFile f = core::readTraceFile(path);
    QCOMPARE(f.traces.front().kind, core::TraceKind::KernelPoints);
    QCOMPARE(f.traces.front().x.front(), 0.8625 * 64);
    QCOMPARE(f.device->name, std::string("Tesla K20c"));
}

void TestNvprof::badValueNamed()
{
    std::string bad = kMetrics;
    bad.replace(bad.find("121.50GB/s"), 10, "fast");
    const QString error = test::inputErrorOf([&] { core::parseNcuCsv(bad, "b.csv"); });
    QVERIFY2(error.startsWith("b.csv:12:") && error.endsWith("metric 'dram_read_throughput': 'fast' is not a number"),
             qPrintable(error));
}

void TestNvprof::missingMetricNamedForNvprof()
{
    // The metrics without achieved_occupancy and gld_transactions, and no GPU trace: the kernel is skipped
    // naming what nvprof must add (and what ncu adds on newer GPUs), as an ncu export's names ncu's metrics.
    std::string metrics;
    std::size_t from = 0;
    for (std::size_t to; (to = kMetrics.find('\n', from)) != std::string::npos; from = to + 1) {
        const std::string line = kMetrics.substr(from, to + 1 - from);
        if (line.find("\"achieved_occupancy\"") == std::string::npos && line.find("\"gld_transactions\"") == std::string::npos)
            metrics += line;
    }
    const core::HardwareProfile &k20 = *core::findBundledProfile("h100-sxm");
    const core::KernelTable t = core::compareKernels(core::parseNcuCsv(metrics, "m.csv"), k20.params, k20);
    QCOMPARE(t.rows.size(), std::size_t(1));
    // Without gld_transactions there are no requests either (transactions / gld_transactions_per_request).
    const std::string adding = "nvprof --metrics achieved_occupancy,gld_transactions_per_request,gld_transactions and "
                               "the duration of nvprof --print-gpu-trace (its output after the metrics'); on Volta "
                               "and newer, ncu --metrics sm__warps_active.avg.per_cycle_active,"
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum";
    QCOMPARE(QString::fromStdString(t.rows.front().ncu_metrics), QString::fromStdString(adding));
    QVERIFY2(t.rows.front().skipped.find("(add them with " + adding + ")") != std::string::npos,
             t.rows.front().skipped.c_str());
    QVERIFY(std::any_of(t.warnings.begin(), t.warnings.end(), [&](const std::string &w) {
        return w.find("profile again adding " + adding) != std::string::npos;
    }));
    // An ncu export's missing metrics stay ncu's.
    core::KernelComparer ncu(k20.params);
    core::NcuKernel bare = core::parseNcuCsv(metrics, "m.csv").kernels.front();
    QCOMPARE(QString::fromStdString(ncu.compare(bare).ncu_metrics),
             QStringLiteral("ncu --metrics sm__warps_active.avg.per_cycle_active,"
                            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
                            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum"));
}

QTEST_APPLESS_MAIN(TestNvprof)
#include "tst_nvprof.moc"
