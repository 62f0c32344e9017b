// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_format.h"

#include <QTest>

#include <limits>

using namespace crossroof::widgets;

class TestNumberFormat : public QObject
{
    Q_OBJECT
private slots:
    void resultsHaveFourDigits_data();
    void resultsHaveFourDigits();
    void inputsReadBackExactly_data();
    void inputsReadBackExactly();
    void quantitiesTakeAnSiPrefix_data();
    void quantitiesTakeAnSiPrefix();
    void readingsHaveNoPowers_data();
    void readingsHaveNoPowers();
    void groupedNumbersHaveNoPowers();
};

void TestNumberFormat::resultsHaveFourDigits_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("precision");
    QTest::addColumn<QString>("text");
    QTest::newRow("plain") << 917.8384 << 4 << QStringLiteral("917.8");
    QTest::newRow("half") << 0.5 << 4 << QStringLiteral("0.5");
    QTest::newRow("large") << 1e9 << 4 << QStringLiteral("1e+09");
    QTest::newRow("three digits") << 0.38461 << 3 << QStringLiteral("0.385");
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 4 << QStringLiteral("∞");
    QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity() << 4 << QStringLiteral("−∞");
    QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << 4 << QStringLiteral("–");
}

void TestNumberFormat::resultsHaveFourDigits()
{
    QFETCH(double, value);
    QFETCH(int, precision);
    QFETCH(QString, text);
    QCOMPARE(formatNumber(value, precision), text);
}

void TestNumberFormat::inputsReadBackExactly_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("tenth") << 0.1 << QStringLiteral("0.1");
    QTest::newRow("billion") << 1e9 << QStringLiteral("1e+09");
    QTest::newRow("power of two") << 1073741824.0 << QStringLiteral("1073741824");
    QTest::newRow("third") << 1.0 / 3 << QStringLiteral("0.3333333333333333");
    QTest::newRow("sum") << 0.1 + 0.2 << QStringLiteral("0.30000000000000004");
}

void TestNumberFormat::inputsReadBackExactly()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(formatExact(value), text);
    QCOMPARE(formatExact(value).toDouble(), value);
}

void TestNumberFormat::quantitiesTakeAnSiPrefix_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("precision");
    QTest::addColumn<QString>("text");
    QTest::newRow("Gop/s to Top/s") << 1.211e4 << QStringLiteral("op/s") << si::giga << 3
                                    << QStringLiteral("12.1 Top/s");
    QTest::newRow("GB/s stays") << 897.2 << QStringLiteral("B/s") << si::giga << 4
                                << QStringLiteral("897.2 GB/s");
    QTest::newRow("GB/s to TB/s") << 3350.0 << QStringLiteral("B/s") << si::giga << 3
                                  << QStringLiteral("3.35 TB/s");
    QTest::newRow("GB/s to MB/s") << 0.25 << QStringLiteral("B/s") << si::giga << 3
                                  << QStringLiteral("250 MB/s");
    QTest::newRow("base unit") << 1500.0 << QStringLiteral("B") << 1.0 << 3 << QStringLiteral("1.5 kB");
    QTest::newRow("small") << 2.5e-6 << QStringLiteral("s") << 1.0 << 3 << QStringLiteral("2.5 µs");
    QTest::newRow("rounding carries")
            << 999.96 << QStringLiteral("B/s") << si::giga << 4 << QStringLiteral("1 TB/s");
    QTest::newRow("negative") << -1500.0 << QStringLiteral("B/s") << si::giga << 3
                              << QStringLiteral("-1.5 TB/s");
    QTest::newRow("zero keeps the scale")
            << 0.0 << QStringLiteral("B/s") << si::giga << 3 << QStringLiteral("0 GB/s");
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << QStringLiteral("B/s") << si::giga
                              << 3 << QStringLiteral("∞ GB/s");
}

void TestNumberFormat::quantitiesTakeAnSiPrefix()
{
    QFETCH(double, value);
    QFETCH(QString, unit);
    QFETCH(double, scale);
    QFETCH(int, precision);
    QFETCH(QString, text);
    QCOMPARE(formatQuantity(value, unit, scale, precision), text);
}

void TestNumberFormat::readingsHaveNoPowers_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    // The X-graph's crosshair over the H100's compute side read "CS throughput (Gop/s) = 1.387e+04".
    QTest::newRow("throughput") << QStringLiteral("CS throughput (Gop/s)") << 13870.4 << QStringLiteral("CS throughput = 13.87 Top/s");
    QTest::newRow("bandwidth") << QStringLiteral("MS throughput (GB/s)") << 2016.0 << QStringLiteral("MS throughput = 2.016 TB/s");
    QTest::newRow("small bandwidth") << QStringLiteral("MS throughput (GB/s)") << 0.5 << QStringLiteral("MS throughput = 500 MB/s");
    QTest::newRow("count") << QStringLiteral("k: warps in the memory system") << 13870.4 << QStringLiteral("k: warps in the memory system = 13,870");
    QTest::newRow("plain") << QStringLiteral("k (warps)") << 12.25 << QStringLiteral("k (warps) = 12.25");
    QTest::newRow("minutes") << QStringLiteral("time (min)") << 3.5 << QStringLiteral("time (min) = 3.5");
    QTest::newRow("negative") << QStringLiteral("y") << -2.5e6 << QStringLiteral("y = -2,500,000");
}

void TestNumberFormat::readingsHaveNoPowers()
{
    QFETCH(QString, label);
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(formatReading(label, value), text);
}

void TestNumberFormat::groupedNumbersHaveNoPowers()
{
    // The Bandwidth view's table of peaks and means in GB/s read "1.23e+03" for an H100's 1,230 GB/s.
    QCOMPARE(formatGrouped(1234.5, 3), QStringLiteral("1,230"));
    QCOMPARE(formatGrouped(13870.4), QStringLiteral("13,870"));
    QCOMPARE(formatGrouped(917.8384), QStringLiteral("917.8"));
    QCOMPARE(formatGrouped(0.5), QStringLiteral("0.5"));
    QCOMPARE(formatGrouped(std::numeric_limits<double>::infinity()), QStringLiteral("∞"));
}

QTEST_MAIN(TestNumberFormat)
#include "tst_number_format.moc"
