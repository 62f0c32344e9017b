// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/modeltree/training_set.h"
#include "core/support/text_file.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "core/traces/trace_import.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/measured_curve.h"
#include "core/xmodel/xmodel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace crossroof;

namespace {

core::Session sample()
{
    core::Session s;
    s.profile = *core::findBundledProfile("v100");
    s.params = s.profile.params;
    s.params.Z = 3.25;
    s.params.n = 17;
    s.params.cache = core::CacheMode::Locality;
    s.params.alpha = 2.5;
    s.current_view = "markov";
    s.occupancy.cc = "7.0";
    s.occupancy.threads_per_block = 192;
    s.occupancy.regs_per_thread = 40;
    s.occupancy.smem_per_block = 4096;
    s.occupancy.smem_config = 65536;
    s.occupancy.mode = "paper";
    s.occupancy.linked = true;
    s.occupancy.manual_active_blocks = 3;
    s.occupancy.sm_count = 80;
    s.occupancy.requested_blocks_max = 500;
    s.tmm.work = "2.5e9";
    s.tmm.span = "1000";
    s.tmm.transactions = "3e7";
    s.tmm.latency = "350";
    s.tmm.threads_per_core = "4";
    s.tmm.cores = "";   // cleared by the user: kept as typed
    s.tmm.requested_blocks = "4x"; // not a number yet: kept as typed too
    s.tmm.apsp_vertices = 4096;
    s.tmm.apsp_sub_block = 64;
    s.tmm.apsp_chunk = "16";
    s.markov.groups = 8;
    s.markov.threads_per_group = 4;
    s.markov.grid = "logit:200";
    s.markov.steps = 25;
    s.markov.p_index = 3;
    s.markov.q_index = 190;
    s.markov.measured_cpi = 7.5;
    s.markov.topology_source = "clovertown-x5365/4T_4";
    s.markov.counters = core::CounterInputs::thesisExample();
    s.markov.counters->measured_cpi = 2.25;
    s.markov.counters->stall[1].latency = 1.0 / 3 + 4; // doubles survive exactly
    s.mapping.profile_id = "clovertown-x5365";
    s.mapping.p = 0.3;
    s.mapping.q = 0.95;
    s.mapping.points = {{"2T_2", 0.4, 0.99}, {"8T_1", 0.05, 0.5}};
    s.mapping.own_strategies = {{"pairs", {0, 0, 4, 4}}};
    s.stability.x_key = "S_s";
    s.stability.y_key = "beta";
    s.stability.resolution = 64;
    s.stability.sweep_key = "Z";
    s.stability.sweep_shows_k = true;
    s.roofline.names = false;
    s.roofline.levels = false;
    s.skeleton.text = "def k\n  for i = 0:8\n    ld x[i]\n    fp y: x, y\n";
    s.skeleton.profile_id = "epyc-9654";
    s.skeleton.unroll = 8;
    s.skeleton.measured = {{1, 1.5e6}, {8, 410000.25}};
    core::MeasuredTrace t;
    t.id = "t1";
    t.name = "v100 init";
    t.source = "/data/stream_vs_warps_per_sm.csv";
    t.x = {2, 4, 8, 16};
    t.y = {153, 306, 595, 895};
    t.visible = false;
    s.traces.push_back(t);
    return s;
}

const QString kTestData = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data");
const QString kTraining = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");

/// Whether A and B hold the same training runs, row by row, with their file and columns.
bool sameTraining(const core::TrainingSet &a, const core::TrainingSet &b)
{
    const auto sameRow = [](const core::TrainingRow &x, const core::TrainingRow &y) {
        return x.size == y.size && x.iteration == y.iteration && x.num_l2 == y.num_l2
               && x.threads_per_l2 == y.threads_per_l2 && x.strategy == y.strategy && x.states == y.states
               && x.p == y.p && x.q == y.q && x.line == y.line;
    };
    return a.source == b.source && a.columns.p == b.columns.p && a.columns.size == b.columns.size
           && std::equal(a.rows.begin(), a.rows.end(), b.rows.begin(), b.rows.end(), sameRow);
}

void writeFile(const QString &path, const std::string &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

/// A session whose traces field is TRACES (JSON text), for linked-trace records.
std::string withTraces(const std::string &traces)
{
    core::Session s = sample();
    s.traces.clear();
    std::string text = core::sessionToJson(s);
    const std::string empty = "\"traces\": []";
    text.replace(text.find(empty), empty.size(), "\"traces\": " + traces);
    return text;
}

/// sample() with one more trace of POINTS points, each written in 21 bytes ("1000000.5,2000000.25,").
core::Session withLargeTrace(std::size_t points)
{
    core::Session s = sample();
    core::MeasuredTrace t;
    t.id = "big";
    t.name = "a long sweep";
    for (std::size_t i = 0; i < points; ++i) {
        t.x.push_back(1e6 + double(i) + 0.5);
        t.y.push_back(2e6 + double(i) + 0.25);
    }
    s.traces.push_back(std::move(t));
    return s;
}

/// The number of points withLargeTrace() needs for a session text of about BYTES.
std::size_t pointsForSessionBytes(std::size_t bytes)
{
    const std::size_t base = core::sessionToJson(withLargeTrace(0)).size();
    return (bytes - base) / 21;
}

QString errorOf(const std::string &text)
{
    try {
        core::parseSession(text, "s.crossroof");
    } catch (const core::InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip();
    void minimalSessionGetsDefaults();
    void versionOneSessionOpens();
    void flagshipSampleShowsTheCaseStudy();
    void measuredSupplySample();
    void measuredCurvesNameTheField();
    void badSessionsNameTheField_data();
    void badSessionsNameTheField();
    void newerVersionIsRefused();
    void linkedTracesMoveWithTheSession();
    void unreadableLinksLeaveTheTraceOut_data();
    void unreadableLinksLeaveTheTraceOut();
    void badLinksNameTheField_data();
    void badLinksNameTheField();
    void linkToAFifoIsLeftOutInTime();
    void manyLinksToOneFileReadItOnce();
    void linksPastThePointLimitAreLeftOut();
    void sessionNearTheSizeLimitSavesAndOpensAgain();
    void sessionOverTheSizeLimitIsRefusedBeforeWriting();
    void trainingRunsKernelsAndZoomAreKept();
    void linkedTrainingRunsAreReadAgain();
    void badTrainingRunsAndZoomNameTheField_data();
    void badTrainingRunsAndZoomNameTheField();
};

void TestSession::roundTrip()
{
    const core::Session s = sample();
    const core::Session back = core::parseSession(core::sessionToJson(s), "s.crossroof");
    QVERIFY(back.params == s.params);
    QCOMPARE(back.profile.id, s.profile.id);
    QVERIFY(back.profile.params == s.profile.params);
    QCOMPARE(back.profile.sources.size(), s.profile.sources.size());
    QCOMPARE(back.current_view, s.current_view);
    QVERIFY(back.occupancy == s.occupancy);
    QVERIFY(back.tmm == s.tmm);
    QVERIFY(back.markov == s.markov);
    QVERIFY(back.mapping == s.mapping);
    QVERIFY(back.stability == s.stability);
    QVERIFY(back.roofline == s.roofline);
    QVERIFY(!back.roofline.names && back.roofline.predictions && !back.roofline.levels);
    QVERIFY(back.skeleton == s.skeleton);
    QCOMPARE(back.traces.size(), std::size_t(1));
    QVERIFY(back.traces.front() == s.traces.front()); // traces are embedded, points and all
    // Doubles survive exactly.
    core::Session odd = s;
    odd.params.h = 0.1 + 0.2;
    QCOMPARE(core::parseSession(core::sessionToJson(odd), "x").params.h, 0.1 + 0.2);
}

void TestSession::minimalSessionGetsDefaults()
{
    // Only what must be there: format, version, profile, parameters; the view settings take defaults.
    const core::Session full = sample();
    std::string text = core::sessionToJson(full);
    const auto cut = text.find(",\n  \"view\"");
    QVERIFY(cut != std::string::npos);
    text.resize(cut);
    text += "\n}\n";
    const core::Session s = core::parseSession(text, "min.crossroof");
    QVERIFY(s.params == full.params);
    QCOMPARE(s.current_view, std::string("xgraph"));
    QVERIFY(s.occupancy == core::OccupancySettings{});
    QVERIFY(s.tmm == core::TmmSettings{});
    QVERIFY(s.markov == core::MarkovSettings{});
    QVERIFY(s.mapping == core::MappingSettings{});
    QVERIFY(s.stability == core::StabilitySettings{});
    QVERIFY(s.roofline == core::RooflineSettings{});
}

void TestSession::versionOneSessionOpens()
{
    // The sample was written by format version 1, before the TMM inputs were saved: they take the defaults.
    const core::Session s
            = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/gtx570-thrashing.crossroof");
    QCOMPARE(s.profile.id, std::string("gtx570-sp"));
    QVERIFY(s.tmm == core::TmmSettings{});
    QCOMPARE(s.markov.groups, 4);
}

void TestSession::measuredSupplySample()
{
    // The H100's measured 16 KiB-per-warp thrashing curve is f(k): its peak is the cache peak, and the
    // advisor's thread throttling brings the operating point to it (the X-model paper's Section IV, with a
    // measured curve).
    const core::Session s = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    QVERIFY(s.params.measured_f);
    QCOMPARE(s.supply_trace, std::string("t1"));
    QVERIFY(s.trace_problems.empty());
    const core::XGraphResult r = core::XModel(s.params).solve();
    QCOMPARE(*r.landmarks.psi, 10.0);
    const double peak = s.params.measured_f->value(10);
    QVERIFY(r.operatingPoint().ms_gbs < 0.8 * peak); // 64 warps thrash
    const core::Advice a = core::advise(s.params);
    QCOMPARE(a.operations.front().id, std::string_view("thread_throttling"));
    QVERIFY(a.operations.front().params.n < s.params.n);
    QVERIFY2(std::abs(a.operations.front().ms_gbs - peak) < 0.03 * peak,
             qPrintable(QString::number(a.operations.front().ms_gbs)));
    // Saved and read again, the curve is the same trace's.
    const core::Session back = core::parseSession(core::sessionToJson(s), "s.crossroof");
    QCOMPARE(back.supply_trace, s.supply_trace);
    QVERIFY(back.params.measured_f);
    QCOMPARE(back.params.measured_f->points().size(), s.params.measured_f->points().size());
}

void TestSession::measuredCurvesNameTheField()
{
    nlohmann::json j = nlohmann::json::parse(core::sessionToJson(
            core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof")));
    // A curve that names no trace of the session: said, and the analytic curve used.
    j["measured_curves"]["supply"] = "t9";
    core::Session s = core::parseSession(j.dump(), "s.crossroof");
    QVERIFY(!s.params.measured_f);
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    QVERIFY2(s.trace_problems[0].find("field 'measured_curves.supply': no trace 't9'") != std::string::npos,
             s.trace_problems[0].c_str());
    // A trace too short to be a curve: refused with the field.
    j["measured_curves"]["supply"] = "t1";
    j["traces"][0]["x"] = {1, 2};
    j["traces"][0]["y"] = {10, 20};
    try {
        core::parseSession(j.dump(), "s.crossroof");
        QFAIL("a two-point curve was accepted");
    } catch (const core::InputError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("measured_curves.supply") != std::string::npos && what.find("at least 3 points") != std::string::npos,
                 what.c_str());
    }
    j["measured_curves"] = {{"supply", "t1"}, {"flow", "t1"}};
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::parseSession(j.dump(), "s.crossroof"));
}

void TestSession::flagshipSampleShowsTheCaseStudy()
{
    // The flagship sample shows what the X-model paper's case study shows, with Fermi's dependent-issue
    // latency and an ILP of one: a bistable X-graph (Fig. 9-B), a hysteresis loop with a jump each way in the
    // sweep the session names, and an advisor whose remedies gain for real from the low, thrashed state.
    const core::Session s
            = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/gtx570-thrashing.crossroof");
    QCOMPARE(s.params.L_c, 20.0);
    QVERIFY(s.params.E >= 1);
    QVERIFY(s.params.n <= s.params.max_warps);
    const core::XGraphResult r = core::XModel(s.params).solve();
    QCOMPARE(r.stableCount(), 2);
    QVERIFY(r.landmarks.psi && r.landmarks.valley);
    const core::Equilibrium &high = r.equilibria.front();
    const core::Equilibrium &low = r.equilibria.back();
    QCOMPARE(r.equilibria.size(), std::size_t(3));
    QCOMPARE(r.equilibria[1].bound, core::BoundClass::CacheThrashing); // the unstable root on the falling f
    QVERIFY(high.k < *r.landmarks.psi + 1); // near the cache peak
    QVERIFY(low.k > *r.landmarks.valley);   // past the valley: the cache no longer helps
    QVERIFY(*low.hit_rate < 0.7 * *high.hit_rate);
    QVERIFY(low.cs_gops < 0.9 * high.cs_gops);

    QCOMPARE(s.stability.sweep_key, std::string("Z"));
    std::vector<double> zs;
    for (double z = 4; z <= 20; z += 0.25)
        zs.push_back(z);
    const core::HysteresisResult h = core::sweepHysteresis(s.params, "Z", zs);
    QCOMPARE(h.jumps.size(), std::size_t(2));
    QVERIFY(h.jumps[0].rising != h.jumps[1].rising);
    // The sample's Z lies inside the loop: the up sweep jumps above it, the down sweep below it.
    for (const auto &jump : h.jumps)
        QVERIFY(jump.rising ? jump.from_value > s.params.Z : jump.to_value < s.params.Z);

    const core::Advice advice = core::advise(s.params);
    QVERIFY(advice.from_low_state);
    int real = 0;
    for (const auto &op : advice.operations) {
        if (op.applicable && op.rank <= 3) {
            QVERIFY2(op.low_cs_change_percent && *op.low_cs_change_percent > 10, op.why.c_str());
            ++real;
        }
    }
    QCOMPARE(real, 3);
}

void TestSession::badSessionsNameTheField_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated") << "\"markov\"" << "\"markov\": {" << "line";
    QTest::newRow("wrong type") << "\"Z\":3.25" << "\"Z\":\"high\"" << "field 'parameters.Z': must be a number";
    QTest::newRow("out of range") << "\"Z\":3.25" << "\"Z\":-1" << "field 'parameters.Z'";
    QTest::newRow("embedded profile") << "\"L\":437.0" << "\"L\":-437.0" << "field 'profile.parameters.L'";
    QTest::newRow("unknown view") << "\"current\":\"markov\"" << "\"current\":\"spiral\"" << "field 'view.current'";
    QTest::newRow("unroll out of range") << "\"unroll\":8" << "\"unroll\":17" << "field 'skeleton.unroll'";
    QTest::newRow("measured cycles") << "\"cycles\":410000.25" << "\"cycles\":-3"
                                     << "field 'skeleton.measured[1].cycles': must be";
    QTest::newRow("skeleton text type") << "\"profile\":\"epyc-9654\"" << "\"profile\":9654"
                                        << "field 'skeleton.profile'";
    QTest::newRow("bad grid") << "\"grid\":\"logit:200\"" << "\"grid\":\"spiral:3\"" << "field 'markov.grid'";
    QTest::newRow("bad topology source") << "\"clovertown-x5365/4T_4\"" << "\"4T_4\""
                                         << "field 'markov.topology_source': must be PROFILE/STRATEGY";
    QTest::newRow("bad latency") << "\"latency\":3.0" << "\"latency\":0.5"
                                 << "field 'markov.counters.stall[0].latency': must be";
    QTest::newRow("bad mapping point") << "\"p\":0.4" << "\"p\":1.4" << "field 'mapping.points[0].p'";
    QTest::newRow("bad own strategy core") << "\"cores\":[0,0,4,4]" << "\"cores\":[0,-4]"
                                           << "field 'mapping.own_strategies[0].cores': must hold whole core ids";
    QTest::newRow("bad mode") << "\"mode\":\"paper\"" << "\"mode\":\"guess\"" << "field 'occupancy.mode'";
    QTest::newRow("fractional threads") << "\"threads_per_block\":192" << "\"threads_per_block\":19.5"
                                        << "field 'occupancy.threads_per_block': must be a whole number";
    QTest::newRow("tmm text type") << "\"T1\":\"2.5e9\"" << "\"T1\":2.5e9" << "field 'tmm.T1': must be a string";
    QTest::newRow("tmm text length") << "\"M\":\"3e7\"" << ("\"M\":\"" + QString(65, QLatin1Char('7')) + "\"")
                                     << "field 'tmm.M': must be at most 64 characters";
    QTest::newRow("apsp n") << "\"apsp_n\":4096" << "\"apsp_n\":1" << "field 'tmm.apsp_n': must be between";
    QTest::newRow("misspelt field") << "\"markov\": {" << "\"markof\": {" << "field 'markof': is not a session field";
    QTest::newRow("roofline toggle") << "\"levels\":false" << "\"levels\":\"no\""
                                     << "field 'roofline.levels'";
    QTest::newRow("roofline field") << "\"names\":false" << "\"labels\":false"
                                    << "field 'roofline.labels': is not a session field";
    QTest::newRow("bad trace") << "\"visible\":false" << "\"visible\":3" << "field 'traces[0].visible'";
    QTest::newRow("not a session") << "\"crossroof-session\"" << "\"something-else\"" << "field 'format'";
}

void TestSession::badSessionsNameTheField()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    QString text = QString::fromStdString(core::sessionToJson(sample()));
    QVERIFY2(text.contains(from), qPrintable(from));
    if (QTest::currentDataTag() == QLatin1String("truncated"))
        text = text.left(text.indexOf(from)) + to; // cut off mid-file
    else
        text.replace(text.indexOf(from), from.size(), to);
    const QString error = errorOf(text.toStdString());
    QVERIFY2(error.startsWith(QLatin1String("s.crossroof: ")), qPrintable(error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestSession::newerVersionIsRefused()
{
    QString text = QString::fromStdString(core::sessionToJson(sample()));
    text.replace(QStringLiteral("\"format_version\": %1").arg(core::kSessionFormatVersion),
                 QStringLiteral("\"format_version\": 7"));
    const QString error = errorOf(text.toStdString());
    QVERIFY2(error.contains(QLatin1String("newer Crossroof")), qPrintable(error));
    QVERIFY(error.contains(QLatin1String("format 7")));
}

void TestSession::linkedTracesMoveWithTheSession()
{
    // study/sessions/a.crossroof links study/data/v100.txt and study/data/sweep.csv.
    QTemporaryDir dir;
    const QString study = dir.filePath(QStringLiteral("study"));
    QDir().mkpath(study + QStringLiteral("/sessions"));
    QDir().mkpath(study + QStringLiteral("/data"));
    QVERIFY(QFile::copy(kTestData + QStringLiteral("/gpu_stream_v100.txt"), study + QStringLiteral("/data/v100.txt")));
    writeFile(study + QStringLiteral("/data/sweep.csv"), "gpu;warps;GBs\nv100;4;100,5\nv100;8;180\na100;8;300\n");

    core::MeasuredTrace read = core::readTraceFile((study + QStringLiteral("/data/v100.txt")).toStdString()).traces[1];
    read.id = "t4";
    read.name = "V100 read, renamed";
    read.visible = false;
    core::TraceMapping mapping;
    mapping.x = "warps";
    mapping.y = "GBs";
    mapping.filter_column = "gpu";
    mapping.filter_value = "v100";
    core::MeasuredTrace sweep
            = core::traceFromTable(core::readCsv((study + QStringLiteral("/data/sweep.csv")).toStdString()), mapping);
    sweep.id = "t5";
    core::Session s = sample(); // its trace was not read from a file: it stays embedded
    s.traces.push_back(read);
    s.traces.push_back(sweep);
    s.link_traces = true;
    QVERIFY(!core::savesAsLink(s, s.traces[0]));
    QVERIFY(core::savesAsLink(s, s.traces[1]));

    const QString file = study + QStringLiteral("/sessions/a.crossroof");
    const std::string text = core::sessionToJson(s, file.toStdString());
    QVERIFY(text.find("\"link\":\"../data/v100.txt\"") != std::string::npos);
    QVERIFY(text.find("\"link\":\"../data/sweep.csv\"") != std::string::npos);
    QVERIFY(text.find(dir.path().toStdString()) == std::string::npos); // nothing absolute about the data
    QCOMPARE(QString::fromStdString(text).count(QStringLiteral("\"x\":[")), 1); // points of the embedded one only
    writeFile(file, text);

    core::Session back = core::loadSessionFile(file.toStdString());
    QVERIFY(back.trace_problems.empty());
    QVERIFY(back.link_traces);
    QCOMPARE(back.traces.size(), std::size_t(3));
    QVERIFY(back.traces[0] == s.traces[0]);
    QVERIFY(back.traces[1] == read); // the same importer, so the same points; the session's name, id, visibility
    QVERIFY(back.traces[2] == sweep); // the same mapping and filter

    // The session and its data moved together, elsewhere.
    const QString moved = dir.filePath(QStringLiteral("moved"));
    QVERIFY(QDir().rename(study, moved));
    back = core::loadSessionFile((moved + QStringLiteral("/sessions/a.crossroof")).toStdString());
    QVERIFY(back.trace_problems.empty());
    QCOMPARE(back.traces.size(), std::size_t(3));
    QCOMPARE(back.traces[1].x, read.x);
    QCOMPARE(back.traces[1].source, (moved + QStringLiteral("/data/v100.txt")).toStdString());

    // A file gone: the session opens without that trace and says which field and file.
    QVERIFY(QFile::remove(moved + QStringLiteral("/data/v100.txt")));
    back = core::loadSessionFile((moved + QStringLiteral("/sessions/a.crossroof")).toStdString());
    QCOMPARE(back.traces.size(), std::size_t(2));
    QCOMPARE(back.traces[1].name, sweep.name);
    QVERIFY(back.params == s.params);
    QVERIFY(back.occupancy == s.occupancy);
    QCOMPARE(back.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(back.trace_problems.front());
    QVERIFY2(problem.contains(QStringLiteral("a.crossroof: field 'traces[1].link' (../data/v100.txt)"))
                     && problem.contains(moved + QStringLiteral("/data/v100.txt")),
             qPrintable(problem));
    // Saved again, a trace whose file is gone keeps its points.
    s.traces[1].source = (moved + QStringLiteral("/data/v100.txt")).toStdString();
    QVERIFY(!core::savesAsLink(s, s.traces[1]));
}

void TestSession::unreadableLinksLeaveTheTraceOut_data()
{
    QTest::addColumn<QString>("record");
    QTest::addColumn<QString>("problem");
    const QString stream = QStringLiteral(R"("origin": {"format": "gpu-stream", "index": %1})");
    const QString head = QStringLiteral(R"({"id": "t1", "name": "n", "kind": "%1", "link": "%2", )");
    QTest::newRow("missing") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("gone.txt"))
                                        + stream.arg(0) + QStringLiteral("}")
                             << kTestData + QStringLiteral("/gone.txt: cannot read");
    QTest::newRow("fewer traces") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("gpu_stream_v100.txt"))
                                             + stream.arg(40) + QStringLiteral("}")
                                  << QStringLiteral("holds 6 traces, not the 41");
    QTest::newRow("other kind") << head.arg(QStringLiteral("runtimes"), QStringLiteral("gpu_stream_v100.txt"))
                                           + stream.arg(0) + QStringLiteral("}")
                                << QStringLiteral("now gives a bandwidth-vs-warps trace, not the runtimes trace");
    QTest::newRow("other format") << head.arg(QStringLiteral("bandwidth-vs-warps"), QStringLiteral("perf_stat_excerpt.tsv"))
                                             + stream.arg(0) + QStringLiteral("}")
                                  << kTestData + QStringLiteral("/perf_stat_excerpt.tsv:");
}

void TestSession::unreadableLinksLeaveTheTraceOut()
{
    QFETCH(QString, record);
    QFETCH(QString, problem);
    const core::Session s = core::parseSession(withTraces("[" + record.toStdString() + "]"), "s.crossroof",
                                               kTestData.toStdString());
    QVERIFY(s.traces.empty());
    QVERIFY(s.params == sample().params);
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString message = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(message.startsWith(QStringLiteral("s.crossroof: field 'traces[0].link' (")), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestSession::badLinksNameTheField_data()
{
    QTest::addColumn<QString>("record");
    QTest::addColumn<QString>("message");
    const QString origin = QStringLiteral(R"("origin": {"format": "gpu-stream"})");
    QTest::newRow("empty link") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "", )")
                                           + origin + QStringLiteral("}")
                                << "field 'traces[0].link': must not be empty";
    QTest::newRow("no origin") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt"})")
                               << "field 'traces[0].origin': is missing";
    QTest::newRow("bad origin")
            << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt", "origin": {"format": "xls"}})")
            << "field 'traces[0].origin.format': must be gpu-stream";
    QTest::newRow("link and points") << QStringLiteral(R"({"id": "t1", "name": "n", "kind": "runtimes", "link": "a.txt", "x": [1], )")
                                                + origin + QStringLiteral("}")
                                     << "field 'traces[0].x': a linked trace has no points";
    QTest::newRow("no name") << QStringLiteral(R"({"id": "t1", "kind": "runtimes", "link": "a.txt", )") + origin
                                        + QStringLiteral("}")
                             << "field 'traces[0].name': is missing";
}

void TestSession::badLinksNameTheField()
{
    QFETCH(QString, record);
    QFETCH(QString, message);
    const QString error = errorOf(withTraces("[" + record.toStdString() + "]"));
    QVERIFY2(error.startsWith(QLatin1String("s.crossroof: ")) && error.contains(message), qPrintable(error));
}

void TestSession::linkToAFifoIsLeftOutInTime()
{
    // A linked file that became a FIFO nobody writes to: the session opens, without that trace, after the
    // reader's wait rather than never.
    QTemporaryDir dir;
    QVERIFY(::mkfifo(dir.filePath(QStringLiteral("sweep.csv")).toLocal8Bit().constData(), 0600) == 0);
    const std::string record = R"({"id": "t1", "name": "n", "kind": "bandwidth-vs-warps", "link": "sweep.csv", )"
                               R"("origin": {"format": "table", "index": 0, "mapping": {"kind": "bandwidth-vs-warps", "x": "warps", "y": "GBs"}}})";
    QElapsedTimer clock;
    clock.start();
    const core::Session s = core::parseSession(withTraces("[" + record + "]"), "s.crossroof", dir.path().toStdString());
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 + 3000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(s.traces.empty());
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(problem.startsWith(QStringLiteral("s.crossroof: field 'traces[0].link' (sweep.csv): "))
                     && problem.contains(dir.filePath(QStringLiteral("sweep.csv")) + QStringLiteral(": a FIFO that no program writes to")),
             qPrintable(problem));
}

void TestSession::manyLinksToOneFileReadItOnce()
{
    // 300 traces linked to one measurement file (each of its six kernels 50 times): the file is read once
    // per opening of the session, not once per trace; every trace is what a read of its own gives.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(kTestData + QStringLiteral("/gpu_stream_v100.txt"), dir.filePath(QStringLiteral("v100.txt"))));
    const std::vector<core::MeasuredTrace> direct
            = core::readTraceFile(dir.filePath(QStringLiteral("v100.txt")).toStdString()).traces;
    QCOMPARE(direct.size(), std::size_t(6));
    std::string records;
    for (int i = 0; i < 300; ++i) {
        records += (i ? ", " : "") + ("{\"id\": \"t" + std::to_string(i) + "\", \"name\": \"n\", "
                   "\"kind\": \"bandwidth-vs-warps\", \"link\": \"v100.txt\", "
                   "\"origin\": {\"format\": \"gpu-stream\", \"index\": " + std::to_string(i % 6) + "}}");
    }
    const std::string text = withTraces("[" + records + "]");
    const std::uint64_t before = core::textFilesRead();
    const core::Session s = core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QCOMPARE(core::textFilesRead() - before, std::uint64_t(1));
    QVERIFY(s.trace_problems.empty());
    QCOMPARE(s.traces.size(), std::size_t(300));
    for (std::size_t i = 0; i < s.traces.size(); ++i) {
        QCOMPARE(s.traces[i].x, direct[i % 6].x);
        QCOMPARE(s.traces[i].y, direct[i % 6].y);
    }
    // Opened again, the file is read again (it may have changed in between).
    (void)core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QCOMPARE(core::textFilesRead() - before, std::uint64_t(2));

    // Links to a FIFO nobody writes to: one wait, not one per trace, and each trace says why it is missing.
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("v100.txt"))));
    QVERIFY(::mkfifo(dir.filePath(QStringLiteral("v100.txt")).toLocal8Bit().constData(), 0600) == 0);
    QElapsedTimer clock;
    clock.start();
    const core::Session stuck = core::parseSession(text, "s.crossroof", dir.path().toStdString());
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 + 3000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(stuck.traces.empty());
    QCOMPARE(stuck.trace_problems.size(), std::size_t(300));
    QVERIFY2(QString::fromStdString(stuck.trace_problems.back()).contains(QStringLiteral("a FIFO that no program writes to")),
             stuck.trace_problems.back().c_str());
}

void TestSession::linksPastThePointLimitAreLeftOut()
{
    // 17 links to a table of 2^21 intervals: 16 of them fill the 2^25 points a session's traces may hold in all,
    // and the 17th is left out with a problem that says why (500 links to a table of 400,000 rows took 9.5 GB
    // and two minutes to draw, each trace its own copy of the points).
    QTemporaryDir dir;
    {
        QFile table(dir.filePath(QStringLiteral("bytes.csv")));
        QVERIFY(table.open(QIODevice::WriteOnly));
        QByteArray text("bytes\n");
        text.reserve(8 << 21);
        for (int i = 0; i < (1 << 21); ++i)
            text += QByteArray::number(1000 + i % 5000) + '\n';
        table.write(text);
    }
    std::string records;
    for (int i = 0; i < 17; ++i) {
        records += (i ? ", " : "") + ("{\"id\": \"t" + std::to_string(i) + "\", \"name\": \"n\", "
                   "\"kind\": \"bytes-per-interval\", \"link\": \"bytes.csv\", \"origin\": {\"format\": \"table\", "
                   "\"index\": 0, \"mapping\": {\"kind\": \"bytes-per-interval\", \"y\": \"bytes\"}}}");
    }
    const core::Session s = core::parseSession(withTraces("[" + records + "]"), "s.crossroof", dir.path().toStdString());
    QCOMPARE(s.traces.size(), std::size_t(16));
    QCOMPARE(s.traces.back().y.size(), std::size_t(1) << 21);
    QCOMPARE(s.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(s.trace_problems.front());
    QVERIFY2(problem.contains(QStringLiteral("s.crossroof: field 'traces[16].link'"))
                     && problem.contains(QStringLiteral("left out: its 2097152 points would put the session's traces "
                                                        "over 33554432 points in all")),
             qPrintable(problem));
}

void TestSession::sessionNearTheSizeLimitSavesAndOpensAgain()
{
    // A session just under the read limit (millions of numbers) is saved compactly, so it opens again: an
    // indented file with every number on a line of its own would have been over the limit, and lost.
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("large.crossroof")).toStdString();
    const core::Session s = withLargeTrace(pointsForSessionBytes(core::kMaxSessionBytes - 4096));
    QCOMPARE(core::saveSessionFile(s, file), std::string());
    const auto size = std::filesystem::file_size(file);
    QVERIFY2(size > core::kMaxSessionBytes - 8192 && size <= core::kMaxSessionBytes, qPrintable(QString::number(size)));
    const core::Session back = core::loadSessionFile(file);
    QCOMPARE(back.traces.size(), s.traces.size());
    QVERIFY(back.traces.back() == s.traces.back());
    QVERIFY(back.params == s.params);
}

void TestSession::sessionOverTheSizeLimitIsRefusedBeforeWriting()
{
    // A session that would be over the read limit is not written: the file saved before stays whole, nothing
    // is left beside it, and the message says why and what to do.
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("keep.crossroof")).toStdString();
    QCOMPARE(core::saveSessionFile(sample(), file), std::string());
    std::ifstream in(file, std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const core::Session big = withLargeTrace(pointsForSessionBytes(core::kMaxSessionBytes + 4096));
    const QString why = QString::fromStdString(core::saveSessionFile(big, file));
    QVERIFY2(why.contains(QStringLiteral("over the 64 MiB a session file may hold"))
                     && why.contains(QStringLiteral("link its traces")) && !why.contains(QLatin1Char('\n')),
             qPrintable(why));
    std::ifstream again(file, std::ios::binary);
    QCOMPARE(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("keep.crossroof")});
    QVERIFY(core::loadSessionFile(file).params == sample().params);
}

void TestSession::trainingRunsKernelsAndZoomAreKept()
{
    // The Extrapolate view's training runs (embedded: the file may be gone when the session is opened), the
    // Kernels dock's file (relative to the session) and two zoomed plots.
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("data/ncu.csv"));
    QDir().mkpath(dir.filePath(QStringLiteral("data")));
    QVERIFY(QFile::copy(kTestData + QStringLiteral("/ncu_h100_raw.csv"), data));
    core::Session s = sample();
    s.extrapolate.training = core::readTrainingSet(kTraining.toStdString());
    s.extrapolate.smoothing = false;
    s.kernel_file = data.toStdString();
    s.zoom = {{"xgraph", 0, 2.5, 30.25, 10, 700}, {"stability", 1, 4, 48, 0.5, 1e3}};
    const QString file = dir.filePath(QStringLiteral("a.crossroof"));
    const std::string text = core::sessionToJson(s, file.toStdString());
    const nlohmann::json written = nlohmann::json::parse(text);
    QCOMPARE(written["kernel_file"].get<std::string>(), std::string("data/ncu.csv")); // relative to the session
    QCOMPARE(written["extrapolate"]["rows"].size(), s.extrapolate.training->rows.size());
    writeFile(file, text);

    const core::Session back = core::loadSessionFile(file.toStdString());
    QVERIFY(back.trace_problems.empty());
    QVERIFY(back.extrapolate.training);
    QVERIFY(sameTraining(*back.extrapolate.training, *s.extrapolate.training));
    QCOMPARE(back.extrapolate.training->rows.size(), std::size_t(s.extrapolate.training->rows.size()));
    QVERIFY(!back.extrapolate.smoothing);
    QCOMPARE(QFileInfo(QString::fromStdString(back.kernel_file)).canonicalFilePath(), QFileInfo(data).canonicalFilePath());
    QVERIFY(back.zoom == s.zoom);

    // None of it: none back, and smoothing on.
    const core::Session plain = core::parseSession(core::sessionToJson(sample()), "p.crossroof");
    QVERIFY(!plain.extrapolate.training);
    QVERIFY(plain.extrapolate.smoothing);
    QVERIFY(plain.kernel_file.empty());
    QVERIFY(plain.zoom.empty());
}

void TestSession::linkedTrainingRunsAreReadAgain()
{
    QTemporaryDir dir;
    const QString training = dir.filePath(QStringLiteral("runs/training.csv"));
    QDir().mkpath(dir.filePath(QStringLiteral("runs")));
    QVERIFY(QFile::copy(kTraining, training));
    core::Session s = sample();
    s.traces.clear();
    s.link_traces = true;
    s.extrapolate.training = core::readTrainingSet(training.toStdString());
    QVERIFY(core::savesTrainingAsLink(s));
    const QString file = dir.filePath(QStringLiteral("s/a.crossroof"));
    const std::string text = core::sessionToJson(s, file.toStdString());
    const nlohmann::json written = nlohmann::json::parse(text);
    QCOMPARE(written["extrapolate"]["link"].get<std::string>(), std::string("../runs/training.csv"));
    QVERIFY(!written["extrapolate"].contains("rows"));
    writeFile(file, text);
    const core::Session back = core::loadSessionFile(file.toStdString());
    QVERIFY(back.trace_problems.empty());
    QVERIFY(back.extrapolate.training);
    QCOMPARE(back.extrapolate.training->rows.size(), s.extrapolate.training->rows.size());
    QCOMPARE(back.extrapolate.training->rows.back().p, s.extrapolate.training->rows.back().p);

    // The file gone: the session opens without the runs and says which field and file.
    QVERIFY(QFile::remove(training));
    const core::Session gone = core::loadSessionFile(file.toStdString());
    QVERIFY(!gone.extrapolate.training);
    QCOMPARE(gone.trace_problems.size(), std::size_t(1));
    const QString problem = QString::fromStdString(gone.trace_problems.front());
    QVERIFY2(problem.contains(QLatin1String("field 'extrapolate.link' (../runs/training.csv)")), qPrintable(problem));
}

void TestSession::badTrainingRunsAndZoomNameTheField_data()
{
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("p beyond 1") << "/extrapolate/rows/0/p" << "1.05" << "field 'extrapolate.rows[0].p': must be";
    QTest::newRow("groups not whole") << "/extrapolate/rows/3/num_l2" << "1.5"
                                      << "field 'extrapolate.rows[3].num_l2': must be a whole number";
    QTest::newRow("no strategy") << "/extrapolate/rows/2/strategy" << "\"\"" << "field 'extrapolate.rows[2].strategy'";
    QTest::newRow("too few rows") << "/extrapolate/rows" << "[]"
                                  << "field 'extrapolate.rows': " CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv: 0 training rows; a model tree needs at least 8";
    QTest::newRow("rows and link") << "/extrapolate/link" << "\"runs.csv\""
                                   << "field 'extrapolate.link': linked training runs have no rows";
    QTest::newRow("misspelt") << "/extrapolate/smooth" << "true" << "field 'extrapolate.smooth': is not a session field";
    QTest::newRow("empty zoom") << "/view/zoom/0/x" << "[5, 5]"
                                << "field 'view.zoom[0].x': must be [lower, upper] with lower < upper";
    QTest::newRow("zoom not a pair") << "/view/zoom/0/y" << "[1, 2, 3]" << "field 'view.zoom[0].y': must be [lower, upper]";
    QTest::newRow("zoom of no view") << "/view/zoom/0/view" << "\"spiral\"" << "field 'view.zoom[0].view': is not a view";
    QTest::newRow("kernel file") << "/kernel_file" << "7" << "field 'kernel_file': must be a string";
}

void TestSession::badTrainingRunsAndZoomNameTheField()
{
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    core::Session s = sample();
    s.extrapolate.training = core::readTrainingSet(kTraining.toStdString());
    s.zoom = {{"xgraph", 0, 2.5, 30.25, 10, 700}};
    nlohmann::json doc = nlohmann::json::parse(core::sessionToJson(s));
    doc[nlohmann::json::json_pointer(pointer.toStdString())] = nlohmann::json::parse(value.toStdString());
    const QString error = errorOf(doc.dump());
    QVERIFY2(error.contains(expected), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestSession)
#include "tst_session.moc"
