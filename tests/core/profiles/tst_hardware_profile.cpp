// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/profiles/hardware_profile.h"
#include "core/profiles/profile_identity.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/xmodel.h"

#include <QDir>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <set>

using namespace crossroof;

namespace {

/// A valid profile's text; tests break one thing at a time.
const char *kValid = R"({
  "format_version": 1, "id": "test-gpu", "name": "Test GPU", "kind": "gpu", "compute_capability": "8.0",
  "parameters": {"sm_count": 10, "clock_ghz": 1.5, "warp_size": 32, "max_warps": 64, "request_bytes": 128,
                 "R": 500, "L": 400, "M": 2, "S_s": 64, "L_s": 30, "Z": 8, "cache": "none"},
  "sources": [{"fields": ["sm_count", "clock_ghz", "warp_size", "max_warps", "request_bytes", "R", "L", "M",
                          "S_s", "L_s"], "text": "made up for a test"}]
})";

QString replaced(const QString &from, const QString &to)
{
    QString text = QString::fromUtf8(kValid);
    Q_ASSERT(text.contains(from));
    return text.replace(from, to);
}

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestHardwareProfile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void validProfileParses();
    void differencesNameWhatAnEmbeddedProfileChanges();
    void badProfilesNameTheField_data();
    void badProfilesNameTheField();
    void fileErrorsNameTheFile();
    void bundledProfilesAreValid();
    void tableTwoSaturationPoints_data();
    void tableTwoSaturationPoints();
    void measuredGpusCiteTheirData();
    void profileTextRoundTrips();
    void resolveByIdOrPath();
    void gpuProfilesHaveASourcedIssueLatency();
    void modernProfilesAreBundled();
    void userProfilesLoadFromADirectory();
    void userProfileDirFollowsXdg();
    void userFolderReadForUserIdsOnly();
};

void TestHardwareProfile::validProfileParses()
{
    const auto p = core::parseProfile(kValid, "test.json");
    QCOMPARE(QString::fromStdString(p.id), QStringLiteral("test-gpu"));
    QCOMPARE(p.params.R, 500.0);
    QCOMPARE(p.params.Z, 8.0);
    QCOMPARE(p.params.n, 64.0); // n defaults to max_warps
    QCOMPARE(p.params.cache, core::CacheMode::None);
    QCOMPARE(p.sources.size(), std::size_t(1));
}

void TestHardwareProfile::badProfilesNameTheField_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing field") << replaced(QStringLiteral("\"L\": 400, "), QString())
                                   << QStringLiteral("test.json: field 'parameters.L': is missing");
    QTest::newRow("wrong type") << replaced(QStringLiteral("\"L\": 400"), QStringLiteral("\"L\": \"slow\""))
                                << QStringLiteral("field 'parameters.L': must be a number");
    QTest::newRow("negative latency") << replaced(QStringLiteral("\"L\": 400"), QStringLiteral("\"L\": -5"))
                                      << QStringLiteral("field 'parameters.L': must be between");
    QTest::newRow("invalid JSON") << replaced(QStringLiteral("\"R\": 500,"), QStringLiteral("\"R\": 500,,"))
                                  << QStringLiteral("test.json: line 4, column 27: invalid JSON");
    QTest::newRow("empty file") << QString() << QStringLiteral("test.json: line 1, column 1: invalid JSON");
    QTest::newRow("not an object") << QStringLiteral("[1, 2]") << QStringLiteral("must be a JSON object");
    QTest::newRow("unknown parameter") << replaced(QStringLiteral("\"R\": 500"), QStringLiteral("\"RR\": 500"))
                                       << QStringLiteral("field 'parameters.RR': is not a known parameter");
    QTest::newRow("misspelt field") << replaced(QStringLiteral("\"kind\""), QStringLiteral("\"knd\""))
                                    << QStringLiteral("field 'knd'");
    QTest::newRow("bad kind") << replaced(QStringLiteral("\"gpu\""), QStringLiteral("\"fpga\""))
                              << QStringLiteral("field 'kind': must be gpu or cpu");
    QTest::newRow("bad cache") << replaced(QStringLiteral("\"none\""), QStringLiteral("\"lru\""))
                               << QStringLiteral("field 'parameters.cache'");
    QTest::newRow("fractional SMs") << replaced(QStringLiteral("\"sm_count\": 10"), QStringLiteral("\"sm_count\": 10.5"))
                                    << QStringLiteral("field 'parameters.sm_count': must be a whole number");
    QTest::newRow("hit rate above 1") << replaced(QStringLiteral("\"Z\": 8"), QStringLiteral("\"h\": 1.5"))
                                      << QStringLiteral("field 'parameters.h'");
    QTest::newRow("no sources") << replaced(QStringLiteral("\"sources\""), QStringLiteral("\"notes\""))
                                << QStringLiteral("field 'sources': is missing");
    QTest::newRow("unsourced number") << replaced(QStringLiteral("\"S_s\", \"L_s\"]"), QStringLiteral("\"S_s\"]"))
                                      << QStringLiteral("no source names the machine parameter 'L_s'");
    QTest::newRow("newer format") << replaced(QStringLiteral("\"format_version\": 1"), QStringLiteral("\"format_version\": 2"))
                                  << QStringLiteral("field 'format_version': must be 1");
    QTest::newRow("bad id") << replaced(QStringLiteral("test-gpu"), QStringLiteral("Test GPU!"))
                            << QStringLiteral("field 'id'");
}

void TestHardwareProfile::badProfilesNameTheField()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QByteArray utf8 = text.toUtf8();
    try {
        core::parseProfile(std::string_view(utf8.constData(), std::size_t(utf8.size())), "test.json");
        QFAIL("the profile must be rejected");
    } catch (const core::InputError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith(QLatin1String("test.json: ")), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
}

void TestHardwareProfile::fileErrorsNameTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("none.json"));
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::loadProfileFile(missing.toStdString()));

    const QString huge = dir.filePath(QStringLiteral("huge.json"));
    QFile f(huge);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(2 << 20, ' '));
    f.close();
    try {
        core::loadProfileFile(huge.toStdString());
        QFAIL("a 2 MiB profile must be refused");
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(huge));
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("over the 1 MiB limit for profile")));
    }

    const QString binary = dir.filePath(QStringLiteral("junk.json"));
    QFile b(binary);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(QByteArray("\x00\xff\xfe garbage \x01", 13));
    b.close();
    try {
        core::loadProfileFile(binary.toStdString());
        QFAIL("binary junk must be rejected");
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).startsWith(binary + QLatin1String(": line 1")));
    }
}

void TestHardwareProfile::bundledProfilesAreValid()
{
    const auto &all = core::bundledProfiles();
    QVERIFY(all.size() >= 10);
    std::set<std::string> ids;
    for (const auto &p : all) {
        QVERIFY2(ids.insert(p.id).second, p.id.c_str());
        QVERIFY(!p.sources.empty());
        const core::XModel m(p.params);
        const auto r = m.solve();
        QVERIFY(!r.equilibria.empty());
        QVERIFY(std::isfinite(r.operatingPoint().ms_gbs));
    }
    QVERIFY(core::findBundledProfile(core::defaultProfileId()) != nullptr);
}

void TestHardwareProfile::tableTwoSaturationPoints_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("warps");
    QTest::addColumn<double>("gbs");
    QTest::addColumn<double>("requestBytes");
    // x-model.txt Table II: delta(SP) and delta(DP) as warps/GB/s.
    QTest::newRow("GTX 570 SP") << "gtx570-sp" << 48.0 << 147.0 << 128.0;
    QTest::newRow("GTX 570 DP") << "gtx570-dp" << 24.0 << 152.0 << 256.0;
    QTest::newRow("Tesla K40 SP") << "k40-sp" << 64.0 << 180.0 << 128.0;
    QTest::newRow("Tesla K40 DP") << "k40-dp" << 48.0 << 200.0 << 256.0;
    QTest::newRow("GTX 750 Ti SP") << "gtx750ti-sp" << 56.0 << 82.0 << 128.0;
    QTest::newRow("GTX 750 Ti DP") << "gtx750ti-dp" << 28.0 << 83.0 << 256.0;
}

void TestHardwareProfile::tableTwoSaturationPoints()
{
    QFETCH(QString, id);
    QFETCH(double, warps);
    QFETCH(double, gbs);
    QFETCH(double, requestBytes);
    const auto *p = core::findBundledProfile(id.toStdString());
    QVERIFY(p);
    QCOMPARE(p->params.R, gbs);
    QCOMPARE(p->params.request_bytes, requestBytes);
    core::XModelParams params = p->params;
    params.cache = core::CacheMode::None;
    const auto lm = core::XModel(params).landmarks();
    QVERIFY2(std::abs(lm.delta - warps) <= 1.0, qPrintable(QString::number(lm.delta)));
    // The no-cache supply reaches R exactly at delta.
    const core::XModel m(params);
    QVERIFY(qFuzzyCompare(m.toGbs(m.msSupply(lm.delta)), gbs));
    QVERIFY(m.toGbs(m.msSupply(lm.delta * 0.9)) < gbs * 0.95);
}

void TestHardwareProfile::measuredGpusCiteTheirData()
{
    for (const char *id : {"v100", "a100-40", "h100-pcie", "gtx480-sp"}) {
        const auto *p = core::findBundledProfile(id);
        QVERIFY2(p, id);
        bool cites = false;
        for (const auto &s : p->sources)
            cites = cites || !s.text.empty();
        QVERIFY(cites);
    }
    for (const char *id : {"v100", "a100-40", "h100-pcie"}) {
        bool gpuBenches = false;
        for (const auto &s : core::findBundledProfile(id)->sources)
            gpuBenches = gpuBenches || s.text.find("gpu-benches") != std::string::npos;
        QVERIFY2(gpuBenches, id);
    }
}

void TestHardwareProfile::profileTextRoundTrips()
{
    for (const auto &p : core::bundledProfiles()) {
        const auto back = core::parseProfile(core::profileToText(p), "again.json");
        QCOMPARE(back.id, p.id);
        QVERIFY(back.params == p.params);
        QCOMPARE(back.sources.size(), p.sources.size());
        QCOMPARE(back.compute_capability, p.compute_capability);
    }
}

void TestHardwareProfile::resolveByIdOrPath()
{
    QCOMPARE(QString::fromStdString(core::resolveProfile("v100").id), QStringLiteral("v100"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kValid);
    f.close();
    QCOMPARE(QString::fromStdString(core::resolveProfile(path.toStdString()).id), QStringLiteral("test-gpu"));
    try {
        core::resolveProfile("no-such-gpu");
        QFAIL("unknown id");
    } catch (const core::InputError &e) {
        QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("unknown profile 'no-such-gpu'")));
    }
}

void TestHardwareProfile::gpuProfilesHaveASourcedIssueLatency()
{
    // Every bundled GPU profile gives its dependent-issue latency L_c in the file and says where it comes
    // from; a CPU profile keeps the paper's model (L_c = 1). The X-model paper's Table II profiles and the
    // GTX 480 run the paper's model (L_c = 1, no bypassing); each has an "-lc" companion with the measured
    // latency, otherwise the same file.
    const QStringList paperProfiles{"gtx570-sp", "gtx570-dp", "gtx480-sp",  "k40-sp",
                                    "k40-dp",    "gtx750ti-sp", "gtx750ti-dp"};
    for (const auto &file : std::filesystem::directory_iterator(CROSSROOF_SOURCE_DIR "/hardware_profiles")) {
        const auto prof = core::loadProfileFile(file.path());
        const auto namesLc = [](const core::ProfileSource &s) {
            return std::find(s.fields.begin(), s.fields.end(), "L_c") != s.fields.end() && !s.text.empty();
        };
        const bool sourced = std::any_of(prof.sources.begin(), prof.sources.end(), namesLc);
        if (prof.kind == "cpu") {
            QCOMPARE(prof.params.L_c, 1.0);
            continue;
        }
        QVERIFY2(sourced, prof.id.c_str());
        QCOMPARE(prof.params.bypass, 0.0);
        if (paperProfiles.contains(QString::fromStdString(prof.id))) {
            QCOMPARE(prof.params.L_c, 1.0);
            const core::HardwareProfile *companion = core::findBundledProfile(prof.id + "-lc");
            QVERIFY2(companion, prof.id.c_str());
            core::XModelParams same = companion->params;
            same.L_c = 1;
            QVERIFY2(same == prof.params, prof.id.c_str());
            QVERIFY(companion->name.find("L_c") != std::string::npos);
            continue;
        }
        // Published dependent-issue latencies run from about 4 cycles (Volta and later) to 22 (Fermi); a
        // profile calibrated from measurements may land a little below 4 (the H100 SXM family fits 3.8).
        QVERIFY2(prof.params.L_c >= 3 && prof.params.L_c <= 22, prof.id.c_str());
    }
    QVERIFY(std::abs(core::findBundledProfile("h100-sxm")->params.L_c - 3.8) < 0.1);
    QCOMPARE(core::findBundledProfile("gtx570-sp-lc")->params.L_c, 20.0);
    QCOMPARE(core::findBundledProfile("gtx480-sp-lc")->params.L_c, 20.0);
    QCOMPARE(core::findBundledProfile("k40-sp-lc")->params.L_c, 9.0);
    QCOMPARE(core::findBundledProfile("k40-dp-lc")->params.L_c, 9.0);
    QCOMPARE(core::findBundledProfile("gtx750ti-sp-lc")->params.L_c, 6.0);
    QCOMPARE(core::findBundledProfile("v100")->params.L_c, 4.0);
}

void TestHardwareProfile::modernProfilesAreBundled()
{
    // id, compute capability, SMs, warp slots (cc_limits.csv), datasheet bandwidth in GB/s.
    const struct
    {
        const char *id;
        const char *cc;
        double sms;
        double warps;
        double gbs;
        double lc; ///< dependent-issue latency: measured on the H200, the published estimate elsewhere
    } expected[] = {{"h200", "9.0", 132, 64, 4800, 4.1},  {"l40s", "8.9", 142, 48, 864, 4},
                    {"rtx4090", "8.9", 128, 48, 1008, 4}, {"b200", "10.0", 148, 64, 8000, 4},
                    {"rtx5090", "12.0", 170, 48, 1792, 4}};
    for (const auto &e : expected) {
        const core::HardwareProfile *p = core::findBundledProfile(e.id);
        QVERIFY2(p, e.id);
        QCOMPARE(p->compute_capability, std::string(e.cc));
        QCOMPARE(p->params.sm_count, e.sms);
        QCOMPARE(p->params.max_warps, e.warps);
        QCOMPARE(p->params.R, e.gbs);
        QCOMPARE(p->params.L_c, e.lc);
        // Every latency has a source: an estimate says so, a measurement names its file.
        for (const char *key : {"L", "L_s"}) {
            const auto names = [key](const core::ProfileSource &s) {
                return std::find(s.fields.begin(), s.fields.end(), key) != s.fields.end();
            };
            const auto it = std::find_if(p->sources.begin(), p->sources.end(), names);
            QVERIFY(it != p->sources.end());
            QVERIFY2(it->text.starts_with("Estimate")
                             || (e.lc != 4 && it->text.starts_with("Measured on")
                                 && it->text.find("tests/data/h200_probe/latency.csv") != std::string::npos),
                     e.id);
        }
        // The default workload is memory-bound: the operating point lies below the ridge M/R_req.
        QVERIFY2(p->params.Z < p->params.M / p->params.requestRate(), e.id);
    }
}

void TestHardwareProfile::userProfilesLoadFromADirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray good = QByteArray(kValid).replace("test-gpu", "my-gpu");
    writeFile(dir.filePath(QStringLiteral("a-mine.json")), good);
    writeFile(dir.filePath(QStringLiteral("b-broken.json")), "{ \"format_version\": 1,");
    const QByteArray bundledId = QByteArray(kValid).replace("test-gpu", "v100");
    writeFile(dir.filePath(QStringLiteral("c-bundled-id.json")), bundledId);
    writeFile(dir.filePath(QStringLiteral("d-same-id.json")), good);
    writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a profile");

    std::vector<std::string> problems;
    const auto user = core::loadUserProfiles(dir.path().toStdString(), problems);
    QCOMPARE(user.size(), std::size_t(1));
    QCOMPARE(user[0].id, std::string("my-gpu"));
    QVERIFY(user[0].user);
    QCOMPARE(QString::fromStdString(user[0].origin), dir.filePath(QStringLiteral("a-mine.json")));
    // Each skipped file once, named; the .txt file is not a profile.
    QCOMPARE(problems.size(), std::size_t(3));
    const auto says = [&problems](std::size_t i, const char *what) {
        return QString::fromStdString(problems[i]).contains(QLatin1String(what));
    };
    QVERIFY2(says(0, "b-broken.json") && says(0, "invalid JSON"), problems[0].c_str());
    QVERIFY2(says(1, "c-bundled-id.json") && says(1, "bundled"), problems[1].c_str());
    QVERIFY2(says(2, "d-same-id.json") && says(2, "already taken"), problems[2].c_str());
    QVERIFY(!core::findBundledProfile("v100")->user);

    // --profile ID finds a user profile after the bundled ones; an unknown id names the user ids.
    QCOMPARE(core::resolveProfile("my-gpu", user).params.R, 500.0);
    QCOMPARE(core::resolveProfile("v100", user).origin, std::string("bundled"));
    try {
        core::resolveProfile("none-such", user);
        QFAIL("an unknown id must be refused");
    } catch (const core::InputError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("user: my-gpu")), e.what());
    }

    // A directory that does not exist has no profiles and is no problem.
    problems.clear();
    QVERIFY(core::loadUserProfiles(dir.filePath(QStringLiteral("missing")).toStdString(), problems).empty());
    QVERIFY(problems.empty());
}

void TestHardwareProfile::userProfileDirFollowsXdg()
{
    const QByteArray xdg = qgetenv("XDG_DATA_HOME");
    const QByteArray home = qgetenv("HOME");
    qputenv("XDG_DATA_HOME", "/data/here");
    QCOMPARE(core::userProfileDir(), std::filesystem::path("/data/here/Crossroof/profiles"));
    qputenv("XDG_DATA_HOME", "relative/is/ignored");
    qputenv("HOME", "/home/someone");
    QCOMPARE(core::userProfileDir(), std::filesystem::path("/home/someone/.local/share/Crossroof/profiles"));
    qunsetenv("XDG_DATA_HOME");
    QCOMPARE(core::userProfileDir(), std::filesystem::path("/home/someone/.local/share/Crossroof/profiles"));
    xdg.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", xdg);
    qputenv("HOME", home);
}

void TestHardwareProfile::userFolderReadForUserIdsOnly()
{
    // A broken file in the user's folder is named where an id was looked for there, and nowhere else: a path
    // or a bundled id does not read the folder (its files could be many, large or broken), so a bad profile
    // file given by path is refused for its own problem only.
    QTemporaryDir xdgDir;
    QVERIFY(QDir(xdgDir.path()).mkpath(QStringLiteral("Crossroof/profiles")));
    QFile broken(xdgDir.filePath(QStringLiteral("Crossroof/profiles/broken.json")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format_version\": 1,");
    broken.close();
    QFile bad(xdgDir.filePath(QStringLiteral("bad.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("[]");
    bad.close();
    const QByteArray xdg = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", QFile::encodeName(xdgDir.path()));
    const auto messageOf = [](const std::string &idOrPath) {
        try {
            core::resolveProfile(idOrPath);
        } catch (const core::InputError &e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    };
    QCOMPARE(QString::fromStdString(core::resolveProfile("v100").id), QStringLiteral("v100"));
    const QString path = messageOf(bad.fileName().toStdString());
    const QString unknown = messageOf("no-such-gpu");
    xdg.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", xdg);
    QVERIFY2(path.contains(QLatin1String("bad.json: a profile must be a JSON object")), qPrintable(path));
    QVERIFY2(!path.contains(QLatin1String("broken.json")), qPrintable(path));
    QVERIFY2(unknown.contains(QLatin1String("unknown profile 'no-such-gpu'")), qPrintable(unknown));
    QVERIFY2(unknown.contains(QLatin1String("broken.json")), qPrintable(unknown));
}

void TestHardwareProfile::differencesNameWhatAnEmbeddedProfileChanges()
{
    // The h100-sxm an older Crossroof bundled (R 2022, no R_dram, L 766.7, M 2.963), as a session embeds it.
    const core::HardwareProfile &library = *core::findBundledProfile("h100-sxm");
    core::HardwareProfile older = library;
    older.origin = "session /data/study.crossroof";
    older.description = "An older description";
    older.sources.clear();
    QVERIFY(core::profileDifferences(library, older).empty()); // where it came from and its texts do not count
    older.params.R = 2022;
    older.params.R_dram = 0;
    older.params.L = 766.7;
    older.params.M = 2.963;
    const std::vector<std::string> keys = core::profileDifferences(library, older);
    QCOMPARE(keys, (std::vector<std::string>{"R", "L", "M", "R_dram"}));
    QCOMPARE(core::embeddedProfileLabel(older, "study.crossroof", keys),
             std::string("H100 SXM 80GB (Hopper), from study.crossroof: R, L, M, R_dram differ"));
    QCOMPARE(core::embeddedProfileLabel(older, "study.crossroof", {"L_c"}),
             std::string("H100 SXM 80GB (Hopper), from study.crossroof: L_c differs"));
    // What the machine is, besides its numbers: compute capability, the cache mode, a CPU's topology.
    older = library;
    older.compute_capability = "8.0";
    older.params.cache = core::CacheMode::Locality;
    QCOMPARE(core::profileDifferences(library, older), (std::vector<std::string>{"cache", "compute_capability"}));
    const core::HardwareProfile &cpu = *core::findBundledProfile("clovertown-x5365");
    core::HardwareProfile otherCpu = cpu;
    otherCpu.topology->caches.pop_back();
    QCOMPARE(core::profileDifferences(cpu, otherCpu), (std::vector<std::string>{"topology"}));
}

QTEST_APPLESS_MAIN(TestHardwareProfile)
#include "tst_hardware_profile.moc"
