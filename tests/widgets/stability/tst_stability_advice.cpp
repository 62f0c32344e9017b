// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/markup_delegate.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "stability/advisor_panel.h"
#include "stability/hysteresis_chart.h"
#include "stability/stability_map_plot.h"
#include "stability/stability_view.h"
#include "support/image_compare.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;
using namespace crossroof::widgets;

/// The stability view's advisor: gains as quantities, advice applied as one undo step, counted from the low state
/// where the machine is bistable, a row that changes nothing, and where the operating point lands on comparing.
class TestStabilityAdvice : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void advisorGainsReadAsQuantities();
    void adviceAppliesAsOneUndoStep();
    void bistableAdviceCountsFromTheLowState();
    void noRowChangesNothing();
    void compareSaysWhereTheOperatingPointLands();
    void severalRemediesComparedAtOnce();
    void theMapAndTheAdvisorShareTheWidth();

private:
    ParameterState *m_state = nullptr;
    StabilityView *m_view = nullptr;
};

void TestStabilityAdvice::init()
{
    m_state = new ParameterState; // the default profile: a GTX 570 with a cache-thrashing workload
    m_view = new StabilityView(m_state);
    m_view->resize(1000, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    m_view->waitForMap();
}

void TestStabilityAdvice::cleanup()
{
    delete m_view;
    delete m_state;
}

void TestStabilityAdvice::advisorGainsReadAsQuantities()
{
    // The H100 SXM's gains run to thousands of Gop/s: they read "+4.04 Top/s", then "(+25 %)" on a line of its
    // own, never "+4.04e+03 Gop/s".
    const auto found = core::findBundledProfile("h100-sxm");
    QVERIFY(found);
    m_state->setProfile(*found, found->params);
    m_view->waitForMap();
    const QRegularExpression quantity(
            QStringLiteral("^[+-]\\d+(\\.\\d+)? [kMGTP]?(op|B)/s(\n\\([+-]\\d+(\\.\\d+)? %\\))?$"));
    QTableWidget *table = m_view->advisorTable();
    QVERIFY(table->rowCount() > 0);
    int tera = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
        for (int column : {int(AdvisorPanel::GainColumn), int(AdvisorPanel::OperatingPointGainColumn),
                           int(AdvisorPanel::MsChangeColumn)}) {
            const QTableWidgetItem *item = table->item(row, column);
            if (!item || table->isColumnHidden(column) || item->text().isEmpty()
                || item->text() == QLatin1String("n/a"))
                continue; // an operation that does not apply here, or a cell with nothing to say
            QVERIFY2(quantity.match(item->text()).hasMatch(), qPrintable(item->text()));
            tera += item->text().contains(QLatin1String("Top/s"));
        }
    }
    QVERIFY(tera > 0);
}

void TestStabilityAdvice::adviceAppliesAsOneUndoStep()
{
    // Demand above the cache peak: only the thrashing state is left, and the paper's operations help.
    m_state->setValue(QStringLiteral("Z"), 4.0);
    m_view->waitForMap();
    QTableWidget *table = m_view->advisorTable();
    QVERIFY(table->rowCount() >= 6);
    // Find a row whose operation changes something.
    int row = -1;
    for (int r = 0; r < table->rowCount() && row < 0; ++r) {
        if (table->item(r, AdvisorPanel::GainColumn)->text() != QStringLiteral("n/a")
            && !table->item(r, AdvisorPanel::GainColumn)->text().startsWith(QLatin1String("+0 ")))
            row = r;
    }
    QVERIFY(row >= 0);
    const auto before = m_state->params();
    const int steps = m_state->undoStack()->count();
    m_view->applyAdvice(row);
    QVERIFY(!(m_state->params() == before));
    QCOMPARE(m_state->undoStack()->count(), steps + 1);
    m_state->undoStack()->undo();
    QVERIFY(m_state->params() == before);
}

void TestStabilityAdvice::bistableAdviceCountsFromTheLowState()
{
    // The flagship sample's workload: bistable, the operating point compute-bound. The table shows what each
    // operation does for the low state (+18 % for thread throttling, which leaves one stable state), and the
    // note above it says that this is where the gains are counted from.
    for (const auto &[key, value] : {std::pair{"L_c", 20.0}, {"alpha", 10.0}, {"beta", 5.0}, {"Z", 11.0}})
        m_state->setValue(QString::fromLatin1(key), value);
    m_state->setValue(QStringLiteral("n"), 48);
    m_view->waitForMap();
    auto *basis = m_view->findChild<QLabel *>(QStringLiteral("AdvisorBasis"));
    QVERIFY(basis);
    QVERIFY2(basis->text().startsWith(QLatin1String("Bistable")), qPrintable(basis->text()));
    QVERIFY(basis->text().contains(QLatin1String("k = 31.1 warps")));
    QTableWidget *table = m_view->advisorTable();
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("1. Thread throttling"));
    // What changes by how much, the gain from the low state and the gain from the operating point, side by side.
    QCOMPARE(table->item(0, AdvisorPanel::ChangeColumn)->text(), QStringLiteral("n 48 → 29 warps"));
    // A symbol with a subscript is drawn with it, as the plots draw it: "S_s 16 → 32 KiB" read as raw text.
    int cacheRow = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->text().endsWith(QLatin1String("Larger cache")))
            cacheRow = r;
    }
    QVERIFY(cacheRow >= 0);
    const QModelIndex cache = table->model()->index(cacheRow, AdvisorPanel::ChangeColumn);
    QCOMPARE(cache.data().toString(), QStringLiteral("S_{s} 16 → 32 KiB"));
    const QString detail = table->item(cacheRow, 0)->toolTip();
    QVERIFY2(detail.contains(QStringLiteral("S<sub>s</sub> 16 → 32 KiB")), qPrintable(detail));
    QAbstractItemDelegate *delegate = table->itemDelegateForIndex(cache);
    QVERIFY(dynamic_cast<MarkupDelegate *>(delegate));
    QStyleOptionViewItem option;
    option.initFrom(table);
    option.font = table->font();
    option.rect = QRect(0, 0, 200, 24);
    const auto drawn = [&](const QModelIndex &index) {
        QImage image(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        delegate->paint(&painter, option, index);
        return image;
    };
    const QImage withSubscript = drawn(cache);
    const int markupWidth = delegate->sizeHint(option, cache).width();
    table->item(cacheRow, AdvisorPanel::ChangeColumn)->setText(QStringLiteral("S_s 16 → 32 KiB"));
    QVERIFY(drawn(cache) != withSubscript);
    // The column is as wide as the text drawn, not as its raw characters ("_{", "}") would be.
    QVERIFY(markupWidth < delegate->sizeHint(option, cache).width());
    QVERIFY2(table->item(0, AdvisorPanel::GainColumn)->text().contains(QLatin1String("(+18 %)")),
             qPrintable(table->item(0, AdvisorPanel::GainColumn)->text()));
    QCOMPARE(table->horizontalHeaderItem(AdvisorPanel::GainColumn)->text(), QStringLiteral("From the\nlow state"));
    QVERIFY(!table->isColumnHidden(AdvisorPanel::OperatingPointGainColumn));
    QCOMPARE(table->item(0, AdvisorPanel::OperatingPointGainColumn)->text(), QStringLiteral("+0 Gop/s\n(+0 %)"));
    QVERIFY(table->item(0, 0)->toolTip().contains(QLatin1String("From the operating point: CS +0 Gop/s")));
    // Five rows tie at +18 %, and the panel says why.
    auto *ties = m_view->findChild<QLabel *>(QStringLiteral("AdvisorTies"));
    QVERIFY(ties && !ties->isHidden());
    QVERIFY2(ties->text().contains(QLatin1String("tie at +")), qPrintable(ties->text()));
    QVERIFY2(ties->text().contains(QLatin1String("each leaves one stable state")), qPrintable(ties->text()));
    QVERIFY(table->item(1, 0)->toolTip().contains(QLatin1String("Ties with ")));

    // With one stable state the gains are the operating point's again.
    m_state->setValue(QStringLiteral("Z"), 4.0);
    m_view->waitForMap();
    QVERIFY2(basis->text().startsWith(QLatin1String("Gains at the operating point")), qPrintable(basis->text()));
    QVERIFY(!table->item(0, 0)->toolTip().contains(QLatin1String("From the low state")));
    QCOMPARE(table->horizontalHeaderItem(AdvisorPanel::GainColumn)->text(), QStringLiteral("CS gain"));
    QVERIFY(table->isColumnHidden(AdvisorPanel::OperatingPointGainColumn));
    QVERIFY(ties->isHidden());
}

void TestStabilityAdvice::noRowChangesNothing()
{
    // Mid-drag n passes the value throttling would pick: the row said "n: 23 -> 23" and was ranked. Now it is
    // no ranked row, and it says why.
    m_state->setValue(QStringLiteral("Z"), 4.0);
    m_view->waitForMap();
    QTableWidget *table = m_view->advisorTable();
    int best = 0;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->text().endsWith(QLatin1String("Thread throttling")))
            best = table->item(r, AdvisorPanel::ChangeColumn)->text().section(QStringLiteral(" → "), 1).section(QLatin1Char(' '), 0, 0).toInt();
    }
    QVERIFY(best > 0);
    m_state->setValue(QStringLiteral("n"), best);
    m_view->waitForMap();
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString change = table->item(r, AdvisorPanel::ChangeColumn)->text();
        if (table->item(r, 0)->text() == QLatin1String("Thread throttling")) {
            QCOMPARE(change, QStringLiteral("none"));
            QCOMPARE(table->item(r, AdvisorPanel::GainColumn)->text(), QStringLiteral("n/a"));
            QVERIFY(table->item(r, 0)->toolTip().contains(QLatin1String("is already the best")));
            continue;
        }
        QVERIFY(!table->item(r, 0)->text().contains(QLatin1String("Thread throttling")));
        // No applicable row has a change whose two values are the same.
        const QStringList parts = change.split(QStringLiteral(" → "));
        if (parts.size() == 2)
            QVERIFY2(parts[0].section(QLatin1Char(' '), 1) != parts[1].section(QLatin1Char(' '), 0, 0), qPrintable(change));
    }
}

void TestStabilityAdvice::compareSaysWhereTheOperatingPointLands()
{
    // The flagship sample: Compare on X-graph puts the what-if on the X-graph and says where its operating point
    // lies, and that the low state is gone.
    for (const auto &[key, value] : {std::pair{"L_c", 20.0}, {"alpha", 10.0}, {"beta", 5.0}, {"Z", 11.0}})
        m_state->setValue(QString::fromLatin1(key), value);
    m_state->setValue(QStringLiteral("n"), 48);
    m_view->waitForMap();
    QSignalSpy shown(m_view, &StabilityView::comparisonShown);
    m_view->compareAdvice(0);
    QVERIFY(m_state->comparison());
    QCOMPARE(m_state->comparison()->n, 29.0);
    QVERIFY(m_state->comparisonLabel().contains(QStringLiteral("n 48 → 29 warps")));
    QCOMPARE(shown.count(), 1);
    auto *note = m_view->findChild<QLabel *>(QStringLiteral("AdvisorComparison"));
    QVERIFY(note && !note->isHidden());
    const core::Equilibrium op = core::XModel(*m_state->comparison()).solve().operatingPoint();
    QVERIFY2(note->text().contains(QStringLiteral("operating point lies at k = %1 warps").arg(formatNumber(op.k, 3))),
             qPrintable(note->text()));
    QVERIFY2(note->text().contains(QLatin1String("the low state at k = 31.1 warps is gone")), qPrintable(note->text()));
    QCOMPARE(shown.at(0).at(0).toString(), note->text());
    // The sliders move on: the same operation is drawn for the new parameters, not the old what-if.
    const double R = m_state->params().R;
    m_state->setValue(QStringLiteral("R"), R * 0.8);
    m_view->waitForMap();
    QVERIFY(m_state->comparison());
    QCOMPARE(m_state->comparison()->R, R * 0.8);
    QVERIFY2(m_state->comparisonLabel().startsWith(QStringLiteral("Thread throttling")),
             qPrintable(m_state->comparisonLabel()));
    const core::Equilibrium moved = core::XModel(*m_state->comparison()).solve().operatingPoint();
    QVERIFY2(note->text().contains(QStringLiteral("operating point lies at k = %1 warps").arg(formatNumber(moved.k, 3))),
             qPrintable(note->text()));
    QCOMPARE(shown.count(), 2);
    m_view->compareAdvice(-1);
    QVERIFY(!m_state->comparison());
    QVERIFY(note->isHidden());
    // A what-if of someone else's (a session's, say) is left alone when the advice is computed again.
    core::XModelParams other = m_state->params();
    other.n = 20;
    m_state->setComparison(other, QStringLiteral("n: 48 -> 20"));
    m_state->setValue(QStringLiteral("R"), R);
    m_view->waitForMap();
    QVERIFY(m_state->comparison() && *m_state->comparison() == other);
    QCOMPARE(shown.count(), 2);
}

void TestStabilityAdvice::severalRemediesComparedAtOnce()
{
    // Two rows selected, one Compare: both on the X-graph, each named; a third row compared later joins them;
    // Clear takes the advisor's off and leaves another's.
    for (const auto &[key, value] : {std::pair{"L_c", 20.0}, {"alpha", 10.0}, {"beta", 5.0}, {"Z", 11.0}})
        m_state->setValue(QString::fromLatin1(key), value);
    m_state->setValue(QStringLiteral("n"), 48);
    m_view->waitForMap();
    auto *advisor = m_view->findChild<AdvisorPanel *>();
    QTableWidget *table = advisor->table();
    QVERIFY(table->selectionMode() == QAbstractItemView::ExtendedSelection);
    QVERIFY(table->rowCount() >= 3);
    table->clearSelection();
    table->selectionModel()->select(table->model()->index(0, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    table->selectionModel()->select(table->model()->index(1, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    auto *compare = m_view->findChild<QPushButton *>(QStringLiteral("AdvisorCompare"));
    QTest::mouseClick(compare, Qt::LeftButton);
    QCOMPARE(m_state->comparisons().size(), std::size_t(2));
    const QString first = table->item(0, AdvisorPanel::OperationColumn)->text();
    const QString second = table->item(1, AdvisorPanel::OperationColumn)->text();
    // Each named by its row's operation.
    QVERIFY2(first.contains(m_state->comparisons()[0].label.section(QLatin1Char(','), 0, 0)), qPrintable(first));
    QVERIFY2(second.contains(m_state->comparisons()[1].label.section(QLatin1Char(','), 0, 0)), qPrintable(second));
    QVERIFY(m_state->comparisons()[0].label != m_state->comparisons()[1].label);
    auto *note = m_view->findChild<QLabel *>(QStringLiteral("AdvisorComparison"));
    QCOMPARE(note->text().count(QStringLiteral("operating point lies at")), 2);
    advisor->compareAdvice(2);
    QCOMPARE(m_state->comparisons().size(), std::size_t(3));
    // Compared again: still three, not four.
    advisor->compareAdvice(0);
    QCOMPARE(m_state->comparisons().size(), std::size_t(3));
    // The parameters move on: all three drawn for them.
    const auto before = m_state->comparisons();
    m_state->setValue(QStringLiteral("R"), m_state->params().R * 0.8);
    m_view->waitForMap();
    QCOMPARE(m_state->comparisons().size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY(m_state->comparisons()[i].label.startsWith(before[i].label.section(QLatin1Char(','), 0, 0)));
        QVERIFY(!(m_state->comparisons()[i].params == before[i].params));
    }
    core::XModelParams other = m_state->params();
    other.n = 20;
    m_state->addComparison(other, QStringLiteral("n: 48 -> 20"));
    advisor->compareAdvice(-1);
    QCOMPARE(m_state->comparisons().size(), std::size_t(1));
    QCOMPARE(m_state->comparisonLabel(), QStringLiteral("n: 48 -> 20"));
}

void TestStabilityAdvice::theMapAndTheAdvisorShareTheWidth()
{
    // The view as a 1600x1000 window gives it (about 1010 x 900 beside the docks), the flagship's bistable
    // workload: the map's column takes about half the width (it had a third, the map a 150-pixel strip) and the
    // advisor's table still shows every column whole, with no scroll bar.
    for (const auto &[key, value] : {std::pair{"L_c", 20.0}, {"alpha", 10.0}, {"beta", 5.0}, {"Z", 11.0}})
        m_state->setValue(QString::fromLatin1(key), value);
    m_state->setValue(QStringLiteral("n"), 48);
    m_view->resize(1010, 900);
    m_view->waitForMap();
    QTRY_COMPARE(m_view->width(), 1010);
    QCoreApplication::processEvents();
    QTableWidget *table = m_view->advisorTable();
    QVERIFY(table->rowCount() >= 5);
    const int map = m_view->mapPlot()->parentWidget()->width();
    QVERIFY2(map >= 0.4 * m_view->width(), qPrintable(QString::number(map)));
    QVERIFY(!table->horizontalScrollBar()->isVisible());
}

QTEST_MAIN(TestStabilityAdvice)
#include "tst_stability_advice.moc"
