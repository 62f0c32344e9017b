// SPDX-License-Identifier: GPL-3.0-or-later
// The memory levels on the X-graph (issue 46): the L1, L2 and DRAM supplies are drawn for a selected kernel
// whose counters place it at each level, each under its own ceiling, f under all of them.
#include "common/icon_legend_item.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/ncu_csv.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>
#include <memory>

using namespace crossroof;
using namespace crossroof::widgets;

class TestLevelCurves : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void levelCurvesOfASelectedKernel();
};

void TestLevelCurves::levelCurvesOfASelectedKernel()
{
    // A kernel whose counters place it at each memory level (a real PyTorch kernel of the H100 SXM) selected:
    // the L1, L2 and DRAM supplies of the parameters are drawn, f under every one of them (it is the latency
    // side capped by the tightest), each flat at its ceiling. A kernel without those counters draws none.
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    XModelEvaluation eval(&state);
    XGraphView view(&eval);
    view.resize(900, 640);
    KernelState kernels(&state);
    view.setKernels(&kernels);
    const QList<QCPGraph *> levels = view.levelGraphs();
    QCOMPARE(levels.size(), 3);
    const auto drawn = [&levels] {
        int count = 0;
        for (QCPGraph *g : levels)
            count += !g->data()->isEmpty();
        return count;
    };
    QCOMPARE(drawn(), 0);
    kernels.setReport(std::make_shared<const core::NcuReport>(
            core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv")));
    kernels.wait();
    const core::NcuKernel &add = kernels.report()->kernels[4]; // ID 9, a + b
    QVERIFY(kernels.table().rows[4].workload);
    QCOMPARE(drawn(), 0); // nothing selected yet
    view.setSelectedKernels({kernelLabel(add)});
    const core::XModelParams &p = state.params();
    QVERIFY(p.R_l1 > 0 && p.R_l2 > 0 && p.R_dram > 0);
    QCOMPARE(drawn(), 3);
    // By hand: the axis counts B_req bytes per request, which is what a request moves through the L1, so the
    // L1 curve levels off at R_l1 itself.
    const double l1Top = (levels[0]->data()->end() - 1)->value;
    QVERIFY2(std::abs(l1Top - p.R_l1) < 1e-9 * p.R_l1, qPrintable(QString::number(l1Top)));
    QVERIFY(levels[0]->name().startsWith(QStringLiteral("L1 supply, R_l1 = ")));
    QVERIFY(legendTexts(view.plot()->legend).filter(QStringLiteral("L2 supply, R_l2 = ")).size() == 1);
    // f lies on or under every level's supply.
    const core::XModel model(p);
    for (QCPGraph *g : levels) {
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            QVERIFY(model.toGbs(model.msSupply(it->key)) <= it->value * (1 + 1e-9));
    }
    // Hovering over the DRAM curve's plateau names the level and its formula.
    const QCPGraphData plateau = *(levels[2]->data()->end() - 1);
    const QString hover = view.describeAt(plateau.key, plateau.value, 0.5, plateau.value * 1e-6);
    QVERIFY2(
            hover.startsWith(QStringLiteral("DRAM supply f_DRAM(k) = min(k·m/L, R_dram/(B_dram·clock·SMs))")),
            qPrintable(hover));
    view.setSelectedKernels({});
    QCOMPARE(drawn(), 0);
    // The details export has no request counts: no workload, no levels.
    kernels.setReport(std::make_shared<const core::NcuReport>(
            core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_details.csv")));
    kernels.wait();
    view.setSelectedKernels({kernelLabel(kernels.report()->kernels[4])});
    QCOMPARE(drawn(), 0);
}

QTEST_MAIN(TestLevelCurves)
#include "tst_level_curves.moc"
