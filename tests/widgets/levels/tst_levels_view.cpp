// SPDX-License-Identifier: GPL-3.0-or-later
// The Memory Levels view: today's gpu-benches MI100 outputs (tests/data/gpu_benches) drawn over the levels of
// the H100 SXM profile, and a level's slider moving its step.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/trace_import.h"
#include "levels/levels_view.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const std::string kData = std::string(CROSSROOF_SOURCE_DIR) + "/tests/data/gpu_benches/";

/// The values of CURVE's points, in order.
QList<double> values(const QCPCurve *curve)
{
    QList<double> out;
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        out << it->value;
    return out;
}

} // namespace

class TestLevelsView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void theModelsLevelsWithoutMeasurements();
    void aPointerChaseOverTheLatencies();
    void aCacheSweepOverTheBandwidths();
    void aSliderMovesItsStep();

private:
    ParameterState *m_state = nullptr;
    TraceState *m_traces = nullptr;
    LevelsView *m_view = nullptr;
};

void TestLevelsView::init()
{
    m_state = new ParameterState;
    m_state->applyProfile(core::resolveProfile("h100-sxm"));
    m_traces = new TraceState;
    m_view = new LevelsView(m_state, m_traces);
}

void TestLevelsView::cleanup()
{
    delete m_view;
    delete m_traces;
    delete m_state;
}

void TestLevelsView::theModelsLevelsWithoutMeasurements()
{
    // The H100 SXM: L_s 40.4 cycles to 228 KiB, no L2 capacity in the profile, then L 763.5; R_l1 33,454 GB/s,
    // then the DRAM's 2,964 GB/s.
    QCOMPARE(values(m_view->latencyModel()), (QList<double>{40.4, 40.4, 763.5, 763.5}));
    QCOMPARE(values(m_view->bandwidthModel()), (QList<double>{33454, 33454, 2964, 2964}));
    QVERIFY(m_view->sweeps().empty());
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("gpu-latency")));
}

void TestLevelsView::aPointerChaseOverTheLatencies()
{
    QSignalSpy imported(m_view, &LevelsView::sweepImported);
    core::MeasuredTrace trace = core::readTraceFile(kData + "latency_mi100.txt").traces.front();
    const int points = int(trace.x.size());
    m_traces->add(std::move(trace));
    QCOMPARE(imported.size(), 1);
    QCOMPARE(m_view->latencyPlot()->graphCount(), 1);
    QCOMPARE(m_view->latencyPlot()->graph(0)->dataCount(), points);
    QCOMPARE(m_view->bandwidthPlot()->graphCount(), 0);
    QCOMPARE(m_view->sweeps().size(), std::size_t(1));
    const auto &levels = m_view->sweeps().front().comparison.levels;
    QCOMPARE(levels.size(), std::size_t(3));
    // The MI100's L1 at 135 cycles against the H100's L_s of 40.4: the model 70 % lower.
    QCOMPARE(levels[0].model, 40.4);
    QVERIFY(std::abs(levels[0].offBy() - (40.4 / 135.0 - 1)) < 0.01);
    const QString text = m_view->readout()->text();
    QVERIFY2(text.contains(QStringLiteral("mi100 latency")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("135")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("-70")), qPrintable(text));
    // The L1 row names every footprint the level holds (2 to 15 kB; the median's five rows end at 5.8 kB), on
    // one line, each number with its unit.
    QCOMPARE(levels[0].from_kb, 2.0);
    QCOMPARE(levels[0].to_kb, 15.0);
    QVERIFY2(text.contains(QStringLiteral("2\u00a0kB\u2013\u206015\u00a0kB")), qPrintable(text));
    // The L1's capacity is named whole beside its line ("L1 228 KiB (233 kB)"), on the side with room: at 1024x700
    // the name left of a line near the axis's start ran past the axis.
    m_view->resize(700, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QCustomPlot *plot = m_view->latencyPlot();
    plot->replot();
    int named = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        const auto *label = qobject_cast<QCPItemText *>(plot->item(i));
        if (!label || !label->text().startsWith(QLatin1String("L1 ")))
            continue;
        ++named;
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        QVERIFY2(QRectF(plot->axisRect()->rect()).adjusted(-1, -1, 1, 1).contains(box), qPrintable(label->text()));
    }
    QCOMPARE(named, 1);
    // The x axis holds every footprint of the chase (2 kB to gigabytes).
    QVERIFY(m_view->latencyPlot()->xAxis->range().lower <= 2);
    QVERIFY(m_view->latencyPlot()->xAxis->range().upper >= m_view->latencyPlot()->graph(0)->data()->constEnd()[-1].key);
}

void TestLevelsView::aCacheSweepOverTheBandwidths()
{
    m_traces->add(core::readTraceFile(kData + "cache_mi100.txt").traces.front());
    QCOMPARE(m_view->bandwidthPlot()->graphCount(), 1);
    QCOMPARE(m_view->latencyPlot()->graphCount(), 0);
    const auto &levels = m_view->sweeps().front().comparison.levels;
    QVERIFY(levels.size() >= 2);
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("TB/s"))); // the L1 level of about 9 TB/s
    // Its log axis of bandwidths reads between decades where it has room, as the roofline's do: 2 and 5 times each
    // decade are labelled, not the decades alone.
    QCustomPlot *plot = m_view->bandwidthPlot();
    m_view->resize(1200, 1300);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QTRY_VERIFY(plot->axisRect()->height() > 300);
    plot->replot();
    for (QCPAxis *axis : {plot->yAxis}) {
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        int between = 0;
        for (int i = 0; i < ticks.size(); ++i) {
            const double mantissa = ticks[i] / std::pow(10.0, std::floor(std::log10(ticks[i]) + 1e-9));
            between += axis->range().contains(ticks[i]) && !labels[i].isEmpty() && std::abs(mantissa - 1) > 1e-6;
        }
        QVERIFY2(between >= 2, qPrintable(axis->label()));
    }
    // A hidden trace leaves the plot and the readout.
    core::MeasuredTrace hidden = m_traces->traces().front();
    hidden.visible = false;
    m_traces->setTraces({hidden});
    QCOMPARE(m_view->bandwidthPlot()->graphCount(), 0);
    QVERIFY(m_view->sweeps().empty());
}

void TestLevelsView::aSliderMovesItsStep()
{
    m_traces->add(core::readTraceFile(kData + "latency_mi100.txt").traces.front());
    m_state->setValue(QStringLiteral("L"), 634.3);
    QCOMPARE(values(m_view->latencyModel()).last(), 634.3);
    QVERIFY(std::abs(m_view->sweeps().front().comparison.levels.back().offBy()) < 0.01);
    // An L2 capacity places the L2's step: 50 MiB over 132 SMs, at L_2.
    m_state->setValue(QStringLiteral("S_2"), 388);
    QCOMPARE(values(m_view->latencyModel()).size(), 6);
    QCOMPARE(values(m_view->latencyModel())[2], m_state->params().L_2);
}

QTEST_MAIN(TestLevelsView)
#include "tst_levels_view.moc"
