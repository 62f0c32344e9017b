// SPDX-License-Identifier: GPL-3.0-or-later
// MarkovEvaluation without a view: new inputs give the CPI surface the thesis' chain defines (worked here from its
// closed form), contours and the measured CPI's iso-CPI curve on their CPI; inputs the model refuses keep the
// last surface and say why.
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
    void surfaceIsTheWorkedSurface();
    void theTransientRisesToTheSteadyState();
    void contoursAndTheMeasuredCurveLieOnTheirCpi();
    void refusedInputsKeepTheSurface();
};

namespace {

/// The thesis' steady-state CPI of N independent threads, worked from its definition: a thread is suspended
/// with probability s = p / (p + 1 - q), all N at once with s^N, and CPI = 1 / (1 - s^N); after T steps from
/// all-active a thread is suspended with probability s (1 - (q - p)^T).
double workedCpi(double p, double q, int threads, std::optional<int> steps = std::nullopt)
{
    double s = p / (p + 1 - q);
    if (steps)
        s *= 1 - std::pow(q - p, *steps);
    return 1 / (1 - std::pow(s, threads));
}

std::size_t indexOf(const std::vector<double> &values, double v)
{
    for (std::size_t i = 0; i < values.size(); ++i)
        if (std::abs(values[i] - v) < 1e-12)
            return i;
    return values.size();
}

} // namespace

void TestMarkovEvaluation::surfaceIsTheWorkedSurface()
{
    MarkovEvaluation eval;
    QSignalSpy updated(&eval, &MarkovEvaluation::updated);
    MarkovEvaluation::Inputs inputs;
    inputs.grid = "uniform:30";
    inputs.shape = {3, 1};
    eval.setInputs(inputs);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().isEmpty());
    const core::MarkovSurface &s = eval.surface().surface;
    // 30 values from 0.001 to 0.999 on both axes; groups of 3 and 1 threads: 4 x 2 states.
    QCOMPARE(s.p.size(), std::size_t(30));
    QCOMPARE(s.q.size(), std::size_t(30));
    QCOMPARE(s.p.front(), 0.001);
    QCOMPARE(s.p.back(), 0.999);
    QVERIFY(std::abs(s.p[1] - (0.001 + 0.998 / 29)) < 1e-15);
    QCOMPARE(s.system_states, 8.0);
    for (std::size_t j = 0; j < s.q.size(); ++j)
        for (std::size_t i = 0; i < s.p.size(); ++i)
            QVERIFY2(std::abs(s.at(i, j) / workedCpi(s.p[i], s.q[j], 4) - 1) < 1e-12,
                     qPrintable(QStringLiteral("p = %1, q = %2: %3").arg(s.p[i]).arg(s.q[j]).arg(s.at(i, j))));
    // The worst corner: every thread suspended with s = 0.999, CPI = 1 / (1 - 0.999^4) = 250.4.
    QVERIFY(std::abs(s.max.cpi - 250.375) < 0.01);
    QCOMPARE(s.max.p, 0.999);
    QCOMPARE(s.max.q, 0.999);
    // A uniform grid is drawn by value.
    QVERIFY(eval.surface().p_axis == s.p);
}

void TestMarkovEvaluation::theTransientRisesToTheSteadyState()
{
    MarkovEvaluation eval;
    MarkovEvaluation::Inputs inputs; // the thesis grid, four groups of two threads
    inputs.steps = 5;
    eval.setInputs(inputs);
    const core::MarkovSurface &s = eval.surface().surface;
    const std::size_t i = indexOf(s.p, 0.5);
    const std::size_t j = indexOf(s.q, 0.9);
    QVERIFY(i < s.p.size() && j < s.q.size());
    // p = 0.5, q = 0.9: s = 5/6, after 5 steps 5/6 x (1 - 0.4^5); 8 threads.
    const double transient = workedCpi(0.5, 0.9, 8, 5);
    QVERIFY(std::abs(s.at(i, j) / transient - 1) < 1e-12);
    QVERIFY(transient < workedCpi(0.5, 0.9, 8)); // still rising towards 1.3031
    inputs.steps = 200;
    eval.setInputs(inputs);
    QVERIFY(std::abs(eval.surface().surface.at(i, j) / workedCpi(0.5, 0.9, 8) - 1) < 1e-12);
    // The thesis grid is drawn by index.
    QCOMPARE(eval.surface().p_axis.back(), double(eval.surface().p_axis.size() - 1));
}

void TestMarkovEvaluation::contoursAndTheMeasuredCurveLieOnTheirCpi()
{
    MarkovEvaluation eval;
    MarkovEvaluation::Inputs inputs;
    inputs.grid = "uniform:200"; // drawn by value: a contour's points are (p, q)
    inputs.shape = {4};
    eval.setInputs(inputs);
    const core::ContourLines &lines = eval.contours();
    QVERIFY(!lines.x.empty());
    QVERIFY(eval.measuredCurve().x.empty()); // no measured CPI
    const std::vector<double> levels = core::niceContourLevels(eval.surface().cpi_low, eval.cpiHigh());
    QVERIFY(levels.size() >= 3);
    // Each contour point has, by the worked formula, the CPI of one of the levels (linear interpolation on a
    // fine grid: within 2 % where q <= 0.95; above, 1 - q nears the grid's step of 0.005 and a cell's CPI is far
    // from linear). NaN separates one line from the next.
    std::size_t checked = 0;
    for (std::size_t k = 0; k < lines.x.size(); ++k) {
        if (std::isnan(lines.x[k]) || lines.y[k] > 0.95)
            continue;
        ++checked;
        const double cpi = workedCpi(lines.x[k], lines.y[k], 4);
        double nearest = levels.front();
        for (double level : levels)
            if (std::abs(std::log(cpi / level)) < std::abs(std::log(cpi / nearest)))
                nearest = level;
        QVERIFY2(std::abs(cpi / nearest - 1) < 0.02,
                 qPrintable(QStringLiteral("(%1, %2): CPI %3").arg(lines.x[k]).arg(lines.y[k]).arg(cpi)));
    }
    QVERIFY(checked > 100);

    inputs.measured_cpi = 3;
    eval.setInputs(inputs);
    const core::ContourLines &iso = eval.measuredCurve();
    QVERIFY(iso.x.size() > 20);
    // CPI 3 of 4 threads: s = (2/3)^(1/4), p = s (1 - q) / (1 - s) <= 1 from q = 0.893 on.
    std::size_t onIso = 0;
    for (std::size_t k = 0; k < iso.x.size(); ++k) {
        if (std::isnan(iso.x[k]))
            continue;
        QVERIFY(iso.y[k] > 0.89);
        if (iso.y[k] > 0.95)
            continue;
        ++onIso;
        QVERIFY2(std::abs(workedCpi(iso.x[k], iso.y[k], 4) / 3 - 1) < 0.02,
                 qPrintable(QStringLiteral("(%1, %2)").arg(iso.x[k]).arg(iso.y[k])));
    }
    QVERIFY(onIso > 5);
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
