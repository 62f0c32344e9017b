// SPDX-License-Identifier: GPL-3.0-or-later
// k-fold cross-validation of model trees: the fold rule, a leave-one-out case computed by hand, bad folds.

#include "core/error_of.h"
#include "core/modeltree/cross_validation.h"
#include "core/support/error.h"

#include <QTest>

using namespace crossroof::core;

namespace {

using crossroof::test::errorOf;

RegressionData column(std::vector<double> x, std::vector<double> y)
{
    RegressionData d;
    d.target = "y";
    d.attributes = {"x"};
    d.x = Eigen::Map<Eigen::VectorXd>(x.data(), Eigen::Index(x.size()));
    d.y = Eigen::Map<Eigen::VectorXd>(y.data(), Eigen::Index(y.size()));
    return d;
}

} // namespace

class TestCrossValidation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void foldsAreDealtInTurn()
    {
        std::vector<int> folds;
        for (std::size_t r = 0; r < 7; ++r)
            folds.push_back(foldOf(r, 3));
        QCOMPARE(folds, (std::vector<int> {0, 1, 2, 0, 1, 2, 0}));
    }

    void leaveOneOutOfTheMean()
    {
        // x says nothing (constant), so every tree is the mean of what it saw. Nine zeros and one 10, ten
        // folds: each zero is predicted 10/9 and the 10 is predicted 0. MSE (9 (10/9)^2 + 100) / 10 = 100/9,
        // MAE (9 * 10/9 + 10) / 10 = 2.
        const RegressionData d = column(std::vector<double>(10, 1.0), {0, 0, 0, 0, 0, 0, 0, 0, 0, 10});
        const CrossValidation cv = crossValidate(d, {}, 10);
        QCOMPARE(cv.folds, 10);
        QVERIFY(std::abs(cv.mse - 100.0 / 9.0) < 1e-12);
        QVERIFY(std::abs(cv.mae - 2.0) < 1e-12);
        QVERIFY(std::abs(cv.rmse - std::sqrt(100.0 / 9.0)) < 1e-12);
        QCOMPARE(cv.predictions.size(), std::size_t(10));
        QVERIFY(std::abs(cv.predictions[0] - 10.0 / 9.0) < 1e-12);
        QCOMPARE(cv.predictions[9], 0.0);
    }

    void linearTruthHasNoError()
    {
        std::vector<double> x;
        std::vector<double> y;
        for (int i = 0; i < 30; ++i) {
            x.push_back(i);
            y.push_back(3 - 0.5 * i);
        }
        const CrossValidation cv = crossValidate(column(x, y), {}, 5);
        QVERIFY2(cv.mse < 1e-20, qPrintable(QString::number(cv.mse)));
    }

    void summary()
    {
        Eigen::VectorXd y(3);
        y << 1, 2, 3;
        const CrossValidation cv = summarizeFolds(3, {1, 4, 0}, y);
        QCOMPARE(cv.mse, 13.0 / 3.0);
        QCOMPARE(cv.mae, 5.0 / 3.0);
    }

    void badFolds()
    {
        const RegressionData d = column({1, 2, 3, 4}, {1, 2, 3, 5});
        QCOMPARE(errorOf([&] { crossValidate(d, {}, 1); }),
                 QStringLiteral(
                         "cross-validation: 1 folds for 4 rows (the folds must be between 2 and the number "
                         "of rows)"));
        QVERIFY(errorOf([&] { crossValidate(d, {}, 5); }).startsWith("cross-validation: 5 folds for 4 rows"));
        QVERIFY(errorOf([&] { crossValidate(d, {}, 4); }).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCrossValidation)
#include "tst_cross_validation.moc"
