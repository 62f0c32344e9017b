// SPDX-License-Identifier: GPL-3.0-or-later
// M5' model trees on data whose answer is known: a piecewise-linear truth, a plain linear one, a tree small
// enough to compute by hand, ties, and bad input.

#include "core/error_of.h"
#include "core/modeltree/model_tree.h"
#include "core/modeltree/tree_text.h"
#include "core/support/error.h"

#include <QTest>

#include <cmath>

using namespace crossroof::core;

namespace {

using crossroof::test::errorOf;

/// ROWS rows of the attributes COLUMNS(i) and the target TARGET(i).
template<typename X, typename Y>
RegressionData table(int rows, std::vector<std::string> names, X columns, Y target)
{
    RegressionData d;
    d.target = "y";
    d.attributes = std::move(names);
    d.x.resize(rows, Eigen::Index(d.attributes.size()));
    d.y.resize(rows);
    for (int i = 0; i < rows; ++i) {
        const std::vector<double> row = columns(i);
        for (std::size_t a = 0; a < row.size(); ++a)
            d.x(i, Eigen::Index(a)) = row[a];
        d.y[i] = target(row);
    }
    return d;
}

/// A coefficient of MODEL (0 when the attribute is not in it).
double coefficient(const LinearModel &model, int attribute)
{
    for (std::size_t i = 0; i < model.attributes.size(); ++i) {
        if (model.attributes[i] == attribute)
            return model.coefficients[i];
    }
    return 0;
}

/// An attribute that carries no information: a fixed scramble of the row number.
double noise(int i)
{
    return double((i * 37 + 11) % 101) / 10.0;
}

} // namespace

class TestModelTree : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void errorFactor()
    {
        QCOMPARE(m5ErrorFactor(10, 2), 1.5);
        QCOMPARE(m5ErrorFactor(8, 1), 9.0 / 7.0);
        QCOMPARE(m5ErrorFactor(2, 2), 10.0);
        QCOMPARE(m5ErrorFactor(1, 3), 10.0);
    }

    void piecewiseLinearTruth()
    {
        // y = x below 5 and 20 + 3x from 5 on, with a useless second attribute.
        const RegressionData d = table(
                100, {"x", "z"},
                [](int i) {
                    return std::vector<double> {i / 10.0, noise(i)};
                },
                [](const std::vector<double> &r) { return r[0] < 5 ? r[0] : 20 + 3 * r[0]; });
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(tree.leafCount(), 2);
        const ModelTreeNode &root = tree.root();
        QCOMPARE(root.attribute, 0);
        QVERIFY2(root.threshold > 4.9 && root.threshold < 5.0, qPrintable(QString::number(root.threshold)));
        const ModelTreeNode &left = tree.nodes()[std::size_t(root.left)];
        const ModelTreeNode &right = tree.nodes()[std::size_t(root.right)];
        QCOMPARE(left.count, 50);
        QCOMPARE(right.count, 50);
        QCOMPARE(left.model.attributes, std::vector<int> {0});
        QCOMPARE(right.model.attributes, std::vector<int> {0});
        QVERIFY(std::abs(coefficient(left.model, 0) - 1) < 1e-9);
        QVERIFY(std::abs(left.model.intercept) < 1e-9);
        QVERIFY(std::abs(coefficient(right.model, 0) - 3) < 1e-9);
        QVERIFY(std::abs(right.model.intercept - 20) < 1e-9);
        QCOMPARE(left.leaf_number, 1);
        QCOMPARE(right.leaf_number, 2);

        // Unsmoothed, the leaves are the truth; smoothed, the root's model pulls a little.
        M5Options raw;
        raw.smooth = false;
        const ModelTree sharp = ModelTree::train(d, raw);
        QVERIFY(std::abs(sharp.predict(std::vector<double> {2.0, 3.0}) - 2.0) < 1e-9);
        QVERIFY(std::abs(sharp.predict(std::vector<double> {8.0, 3.0}) - 44.0) < 1e-9);
        const double smoothed = tree.predict(std::vector<double> {2.0, 3.0});
        QVERIFY(smoothed != 2.0 && std::abs(smoothed - 2.0) < 5);
    }

    void predictingModelIsWhatPredicts()
    {
        // Two levels of splits, so that smoothing blends three models: the printed (predicting) model of each
        // leaf gives exactly what predict() gives, on and off the training rows, and far outside them.
        const RegressionData d = table(
                120, {"x", "z"},
                [](int i) {
                    return std::vector<double> {i / 10.0, noise(i)};
                },
                [](const std::vector<double> &r) {
                    return r[0] < 4 ? r[0] : r[0] < 8 ? 20 + 3 * r[0] : 50 - r[0] + 0.5 * r[1];
                });
        for (bool smooth : {true, false}) {
            M5Options options;
            options.smooth = smooth;
            const ModelTree tree = ModelTree::train(d, options);
            QVERIFY(tree.leafCount() >= 3);
            for (const std::vector<double> &row : {std::vector<double> {1.0, 2.0}, std::vector<double> {5.5, 9.0},
                                                   std::vector<double> {10.0, 0.5}, std::vector<double> {100.0, 50.0},
                                                   std::vector<double> {-30.0, 3.0}}) {
                const int leaf = tree.leafOf(row);
                const LinearModel model = tree.predictingModel(leaf);
                const double predicted = tree.predict(row);
                QVERIFY2(std::abs(model.predict(row) - predicted) <= 1e-9 * (1 + std::abs(predicted)),
                         qPrintable(QStringLiteral("smooth %1, x %2: %3 against %4")
                                            .arg(smooth)
                                            .arg(row[0])
                                            .arg(model.predict(row))
                                            .arg(predicted)));
                if (!smooth) {
                    const LinearModel &own = tree.nodes()[std::size_t(leaf)].model;
                    QCOMPARE(model.attributes, own.attributes);
                    QCOMPARE(model.coefficients, own.coefficients);
                    QCOMPARE(model.intercept, own.intercept);
                }
            }
        }
        // Only a leaf has a predicting model.
        const ModelTree tree = ModelTree::train(d);
        QVERIFY(!errorOf([&] { tree.predictingModel(0); }).isEmpty());
    }

    void plainLinearTruthIsOneLeaf()
    {
        const RegressionData d = table(
                60, {"x", "z", "w"},
                [](int i) {
                    return std::vector<double> {i * 0.5, noise(i), 7.0};
                },
                [](const std::vector<double> &r) { return 1 + 2 * r[0] - 3 * r[1]; });
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(tree.leafCount(), 1);
        QCOMPARE(tree.nodes().size(), std::size_t(1));
        const LinearModel &m = tree.root().model;
        QCOMPARE(m.attributes, (std::vector<int> {0, 1})); // the constant w never enters
        QVERIFY(std::abs(coefficient(m, 0) - 2) < 1e-9);
        QVERIFY(std::abs(coefficient(m, 1) + 3) < 1e-9);
        QVERIFY(std::abs(m.intercept - 1) < 1e-9);
        QVERIFY(std::abs(tree.predict(std::vector<double> {100.0, 1.0, 7.0}) - 198) < 1e-6);
    }

    void smallTreeByHand()
    {
        // x = 1..8, y = 1 for x <= 4 and 5 above. Root sd 2; the split at 4.5 leaves sd 0 on both sides (SDR
        // 2). The root's model: slope Sxy/Sxx = 32/42, rms sqrt((32 - 32 * 32/42) / 8), times (8+2)/(8-2),
        // beats the constant (rms 2 times 9/7), so it keeps x. Smoothed at x = 1: (4 * 1 + 15 * (3 - 3.5 *
        // 32/42)) / 19.
        const RegressionData d = table(
                8, {"x"}, [](int i) { return std::vector<double> {double(i + 1)}; },
                [](const std::vector<double> &r) { return r[0] <= 4 ? 1.0 : 5.0; });
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(tree.nodes().size(), std::size_t(3));
        QCOMPARE(tree.root().threshold, 4.5);
        QCOMPARE(tree.root().sd, 2.0);
        QCOMPARE(tree.root().model.attributes, std::vector<int> {0});
        QVERIFY(std::abs(tree.root().model.coefficients[0] - 32.0 / 42.0) < 1e-12);
        QVERIFY(std::abs(tree.root().rms_error - std::sqrt((32 - 32 * 32.0 / 42) / 8)) < 1e-12);
        QCOMPARE(tree.nodes()[1].model.intercept, 1.0);
        QCOMPARE(tree.nodes()[2].model.intercept, 5.0);
        const double rootAt1 = 3 - 3.5 * 32.0 / 42.0;
        QVERIFY(std::abs(tree.predict(std::vector<double> {1.0}) - (4 + 15 * rootAt1) / 19) < 1e-12);
        QVERIFY(std::abs(tree.predict(std::vector<double> {1.0}) - 9.0 / 19.0) < 1e-12);

        // Each side needs min_leaf rows: with 5 there is no split at all, only the root's model.
        M5Options five;
        five.min_leaf = 5;
        QCOMPARE(ModelTree::train(d, five).leafCount(), 1);
    }

    void pruningKeepsOrDropsTheSubtree()
    {
        // Without pruning, the grown tree of a linear truth has many leaves; pruned, one.
        const RegressionData d = table(
                40, {"x"}, [](int i) { return std::vector<double> {double(i)}; },
                [](const std::vector<double> &r) { return 2 * r[0]; });
        M5Options grown;
        grown.prune = false;
        QVERIFY(ModelTree::train(d, grown).leafCount() > 2);
        QCOMPARE(ModelTree::train(d).leafCount(), 1);
    }

    void tiesGoToTheLowerAttribute()
    {
        // Two copies of the same attribute: the split is on the first one.
        const RegressionData d = table(
                20, {"a", "b"},
                [](int i) {
                    return std::vector<double> {double(i), double(i)};
                },
                [](const std::vector<double> &r) { return r[0] < 10 ? 0.0 : 10.0; });
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(tree.root().attribute, 0);
        QCOMPARE(tree.root().threshold, 9.5);
    }

    void deterministic()
    {
        const RegressionData d = table(
                300, {"x", "z", "w"},
                [](int i) {
                    return std::vector<double> {double(i % 17), noise(i), double(i % 5)};
                },
                [](const std::vector<double> &r) {
                    return r[0] > 8 ? r[1] * r[2] : std::sin(r[0]) + 0.1 * r[1];
                });
        const ModelTree a = ModelTree::train(d);
        const ModelTree b = ModelTree::train(d);
        QCOMPARE(treeText(a), treeText(b));
        QCOMPARE(a.nodes().size(), b.nodes().size());
        for (std::size_t i = 0; i < a.nodes().size(); ++i) {
            QCOMPARE(a.nodes()[i].attribute, b.nodes()[i].attribute);
            QCOMPARE(a.nodes()[i].threshold, b.nodes()[i].threshold);
            QCOMPARE(a.nodes()[i].model.coefficients, b.nodes()[i].model.coefficients);
        }
        QVERIFY(a.leafCount() > 1);
        for (int i = 0; i < 300; i += 7) {
            const std::vector<double> row {double(i % 17), noise(i), double(i % 5)};
            QCOMPARE(a.predict(row), b.predict(row));
        }
    }

    void constantTargetIsOneConstantLeaf()
    {
        const RegressionData d = table(
                10, {"x"}, [](int i) { return std::vector<double> {double(i)}; },
                [](const std::vector<double> &) { return 0.25; });
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(tree.leafCount(), 1);
        QCOMPARE(tree.predict(std::vector<double> {3.0}), 0.25);
    }

    void badInput()
    {
        const RegressionData one = table(
                1, {"x"}, [](int) { return std::vector<double> {1.0}; },
                [](const std::vector<double> &) { return 1.0; });
        QCOMPARE(errorOf([&] { ModelTree::train(one); }),
                 QStringLiteral("a model tree needs at least 2 rows, not 1"));
        RegressionData nan = table(
                4, {"x"}, [](int i) { return std::vector<double> {double(i)}; },
                [](const std::vector<double> &r) { return r[0]; });
        nan.x(2, 0) = std::nan("");
        QCOMPARE(errorOf([&] { ModelTree::train(nan); }),
                 QStringLiteral("regression data: row 3: attribute 'x' is not a finite number within 1e100"));
        nan.x(2, 0) = -2e100;
        QVERIFY(errorOf([&] {
                    ModelTree::train(nan);
                }).contains("row 3: attribute 'x' is not a finite number"));
        RegressionData unnamed = nan;
        unnamed.attributes.clear();
        QVERIFY(errorOf([&] { ModelTree::train(unnamed); }).contains("1 attribute columns but 0 names"));
        M5Options bad;
        bad.min_leaf = 0;
        QVERIFY(errorOf([&] { ModelTree::train(nan, bad); }).contains("minimum rows per leaf: 0"));
        const RegressionData fine = table(
                4, {"x"}, [](int i) { return std::vector<double> {double(i)}; },
                [](const std::vector<double> &r) { return r[0]; });
        const ModelTree tree = ModelTree::train(fine);
        QVERIFY(errorOf([&] { tree.predict(std::vector<double> {1.0, 2.0}); }).contains("a row of 2 values"));
    }

    void nominalEncodingOrdersByMeanTarget()
    {
        const std::vector<std::string> labels {"b", "a", "c", "a", "b", "c"};
        const std::vector<double> y {0.5, 0.9, 0.1, 0.7, 0.5, 0.3};
        const NominalEncoding e = NominalEncoding::byMeanTarget("MS", labels, y);
        QCOMPARE(e.values, (std::vector<std::string> {"c", "b", "a"}));
        QCOMPARE(e.binaryNames(), (std::vector<std::string> {"MS=b,a", "MS=a"}));
        QCOMPARE(e.encode("c"), (std::vector<double> {0, 0}));
        QCOMPARE(e.encode("b"), (std::vector<double> {1, 0}));
        QCOMPARE(e.encode("a"), (std::vector<double> {1, 1}));
        QCOMPARE(errorOf([&] { e.encode("d"); }),
                 QStringLiteral("attribute 'MS': unknown value 'd' (the training rows have c, b, a)"));
    }
};

QTEST_GUILESS_MAIN(TestModelTree)
#include "tst_model_tree.moc"
