// SPDX-License-Identifier: GPL-3.0-or-later
// MarkovEvaluation without a view: new inputs give core's surface, its contours and the measured CPI's
// iso-CPI curve; inputs the model refuses keep the last surface and say why.
#include "core/markov/markov.h"
#include "core/support/contour.h"
#include "markov/markov_evaluation.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

class TestMarkovEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void surfaceIsCoresSurface();
    void theTransientIsCoresTransient();
    void contoursAndTheMeasuredCurve();
    void refusedInputsKeepTheSurface();
};

void TestMarkovEvaluation::surfaceIsCoresSurface()
{
    MarkovEvaluation eval;
    QSignalSpy updated(&eval, &MarkovEvaluation::updated);
    MarkovEvaluation::Inputs inputs;
    inputs.grid = "uniform:30";
    inputs.shape = {3, 1};
    eval.setInputs(inputs);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().isEmpty());
    const core::MarkovSurface expected
            = core::markovSurface(inputs.shape, core::MarkovGrid::fromText(inputs.grid));
    const core::MarkovSurface &s = eval.surface().surface;
    QCOMPARE(s.p.size(), std::size_t(30));
    QVERIFY(s.p == expected.p);
    QVERIFY(s.cpi == expected.cpi);
    QCOMPARE(s.system_states, expected.system_states);
    QCOMPARE(s.max.cpi, expected.max.cpi);
    // A uniform grid is drawn by value.
    QVERIFY(eval.surface().p_axis == s.p);
}

void TestMarkovEvaluation::theTransientIsCoresTransient()
{
    MarkovEvaluation eval;
    MarkovEvaluation::Inputs inputs;
    inputs.steps = 5;
    eval.setInputs(inputs);
    const core::MarkovSurface steady
            = core::markovSurface(inputs.shape, core::MarkovGrid::fromText("thesis"));
    const core::MarkovSurface transient
            = core::markovSurface(inputs.shape, core::MarkovGrid::fromText("thesis"), 5);
    QVERIFY(eval.surface().surface.cpi == transient.cpi);
    QVERIFY(eval.surface().surface.cpi != steady.cpi);
    // The thesis grid is drawn by index.
    QCOMPARE(eval.surface().p_axis.back(), double(eval.surface().p_axis.size() - 1));
}

void TestMarkovEvaluation::contoursAndTheMeasuredCurve()
{
    MarkovEvaluation eval;
    eval.setInputs({});
    const ColouredSurface &c = eval.surface();
    const auto expected = core::contourLines(c.p_axis, c.q_axis, c.surface.cpi,
                                             core::niceContourLevels(c.cpi_low, eval.cpiHigh()));
    QVERIFY(!eval.contours().x.empty());
    QCOMPARE(eval.contours().x.size(), expected.x.size());
    QVERIFY(eval.measuredCurve().x.empty()); // no measured CPI

    MarkovEvaluation::Inputs inputs;
    inputs.measured_cpi = 3;
    eval.setInputs(inputs);
    const auto &iso = eval.measuredCurve();
    QVERIFY(!iso.x.empty());
    const auto curve = core::contourLines(c.p_axis, c.q_axis, c.colourValues(), std::log10(3.0));
    QCOMPARE(iso.x.size(), curve.x.size());
    // Outside the surface's range there is no curve.
    inputs.measured_cpi = 1e5;
    eval.setInputs(inputs);
    QVERIFY(eval.measuredCurve().x.empty());
}

void TestMarkovEvaluation::refusedInputsKeepTheSurface()
{
    MarkovEvaluation eval;
    eval.setInputs({});
    const std::vector<double> before = eval.surface().surface.cpi;
    QSignalSpy updated(&eval, &MarkovEvaluation::updated);
    MarkovEvaluation::Inputs inputs;
    inputs.grid = "uniform:1";
    eval.setInputs(inputs);
    QCOMPARE(updated.count(), 1);
    QVERIFY(!eval.error().isEmpty());
    QVERIFY(eval.surface().surface.cpi == before);
    eval.setInputs({});
    QVERIFY(eval.error().isEmpty());
}

QTEST_MAIN(TestMarkovEvaluation)
#include "tst_markov_evaluation.moc"
