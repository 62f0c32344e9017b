// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/occupancy_state.h"
#include "occupancy/occupancy_view.h"
#include "common/limited_spin_box.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/occupancy/occupancy.h"
#include "zigzag/zigzag_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

class TestOccupancyView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void calculatorAnswersLikeNvidias();
    void sweepsMarkTheCurrentPoint();
    void linkDrivesTheXModel();
    void profileChoosesTheComputeCapability();
    void zigzagMinimaAtMultiplesOfTheSmCount();
    void invalidInputsSayWhy();
    void blockSizeTooLargeSaysWhy();
    void blockSizeCurveStepsPerWarp();
    void sharedMemoryUsedIsTheBlocks();
    void theResultIsReadWhole();

private:
    ParameterState *m_params = nullptr;
    OccupancyState *m_state = nullptr;
    OccupancyView *m_view = nullptr;
    ZigzagView *m_zigzag = nullptr;
};

void TestOccupancyView::init()
{
    m_params = new ParameterState;
    m_params->setProfile(*core::findBundledProfile("a100-40"), core::findBundledProfile("a100-40")->params);
    m_state = new OccupancyState(m_params, m_params);
    m_view = new OccupancyView(m_state);
    m_zigzag = new ZigzagView(m_state);
}

void TestOccupancyView::cleanup()
{
    delete m_zigzag;
    delete m_view;
    delete m_params;
}

void TestOccupancyView::calculatorAnswersLikeNvidias()
{
    QCOMPARE(m_view->computeCapabilityBox()->currentText(), QStringLiteral("8.0"));
    m_view->threadsBox()->setValue(256);
    m_view->registersBox()->setValue(64);
    m_view->sharedMemoryBox()->setValue(12 * 1024);
    QCOMPARE(m_state->result()->blocks, 4);
    QVERIFY2(m_view->summaryLabel()->text().contains(QStringLiteral("4 blocks/SM")), qPrintable(m_view->summaryLabel()->text()));
    QVERIFY(m_view->summaryLabel()->text().contains(QStringLiteral("50.0 %")));
}

void TestOccupancyView::theResultIsReadWhole()
{
    // A window made smaller, from 1600x1000 to 1024x700: the view goes from about 1300 to 740 pixels wide, the
    // Result's lines wrap into more, and its box kept the wide layout's height, its first and last lines
    // ("Limited by warps, registers", "… of the 48 KiB carveout") cut.
    m_params->setProfile(*core::findBundledProfile("gtx570-sp"), core::findBundledProfile("gtx570-sp")->params);
    m_view->threadsBox()->setValue(512);
    m_view->registersBox()->setValue(20);
    m_view->resize(1300, 900);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QCoreApplication::processEvents();
    m_view->resize(740, 620);
    QTRY_COMPARE(m_view->width(), 740);
    QCoreApplication::processEvents();
    QCOMPARE(m_view->computeCapabilityBox()->currentText(), QStringLiteral("2.0"));
    auto *box = m_view->summaryLabel()->parentWidget();
    for (const QLabel *label : box->findChildren<QLabel *>()) {
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QStringLiteral("'%1' is %2 px tall, its text %3")
                                    .arg(label->text())
                                    .arg(label->height())
                                    .arg(label->heightForWidth(label->width()))));
        QVERIFY(box->contentsRect().contains(label->geometry()));
    }
}

void TestOccupancyView::sweepsMarkTheCurrentPoint()
{
    m_view->registersBox()->setValue(64);
    QCustomPlot *regs = m_view->sweepPlot(1);
    QCOMPARE(regs->graph(1)->dataCount(), 1);
    QCOMPARE(regs->graph(1)->data()->at(0)->key, 64.0);
    QCOMPARE(regs->graph(1)->data()->at(0)->value, m_state->result()->occupancy * 100);
    QVERIFY(regs->graph(0)->dataCount() >= 200); // every register count
    const int before = m_view->sweepPlot(0)->graph(0)->dataCount();
    QVERIFY(before >= 32);                       // 32..1024 threads per block
    m_view->registersBox()->setValue(128);
    QCOMPARE(regs->graph(1)->data()->at(0)->key, 128.0);
    QVERIFY(m_state->result()->occupancy < 0.5);
}

void TestOccupancyView::linkDrivesTheXModel()
{
    m_view->threadsBox()->setValue(256);
    m_view->registersBox()->setValue(64);
    m_view->linkBox()->setChecked(true);
    QCOMPARE(m_params->params().n, 32.0); // 4 blocks x 8 warps
    m_view->registersBox()->setValue(32);
    QCOMPARE(m_params->params().n, 64.0); // 8 blocks x 8 warps
    m_view->linkBox()->setChecked(false);
    m_view->registersBox()->setValue(64);
    QCOMPARE(m_params->params().n, 64.0); // unlinked: n stays
}

void TestOccupancyView::profileChoosesTheComputeCapability()
{
    m_params->applyProfile(*core::findBundledProfile("v100"));
    QCOMPARE(m_state->computeCapability(), std::string("7.0"));
    QCOMPARE(m_view->computeCapabilityBox()->currentText(), QStringLiteral("7.0"));
    QCOMPARE(m_state->smCount(), 80LL);
    QCOMPARE(m_zigzag->smBox()->value(), 80);
}

void TestOccupancyView::zigzagMinimaAtMultiplesOfTheSmCount()
{
    // The paper's Fig. 1: B_a = 1, 15 SMs, minima exactly at multiples of 15.
    m_zigzag->smBox()->setValue(15);
    m_zigzag->followBox()->setChecked(false);
    m_zigzag->activeBlocksBox()->setValue(1);
    QCOMPARE(m_state->activeBlocks(), 1);
    auto *minima = m_zigzag->minima();
    QVERIFY(minima->dataCount() >= 5);
    for (auto it = minima->data()->constBegin(); it != minima->data()->constEnd(); ++it) {
        QCOMPARE(std::fmod(it->key, 15.0), 0.0);
        QCOMPARE(it->value, 1.0);
    }
    auto *curve = m_zigzag->curve();
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        QVERIFY(it->value >= 1.0);
    m_zigzag->followBox()->setChecked(true);
    QCOMPARE(m_state->activeBlocks(), m_state->result()->blocks);
}

void TestOccupancyView::invalidInputsSayWhy()
{
    m_state->setThreadsPerBlock(2000);
    QVERIFY(!m_state->result().has_value());
    QVERIFY(m_state->error().contains(QStringLiteral("1024")));
    QCOMPARE(m_view->summaryLabel()->text(), QStringLiteral("Invalid configuration"));
    QCOMPARE(m_view->sweepPlot(0)->graph(0)->dataCount(), 0);
    m_state->setThreadsPerBlock(128);
    QVERIFY(m_state->result().has_value());
}

void TestOccupancyView::blockSizeTooLargeSaysWhy()
{
    // Typing 2000 must not silently leave 200: the box takes the limit and says why.
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    auto *box = qobject_cast<LimitedSpinBox *>(m_view->threadsBox());
    QVERIFY(box);
    box->setValue(256);
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("2000"));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(box->value(), 1024);
    QCOMPARE(m_state->input().threads_per_block, 1024);
    const QString message = box->lastMessage();
    QVERIFY2(message.contains(QStringLiteral("2000")) && message.contains(QStringLiteral("1024")),
             qPrintable(message));
}

namespace {

/// The value a step-left curve draws at X: that of the last point at or before it.
double drawnAt(const QCPGraph *graph, double x)
{
    double y = std::nan("");
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd() && it->key <= x; ++it)
        y = it->value;
    return y;
}

} // namespace

void TestOccupancyView::blockSizeCurveStepsPerWarp()
{
    // CC 8.0, 32 registers: 48 threads take two warps, as 64 do, and the 32 blocks an SM holds are 64 warps,
    // 100 %; the curve drew 33..63 threads at the 50 % of 32 one-warp blocks.
    m_view->registersBox()->setValue(32);
    m_view->threadsBox()->setValue(48);
    QCOMPARE(m_state->result()->occupancy, 1.0);
    const QCPGraph *curve = m_view->sweepPlot(0)->graph(0);
    QCOMPARE(curve->lineStyle(), QCPGraph::lsStepLeft);
    QCOMPARE(drawnAt(curve, 48), 100.0);
    QCOMPARE(drawnAt(curve, 33), 100.0);
    QCOMPARE(drawnAt(curve, 32), 50.0);
    // Every block size: the curve under the marker is the marker, in both modes.
    for (int mode = 0; mode < 2; ++mode) {
        for (int threads : {1, 31, 33, 63, 100, 257, 1000, 1023}) {
            m_view->threadsBox()->setValue(threads);
            QCOMPARE(drawnAt(curve, threads), m_state->result()->occupancy * 100);
            QCOMPARE(m_view->sweepPlot(0)->graph(1)->data()->at(0)->value, drawnAt(curve, threads));
        }
        m_state->setMode(core::OccupancyMode::Paper);
    }
}

void TestOccupancyView::sharedMemoryUsedIsTheBlocks()
{
    // CC 8.0, 256 threads, 64 registers, 12 KiB: 4 blocks of 12 KiB + the 1 KiB reserve use 52 KiB of the
    // 164 KiB carveout; the line said 164.
    m_view->threadsBox()->setValue(256);
    m_view->registersBox()->setValue(64);
    m_view->sharedMemoryBox()->setValue(12 * 1024);
    QList<QLabel *> labels = m_view->findChildren<QLabel *>();
    const auto it = std::find_if(labels.begin(), labels.end(), [](const QLabel *l) {
        return l->text().contains(QLatin1String("Shared memory per SM used"));
    });
    QVERIFY(it != labels.end());
    QVERIFY2((*it)->text().contains(QLatin1String("Shared memory per SM used: 52 KiB of the 164 KiB carveout")),
             qPrintable((*it)->text()));
    m_view->sharedMemoryBox()->setValue(0);
    QVERIFY2((*it)->text().contains(QLatin1String("used: 4 KiB of the 164 KiB")), qPrintable((*it)->text()));
    // Between two allocation units of 128 bytes a block is allocated the upper one: with one-warp blocks, 4,224
    // bytes (+ the 1 KiB reserve: 5,248) allow 32 blocks, 4,225 bytes take 5,376 as 4,352 do: 31 blocks, and
    // the curve there draws 4,352's value, not 4,224's.
    m_view->threadsBox()->setValue(32);
    m_view->registersBox()->setValue(32);
    m_view->sharedMemoryBox()->setValue(4225);
    QCOMPARE(m_state->result()->blocks, 31);
    const QCPGraph *smem = m_view->sweepPlot(2)->graph(0);
    QCOMPARE(smem->lineStyle(), QCPGraph::lsStepRight);
    double drawn = std::nan("");
    for (auto p = smem->data()->constBegin(); p != smem->data()->constEnd(); ++p) {
        if (p->key >= 4225 / 1024.0) {
            drawn = p->value;
            break;
        }
    }
    QCOMPARE(drawn, m_state->result()->occupancy * 100);
}

QTEST_MAIN(TestOccupancyView)
#include "tst_occupancy_view.moc"
