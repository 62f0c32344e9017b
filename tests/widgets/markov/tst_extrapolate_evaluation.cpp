// SPDX-License-Identifier: GPL-3.0-or-later
// ExtrapolateEvaluation without a view: the trees, their cross-validation and the predictions are core's for
// the sample training set (docs/samples/modeltree-training.csv), they arrive from the background on the GUI
// thread, the smoothing and the target size are followed, and rows the trees refuse change nothing.
#include "core/modeltree/training_set.h"
#include "core/modeltree/tree_text.h"
#include "markov/extrapolate_evaluation.h"

#include <QSignalSpy>
#include <QTest>

#include <limits>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {
const std::string kTrain = CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv";

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
    void trainsAsCoreDoes();
    void arrivesOnTheGuiThread();
    void followsTheTargetSize();
    void smoothingRetrainsTheSameRows();
    void refusedRowsChangeNothing();
};

void TestExtrapolateEvaluation::trainsAsCoreDoes()
{
    const core::TrainingSet set = core::readTrainingSet(kTrain);
    ExtrapolateEvaluation eval;
    QSignalSpy models(&eval, &ExtrapolateEvaluation::modelChanged);
    QSignalSpy predictions(&eval, &ExtrapolateEvaluation::predictionsChanged);
    eval.setTrainingSet(set);
    eval.wait();
    QCOMPARE(models.count(), 1);
    QCOMPARE(predictions.count(), 1);

    core::M5Options options; // smoothing on, as the evaluation starts
    const core::ExtrapolationModel expected = core::trainExtrapolation(set, options);
    QVERIFY(eval.model().has_value());
    QCOMPARE(treesText(*eval.model()), treesText(expected));
    const core::ExtrapolationCv cv = core::crossValidateExtrapolation(set, options, 10);
    QCOMPARE(eval.folds(), 10);
    QCOMPARE(eval.crossValidation()->p.mse, cv.p.mse);
    QCOMPARE(eval.crossValidation()->q.mse, cv.q.mse);
    QCOMPARE(eval.trainingSet()->rows.size(), set.rows.size());

    // A new set is predicted at its largest training size, ranked by CPI as core ranks them.
    QCOMPARE(eval.targetSize(), expected.max_size);
    const std::vector<core::StrategyPrediction> ranked = core::predictAll(expected, expected.max_size);
    QCOMPARE(eval.predictions().size(), ranked.size());
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        QCOMPARE(eval.predictions()[i].strategy, ranked[i].strategy);
        QCOMPARE(eval.predictions()[i].markov.cpi, ranked[i].markov.cpi);
    }

    // Per strategy, its training points at its last iteration and a curve of core's predictions.
    QCOMPARE(eval.curves().size(), expected.strategies.size());
    const ExtrapolateEvaluation::StrategyCurves &first = eval.curves().front();
    QCOMPARE(first.strategy, expected.strategies.front().name);
    QCOMPARE(first.point_size.size(), std::size_t(5));
    QCOMPARE(first.curve_size.size(), std::size_t(ExtrapolateEvaluation::kCurvePoints));
    QCOMPARE(first.curve_size.front(), expected.min_size);
    QCOMPARE(first.curve_size.back(), expected.max_size);
    const core::StrategyPrediction atEnd = core::predictStrategy(expected, first.strategy, expected.max_size);
    QCOMPARE(first.curve_p.back(), atEnd.p);
    QCOMPARE(first.curve_q.back(), atEnd.q);
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
    const std::vector<core::StrategyPrediction> ranked = core::predictAll(*eval.model(), 160);
    QCOMPARE(eval.predictions().front().strategy, ranked.front().strategy);
    QCOMPARE(eval.predictions().front().p, ranked.front().p);

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
    const core::TrainingSet set = core::readTrainingSet(kTrain);
    ExtrapolateEvaluation eval;
    eval.setTrainingSet(set);
    eval.wait();
    eval.setTargetSize(150);
    const std::string smoothed = treesText(*eval.model());
    QVERIFY(eval.model()->p_tree.options().smooth);

    eval.setSmoothing(false);
    eval.wait();
    QVERIFY(!eval.model()->p_tree.options().smooth);
    core::M5Options own;
    own.smooth = false;
    QCOMPARE(treesText(*eval.model()), treesText(core::trainExtrapolation(set, own)));
    QVERIFY(treesText(*eval.model()) != smoothed);
    QCOMPARE(eval.targetSize(), 150.0); // the target stays
    QCOMPARE(eval.predictions().front().size, 150.0);
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
