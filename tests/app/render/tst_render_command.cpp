// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "commands.h"
#include "render_command.h"
#include "core/modeltree/training_set.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "core/traces/trace_import.h"

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <sstream>

namespace {

const QString kSession = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/gtx570-thrashing.crossroof");

/// The XML error of the SVG file at PATH, or empty where it is well-formed (xmllint may not be installed).
QString xmlError(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot open ") + path;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd())
        xml.readNext();
    return xml.hasError() ? QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString())
                          : QString();
}

/// Exit status 99 where the run wrote an SVG that is not XML: every figure the tests write is parsed.
int render(const QStringList &args, std::string *err = nullptr, std::string *output = nullptr)
{
    std::vector<std::string> argv{"render"};
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    std::ostringstream out, e;
    const crossroof::cli::Command *extra[] = {&crossroof::cli::kRenderCommand};
    const int status = crossroof::cli::run(argv, out, e, extra);
    if (err)
        *err = e.str();
    if (output)
        *output = out.str();
    const qsizetype at = args.indexOf(QStringLiteral("--out"));
    if (status == 0 && at >= 0 && at + 1 < args.size() && args[at + 1].endsWith(QStringLiteral(".svg"))) {
        if (const QString problem = xmlError(args[at + 1]); !problem.isEmpty()) {
            qWarning("%s", qPrintable(problem));
            return 99;
        }
    }
    return status;
}

/// The sample session as JSON, to be changed and written to a file with writeSession().
nlohmann::json sampleSession()
{
    std::ifstream in(CROSSROOF_SOURCE_DIR "/docs/samples/v100-measured.crossroof");
    return nlohmann::json::parse(in);
}

QString writeSession(const QTemporaryDir &dir, const char *name, const nlohmann::json &session)
{
    const QString path = dir.filePath(QLatin1String(name));
    std::ofstream(path.toStdString()) << session.dump();
    return path;
}

} // namespace

class TestRenderCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyViewRenders_data();
    void everyViewRenders();
    void pngHasTheRequestedPixels();
    void presetGivesSizeTextAndLines();
    void stabilityMapIsComputedBeforeItIsDrawn();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
    void missingLinkedTraceFails();
    void sessionsOwnProfileIsSaid();
    void viewWithNothingToDrawExitsTwo();
    void missingKernelFileFails();
    void theRooflineNamesItsKernels();
    void outReplacesOnlyARegularFile();
    void outInLatin1NamedFolder();
    void outIsNeverTheSession();
    void controlCharactersInANameAreRefused();
    void figuresBeyondWhatIsSeenAreRefused();
    void longLinkPathKeepsTheReason();
};

void TestRenderCommand::everyViewRenders_data()
{
    QTest::addColumn<QString>("view");
    for (const char *v : {"xgraph", "occupancy", "zigzag", "markov"})
        QTest::newRow(v) << QString::fromLatin1(v);
}

void TestRenderCommand::everyViewRenders()
{
    QFETCH(QString, view);
    QTemporaryDir dir;
    const QString out = dir.filePath(view + QStringLiteral(".pdf"));
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), view, QStringLiteral("--out"), out,
                     QStringLiteral("--width-mm"), QStringLiteral("175"), QStringLiteral("--height-mm"),
                     QStringLiteral("90")}),
             0);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    static const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([\\d.]+) ([\\d.]+)\\]"));
    const auto m = box.match(QString::fromLatin1(f.readAll()));
    QVERIFY(m.hasMatch());
    QVERIFY(std::abs(m.captured(1).toDouble() - 175 / 25.4 * 72) < 0.5);
    QVERIFY(std::abs(m.captured(2).toDouble() - 90 / 25.4 * 72) < 0.5);
}

void TestRenderCommand::pngHasTheRequestedPixels()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("x.png"));
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("xgraph"),
                     QStringLiteral("--out"), out, QStringLiteral("--dpi"), QStringLiteral("150"),
                     QStringLiteral("--greyscale")}),
             0);
    QCOMPARE(QImageReader(out).size(), QSize(502, 354)); // 85 x 60 mm at 150 dpi
}

void TestRenderCommand::presetGivesSizeTextAndLines()
{
    // --preset slide: the dialog's slide, 254 x 142.9 mm with text of at least 16 pt; an option beside it
    // changes only what it names.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("slide.svg"));
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("zigzag"),
                     QStringLiteral("--out"), out, QStringLiteral("--preset"), QStringLiteral("slide")}),
             0);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    QVERIFY2(svg.contains(QStringLiteral("width=\"254mm\"")), qPrintable(svg.left(400)));
    // Font sizes are in the view box's units: the view box is the page's width in them.
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"0 0 ([\\d.]+) ([\\d.]+)\""));
    const double unitsPerPt = viewBox.match(svg).captured(1).toDouble() / (254 / 25.4 * 72);
    QVERIFY(unitsPerPt > 0);
    // Every piece of text but scripts: the exponents of powers of ten (three quarters of the tick labels' size,
    // as QCustomPlot sets them) and the subscripts of model symbols (seven tenths, f_sched's "sched").
    static const QRegularExpression text(QStringLiteral("<text [^>]*font-size=\"([\\d.]+)(pt|px)?\""));
    double smallest = 1e9;
    double previous = 0;
    int texts = 0;
    for (auto m = text.globalMatch(svg); m.hasNext(); ++texts) {
        const auto match = m.next();
        const double size = match.captured(1).toDouble() / (match.captured(2) == QLatin1String("pt") ? 1 : unitsPerPt);
        if (size < 0.8 * previous)
            continue;
        smallest = std::min(smallest, size);
        previous = size;
    }
    QVERIFY(texts > 5);
    QVERIFY2(smallest >= 16 - 0.01, qPrintable(QString::number(smallest)));

    const QString narrow = dir.filePath(QStringLiteral("narrow.svg"));
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("zigzag"),
                     QStringLiteral("--out"), narrow, QStringLiteral("--preset"), QStringLiteral("slide"),
                     QStringLiteral("--width-mm"), QStringLiteral("200")}),
             0);
    QFile g(narrow);
    QVERIFY(g.open(QIODevice::ReadOnly));
    const QByteArray head = g.read(600);
    QVERIFY2(head.contains("width=\"200mm\"") && head.contains("height=\"142.88mm\""), head.constData());
}

void TestRenderCommand::stabilityMapIsComputedBeforeItIsDrawn()
{
    // The map is computed in the background and not at all while its view is hidden, as it is in render: the
    // figure once showed empty axes from 0 to 5. A computed map is a gradient of many blues.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("stability.png"));
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("stability"),
                     QStringLiteral("--out"), out, QStringLiteral("--dpi"), QStringLiteral("100"),
                     QStringLiteral("--width-mm"), QStringLiteral("175"), QStringLiteral("--height-mm"),
                     QStringLiteral("120")}),
             0);
    const QImage image(out);
    QVERIFY(!image.isNull());
    QSet<QRgb> blues;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.blue() > c.red() + 40)
                blues.insert(c.rgb());
        }
    }
    QVERIFY2(blues.size() > 40, qPrintable(QString::number(blues.size())));
}

void TestRenderCommand::outReplacesOnlyARegularFile()
{
    // --out onto a FIFO or a link is refused and they stay as they were (a FIFO was replaced by a file, a link
    // written through); a link planted under a temporary-looking name is not followed.
    QTemporaryDir dir;
    const std::filesystem::path d = dir.path().toStdString();
    const std::filesystem::path victim = d / "victim.txt";
    std::ofstream(victim) << "precious";
    QVERIFY(::mkfifo((d / "fifo.svg").c_str(), 0644) == 0);
    std::filesystem::create_symlink(victim, d / "link.svg");
    std::filesystem::create_symlink(victim, d / "x.svg.part");
    const auto renderTo = [](const std::filesystem::path &out, std::string *err) {
        return render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("xgraph"),
                       QStringLiteral("--out"), QString::fromStdString(out.string())},
                      err);
    };
    std::string err;
    QCOMPARE(renderTo(d / "fifo.svg", &err), 2);
    QVERIFY2(QString::fromStdString(err).endsWith(
                     QStringLiteral("fifo.svg: cannot write the file (it is a FIFO (Crossroof saves only to a "
                                    "regular file))\n")),
             err.c_str());
    QVERIFY(std::filesystem::is_fifo(d / "fifo.svg"));
    QCOMPARE(renderTo(d / "link.svg", &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("link.svg: cannot write the file (it is a symbolic link")),
             err.c_str());
    QVERIFY(std::filesystem::is_symlink(d / "link.svg"));
    QCOMPARE(renderTo(d / "x.svg", &err), 0);
    QVERIFY(std::filesystem::is_regular_file(d / "x.svg") && !std::filesystem::is_symlink(d / "x.svg"));
    std::ifstream in(victim);
    QCOMPARE(std::string(std::istreambuf_iterator<char>(in), {}), std::string("precious"));
    QCOMPARE(std::distance(std::filesystem::directory_iterator(d), std::filesystem::directory_iterator()), 5);
}

void TestRenderCommand::outInLatin1NamedFolder()
{
    // --out in a folder named in Latin-1 ("r\xe9sultats" as bytes): the path went through
    // QString::fromStdString(), which turns the byte into U+FFFD, so the figure was refused with "No such file"
    // (or written under another name). The bytes reach the file system as given; the message escapes them.
    QTemporaryDir dir;
    const std::filesystem::path d = std::filesystem::path(dir.path().toStdString()) / "r\xe9sultats";
    std::filesystem::create_directory(d);
    const std::filesystem::path out = d / "fig-\xe9t\xe9.svg";
    std::ostringstream o, e;
    const crossroof::cli::Command *extra[] = {&crossroof::cli::kRenderCommand};
    const int status = crossroof::cli::run({"render", "--session", kSession.toStdString(), "--view", "xgraph",
                                            "--out", out.string()},
                                           o, e, extra);
    QVERIFY2(status == 0, e.str().c_str());
    QVERIFY(std::filesystem::is_regular_file(out));
    QVERIFY(std::filesystem::file_size(out) > 1000);
    QCOMPARE(std::distance(std::filesystem::directory_iterator(d), std::filesystem::directory_iterator()), 1);
    QVERIFY2(o.str().find("/r\\xe9sultats/fig-\\xe9t\\xe9.svg (") != std::string::npos, o.str().c_str());
}

void TestRenderCommand::outIsNeverTheSession()
{
    // render --session a.svg --out a.svg replaced the session with its figure (exit status 0); through a
    // symbolic link too. Refused, the session as it was.
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("a.svg"));
    QVERIFY(QFile::copy(kSession, session));
    QVERIFY(QFile::link(session, dir.filePath(QStringLiteral("link.svg"))));
    for (const QString &out : {session, dir.filePath(QStringLiteral("link.svg"))}) {
        std::string err;
        QCOMPARE(render({QStringLiteral("--session"), session, QStringLiteral("--view"), QStringLiteral("xgraph"),
                         QStringLiteral("--out"), out},
                        &err),
                 2);
        QVERIFY2(err.find("option '--out': ") != std::string::npos
                         && err.find("is the file given with '--session'") != std::string::npos,
                 err.c_str());
    }
    QFile original(kSession), kept(session);
    QVERIFY(original.open(QIODevice::ReadOnly) && kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), original.readAll());
}

void TestRenderCommand::controlCharactersInANameAreRefused()
{
    // A trace name with U+0001 (a JSON escape) went raw into the SVG, which was then not XML. Refused as the
    // session is read; a tab in a name is text, and the figure is well-formed (render() parses it).
    QTemporaryDir dir;
    nlohmann::json session = sampleSession();
    session["traces"][0]["name"] = "v100\u0001init";
    std::string err;
    QCOMPARE(render({QStringLiteral("--session"), writeSession(dir, "ctl.crossroof", session), QStringLiteral("--view"),
                     QStringLiteral("xgraph"), QStringLiteral("--out"), dir.filePath(QStringLiteral("ctl.svg"))},
                    &err),
             2);
    QVERIFY2(err.find("field 'traces[].name': holds the control character U+0001") != std::string::npos, err.c_str());
    session["traces"][0]["name"] = "v100\tinit <&> \"";
    QCOMPARE(render({QStringLiteral("--session"), writeSession(dir, "tab.crossroof", session), QStringLiteral("--view"),
                     QStringLiteral("xgraph"), QStringLiteral("--out"), dir.filePath(QStringLiteral("tab.svg"))}),
             0);
}

void TestRenderCommand::figuresBeyondWhatIsSeenAreRefused()
{
    // 5,000 visible traces took 93 s (a legend laid out again for each removed entry), a 1000 x 1000 mm PNG at
    // 355 dpi 20 s: refused before anything is drawn, with the limit.
    QTemporaryDir dir;
    nlohmann::json session = sampleSession();
    const nlohmann::json trace = session["traces"][0];
    session["traces"] = nlohmann::json::array();
    for (int i = 0; i < 5000; ++i) {
        nlohmann::json t = trace;
        t["id"] = "t" + std::to_string(i);
        session["traces"].push_back(t);
    }
    QElapsedTimer timer;
    timer.start();
    std::string err;
    QCOMPARE(render({QStringLiteral("--session"), writeSession(dir, "many.crossroof", session), QStringLiteral("--view"),
                     QStringLiteral("xgraph"), QStringLiteral("--out"), dir.filePath(QStringLiteral("many.svg"))},
                    &err),
             2);
    QVERIFY2(err.find("many.crossroof: 5000 visible traces, more than a figure draws (500)") != std::string::npos,
             err.c_str());
    QCOMPARE(render({QStringLiteral("--session"), kSession, QStringLiteral("--view"), QStringLiteral("xgraph"),
                     QStringLiteral("--out"), dir.filePath(QStringLiteral("huge.png")), QStringLiteral("--width-mm"),
                     QStringLiteral("1000"), QStringLiteral("--height-mm"), QStringLiteral("1000"),
                     QStringLiteral("--dpi"), QStringLiteral("355")},
                    &err),
             2);
    QVERIFY2(err.find("option '--dpi': 13976 x 13976 pixels at 355 dpi, more than a PNG may have (64 megapixels)")
                     != std::string::npos,
             err.c_str());
    QVERIFY2(timer.elapsed() < 10'000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("huge.png"))));
}

void TestRenderCommand::longLinkPathKeepsTheReason()
{
    // A linked trace's path of 4,000 characters gave a message of 2,000: one line under 300 that ends with why.
    QTemporaryDir dir;
    nlohmann::json session = sampleSession();
    session["traces"][0] = {{"id", "t1"},
                            {"name", "n"},
                            {"kind", "bandwidth-vs-warps"},
                            {"link", "/tmp/" + std::string(4000, 'l') + "/stream.txt"},
                            {"origin", {{"format", "gpu-stream"}, {"index", 0}}}};
    std::string err;
    QCOMPARE(render({QStringLiteral("--session"), writeSession(dir, "link.crossroof", session), QStringLiteral("--view"),
                     QStringLiteral("xgraph"), QStringLiteral("--out"), dir.filePath(QStringLiteral("link.svg"))},
                    &err),
             2);
    QVERIFY2(err.size() < 300 && std::count(err.begin(), err.end(), '\n') == 1, err.c_str());
    QVERIFY2(err.find("lll/stream.txt: cannot read (File name too long)") != std::string::npos, err.c_str());
}

void TestRenderCommand::badArgumentsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no session") << QStringList{"--view", "xgraph", "--out", "/tmp/x.pdf"} << "option '--session' is required";
    QTest::newRow("unknown view") << QStringList{"--session", kSession, "--view", "heatmap", "--out", "/tmp/x.pdf"}
                                  << "unknown view 'heatmap'";
    QTest::newRow("bad format") << QStringList{"--session", kSession, "--view", "xgraph", "--out", "/tmp/x.jpg"}
                                << "ending in .pdf, .svg or .png";
    QTest::newRow("missing session") << QStringList{"--session", "/no/such.crossroof", "--view", "xgraph", "--out", "/tmp/x.pdf"}
                                     << "/no/such.crossroof: cannot read (No such file or directory)";
    QTest::newRow("tiny size") << QStringList{"--session", kSession, "--view", "xgraph", "--out", "/tmp/x.pdf", "--width-mm", "1"}
                               << "option '--width-mm': must be between 10 and 1000";
    QTest::newRow("unknown preset") << QStringList{"--session", kSession, "--view", "xgraph", "--out", "/tmp/x.pdf", "--preset", "poster"}
                                    << "option '--preset': unknown preset 'poster' (choose from single, double, slide)";
    QTest::newRow("unknown font") << QStringList{"--session", kSession, "--view", "xgraph", "--out", "/tmp/x.svg", "--font", "No Such Family"}
                                  << "option '--font': no font family 'No Such Family' is installed";
    QTest::newRow("thin lines") << QStringList{"--session", kSession, "--view", "xgraph", "--out", "/tmp/x.pdf", "--line-pt", "0"}
                                << "option '--line-pt': must be between 0.1 and 4";
}

void TestRenderCommand::badArgumentsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    std::string err;
    QCOMPARE(render(args, &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(message), err.c_str());
}

void TestRenderCommand::missingLinkedTraceFails()
{
    // A figure that silently lacks a measured trace would be wrong: render refuses and says which.
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("v100.txt"));
    QVERIFY(QFile::copy(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt"), data));
    crossroof::core::Session s = crossroof::core::loadSessionFile(kSession.toStdString());
    s.traces = crossroof::core::readTraceFile(data.toStdString()).traces;
    for (std::size_t i = 0; i < s.traces.size(); ++i)
        s.traces[i].id = "t" + std::to_string(i + 1);
    s.link_traces = true;
    const QString session = dir.filePath(QStringLiteral("linked.crossroof"));
    std::ofstream(session.toStdString()) << crossroof::core::sessionToJson(s, session.toStdString());
    const QStringList args{"--session", session, "--view", "xgraph", "--out", dir.filePath(QStringLiteral("x.pdf"))};
    std::string err;
    QVERIFY2(render(args, &err) == 0, err.c_str());
    QVERIFY(QFile::remove(data));
    QCOMPARE(render(args, &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("field 'traces[0].link' (v100.txt)")), err.c_str());
}

void TestRenderCommand::sessionsOwnProfileIsSaid()
{
    // A session embedding an older h100-sxm (R 2022, no R_dram) is drawn with its own values, as the GUI opens
    // it, and the output says so; one embedding the library's profile says nothing of it.
    QTemporaryDir dir;
    crossroof::core::Session s = crossroof::core::loadSessionFile(kSession.toStdString());
    s.profile = *crossroof::core::findBundledProfile("h100-sxm");
    s.params = s.profile.params;
    const QString same = dir.filePath(QStringLiteral("same.crossroof"));
    std::ofstream(same.toStdString()) << crossroof::core::sessionToJson(s, same.toStdString());
    s.profile.params.R = 2022;
    s.profile.params.R_dram = 0;
    s.profile.params.L = 766.7;
    s.profile.params.M = 2.963;
    s.params = s.profile.params;
    const QString study = dir.filePath(QStringLiteral("study.crossroof"));
    std::ofstream(study.toStdString()) << crossroof::core::sessionToJson(s, study.toStdString());
    std::string err, out;
    const QString figure = dir.filePath(QStringLiteral("x.svg"));
    QVERIFY2(render({"--session", study, "--view", "xgraph", "--out", figure}, &err, &out) == 0, err.c_str());
    QVERIFY2(out.find("profile: H100 SXM 80GB (Hopper), from study.crossroof: R, L, M, R_dram differ (the "
                      "session's own values, not the library's)\n")
                     != std::string::npos,
             out.c_str());
    QVERIFY2(render({"--session", same, "--view", "xgraph", "--out", figure}, &err, &out) == 0, err.c_str());
    QVERIFY2(out.find("profile:") == std::string::npos, out.c_str());
}

void TestRenderCommand::viewWithNothingToDrawExitsTwo()
{
    // The sample has no training runs: an Extrapolate figure would be an empty frame. Refused, and nothing is
    // written; with training runs in the session it is drawn.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("extrapolate.svg"));
    std::string err;
    QCOMPARE(render({"--session", kSession, "--view", "extrapolate", "--out", out}, &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("option '--view': the extrapolate view of ")), err.c_str());
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("has nothing to draw (No training data yet.)")), err.c_str());
    QVERIFY(!QFile::exists(out));
    QCOMPARE(render({"--session", kSession, "--view", "bandwidth", "--out", out}, &err), 2); // no perf stat trace
    QVERIFY(!QFile::exists(out));
    // No kernel file: the prediction view would be empty axes.
    QCOMPARE(render({"--session", kSession, "--view", "prediction", "--out", out}, &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("has nothing to draw (No kernels yet.)")), err.c_str());
    QVERIFY(!QFile::exists(out));

    crossroof::core::Session s = crossroof::core::loadSessionFile(kSession.toStdString());
    s.extrapolate.training
            = crossroof::core::readTrainingSet(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");
    const QString session = dir.filePath(QStringLiteral("trained.crossroof"));
    std::ofstream(session.toStdString()) << crossroof::core::sessionToJson(s, session.toStdString());
    QVERIFY2(render({"--session", session, "--view", "extrapolate", "--out", out}, &err) == 0, err.c_str());
    QFile svg(out);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("2threads_same_L2")); // the legend names the strategies
}

void TestRenderCommand::missingKernelFileFails()
{
    // The roofline without the kernels the session names would be wrong without saying so.
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("ncu.csv"));
    QVERIFY(QFile::copy(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv"), data));
    crossroof::core::Session s = crossroof::core::loadSessionFile(kSession.toStdString());
    s.kernel_file = data.toStdString();
    const QString session = dir.filePath(QStringLiteral("kernels.crossroof"));
    std::ofstream(session.toStdString()) << crossroof::core::sessionToJson(s, session.toStdString());
    const QStringList args{"--session", session, "--view", "roofline", "--out", dir.filePath(QStringLiteral("r.pdf"))};
    std::string err;
    QVERIFY2(render(args, &err) == 0, err.c_str());
    QVERIFY(QFile::remove(data));
    QCOMPARE(render(args, &err), 2);
    QVERIFY2(QString::fromStdString(err).contains(QStringLiteral("field 'kernel_file'")), err.c_str());
}

void TestRenderCommand::theRooflineNamesItsKernels()
{
    // As Export Figure does: a rendered roofline names the kernels it has room for. Its window was never laid
    // out, and the names were placed for a plot too small to hold any.
    QTemporaryDir dir;
    crossroof::core::Session s = crossroof::core::loadSessionFile(kSession.toStdString());
    s.kernel_file = CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv";
    const QString session = dir.filePath(QStringLiteral("kernels.crossroof"));
    std::ofstream(session.toStdString()) << crossroof::core::sessionToJson(s, session.toStdString());
    const QString out = dir.filePath(QStringLiteral("roofline.svg"));
    std::string err;
    QVERIFY2(render({"--session", session, "--view", "roofline", "--preset", "double", "--out", out}, &err) == 0,
             err.c_str());
    QFile svg(out);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("xkernel ["));
}

QTEST_MAIN(TestRenderCommand)
#include "tst_render_command.moc"
