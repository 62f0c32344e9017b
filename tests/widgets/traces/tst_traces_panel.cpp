// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/calibration_dialog.h"
#include "common/parameter_state.h"
#include "traces/trace_import_dialog.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/xmodel.h"

#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const QString kNcu = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_stream_synthetic.csv");
const QString kStream = QStringLiteral(CROSSROOF_SHARED_DIR "/data/gpu-benches/stream/v100.txt");
const QString kStreamH100Pcie = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_benches/h100_pcie.txt");

const core::HardwareProfile &bundled(const char *id)
{
    const core::HardwareProfile *p = core::findBundledProfile(id);
    Q_ASSERT(p);
    return *p;
}

core::MeasuredTrace twoPoints(const std::string &name, core::TraceKind kind)
{
    core::MeasuredTrace t;
    t.name = name;
    t.kind = kind;
    t.x = {1, 2};
    t.y = {1, 2};
    return t;
}

} // namespace

class TestTracesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void importListsTheTraces();
    void checkboxHidesAndRemoveRemoves();
    void badFilesAddNothingAndSayWhy_data();
    void badFilesAddNothingAndSayWhy();
    void genericTableGoesThroughTheMappingDialog();
    void fitOpensTheCalibration();
    void latencyFileSetsLAndLsAsOneUndoStep();
    void todaysLatencyFileOffersThePlateausCalibrateTakes();
    void damagedLatencyFileSaysWhere();
    void traceBecomesTheSupply();
    void theSupplyTraceIsMarkedInTheList();
    void aFileOfAnotherDeviceWarnsAndOffersItsProfile();
    void aKeptProfileIsNotOfferedAgain();

private:
    QString write(const QString &name, const QByteArray &content);

    QTemporaryDir m_dir;
    ParameterState *m_state = nullptr;
    TraceState *m_traces = nullptr;
    TracesPanel *m_panel = nullptr;
};

void TestTracesPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("crossroof-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_traces_panel"));
    QSettings().clear();
}

void TestTracesPanel::init()
{
    m_state = new ParameterState;
    m_traces = new TraceState(m_state);
    m_panel = new TracesPanel(m_traces, m_state);
    m_panel->show();
}

void TestTracesPanel::cleanup()
{
    delete m_panel;
    delete m_state;
}

QString TestTracesPanel::write(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

void TestTracesPanel::importListsTheTraces()
{
    QSignalSpy message(m_panel, &TracesPanel::message);
    QVERIFY(!m_panel->removeButton()->isEnabled());
    QCOMPARE(m_panel->importFile(kNcu), QString());
    QCOMPARE(m_panel->list()->count(), 1);
    QListWidgetItem *item = m_panel->list()->item(0);
    QCOMPARE(item->text(), QStringLiteral("ncu_stream_synthetic kernels"));
    QCOMPARE(item->checkState(), Qt::Checked);
    QVERIFY(item->toolTip().contains(kNcu)); // the source file
    QVERIFY(item->toolTip().contains(QStringLiteral("5 points")));
    QCOMPARE(message.count(), 1);
    QVERIFY(message.front().front().toString().contains(QStringLiteral("ncu --csv")));
    QCOMPARE(m_panel->selectedId(), QStringLiteral("t1"));
    QVERIFY(m_panel->removeButton()->isEnabled());
    QVERIFY(m_panel->fitButton()->isEnabled());

    // Rename in place.
    item->setText(QStringLiteral("my kernels"));
    QCOMPARE(m_traces->trace(QStringLiteral("t1"))->name, std::string("my kernels"));
}

void TestTracesPanel::checkboxHidesAndRemoveRemoves()
{
    m_traces->add(
            {twoPoints("a", core::TraceKind::BandwidthVsWarps), twoPoints("b", core::TraceKind::Runtimes)});
    QCOMPARE(m_panel->list()->count(), 2);
    m_panel->list()->item(0)->setCheckState(Qt::Unchecked);
    QVERIFY(!m_traces->trace(QStringLiteral("t1"))->visible);
    QCOMPARE(m_panel->list()->item(0)->checkState(), Qt::Unchecked); // survives the rebuild

    m_panel->select(QStringLiteral("t2"));
    QVERIFY(!m_panel->fitButton()->isEnabled()); // runtimes are not an f(k) trace
    m_panel->removeButton()->click();
    QCOMPARE(m_traces->ids(), QStringList {QStringLiteral("t1")});
    QCOMPARE(m_panel->list()->count(), 1);
}

void TestTracesPanel::badFilesAddNothingAndSayWhy_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("empty") << "empty.csv" << QByteArray();
    QTest::newRow("binary junk") << "junk.tsv" << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    QTest::newRow("header only") << "header.csv" << QByteArray("warps,gbs\n");
    QTest::newRow("missing columns") << "tidy.csv" << QByteArray("gpu,warps_per_sm,init_GBs\nv100,2\n");
}

void TestTracesPanel::badFilesAddNothingAndSayWhy()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    const QString path = write(name, content);
    QSignalSpy changed(m_traces, &TraceState::changed);
    const QString error = m_panel->importFile(path);
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(changed.count(), 0);
    QVERIFY(m_traces->traces().empty());
    QVERIFY(!m_panel->importDialog());
    auto *box = m_panel->findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY(box->text().contains(path));
    box->close();
}

void TestTracesPanel::genericTableGoesThroughTheMappingDialog()
{
    const QString path
            = write(QStringLiteral("sweep.tsv"), "warps\tGBs\tnote\n4\t300\tx\n8\t600\tx\n16\t890\ty\n");
    QCOMPARE(m_panel->importFile(path), QString());
    QVERIFY(m_traces->traces().empty()); // not before the mapping is chosen
    TraceImportDialog *dialog = m_panel->importDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    TraceMapping m = dialog->mapping();
    QCOMPARE(m.x, std::string("warps"));
    QCOMPARE(m.y, std::string("GBs"));
    dialog->accept();
    QCOMPARE(m_traces->traces().size(), std::size_t(1));
    QCOMPARE(m_traces->traces().front().y, (std::vector<double> {300, 600, 890}));
    QCOMPARE(m_panel->list()->count(), 1);
    QVERIFY(m_panel->list()->item(0)->toolTip().contains(path));
}

void TestTracesPanel::fitOpensTheCalibration()
{
    if (!QFile::exists(kStream))
        QSKIP("../shared/data/gpu-benches is not here");
    QCOMPARE(m_panel->importFile(kStream), QString());
    QCOMPARE(m_panel->list()->count(), 6);
    m_panel->select(QStringLiteral("t1"));
    m_panel->fitButton()->click();
    CalibrationDialog *dialog = m_panel->calibrationDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->traceId(), QStringLiteral("t1"));
    QVERIFY(dialog->rooflineFit());
    QVERIFY(dialog->rooflineFit()->r2 >= 0.99);
    // The same dialog follows another selection.
    QCOMPARE(m_panel->openCalibration(QStringLiteral("t2")), dialog);
    QCOMPARE(dialog->traceId(), QStringLiteral("t2"));
}

void TestTracesPanel::latencyFileSetsLAndLsAsOneUndoStep()
{
    // gpu-latency output: the panel offers its DRAM and L1 latencies as L and L_s, and keeps the chase as a
    // trace of latency against footprint (the Memory Levels view draws it).
    const QString path = write(QStringLiteral("v100.txt"),
                               "clock: 1380 1380 1380\n"
                               "  1000000  1380        1     21.7    29.9\n"
                               "  1000000  1380        2     21.7    30.0\n"
                               " 24465205  1380  1529075   7746.9   437.0\n");
    const double L = m_state->params().L;
    const double Ls = m_state->params().L_s;
    QVERIFY(L != 437.0 && Ls != 29.9);
    QCOMPARE(m_panel->importFile(path), QString());
    QCOMPARE(m_traces->traces().size(), std::size_t(1));
    QCOMPARE(m_traces->traces().front().kind, core::TraceKind::LatencyVsFootprint);
    QCOMPARE(m_traces->traces().front().y, (std::vector<double>{29.9, 30.0, 437.0}));
    QVERIFY(!m_panel->importDialog()); // not the column-mapping dialog
    auto *question = m_panel->findChild<QMessageBox *>(QStringLiteral("LatencyQuestion"));
    QVERIFY(question);
    QVERIFY2(question->text().contains(QStringLiteral("L = 437 cycles")), qPrintable(question->text()));
    QVERIFY(question->text().contains(QStringLiteral("L_s = 29.9 cycles")));
    QVERIFY(question->text().contains(QStringLiteral("1380 MHz")));
    QCOMPARE(m_state->params().L, L); // nothing changes before Apply
    QSignalSpy message(m_panel, &TracesPanel::message);
    question->button(QMessageBox::Apply)->click();
    QCOMPARE(m_state->params().L, 437.0);
    QCOMPARE(m_state->params().L_s, 29.9);
    QCOMPARE(message.count(), 1);
    m_state->undoStack()->undo(); // one step takes back both
    QCOMPARE(m_state->params().L, L);
    QCOMPARE(m_state->params().L_s, Ls);
}

void TestTracesPanel::todaysLatencyFileOffersThePlateausCalibrateTakes()
{
    // The MI100's gpu-latency output as the benchmark writes it today: the DRAM, L1 and L2 plateaus, the values
    // `crossroof-cli calibrate --latency` sets (tst_cli_gpu_benches), not the last and first rows.
    QCOMPARE(m_panel->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_benches/latency_mi100.txt")),
             QString());
    auto *question = m_panel->findChild<QMessageBox *>(QStringLiteral("LatencyQuestion"));
    QVERIFY(question);
    QVERIFY2(question->text().contains(QStringLiteral("L = 634.3 cycles")), qPrintable(question->text()));
    QVERIFY(question->text().contains(QStringLiteral("L_s = 135 cycles")));
    QVERIFY2(question->text().contains(QStringLiteral("L_2 = 265.")), qPrintable(question->text()));
    QVERIFY(question->text().contains(QStringLiteral("1430 MHz")));
    question->button(QMessageBox::Apply)->click();
    QCOMPARE(m_state->params().L, 634.3);
    QCOMPARE(m_state->params().L_s, 135.0);
    // The median of the L2 run: 265.25 cycles, between its 261.5 and 271 (the CLI's JSON gives the same number).
    QCOMPARE(m_state->params().L_2, 265.25);
}

void TestTracesPanel::damagedLatencyFileSaysWhere()
{
    const QString path = write(QStringLiteral("cut.txt"), "clock: 1380\n  1000000  1380        1     21.7\n");
    const double L = m_state->params().L;
    const QString error = m_panel->importFile(path);
    QVERIFY2(error.startsWith(path + QStringLiteral(":2:")), qPrintable(error));
    QVERIFY(error.contains(QStringLiteral("5 (steps, clock MHz, chain kB, time ms, cycles)")));
    QVERIFY(!m_panel->findChild<QMessageBox *>(QStringLiteral("LatencyQuestion")));
    auto *box = m_panel->findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    box->close();
    QCOMPARE(m_state->params().L, L);
}

void TestTracesPanel::traceBecomesTheSupply()
{
    // The real V100 stream curves: "Use as f(k)" makes the selected one the X-model's supply (one undo step),
    // the model then gives its measured throughput at a measured point, and pressing again restores the
    // analytic curve.
    QCOMPARE(m_panel->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")), QString());
    QVERIFY(m_panel->list()->count() > 1);
    m_panel->list()->setCurrentRow(0);
    const QString id = m_panel->selectedId();
    const core::MeasuredTrace *t = m_traces->trace(id);
    QVERIFY(t && t->x.size() >= 3);
    QVERIFY(m_panel->useAsSupplyButton()->isEnabled());
    const int steps = m_state->undoStack()->count();
    m_panel->useAsSupplyButton()->click();
    QVERIFY(m_state->params().measured_f);
    QCOMPARE(m_state->supplyTrace(), id);
    QVERIFY(m_panel->useAsSupplyButton()->isChecked());
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    const core::XModel model(m_state->params());
    const std::size_t mid = t->x.size() / 2;
    QVERIFY(std::abs(model.toGbs(model.msSupply(t->x[mid])) - t->y[mid]) < 1e-9 * t->y[mid]);
    m_state->undoStack()->undo();
    QVERIFY(!m_state->params().measured_f);
    QVERIFY(!m_panel->useAsSupplyButton()->isChecked());
    m_state->undoStack()->redo();
    QCOMPARE(m_state->supplyTrace(), id);
    m_panel->useAsSupplyButton()->click(); // again: the analytic f(k)
    QVERIFY(!m_state->params().measured_f);
    QVERIFY(m_state->supplyTrace().isEmpty());
}

void TestTracesPanel::theSupplyTraceIsMarkedInTheList()
{
    // The V100 stream curves: the row of the trace that is f(k) says so (and only that row, only while it is);
    // renaming that row renames the trace, the mark is not part of the name.
    QCOMPARE(m_panel->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")), QString());
    QListWidget *list = m_panel->list();
    QVERIFY(list->count() > 1);
    list->setCurrentRow(1);
    const QString name = QString::fromStdString(m_traces->trace(m_panel->selectedId())->name);
    QCOMPARE(list->item(1)->text(), name);
    m_panel->useAsSupplyButton()->click();
    QCOMPARE(list->item(1)->text(), name + QStringLiteral(" — used as f(k)"));
    QVERIFY(list->item(1)->font().bold());
    QVERIFY(list->item(1)->toolTip().startsWith(QStringLiteral("Used as f(k)")));
    QVERIFY(!list->item(0)->text().contains(QStringLiteral("f(k)")));
    QVERIFY(!list->item(0)->font().bold());
    QCOMPARE(list->model()->index(1, 0).data(Qt::EditRole).toString(), name);
    list->item(1)->setData(Qt::EditRole, QStringLiteral("the supply"));
    QCOMPARE(QString::fromStdString(m_traces->trace(m_panel->selectedId())->name), QStringLiteral("the supply"));
    QCOMPARE(list->item(1)->text(), QStringLiteral("the supply — used as f(k)"));
    m_state->undoStack()->undo(); // the analytic f(k) again
    QCOMPARE(list->item(1)->text(), QStringLiteral("the supply"));
    QVERIFY(!list->item(1)->font().bold());
}

void TestTracesPanel::aFileOfAnotherDeviceWarnsAndOffersItsProfile()
{
    // gpu-benches' H100 PCIe stream curve under the H100 SXM's profile: a fit would use the SXM's clock and 132
    // SMs. The panel says so and offers the PCIe's bundled profile; switching clears the warning.
    m_state->applyProfile(bundled("h100-sxm"));
    QSignalSpy message(m_panel, &TracesPanel::message);
    QCOMPARE(m_panel->importFile(kStreamH100Pcie), QString());
    QCOMPARE(m_traces->traces().size(), std::size_t(6));
    QLabel *warning = m_panel->deviceWarning();
    QVERIFY(warning->isVisible());
    const QString said = QStringLiteral("file: h100_pcie; profile: H100 SXM 80GB (Hopper): named for profile "
                                        "'h100-pcie', not 'h100-sxm'; 114 SMs, not 132");
    QVERIFY2(warning->text().contains(said), qPrintable(warning->text()));
    QVERIFY(message.last().at(0).toString().contains(said)); // the status bar too
    const QList<QPushButton *> offers = m_panel->switchButtons();
    QCOMPARE(offers.size(), 1);
    QVERIFY(offers.front()->isVisible());
    QCOMPARE(offers.front()->text(), QStringLiteral("Switch to H100 PCIe (Hopper)"));
    offers.front()->click();
    QCOMPARE(m_state->profile().id, std::string("h100-pcie"));
    QCOMPARE(m_state->params().sm_count, 114.0);
    QVERIFY(!warning->isVisible());
    QVERIFY(m_panel->switchButtons().isEmpty());
    // Back on the SXM the warning returns; removing the file's traces takes it away.
    m_state->applyProfile(bundled("h100-sxm"));
    QVERIFY(warning->isVisible());
    while (!m_traces->traces().empty())
        m_traces->remove(QString::fromStdString(m_traces->traces().front().id));
    QVERIFY(!warning->isVisible());
    // A file of the profile's own device says nothing.
    m_state->applyProfile(bundled("h100-pcie"));
    QCOMPARE(m_panel->importFile(kStreamH100Pcie), QString());
    QVERIFY(!warning->isVisible());
}

void TestTracesPanel::aKeptProfileIsNotOfferedAgain()
{
    // The switch is offered once per device: kept, the warning stays but the offer does not come back.
    m_state->applyProfile(bundled("h100-sxm"));
    QCOMPARE(m_panel->importFile(kStreamH100Pcie), QString());
    QVERIFY(m_panel->keepProfileButton()->isVisible());
    QCOMPARE(m_panel->keepProfileButton()->text(), QStringLiteral("Keep h100-sxm"));
    m_panel->keepProfileButton()->click();
    QCOMPARE(m_state->profile().id, std::string("h100-sxm"));
    QVERIFY(m_panel->deviceWarning()->isVisible());
    QVERIFY(m_panel->switchButtons().isEmpty());
    QVERIFY(!m_panel->keepProfileButton()->isVisible());
    QCOMPARE(m_panel->importFile(kStreamH100Pcie), QString());
    QVERIFY(m_panel->deviceWarning()->isVisible());
    QVERIFY(m_panel->switchButtons().isEmpty());
    // Another device is offered as before: the V100's stream file (80 SMs; the copy in tests/data, so that
    // the test runs without the shared data beside the checkout) offers the V100.
    QCOMPARE(m_panel->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")), QString());
    QCOMPARE(m_panel->switchButtons().size(), 1);
    QCOMPARE(m_panel->switchButtons().front()->text(), QStringLiteral("Switch to Tesla V100 (Volta)"));
}

QTEST_MAIN(TestTracesPanel)
#include "tst_traces_panel.moc"
