// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/xmodel.h"
#include "kernels/kernel_table_view.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace crossroof;
using widgets::KernelState;
using widgets::KernelTableView;
using widgets::ParameterState;

namespace {

const QString kDetails = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_details.csv");
const QString kRaw = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");

} // namespace

class TestKernelTableView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void showsTheFileAndTheMismatch();
    void sortsAndFilters();
    void useKernelIsOneUndoStep();
    void realKernelsShowTheirBasis();
    void makeProfileFromTheFile();
    void anH200UnderTheH100IsNamedAndOffersTheH200();
    void selectionNamesTheKernels();
    void hiddenTableWaits();
    void dragOfNOrZKeepsTheTable();
    void badFile();
    void shortNamesInA690PixelDock();
    void diagnosisAsTheCliGivesIt();

private:
    ParameterState *m_state = nullptr;
    KernelState *m_kernels = nullptr;
    KernelTableView *m_view = nullptr;
};

void TestKernelTableView::init()
{
    m_state = new ParameterState;
    m_kernels = new KernelState(m_state);
    m_view = new KernelTableView(m_kernels);
    m_view->show(); // as a user sees it; hiddenTableWaits() hides it
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void TestKernelTableView::cleanup()
{
    delete m_view;
    delete m_kernels;
    delete m_state;
}

void TestKernelTableView::showsTheFileAndTheMismatch()
{
    QVERIFY(m_view->warningLabel()->isHidden());
    QCOMPARE(m_view->loadFile(kDetails), QString());
    QCOMPARE(m_view->table()->model()->rowCount(), 10);
    QCOMPARE(m_view->table()->model()->index(0, KernelTableView::Name).data().toString(),
             QStringLiteral("xkernel"));
    QCOMPARE(m_view->table()->model()->index(0, KernelTableView::Warps).data().toString(),
             QStringLiteral("3.99"));
    // The default profile is a 15-SM Fermi: said, with the offer to make a profile of the file's device.
    QVERIFY(!m_view->warningLabel()->isHidden());
    QVERIFY2(m_view->warningLabel()->text().contains(
                     QStringLiteral("profile: GeForce GTX 570 (Fermi), single precision: 132 SMs, not 15")),
             qPrintable(m_view->warningLabel()->text()));
    // The details page has no instruction or request counts: no kernel is predicted, and the warning says
    // which metrics to add (the label may break their names, so it is read without its break points).
    const QString warning = m_view->warningLabel()->text().remove(QChar(0x200B));
    QVERIFY(warning.contains(QStringLiteral("10 kernel(s) get no prediction")));
    QVERIFY(warning.contains(QStringLiteral("ncu --metrics smsp__inst_executed.sum,")));
    QVERIFY(!m_view->makeProfileButton()->isHidden());
    const bool bundledMatch
            = !core::checkDevice(core::deviceFacts(*m_view->report()), m_state->profile(), core::bundledProfiles())
                       .matches.empty();
    QCOMPARE(!m_view->switchButton()->isHidden(), bundledMatch);
}

void TestKernelTableView::sortsAndFilters()
{
    QCOMPARE(m_view->loadFile(kDetails), QString());
    QAbstractItemModel *model = m_view->table()->model();
    m_view->table()->sortByColumn(KernelTableView::Warps, Qt::DescendingOrder);
    QCOMPARE(model->index(0, KernelTableView::Warps).data().toString(), QStringLiteral("63.57"));
    QCOMPARE(model->index(9, KernelTableView::Warps).data().toString(), QStringLiteral("3.99"));
    m_view->table()->sortByColumn(1, Qt::AscendingOrder); // IDs as numbers: 0, 1, ..., 9
    QCOMPARE(model->index(9, 1).data().toString(), QStringLiteral("9"));
    m_view->filter()->setText(QStringLiteral("XKERNEL<8")); // the full name: the table shows "xkernel"
    QCOMPARE(model->rowCount(), 4);
    m_view->filter()->clear();
    QCOMPARE(model->rowCount(), 10);
}

void TestKernelTableView::useKernelIsOneUndoStep()
{
    QCOMPARE(m_view->loadFile(kRaw), QString());
    m_state->applyProfile(*core::findBundledProfile("h100-pcie"));
    const double n = m_state->params().n;
    const double z = m_state->params().Z;
    const int steps = m_state->undoStack()->count();
    const core::XModelParams before = m_state->params();
    m_view->useKernel(6); // xkernel<32, 4>: 63.57 warps, Z = 2,491,720,709 / 17,301,504
    QCOMPARE(m_state->params().n, 64.0);
    QVERIFY(std::abs(m_state->params().Z - 2491720709.0 / 17301504) < 1e-9);
    // Every key of the kernel's prediction: the X-graph's operating point is then the table's prediction.
    m_kernels->wait();
    const core::KernelRow &row = m_kernels->table().rows[6];
    const std::optional<core::XModelParams> predicted = m_kernels->table().paramsOf(row);
    QVERIFY(predicted);
    for (const char *key : {"clock_ghz", "L", "m", "req_bytes", "dram_bytes", "h", "h_2"}) {
        const auto member = core::findParameter(key)->member;
        QCOMPARE(m_state->params().*member, (*predicted).*member);
    }
    QVERIFY(std::abs(core::XModel(m_state->params()).solve().operatingPoint().dram_gbs - *row.predicted_gbs)
            < 1e-9 * *row.predicted_gbs);
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    m_state->undoStack()->undo();
    QCOMPARE(m_state->params().n, n);
    QCOMPARE(m_state->params().Z, z);
    QVERIFY(m_state->params() == before);
}

void TestKernelTableView::realKernelsShowTheirBasis()
{
    // The real PyTorch kernels on the H100 SXM: the workload columns, the accuracy, and the tooltips that say
    // what each prediction used; the details export says which metrics are missing.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv")), QString());
    QAbstractItemModel *model = m_view->table()->model();
    QCOMPARE(model->rowCount(), 11);
    QVERIFY(!m_view->accuracyLabel()->isHidden());
    QVERIFY2(m_view->accuracyLabel()->text().contains(QStringLiteral("over 11 kernel(s)")),
             qPrintable(m_view->accuracyLabel()->text()));
    QCOMPARE(model->headerData(KernelTableView::ReqBytes, Qt::Horizontal).toString(),
             QStringLiteral("B/req"));
    QCOMPARE(model->index(0, KernelTableView::ReqBytes).data().toString(), QStringLiteral("128"));
    QCOMPARE(model->index(0, KernelTableView::InFlight).data().toString(), QStringLiteral("stores")); // randn
    QVERIFY(model->index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Predicted with n = 32")));
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_details.csv")),
             QString());
    QVERIFY(m_view->accuracyLabel()->isHidden());
    const QString tip = model->index(0, 0).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("ncu --metrics")) && tip.contains(QStringLiteral("smsp__inst_executed.sum")),
             qPrintable(tip));
    QCOMPARE(model->index(0, KernelTableView::Predicted).data().toString(), QStringLiteral("–"));
}

void TestKernelTableView::anH200UnderTheH100IsNamedAndOffersTheH200()
{
    // The same SMs and CC as the H100 SXM: the name and the bandwidth tell the H200 apart, and only its profile
    // is offered (the check had looked at SMs and CC alone, passed, and offered both).
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h200_probe/ncu_raw.csv")), QString());
    const QString said = QStringLiteral("file: NVIDIA H200; profile: H100 SXM 80GB (Hopper): another GPU (H200, not "
                                        "H100); peak DRAM bandwidth 4814 GB/s, the profile's 2964 GB/s; the "
                                        "predictions are for the profile's machine");
    QVERIFY(!m_view->warningLabel()->isHidden());
    QVERIFY2(m_view->warningLabel()->text().remove(QChar(0x200B)).contains(said),
             qPrintable(m_view->warningLabel()->text()));
    QVERIFY(!m_view->switchButton()->isHidden());
    QCOMPARE(m_view->switchButton()->text(), QStringLiteral("S&witch to H200 SXM 141GB (Hopper)"));
    m_view->switchButton()->click();
    m_kernels->wait(); // the predictions and warnings for the new profile come from the background
    QCOMPARE(m_state->profile().id, std::string("h200"));
    QVERIFY(!m_view->warningLabel()->text().contains(QStringLiteral("file: NVIDIA H200")));
    QVERIFY(m_view->switchButton()->isHidden());
}

void TestKernelTableView::makeProfileFromTheFile()
{
    QCOMPARE(m_view->loadFile(kRaw), QString());
    m_view->makeProfileButton()->click();
    m_kernels->wait();
    const core::XModelParams &p = m_state->params();
    QCOMPARE(p.sm_count, 132.0);
    QCOMPARE(p.max_warps, 64.0);
    QCOMPARE(p.clock_ghz, 1.98);
    QVERIFY(std::abs(p.R - 3352.32) < 1e-9);
    QCOMPARE(m_state->profile().compute_capability, std::string("9.0"));
    // The profile is now the file's device: no mismatch is left to report (what remains is about the file,
    // such as its kernels' missing store counts).
    QVERIFY(!m_view->warningLabel()->text().contains(QStringLiteral("differs from profile")));
    QVERIFY(m_view->switchButton()->isHidden());
    QVERIFY(m_view->makeProfileButton()->isHidden());
    m_state->undoStack()->undo();
    m_kernels->wait();
    QVERIFY(!m_view->warningLabel()->isHidden());
}

void TestKernelTableView::selectionNamesTheKernels()
{
    QCOMPARE(m_view->loadFile(kRaw), QString());
    QSignalSpy spy(m_view, &KernelTableView::selectionChanged);
    QVERIFY(!m_view->useButton()->isEnabled());
    m_view->table()->selectRow(2);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toStringList(), QStringList {QStringLiteral("xkernel<8, 1> [2]")});
    QVERIFY(m_view->useButton()->isEnabled());
}

void TestKernelTableView::hiddenTableWaits()
{
    // Every row's prediction is a model solve: while the table is hidden (a tab behind the Readout) a drag does
    // not recompute it; shown again, it predicts for the parameters of then.
    QCOMPARE(m_view->loadFile(kRaw), QString());
    m_state->applyProfile(*core::findBundledProfile("h100-pcie"));
    const QModelIndex cell = m_view->table()->model()->index(0, KernelTableView::Predicted);
    const QString shown = cell.data().toString();
    m_kernels->wait();
    int refreshes = m_view->refreshes();
    m_state->setValue(QStringLiteral("L"), m_state->params().L * 2);
    m_kernels->wait();
    QCOMPARE(m_view->refreshes(), refreshes + 1); // visible: as soon as the predictions come
    const QString halved = m_view->table()->model()->index(0, KernelTableView::Predicted).data().toString();
    QVERIFY2(halved != shown, qPrintable(shown));
    m_view->hide();
    refreshes = m_view->refreshes();
    const double latency = m_state->params().L;
    for (double factor : {1.5, 2.0, 3.0})
        m_state->setValue(QStringLiteral("L"), latency * factor);
    m_kernels->wait();
    QCOMPARE(m_view->refreshes(), refreshes);
    m_view->show();
    QCOMPARE(m_view->refreshes(), refreshes + 1);
    const QString now = m_view->table()->model()->index(0, KernelTableView::Predicted).data().toString();
    QVERIFY2(now != halved, qPrintable(now));
    // The same as a table of kernels read now shows.
    KernelState kernels(m_state);
    kernels.setReport(m_kernels->sharedReport());
    kernels.wait();
    KernelTableView fresh(&kernels);
    QCOMPARE(fresh.table()->model()->index(0, KernelTableView::Predicted).data().toString(), now);
}

void TestKernelTableView::dragOfNOrZKeepsTheTable()
{
    // Each kernel is predicted at its own n and Z: a drag of the n or Z slider changes no row, so the table is
    // not filled again (its sort, scroll and selection stay); a machine parameter (R) refills it.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(m_view->loadFile(kRaw), QString());
    QTableView *view = m_view->table();
    view->sortByColumn(KernelTableView::Predicted, Qt::DescendingOrder); // by prediction
    view->selectRow(2);
    const auto cells = [view] {
        QStringList out;
        for (int row = 0; row < view->model()->rowCount(); ++row)
            for (int column = 0; column < view->model()->columnCount(); ++column)
                out << view->model()->index(row, column).data().toString();
        return out;
    };
    const QStringList before = cells();
    const std::vector<std::size_t> selected = m_view->selectedKernels();
    QCOMPARE(selected.size(), std::size_t(1));
    const int refreshes = m_view->refreshes();
    const int computed = m_kernels->computed();
    for (int step = 1; step <= 20; ++step) {
        m_state->setValue(QStringLiteral("n"), 2 + step);
        m_state->setValue(QStringLiteral("Z"), 4 + step * 0.5);
    }
    m_kernels->wait();
    QCOMPARE(m_kernels->computed(), computed); // nothing computed again
    QCOMPARE(m_view->refreshes(), refreshes);
    QCOMPARE(cells(), before);
    QCOMPARE(m_view->selectedKernels(), selected);
    // The same rows as a table made now, for these n and Z.
    KernelState kernels(m_state);
    kernels.setReport(m_kernels->sharedReport());
    kernels.wait();
    KernelTableView fresh(&kernels);
    fresh.table()->sortByColumn(KernelTableView::Predicted, Qt::DescendingOrder);
    for (int row = 0; row < view->model()->rowCount(); ++row)
        for (int column = 0; column < view->model()->columnCount(); ++column)
            QCOMPARE(fresh.table()->model()->index(row, column).data().toString(),
                     view->model()->index(row, column).data().toString());

    m_state->setValue(QStringLiteral("R"), m_state->params().R / 2);
    m_kernels->wait();
    QCOMPARE(m_view->refreshes(), refreshes + 1);
    QVERIFY(cells() != before);
    QCOMPARE(m_view->selectedKernels(), selected); // the selection survives the refill
}

void TestKernelTableView::badFile()
{
    const QString error = m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/README.md"));
    QVERIFY2(error.contains(QStringLiteral("README.md")), qPrintable(error));
    QVERIFY(!m_view->report());
    QCOMPARE(m_view->table()->model()->rowCount(), 0);
}

namespace {

/// Whether column C of VIEW lies whole within its viewport, as the user sees it (no sideways scrolling).
bool columnInView(QTableView *view, int c)
{
    const int left = view->columnViewportPosition(c);
    return left >= 0 && left + view->columnWidth(c) <= view->viewport()->width();
}

} // namespace

void TestKernelTableView::shortNamesInA690PixelDock()
{
    // The real PyTorch and cuBLAS kernels: names of up to 1,700 characters. Shown by the name a user knows,
    // the full name on hover and in the detail pane; Predicted, Error and the limit (or why there is none)
    // beside the name in a dock 690 pixels wide, a sort by error keeping the selected kernel's name in view.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv")),
             QString());
    m_view->resize(690, 520);
    QTableView *view = m_view->table();
    QAbstractItemModel *model = view->model();
    view->sortByColumn(KernelTableView::Id, Qt::AscendingOrder);
    QCOMPARE(model->index(4, KernelTableView::Id).data().toString(), QStringLiteral("9"));
    QCOMPARE(model->index(4, KernelTableView::Name).data().toString(),
             QStringLiteral("vectorized_elementwise_kernel"));
    const QString full = QString::fromStdString(m_view->report()->kernels[4].name);
    QVERIFY(full.startsWith(
            QStringLiteral("void at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<float>")));
    QVERIFY(model->index(4, KernelTableView::Name).data(Qt::ToolTipRole).toString().startsWith(full));
    QCOMPARE(model->index(0, KernelTableView::Name).data().toString(),
             QStringLiteral("distribution_elementwise_grid_stride_kernel"));
    m_view->filter()->setText(QStringLiteral("CUDAFunctor_add")); // the full name is searched
    QCOMPARE(model->rowCount(), 1);
    m_view->filter()->clear();
    for (const int c :
         {KernelTableView::Name, KernelTableView::Predicted, KernelTableView::Error, KernelTableView::Limit})
        QVERIFY2(columnInView(view, c), qPrintable(model->headerData(c, Qt::Horizontal).toString()));
    QCOMPARE(view->horizontalScrollBar()->value(), 0);

    // Sorted by error, the selected kernel and its name stay in view, even when the table was scrolled
    // sideways.
    view->selectRow(4);
    view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->maximum());
    view->sortByColumn(KernelTableView::Error, Qt::DescendingOrder);
    const QModelIndex selected = view->selectionModel()->selectedRows(KernelTableView::Name).front();
    QCOMPARE(selected.data().toString(), QStringLiteral("vectorized_elementwise_kernel"));
    QVERIFY(view->viewport()->rect().contains(view->visualRect(selected)));
    QVERIFY(!m_view->detailLabel()->isHidden());
    QVERIFY(m_view->detailLabel()->text().remove(QChar(0x200B)).startsWith(full + QStringLiteral(" [9]")));

    // Without predictions the limit column says why, in view.
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_details.csv")),
             QString());
    QVERIFY(model->index(0, KernelTableView::Limit)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("no prediction: ")));
    QVERIFY(columnInView(view, KernelTableView::Limit));
    QVERIFY2(
            m_view->detailLabel()->text().remove(QChar(0x200B)).contains(QStringLiteral("\nNo prediction: ")),
            qPrintable(m_view->detailLabel()->text()));
    view->clearSelection();
    QVERIFY(m_view->detailLabel()->isHidden());
}

void TestKernelTableView::diagnosisAsTheCliGivesIt()
{
    // The selected kernel's limit and ranked changes are those of core::compareKernels(), which crossroof-cli
    // kernels --json writes, for the same file and profile.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(m_view->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv")),
             QString());
    const core::KernelTable cli
            = core::compareKernels(*m_view->report(), m_state->params(), m_state->profile());
    QTableView *view = m_view->table();
    view->sortByColumn(KernelTableView::Id, Qt::AscendingOrder);
    for (const int row : {4, 8}) { // a + b (ID 9), the cuBLAS FFMA GEMM (ID 17)
        view->selectRow(row);
        const std::size_t kernel = m_view->selectedKernels().front();
        const core::KernelRow &expected = cli.rows[kernel];
        QVERIFY(expected.limit && !expected.diagnosis.empty());
        const QString limit = QString::fromLatin1(core::kernelLimitName(*expected.limit).data());
        QCOMPARE(view->model()->index(row, KernelTableView::Limit).data().toString(), limit);
        const QString detail = m_view->detailLabel()->text().remove(QChar(0x200B));
        QVERIFY2(detail.contains(QStringLiteral("Bound by %1.").arg(limit)), qPrintable(detail));
        for (const core::KernelChange &c : expected.diagnosis) {
            const long percent = std::lround(c.gain * 100); // the CLI's %+.0f
            const QString said = QString::fromStdString(c.change)
                                 + QStringLiteral(": %1%2 %")
                                           .arg(percent >= 0 ? QStringLiteral("+") : QString())
                                           .arg(percent);
            QVERIFY2(detail.contains(said), qPrintable(detail + QStringLiteral(" / ") + said));
        }
    }
    // By hand: a + b streams two loads and a store at the DRAM ceiling (measured 2.9 TB/s of the 3.35 peak),
    // so DRAM bounds it and half the DRAM bytes would make it twice as fast: +100 %.
    view->selectRow(4);
    QCOMPARE(view->model()->index(4, KernelTableView::Limit).data().toString(), QStringLiteral("DRAM"));
    QVERIFY2(m_view->detailLabel()->text().remove(QChar(0x200B)).contains(QStringLiteral("fusion): +100 %")),
             qPrintable(m_view->detailLabel()->text()));
    // The cuBLAS FFMA GEMM computes: the issue rate bounds it, not memory.
    view->selectRow(8);
    QCOMPARE(view->model()->index(8, KernelTableView::Limit).data().toString(), QStringLiteral("issue"));
}

QTEST_MAIN(TestKernelTableView)
#include "tst_kernel_table_view.moc"
