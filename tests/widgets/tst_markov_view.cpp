// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov.h"
#include "markov_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

class TestMarkovView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void thesisSurfaceByDefault();
    void topologyChangesTheSurface();
    void gridsAndTransient();
    void sliceAndTransientFollowTheSelection();
    void measuredCpiDrawsItsIsoCurve();
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

QTEST_MAIN(TestMarkovView)
#include "tst_markov_view.moc"
