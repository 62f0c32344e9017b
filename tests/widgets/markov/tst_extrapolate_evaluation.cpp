// SPDX-License-Identifier: GPL-3.0-or-later
// ExtrapolateEvaluation without a view: trained on runs whose p and q follow a known linear law per strategy,
// the trees predict that law past the training sizes and the Markov CPI of the predicted pair, worked by hand;
// on the sample training set (docs/samples/modeltree-training.csv) the results arrive from the background on
// the GUI thread, the smoothing and the target size are followed, and rows the trees refuse change nothing.
#include "core/modeltree/training_set.h"
#include "core/modeltree/tree_text.h"
#include "markov/extrapolate_evaluation.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {
const std::string kTrain = CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv";

/// Two strategies whose p grows linearly with the size and whose q is fixed: "pair" (one cache group of two
/// threads, 3 states) with p = 0.1 + 0.001 size and q = 0.5, "spread" (two groups of two, 9 states) with
/// p = 0.3 + 0.0005 size and q = 0.8; sizes 32 to 128, two iterations each.
core::TrainingSet linearLaw()
{
    std::string text = "Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,p_value,q_value\n";
    for (int size = 32; size <= 128; size += 32) {
        for (int iteration = 1; iteration <= 2; ++iteration) {
            text += std::to_string(size) + "," + std::to_string(iteration) + ",1,2,pair,3,"
                    + std::to_string(0.1 + 0.001 * size) + ",0.5\n";
            text += std::to_string(size) + "," + std::to_string(iteration) + ",2,2,spread,9,"
                    + std::to_string(0.3 + 0.0005 * size) + ",0.8\n";
        }
    }
    return core::parseTrainingSet(text, "linear.csv");
}

/// The text of both trees, to compare two models.
std::string treesText(const core::ExtrapolationModel &model)
{
    return core::treeText(model.q_tree) + core::treeText(model.p_tree);
}
} // namespace

class TestExtrapolateEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void predictsEachStrategysLaw();
    void arrivesOnTheGuiThread();
    void followsTheTargetSize();
    void smoothingRetrainsTheSameRows();
    void refusedRowsChangeNothing();
};

void TestExtrapolateEvaluation::predictsEachStrategysLaw()
{
    ExtrapolateEvaluation eval;
    QSignalSpy models(&eval, &ExtrapolateEvaluation::modelChanged);
    QSignalSpy predictions(&eval, &ExtrapolateEvaluation::predictionsChanged);
    eval.setSmoothing(false); // each leaf its own model: a strategy's own linear law (MODEL.md 9)
    eval.setTrainingSet(linearLaw());
    eval.wait();
    QVERIFY(models.count() >= 1);
    QVERIFY(predictions.count() >= 1);
    QVERIFY(eval.model().has_value());
    QCOMPARE(eval.trainingSet()->rows.size(), std::size_t(16));
    // A new set is predicted one size step (32) past its largest training size: extrapolated, not at 128.
    QCOMPARE(eval.targetSize(), 160.0);
    QCOMPARE(eval.curves().front().curve_size.back(), 160.0);
    // One size only: twice it.
    core::TrainingSet one = linearLaw();
    for (core::TrainingRow &r : one.rows)
        r.size = 64;
    QCOMPARE(ExtrapolateEvaluation::defaultTargetSize(one), 128.0);

    // Past the training sizes, at 200: pair p = 0.3, q = 0.5; spread p = 0.4, q = 0.8. CPI = 1 / (1 - s^N)
    // with s = p / (p + 1 - q) and N the threads: pair 1 / (1 - 0.375^2) = 1.1636, spread
    // 1 / (1 - (2/3)^4) = 1.2462, so pair ranks first.
    eval.setTargetSize(200);
    QCOMPARE(eval.predictions().size(), std::size_t(2));
    const core::StrategyPrediction &first = eval.predictions()[0];
    const core::StrategyPrediction &second = eval.predictions()[1];
    QCOMPARE(first.strategy, std::string("pair"));
    QVERIFY2(std::abs(first.p - 0.3) < 1e-9 && std::abs(first.q - 0.5) < 1e-9,
             qPrintable(QStringLiteral("%1 %2").arg(first.p).arg(first.q)));
    QVERIFY(std::abs(first.markov.cpi - 1 / (1 - 0.375 * 0.375)) < 1e-9);
    QCOMPARE(second.strategy, std::string("spread"));
    QVERIFY(std::abs(second.p - 0.4) < 1e-9 && std::abs(second.q - 0.8) < 1e-9);
    QVERIFY(std::abs(second.markov.cpi - 1 / (1 - std::pow(2.0 / 3.0, 4))) < 1e-9);
    QVERIFY(!first.clamped && !second.clamped);

    // Per strategy, its training points at its last iteration and a curve that follows the law to the target.
    QCOMPARE(eval.curves().size(), std::size_t(2));
    for (const ExtrapolateEvaluation::StrategyCurves &c : eval.curves()) {
        const bool pair = c.strategy == "pair";
        QCOMPARE(c.point_size, (std::vector<double> {32, 64, 96, 128}));
        QCOMPARE(c.curve_size.size(), std::size_t(ExtrapolateEvaluation::kCurvePoints));
        QCOMPARE(c.curve_size.front(), 32.0);
        QCOMPARE(c.curve_size.back(), 200.0);
        for (std::size_t i = 0; i < c.curve_size.size(); ++i)
            QVERIFY(std::abs(c.curve_p[i] - (pair ? 0.1 + 0.001 * c.curve_size[i] : 0.3 + 0.0005 * c.curve_size[i])) < 1e-9);
    }
    // Cross-validated in 10 folds; q, fixed per strategy, is learned exactly from any 14 of the 16 rows.
    QCOMPARE(eval.folds(), 10);
    QVERIFY(std::isfinite(eval.crossValidation()->p.mse));
    QVERIFY(eval.crossValidation()->q.mse < 1e-15);
}

void TestExtrapolateEvaluation::arrivesOnTheGuiThread()
{
    // Nothing is trained while the request is made: the result comes with the event loop.
    ExtrapolateEvaluation eval;
    QSignalSpy models(&eval, &ExtrapolateEvaluation::modelChanged);
    eval.setTrainingSet(core::readTrainingSet(kTrain));
    QVERIFY(!eval.model());
    QVERIFY(eval.predictions().empty());
    QTRY_COMPARE(models.count(), 1);
    QVERIFY(eval.model().has_value());
    QVERIFY(!eval.busy());
    QCOMPARE(eval.predictions().size(), std::size_t(7));
}

void TestExtrapolateEvaluation::followsTheTargetSize()
{
    ExtrapolateEvaluation eval;
    eval.setTrainingSet(core::readTrainingSet(kTrain));
    eval.wait();
    QSignalSpy predictions(&eval, &ExtrapolateEvaluation::predictionsChanged);
    eval.setTargetSize(160);
    QCOMPARE(predictions.count(), 1); // at once: no training
    QCOMPARE(eval.predictions().front().size, 160.0);
    QCOMPARE(eval.curveTo(), 160.0); // the curves reach the target
    QCOMPARE(eval.curves().front().curve_size.back(), 160.0);
    // Ranked by CPI, lowest first.
    for (std::size_t i = 1; i < eval.predictions().size(); ++i)
        QVERIFY(eval.predictions()[i - 1].markov.cpi <= eval.predictions()[i].markov.cpi);

    // A size the trees cannot predict at: no predictions, and why.
    eval.setTargetSize(std::numeric_limits<double>::infinity());
    QVERIFY(eval.predictions().empty());
    QVERIFY2(eval.predictionError().contains("finite"), qPrintable(eval.predictionError()));
    eval.setTargetSize(150);
    QVERIFY(eval.predictionError().isEmpty());
    QCOMPARE(eval.predictions().size(), std::size_t(7));
}

void TestExtrapolateEvaluation::smoothingRetrainsTheSameRows()
{
    ExtrapolateEvaluation eval;
    eval.setTrainingSet(linearLaw());
    eval.wait();
    eval.setTargetSize(200);
    QVERIFY(eval.model()->p_tree.options().smooth);
    // Smoothed, the leaf's law is blended with the root's model, which no one line fits: off the law at 200.
    const std::string smoothed = treesText(*eval.model());
    QVERIFY(std::abs(eval.predictions()[0].p - 0.3) > 1e-6 || std::abs(eval.predictions()[1].p - 0.4) > 1e-6);

    eval.setSmoothing(false);
    eval.wait();
    QVERIFY(!eval.model()->p_tree.options().smooth);
    QVERIFY(treesText(*eval.model()) != smoothed);
    QCOMPARE(eval.targetSize(), 200.0); // the target stays
    QCOMPARE(eval.predictions().front().size, 200.0);
    QVERIFY(std::abs(eval.predictions()[0].p - 0.3) < 1e-9); // the pair strategy's own law
}

void TestExtrapolateEvaluation::refusedRowsChangeNothing()
{
    ExtrapolateEvaluation eval;
    eval.setTrainingSet(core::readTrainingSet(kTrain));
    eval.wait();
    const std::string trees = treesText(*eval.model());
    QSignalSpy refused(&eval, &ExtrapolateEvaluation::refused);
    QSignalSpy models(&eval, &ExtrapolateEvaluation::modelChanged);
    core::TrainingSet empty;
    empty.source = "empty.csv";
    eval.setTrainingSet(empty);
    eval.wait();
    QCOMPARE(refused.count(), 1);
    QVERIFY2(refused.at(0).at(0).toString().contains("no training rows"),
             qPrintable(refused.at(0).at(0).toString()));
    QCOMPARE(models.count(), 0);
    QCOMPARE(treesText(*eval.model()), trees);
    QCOMPARE(eval.trainingSet()->rows.size(), std::size_t(350));
    QCOMPARE(eval.predictions().size(), std::size_t(7));

    // The smoothing then retrains the set that was trained, not the refused one.
    eval.setSmoothing(false);
    eval.wait();
    QCOMPARE(refused.count(), 1);
    QCOMPARE(models.count(), 1);
    QVERIFY(!eval.model()->p_tree.options().smooth);
}

QTEST_MAIN(TestExtrapolateEvaluation)
#include "tst_extrapolate_evaluation.moc"
