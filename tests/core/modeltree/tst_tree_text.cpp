// SPDX-License-Identifier: GPL-3.0-or-later
// A model tree in print: the indented tree, the rule table of the thesis' appendix, the linear models.

#include "core/modeltree/tree_text.h"

#include <QTest>

using namespace crossroof::core;

namespace {

/// x = 1..12, y = 1 up to 4, 5 from 5 to 8, 2x above. The largest reduction splits off the last four first
/// (at 8.5), then the rest at 4.5. Four rows are too few to split again (min_leaf 4 on each side), so the
/// last leaf is a leaf from the start, whose model is its mean (21, rms error sqrt(5)): a leaf of the grown
/// tree tests no attribute, so its model has none.
ModelTree stepTree(bool smooth = true)
{
    RegressionData d;
    d.target = "y";
    d.attributes = {"x"};
    d.x.resize(12, 1);
    d.y.resize(12);
    for (int i = 0; i < 12; ++i) {
        const double x = i + 1;
        d.x(i, 0) = x;
        d.y[i] = x <= 4 ? 1 : x <= 8 ? 5 : 2 * x;
    }
    M5Options options;
    options.smooth = smooth;
    return ModelTree::train(d, options);
}

} // namespace

class TestTreeText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ranges()
    {
        QCOMPARE(AttributeRange {}.text(), std::string());
        QCOMPARE((AttributeRange {-std::numeric_limits<double>::infinity(), 0.84}).text(),
                 std::string("<= 0.84"));
        QCOMPARE((AttributeRange {0.84, std::numeric_limits<double>::infinity()}).text(),
                 std::string("> 0.84"));
        QCOMPARE((AttributeRange {0.84, 0.982}).text(), std::string("> 0.84 <= 0.982"));
    }

    void ruleTable()
    {
        const ModelTree tree = stepTree();
        const TreeTable table = treeTable(tree);
        QCOMPARE(table.columns, std::vector<int> {0});
        QCOMPARE(table.rows.size(), std::size_t(3));
        QCOMPARE(tree.root().threshold, 8.5);
        QCOMPARE(table.rows[0].ranges[0].text(), std::string("<= 4.5"));
        QCOMPARE(table.rows[1].ranges[0].text(), std::string("> 4.5 <= 8.5"));
        QCOMPARE(table.rows[2].ranges[0].text(), std::string("> 8.5"));
        QCOMPARE(table.rows[2].leaf_number, 3);
        QCOMPARE(leafName(table.rows[2].leaf_number), std::string("LM3"));
    }

    void linearModel()
    {
        LinearModel m;
        m.attributes = {0, 1};
        m.coefficients = {2, -0.04123};
        m.intercept = -1.5;
        RegressionData d;
        d.target = "p_value";
        d.attributes = {"Num_L2", "q_value"};
        d.x = Eigen::MatrixXd {{1, 0.5}, {2, 0.7}};
        d.y = Eigen::VectorXd {{0.1, 0.3}};
        const ModelTree tree = ModelTree::train(d);
        QCOMPARE(linearModelText(tree, m),
                 std::string("p_value =\n    + 2 * Num_L2\n    - 0.04123 * q_value\n    - 1.5\n"));
    }

    void wholeTree()
    {
        // Unsmoothed, the printed models are the leaves' own.
        const std::string text = treeText(stepTree(false));
        QCOMPARE(text, std::string("Model tree for y (3 leaves, 12 rows)\n\n"
                                   "x <= 8.5\n"
                                   "|   x <= 4.5 : LM1 (4 rows, rms error 0)\n"
                                   "|   x > 4.5 : LM2 (4 rows, rms error 0)\n"
                                   "x > 8.5 : LM3 (4 rows, rms error 2.236)\n\n"
                                   "Rules:\n"
                                   "  x             model\n"
                                   "  <= 4.5        LM1\n"
                                   "  > 4.5 <= 8.5  LM2\n"
                                   "  > 8.5         LM3\n\n"
                                   "Linear models (each leaf's own, as the tree predicts without smoothing):\n"
                                   "LM1:\ny =\n    + 1\n\n"
                                   "LM2:\ny =\n    + 5\n\n"
                                   "LM3:\ny =\n    + 21\n\n"));
        // Smoothed (the default), they are the blends that predict: LM1 is no longer 1, and each printed model
        // gives the tree's prediction on its leaf's rows.
        const ModelTree smooth = stepTree();
        const std::string blended = treeText(smooth);
        QVERIFY(blended.find("Smoothed linear models") != std::string::npos);
        QVERIFY(blended.find("LM1:\ny =\n    + 1\n") == std::string::npos);
        for (std::size_t i = 0; i < smooth.nodes().size(); ++i) {
            if (!smooth.nodes()[i].isLeaf())
                continue;
            const LinearModel model = smooth.predictingModel(int(i));
            QVERIFY(blended.find(leafName(smooth.nodes()[i].leaf_number) + ":\n" + linearModelText(smooth, model))
                    != std::string::npos);
            for (double x = 1; x <= 12; ++x) {
                const std::vector<double> row {x};
                if (smooth.leafOf(row) == int(i))
                    QVERIFY(std::abs(model.predict(row) - smooth.predict(row)) < 1e-12);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTreeText)
#include "tst_tree_text.moc"
