// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/bandwidth/bandwidth_curve.h"
#include "bandwidth/bandwidth_view.h"
#include "common/curve_thinning.h"
#include "common/empty_state.h"
#include "export/figure_export.h"
#include "core/traces/memory_demand.h"
#include "core/traces/perf_stat.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QFileInfo>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const QString kExcerpt = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_excerpt.tsv");
const QString kFull = QStringLiteral(CROSSROOF_SHARED_DIR "/data/perf-stat/perf_result.tsv");

core::MeasuredTrace twoConnections()
{
    core::MeasuredTrace t;
    t.name = "synthetic";
    t.source = "/data/synthetic.csv";
    t.kind = core::TraceKind::BytesPerInterval;
    t.x = {1, 2, 3, 4};
    t.extra = {1, 1, 1, 1};
    t.labels = {"reads", "writes"};
    // reads 9, 1, 3, 1 GB; writes 1, 2, 6, 5 GB per second
    t.y = {9e9, 1e9, 3e9, 1e9, 1e9, 2e9, 6e9, 5e9};
    return t;
}

} // namespace

class TestBandwidthView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void slowdownIsTheCoreSlowdown_data();
    void slowdownIsTheCoreSlowdown();
    void dominanceSharesTheIntervals();
    void curvesAreSortedInGbs();
    void wrongFilesSayWhy();
    void emptyViewKeepsItsShape();
    void millionsOfIntervalsKeepTheirPeaks();
    void overTheLimitMeansADominantConnection();
    void theLimitSaysWhereItComesFrom();

private:
    TraceState *m_traces = nullptr;
    BandwidthView *m_view = nullptr;
};

void TestBandwidthView::init()
{
    m_traces = new TraceState;
    m_view = new BandwidthView(m_traces);
    m_view->resize(1000, 700);
}

void TestBandwidthView::cleanup()
{
    delete m_view;
    delete m_traces;
}

void TestBandwidthView::slowdownIsTheCoreSlowdown_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("window");
    QTest::addColumn<double>("limit");
    QTest::newRow("excerpt W=1") << kExcerpt << 1 << 0.05;
    QTest::newRow("excerpt W=2") << kExcerpt << 2 << 0.02;
    if (QFile::exists(kFull)) {
        QTest::newRow("full W=1") << kFull << 1 << 2.0;
        QTest::newRow("full W=5") << kFull << 5 << 1.0;
    }
}

void TestBandwidthView::slowdownIsTheCoreSlowdown()
{
    QFETCH(QString, path);
    QFETCH(int, window);
    QFETCH(double, limit);
    QCOMPARE(m_view->loadFile(path), QString());
    QCOMPARE(m_traces->traces().size(), std::size_t(1));
    QCOMPARE(m_view->traceId(), QStringLiteral("t1"));
    // No limit until one is chosen: the old default (80 % of the peak, 1.10 GB/s for the full file) said
    // nowhere where it came from.
    QCOMPARE(m_view->limitBox()->value(), 0.0);
    QCOMPARE(m_view->limitSource(), QString());
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("No limit B")));
    QVERIFY(!m_view->dominance());
    m_view->setWindow(window);
    m_view->setLimit(limit);
    QCOMPARE(m_view->windowBox()->value(), window);

    // The same numbers straight from core on the same file.
    const core::MemoryDemand demand = core::memoryDemandFromPerfStat(core::readPerfStat(path.toStdString()));
    const double unit = m_view->unitSeconds();
    QVERIFY(std::abs(unit - 1.0) < 0.02);
    const double limitBytes = limit * 1e9 * unit;
    QCOMPARE(m_view->limitBytesPerUnit(), limitBytes);
    const auto &curves = m_view->curves();
    QCOMPARE(curves.size(), std::size_t(3));
    // The excerpt has CPU0's memory controllers only: reads and writes, sharing one limit with their total.
    // The full file has both sockets' (CPU0 and CPU16): a connection each with limit B, their total 2 B.
    const bool sockets = path == kFull;
    QCOMPARE(curves[0].name, sockets ? QStringLiteral("socket 0 (CPU0)") : QStringLiteral("reads"));
    QCOMPARE(curves[1].name, sockets ? QStringLiteral("socket 1 (CPU16)") : QStringLiteral("writes"));
    QCOMPARE(curves[2].name, QStringLiteral("total"));
    const std::vector<double> *raw[] = {sockets ? &demand.cpu_bytes[0] : &demand.read_bytes,
                                        sockets ? &demand.cpu_bytes[1] : &demand.write_bytes, &demand.bytes};
    for (int c = 0; c < 3; ++c) {
        const double connectionLimit = limitBytes * (sockets && c == 2 ? 2 : 1);
        const double expected
                = core::slowdownUnderLimit(core::smoothDemand(*raw[c], std::size_t(window)), connectionLimit);
        QCOMPARE(curves[std::size_t(c)].curve.slowdown, expected);
        QVERIFY(m_view->readout()->text().contains(QString::number(expected, 'f', 3) + QStringLiteral("×")));
    }
    QVERIFY(curves[2].curve.slowdown >= 1);
    QCOMPARE(m_view->curvePlot()->graphCount(), 3);
    QCOMPARE(m_view->timePlot()->graphCount(), 3);
}

void TestBandwidthView::dominanceSharesTheIntervals()
{
    const QString id = m_traces->add(twoConnections());
    QVERIFY(m_view->setTrace(id));
    m_view->setWindow(1);
    m_view->setLimit(4);
    const auto &d = m_view->dominance();
    QVERIFY(d);
    // ratios: reads 2.25, 0.25, 0.75, 0.25; writes 0.25, 0.5, 1.5, 1.25; their total, which shares the one
    // memory controller's limit B, 2.5, 0.75, 2.25, 1.5: the total limits every interval where any demand is
    // over B, as the table's "over" column says.
    QCOMPARE(d->dominant, (std::vector<int> {2, -1, 2, 2}));
    QCOMPARE(d->units, (std::vector<std::size_t> {0, 0, 3}));
    QCOMPARE(d->free_units, std::size_t(1));
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("75 %"))); // the total three of four
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("25 %"))); // none one
    // The total: 10, 3, 9, 6 GB/s against 4: (2.5 + 1 + 2.25 + 1.5) / 4.
    QCOMPARE(m_view->curves()[2].curve.slowdown, (2.5 + 1 + 2.25 + 1.5) / 4);
}

void TestBandwidthView::curvesAreSortedInGbs()
{
    const QString id = m_traces->add(twoConnections());
    m_view->setTrace(id);
    m_view->setLimit(4);
    QCPGraph *reads = m_view->curvePlot()->graph(0);
    QCOMPARE(reads->name(), QStringLiteral("reads"));
    QCOMPARE(reads->dataCount(), 5); // four intervals and the end of the last
    QCOMPARE(reads->data()->at(0)->value, 9.0);
    QCOMPARE(reads->data()->at(3)->value, 1.0);
    QCOMPARE(reads->data()->at(4)->key, 100.0);
    // Over time each interval's demand holds from its start: the first one from the start of the trace.
    const QCPGraph *writes = m_view->timePlot()->graph(1);
    QCOMPARE(writes->lineStyle(), QCPGraph::lsStepRight);
    QCOMPARE(writes->data()->at(0)->key, m_view->timePlot()->xAxis->range().lower);
    QCOMPARE(writes->data()->at(0)->value, writes->data()->at(1)->value);
    QCOMPARE(writes->data()->at(3)->value, 6.0);
    QCOMPARE(m_view->curvePlot()->xAxis->range().upper, 100.0);
    QVERIFY(m_view->curvePlot()->yAxis->range().upper > 10); // the total's peak
    QCOMPARE(m_view->figurePlots().size(), 2);
    // A window longer than the trace is not offered.
    m_view->setWindow(10);
    QCOMPARE(m_view->windowBox()->value(), 4);
    QCOMPARE(m_view->windowBox()->text(), QStringLiteral("4 intervals"));
    m_view->setWindow(1);
    QCOMPARE(m_view->windowBox()->text(), QStringLiteral("1 interval")); // it said "1 intervals"
    // Removing the trace empties the view.
    m_traces->remove(id);
    QVERIFY(m_view->curves().empty());
    QCOMPARE(m_view->curvePlot()->graphCount(), 0);
}

void TestBandwidthView::wrongFilesSayWhy()
{
    const QString ncu = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_stream_synthetic.csv");
    QString error = m_view->loadFile(ncu);
    QVERIFY2(error.contains(ncu) && error.contains(QStringLiteral("no bytes per interval")),
             qPrintable(error));
    error = m_view->loadFile(QStringLiteral("/nonexistent/perf.tsv"));
    QVERIFY2(error.contains(QStringLiteral("/nonexistent/perf.tsv")), qPrintable(error));
    QVERIFY(m_traces->traces().empty());
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("/nonexistent/perf.tsv")));
}

void TestBandwidthView::emptyViewKeepsItsShape()
{
    // Before any trace: the curve plot keeps the width of the view (an empty legend once squeezed it to a
    // strip), and the limit says there is none rather than showing 0.01 GB/s.
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QCustomPlot *plot = m_view->curvePlot();
    plot->replot();
    QVERIFY2(plot->axisRect()->width() > plot->width() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(plot->axisRect()->width()).arg(plot->width())));
    QVERIFY(!m_view->limitBox()->isEnabled());
    QCOMPARE(m_view->limitBox()->text(), QStringLiteral("none"));
    // The empty plot says what to load, with a button for it, over the plot; a trace takes it away.
    EmptyState *empty = m_view->emptyState();
    QVERIFY(empty->isVisible());
    QVERIFY(plot->geometry().contains(empty->geometry().translated(plot->pos())));
    QVERIFY(empty->label()->text().contains(QStringLiteral("perf stat")));
    QCOMPARE(empty->buttons().size(), 1);
    QCOMPARE(empty->buttons().front()->text(), QStringLiteral("Load perf stat…"));
    // The empty Trace box says why it is empty: nothing loaded, or traces of another kind.
    QCOMPARE(m_view->traceBox()->count(), 0);
    QCOMPARE(m_view->traceBox()->currentText(), QString());
    QCOMPARE(m_view->traceBox()->placeholderText(), QStringLiteral("none loaded"));
    core::MeasuredTrace curve;
    curve.id = "t1";
    curve.name = "v100 read";
    curve.kind = core::TraceKind::BandwidthVsWarps;
    curve.x = {1, 2};
    curve.y = {100, 200};
    core::MeasuredTrace other = curve;
    other.id = "t2";
    other.name = "v100 triad";
    m_traces->setTraces({curve, other});
    QCOMPARE(m_view->traceBox()->count(), 0);
    QCOMPARE(m_view->traceBox()->placeholderText(), QStringLiteral("none: 2 of another kind"));
    m_traces->setTraces({});
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_excerpt.tsv")), QString());
    QVERIFY(!empty->isVisible());
}

void TestBandwidthView::overTheLimitMeansADominantConnection()
{
    // The real two-socket file: the table said the total was over B in 10 % of the intervals while the
    // dominance, of reads and writes only, said every demand was under B. Now every row of the table is a
    // connection of the dominance with the limit the table uses, so an interval with a demand over its limit
    // has a dominant connection, and one without has none.
    if (!QFile::exists(kFull))
        QSKIP("../shared/data/perf-stat/perf_result.tsv is not here");
    QCOMPARE(m_view->loadFile(kFull), QString());
    for (const double limit : {0.3, 0.6, 1.1, 2.0, 4.0}) {
        m_view->setLimit(limit);
        const auto &curves = m_view->curves();
        QCOMPARE(curves.size(), std::size_t(3));
        QCOMPARE(curves[2].limit_gbs, 2 * limit); // the two sockets' total
        const auto &d = m_view->dominance();
        QVERIFY(d);
        const std::size_t units = curves[0].smoothed.size();
        std::size_t over = 0;
        for (std::size_t u = 0; u < units; ++u) {
            bool any = false;
            for (const auto &c : curves)
                any = any || c.smoothed[u] > c.curve.limit;
            over += any ? 1 : 0;
            QCOMPARE(d->dominant[u] >= 0, any);
        }
        QCOMPARE(units - d->free_units, over);
        for (const auto &c : curves)
            QVERIFY(c.curve.units_over_limit == 0 || d->free_units < units);
    }
    // At 0.6 GB/s a socket: socket 1 is over in some intervals, socket 0 in none.
    m_view->setLimit(0.6);
    QVERIFY(m_view->curves()[1].curve.units_over_limit > 0);
    QVERIFY(m_view->dominance()->units[1] > 0);
}

void TestBandwidthView::theLimitSaysWhereItComesFrom()
{
    const QString id = m_traces->add(twoConnections());
    QVERIFY(m_view->setTrace(id));
    QCOMPARE(m_view->limitBox()->text(), QStringLiteral("none"));
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("No limit B")));
    // A CPU profile's peak: R over its sockets. The Clovertown's 21.33 GB/s over its two sockets.
    QVERIFY(m_view->setLimitSource(QStringLiteral("clovertown-x5365")));
    QVERIFY(std::abs(m_view->limitBox()->value() - 21.33 / 2) < 0.006); // two decimals
    QVERIFY2(m_view->readout()->text().contains(QStringLiteral("R = 21.33 GB/s over its 2 sockets")),
             qPrintable(m_view->readout()->text()));
    QVERIFY(m_view->setLimitSource(QStringLiteral("epyc-9654")));
    QCOMPARE(m_view->limitBox()->value(), 460.8);
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("EPYC 9654")));
    QVERIFY(!m_view->setLimitSource(QStringLiteral("a100-40"))); // a GPU is no CPU's limit
    // Typed: the source says so.
    m_view->setLimit(4);
    QCOMPARE(m_view->limitSource(), QStringLiteral("typed"));
    QVERIFY(m_view->readout()->text().contains(QStringLiteral("as typed")));
    QVERIFY(m_view->setLimitSource(QString()));
    QCOMPARE(m_view->limitBox()->value(), 0.0);
    QVERIFY(!m_view->dominance());
}

QTEST_MAIN(TestBandwidthView)
#include "tst_bandwidth_view.moc"

namespace {

/// The values GRAPH draws now.
std::vector<double> drawnValues(const QCPGraph *graph)
{
    std::vector<double> v;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        v.push_back(it->value);
    return v;
}

} // namespace

void TestBandwidthView::millionsOfIntervalsKeepTheirPeaks()
{
    // Two million one-second intervals of 1 to 8 GB with one peak of 9.5 GB and one idle second: drawn from a
    // few samples per pixel column, on screen and in a figure, the peak and the idle second still shown.
    constexpr std::size_t kUnits = 2'000'000;
    core::MeasuredTrace t;
    t.name = "long";
    t.source = "/data/long.csv";
    t.kind = core::TraceKind::BytesPerInterval;
    t.labels = {"reads"};
    t.x.resize(kUnits);
    t.extra.assign(kUnits, 1.0);
    t.y.resize(kUnits);
    std::mt19937 random(35);
    std::uniform_int_distribution<int> gigabytes(1, 8);
    for (std::size_t u = 0; u < kUnits; ++u) {
        t.x[u] = double(u + 1);
        t.y[u] = 1e9 * gigabytes(random);
    }
    const std::size_t peakAt = 1'234'567, idleAt = 777'777;
    t.y[peakAt] = 9.5e9;
    t.y[idleAt] = 0;
    QVERIFY(m_view->setTrace(m_traces->add(std::move(t))));
    QCOMPARE(m_view->curves().size(), std::size_t(1));

    QCPGraph *sorted = m_view->curvePlot()->graph(0);
    QCPGraph *overTime = m_view->timePlot()->graph(0);
    const int columns = std::max(m_view->curvePlot()->width(), m_view->timePlot()->width());
    for (QCPGraph *g : {sorted, overTime}) {
        QVERIFY2(g->dataCount() <= kSamplesPerColumn * columns + 2, qPrintable(QString::number(g->dataCount())));
        const std::vector<double> v = drawnValues(g);
        QCOMPARE(*std::max_element(v.begin(), v.end()), 9.5);
        QCOMPARE(*std::min_element(v.begin(), v.end()), 0.0);
    }
    // Zoomed into a few seconds around the peak: every interval there.
    m_view->timePlot()->xAxis->setRange(double(peakAt) - 5, double(peakAt) + 5);
    m_view->timePlot()->replot();
    QVERIFY(overTime->dataCount() >= 10 && overTime->dataCount() <= 16);
    QCOMPARE(overTime->data()->findBegin(double(peakAt + 1), false)->value, 9.5);
    m_view->timePlot()->xAxis->setRange(0, double(kUnits));

    // A figure: kFigureColumns columns, the peak and the idle second among them, and a file of bounded size.
    for (QCustomPlot *plot : m_view->figurePlots())
        plot->setProperty(kFullDetailProperty, true);
    for (QCPGraph *g : {sorted, overTime}) {
        QVERIFY(g->dataCount() > kSamplesPerColumn * columns); // finer than the screen
        QVERIFY(g->dataCount() <= kSamplesPerColumn * kFigureColumns + 2);
        const std::vector<double> v = drawnValues(g);
        QCOMPARE(*std::max_element(v.begin(), v.end()), 9.5);
        QCOMPARE(*std::min_element(v.begin(), v.end()), 0.0);
    }
    for (QCustomPlot *plot : m_view->figurePlots())
        plot->setProperty(kFullDetailProperty, false);
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("long.svg"));
    QCOMPARE(exportFigure(m_view->figurePlots(), svg, FigureOptions()), QString());
    QVERIFY2(QFileInfo(svg).size() < 4 * 1024 * 1024, qPrintable(QString::number(QFileInfo(svg).size())));
}
