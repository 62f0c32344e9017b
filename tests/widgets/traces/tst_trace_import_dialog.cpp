// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_import_dialog.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

core::CsvTable table(std::string_view text, const std::string &source = "/data/sweep.csv")
{
    return core::parseCsv(text, source);
}

constexpr std::string_view kSweep = "device,warps_per_sm,bandwidth_GBs,run\n"
                                    "v100,2,150,1\nv100,4,300,1\nv100,8,600,1\na100,2,160,1\na100,4,320,1\n";

} // namespace

class TestTraceImportDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void guessesFromColumnNames();
    void previewShowsTheFirstRowsAndMarksColumns();
    void acceptBuildsTracesAndRemembersTheChoice();
    void badChoiceKeepsTheDialogOpen();
    void escapeInAListClosesOnlyTheList();
    void kindsEnableTheirColumns();
};

void TestTraceImportDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("crossroof-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_trace_import_dialog"));
}

void TestTraceImportDialog::init()
{
    QSettings().clear();
}

void TestTraceImportDialog::guessesFromColumnNames()
{
    const TraceMapping m = TraceImportDialog::guessMapping(table(kSweep).header());
    QCOMPARE(m.kind, core::TraceKind::BandwidthVsWarps);
    QCOMPARE(m.x, std::string("warps_per_sm"));
    QCOMPARE(m.y, std::string("bandwidth_GBs"));

    const TraceMapping runs = TraceImportDialog::guessMapping(table("B_r,threads,time_s\n15,1,2\n").header());
    QCOMPARE(runs.kind, core::TraceKind::Runtimes);
    QCOMPARE(runs.x, std::string("B_r"));
    QCOMPARE(runs.y, std::string("time_s"));
    QCOMPARE(runs.extra, std::string("threads"));

    const TraceMapping kernels
            = TraceImportDialog::guessMapping(table("kernel,warps,GB/s,Z\nk,2,3,4\n").header());
    QCOMPARE(kernels.kind, core::TraceKind::KernelPoints);
    QCOMPARE(kernels.extra, std::string("Z"));
    QCOMPARE(kernels.label, std::string("kernel"));

    // The H100's cache-thrashing sweep: bytes per warp is the footprint, not traffic per interval.
    const TraceMapping cache = TraceImportDialog::guessMapping(
            table("warps_per_sm,bytes_per_warp,fma_per_request,Z,ms,request_gbs\n2,1024,4,20,3.8,725\n").header());
    QCOMPARE(cache.kind, core::TraceKind::KernelPoints);
    QCOMPARE(cache.x, std::string("warps_per_sm"));
    QCOMPARE(cache.y, std::string("request_gbs"));
    QCOMPARE(cache.extra, std::string("Z"));

    // perf-like byte counts per interval still read as traffic.
    const TraceMapping traffic = TraceImportDialog::guessMapping(table("time,read_bytes\n1,1000\n").header());
    QCOMPARE(traffic.kind, core::TraceKind::BytesPerInterval);
    QCOMPARE(traffic.y, std::string("read_bytes"));
}

void TestTraceImportDialog::previewShowsTheFirstRowsAndMarksColumns()
{
    std::string many = "warps,gbs\n";
    for (int i = 1; i <= 50; ++i)
        many += std::to_string(i) + "," + std::to_string(10 * i) + "\n";
    TraceImportDialog dialog(table(many));
    QCOMPARE(dialog.preview()->rowCount(), TraceImportDialog::kPreviewRows);
    QCOMPARE(dialog.preview()->columnCount(), 2);
    QCOMPARE(dialog.preview()->item(0, 1)->text(), QStringLiteral("10"));
    QCOMPARE(dialog.preview()->verticalHeaderItem(0)->text(), QStringLiteral("line 2"));
    QCOMPARE(dialog.preview()->horizontalHeaderItem(0)->text(), QStringLiteral("x: warps"));
    QCOMPARE(dialog.preview()->horizontalHeaderItem(1)->text(), QStringLiteral("y: gbs"));
}

void TestTraceImportDialog::acceptBuildsTracesAndRemembersTheChoice()
{
    TraceMapping m;
    m.x = "warps_per_sm";
    m.y = "bandwidth_GBs";
    m.filter_column = "device";
    m.filter_value = "a100";
    {
        TraceImportDialog dialog(table(kSweep));
        dialog.setMapping(m);
        QCOMPARE(dialog.mapping(), m);
        QCOMPARE(dialog.filterValueBox()->count(), 2); // v100, a100
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.error().isEmpty());
        QCOMPARE(dialog.traces().size(), std::size_t(1));
        QCOMPARE(dialog.traces().front().y, (std::vector<double> {160, 320}));
        QCOMPARE(dialog.traces().front().source, std::string("/data/sweep.csv"));
    }
    // A file with the same columns opens with the same choices; one with other columns does not.
    TraceImportDialog again(table(kSweep, "/data/other.csv"));
    QCOMPARE(again.mapping(), m);
    QVERIFY(TraceImportDialog::rememberedMapping(table(kSweep).header()).has_value());
    QVERIFY(!TraceImportDialog::rememberedMapping(table("a,b\n1,2\n").header()).has_value());
    QVERIFY(TraceImportDialog::headerSignature(table(kSweep).header())
            != TraceImportDialog::headerSignature(table("a,b\n1,2\n").header()));
}

void TestTraceImportDialog::badChoiceKeepsTheDialogOpen()
{
    TraceImportDialog dialog(table("warps,gbs,note\n4,100,a\n8,fast,b\n"));
    dialog.show();
    TraceMapping m;
    m.x = "warps";
    m.y = "gbs";
    dialog.setMapping(m);
    dialog.accept();
    QVERIFY(dialog.isVisible());
    QVERIFY(dialog.traces().empty());
    QVERIFY2(dialog.error().startsWith(QStringLiteral("/data/sweep.csv:3:")), qPrintable(dialog.error()));
    QVERIFY(!TraceImportDialog::rememberedMapping(dialog.table().header()));
    // Choosing the right rows fixes it.
    m.filter_column = "note";
    m.filter_value = "a";
    dialog.setMapping(m);
    dialog.accept();
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.traces().size(), std::size_t(1));
}

void TestTraceImportDialog::escapeInAListClosesOnlyTheList()
{
    TraceImportDialog dialog(table(kSweep));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    for (QComboBox *box : {dialog.kindBox(), dialog.yBox()}) {
        box->setFocus();
        box->showPopup();
        QWidget *popup = box->view()->window();
        QTRY_VERIFY(popup->isVisible());
        QTest::keyClick(box->view(), Qt::Key_Escape);
        QTRY_VERIFY(!popup->isVisible());
        QVERIFY2(dialog.isVisible(), "Escape in an open list cancelled the whole dialog");
        QCOMPARE(dialog.result(), 0);
    }
    QTest::keyClick(&dialog, Qt::Key_Escape); // with no list open, Escape cancels
    QTRY_VERIFY(!dialog.isVisible());
}

void TestTraceImportDialog::kindsEnableTheirColumns()
{
    TraceImportDialog dialog(table(kSweep));
    TraceMapping m = TraceImportDialog::guessMapping(dialog.table().header());
    m.extra = "run";
    dialog.setMapping(m);
    QVERIFY(!dialog.extraBox()->isEnabled());
    QVERIFY(dialog.mapping().extra.empty()); // not used by this kind
    m.kind = core::TraceKind::KernelPoints;
    dialog.setMapping(m);
    QVERIFY(dialog.extraBox()->isEnabled());
    QVERIFY(dialog.labelBox()->isEnabled());
    QCOMPARE(dialog.mapping().extra, std::string("run"));
    m.kind = core::TraceKind::BytesPerInterval;
    dialog.setMapping(m);
    QVERIFY(!dialog.labelBox()->isEnabled());
}

QTEST_MAIN(TestTraceImportDialog)
#include "tst_trace_import_dialog.moc"
