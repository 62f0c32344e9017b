// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/numbers.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof;

class TestNumbers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void wholeTextIsANumber();
    void anythingElseIsRefused();
    void integersInTheirType();
};

void TestNumbers::wholeTextIsANumber()
{
    QCOMPARE(core::parseNumber("0.5"), std::optional<double>(0.5));
    QCOMPARE(core::parseNumber("-12"), std::optional<double>(-12));
    QCOMPARE(core::parseNumber("1e-3"), std::optional<double>(1e-3));
    QCOMPARE(core::parseNumber(".25"), std::optional<double>(0.25));
    // Infinities and NaN come back as such: callers that need finite values say so in their own words.
    QVERIFY(std::isinf(*core::parseNumber("inf")));
    QVERIFY(std::isnan(*core::parseNumber("nan")));
}

void TestNumbers::anythingElseIsRefused()
{
    for (const char *text : {"", " 1", "1 ", "+1", "1,5", "0x10", "1e", "abc", "2.5x", "1e999"})
        QVERIFY2(!core::parseNumber(text), text);
}

void TestNumbers::integersInTheirType()
{
    QCOMPARE(core::parseInteger<int>("42"), std::optional<int>(42));
    QCOMPARE(core::parseInteger<long long>("-7"), std::optional<long long>(-7));
    QCOMPARE(core::parseInteger<unsigned>("ff", 16), std::optional<unsigned>(255));
    QCOMPARE(core::parseInteger<long long>("9223372036854775807"),
             std::optional<long long>(std::numeric_limits<long long>::max()));
    for (const char *text : {"", "1.5", "+3", " 3", "3 ", "1e3", "x"})
        QVERIFY2(!core::parseInteger<int>(text), text);
    QVERIFY(!core::parseInteger<int>("2147483648"));    // past int
    QVERIFY(!core::parseInteger<unsigned>("-1"));       // no sign for unsigned
    QVERIFY(!core::parseInteger<unsigned>("0xff", 16)); // the caller strips a prefix
}

QTEST_APPLESS_MAIN(TestNumbers)
#include "tst_numbers.moc"
