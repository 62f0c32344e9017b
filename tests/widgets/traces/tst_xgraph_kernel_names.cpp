// SPDX-License-Identifier: GPL-3.0-or-later
// The X-graph names its kernels in place, as the roofline does: the kernel selected in the Kernels dock and the
// one the model predicts worst, beside their stars, on screen and in a figure at every preset.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/trace_import.h"
#include "export/figure_export.h"
#include "state/trace_state.h"
#include "traces/kernel_names.h"
#include "traces/trace_overlay.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

class TestKernelNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shortNames();
    void selectedAndWorstAreNamedAtEveryPreset();
};

void TestKernelNames::shortNames()
{
    QCOMPARE(KernelNames::shortName(QStringLiteral("void at::native::reduce_kernel<512, 1, float> [12]")),
             QStringLiteral("reduce_kernel [12]"));
    QCOMPARE(KernelNames::shortName(QStringLiteral("triad")), QStringLiteral("triad"));
}

namespace {

/// The names the plot draws now: its visible text items.
QStringList drawnTexts(QCustomPlot *plot)
{
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible())
            texts << text->text();
    }
    return texts;
}

} // namespace

void TestKernelNames::selectedAndWorstAreNamedAtEveryPreset()
{
    // The H100 kernels of a real Nsight Compute export on the H100 SXM: one selected (ringed) kernel and the
    // worst-predicted one are named beside their stars; the figure at every preset names them too.
    ParameterState state;
    XModelEvaluation eval(&state, &state);
    TraceState traces(&state);
    XGraphView view(&eval);
    QCustomPlot *plot = view.plot();
    TraceOverlay overlay(plot, &traces, TraceOverlay::Target::XGraph, &view);
    overlay.setPrediction(TraceOverlay::xmodelPrediction(&state));
    connect(&eval, &XModelEvaluation::updated, &overlay, &TraceOverlay::refresh);
    connect(&traces, &TraceState::changed, &view, &XGraphView::refresh);
    view.resize(900, 600);
    const auto profile = core::findBundledProfile("h100-sxm");
    QVERIFY(profile);
    state.setProfile(*profile, profile->params);
    core::TraceFile file = core::readTraceFile(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
    QVERIFY(!file.traces.empty());
    const core::MeasuredTrace kernels = file.traces.front();
    QCOMPARE(kernels.kind, core::TraceKind::KernelPoints);
    traces.add(std::move(file.traces));
    // The worst predicted, worked out here from the model's own prediction of each kernel.
    const TraceOverlay::Prediction predict = TraceOverlay::xmodelPrediction(&state);
    std::size_t worst = 0;
    double worstError = -1;
    for (std::size_t i = 0; i < kernels.x.size(); ++i) {
        const auto p = predict(kernels.x[i], kernels.extra.empty() ? std::nan("") : kernels.extra[i]);
        if (p && std::isfinite(*p) && kernels.y[i] > 0 && std::abs(*p - kernels.y[i]) / kernels.y[i] > worstError) {
            worstError = std::abs(*p - kernels.y[i]) / kernels.y[i];
            worst = i;
        }
    }
    QVERIFY(worstError > 0);
    const std::size_t selected = worst == 0 ? 1 : 0;
    const QString selectedName = KernelNames::shortName(QString::fromStdString(kernels.labels[selected]));
    const QString worstName = KernelNames::shortName(QString::fromStdString(kernels.labels[worst]));
    overlay.setHighlighted({QString::fromStdString(kernels.labels[selected])});
    view.refresh();
    // A view never shown (File > Export All Views of a tab not visited, crossroof-cli render): its figure names
    // them all the same.
    for (const FigurePreset &preset : figurePresets()) {
        const QStringList labels = figureLabels({plot}, withPreset({}, preset));
        QVERIFY2(labels.contains(selectedName) && labels.contains(worstName),
                 qPrintable(QStringLiteral("never shown, ") + preset.id + QStringLiteral(": ") + labels.join(QStringLiteral(" | "))));
    }
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    plot->replot();
    plot->replot();
    QVERIFY(overlay.kernelNames());
    QCOMPARE(overlay.kernelNames()->wanted(), (QStringList{selectedName, worstName}));
    QCOMPARE(overlay.kernelNames()->leftOut(), 0);
    QVERIFY2(drawnTexts(plot).contains(selectedName) && drawnTexts(plot).contains(worstName),
             qPrintable(drawnTexts(plot).join(QStringLiteral(" | "))));
    for (const FigurePreset &preset : figurePresets()) {
        const QStringList labels = figureLabels({plot}, withPreset({}, preset));
        QVERIFY2(labels.contains(selectedName) && labels.contains(worstName),
                 qPrintable(preset.id + QStringLiteral(": ") + labels.join(QStringLiteral(" | "))));
    }
    // A selection cleared: the worst predicted alone.
    overlay.setHighlighted({});
    view.refresh();
    plot->replot();
    QCOMPARE(overlay.kernelNames()->wanted(), QStringList{worstName});
    QVERIFY(!drawnTexts(plot).contains(selectedName));
}

QTEST_MAIN(TestKernelNames)
#include "tst_xgraph_kernel_names.moc"
