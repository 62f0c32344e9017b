// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "core/error_of.h"

#include <QTest>

#include <cmath>

using crossroof::cli::Args;
using crossroof::test::errorOf;

class TestArgs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void numberReadsDecimals_data();
    void numberReadsDecimals();
    void numberRefusals_data();
    void numberRefusals();
    void decimalValueNamesWhatItReads();
};

namespace {

Args withValue(const std::string &value)
{
    return Args({"--x", value}, {{}, {"x"}, {}});
}

} // namespace

void TestArgs::numberReadsDecimals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected");
    QTest::newRow("whole") << "85" << 85.0;
    QTest::newRow("fraction") << "0.25" << 0.25;
    QTest::newRow("negative") << "-3.5" << -3.5;
    QTest::newRow("exponent") << "1e-3" << 1e-3;
    QTest::newRow("lower bound") << "10" << 10.0;
    QTest::newRow("upper bound") << "1000" << 1000.0;
}

void TestArgs::numberReadsDecimals()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    QCOMPARE(withValue(text.toStdString()).number("x", 0, -1000, 1000), expected);
}

void TestArgs::numberRefusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("word") << "big" << "option '--x': 'big' is not a number";
    QTest::newRow("empty") << "" << "option '--x': '' is not a number";
    QTest::newRow("blank before") << " 5" << "option '--x': ' 5' is not a number";
    QTest::newRow("plus") << "+5" << "option '--x': '+5' is not a number";
    QTest::newRow("trailing unit") << "5mm" << "option '--x': '5mm' is not a number";
    QTest::newRow("decimal comma") << "2,5" << "option '--x': '2,5' is not a number";
    QTest::newRow("nan") << "nan" << "option '--x': must be a finite number (got nan)";
    QTest::newRow("infinity") << "-inf" << "option '--x': must be a finite number (got -inf)";
    QTest::newRow("beyond a double") << "1e400" << "option '--x': '1e400' is not a number";
    QTest::newRow("below") << "9.5" << "option '--x': must be between 10 and 1000 (got 9.5)";
    QTest::newRow("above") << "1000.0001" << "option '--x': must be between 10 and 1000 (got 1000.0001)";
}

void TestArgs::numberRefusals()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const Args args = withValue(text.toStdString());
    QCOMPARE(errorOf([&] { args.number("x", 0, 10, 1000); }), message);
}

void TestArgs::decimalValueNamesWhatItReads()
{
    // Without the option: the fallback, unchecked; without bounds: any finite number.
    const Args none({}, {{}, {"x"}, {}});
    QCOMPARE(none.number("x", 85, 10, 20), 85.0);
    QCOMPARE(withValue("-1e300").number("x", 0), -1e300);
    // A part of a value: the message starts with what the caller names.
    QCOMPARE(crossroof::cli::decimalValue("0.5", "option '--point 2T_1'", 0, 1), 0.5);
    QCOMPARE(errorOf([] { crossroof::cli::decimalValue("1.5", "option '--point 2T_1'", 0, 1); }),
             QStringLiteral("option '--point 2T_1': must be between 0 and 1 (got 1.5)"));
    QCOMPARE(errorOf([] { crossroof::cli::decimalValue("1e-5", "p", 0.001, 0.5); }),
             QStringLiteral("p: must be between 0.001 and 0.5 (got 1e-5)"));
}

QTEST_APPLESS_MAIN(TestArgs)
#include "tst_args.moc"
