// SPDX-License-Identifier: GPL-3.0-or-later
// The thesis' second and third steps on the bundled synthetic sample (docs/samples/modeltree-*.csv) and on an
// extrapolation small enough to check by hand.

#include "core/error_of.h"
#include "core/modeltree/extrapolation.h"
#include "core/support/error.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace crossroof::core;

namespace {

const std::string kSamples = CROSSROOF_SOURCE_DIR "/docs/samples/";

using crossroof::test::errorOf;

const ModelTreeNode &node(const ModelTree &tree, int index)
{
    return tree.nodes()[std::size_t(index)];
}
const std::string &splitName(const ModelTree &tree, int index)
{
    return tree.attributes()[std::size_t(node(tree, index).attribute)];
}

/// Two strategies with exactly linear truths: q = 0.1 + 0.05 size (+ 0.1 for B), p = 0.6 - 0.5 q.
TrainingSet linearRuns()
{
    TrainingSet set;
    set.source = "linear";
    int line = 2;
    for (int size = 1; size <= 4; ++size) {
        for (int it = 1; it <= 3; ++it) {
            for (const bool b : {false, true}) {
                TrainingRow r;
                r.size = size;
                r.iteration = it;
                r.num_l2 = b ? 2 : 1;
                r.threads_per_l2 = b ? 1 : 2;
                r.strategy = b ? "B" : "A";
                r.states = b ? 4 : 3;
                r.q = 0.1 + 0.05 * size + (b ? 0.1 : 0.0);
                r.p = 0.6 - 0.5 * r.q;
                r.line = line++;
                set.rows.push_back(r);
            }
        }
    }
    return set;
}

/// ROWS runs of two strategies, A (1 x 2 threads) and B (2 x 1), at sizes spread over 1..100 and iterations
/// 1..5, and three runs of a rare strategy C (2 x 2): q = base + 0.002 size + 0.03 (1 - e^(-iteration/3)),
/// p = 0.9 - 0.5 q + 0.02 groups, each with a fixed noise of up to 0.005.
TrainingSet largeRuns(int rows)
{
    TrainingSet set;
    set.source = "large";
    unsigned state = 12345;
    const auto noise = [&state] {
        state = 1103515245u * state + 12345u;
        return 0.005 * (double((state >> 8) % 2001) / 1000.0 - 1.0);
    };
    const auto add = [&](const char *strategy, int groups, int threads, double base, double size, int iteration) {
        TrainingRow r;
        r.size = size;
        r.iteration = iteration;
        r.num_l2 = groups;
        r.threads_per_l2 = threads;
        r.strategy = strategy;
        r.states = std::pow(threads + 1, groups);
        r.q = base + 0.002 * size + 0.03 * (1 - std::exp(-iteration / 3.0)) + noise();
        r.p = 0.9 - 0.5 * r.q + 0.02 * groups + noise();
        r.line = int(set.rows.size()) + 2;
        set.rows.push_back(r);
    };
    for (int i = 0; i < rows - 3; ++i) {
        const bool b = i % 2 == 1;
        add(b ? "B" : "A", b ? 2 : 1, b ? 1 : 2, b ? 0.5 : 0.4, 1 + 99.0 * (i / 10) / ((rows - 3) / 10),
            1 + (i / 2) % 5);
    }
    for (int i = 0; i < 3; ++i)
        add("C", 2, 2, 0.45, 50 + i, 5);
    return set;
}

} // namespace

class TestExtrapolation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sampleHasTheThesisTreeShape()
    {
        // The p tree splits on q near 0.84, below it on the number of states at 20.5, above it on q again
        // near 0.98: four leaves, as in the thesis' example.
        const ExtrapolationModel m = trainExtrapolation(readTrainingSet(kSamples + "modeltree-training.csv"));
        const ModelTree &t = m.p_tree;
        QCOMPARE(t.target(), std::string("p_value"));
        QCOMPARE(t.leafCount(), 4);
        QCOMPARE(splitName(t, 0), std::string("q_value"));
        QVERIFY(t.root().threshold > 0.83 && t.root().threshold < 0.85);
        const int low = t.root().left;
        const int high = t.root().right;
        QCOMPARE(splitName(t, low), std::string("Num_MC_States"));
        QCOMPARE(node(t, low).threshold, 20.5);
        QCOMPARE(splitName(t, high), std::string("q_value"));
        QVERIFY(node(t, high).threshold > 0.96 && node(t, high).threshold < 0.99);
        for (int child : {node(t, low).left, node(t, low).right, node(t, high).left, node(t, high).right})
            QVERIFY(node(t, child).isLeaf());
        QCOMPARE(m.strategies.size(), std::size_t(7));
        QCOMPARE(m.min_size, 32.0);
        QCOMPARE(m.max_size, 128.0);
        // Below q = 0.84 with few states, p falls with q (the made-up truth's slope is -1.6).
        const LinearModel &lm1 = node(t, node(t, low).left).model;
        const auto qAt
                = std::find(lm1.attributes.begin(), lm1.attributes.end(), int(t.attributes().size()) - 1);
        QVERIFY(qAt != lm1.attributes.end());
        QVERIFY(lm1.coefficients[std::size_t(qAt - lm1.attributes.begin())] < -0.5);
    }

    void predictionsAreMarkovCpiRanked()
    {
        const ExtrapolationModel m = trainExtrapolation(readTrainingSet(kSamples + "modeltree-training.csv"));
        const std::vector<StrategyPrediction> all = predictAll(m, 160);
        QCOMPARE(all.size(), std::size_t(7));
        for (std::size_t i = 0; i < all.size(); ++i) {
            const StrategyPrediction &s = all[i];
            QVERIFY(s.p >= 0 && s.p <= 1 && s.q >= 0 && s.q <= 1);
            QCOMPARE(s.size, 160.0);
            QCOMPARE(s.iteration, 10.0);
            const MarkovResult r = solveMarkovExact(uniformTopology(s.groups, s.threads_per_group, s.p, s.q));
            QCOMPARE(s.markov.cpi, r.cpi);
            if (i > 0)
                QVERIFY(all[i - 1].markov.cpi <= s.markov.cpi);
        }
        const StrategyPrediction one = predictStrategy(m, "8threads_1threads_per_core", 160);
        QCOMPARE(one.groups, 4);
        QCOMPARE(one.threads_per_group, 2);
        QCOMPARE(predictStrategy(m, "8threads_1threads_per_core", 160, 3.0).iteration, 3.0);
    }

    void farOutIsClamped()
    {
        const ExtrapolationModel m = trainExtrapolation(readTrainingSet(kSamples + "modeltree-training.csv"));
        const StrategyPrediction s = predictStrategy(m, "8threads_4threads_per_core", 1000);
        // Far beyond the training sizes the linear leaves leave [0, 1]: q above 1, p below 0.
        QVERIFY(s.q_tree > 1);
        QVERIFY(s.p_tree < 0);
        QCOMPARE(s.q, 1.0);
        QCOMPARE(s.p, 0.0);
        QVERIFY(s.clamped);
        QCOMPARE(s.markov.cpi, solveMarkovExact(uniformTopology(1, 8, 0.0, 1.0)).cpi);
        QVERIFY(!predictStrategy(m, "8threads_4threads_per_core", 64).clamped);
    }

    void unknownStrategy()
    {
        const ExtrapolationModel m = trainExtrapolation(linearRuns());
        QCOMPARE(errorOf([&] { predictStrategy(m, "C", 10); }),
                 QStringLiteral("unknown mapping strategy 'C' (the training rows have A, B)"));
        QCOMPARE(errorOf([&] { predictStrategy(m, "A", std::nan("")); }),
                 QStringLiteral("the target application size must be a finite number within 1e100"));
        QVERIFY(errorOf([&] { predictStrategy(m, "A", 1e101); }).startsWith("the target application size"));
    }

    void linearTruthExtrapolatesExactly()
    {
        // At size 10: q = 0.6 (A) and 0.7 (B), p = 0.3 and 0.25. A is one group of two threads: a thread is
        // suspended with probability p / (p + 1 - q) = 3/7, all of them (3/7)^2, CPI 1 / (1 - 9/49) = 49/40.
        const ExtrapolationModel m = trainExtrapolation(linearRuns());
        const StrategyPrediction a = predictStrategy(m, "A", 10);
        QVERIFY(std::abs(a.q - 0.6) < 1e-9);
        QVERIFY(std::abs(a.p - 0.3) < 1e-9);
        QVERIFY(std::abs(a.markov.cpi - 49.0 / 40.0) < 1e-9);
        const StrategyPrediction b = predictStrategy(m, "B", 10);
        QVERIFY(std::abs(b.q - 0.7) < 1e-9);
        QVERIFY(std::abs(b.p - 0.25) < 1e-9);
        QCOMPARE(b.groups, 2);
        QVERIFY(!a.clamped && !b.clamped);
    }

    void largeSetGrowsTreesOnSpreadRows()
    {
        // 30,000 rows: the trees learn from about kTreeRowLimit of them, spread over each strategy's sizes and
        // iterations (the rare strategy keeps one), and predict what trees grown on every row predict.
        const TrainingSet set = largeRuns(30000);
        const std::vector<std::size_t> picked = treeRows(set);
        QVERIFY(picked.size() >= kTreeRowLimit - 3 && picked.size() <= kTreeRowLimit + 3);
        QVERIFY(std::is_sorted(picked.begin(), picked.end()));
        QVERIFY(std::any_of(picked.begin(), picked.end(), [&](std::size_t i) { return set.rows[i].strategy == "C"; }));
        double lowest = 1e9;
        double highest = 0;
        for (std::size_t i : picked) {
            lowest = std::min(lowest, set.rows[i].size);
            highest = std::max(highest, set.rows[i].size);
        }
        QVERIFY(lowest < 2 && highest > 99);
        QCOMPARE(treeRows(largeRuns(500)).size(), std::size_t(500)); // a small set: every row

        const ExtrapolationModel spread = trainExtrapolation(set);
        QCOMPARE(spread.rows, std::size_t(30000));
        QCOMPARE(spread.tree_rows, picked.size());
        QCOMPARE(spread.q_tree.root().count, int(picked.size()));
        QCOMPARE(spread.min_size, 1.0);
        QCOMPARE(spread.max_size, 100.0);
        QCOMPARE(spread.strategies.size(), std::size_t(3));
        const ExtrapolationModel exact = trainExtrapolation(set, {}, set.rows.size());
        QCOMPARE(exact.tree_rows, std::size_t(30000));
        for (double size : {50.0, 100.0, 130.0}) {
            for (const char *name : {"A", "B", "C"}) {
                const StrategyPrediction a = predictStrategy(spread, name, size);
                const StrategyPrediction b = predictStrategy(exact, name, size);
                QVERIFY2(std::abs(a.q - b.q) < 0.01 && std::abs(a.p - b.p) < 0.01,
                         qPrintable(QString("%1 at %2: q %3 / %4, p %5 / %6")
                                            .arg(name).arg(size).arg(a.q).arg(b.q).arg(a.p).arg(b.p)));
            }
        }
        const ExtrapolationCv cv = crossValidateExtrapolation(set);
        QCOMPARE(cv.rows, picked.size());
        QCOMPARE(cv.p.predictions.size(), picked.size());
        QVERIFY(cv.q.mse < 1e-4 && cv.p.mse < 1e-4); // the noise is at most 0.005
        QVERIFY_THROWS_EXCEPTION(InputError, crossValidateExtrapolation(set, {}, int(picked.size()) + 1));
    }

    void crossValidation()
    {
        const TrainingSet set = readTrainingSet(kSamples + "modeltree-training.csv");
        const ExtrapolationCv cv = crossValidateExtrapolation(set);
        QCOMPARE(cv.p.folds, 10);
        QCOMPARE(cv.p.predictions.size(), set.rows.size());
        QVERIFY2(cv.p.mse > 0 && cv.p.mse < 1e-3, qPrintable(QString::number(cv.p.mse)));
        QVERIFY2(cv.q.mse > 0 && cv.q.mse < 1e-4, qPrintable(QString::number(cv.q.mse)));
        const ExtrapolationCv again = crossValidateExtrapolation(set);
        QCOMPARE(again.p.mse, cv.p.mse);
        QCOMPARE(again.q.predictions, cv.q.predictions);
        QCOMPARE(errorOf([&] { crossValidateExtrapolation(set, {}, 351); }),
                 QStringLiteral(
                         "cross-validation: 351 folds for 350 rows (the folds must be between 2 and the "
                         "number of rows)"));
    }

    void checkAgainstMeasuredCpi()
    {
        const ExtrapolationModel m = trainExtrapolation(readTrainingSet(kSamples + "modeltree-training.csv"));
        const CpiCheck check = checkCpi(m, readCpiMeasurements(kSamples + "modeltree-measured-cpi.csv"));
        QCOMPARE(check.rows.size(), std::size_t(12));
        double sum = 0;
        for (const CpiCheckRow &r : check.rows) {
            QCOMPARE(r.error_percent, 100 * (r.predicted.markov.cpi - r.measured.cpi) / r.measured.cpi);
            sum += r.error_percent;
        }
        QVERIFY(std::abs(check.mean_error_percent - sum / 12) < 1e-9);
        double squares = 0;
        for (const CpiCheckRow &r : check.rows)
            squares += std::pow(r.error_percent - check.mean_error_percent, 2);
        QVERIFY(std::abs(check.sd_error_percent - std::sqrt(squares / 12)) < 1e-9);
        QVERIFY2(check.mean_abs_error_percent < 10,
                 qPrintable(QString::number(check.mean_abs_error_percent)));
        QCOMPARE(check.infinite, 0);

        const std::vector<CpiMeasurement> unknown {{"C", 10, std::nullopt, 1.5, 7}};
        QCOMPARE(errorOf([&] { checkCpi(trainExtrapolation(linearRuns()), unknown); }),
                 QStringLiteral("line 7: unknown mapping strategy 'C' (the training rows have A, B)"));
        QCOMPARE(errorOf([&] { checkCpi(m, {}); }), QStringLiteral("no measured CPI to check against"));
    }
};

QTEST_GUILESS_MAIN(TestExtrapolation)
#include "tst_extrapolation.moc"
