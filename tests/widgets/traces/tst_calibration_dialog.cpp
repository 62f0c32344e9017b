// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/calibration_dialog.h"
#include "core/support/error.h"
#include "core/profiles/hardware_profile.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "core/traces/trace_set.h"
#include "core/xmodel/measured_curve.h"
#include "state/trace_state.h"
#include "core/xmodel/xmodel.h"

#include "support/full_disk.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const QString kStream = QStringLiteral(CROSSROOF_SHARED_DIR "/data/gpu-benches/stream/v100.txt");

/// A cache-shaped trace made by the model itself, so a fit must find it again: POINTS points from k = 1 to 64.
core::MeasuredTrace fixedCacheTrace(const core::XModelParams &machine, double Ls, double h, int points = 64)
{
    core::XModelParams p = machine;
    p.cache = core::CacheMode::Fixed;
    p.L_s = Ls;
    p.h = h;
    const core::XModel model(p);
    core::MeasuredTrace t;
    t.name = "synthetic cache";
    t.source = "/data/synthetic.csv";
    for (int i = 0; i < points; ++i) {
        const double k = 1 + 63.0 * i / (points - 1);
        t.x.push_back(k);
        t.y.push_back(model.toGbs(model.msSupply(k)));
    }
    return t;
}

/// The H100 SXM's measured thrashing curve with BYTES per warp (cache.csv: warps_per_sm, request_gbs).
core::MeasuredTrace h100ThrashingTrace(const QByteArray &bytes = "16384")
{
    core::MeasuredTrace t;
    t.name = "H100 " + std::to_string(bytes.toInt() / 1024) + " KiB per warp";
    t.kind = core::TraceKind::BandwidthVsWarps;
    t.source = CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/cache.csv";
    QFile file(QString::fromStdString(t.source));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return t;
    file.readLine(); // warps_per_sm,bytes_per_warp,fma_per_request,Z,ms,request_gbs
    while (!file.atEnd()) {
        const QList<QByteArray> cells = file.readLine().trimmed().split(',');
        if (cells.size() == 6 && cells[1] == bytes) {
            t.x.push_back(cells[0].toDouble());
            t.y.push_back(cells[5].toDouble());
        }
    }
    return t;
}

} // namespace

class TestCalibrationDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void rooflineFitOfTheV100InitTrace();
    void applyIsOneUndoStep();
    void saveAsProfileWritesALoadableProfile();
    void cacheFitFindsTheModelAgain();
    void longTraceSaysWhichPointsWereFitted();
    void twoLevelFitFollowsTheH100ThrashingCurve();
    void withoutATraceItSaysWhatToDo();
    void aMeasuredSupplyIsNeverTheFit();
    void followsTheTraceList();
    void heldKeysErrorsAndWarnings();
    void tracesOfOneMachineTogether();

private:
    QString loadV100();

    ParameterState *m_state = nullptr;
    TraceState *m_traces = nullptr;
    CalibrationDialog *m_dialog = nullptr;
};

void TestCalibrationDialog::init()
{
    m_state = new ParameterState;
    m_state->applyProfile(*core::findBundledProfile("v100"));
    m_state->undoStack()->clear();
    m_traces = new TraceState(m_state);
    m_dialog = new CalibrationDialog(m_traces, m_state);
}

void TestCalibrationDialog::cleanup()
{
    delete m_dialog;
    delete m_state;
}

QString TestCalibrationDialog::loadV100()
{
    TraceLoad load = loadTraceFile(kStream, QStringLiteral("v100"));
    if (!load.ok())
        return {};
    return m_traces->add(std::move(load.traces)).front(); // "v100 init"
}

void TestCalibrationDialog::rooflineFitOfTheV100InitTrace()
{
    if (!QFile::exists(kStream))
        QSKIP("../shared/data/gpu-benches is not here");
    const QString id = loadV100();
    QVERIFY(m_dialog->setTrace(id));
    QCOMPARE(m_dialog->model(), CalibrationDialog::Model::Roofline);
    QVERIFY2(m_dialog->fit(), qPrintable(m_dialog->error()));
    const auto &fit = *m_dialog->rooflineFit();
    const auto &y = m_traces->trace(id)->y;
    const double measuredMax = *std::max_element(y.begin(), y.end());
    QVERIFY2(std::abs(fit.R_gbs / measuredMax - 1) <= 0.03, qPrintable(QString::number(fit.R_gbs)));
    QVERIFY(fit.r2 >= 0.99);
    QCOMPARE(m_dialog->r2(), fit.r2);

    // L = gbsPerRequestRate / s: with it the X-model's f(k) reproduces the fitted slope.
    const auto values = m_dialog->fittedValues();
    QCOMPARE(values[0].first, QStringLiteral("R"));
    QCOMPARE(values[1].first, QStringLiteral("L"));
    const double L = values[1].second;
    QVERIFY(std::abs(L - m_state->params().gbsPerRequestRate() / fit.slope_gbs_per_warp) < 1e-9 * L);
    core::XModelParams p = m_state->params();
    p.R = fit.R_gbs;
    p.L = L;
    const core::XModel model(p);
    for (double k : {1.0, 5.0, 10.0, 40.0})
        QVERIFY(std::abs(model.toGbs(model.msSupply(k)) - fit.predict(k)) < 1e-6 * fit.R_gbs);

    // The plots: points, curve, residuals; the readout has units.
    QCOMPARE(m_dialog->dataPlot()->graph(0)->dataCount(), 32);
    QVERIFY(m_dialog->dataPlot()->graph(1)->dataCount() > 100);
    QCOMPARE(m_dialog->residualPlot()->graph(1)->dataCount(), 32);
    QVERIFY(m_dialog->resultLabel()->text().contains(QStringLiteral("GB/s")));
    QVERIFY(m_dialog->resultLabel()->text().contains(QStringLiteral("cycles")));
    QVERIFY(m_dialog->resultLabel()->text().contains(QStringLiteral("r²")));
    QVERIFY(m_dialog->applyButton()->isEnabled());
}

void TestCalibrationDialog::applyIsOneUndoStep()
{
    if (!QFile::exists(kStream))
        QSKIP("../shared/data/gpu-benches is not here");
    m_state->applyCacheMode(core::CacheMode::Fixed);
    const int steps = m_state->undoStack()->count();
    const core::XModelParams before = m_state->params();
    m_dialog->setTrace(loadV100());
    const auto values = m_dialog->fittedValues();
    m_dialog->apply();
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    QVERIFY(std::abs(m_state->params().R - values[0].second) < 1e-9);
    QVERIFY(std::abs(m_state->params().L - values[1].second) < 1e-9);
    QCOMPARE(m_state->params().cache, core::CacheMode::None); // the roofline is the no-cache curve
    // Applying again changes nothing and adds no step.
    m_dialog->apply();
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params(), before);
    m_state->undoStack()->redo();
    QVERIFY(std::abs(m_state->params().L - values[1].second) < 1e-9);
}

void TestCalibrationDialog::saveAsProfileWritesALoadableProfile()
{
    if (!QFile::exists(kStream))
        QSKIP("../shared/data/gpu-benches is not here");
    m_dialog->setTrace(loadV100());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("V100 lab.json"));
    const QString error = m_dialog->saveProfile(path);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const core::HardwareProfile prof = core::loadProfileFile(path.toStdString());
    QCOMPARE(prof.id, std::string("v100-lab"));
    QCOMPARE(prof.name, std::string("Tesla V100 (Volta) (calibrated)"));
    QVERIFY(std::abs(prof.params.R - m_dialog->rooflineFit()->R_gbs) < 1e-9);
    QVERIFY(std::abs(prof.params.L - m_dialog->fittedValues()[1].second) < 1e-9);
    QCOMPARE(prof.params.sm_count, 80.0);
    // The fitted fields have one source now: the calibration, naming the file.
    int naming = 0;
    for (const auto &s : prof.sources) {
        if (std::find(s.fields.begin(), s.fields.end(), "R") != s.fields.end()) {
            ++naming;
            QVERIFY(s.text.find(kStream.toStdString()) != std::string::npos);
            QVERIFY(s.text.find("r^2") != std::string::npos);
        }
    }
    QCOMPARE(naming, 1);
    // An unwritable place leaves a clear error.
    QVERIFY(!m_dialog->saveProfile(QStringLiteral("/nonexistent/dir/x.json")).isEmpty());
    // Saving over a profile on a full disk keeps the old one whole and says why.
    QFile old(path);
    QVERIFY(old.open(QIODevice::ReadOnly));
    const QByteArray before = old.readAll();
    old.close();
    QVERIFY(old.resize(before.size() / 2)); // the profile of yesterday, smaller than today's
    const QByteArray yesterday = before.left(before.size() / 2);
    QString full;
    {
        const test::FullDisk disk(rlim_t(yesterday.size()));
        QVERIFY(disk.active());
        full = m_dialog->saveProfile(path);
    }
    QVERIFY2(full.contains(path), qPrintable(full));
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), yesterday);
}

void TestCalibrationDialog::cacheFitFindsTheModelAgain()
{
    const QString id = m_traces->add(fixedCacheTrace(m_state->params(), 120, 0.35));
    m_dialog->setTrace(id);
    m_dialog->setModel(CalibrationDialog::Model::FixedCache);
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    QVERIFY(m_dialog->cacheFit());
    const auto values = m_dialog->fittedValues();
    QCOMPARE(values.size(), 2);
    QVERIFY2(std::abs(values[0].second - 120) < 0.5, qPrintable(QString::number(values[0].second)));
    QVERIFY(std::abs(values[1].second - 0.35) < 0.005);
    QVERIFY(m_dialog->r2() > 0.9999);

    const int steps = m_state->undoStack()->count();
    m_dialog->apply();
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    QCOMPARE(m_state->params().cache, core::CacheMode::Fixed);
    QVERIFY(std::abs(m_state->params().h - values[1].second) < 1e-12);
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params().cache, core::CacheMode::None);

    m_dialog->setModel(CalibrationDialog::Model::LocalityCache);
    QVERIFY(m_dialog->cacheFit());
    QCOMPARE(m_dialog->fittedValues().size(), 3);
    QVERIFY(m_dialog->resultLabel()->text().contains(QStringLiteral("KiB")));
}

void TestCalibrationDialog::longTraceSaysWhichPointsWereFitted()
{
    // A cache fit iterates on at most core::kCacheFitPointLimit points of a longer trace; the result says so,
    // as fit-trace does, and the fit still finds the model. A trace within the limit says nothing of it.
    m_dialog->setTrace(m_traces->add(fixedCacheTrace(m_state->params(), 120, 0.35, 3000)));
    m_dialog->setModel(CalibrationDialog::Model::FixedCache);
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    QVERIFY(m_dialog->cacheFit());
    QCOMPARE(m_dialog->cacheFit()->fit_points, core::kCacheFitPointLimit);
    QVERIFY(std::abs(m_dialog->fittedValues()[0].second - 120) < 0.5);
    const QString text = m_dialog->resultLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("Fitted on 2048 of the 3000 points, spread evenly over k; RMSE, r² and "
                                          "the residuals are over every point.")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("&nbsp;3000</td>")), qPrintable(text));

    m_dialog->setTrace(m_traces->add(fixedCacheTrace(m_state->params(), 120, 0.35)));
    QVERIFY(m_dialog->cacheFit());
    QCOMPARE(m_dialog->cacheFit()->fit_points, std::size_t(64));
    QVERIFY(!m_dialog->resultLabel()->text().contains(QStringLiteral("Fitted on")));
}

void TestCalibrationDialog::twoLevelFitFollowsTheH100ThrashingCurve()
{
    const core::HardwareProfile *profile = core::findBundledProfile("h100-sxm");
    QVERIFY(profile);
    m_state->applyProfile(*profile);
    m_state->undoStack()->clear();
    const core::MeasuredTrace trace = h100ThrashingTrace();
    QCOMPARE(trace.x.size(), std::size_t(32));
    m_dialog->setTrace(m_traces->add(trace));
    m_dialog->setModel(CalibrationDialog::Model::TwoLevelCache);
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    QVERIFY(m_dialog->cacheFit());
    QVERIFY2(m_dialog->r2() >= 0.9, qPrintable(QString::number(m_dialog->r2())));
    QStringList keys;
    for (const auto &[key, value] : m_dialog->fittedValues()) {
        keys << key;
        QVERIFY2(std::isfinite(value) && value > 0, qPrintable(key));
    }
    QCOMPARE(keys, QStringList({"L_s", "L_2", "L", "R", "R_dram", "R_l2", "beta", "S_2", "alpha", "alpha_2"}));
    // The panel does not call R and L held while it fits them, and names alpha_2 as its slider does (γ₂).
    const QString before = m_dialog->resultLabel()->text();
    QVERIFY2(!before.contains(QStringLiteral("R = ")) && !before.contains(QStringLiteral("L = ")), qPrintable(before));
    QVERIFY2(before.contains(QStringLiteral("Held from the current parameters: S_s = 228 KiB")), qPrintable(before));
    QVERIFY2(before.contains(QStringLiteral("<td>γ₂ (alpha_2)</td>")), qPrintable(before));
    QVERIFY(!before.contains(QStringLiteral("α_2")));
    QVERIFY(m_dialog->modelBox()->currentText().endsWith(QStringLiteral("α and γ₂")));

    // Apply: the two-level mode and all ten values in one undo step; the model then draws the fitted curve.
    const int steps = m_state->undoStack()->count();
    m_dialog->apply();
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    // "(now …)" gives the values now set, not those before Apply.
    const QString after = m_dialog->resultLabel()->text();
    for (const QString &key : keys) {
        const QString now = QStringLiteral("(now %1)").arg(formatNumber(m_state->value(key)));
        QVERIFY2(after.contains(now), qPrintable(key + QLatin1Char(' ') + now + QLatin1Char(' ') + after));
    }
    QVERIFY2(!after.contains(QStringLiteral("(now 40.4)")), qPrintable(after)); // the profile's L_s
    QCOMPARE(m_state->params().cache, core::CacheMode::TwoLevel);
    const core::XModel model(m_state->params());
    double sse = 0;
    double sst = 0;
    double mean = 0;
    for (double y : trace.y)
        mean += y / double(trace.y.size());
    for (std::size_t i = 0; i < trace.x.size(); ++i) {
        sse += std::pow(model.toGbs(model.msSupply(trace.x[i])) - trace.y[i], 2);
        sst += std::pow(trace.y[i] - mean, 2);
    }
    QVERIFY2(1 - sse / sst >= 0.89, qPrintable(QString::number(1 - sse / sst))); // slider rounding aside
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params().cache, profile->params.cache);
}

void TestCalibrationDialog::aMeasuredSupplyIsNeverTheFit()
{
    // The H100 sample as a user opens it: its 16 KiB trace is "Use as f(k)". Fitting the 8 KiB curve must fit
    // the analytic model the dialog names, not draw the measured 16 KiB curve as the fit (it did: RMSE 1650 GB/s,
    // r² −2.9, whatever the parameters).
    const core::Session session
            = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    m_state->setProfile(session.profile, session.params);
    m_traces->setTraces(session.traces);
    const QString supply = QString::fromStdString(session.supply_trace);
    QVERIFY(m_traces->trace(supply));
    m_state->applySupplyCurve(core::measuredCurveFromTrace(*m_traces->trace(supply)), supply);
    QVERIFY(m_state->params().measured_f);
    const core::MeasuredTrace eight = h100ThrashingTrace("8192");
    QCOMPARE(eight.x.size(), std::size_t(32));
    const QString id = m_traces->add(eight);

    for (const auto model : {CalibrationDialog::Model::LocalityCache, CalibrationDialog::Model::TwoLevelCache}) {
        m_dialog->setModel(model);
        QVERIFY(m_dialog->setTrace(id));
        QVERIFY2(m_dialog->fit(), qPrintable(m_dialog->error()));
        const core::CacheFit withMeasured = *m_dialog->cacheFit();
        QVERIFY(!withMeasured.params.measured_f);
        // The drawn curve is the fitted analytic one: at the trace's k it is the 8 KiB data less the residuals,
        // and it is not the 16 KiB measured curve.
        const QCPGraph *curve = m_dialog->dataPlot()->graph(1);
        const core::XModel fitted(withMeasured.params);
        const core::MeasuredCurve &sixteen = *m_state->params().measured_f;
        double apart = 0;
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it) {
            QVERIFY(std::abs(it->value - fitted.toGbs(fitted.msSupply(it->key))) <= 1e-9 * std::max(1.0, it->value));
            if (it->key >= 1 && it->key <= 64)
                apart = std::max(apart, std::abs(it->value - sixteen.value(it->key)));
        }
        QVERIFY2(apart > 500, qPrintable(QString::number(apart)));
        // The analytic fits as they are with the measured curve off: r² 0.288 with R and L held (locality), 0.907
        // with them fitted too (two levels); the measured curve as "the fit" gave r² −2.9 for both.
        const double least = model == CalibrationDialog::Model::LocalityCache ? 0.25 : 0.85;
        QVERIFY2(withMeasured.r2 > least,
                 qPrintable(QStringLiteral("r² %1, RMSE %2").arg(withMeasured.r2).arg(withMeasured.rmse)));
        // The dialog says that the X-graph still draws the measured curve.
        QVERIFY2(m_dialog->resultLabel()->text().contains(QStringLiteral("measured f(k)")),
                 qPrintable(m_dialog->resultLabel()->text()));

        // The same fit with the measured curve switched off.
        m_state->applySupplyCurve(nullptr, {});
        QVERIFY2(m_dialog->fit(), qPrintable(m_dialog->error()));
        QVERIFY(std::abs(m_dialog->cacheFit()->r2 - withMeasured.r2) < 1e-9);
        QVERIFY(!m_dialog->resultLabel()->text().contains(QStringLiteral("measured f(k)")));
        m_state->undoStack()->undo(); // the measured f(k) again
        QVERIFY(m_state->params().measured_f);
    }
}

void TestCalibrationDialog::withoutATraceItSaysWhatToDo()
{
    QVERIFY(!m_dialog->fit());
    QVERIFY(m_dialog->error().contains(QStringLiteral("Import")));
    QVERIFY(!m_dialog->applyButton()->isEnabled());
    QVERIFY(!m_dialog->saveButton()->isEnabled());
    QVERIFY(m_dialog->fittedValues().isEmpty());
    // A trace the fit refuses: the message names its file.
    core::MeasuredTrace flat;
    flat.name = "one warp";
    flat.source = "/data/flat.csv";
    flat.x = {4, 4};
    flat.y = {100, 110};
    m_dialog->setTrace(m_traces->add(flat));
    QVERIFY(m_dialog->error().startsWith(QStringLiteral("/data/flat.csv: ")));
    QVERIFY(!m_dialog->applyButton()->isEnabled());
}

void TestCalibrationDialog::followsTheTraceList()
{
    core::MeasuredTrace runs;
    runs.name = "runs";
    runs.kind = core::TraceKind::Runtimes;
    runs.x = {1, 2};
    runs.y = {1, 2};
    m_traces->add(runs);
    QCOMPARE(m_dialog->traceBox()->count(), 0); // runtimes are not an f(k) trace
    const QString a = m_traces->add(fixedCacheTrace(m_state->params(), 100, 0.2));
    QCOMPARE(m_dialog->traceBox()->count(), 1);
    QCOMPARE(m_dialog->traceId(), a);
    QVERIFY(m_dialog->rooflineFit());
    m_traces->remove(a);
    QVERIFY(!m_dialog->rooflineFit());
    QVERIFY(!m_dialog->error().isEmpty());
}

void TestCalibrationDialog::heldKeysErrorsAndWarnings()
{
    // The H100's 8 KiB curve with the bundled profile. Locality: beta ended at 0.0008 KiB with nothing said; it
    // now stays at one request per warp (0.125 KiB) or above, and the panel says when the data push it there.
    const core::HardwareProfile *profile = core::findBundledProfile("h100-sxm");
    QVERIFY(profile);
    m_state->applyProfile(*profile);
    m_state->undoStack()->clear();
    const QString id = m_traces->add(h100ThrashingTrace("8192"));
    m_dialog->setModel(CalibrationDialog::Model::LocalityCache);
    QVERIFY(m_dialog->setTrace(id));
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    QVERIFY(m_dialog->cacheFit()->params.beta >= 0.125);
    QCOMPARE(m_dialog->holdBoxes().size(), 3); // L_s, α, β
    const QString locality = m_dialog->resultLabel()->text();
    QVERIFY2(locality.contains(QStringLiteral("Check before applying:")), qPrintable(locality));
    QVERIFY2(locality.contains(QStringLiteral("beta = 0.125 ended on a bound of its range")), qPrintable(locality));

    // Two levels: R and L held with their check boxes stay the profile's, through Apply; the others carry
    // their standard errors; the plateau above the DRAM peak is said.
    m_dialog->setModel(CalibrationDialog::Model::TwoLevelCache);
    QCOMPARE(m_dialog->holdBoxes().size(), 10);
    for (QCheckBox *box : m_dialog->holdBoxes()) {
        const QString key = box->property("key").toString();
        if (key == QLatin1String("R") || key == QLatin1String("L"))
            box->click();
    }
    QCOMPARE(m_dialog->held(), QStringList({"L", "R"}));
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    QStringList keys;
    for (const auto &[key, value] : m_dialog->fittedValues())
        keys << key;
    QCOMPARE(keys, QStringList({"L_s", "L_2", "R_dram", "R_l2", "beta", "S_2", "alpha", "alpha_2"}));
    const QString text = m_dialog->resultLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("Held as chosen: L = 763.5, R = 2072")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(" ± ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("above the profile&#x27;s DRAM peak 2964 GB/s"))
                     || text.contains(QStringLiteral("above the profile's DRAM peak 2964 GB/s")),
             qPrintable(text));
    m_dialog->apply();
    QCOMPARE(m_state->params().R, 2072.0);
    QCOMPARE(m_state->params().L, 763.5);
    QCOMPARE(m_state->params().cache, core::CacheMode::TwoLevel);

    // Holding R_dram too keeps the DRAM peak, and the warning goes.
    m_dialog->setHeld({"R", "L", "R_dram"});
    QVERIFY(!m_dialog->resultLabel()->text().contains(QStringLiteral("DRAM peak")));
    QCOMPARE(m_dialog->cacheFit()->params.R_dram, m_state->params().R_dram);
}

void TestCalibrationDialog::tracesOfOneMachineTogether()
{
    // The H100's 8 KiB curve fitted with the 16 KiB one ticked in "Fit with": one machine, a beta each (the
    // 16 KiB one about twice the other), the plots and residuals of the chosen trace.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    m_state->undoStack()->clear();
    const QString eight = m_traces->add(h100ThrashingTrace("8192"));
    const QString sixteen = m_traces->add(h100ThrashingTrace("16384"));
    m_dialog->setModel(CalibrationDialog::Model::TwoLevelCache);
    QVERIFY(m_dialog->setTrace(eight));
    QCOMPARE(m_dialog->togetherList()->count(), 1); // the other trace, not the chosen one
    m_dialog->togetherList()->item(0)->setCheckState(Qt::Checked);
    QCOMPARE(m_dialog->together(), QStringList {sixteen});
    QVERIFY2(m_dialog->error().isEmpty(), qPrintable(m_dialog->error()));
    const core::CacheFit &fit = *m_dialog->cacheFit();
    QCOMPARE(fit.points, std::size_t(64));
    QCOMPARE(fit.trace_beta.size(), std::size_t(2));
    const double ratio = fit.trace_beta[1] / fit.trace_beta[0];
    QVERIFY2(ratio > 1.5 && ratio < 2.6, qPrintable(QString::number(ratio)));
    QCOMPARE(m_dialog->residualPlot()->graph(1)->data()->size(), 32);
    const QString text = m_dialog->resultLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("Fitted together as one machine")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("H100 16 KiB per warp: r²")), qPrintable(text));
    // Choosing the other trace to fit takes it out of "Fit with".
    QVERIFY(m_dialog->setTrace(sixteen));
    QVERIFY(m_dialog->together().isEmpty());
    QCOMPARE(m_dialog->cacheFit()->trace_beta.size(), std::size_t(1));
}

QTEST_MAIN(TestCalibrationDialog)
#include "tst_calibration_dialog.moc"
