// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/xmodel/parameters.h"

#include <QTest>

using namespace crossroof;

class TestParameters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKeyHasUnitsAndRanges();
    void setFromText_data();
    void setFromText();
};

void TestParameters::everyKeyHasUnitsAndRanges()
{
    const core::XModelParams defaults;
    for (const auto &info : core::parameterInfos()) {
        QVERIFY(!info.label.empty() && !info.tooltip.empty());
        QVERIFY(info.min <= info.slider_min && info.slider_min < info.slider_max && info.slider_max <= info.max);
        if (info.log_scale)
            QVERIFY(info.slider_min > 0);
        QVERIFY2(!core::checkValue(info, defaults.*(info.member)), info.key.data());
        QCOMPARE(core::findParameter(info.key), &info);
    }
    QVERIFY(!core::findParameter("nope"));
}

void TestParameters::setFromText_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::newRow("number") << "Z" << "8.5" << "";
    QTest::newRow("exponent") << "R" << "1.5e3" << "";
    QTest::newRow("cache") << "cache" << "locality" << "";
    QTest::newRow("bad cache") << "cache" << "lru" << "parameter 'cache': must be none, fixed, locality or two-level";
    QTest::newRow("unknown key") << "Q" << "1" << "unknown parameter 'Q'";
    QTest::newRow("not a number") << "Z" << "fast" << "parameter 'Z': 'fast' is not a number";
    QTest::newRow("trailing junk") << "Z" << "8x" << "is not a number";
    QTest::newRow("empty") << "Z" << "" << "is not a number";
    QTest::newRow("nan") << "Z" << "nan" << "must be a finite number";
    QTest::newRow("inf") << "L" << "inf" << "must be a finite number";
    QTest::newRow("negative latency") << "L" << "-5" << "parameter 'L': must be between";
    QTest::newRow("fractional n") << "n" << "2.5" << "must be a whole number";
    QTest::newRow("h above 1") << "h" << "1.01" << "parameter 'h'";
    // R_dram is 0 (no limit) or a bandwidth R could be: a denormal one made the roofline ridge M/0 = inf.
    QTest::newRow("R_dram off") << "R_dram" << "0" << "";
    QTest::newRow("R_dram least") << "R_dram" << "0.001" << "";
    QTest::newRow("R_dram denormal") << "R_dram" << "4.9e-324"
                                     << "parameter 'R_dram': must be 0 (no limit) or between 0.001 and 1000000 (got "
                                        "5e-324)";
}

void TestParameters::setFromText()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, error);
    core::XModelParams p;
    try {
        core::setFromText(p, key.toStdString(), value.toStdString());
        QVERIFY2(error.isEmpty(), "should have been rejected");
        if (key == QLatin1String("cache"))
            QCOMPARE(p.cache, core::CacheMode::Locality);
        else
            QCOMPARE(p.*(core::findParameter(key.toStdString())->member), value.toDouble());
    } catch (const core::InputError &e) {
        QVERIFY2(!error.isEmpty(), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
    }
}

QTEST_APPLESS_MAIN(TestParameters)
#include "tst_parameters.moc"
