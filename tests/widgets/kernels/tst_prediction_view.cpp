// SPDX-License-Identifier: GPL-3.0-or-later
// Predicted against measured throughput of real kernels: the points are the model's predictions, the bands and
// the accuracy are there, the labels name the kernels inside the plot, and a parameter change moves the points.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "common/empty_state.h"
#include "kernels/prediction_view.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QLabel>
#include <QTest>

using namespace crossroof;
using widgets::KernelState;
using widgets::ParameterState;
using widgets::PredictionView;

namespace {

const std::string kTorch = CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv";

int labelCount(QCustomPlot *plot)
{
    int n = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        n += qobject_cast<QCPItemText *>(plot->item(i)) != nullptr;
    return n;
}

} // namespace

class TestPredictionView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realKernels();
    void parametersMoveThePoints();
    void emptyAndWithoutPredictions();
    void selectedKernelsDiagnosis();
};

void TestPredictionView::realKernels()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    KernelState kernels(&state);
    PredictionView view(&kernels);
    view.resize(900, 640);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    kernels.setReport(std::make_shared<const core::NcuReport>(core::readNcuCsv(kTorch)));
    QCOMPARE(view.points().size(), std::size_t(11));
    // The points are the table's predictions, against what the kernels measured.
    const core::KernelTable table = core::compareKernels(core::readNcuCsv(kTorch), state.params(), *core::findBundledProfile("h100-sxm"));
    for (const auto &p : view.points()) {
        QCOMPARE(p.predicted_gbs, *table.rows[p.kernel].predicted_gbs);
        QCOMPARE(p.measured_gbs, *table.rows[p.kernel].dram_gbs);
    }
    QVERIFY(view.accuracy() && view.accuracy()->model >= 0.9);
    QVERIFY2(view.summary()->text().startsWith(QStringLiteral("Mean accuracy 0.9")), qPrintable(view.summary()->text()));
    // Every point is in the window, and named; the names stay inside the axis rect.
    QCustomPlot *plot = view.plot();
    for (const auto &p : view.points()) {
        QVERIFY(plot->xAxis->range().contains(p.measured_gbs));
        QVERIFY(plot->yAxis->range().contains(p.predicted_gbs));
    }
    // The names lie inside the axis rect, never on one another; a crowded point's name may be left out (said).
    QCOMPARE(labelCount(plot) + view.hiddenLabels(), 11);
    // Four points crowd at the top right, where the diagonal runs through them: names cross no line, so one more
    // of them is left out there than would be if names could lie on the diagonal.
    QVERIFY2(labelCount(plot) >= 8, qPrintable(QString::number(labelCount(plot))));
    const QRectF rect = plot->axisRect()->rect();
    std::vector<QRectF> boxes;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
            const QRectF box(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
            QVERIFY2(rect.contains(box), qPrintable(text->text()));
            for (const QRectF &other : boxes)
                QVERIFY2(!other.intersects(box), qPrintable(text->text()));
            boxes.push_back(box);
            // Names, not bare launch IDs: at::<unnamed>::distribution_elementwise_grid_stride_kernel<...> too.
            QVERIFY2(!text->text().startsWith(QLatin1Char('[')), qPrintable(text->text()));
        }
    }
    if (view.hiddenLabels() > 0)
        QVERIFY(view.summary()->text().contains(QStringLiteral("left out")));
    // A smaller window: the names are placed again, still inside the plot.
    view.resize(560, 420);
    QTRY_VERIFY([&] {
        const QRectF small = plot->axisRect()->rect();
        int names = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
                ++names;
                if (!small.contains(QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())))
                    return false;
            }
        }
        return names + view.hiddenLabels() == 11 && small.width() < rect.width();
    }());
    view.namesBox()->setChecked(false);
    QCOMPARE(labelCount(plot), 0);
}

void TestPredictionView::parametersMoveThePoints()
{
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    KernelState kernels(&state);
    PredictionView view(&kernels);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    kernels.setReport(std::make_shared<const core::NcuReport>(core::readNcuCsv(kTorch)));
    const double before = view.points().back().predicted_gbs; // a vectorized kernel, held by R_dram
    state.setValue(QStringLiteral("R_dram"), 2000);
    QVERIFY(std::abs(view.points().back().predicted_gbs - 2000) < 1e-6 * 2000);
    QVERIFY(view.points().back().predicted_gbs < before);
    // Hidden, it waits; shown again, it is up to date.
    view.hide();
    state.setValue(QStringLiteral("R_dram"), 2500);
    view.show();
    QVERIFY(std::abs(view.points().back().predicted_gbs - 2500) < 1e-6 * 2500);
}

void TestPredictionView::emptyAndWithoutPredictions()
{
    ParameterState state;
    KernelState kernels(&state);
    PredictionView view(&kernels);
    view.show();
    QVERIFY(view.points().empty());
    // A panel over the empty plot says why (a figure of the view is refused with its first line).
    const widgets::EmptyState *empty = view.plot()->findChild<widgets::EmptyState *>();
    QVERIFY(empty && empty->isVisible());
    QVERIFY(empty->label()->text().contains(QStringLiteral("Open an Nsight Compute export")));
    kernels.setReport(std::make_shared<const core::NcuReport>(
            core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_details.csv")));
    QVERIFY(view.points().empty());
    QVERIFY(empty->isVisible());
    QVERIFY(empty->label()->text().contains(QStringLiteral("which metrics each lacks")));
    // With predictions the panel goes.
    kernels.setReport(std::make_shared<const core::NcuReport>(
            core::readNcuCsv(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")));
    kernels.wait();
    QTRY_VERIFY(!view.points().empty());
    QVERIFY(!empty->isVisible());
}

void TestPredictionView::selectedKernelsDiagnosis()
{
    // The kernel selected in the Kernels dock is ringed, and its limit and the model's best changes are said
    // below the plot: those of core::compareKernels() (crossroof-cli kernels --json) for the same file and
    // profile.
    ParameterState state;
    state.applyProfile(*core::findBundledProfile("h100-sxm"));
    KernelState kernels(&state);
    PredictionView view(&kernels);
    view.resize(900, 640);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const core::NcuReport report = core::readNcuCsv(kTorch);
    kernels.setReport(std::make_shared<const core::NcuReport>(report));
    QCOMPARE(view.points().size(), std::size_t(11));
    QVERIFY(view.diagnosisLabel()->isHidden());
    const int graphs = view.plot()->graphCount();
    const core::KernelTable cli = core::compareKernels(report, state.params(), state.profile());
    const std::size_t gemm = 8; // ID 17, the cuBLAS FFMA GEMM
    QCOMPARE(report.kernels[gemm].id, std::string("17"));
    view.setHighlighted({widgets::kernelLabel(report.kernels[gemm])});
    QVERIFY(!view.diagnosisLabel()->isHidden());
    const QString said = view.diagnosisLabel()->text().remove(QChar(0x200B));
    const core::KernelRow &row = cli.rows[gemm];
    QVERIFY(row.limit && !row.diagnosis.empty());
    // By hand: the GEMM computes (3.5 of the 4 warp-instructions an SM issues per cycle): the issue rate
    // bounds it.
    QCOMPARE(core::kernelLimitName(*row.limit), std::string_view("issue"));
    QVERIFY2(said.startsWith(QStringLiteral(
                     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_"
                     "ffma_aligna4_alignc4_execute_kernel__5x_cublas [17]: Bound by issue.")),
             qPrintable(said));
    for (const core::KernelChange &c : row.diagnosis)
        QVERIFY2(said.contains(QString::fromStdString(c.change)
                               + QStringLiteral(": +%1 %").arg(std::lround(c.gain * 100))),
                 qPrintable(said));
    QCOMPARE(view.plot()->graphCount(), graphs + 1); // the ring
    QCPGraph *ring = view.plot()->graph(view.plot()->graphCount() - 1);
    QCOMPARE(ring->data()->size(), 1);
    QCOMPARE(ring->data()->begin()->value, *row.predicted_gbs);
    view.setHighlighted({});
    QVERIFY(view.diagnosisLabel()->isHidden());
    QCOMPARE(view.plot()->graphCount(), graphs);
}

QTEST_MAIN(TestPredictionView)
#include "tst_prediction_view.moc"
