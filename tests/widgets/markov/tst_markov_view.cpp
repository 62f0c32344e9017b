// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/icon_legend_item.h"
#include "markov/counters_dialog.h"
#include "core/markov/cpu_topology.h"
#include "core/markov/markov.h"
#include "core/markov/markov_counters.h"
#include "markov/markov_view.h"
#include "export/export_guard.h"
#include "export/figure_export.h"
#include "core/profiles/profile_library.h"
#include "core/support/contour.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTest>

#include <numeric>

using namespace crossroof;
using namespace crossroof::widgets;

class TestMarkovView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void thesisSurfaceByDefault();
    void contourLinesCarryTheirCpi();
    void topologyChangesTheSurface();
    void gridsAndTransient();
    void sliceAndTransientFollowTheSelection();
    void measuredCpiDrawsItsIsoCurve();
    void topologyFromACpuProfile();
    void startingPairsOnTheSurface();
    void countersDrawTheirPairs();
    void legendNamesWhatIsDrawnOverTheSurface();
};

void TestMarkovView::thesisSurfaceByDefault()
{
    MarkovView view;
    auto *data = view.colorMap()->data();
    QCOMPARE(data->keySize(), 25);
    QCOMPARE(data->valueSize(), 25);
    const auto &s = view.surface();
    QCOMPARE(s.system_states, 81.0); // 4 groups x 2 threads: 3^4
    for (int j = 0; j < 25; j += 6) {
        for (int i = 0; i < 25; i += 6) {
            // Coloured by log CPI (taken from P_all in core, so it is exact also where the CPI rounds to 1).
            const double cpi = s.at(std::size_t(i), std::size_t(j));
            QCOMPARE(data->cell(i, j), s.log10_cpi[std::size_t(j * 25 + i)]);
            QVERIFY(std::abs(data->cell(i, j) - std::log10(cpi)) <= 1e-15 + 1e-9 * std::log10(cpi));
        }
    }
    // Table 5.18, 4 groups x 2 threads: maximum CPI 125.716 within its 1 %.
    QVERIFY(std::abs(s.max.cpi - 125.716) / 125.716 < 0.01);
    QVERIFY(view.contours()->dataCount() > 0);
    QVERIFY(view.describeAt(12, 20).contains(QStringLiteral("CPI")));
}

void TestMarkovView::contourLinesCarryTheirCpi()
{
    // Each iso-CPI line has its CPI written on it: a label on a segment of that level's line (the thesis grid
    // is drawn by index, so the axes are 0 to 24), one per level.
    MarkovView view;
    const auto &s = view.surface();
    std::vector<double> axis(s.p.size());
    std::iota(axis.begin(), axis.end(), 0.0);
    QSet<QString> texts;
    for (const QCPItemText *label : view.contourLabels()) {
        texts << label->text();
        bool number = false;
        const double level = label->text().toDouble(&number);
        QVERIFY2(number, qPrintable(label->text()));
        const core::ContourLines line = core::contourLines(axis, axis, s.cpi, level);
        const QPointF at = label->position->coords();
        bool onTheLine = false;
        for (std::size_t i = 0; i + 1 < line.x.size(); i += 3) {
            onTheLine = onTheLine
                        || (std::abs((line.x[i] + line.x[i + 1]) / 2 - at.x()) < 1e-9
                            && std::abs((line.y[i] + line.y[i + 1]) / 2 - at.y()) < 1e-9);
        }
        QVERIFY2(onTheLine, qPrintable(QStringLiteral("%1 at (%2, %3)").arg(label->text()).arg(at.x()).arg(at.y())));
    }
    QVERIFY2(texts.size() >= 3 && texts.size() == view.contourLabels().size(),
             qPrintable(QStringList(texts.values()).join(QLatin1Char(' '))));
    // In a figure short of room a value is left out, never moved off its line, where it would name another.
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (const FigurePreset &preset : figurePresets()) {
        std::vector<QPointF> before;
        for (const QCPItemText *label : view.contourLabels())
            before.push_back(label->position->coords());
        {
            const figure::ExportGuard guard(view.figurePlots(), withPreset(FigureOptions{}, preset));
            for (int i = 0; i < view.contourLabels().size(); ++i) {
                const QCPItemText *label = view.contourLabels()[i];
                if (label->visible())
                    QVERIFY2(label->position->coords() == before[std::size_t(i)],
                             qPrintable(preset.id + QLatin1Char(' ') + label->text()));
            }
        }
    }
    // A new topology, new lines: the labels follow them and the old ones are gone.
    const int others = view.mapPlot()->itemCount() - int(view.contourLabels().size());
    view.groupsBox()->setValue(8);
    view.threadsBox()->setValue(4);
    QVERIFY(!view.contourLabels().isEmpty());
    QCOMPARE(view.mapPlot()->itemCount(), others + int(view.contourLabels().size()));
}

void TestMarkovView::topologyChangesTheSurface()
{
    MarkovView view;
    const double before = view.surface().max.cpi;
    view.groupsBox()->setValue(8);
    view.threadsBox()->setValue(4);
    QCOMPARE(view.surface().system_states, std::pow(5.0, 8)); // 390,625 states, solved exactly
    QVERIFY(view.surface().max.cpi < before);                 // more threads hide more stalls
    QCOMPARE(view.colorMap()->data()->cell(24, 24), std::log10(view.surface().max.cpi));
}

void TestMarkovView::gridsAndTransient()
{
    MarkovView view;
    view.gridBox()->setCurrentIndex(view.gridBox()->findData(QStringLiteral("uniform:400")));
    QCOMPARE(view.colorMap()->data()->keySize(), 400);
    view.gridBox()->setCurrentIndex(view.gridBox()->findData(QStringLiteral("logit:200")));
    QCOMPARE(view.colorMap()->data()->keySize(), 200);
    view.gridBox()->setCurrentIndex(view.gridBox()->findData(QStringLiteral("thesis")));
    // p = 0.1, q = 0.9: from all-active the CPI rises towards the steady state and is still below it after
    // 5 steps. (Where q < p it can overshoot: threads suspend and wake in near lockstep.)
    const double steady = view.surface().at(10, 14);
    view.stepsBox()->setValue(5);
    view.transientBox()->setChecked(true);
    const double early = view.surface().at(10, 14);
    QVERIFY(early > 1 && early < steady);
    QCOMPARE(early, core::solveMarkovExact(core::uniformTopology(4, 2, 0.1, 0.9), 5).cpi);
}

void TestMarkovView::sliceAndTransientFollowTheSelection()
{
    MarkovView view;
    view.selectPoint(12, 20); // p = 0.5, q = 0.95 on the thesis grid
    QCOMPARE(view.selectedP(), 12);
    QCOMPARE(view.selectedQ(), 20);
    auto *slice = view.sliceGraph();
    QCOMPARE(slice->dataCount(), 25);
    for (int i = 0; i < 25; ++i)
        QCOMPARE(slice->data()->at(i)->value, view.surface().at(std::size_t(i), 20));
    // The transient saturates at the steady-state CPI of the chosen point.
    auto *transient = view.transientGraph();
    const double last = (transient->data()->constEnd() - 1)->value;
    QVERIFY(std::abs(last - view.surface().at(12, 20)) < 1e-6 * last);
    QCOMPARE(transient->data()->constBegin()->value, 1.0); // all active at t = 0
    view.selectPoint(-5, 1000);                               // clamped, no crash
    QCOMPARE(view.selectedP(), 0);
    QCOMPARE(view.selectedQ(), 24);
}

void TestMarkovView::measuredCpiDrawsItsIsoCurve()
{
    MarkovView view; // 4 groups x 2 threads, thesis grid: CPI from 1 to about 125
    QCOMPARE(view.measuredCurve()->dataCount(), 0);
    view.measuredCpiBox()->setValue(10);
    QVERIFY(view.measuredCurve()->dataCount() > 10);
    // Every segment of the curve crosses a cell whose corners bracket the measured CPI.
    const auto &s = view.surface();
    for (auto it = view.measuredCurve()->data()->constBegin(); it != view.measuredCurve()->data()->constEnd(); ++it) {
        if (std::isnan(it->value))
            continue;
        const auto i = std::size_t(std::floor(it->key)), j = std::size_t(std::floor(it->value)); // index axes
        const auto i1 = std::min(i + 1, s.p.size() - 1), j1 = std::min(j + 1, s.q.size() - 1);
        const double lo = std::min({s.at(i, j), s.at(i1, j), s.at(i, j1), s.at(i1, j1)});
        const double hi = std::max({s.at(i, j), s.at(i1, j), s.at(i, j1), s.at(i1, j1)});
        QVERIFY(lo <= 10 * 1.0001 && hi >= 10 / 1.0001);
    }
    QCOMPARE(view.settings().measured_cpi.value_or(0), 10.0);
    view.measuredCpiBox()->setValue(1e5); // above every prediction: no curve
    QCOMPARE(view.measuredCurve()->dataCount(), 0);
}

void TestMarkovView::topologyFromACpuProfile()
{
    MarkovView view;
    view.setCpuProfiles(core::bundledProfiles());
    // The spin boxes, then per CPU profile a separator and its strategies: the Clovertown's twelve, and those
    // derived for the EPYC and the Xeon Phi.
    int items = 1;
    for (const core::HardwareProfile &prof : core::bundledProfiles())
        items += prof.topology ? 1 + int(prof.topology->strategies.size()) : 0;
    QCOMPARE(items, 1 + 1 + 12 + 1 + int(core::findBundledProfile("epyc-9654")->topology->strategies.size()) + 1
                            + int(core::findBundledProfile("xeon-phi-7210")->topology->strategies.size()));
    QCOMPARE(view.topologyBox()->count(), items);
    QVERIFY(view.topologyBox()->findData(QStringLiteral("epyc-9654/16T_scatter")) > 0);
    const int item = view.topologyBox()->findData(QStringLiteral("clovertown-x5365/4T_2"));
    QVERIFY(item > 0);
    view.topologyBox()->setCurrentIndex(item);
    // 4T_2 is one thread on each of the four L2s: four groups of one, 2^4 system states.
    QCOMPARE(view.topology(), (std::vector<int>{1, 1, 1, 1}));
    QCOMPARE(view.surface().system_states, 16.0);
    QVERIFY(!view.groupsBox()->isEnabled());
    QCOMPARE(view.groupsBox()->value(), 4);
    QCOMPARE(view.threadsBox()->value(), 1);
    QCOMPARE(view.settings().topology_source, std::string("clovertown-x5365/4T_2"));
    // 8T_2 loads two L2s with four threads each.
    view.topologyBox()->setCurrentIndex(view.topologyBox()->findData(QStringLiteral("clovertown-x5365/8T_2")));
    QCOMPARE(view.topology(), (std::vector<int>{4, 4}));
    QCOMPARE(view.surface().system_states, 25.0);

    // A session naming a strategy this Crossroof does not have falls back to its groups and threads.
    core::MarkovSettings s = view.settings();
    s.topology_source = "elsewhere/9T_9";
    s.groups = 3;
    s.threads_per_group = 5;
    view.setSettings(s);
    QCOMPARE(view.topologyBox()->currentIndex(), 0);
    QVERIFY(view.groupsBox()->isEnabled());
    QCOMPARE(view.topology(), (std::vector<int>{5, 5, 5}));
    // Without CPU profiles the strategies go and the spin boxes stay.
    view.setCpuProfiles({});
    QCOMPARE(view.topologyBox()->count(), 1);
}

void TestMarkovView::startingPairsOnTheSurface()
{
    MarkovView view;
    view.gridBox()->setCurrentIndex(view.gridBox()->findData(QStringLiteral("uniform:100")));
    core::PecVector p{0.1, 0.4, 0.5, 0, 1};
    core::PecVector q{0.8, 0.9, 0.862, 0, 1};
    const auto pairs = core::startingPairs(p, q);
    view.setStartingPairs({pairs.begin(), pairs.end()}, 4);
    QCOMPARE(view.startingPairsGraph()->dataCount(), 9);
    // On a value axis the markers sit at their (p, q).
    QCOMPARE(view.startingPairsGraph()->data()->at(4)->key, pairs[4].p);
    QCOMPARE(view.startingPairsGraph()->data()->at(4)->value, pairs[4].q);
    // On the thesis grid (drawn by index) they sit between the grid points around them.
    view.gridBox()->setCurrentIndex(view.gridBox()->findData(QStringLiteral("thesis")));
    const double x = view.startingPairsGraph()->data()->at(0)->key; // p = 0.1 is grid point 10
    QCOMPARE(x, 10.0);
    const double y = view.startingPairsGraph()->data()->at(0)->value; // q = 0.8: between 0.7 (13) and 0.9 (14)
    QCOMPARE(y, 13.5);
    // Choosing a pair selects the nearest grid point.
    view.selectProbabilities(0.5, 0.862);
    QCOMPARE(view.surface().p[std::size_t(view.selectedP())], 0.5);
    QCOMPARE(view.surface().q[std::size_t(view.selectedQ())], 0.9);
}

void TestMarkovView::countersDrawTheirPairs()
{
    MarkovView view;
    QCOMPARE(view.startingPairsGraph()->dataCount(), 0); // nothing until the counters are used
    QVERIFY(!view.settings().counters);
    view.countersButton()->click();
    QVERIFY(view.countersDialog()->isVisible());
    QCOMPARE(view.startingPairsGraph()->dataCount(), 9); // the thesis example's starting pairs
    QVERIFY(view.settings().counters == core::CounterInputs::thesisExample());
    // A measured CPI typed in the dialog becomes the view's (its iso-CPI curve) and picks the nearest pair.
    view.countersDialog()->measuredCpiEdit()->setText(QStringLiteral("1.5"));
    QCOMPARE(view.measuredCpiBox()->value(), 1.5);
    QVERIFY(view.measuredCurve()->dataCount() > 0);
    const auto nearest = view.countersDialog()->nearest();
    QVERIFY(nearest);
    const core::StartingPair chosen = view.countersDialog()->pairs()[*nearest];
    QCOMPARE(view.nearestPairGraph()->dataCount(), 1);
    QCOMPARE(view.nearestPairGraph()->data()->at(0)->key, view.startingPairsGraph()->data()->at(int(*nearest))->key);
    QCOMPARE(view.nearestPairGraph()->data()->at(0)->value,
             view.startingPairsGraph()->data()->at(int(*nearest))->value);
    // The dialog's pairs are predicted for this view's topology.
    QCOMPARE(view.countersDialog()->topology(), view.topology());
    view.groupsBox()->setValue(2);
    QCOMPARE(view.countersDialog()->topology(), (std::vector<int>{2, 2}));
    // Choosing a pair in the dialog selects it on the surface.
    Q_EMIT view.countersDialog()->pairChosen(chosen.p, chosen.q);
    QCOMPARE(view.surface().p[std::size_t(view.selectedP())], 0.5); // the thesis grid has 0.5
    // Sessions keep the counters; one without them clears the pairs.
    const core::MarkovSettings saved = view.settings();
    QCOMPARE(saved.counters->measured_cpi, std::optional<double>(1.5));
    view.setSettings(core::MarkovSettings{});
    QCOMPARE(view.startingPairsGraph()->dataCount(), 0);
    view.setSettings(saved);
    QCOMPARE(view.startingPairsGraph()->dataCount(), 9);
    QVERIFY(view.settings() == saved);
}

void TestMarkovView::legendNamesWhatIsDrawnOverTheSurface()
{
    // The Clovertown's strategies (its bundled profile): the surface with its contours and the chosen point,
    // then a measured CPI's curve, then the counters' starting pairs and the one nearest the measured CPI.
    // The legend names what is drawn, and only that.
    MarkovView view;
    view.setCpuProfiles(core::bundledProfiles());
    QVERIFY(view.topologyBox()->count() > 1);
    view.topologyBox()->setCurrentIndex(view.topologyBox()->count() - 1);
    QVERIFY(view.contours()->dataCount() > 0);
    const QString contours = QStringLiteral("iso-CPI contours, their CPI on each");
    const QString chosen = QStringLiteral("chosen (p, q): the slice and transient");
    QCOMPARE(legendTexts(view.mapPlot()->legend), (QStringList{contours, chosen}));
    QVERIFY(view.mapPlot()->legend->visible());

    view.measuredCpiBox()->setValue(1.5);
    QVERIFY(view.measuredCurve()->dataCount() > 0);
    const QString measured = QStringLiteral("measured CPI 1.5: every (p, q) that predicts it");
    QCOMPARE(legendTexts(view.mapPlot()->legend), (QStringList{contours, measured, chosen}));

    view.countersButton()->click();
    view.countersDialog()->measuredCpiEdit()->setText(QStringLiteral("1.5"));
    QCOMPARE(view.startingPairsGraph()->dataCount(), 9);
    QCOMPARE(view.nearestPairGraph()->dataCount(), 1);
    QCOMPARE(legendTexts(view.mapPlot()->legend),
             (QStringList{contours, measured, chosen, QStringLiteral("starting pairs"),
                          QStringLiteral("starting pair nearest the measured CPI")}));

    // Above every prediction the measured CPI has no curve; a session without counters has no pairs.
    view.measuredCpiBox()->setValue(1e5);
    QCOMPARE(view.measuredCurve()->dataCount(), 0);
    QVERIFY(legendTexts(view.mapPlot()->legend).filter(QStringLiteral("every (p, q) that predicts it")).isEmpty());
    QVERIFY(legendTexts(view.mapPlot()->legend).contains(QStringLiteral("starting pairs")));
    view.setSettings(core::MarkovSettings{});
    QCOMPARE(legendTexts(view.mapPlot()->legend), (QStringList{contours, chosen}));
}

QTEST_MAIN(TestMarkovView)
#include "tst_markov_view.moc"
