// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_fixtures.h"

using namespace crossroof;
using namespace crossroof::session_test;

namespace {

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
    void sessionNearTheSizeLimitSavesAndOpensAgain();
    void sessionOverTheSizeLimitIsRefusedBeforeWriting();
    void trainingRunsKernelsAndZoomAreKept();
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
    s.extrapolate.measured = core::readCpiMeasurements(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-measured-cpi.csv");
    s.extrapolate.measured_source = "modeltree-measured-cpi.csv";
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
    // The measured CPI the predictions are checked against: every measurement, as read.
    QCOMPARE(back.extrapolate.measured.size(), std::size_t(12));
    QVERIFY(back.extrapolate.measured == s.extrapolate.measured);
    QCOMPARE(back.extrapolate.measured_source, s.extrapolate.measured_source);
    QCOMPARE(QFileInfo(QString::fromStdString(back.kernel_file)).canonicalFilePath(), QFileInfo(data).canonicalFilePath());
    QVERIFY(back.zoom == s.zoom);

    // None of it: none back, and smoothing on.
    const core::Session plain = core::parseSession(core::sessionToJson(sample()), "p.crossroof");
    QVERIFY(!plain.extrapolate.training);
    QVERIFY(plain.extrapolate.smoothing);
    QVERIFY(plain.extrapolate.measured.empty());
    QVERIFY(plain.kernel_file.empty());
    QVERIFY(plain.zoom.empty());
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
    QTest::newRow("measured CPI below 1") << "/extrapolate/measured" << R"({"rows": [{"size": 160, "strategy": "a", "cpi": 0.5}]})"
                                          << "field 'extrapolate.measured.rows[0].cpi'";
    QTest::newRow("measured CPI misspelt") << "/extrapolate/measured" << R"({"rows": [{"size": 160, "strategy": "a", "CPI": 1.5}]})"
                                           << "field 'extrapolate.measured.rows[0].CPI': is not";
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
