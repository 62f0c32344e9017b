// SPDX-License-Identifier: GPL-3.0-or-later
// One kernel, one prediction (issue 45): with real Nsight Compute exports imported as a trace or opened in the
// Kernels dock, the Kernels table, the Prediction view, the roofline, the X-graph's kernel marks and
// crossroof-cli's kernels and roofline commands give every kernel the same predicted DRAM throughput, each at its
// own clock; the table's mean accuracy and the X-graph legend's "model off" say the same; the file imported as a
// trace is read once (the Kernels dock takes the import's kernels); kernels opened in the dock are drawn on the
// X-graph without an import; "Use kernel" puts the X-graph's operating point on the table's number.
#include "main_window.h"

#include "cli_run.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/traces/kernel_table.h"
#include "kernels/kernel_table_view.h"
#include "kernels/prediction_view.h"
#include "roofline/roofline_view.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "xgraph/xgraph_view.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <map>
#include <memory>

using namespace crossroof;

namespace {

const QString kShared = QStringLiteral(CROSSROOF_SHARED_DIR "/data/h100-sxm/torch/torch_raw.csv");
const QString kRaw = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");

constexpr int kPredictedColumn = widgets::KernelTableView::Predicted;
constexpr int kSortRole = Qt::UserRole;       // the number behind a cell's text
constexpr int kKernelRole = Qt::UserRole + 1; // the row's kernel

/// The predicted DRAM GB/s of each kernel (by index in the report) as the Kernels table holds it.
std::map<std::size_t, double> tablePredictions(widgets::KernelTableView *table)
{
    std::map<std::size_t, double> out;
    const QAbstractItemModel *model = table->table()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex cell = model->index(row, kPredictedColumn);
        if (cell.data().toString() != QStringLiteral("–"))
            out[cell.data(kKernelRole).toULongLong()] = cell.data(kSortRole).toDouble();
    }
    return out;
}

/// The X-graph's kernel set of FILE: its stars' graph (named after the file) and its crosses' (the model).
std::pair<QCPGraph *, QCPGraph *> xgraphKernels(QCustomPlot *plot, const QString &file)
{
    QCPGraph *stars = nullptr, *crosses = nullptr;
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph *g = plot->graph(i);
        if (g->name().contains(file) && g->scatterStyle().shape() == QCPScatterStyle::ssCustom)
            stars = g;
        if (g->scatterStyle().shape() == QCPScatterStyle::ssCross)
            crosses = g;
    }
    return {stars, crosses};
}

/// Sorted values of a graph.
std::vector<double> values(QCPGraph *g)
{
    std::vector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out.push_back(it->value);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestOnePrediction : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void oneNumberPerKernel_data();
    void oneNumberPerKernel();
    void kernelsOfTheDockOnTheXGraph();
    void aSelectedKernelInTheViews();
};

void TestOnePrediction::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

void TestOnePrediction::oneNumberPerKernel_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("torch (shared)") << kShared;
    QTest::newRow("ncu_h100_raw") << kRaw;
}

void TestOnePrediction::oneNumberPerKernel()
{
    QFETCH(QString, path);
    if (!QFileInfo::exists(path))
        QSKIP("../shared/data/h100-sxm/torch is not here");
    app::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.state()->applyProfile(*core::findBundledProfile("h100-sxm"));
    // Imported as a trace: the Kernels dock takes the kernels the import read, not the file again.
    QSignalSpy read(w.tracesPanel(), &widgets::TracesPanel::kernelsRead);
    QCOMPARE(w.tracesPanel()->importFile(path), QString());
    QCOMPARE(read.count(), 1);
    const auto imported = read.first().at(0).value<std::shared_ptr<const core::NcuReport>>();
    QCOMPARE(w.kernelState()->report(), imported.get());
    QCOMPARE(w.kernelState()->report()->kernels.size(), core::readNcuCsv(path.toStdString()).kernels.size());
    w.kernelState()->wait();
    w.showView(QStringLiteral("prediction"));

    // The Kernels table.
    w.kernelTable()->show();
    const std::map<std::size_t, double> table = tablePredictions(w.kernelTable());
    QVERIFY(table.size() >= 10); // 11 of the PyTorch kernels, the 10 of the other export
    const core::NcuReport &report = *w.kernelState()->report();
    // Each at its own clock: the PyTorch kernels ran at about 1.5 to 1.6 GHz, the profile says 1.98.
    for (const auto &[kernel, gbs] : table) {
        const auto params = w.kernelState()->table().paramsOf(w.kernelState()->table().rows[kernel]);
        QVERIFY(params);
        QCOMPARE(params->clock_ghz, *report.kernels[kernel].sm_frequency_hz * 1e-9);
    }

    // The Prediction view.
    std::map<std::size_t, double> prediction;
    for (const auto &p : w.predictionView()->points())
        prediction[p.kernel] = p.predicted_gbs;
    QCOMPARE(prediction, table);

    // The roofline: its predicted points at Gop/s over intensity per DRAM byte, which is the DRAM GB/s.
    w.showView(QStringLiteral("roofline"));
    int onRoofline = 0;
    for (const auto &p : w.rooflineView()->points()) {
        if (!p.predicted)
            continue;
        QVERIFY(table.count(p.kernel));
        const double gbs = p.predicted->y() / p.predicted->x();
        QVERIFY2(std::abs(gbs - table.at(p.kernel)) <= 1e-12 * gbs, qPrintable(p.label));
        ++onRoofline;
    }
    QCOMPARE(onRoofline, int(table.size()));

    // The X-graph's crosses: the same numbers (every kernel with a prediction has warps and a measured DRAM
    // throughput, so it is a point of the trace).
    w.showView(QStringLiteral("xgraph"));
    const QString file = QFileInfo(path).fileName();
    const auto [stars, crosses] = xgraphKernels(w.xgraphView()->plot(), file);
    QVERIFY(stars && crosses);
    std::vector<double> tabled;
    for (const auto &[kernel, gbs] : table)
        tabled.push_back(gbs);
    std::sort(tabled.begin(), tabled.end());
    QCOMPARE(values(crosses), tabled);

    // The legend's "model off" is the table's 1 − mean accuracy.
    const QRegularExpression off(QStringLiteral("model off ([0-9.]+) %"));
    const auto legend = off.match(stars->name());
    const auto label = off.match(w.kernelTable()->accuracyLabel()->text());
    QVERIFY2(legend.hasMatch() && label.hasMatch(),
             qPrintable(stars->name() + w.kernelTable()->accuracyLabel()->text()));
    QCOMPARE(legend.captured(1), label.captured(1));
    const auto accuracy = w.kernelState()->accuracy();
    QVERIFY(accuracy);
    QVERIFY(std::abs(legend.captured(1).toDouble() - 100 * (1 - accuracy->model)) < 0.051);

    // crossroof-cli kernels and roofline, for the same file and profile.
    const std::string native = path.toStdString();
    const auto kernelsJson = test::runJson({"kernels", "--trace", native, "--profile", "h100-sxm", "--json"});
    std::map<std::size_t, double> cli;
    for (std::size_t i = 0; i < kernelsJson["kernels"].size(); ++i) {
        if (!kernelsJson["kernels"][i]["predicted_gbs"].is_null())
            cli[i] = kernelsJson["kernels"][i]["predicted_gbs"].get<double>();
    }
    QCOMPARE(cli, table);
    const auto roofJson = test::runJson({"roofline", "--trace", native, "--profile", "h100-sxm", "--json"});
    int roofKernels = 0;
    for (const auto &k : roofJson["kernels"]) {
        if (k["predicted_gbs"].is_null())
            continue;
        const auto id = std::find_if(report.kernels.begin(), report.kernels.end(),
                                     [&k](const core::NcuKernel &n) { return n.id == k["id"].get<std::string>(); });
        QVERIFY(id != report.kernels.end());
        QCOMPARE(k["predicted_gbs"].get<double>(), table.at(std::size_t(id - report.kernels.begin())));
        ++roofKernels;
    }
    QCOMPARE(roofKernels, int(table.size()));

    // Use kernel: the X-graph's operating point is then the table's number for that kernel, for every kernel.
    for (const auto &[kernel, gbs] : table) {
        w.kernelTable()->useKernel(kernel);
        const double now = core::XModel(w.state()->params()).solve().operatingPoint().dram_gbs;
        QVERIFY2(std::abs(now - gbs) <= 1e-9 * gbs,
                 qPrintable(QStringLiteral("%1: %2 against %3")
                                    .arg(widgets::kernelLabel(report.kernels[kernel])).arg(now).arg(gbs)));
        w.state()->undoStack()->undo();
    }
}

void TestOnePrediction::kernelsOfTheDockOnTheXGraph()
{
    app::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.state()->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(w.kernelTable()->loadFile(kRaw), QString());
    QVERIFY(w.traceState()->traces().empty()); // not imported as a trace
    w.showView(QStringLiteral("xgraph"));
    const auto [stars, crosses] = xgraphKernels(w.xgraphView()->plot(), QStringLiteral("ncu_h100_raw.csv"));
    QVERIFY(stars && crosses);
    QCOMPARE(stars->dataCount(), 10);
    std::vector<double> tabled;
    for (const auto &[kernel, gbs] : tablePredictions(w.kernelTable()))
        tabled.push_back(gbs);
    std::sort(tabled.begin(), tabled.end());
    QCOMPARE(values(crosses), tabled);
    // Imported too, the file is drawn once: as the trace.
    QCOMPARE(w.tracesPanel()->importFile(kRaw), QString());
    int sets = 0;
    for (int i = 0; i < w.xgraphView()->plot()->graphCount(); ++i)
        sets += w.xgraphView()->plot()->graph(i)->name().contains(QStringLiteral("ncu_h100_raw.csv"));
    QCOMPARE(sets, 1);
    // Closed, the kernels leave the X-graph with the dock (the trace stays).
    w.traceState()->clear();
    w.kernelTable()->clear();
    QVERIFY(!xgraphKernels(w.xgraphView()->plot(), QStringLiteral("ncu_h100_raw.csv")).first);
}

void TestOnePrediction::aSelectedKernelInTheViews()
{
    // A kernel selected in the Kernels dock: the Prediction view gives its limit and changes (the dock's
    // row), the X-graph draws the memory levels (its counters place it at each); none selected, neither.
    app::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.state()->applyProfile(*core::findBundledProfile("h100-sxm"));
    QCOMPARE(w.kernelTable()->loadFile(kRaw), QString());
    w.kernelState()->wait();
    const auto levelsDrawn = [&w] {
        int count = 0;
        for (QCPGraph *g : w.xgraphView()->levelGraphs())
            count += !g->data()->isEmpty();
        return count;
    };
    QCOMPARE(levelsDrawn(), 0);
    QVERIFY(w.predictionView()->diagnosisLabel()->isHidden());
    w.kernelTable()->table()->selectRow(0);
    const std::size_t kernel = w.kernelTable()->selectedKernels().front();
    const core::KernelRow &row = w.kernelState()->table().rows[kernel];
    QVERIFY(row.limit);
    QVERIFY(!w.predictionView()->diagnosisLabel()->isHidden());
    const QString said = w.predictionView()->diagnosisLabel()->text().remove(QChar(0x200B));
    QVERIFY2(said.contains(QStringLiteral("Bound by %1.")
                                   .arg(QString::fromLatin1(core::kernelLimitName(*row.limit).data()))),
             qPrintable(said));
    QCOMPARE(levelsDrawn(), 3); // the H100 SXM profile gives L1, L2 and DRAM a ceiling
    w.kernelTable()->table()->clearSelection();
    QVERIFY(w.predictionView()->diagnosisLabel()->isHidden());
    QCOMPARE(levelsDrawn(), 0);
}

QTEST_MAIN(TestOnePrediction)
#include "tst_one_prediction.moc"
