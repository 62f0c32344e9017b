// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/occupancy_state.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/occupancy/scheduling.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

class TestZigzagTmm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void predictedTimeIsTheCores();
    void timeCurveIsOnItsOwnRightAxis();
    void latencyPastTheCrossoverMakesItMemoryBound();
    void apspPresetFillsTheInputs();
    void badInputSaysWhy();

private:
    void setInputs(const QString &work, const QString &span, const QString &transactions, const QString &latency,
                   const QString &threads, const QString &cores, const QString &br);

    ParameterState *m_params = nullptr;
    OccupancyState *m_state = nullptr;
    ZigzagView *m_zigzag = nullptr;
};

void TestZigzagTmm::init()
{
    m_params = new ParameterState;
    m_params->setProfile(*core::findBundledProfile("a100-40"), core::findBundledProfile("a100-40")->params);
    m_state = new OccupancyState(m_params, m_params);
    m_zigzag = new ZigzagView(m_state);
    // The paper's Fig. 1 machine: B_a = 1 on 15 SMs.
    m_zigzag->smBox()->setValue(15);
    m_zigzag->followBox()->setChecked(false);
    m_zigzag->activeBlocksBox()->setValue(1);
}

void TestZigzagTmm::cleanup()
{
    delete m_zigzag;
    delete m_params;
}

void TestZigzagTmm::setInputs(const QString &work, const QString &span, const QString &transactions,
                              const QString &latency, const QString &threads, const QString &cores,
                              const QString &br)
{
    m_zigzag->workEdit()->setText(work);
    m_zigzag->spanEdit()->setText(span);
    m_zigzag->transactionsEdit()->setText(transactions);
    m_zigzag->latencyEdit()->setText(latency);
    m_zigzag->threadsEdit()->setText(threads);
    m_zigzag->coresEdit()->setText(cores);
    m_zigzag->requestedBlocksEdit()->setText(br);
}

void TestZigzagTmm::predictedTimeIsTheCores()
{
    setInputs(QStringLiteral("2.5e9"), QStringLiteral("1000"), QStringLiteral("3e7"), QStringLiteral("350"),
              QStringLiteral("4"), QStringLiteral("480"), QStringLiteral("47"));
    core::TmmParams p;
    p.work = 2.5e9;
    p.span = 1000;
    p.transactions = 3e7;
    p.latency = 350;
    p.threads_per_core = 4;
    p.cores = 480;
    p.requested_blocks = 47;
    p.active_blocks = 1;
    p.sms = 15;
    const core::TmmResult want = core::evaluateTmm(p);
    QVERIFY(m_zigzag->tmmResult().has_value());
    const core::TmmResult &got = *m_zigzag->tmmResult();
    QCOMPARE(got.time, want.time);
    QCOMPARE(got.t_p, want.t_p);
    QCOMPARE(got.passes, 4LL); // ceil(47/15)
    QCOMPARE(got.f_sched, 60.0 / 47.0);
    const QString text = m_zigzag->tmmLabel()->text();
    QVERIFY2(text.contains(QString::number(want.time, 'g', 6)), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("4 passes")));
    QVERIFY(text.contains(QString::number(want.work_term, 'g', 4)));
    QVERIFY(text.contains(QString::number(want.memory_term, 'g', 4)));
}

void TestZigzagTmm::timeCurveIsOnItsOwnRightAxis()
{
    setInputs(QStringLiteral("1e9"), QStringLiteral("0"), QStringLiteral("1e7"), QStringLiteral("400"),
              QStringLiteral("1"), QStringLiteral("480"), QStringLiteral("100"));
    QCustomPlot *plot = m_zigzag->plot();
    QCPGraph *time = m_zigzag->timeCurve();
    QCOMPARE(time->valueAxis(), m_zigzag->timeAxis());
    QVERIFY(time->valueAxis() != plot->yAxis2); // yAxis2 stays free for the measured runtimes
    QVERIFY(!plot->yAxis2->visible());
    QCOMPARE(m_zigzag->curve()->valueAxis(), plot->yAxis);
    QCOMPARE(m_zigzag->minima()->valueAxis(), plot->yAxis);
    QVERIFY(m_zigzag->timeAxis()->visible());
    QCOMPARE(m_zigzag->timeAxis()->label(), QStringLiteral("predicted time (model units)"));
    QCOMPARE(time->dataCount(), m_zigzag->curve()->dataCount());
    const double tp = m_zigzag->tmmResult()->t_p;
    for (auto it = time->data()->constBegin(); it != time->data()->constEnd(); ++it) {
        const double f = core::schedulingFactor((long long)it->key, 1, 15);
        QVERIFY(std::abs(it->value - tp * f) <= 1e-12 * tp * f);
    }
}

void TestZigzagTmm::latencyPastTheCrossoverMakesItMemoryBound()
{
    // T1/P = M·L/(T·P) at L = T1·T/M = 100.
    setInputs(QStringLiteral("1e9"), QStringLiteral("0"), QStringLiteral("1e7"), QStringLiteral("50"),
              QStringLiteral("1"), QStringLiteral("480"), QStringLiteral("30"));
    QCOMPARE(m_zigzag->tmmResult()->bound, core::TmmBound::Compute);
    const QString compute = m_zigzag->boundLabel()->text();
    const QString computeStyle = m_zigzag->boundLabel()->styleSheet();
    QVERIFY2(compute.contains(QStringLiteral("Compute-bound")), qPrintable(compute));
    m_zigzag->latencyEdit()->setText(QStringLiteral("200"));
    QCOMPARE(m_zigzag->tmmResult()->bound, core::TmmBound::Memory);
    QVERIFY2(m_zigzag->boundLabel()->text().contains(QStringLiteral("Memory-bound")),
             qPrintable(m_zigzag->boundLabel()->text()));
    QVERIFY(m_zigzag->boundLabel()->styleSheet() != computeStyle);
    QCOMPARE(m_zigzag->tmmResult()->t_p, 1e7 * 200 / 480);
}

void TestZigzagTmm::apspPresetFillsTheInputs()
{
    m_zigzag->latencyEdit()->setText(QStringLiteral("400"));
    m_zigzag->threadsEdit()->setText(QStringLiteral("1"));
    m_zigzag->coresEdit()->setText(QStringLiteral("480"));
    m_zigzag->apspVerticesBox()->setValue(1024);
    m_zigzag->apspSubBlockBox()->setValue(32);
    m_zigzag->apspChunkEdit()->setText(QStringLiteral("32"));
    m_zigzag->apspButton()->click();
    const double n = 1024;
    const double work = n * n * n * std::log2(n);
    QCOMPARE(m_zigzag->workEdit()->text().toDouble(), work);
    QCOMPARE(m_zigzag->spanEdit()->text().toDouble(), 0.0);
    QCOMPARE(m_zigzag->transactionsEdit()->text().toDouble(), work / (32.0 * 32.0));
    QCOMPARE(m_zigzag->requestedBlocksEdit()->text(), QStringLiteral("1024")); // (n/S_D)^2
    QVERIFY(m_zigzag->tmmResult().has_value());
    QCOMPARE(m_zigzag->tmmResult()->passes, 69LL); // ceil(1024/15)
    // T·S_D = 32 >= L/C = 12.5: compute-bound (Eq. 13).
    QCOMPARE(m_zigzag->tmmResult()->bound, core::TmmBound::Compute);
    // The plotted range now reaches the preset's B_r.
    QVERIFY(m_state->requestedBlocksMax() >= 1024);
    QVERIFY(m_zigzag->curve()->data()->at(m_zigzag->curve()->dataCount() - 1)->key >= 1024);
    QVERIFY(m_zigzag->timeCurve()->data()->at(m_zigzag->timeCurve()->dataCount() - 1)->key >= 1024);

    // S_D = 8, C = 1: T·S_D = 8 < L/C = 400, memory-bound (Eq. 14).
    m_zigzag->apspSubBlockBox()->setValue(8);
    m_zigzag->apspChunkEdit()->setText(QStringLiteral("1"));
    m_zigzag->apspButton()->click();
    QCOMPARE(m_zigzag->requestedBlocksEdit()->text(), QStringLiteral("16384"));
    QCOMPARE(m_zigzag->tmmResult()->bound, core::TmmBound::Memory);
    QVERIFY(m_zigzag->boundLabel()->text().contains(QStringLiteral("Memory-bound")));
}

void TestZigzagTmm::badInputSaysWhy()
{
    setInputs(QStringLiteral("1e9"), QStringLiteral("0"), QStringLiteral("1e7"), QStringLiteral("400"),
              QStringLiteral("1"), QStringLiteral("0"), QStringLiteral("100"));
    QVERIFY(!m_zigzag->tmmResult().has_value());
    QString text = m_zigzag->tmmLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("cores P")), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("nan"), Qt::CaseInsensitive));
    QVERIFY(m_zigzag->boundLabel()->text().isEmpty());
    QCOMPARE(m_zigzag->timeCurve()->dataCount(), 0);
    QVERIFY(!m_zigzag->timeAxis()->visible());

    m_zigzag->coresEdit()->setText(QStringLiteral("480"));
    m_zigzag->latencyEdit()->setText(QStringLiteral("-5"));
    QVERIFY(!m_zigzag->tmmResult().has_value());
    QVERIFY2(m_zigzag->tmmLabel()->text().contains(QStringLiteral("latency L")), qPrintable(m_zigzag->tmmLabel()->text()));

    m_zigzag->latencyEdit()->setText(QStringLiteral("400"));
    m_zigzag->workEdit()->setText(QStringLiteral("-1"));
    QVERIFY(m_zigzag->tmmLabel()->text().contains(QStringLiteral("work T1")));
    m_zigzag->workEdit()->setText(QStringLiteral("lots"));
    QVERIFY(m_zigzag->tmmLabel()->text().contains(QStringLiteral("not a number")));
    m_zigzag->workEdit()->setText(QStringLiteral("1e9"));
    m_zigzag->requestedBlocksEdit()->setText(QStringLiteral("0"));
    QVERIFY(m_zigzag->tmmLabel()->text().contains(QStringLiteral("requested blocks B_r")));
    m_zigzag->requestedBlocksEdit()->setText(QStringLiteral("100"));
    QVERIFY(m_zigzag->tmmResult().has_value());

    // A preset whose S_D does not divide n names S_D and leaves the inputs alone.
    m_zigzag->apspVerticesBox()->setValue(1000);
    m_zigzag->apspSubBlockBox()->setValue(32);
    m_zigzag->apspButton()->click();
    QVERIFY2(m_zigzag->tmmLabel()->text().contains(QStringLiteral("S_D")), qPrintable(m_zigzag->tmmLabel()->text()));
    QCOMPARE(m_zigzag->workEdit()->text(), QStringLiteral("1e9"));
}

QTEST_MAIN(TestZigzagTmm)
#include "tst_zigzag_tmm.moc"
