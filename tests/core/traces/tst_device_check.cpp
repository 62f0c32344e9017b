// SPDX-License-Identifier: GPL-3.0-or-later
// The device check every import makes (core::checkDevice()): real Nsight Compute exports of an H100 SXM and
// an H200, crossroof-probe's output on the H200, and gpu-benches' stream files, each against its own profile
// and another's.
#include "core/calibration/probe_analysis.h"
#include "core/profiles/profile_library.h"
#include "core/traces/device_check.h"
#include "core/traces/ncu_csv.h"
#include "core/traces/trace_import.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace crossroof;

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/";
const std::string kShared = std::string(CROSSROOF_SHARED_DIR) + "/data/";
const std::string kH200 = kData + "h200_probe/";

const core::HardwareProfile &bundled(const char *id)
{
    const core::HardwareProfile *p = core::findBundledProfile(id);
    Q_ASSERT(p);
    return *p;
}

core::DeviceCheck check(const core::DeviceFacts &facts, const char *profile)
{
    return core::checkDevice(facts, bundled(profile), core::bundledProfiles());
}

std::vector<std::string> ids(const std::vector<const core::HardwareProfile *> &profiles)
{
    std::vector<std::string> out;
    for (const core::HardwareProfile *p : profiles)
        out.push_back(p->id);
    return out;
}

bool contains(const std::optional<std::string> &text, const std::string &part)
{
    return text && text->find(part) != std::string::npos;
}

} // namespace

class TestDeviceCheck : public QObject
{
    Q_OBJECT

private slots:
    void namesGiveTheGpuModel();
    void deviceNamesNameBundledProfiles();
    void h200ExportUnderTheH100IsAnotherGpu();
    void h100ExportsFitTheirProfileWithTheClockStated();
    void probeOutputIsCheckedTheSameWay();
    void streamFilesNamedForAnotherGpuAreFlagged();
    void cpuProfilesAndSilentFilesAreNotChecked();
};

void TestDeviceCheck::namesGiveTheGpuModel()
{
    QCOMPARE(core::gpuModel("NVIDIA H200"), std::string("h200"));
    QCOMPARE(core::gpuModel("NVIDIA H100 80GB HBM3"), std::string("h100"));
    QCOMPARE(core::gpuModel("H100 SXM 80GB (Hopper)"), std::string("h100"));
    QCOMPARE(core::gpuModel("h100_pcie"), std::string("h100"));
    QCOMPARE(core::gpuModel("Tesla V100-SXM2-16GB"), std::string("v100"));
    QCOMPARE(core::gpuModel("NVIDIA GeForce RTX 4090"), std::string("4090"));
    QCOMPARE(core::gpuModel("GeForce GTX 570 (Fermi), single precision, dependent-issue latency L_c = 20"),
             std::string("570"));
    QCOMPARE(core::gpuModel("Device of run.csv"), std::string());
    QCOMPARE(core::gpuModel(""), std::string());
    // Every bundled GPU profile has a model, the same for the variants of one device.
    for (const core::HardwareProfile &p : core::bundledProfiles()) {
        if (p.kind == "gpu")
            QVERIFY2(!core::gpuModel(p.name).empty(), p.name.c_str());
    }
    QCOMPARE(core::gpuModel(bundled("gtx570-dp-lc").name), core::gpuModel(bundled("gtx570-sp").name));
}

void TestDeviceCheck::deviceNamesNameBundledProfiles()
{
    const auto &all = core::bundledProfiles();
    QCOMPARE(core::profileNamedBy("h100_pcie", all)->id, std::string("h100-pcie"));
    QCOMPARE(core::profileNamedBy("a100_40", all)->id, std::string("a100-40"));
    QCOMPARE(core::profileNamedBy("V100", all)->id, std::string("v100"));
    QVERIFY(!core::profileNamedBy("NVIDIA H100 80GB HBM3", all)); // ncu's names match by model and facts
    QVERIFY(!core::profileNamedBy("gpu_stream_v100", all));
    QVERIFY(!core::profileNamedBy("", all));
}

void TestDeviceCheck::h200ExportUnderTheH100IsAnotherGpu()
{
    // Same SMs and CC as the H100 SXM: the name and the bandwidth tell them apart, and only the H200 is
    // offered.
    {
        const core::DeviceFacts facts = core::deviceFacts(core::readNcuCsv(kH200 + "ncu_raw.csv"));
        const core::DeviceCheck wrong = check(facts, "h100-sxm");
        QVERIFY(wrong.mismatch);
        QVERIFY2(
                wrong.mismatch->starts_with("file: NVIDIA H200; profile: H100 SXM 80GB (Hopper): another GPU "
                                            "(H200, not H100)"),
                wrong.mismatch->c_str());
        QCOMPARE(ids(wrong.matches), std::vector<std::string> {"h200"});
        const core::DeviceCheck right = check(facts, "h200");
        QVERIFY2(!right.mismatch, right.mismatch ? right.mismatch->c_str() : "");
        QVERIFY(right.matches.empty());
    }
    // The details page names no device and gives no bus width: its 132 SMs and CC 9.0 fit both, and these
    // kernels ran at the profile's 1.98 GHz, so nothing tells it from an H100's (docs/NCU.md says to export
    // the raw page).
    const core::DeviceFacts details = core::deviceFacts(core::readNcuCsv(kH200 + "ncu_details.csv"));
    QVERIFY(details.name.empty() && !details.bandwidth_gbs);
    QCOMPARE(*details.sm_count, 132.0);
    QVERIFY(!check(details, "h100-sxm").mismatch);
    QVERIFY(!check(details, "h100-sxm").clock_gap);
    // The raw page gives the memory clock and bus width: 2 x 3201 MHz x 6016 bit / 8 = 4814 GB/s, which the
    // H100's 2964 GB/s is not. These kernels ran at 1.98 GHz (ncu without clock control), the profile's clock:
    // no clock gap.
    const core::DeviceFacts raw = core::deviceFacts(core::readNcuCsv(kH200 + "ncu_raw.csv"));
    QCOMPARE(*raw.sm_count, 132.0);
    QCOMPARE(raw.cc, std::string("9.0"));
    QVERIFY(std::abs(*raw.bandwidth_gbs - 2 * 3201000e3 * 6016 / 8 / 1e9) < 1);
    QVERIFY(std::abs(*raw.clock_ghz - 1.98) < 0.01);
    const core::DeviceCheck wrong = check(raw, "h100-sxm");
    QCOMPARE(*wrong.mismatch, std::string("file: NVIDIA H200; profile: H100 SXM 80GB (Hopper): another GPU (H200, "
                                          "not H100); peak DRAM bandwidth 4814 GB/s, the profile's 2964 GB/s"));
    QCOMPARE(wrong.messages(), std::vector<std::string>{*wrong.mismatch});
}

void TestDeviceCheck::h100ExportsFitTheirProfileWithTheClockStated()
{
    const std::string raw = kShared + "h100-sxm/ncu_raw.csv";
    const std::string torch = kShared + "h100-sxm/torch/torch_raw.csv";
    if (!QFile::exists(QString::fromStdString(raw)) || !QFile::exists(QString::fromStdString(torch)))
        QSKIP("../shared/data/h100-sxm is not here");
    for (const std::string &file : {raw, torch}) {
        const core::DeviceFacts facts = core::deviceFacts(core::readNcuCsv(file));
        QCOMPARE(facts.name, std::string("NVIDIA H100 80GB HBM3"));
        // Its own profile: no mismatch (3352 GB/s theoretical against 2964 sustained fits), but ncu locked
        // the SM clock near 1.6 GHz: said, with both clocks.
        const core::DeviceCheck own = check(facts, "h100-sxm");
        QVERIFY2(!own.mismatch, own.mismatch ? own.mismatch->c_str() : "");
        QVERIFY(*facts.clock_ghz > 1.55 && *facts.clock_ghz < 1.65);
        QVERIFY2(contains(own.clock_gap, "SM clock: file 1.") && contains(own.clock_gap, "profile 1.98 GHz (")
                         && contains(own.clock_gap, " % lower)"),
                 own.clock_gap ? own.clock_gap->c_str() : "no clock gap");
        // Under the H200's: another GPU, and only the H100 SXM is offered (the PCIe's 114 SMs do not fit).
        const core::DeviceCheck h200 = check(facts, "h200");
        QVERIFY(h200.mismatch);
        QVERIFY2(h200.mismatch->starts_with(
                         "file: NVIDIA H100 80GB HBM3; profile: H200 SXM 141GB (Hopper): another "
                         "GPU (H100, not H200); peak DRAM bandwidth 3352 GB/s, the profile's "
                         "4800 GB/s"),
                 h200.mismatch->c_str());
        QCOMPARE(ids(h200.matches), std::vector<std::string> {"h100-sxm"});
        // Under the PCIe's: the same model, but 132 SMs, not 114.
        const core::DeviceCheck pcie = check(facts, "h100-pcie");
        QVERIFY2(contains(pcie.mismatch, "profile: H100 PCIe (Hopper): 132 SMs, not 114"),
                 pcie.mismatch->c_str());
        QCOMPARE(ids(pcie.matches), std::vector<std::string> {"h100-sxm"});
    }
}

void TestDeviceCheck::probeOutputIsCheckedTheSameWay()
{
    const core::ProbeMeasurements probe = core::readProbe(kH200);
    const core::DeviceFacts facts = core::deviceFacts(probe);
    QCOMPARE(facts.name, std::string("NVIDIA H200"));
    QCOMPARE(*facts.clock_ghz, 1.98);
    const core::DeviceCheck wrong = check(facts, "h100-sxm");
    QVERIFY2(contains(wrong.mismatch,
                      "file: NVIDIA H200; profile: H100 SXM 80GB (Hopper): another GPU (H200, not "
                      "H100); peak DRAM bandwidth 4814 GB/s, the profile's 2964 GB/s"),
             wrong.mismatch ? wrong.mismatch->c_str() : "no mismatch");
    QVERIFY(!wrong.clock_gap); // the device's clock is the profile's
    QCOMPARE(ids(wrong.matches), std::vector<std::string> {"h200"});
    QVERIFY(!check(facts, "h200").mismatch);
    // A clock 10 % off or less is no gap; more is, with both clocks.
    core::DeviceFacts slower = facts;
    slower.clock_ghz = 1.98 * 0.91;
    QVERIFY(!check(slower, "h200").clock_gap);
    slower.clock_ghz = 1.5;
    QCOMPARE(*check(slower, "h200").clock_gap,
             std::string("SM clock: file 1.50 GHz, profile 1.98 GHz (24 % lower)"));
}

void TestDeviceCheck::streamFilesNamedForAnotherGpuAreFlagged()
{
    const QString dir = QString::fromStdString(kShared + "gpu-benches/stream");
    const QStringList files = QDir(dir).entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        QSKIP("../shared/data/gpu-benches/stream is not here");
    // a100_40.txt, a100_80.txt, h100_pcie.txt, v100.txt: each names its GPU by its file name.
    const std::map<QString, const char *> profileOf {{QStringLiteral("a100_40.txt"), "a100-40"},
                                                     {QStringLiteral("a100_80.txt"), "a100-80"},
                                                     {QStringLiteral("h100_pcie.txt"), "h100-pcie"},
                                                     {QStringLiteral("v100.txt"), "v100"}};
    for (const QString &file : files) {
        const auto own = profileOf.find(file);
        QVERIFY2(own != profileOf.end(), qPrintable(file));
        const core::TraceFile read = core::readTraceFile((dir + QLatin1Char('/') + file).toStdString());
        QVERIFY2(read.device, qPrintable(file));
        const core::DeviceFacts facts = core::deviceFacts(*read.device);
        const core::DeviceCheck right = check(facts, own->second);
        QVERIFY2(!right.mismatch, right.mismatch->c_str());
        // Under the H100 SXM's profile every one is flagged and offers its own profile alone.
        const core::DeviceCheck wrong = check(facts, "h100-sxm");
        QVERIFY2(wrong.mismatch, qPrintable(file));
        QVERIFY2(wrong.mismatch->starts_with("file: " + read.device->name
                                             + "; profile: H100 SXM 80GB (Hopper): "),
                 wrong.mismatch->c_str());
        QCOMPARE(ids(wrong.matches), std::vector<std::string> {own->second});
    }
    // The same model, told apart by the name: the PCIe's file under the SXM's profile, the A100 40GB's under
    // the 80GB's (same SMs and CC).
    const core::DeviceFacts pcie
            = core::deviceFacts(*core::readTraceFile(kData + "gpu_benches/h100_pcie.txt").device);
    QVERIFY2(contains(check(pcie, "h100-sxm").mismatch,
                      "file: h100_pcie; profile: H100 SXM 80GB (Hopper): named for profile 'h100-pcie', not "
                      "'h100-sxm'; 114 SMs, not 132"),
             check(pcie, "h100-sxm").mismatch->c_str());
    const core::DeviceFacts a100
            = core::deviceFacts(*core::readTraceFile(kData + "gpu_benches/a100_40.txt").device);
    QCOMPARE(*check(a100, "a100-80").mismatch,
             std::string("file: a100_40; profile: A100 80GB (Ampere): named for profile 'a100-40', not 'a100-80'"));
    // A file under another name names no profile; its 80 SMs still find the V100.
    const core::DeviceCheck renamed = check(
            core::deviceFacts(*core::readTraceFile(kData + "gpu_stream_v100.txt").device), "h100-sxm");
    QVERIFY(renamed.mismatch && !renamed.named);
    QCOMPARE(ids(renamed.matches), std::vector<std::string> {"v100"});
    // The tidy CSV shows the profile's GPU where it has it: no mismatch then.
    const std::string tidy = kShared + "gpu-benches/stream_vs_warps_per_sm.csv";
    if (QFile::exists(QString::fromStdString(tidy))) {
        const core::TraceFile csv = core::readTraceFile(tidy, "h100-pcie");
        QCOMPARE(csv.device->name, std::string("h100_pcie"));
        QVERIFY(!check(core::deviceFacts(*csv.device), "h100-pcie").mismatch);
    }
}

void TestDeviceCheck::cpuProfilesAndSilentFilesAreNotChecked()
{
    const core::DeviceFacts h200 = core::deviceFacts(core::readProbe(kH200));
    const core::DeviceCheck cpu = check(h200, "epyc-9654");
    QVERIFY(!cpu.mismatch && !cpu.clock_gap && cpu.matches.empty());
    // A file that states nothing: nothing to say.
    const core::DeviceCheck silent = check(core::DeviceFacts {}, "h100-sxm");
    QVERIFY(!silent.mismatch && !silent.clock_gap && silent.messages().empty());
    // perf stat and generic tables carry no device.
    QVERIFY(!core::readTraceFile(kData + "perf_stat_excerpt.tsv").device);
}

QTEST_APPLESS_MAIN(TestDeviceCheck)
#include "tst_device_check.moc"
