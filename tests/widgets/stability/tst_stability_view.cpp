// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "stability/advisor_panel.h"
#include "stability/hysteresis_chart.h"
#include "stability/stability_map_plot.h"
#include "stability/stability_view.h"
#include "support/image_compare.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;
using namespace crossroof::widgets;

class TestStabilityView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void mapCountsMatchTheRootFinder();
    void theMapsAxesNameTheirParameters();
    void currentPointFollowsTheState();
    void dragSetsBothParametersInOneStep();
    void dragKeepsTheAxesStill();
    void mapStopsAtTheDevicesWarps();
    void arrowKeysNudgeThePoint();
    void hysteresisBranchesDifferOnlyWhenBistable();
    void hysteresisLegendNamesOnlyWhatIsDrawn();
    void theH100SampleJumpsOnlyAtItsBistableRange();
    void theKeyGivesTheShadesThroughput();
    void hiddenViewDefersItsWork();
    void movingThePointRedrawsOnlyThePoint();
    void aHeldSliderKeepsTheAxesStill();
    void theSameSweepIsNotDrawnAgain();
    void theKeyShowsTheMapsColours();
    void aDragRedrawsTheHysteresisInItsLayout();

private:
    ParameterState *m_state = nullptr;
    StabilityView *m_view = nullptr;
};

void TestStabilityView::init()
{
    m_state = new ParameterState; // the default profile: a GTX 570 with a cache-thrashing workload
    m_view = new StabilityView(m_state);
    m_view->resize(1000, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    m_view->waitForMap();
}

void TestStabilityView::cleanup()
{
    delete m_view;
    delete m_state;
}

void TestStabilityView::mapCountsMatchTheRootFinder()
{
    const auto &map = m_view->map();
    QCOMPARE(map.completed_stride, 1);
    int bistable = 0;
    for (std::size_t j = 0; j < map.y_values.size(); j += 7) {
        for (std::size_t i = 0; i < map.x_values.size(); i += 7) {
            core::XModelParams p = m_state->params();
            p.n = map.x_values[i];
            p.Z = map.y_values[j];
            const auto r = core::XModel(p).solve();
            QCOMPARE(map.stable_count[map.index(i, j)], r.stableCount());
            bistable += r.stableCount() >= 2 ? 1 : 0;
        }
    }
    QVERIFY2(bistable > 0, "the default workload must show a bistable region");
    // The colour map shows every cell: band (stable count - 1) plus a shade below 1.
    auto *data = m_view->colorMap()->data();
    QCOMPARE(data->keySize(), int(map.x_values.size()));
    QCOMPARE(int(data->cell(0, 0)), std::clamp(map.stable_count[map.index(0, 0)] - 1, 0, 2));
}

void TestStabilityView::theMapsAxesNameTheirParameters()
{
    // Name, symbol and unit, the unit once: "Resident warps (n), warps" said it twice.
    QCustomPlot *plot = m_view->mapPlot();
    QCOMPARE(plot->xAxis->label(), QStringLiteral("Resident warps n"));
    QCOMPARE(plot->yAxis->label(), QStringLiteral("Compute intensity Z (inst/req), log scale"));
}

void TestStabilityView::currentPointFollowsTheState()
{
    m_state->setValue(QStringLiteral("n"), 30);
    m_view->waitForMap();
    QCOMPARE(m_view->currentPoint()->data()->at(0)->key, 30.0);
    QCOMPARE(m_view->currentPoint()->data()->at(0)->value, std::log10(m_state->params().Z)); // Z is on a log axis
}

void TestStabilityView::dragSetsBothParametersInOneStep()
{
    QCustomPlot *plot = m_view->mapPlot();
    const QRect rect = plot->axisRect()->rect();
    const int steps = m_state->undoStack()->count();
    const QPoint a = rect.center() + QPoint(-40, 20);
    const QPoint b = rect.center() + QPoint(60, -30);
    QTest::mousePress(plot, Qt::LeftButton, {}, a);
    QTest::mouseMove(plot, b);
    QMouseEvent move(QEvent::MouseMove, QPointF(b), plot->mapToGlobal(QPointF(b)), Qt::LeftButton, Qt::LeftButton, {});
    QCoreApplication::sendEvent(plot, &move);
    QTest::mouseRelease(plot, Qt::LeftButton, {}, b);
    const double n = m_state->params().n;
    const double z = m_state->params().Z;
    QVERIFY(std::abs(n - std::round(plot->xAxis->pixelToCoord(b.x()))) <= 1);
    QVERIFY(std::abs(std::log10(z) - plot->yAxis->pixelToCoord(b.y())) < 0.05);
    QCOMPARE(m_state->undoStack()->count(), steps + 1); // the whole drag is one step
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params().n, 48.0);
    QCOMPARE(m_state->params().Z, 12.0);
}

void TestStabilityView::dragKeepsTheAxesStill()
{
    // Dragging must not re-centre the map on the point: the pointer sets what lies under it on the axes as
    // they were when the drag began, however far and in how many steps it goes.
    QCustomPlot *plot = m_view->mapPlot();
    const QRect rect = plot->axisRect()->rect();
    const QCPRange x0 = plot->xAxis->range();
    const QCPRange y0 = plot->yAxis->range();
    QPoint at = rect.center();
    QTest::mousePress(plot, Qt::LeftButton, {}, at);
    for (int i = 0; i < 12; ++i) {
        at += QPoint(-6, 4); // down and left: lower Z, fewer warps
        QMouseEvent move(QEvent::MouseMove, QPointF(at), plot->mapToGlobal(QPointF(at)), Qt::LeftButton,
                         Qt::LeftButton, {});
        QCoreApplication::sendEvent(plot, &move);
        m_view->waitForMap(); // the map redraws under the pointer during the drag
        QCOMPARE(plot->xAxis->range(), x0);
        QCOMPARE(plot->yAxis->range(), y0);
    }
    const double expectedZ = std::pow(10.0, plot->yAxis->pixelToCoord(at.y()));
    QVERIFY2(std::abs(m_state->params().Z / expectedZ - 1) < 0.02,
             qPrintable(QStringLiteral("Z %1, under the pointer %2").arg(m_state->params().Z).arg(expectedZ)));
    QTest::mouseRelease(plot, Qt::LeftButton, {}, at);
    m_view->waitForMap();
    m_state->undoStack()->undo(); // one step for the whole drag
    QCOMPARE(m_state->params().Z, 12.0);
}

void TestStabilityView::mapStopsAtTheDevicesWarps()
{
    // A GTX 570 SM holds 48 warps: the n axis ends there.
    QCOMPARE(m_view->map().x_values.back(), m_state->params().max_warps);
    QVERIFY(m_view->upBranch()->data()->at(m_view->upBranch()->data()->size() - 1)->key
            <= m_state->params().max_warps);
}

void TestStabilityView::arrowKeysNudgeThePoint()
{
    QCustomPlot *plot = m_view->mapPlot();
    plot->setFocus();
    const int steps = m_state->undoStack()->count();
    const double z = m_state->params().Z;
    QTest::keyClick(plot, Qt::Key_Up);
    const auto &map = m_view->map();
    const double cell = (std::log10(map.y.max) - std::log10(map.y.min)) / (map.y.count - 1);
    QVERIFY(std::abs(std::log10(m_state->params().Z / z) - cell) < 1e-9);
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    QTest::keyClick(plot, Qt::Key_Left, Qt::ShiftModifier);
    QVERIFY(m_state->params().n < 48);
    QCOMPARE(m_state->undoStack()->count(), steps + 2);
    m_state->undoStack()->undo();
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params().Z, z);
    QCOMPARE(m_state->params().n, 48.0);
}

void TestStabilityView::hysteresisBranchesDifferOnlyWhenBistable()
{
    m_view->sweepKeyBox()->setCurrentIndex(m_view->sweepKeyBox()->findData(QStringLiteral("Z")));
    m_view->sweepShowsBox()->setCurrentIndex(1); // k, where the branches part
    m_view->waitForMap();
    const core::HysteresisResult &sweep = m_view->sweep();
    QCOMPARE(sweep.values.size(), std::size_t(256));
    int differ = 0;
    for (std::size_t i = 0; i < sweep.values.size(); ++i) {
        if (std::abs(sweep.up_k[i] - sweep.down_k[i]) > 1e-6) {
            ++differ;
            core::XModelParams p = m_state->params();
            p.Z = sweep.values[i];
            QVERIFY2(core::XModel(p).solve().stableCount() >= 2, qPrintable(QString::number(p.Z)));
        }
    }
    QVERIFY2(differ > 0, "a Z sweep of this workload has a hysteresis loop");
    // The branches are drawn thinned, through both ends of every jump.
    auto *up = m_view->upBranch();
    auto *down = m_view->downBranch();
    QVERIFY(up->dataCount() < int(sweep.values.size()));
    QVERIFY(!sweep.jumps.empty());
    for (const auto &jump : sweep.jumps) {
        QCPGraph *branch = jump.rising ? up : down;
        const auto at = branch->data()->findBegin(jump.to_value, false);
        QVERIFY(at != branch->data()->constEnd());
        QCOMPARE(at->key, jump.to_value);
        QCOMPARE(at->value, jump.to_k);
    }
    // Z spans decades: a log axis whose ticks and labels sit at the decades; n is linear.
    QCPAxis *x = up->keyAxis();
    QCOMPARE(x->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(!x->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
    m_view->sweepKeyBox()->setCurrentIndex(m_view->sweepKeyBox()->findData(QStringLiteral("n")));
    m_view->waitForMap();
    QCOMPARE(x->scaleType(), QCPAxis::stLinear);
    QVERIFY(x->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
}

void TestStabilityView::theH100SampleJumpsOnlyAtItsBistableRange()
{
    // The H100 sample (its measured 16 KiB curve as f(k)), n swept 1..64: bistable at n = 17 only, so the
    // chart marks two jumps, 17 -> 18 up and 17 -> 16 down, and none at n = 63, where the down sweep used to
    // start from k = n instead of the state the up sweep ended in.
    const core::Session session = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    QVERIFY(session.params.measured_f);
    m_state->setProfile(session.profile, session.params);
    m_view->setSettings(session.stability);
    m_view->waitForMap();
    const core::HysteresisResult &sweep = m_view->sweep();
    QCOMPARE(sweep.values.back(), 64.0);
    QCPGraph *jumps = nullptr;
    auto *chart = m_view->findChild<HysteresisChart *>();
    for (int i = 0; i < chart->graphCount(); ++i) {
        if (chart->graph(i)->name() == QStringLiteral("jumps"))
            jumps = chart->graph(i);
    }
    QVERIFY(jumps);
    QCOMPARE(jumps->dataCount(), 2);
    QStringList at;
    for (auto it = jumps->data()->constBegin(); it != jumps->data()->constEnd(); ++it)
        at << formatNumber(it->key);
    QCOMPARE(at, (QStringList{QStringLiteral("16"), QStringLiteral("18")}));
    QCOMPARE(sweep.up_gbs.back(), sweep.down_gbs.back());
}

void TestStabilityView::hiddenViewDefersItsWork()
{
    m_view->hide();
    const auto before = m_view->map().stable_count;
    m_state->setValue(QStringLiteral("Z"), 4.0);
    QTest::qWait(20);
    QCOMPARE(m_view->map().stable_count, before); // nothing computed while hidden
    m_view->waitForMap();                        // brought up to date on demand
    QVERIFY(m_view->map().stable_count != before);
}

void TestStabilityView::movingThePointRedrawsOnlyThePoint()
{
    // n is one of the map's axes: a new n moves the point over the same map, which is neither computed nor
    // drawn again; the point's layer alone is, and the result is the picture a whole replot draws.
    QCustomPlot *plot = m_view->mapPlot();
    const auto before = m_view->map().stable_count;
    const double shownN = m_view->currentPoint()->data()->at(0)->key;
    QTest::qWait(50); // what the last refinement queued
    int replots = 0;
    connect(plot, &QCustomPlot::beforeReplot, this, [&replots] { ++replots; });
    m_state->setValue(QStringLiteral("n"), shownN - 10);
    QCoreApplication::processEvents();
    QCOMPARE(m_view->currentPoint()->data()->at(0)->key, shownN - 10);
    QCOMPARE(replots, 0); // no whole replot
    QVERIFY(m_view->map().stable_count == before);
    QCOMPARE(m_view->map().completed_stride, 1);
    QTest::qWait(20); // the point's repaint
    const QImage layered = plot->grab().toImage().convertToFormat(QImage::Format_RGB32);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(replots, 1);
    const QImage whole = plot->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(layered.size(), whole.size());
    // The point's antialiased edge is blended from its own buffer instead of drawn onto the map: a level or
    // two at most, anywhere.
    const int worst = test::largestChannelDifference(layered, whole);
    QVERIFY2(worst <= 2, qPrintable(QString::number(worst)));
    // Another parameter (not an axis) changes the map: computed and drawn again.
    m_state->setValue(QStringLiteral("E"), m_state->params().E * 1.5);
    m_view->waitForMap();
    QVERIFY(replots >= 2);
}

void TestStabilityView::aHeldSliderKeepsTheAxesStill()
{
    // Z's axis is centred on Z; while the Z slider is held the map keeps its axes (and its counts), and it
    // re-centres when the slider is let go.
    QCustomPlot *plot = m_view->mapPlot();
    const QCPRange y0 = plot->yAxis->range();
    const auto counts = m_view->map().stable_count;
    m_state->beginInteraction();
    for (double z : {13.0, 15.0, 18.0}) {
        m_state->applyValue(QStringLiteral("Z"), z);
        m_view->waitForMap();
        QCOMPARE(plot->yAxis->range(), y0);
        QVERIFY(m_view->map().stable_count == counts);
        QCOMPARE(m_view->currentPoint()->data()->at(0)->value, std::log10(z));
    }
    m_state->endInteraction();
    QTRY_VERIFY(plot->yAxis->range() != y0);
    m_view->waitForMap();
    QCOMPARE(plot->yAxis->range().center(), std::log10(18.0));
    // Without a held slider every Z re-centres the map.
    const QCPRange y1 = plot->yAxis->range();
    m_state->setValue(QStringLiteral("Z"), 9);
    m_view->waitForMap();
    QVERIFY(plot->yAxis->range() != y1);
}

void TestStabilityView::theSameSweepIsNotDrawnAgain()
{
    // The hysteresis sweeps n over 1..max warps: a new n is a point of the same sweep.
    QCustomPlot *hyst = m_view->hysteresisPlot();
    QTest::qWait(50);
    int replots = 0;
    connect(hyst, &QCustomPlot::beforeReplot, this, [&replots] { ++replots; });
    const double up = m_view->sweep().up_gbs.at(5); // every value of the sweep (the branch is drawn thinned)
    m_state->setValue(QStringLiteral("n"), 20);
    m_view->waitForMap();
    QCOMPARE(replots, 0);
    m_state->setValue(QStringLiteral("Z"), 20); // another sweep
    m_view->waitForMap();
    QTRY_VERIFY(replots >= 1);
    QVERIFY(m_view->sweep().up_gbs.at(5) != up);
}

void TestStabilityView::theKeyShowsTheMapsColours()
{
    // Beside the map, a key in the map's own colours: one band per number of stable states, named 1, 2 and 3+
    // at the bands' middles; its other side says that the shade is the throughput, in GB/s.
    QCPColorScale *key = m_view->key();
    QCPColorMap *colorMap = m_view->colorMap();
    QCOMPARE(colorMap->colorScale(), key);
    QCOMPARE(key->dataRange(), colorMap->dataRange());
    QCOMPARE(key->dataRange(), QCPRange(0, 3));
    QVERIFY(key->visible());
    QCOMPARE(key->parentPlot(), m_view->mapPlot());
    const auto ticker = key->axis()->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    const QMap<double, QString> ticks = ticker->ticks();
    QCOMPARE(ticks.value(0.5), QStringLiteral("1"));
    QCOMPARE(ticks.value(1.5), QStringLiteral("2"));
    QCOMPARE(ticks.value(2.5), QStringLiteral("3+"));
    QVERIFY2(key->axis()->label().contains(QLatin1String("stable states")), qPrintable(key->axis()->label()));
    // The throughput's title once, on the shades' side, not again in the bands' title.
    const auto *mapPlot = qobject_cast<StabilityMapPlot *>(m_view->mapPlot());
    QVERIFY(mapPlot);
    QVERIFY2(!key->axis()->label().contains(QLatin1String("throughput")), qPrintable(key->axis()->label()));
    QVERIFY2(mapPlot->shadeAxis()->label().contains(QLatin1String("MS throughput")),
             qPrintable(mapPlot->shadeAxis()->label()));
    // A cell of each band is drawn in its band of the key: one and two stable states in the default workload.
    const auto &map = m_view->map();
    double top = 0;
    for (double g : map.operating_gbs)
        top = std::max(top, g);
    int seen[3] = {0, 0, 0};
    for (std::size_t j = 0; j < map.y_values.size(); j += 5) {
        for (std::size_t i = 0; i < map.x_values.size(); i += 5) {
            const int band = std::clamp(map.stable_count[map.shownIndex(i, j)] - 1, 0, 2);
            const double cell = colorMap->data()->cell(int(i), int(j));
            QVERIFY2(cell >= band && cell < band + 1, qPrintable(QString::number(cell)));
            ++seen[band];
        }
    }
    QVERIFY(seen[0] > 0 && seen[1] > 0);
    QString info;
    for (const QLabel *label : m_view->findChildren<QLabel *>()) {
        if (label->text().contains(QLatin1String("tangencies")))
            info = label->text();
    }
    QVERIFY2(info.contains(formatNumber(top) + QStringLiteral(" GB/s")), qPrintable(info));
}

void TestStabilityView::hysteresisLegendNamesOnlyWhatIsDrawn()
{
    // A sweep with one stable state everywhere draws no bistable band and no jumps: its legend names the two
    // branches only. A bistable one with a jump names all four.
    HysteresisChart chart;
    const auto names = [&chart] {
        QStringList out;
        for (int i = 0; i < chart.legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(chart.legend->item(i)))
                out << item->plottable()->name();
        }
        return out;
    };
    StabilityEvaluation::Sweep sweep;
    sweep.key = "Z";
    sweep.values = {1, 2, 3, 4};
    core::HysteresisResult &h = sweep.result;
    h.key = "Z";
    h.values = sweep.values;
    h.up_gbs = h.down_gbs = {100, 200, 300, 300};
    h.up_k = h.down_k = {4, 8, 12, 12};
    h.stable_count = {1, 1, 1, 1};
    chart.drawSweep(sweep);
    QCOMPARE(names(), (QStringList{QStringLiteral("rising"), QStringLiteral("lowering")}));

    h.down_gbs = {100, 150, 300, 300};
    h.stable_count = {1, 2, 1, 1};
    h.jumps.push_back({false, 0, 2, 1, 10, 4, 150, 100});
    chart.drawSweep(sweep);
    QCOMPARE(names(), (QStringList{QStringLiteral("bistable range"), QStringLiteral("rising"),
                                   QStringLiteral("lowering"), QStringLiteral("jumps")}));
    // Its axis names the swept parameter as the map's axes do, the unit once.
    QCOMPARE(chart.xAxis->label(), QStringLiteral("Compute intensity Z (inst/req), swept up then down"));
    sweep.key = h.key = "n";
    chart.drawSweep(sweep);
    QCOMPARE(chart.xAxis->label(), QStringLiteral("Resident warps n, swept up then down"));
}

void TestStabilityView::theKeyGivesTheShadesThroughput()
{
    // The key's side towards the map gives GB/s: in every band the same values, each where the band's shade
    // stands for it (a cell of that throughput has the tick's colour). The GTX 570's thrashing workload (one,
    // two and more stable states) and the H100 SXM's (one state, some 3 TB/s).
    for (const char *profile : {"", "h100-sxm"}) {
        if (*profile) {
            const auto found = core::findBundledProfile(profile);
            QVERIFY(found);
            m_state->setProfile(*found, found->params);
            m_view->waitForMap();
        }
        auto *plot = qobject_cast<StabilityMapPlot *>(m_view->mapPlot());
        QVERIFY(plot);
        plot->replot();
        QCPAxis *axis = plot->shadeAxis();
        QVERIFY(axis->visible() && axis->tickLabels());
        QCOMPARE(axis->axisRect(), plot->key()->axis()->axisRect());
        QVERIFY2(axis->label().contains(QLatin1String("GB/s")), qPrintable(axis->label()));
        const double top = highestThroughput(m_view->map());
        QVERIFY(top > 0);
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        QCOMPARE(labels.size(), ticks.size());
        int perBand[3] = {0, 0, 0};
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            bool ok = false;
            const double gbs = labels[i].toDouble(&ok);
            QVERIFY2(ok && gbs > 0 && gbs <= top * 1.001, qPrintable(labels[i]));
            const int band = int(std::floor(ticks[i]));
            QVERIFY(band >= 0 && band <= 2);
            ++perBand[band];
            // Where a cell of GBS throughput lies in the map's data (band + 0.95 GBS / top), to the label's
            // three digits.
            QVERIFY2(std::abs(ticks[i] - (band + 0.95 * gbs / top)) < 0.95 * 0.006,
                     qPrintable(QStringLiteral("%1 at %2, top %3").arg(labels[i]).arg(ticks[i]).arg(top)));
        }
        QVERIFY2(perBand[0] >= 1 && perBand[0] == perBand[1] && perBand[1] == perBand[2],
                 qPrintable(labels.toList().join(QLatin1Char(' '))));
    }
    // A key too short for two values a band (as in a single-column figure, here by large tick labels): a scale
    // in the first band, 0 at its lightest shade and the highest at its darkest, not the same value three times
    // nor one value alone, which is no scale.
    auto *plot = qobject_cast<StabilityMapPlot *>(m_view->mapPlot());
    QFont big = plot->shadeAxis()->tickLabelFont();
    big.setPixelSize(plot->shadeAxis()->axisRect()->height() / 8);
    plot->shadeAxis()->setTickLabelFont(big);
    plot->replot();
    const QVector<double> few = plot->shadeAxis()->tickVector();
    QCOMPARE(few.size(), 2);
    QVERIFY(few[0] < 1 && few[1] < 1);
    QCOMPARE(plot->shadeAxis()->tickVectorLabels().at(0), QStringLiteral("0"));
    // The H100's some 3,000 GB/s as a whole number, as the other ticks read, not "3.02e+03".
    const QString highest = plot->shadeAxis()->tickVectorLabels().at(1);
    QVERIFY2(!highest.contains(QLatin1Char('e')), qPrintable(highest));
    QVERIFY2(std::abs(highest.toDouble() - highestThroughput(m_view->map())) < 0.5, qPrintable(highest));
}

void TestStabilityView::aDragRedrawsTheHysteresisInItsLayout()
{
    // Each step of a Z drag is a new sweep, a new y range and new branches: the chart draws it without laying
    // itself out again while the layout holds (the same size, margins that fit the new tick labels, the same
    // legend), and shows exactly what a full replot shows.
    QCustomPlot *hyst = m_view->hysteresisPlot();
    QCoreApplication::processEvents();
    int layouts = 0;
    connect(hyst, &QCustomPlot::afterLayout, this, [&layouts] { ++layouts; });
    int sweeps = 0;
    int laidOut = 0;
    QVector<double> tops;
    m_state->beginInteraction();
    for (double z = 12; z <= 30; z += 1.5) {
        const int before = layouts;
        m_state->applyValue(QStringLiteral("Z"), z);
        m_view->waitForMap();
        QCoreApplication::processEvents();
        const QImage drawn = hyst->grab().toImage().convertToFormat(QImage::Format_RGB32);
        if (!tops.contains(hyst->yAxis->range().upper)) {
            tops << hyst->yAxis->range().upper;
            ++sweeps;
        }
        laidOut += layouts > before ? 1 : 0;
        hyst->replot(QCustomPlot::rpImmediateRefresh);
        const QImage whole = hyst->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(drawn.size(), whole.size());
        const int worst = test::largestChannelDifference(drawn, whole);
        QVERIFY2(worst == 0, qPrintable(QStringLiteral("Z = %1: %2 levels from a full replot").arg(z).arg(worst)));
    }
    m_state->endInteraction();
    QVERIFY2(sweeps >= 8, qPrintable(QString::number(sweeps)));
    // Most steps kept the layout (one whose tick labels need other margins is laid out anew).
    QVERIFY2(laidOut <= sweeps / 4, qPrintable(QStringLiteral("%1 of %2 sweeps laid out").arg(laidOut).arg(sweeps)));
    // The pointer over the chart shows the crosshair and its readout on the window.
    const QImage plain = hyst->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QPoint at = hyst->axisRect()->rect().center();
    QTest::mouseMove(hyst, at);
    QCoreApplication::processEvents();
    const PlotNavigator *navigator = PlotNavigator::of(hyst);
    QVERIFY(navigator);
    QCOMPARE(navigator->crosshairText(), navigator->readoutAt(at));
    QVERIFY(!navigator->crosshairText().isEmpty());
    const QImage hovered = hyst->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY(test::largestChannelDifference(plain, hovered) > 50);
}

QTEST_MAIN(TestStabilityView)
#include "tst_stability_view.moc"
