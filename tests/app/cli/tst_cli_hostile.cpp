// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input, third round (issue 51): what the environment, the files and the numbers may do to a command,
// and the one line it answers with.
#include "cli.h"
#include "cli_run.h"
#include "support/full_disk.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using crossroof::test::CliRun;
using crossroof::test::writeFile;

const std::string kSamples = CROSSROOF_SOURCE_DIR "/docs/samples/";

/// crossroof-cli ARGS in process; an exception that leaves it (an internal error: exit status 1 in main())
/// becomes status 1 with its text.
CliRun run(const std::vector<std::string> &args)
{
    try {
        return crossroof::test::run(args);
    } catch (const std::exception &e) {
        return {1, {}, std::string("internal error: ") + e.what()};
    }
}

/// A refusal: exit status 2, nothing on standard output, one line under 300 characters on standard error
/// that contains each of PARTS.
void expectRefusal(const CliRun &r, const std::vector<std::string> &parts)
{
    QVERIFY2(r.status == 2, (std::to_string(r.status) + ": " + r.err).c_str());
    QVERIFY2(r.out.empty(), r.out.substr(0, 300).c_str());
    QVERIFY2(r.err.size() < 300, r.err.substr(0, 1000).c_str());
    QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    QVERIFY2(r.err.back() == '\n', r.err.c_str());
    for (const std::string &part : parts)
        QVERIFY2(r.err.find(part) != std::string::npos, (r.err + " lacks: " + part).c_str());
}

} // namespace

class TestCliHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void overflowingFitIsRefusedNamingTheCell();
    void overflowingCpiErrorIsRefusedNamingTheCell();
    void outputThatIsAnInputIsRefused();
    void failedOutputKeepsItsReason();
    void derivedInfinityIsNamedByItsOption();
    void everyMessageIsOneShortLine();
    void refusalsNameTheirOptionOrFile();
    void optionsAreReadAlike();
    void manyStrategiesAreRefusedQuickly();
};

void TestCliHostile::overflowingFitIsRefusedNamingTheCell()
{
    // Times near a double's limit overflow the fit's sums of squares; a denormal T makes sqrt(B_r)/T infinite.
    // Either was "internal error" after half a report; now nothing is printed and the cell is named.
    QTemporaryDir dir;
    const std::string huge = writeFile(dir, "huge.csv", "requested_blocks,threads_per_core,time\n"
                                                        "1,1,1e300\n4,1,-2e300\n9,1,1e300\n");
    for (const char *format : {"text", "json", "csv"})
        expectRefusal(run({"tmm", "--fit", huge, "--format", format}), {"huge.csv:3:", "column 'time'", "-2e300"});
    const std::string denormal = writeFile(dir, "denormal.csv", "requested_blocks,threads_per_core,time\n"
                                                                "1,1,5\n4,4.9e-320,6\n9,1,7\n");
    expectRefusal(run({"tmm", "--fit", denormal}), {"denormal.csv:3:", "column 'threads_per_core'", "4.9e-320"});
}

void TestCliHostile::overflowingCpiErrorIsRefusedNamingTheCell()
{
    // 100 * (predicted - measured) overflowed for a measured CPI of 1e308: refused naming file, line, column.
    QTemporaryDir dir;
    const std::string measured = writeFile(dir, "measured.csv", "Application_size,Iteration,Mapping_Strategy,CPI\n"
                                                                "144,10,2threads_same_L2,1.6\n"
                                                                "144,10,2threads_same_L2,1e308\n");
    for (const bool json : {false, true}) {
        std::vector<std::string> args{"extrapolate", "--train", kSamples + "modeltree-training.csv", "--measured",
                                      measured};
        if (json)
            args.push_back("--json");
        expectRefusal(run(args), {"measured.csv:3:", "column 'CPI'", "1e+308"});
    }
}

void TestCliHostile::outputThatIsAnInputIsRefused()
{
    // calibrate --family fam.csv --out fam.csv replaced the measurements with a profile (exit status 0); the
    // same file by another name (a symbolic link, a hard link, "./") too. The input stays as it was.
    QTemporaryDir dir;
    const std::string probe = CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm";
    std::ifstream in(probe + "/family.csv", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string family = writeFile(dir, "fam.csv", text);
    const QString d = dir.path() + QLatin1Char('/');
    QVERIFY(QFile::link(d + QStringLiteral("fam.csv"), d + QStringLiteral("sym.csv")));
    QVERIFY(::link((d + QStringLiteral("fam.csv")).toLocal8Bit().constData(), (d + QStringLiteral("hard.csv")).toLocal8Bit().constData()) == 0);
    for (const char *out : {"fam.csv", "sym.csv", "hard.csv", "./fam.csv"}) {
        const std::string outPath = (d + QLatin1String(out)).toStdString();
        expectRefusal(run({"calibrate", "--family", family, "--profile", "h100-sxm", "--out", outPath}),
                      {"option '--out'", out, "is the file given with '--family'"});
        expectRefusal(run({"calibrate", "--family", outPath, "--profile", "h100-sxm", "--out", family}),
                      {"option '--out'", "fam.csv", "is the file given with '--family'"});
    }
    // Each measured file, and those of a probe's folder.
    const std::string stream = writeFile(dir, "stream.csv", "x");
    expectRefusal(run({"calibrate", "--family", family, "--profile", "h100-sxm", "--stream", stream, "--out", stream}),
                  {"is the file given with '--stream'"});
    QVERIFY(QDir(d).mkdir(QStringLiteral("probe")));
    for (const char *name : {"device.csv", "family.csv", "stream.csv", "latency.csv"})
        QVERIFY(QFile::copy(QString::fromStdString(probe + '/' + name), d + QStringLiteral("probe/") + QLatin1String(name)));
    expectRefusal(run({"calibrate", "--probe", (d + QStringLiteral("probe")).toStdString(), "--out",
                       (d + QStringLiteral("probe/latency.csv")).toStdString()}),
                  {"is the file given with '--probe' (its latency.csv)"});
    std::ifstream again(family, std::ios::binary);
    QCOMPARE(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), text);
    // Updating a profile in place is what --profile with --out is for.
    const std::string profile = (d + QStringLiteral("mine.json")).toStdString();
    QCOMPARE(run({"calibrate", "--family", family, "--profile", "h100-sxm", "--fit", "L_c", "--out", profile}).status, 0);
    const CliRun update = run({"calibrate", "--family", family, "--profile", profile, "--fit", "L_c", "--out", profile});
    QVERIFY2(update.status == 0, update.err.c_str());
}

void TestCliHostile::failedOutputKeepsItsReason()
{
    // Output larger than the stream's buffer failed while the command ran; finish() then cleared errno before
    // its flush and said only "cannot write the output". A disk full after 4 KiB (tests/support/full_disk.h).
    QTemporaryDir dir;
    const std::vector<std::vector<std::string>> commands{
            {"tmm", "--work", "1e6", "--transactions", "1e4", "--br", "1:3000"},
            {"tmm", "--work", "1e6", "--transactions", "1e4", "--br", "1:3000", "--format", "csv"},
            {"zigzag", "--sms", "15", "--ba", "1", "--br", "1:3000", "--json"}};
    for (const auto &args : commands) {
        std::ostringstream err;
        int status = 0;
        {
            const crossroof::test::FullDisk full(4096);
            QVERIFY(full.active());
            std::ofstream file(dir.filePath(QStringLiteral("out.txt")).toStdString(), std::ios::trunc);
            status = crossroof::cli::run(args, file, err);
        }
        QCOMPARE(status, 2);
        QCOMPARE(err.str(), "crossroof-cli " + args.front() + ": cannot write the output (File too large)\n");
    }
}

void TestCliHostile::derivedInfinityIsNamedByItsOption()
{
    // The user typed 1e-320, not inf: the message names the option and the input that make the infinity.
    const QRegularExpression nonFinite(QStringLiteral("\\b(inf|nan)\\b"));
    const CliRun apsp = run({"tmm", "--apsp", "8192,32,1e-320"});
    expectRefusal(apsp, {"option '--apsp'", "1e-320", "more than a double holds"});
    QVERIFY2(!QString::fromStdString(apsp.err).contains(nonFinite), apsp.err.c_str());
    const CliRun range = run({"hysteresis", "--param", "Z", "--range", "1:2:5e-324"});
    expectRefusal(range, {"option '--range'", "5e-324", "more than 100000 values"});
    QVERIFY2(!QString::fromStdString(range.err).contains(nonFinite), range.err.c_str());
}

void TestCliHostile::everyMessageIsOneShortLine()
{
    // A path over PATH_MAX echoed 2,044 characters and lost its reason: it loses its middle instead.
    const std::string longPath = "/tmp/" + std::string(5000, 'p') + "/gpu.json";
    expectRefusal(run({"xgraph", "--profile", longPath}), {"/tmp/ppp", "ppp/gpu.json: cannot read (File name too long)"});
    // An argument with a line break stays on one line.
    expectRefusal(run({"xgraph", "--profile", "no\nsuch"}), {"unknown profile 'no\\nsuch'"});
    // A line of 100,000 characters in a probe's file.
    QTemporaryDir dir;
    const QString probe = dir.filePath(QStringLiteral("probe"));
    QVERIFY(QDir().mkpath(probe));
    for (const char *name : {"device.csv", "stream.csv", "latency.csv"})
        QVERIFY(QFile::copy(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/") + QLatin1String(name),
                            probe + QLatin1Char('/') + QLatin1String(name)));
    std::ofstream(probe.toStdString() + "/family.csv") << "name,bytes\n" << std::string(100'000, 'k') << ",1\n";
    expectRefusal(run({"calibrate", "--probe", probe.toStdString()}), {"family.csv"});
    // An unknown --profile among many user profiles (1,039 characters): the list loses its middle.
    QTemporaryDir data;
    QVERIFY(QDir(data.path()).mkpath(QStringLiteral("Crossroof/profiles")));
    for (int i = 0; i < 60; ++i) {
        std::ofstream(data.filePath(QStringLiteral("Crossroof/profiles/gpu-%1.json").arg(i)).toStdString())
                << R"({"format_version": 1, "id": "user-gpu-number-)" << i << R"(", "name": "x", "kind": "gpu"})";
    }
    const QByteArray old = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const CliRun unknown = run({"xgraph", "--profile", "no-such-gpu"});
    old.isNull() ? qunsetenv("XDG_DATA_HOME") : qputenv("XDG_DATA_HOME", old);
    expectRefusal(unknown, {"unknown profile 'no-such-gpu'"});
}

void TestCliHostile::refusalsNameTheirOptionOrFile()
{
    const std::string train = kSamples + "modeltree-training.csv";
    expectRefusal(run({"extrapolate", "--train", train, "--target-size", "1e308"}), {"option '--target-size'", "1e308"});
    expectRefusal(run({"extrapolate", "--train", train, "--iteration", "1e308"}), {"option '--iteration'", "1e308"});
    const std::string probe = CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/";
    expectRefusal(run({"calibrate", "--family", probe + "family.csv", "--fit", ""}), {"option '--fit'"});
    expectRefusal(run({"calibrate", "--latency", probe + "latency.csv", "--profile", "h100-sxm", "--fit", ""}),
                  {"option '--fit'"});
    // Which measurements are too few: the file says.
    expectRefusal(run({"calibrate", "--latency", probe + "latency.csv", "--profile", "h100-sxm", "--fit", "R,L,M,L_c,L_2"}),
                  {"latency.csv: 2 measured values cannot fit 5 parameters"});
}

void TestCliHostile::optionsAreReadAlike()
{
    // --version refuses what follows it, as every command refuses what it does not take.
    expectRefusal(run({"--version", "--frobnicate"}), {"unexpected argument '--frobnicate' after '--version'"});
    QCOMPARE(run({"--version"}).status, 0);
    // --weight reads a decimal number as every option does: no hex.
    const std::string probe = CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/";
    expectRefusal(run({"calibrate", "--stream", probe + "stream.csv", "--profile", "h100-sxm", "--weight", "stream=0x10"}),
                  {"option '--weight'", "stream=0x10", "the weight must be a number >= 0"});
    // A repeated --column key is refused as other repeated options are (the second silently won).
    expectRefusal(run({"extrapolate", "--train", kSamples + "modeltree-training.csv", "--column", "size=A", "--column",
                       "size=Application_size"}),
                  {"option '--column': key 'size' is given twice"});
    // The two-level cache fit is a GPU's: a CPU profile is refused, not silently used.
    expectRefusal(run({"fit-trace", "--trace", probe + "cache.csv", "--x", "warps_per_sm", "--y", "request_gbs",
                       "--where", "bytes_per_warp=16384", "--model", "two-level", "--profile", "epyc-9654"}),
                  {"option '--profile'", "epyc-9654 is a CPU", "GPU"});
}

void TestCliHostile::manyStrategiesAreRefusedQuickly()
{
    // 8,000 strategies of one row each took 122 s and 2.7 GB (each strategy is an attribute of the trees).
    QTemporaryDir dir;
    std::string text = "Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,p_value,q_value\n";
    for (int s = 0; s < 8000; ++s)
        text += "32,1,1,2,strategy_" + std::to_string(s) + ",3,0." + std::to_string(s % 9 + 1) + ",0." + std::to_string(s % 7 + 1) + "\n";
    const std::string many = writeFile(dir, "many.csv", text);
    const std::clock_t start = std::clock();
    expectRefusal(run({"extrapolate", "--train", many}), {"many.csv: 8000 mapping strategies, more than 64"});
    QVERIFY(double(std::clock() - start) / CLOCKS_PER_SEC < 5);
}

QTEST_APPLESS_MAIN(TestCliHostile)
#include "tst_cli_hostile.moc"
