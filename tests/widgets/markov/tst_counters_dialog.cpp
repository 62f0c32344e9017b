// SPDX-License-Identifier: GPL-3.0-or-later
#include "counters_dialog_fixtures.h"

using namespace crossroof;
using namespace crossroof::widgets;
using namespace crossroof::counters_dialog_test;

class TestCountersDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaultsReproduceTheThesisTables();
    void editingACellRecomputes();
    void negativePecIsRejected();
    void invalidInputShowsTheCoreMessage();
    void textThatIsNoNumberIsRefused();
    void measuredCpiPicksTheNearestPair();
    void topologyChangesThePredictions();
    void choosingAPair();
    void addAndRemoveRows();
    void inputsRoundTrip();
    void eventsModelOfEachKind();
};

void TestCountersDialog::defaultsReproduceTheThesisTables()
{
    CountersDialog dialog;
    QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
    QCOMPARE(dialog.instructionsEdit()->text(), QStringLiteral("50"));
    QVERIFY(dialog.measuredCpiEdit()->text().isEmpty());

    // Table 4.4: PEC 0.2, -0.04 (rejected), 0.3; p = 0.5.
    const QTableView *s = dialog.suspendTable();
    QCOMPARE(s->model()->rowCount(), 3);
    QCOMPARE(cell(s, 0, CountersDialog::SuspendName), QStringLiteral("A"));
    QCOMPARE(cell(s, 1, CountersDialog::SuspendMulti), QStringLiteral("15"));
    QCOMPARE(cell(s, 1, CountersDialog::SuspendSingle), QStringLiteral("17"));
    QCOMPARE(cell(s, 0, CountersDialog::SuspendPec), QStringLiteral("0.2"));
    QCOMPARE(cell(s, 1, CountersDialog::SuspendPec), QStringLiteral("-0.04"));
    QCOMPARE(cell(s, 2, CountersDialog::SuspendPec), QStringLiteral("0.3"));
    QCOMPARE(cell(s, 0, CountersDialog::SuspendComment), QStringLiteral("Lowest PEC"));
    QCOMPARE(cell(s, 1, CountersDialog::SuspendComment), QStringLiteral("Reject (PEC < 0)"));
    QCOMPARE(cell(s, 2, CountersDialog::SuspendComment), QStringLiteral("Highest PEC"));
    QVERIFY(dialog.pEstimate());
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.5) < 1e-15);
    QVERIFY(std::abs(dialog.pEstimate()->vector.lowest - 0.2) < 1e-15);
    QVERIFY(std::abs(dialog.pEstimate()->vector.highest - 0.3) < 1e-15);

    // Table 4.5: stall cycles 30, 10, 150, 50; M = 7.25, q = 0.862; lowest Y, highest Z.
    const QTableView *t = dialog.stallTable();
    QCOMPARE(t->model()->rowCount(), 4);
    const QString cycles[]
            = {QStringLiteral("30"), QStringLiteral("10"), QStringLiteral("150"), QStringLiteral("50")};
    for (int r = 0; r < 4; ++r)
        QCOMPARE(cell(t, r, CountersDialog::StallCycles), cycles[r]);
    QCOMPARE(cell(t, 0, CountersDialog::StallQ), QStringLiteral("0.6667"));
    QCOMPARE(cell(t, 2, CountersDialog::StallQ), QStringLiteral("0.9"));
    QCOMPARE(cell(t, 1, CountersDialog::StallComment), QStringLiteral("Lowest PEC"));
    QCOMPARE(cell(t, 2, CountersDialog::StallComment), QStringLiteral("Highest PEC"));
    QVERIFY(cell(t, 0, CountersDialog::StallComment).isEmpty());
    QVERIFY(dialog.qEstimate());
    QCOMPARE(dialog.qEstimate()->mean_latency, 7.25);
    QVERIFY(std::abs(dialog.qEstimate()->vector.all - 0.862) < 5e-4);

    const QString summary = dialog.summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("p = 0.5</b>")), qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("(0.2, 0.3, 0.5)")));
    QVERIFY(summary.contains(QStringLiteral("rejected (PEC &lt; 0): B")));
    QVERIFY(summary.contains(QStringLiteral("M = 7.25 cycles")));
    QVERIFY(summary.contains(QStringLiteral("(0.8, 0.9, 0.8621)")));

    // 4.3.3: (0.2, 0.8), (0.2, 0.9), (0.2, 0.862), ... with the CPI for 4 x 2 threads (Clovertown).
    QCOMPARE(dialog.pairs().size(), std::size_t(9));
    QCOMPARE(dialog.pairCpi().size(), std::size_t(9));
    const QTableWidget *pairs = dialog.pairsTable();
    QCOMPARE(pairs->verticalHeaderItem(0)->text(), QStringLiteral("a"));
    QCOMPARE(cell(pairs, 0, CountersDialog::PairP), QStringLiteral("0.2"));
    QCOMPARE(cell(pairs, 0, CountersDialog::PairQ), QStringLiteral("0.8"));
    QCOMPARE(cell(pairs, 1, CountersDialog::PairQ), QStringLiteral("0.9"));
    QCOMPARE(cell(pairs, 2, CountersDialog::PairQ), QStringLiteral("0.8621"));
    QCOMPARE(cell(pairs, 3, CountersDialog::PairPKind), QStringLiteral("highest PEC"));
    QCOMPARE(cell(pairs, 5, CountersDialog::PairQKind), QStringLiteral("all events"));
    QCOMPARE(cell(pairs, 8, CountersDialog::PairP), QStringLiteral("0.5"));
    for (std::size_t i = 0; i < 9; ++i) {
        const double expected = steadyCpi({2, 2, 2, 2}, dialog.pairs()[i].p, dialog.pairs()[i].q);
        QCOMPARE(dialog.pairCpi()[i], expected);
        QCOMPARE(cell(pairs, int(i), CountersDialog::PairCpi), QString::number(expected, 'g', 4));
        QVERIFY(cell(pairs, int(i), CountersDialog::PairError).isEmpty());
    }
    QVERIFY(!dialog.nearest());
    verifyNoNan(dialog);
}

void TestCountersDialog::editingACellRecomputes()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    Results results(&dialog);
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });

    // B: 30 in the multi-threaded run, 17 in the single one: PEC 0.26, accepted; p = (10 + 13 + 15) / 50.
    editCell(dialog.suspendTable(), 1, CountersDialog::SuspendMulti, QStringLiteral("30"));
    QCOMPARE(dialog.inputs().suspend[1].multi, 30.0);
    QCOMPARE(edits, 1);
    QCOMPARE(results.count, 1);
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.76) < 1e-15);
    QCOMPARE(cell(dialog.suspendTable(), 1, CountersDialog::SuspendPec), QStringLiteral("0.26"));
    QCOMPARE(cell(dialog.suspendTable(), 1, CountersDialog::SuspendComment), QString());
    QCOMPARE(results.pairs.size(), std::size_t(9));
    QVERIFY(std::abs(results.pairs[8].p - 0.76) < 1e-15);

    // W's latency 20 cycles: 500 stall cycles, the most; q and M follow the core.
    editCell(dialog.stallTable(), 3, CountersDialog::StallLatency, QStringLiteral("20"));
    QCOMPARE(dialog.inputs().stall[3].latency, 20.0);
    const core::QEstimate q = core::estimateQ(dialog.inputs().stall);
    QCOMPARE(dialog.qEstimate()->mean_latency, q.mean_latency);
    QCOMPARE(dialog.qEstimate()->vector.highest_event, std::optional<std::size_t>(3));
    QCOMPARE(cell(dialog.stallTable(), 3, CountersDialog::StallCycles), QStringLiteral("500"));
    QCOMPARE(cell(dialog.stallTable(), 3, CountersDialog::StallComment), QStringLiteral("Highest PEC"));
    QCOMPARE(cell(dialog.stallTable(), 2, CountersDialog::StallComment), QString());
    QCOMPARE(results.pairs[2].q, q.vector.all);
    QCOMPARE(edits, 2);

    // The instructions field recomputes on every keystroke.
    typeInto(dialog.instructionsEdit(), QStringLiteral("100"));
    QCOMPARE(dialog.inputs().instructions, 100.0);
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.38) < 1e-15);
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("p = 0.38</b>")));

    // A name is an input too.
    editCell(dialog.suspendTable(), 0, CountersDialog::SuspendName, QStringLiteral("L2 misses"));
    QCOMPARE(dialog.inputs().suspend[0].name, std::string("L2 misses"));
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("lowest L2 misses")));
}

void TestCountersDialog::negativePecIsRejected()
{
    CountersDialog dialog;
    QTableView *s = dialog.suspendTable();
    // A: fewer in the multi-threaded run (5 against 10): rejected as well; only C remains.
    setCell(s, 0, CountersDialog::SuspendMulti, QStringLiteral("5"));
    QCOMPARE(dialog.pEstimate()->rejected, (std::vector<bool> {true, true, false}));
    QCOMPARE(cell(s, 0, CountersDialog::SuspendPec), QStringLiteral("-0.1"));
    QCOMPARE(cell(s, 0, CountersDialog::SuspendComment), QStringLiteral("Reject (PEC < 0)"));
    QVERIFY(cellData(s, 0, CountersDialog::SuspendPec, Qt::FontRole).value<QFont>().strikeOut());
    QVERIFY(!cellData(s, 2, CountersDialog::SuspendPec, Qt::FontRole).value<QFont>().strikeOut());
    QCOMPARE(cellData(s, 0, CountersDialog::SuspendName, Qt::ForegroundRole).value<QBrush>().color(),
             s->palette().color(QPalette::Disabled, QPalette::Text));
    QVERIFY(!cellData(s, 2, CountersDialog::SuspendName, Qt::ForegroundRole).isValid());
    QCOMPARE(cell(s, 2, CountersDialog::SuspendComment), QStringLiteral("Lowest and highest PEC"));
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.3) < 1e-15);
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("rejected (PEC &lt; 0): A, B")));

    // Accepted again: the marks go.
    setCell(s, 0, CountersDialog::SuspendMulti, QStringLiteral("20"));
    QCOMPARE(cell(s, 0, CountersDialog::SuspendComment), QStringLiteral("Lowest PEC"));
    QVERIFY(!cellData(s, 0, CountersDialog::SuspendPec, Qt::FontRole).value<QFont>().strikeOut());
    QVERIFY(!cellData(s, 0, CountersDialog::SuspendName, Qt::ForegroundRole).isValid());
}

void TestCountersDialog::invalidInputShowsTheCoreMessage()
{
    CountersDialog dialog;
    Results results(&dialog);
    // A latency below one cycle: the core's message, no q, no pairs; p is still shown.
    setCell(dialog.stallTable(), 0, CountersDialog::StallLatency, QStringLiteral("0.5"));
    QVERIFY2(dialog.error().contains(
                     QStringLiteral("event 'X': latency must be a finite number of cycles >= 1 (got 0.5)")),
             qPrintable(dialog.error()));
    QCOMPARE(dialog.messageLabel()->text(), dialog.error());
    QVERIFY(!dialog.qEstimate());
    QVERIFY(dialog.pEstimate());
    QVERIFY(dialog.pairs().empty());
    QCOMPARE(results.count, 1);
    QVERIFY(results.pairs.empty());
    QVERIFY(cell(dialog.stallTable(), 0, CountersDialog::StallQ).isEmpty());
    QVERIFY(cell(dialog.pairsTable(), 0, CountersDialog::PairP).isEmpty());
    QCOMPARE(cell(dialog.pairsTable(), 0, CountersDialog::PairPKind), QStringLiteral("lowest PEC"));
    QCOMPARE(cell(dialog.suspendTable(), 0, CountersDialog::SuspendPec), QStringLiteral("0.2"));
    QVERIFY(!dialog.selectButton()->isEnabled());
    verifyNoNan(dialog);

    // p over 1: the core says so.
    setCell(dialog.stallTable(), 0, CountersDialog::StallLatency, QStringLiteral("3"));
    QVERIFY(dialog.error().isEmpty());
    QVERIFY(dialog.messageLabel()->text().isEmpty());
    setCell(dialog.suspendTable(), 2, CountersDialog::SuspendMulti, QStringLiteral("100"));
    QVERIFY2(dialog.error().contains(QStringLiteral("p = 1.9 exceeds 1")), qPrintable(dialog.error()));
    QVERIFY(cell(dialog.suspendTable(), 0, CountersDialog::SuspendPec).isEmpty());
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("not computed")));

    // Negative counts and zero instructions too.
    setCell(dialog.suspendTable(), 2, CountersDialog::SuspendMulti, QStringLiteral("-3"));
    QVERIFY(dialog.error().contains(
            QStringLiteral("event 'C': multi-threaded count must be a finite number >= 0")));
    setCell(dialog.suspendTable(), 2, CountersDialog::SuspendMulti, QStringLiteral("30"));
    dialog.instructionsEdit()->setText(QStringLiteral("0"));
    QVERIFY(dialog.error().contains(
            QStringLiteral("instructions retired must be a finite number > 0 (got 0)")));

    // A measured CPI below 1: the pairs stay, without a nearest one.
    dialog.instructionsEdit()->setText(QStringLiteral("50"));
    dialog.measuredCpiEdit()->setText(QStringLiteral("0.9"));
    QVERIFY2(dialog.error().contains(QStringLiteral("measured CPI 0.9 is below 1, which the Markov model cannot "
                                                    "reach")),
             qPrintable(dialog.error()));
    QCOMPARE(dialog.pairs().size(), std::size_t(9));
    QVERIFY(!dialog.nearest());
    QVERIFY(!results.nearest && !results.measured);
    QCOMPARE(results.pairs.size(), std::size_t(9));
    verifyNoNan(dialog);
}

void TestCountersDialog::textThatIsNoNumberIsRefused()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    Results results(&dialog);
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });

    // A cell keeps its number.
    editCell(dialog.suspendTable(), 0, CountersDialog::SuspendSingle, QStringLiteral("ten"));
    QCOMPARE(cell(dialog.suspendTable(), 0, CountersDialog::SuspendSingle), QStringLiteral("10"));
    QCOMPARE(dialog.inputs().suspend[0].single, 10.0);
    QVERIFY2(dialog.messageLabel()->text().contains(QStringLiteral("'ten' is not a number")),
             qPrintable(dialog.messageLabel()->text()));
    QCOMPARE(edits, 0);
    QCOMPARE(results.count, 0);
    editCell(dialog.stallTable(), 0, CountersDialog::StallCount, QStringLiteral("nan"));
    QCOMPARE(cell(dialog.stallTable(), 0, CountersDialog::StallCount), QStringLiteral("10"));

    // A field says so while it is being typed, and shows the value in use when it is left.
    typeInto(dialog.instructionsEdit(), QStringLiteral("500x"));
    QCOMPARE(dialog.error(), QStringLiteral("Instructions retired: '500x' is not a number"));
    QVERIFY(dialog.pairs().empty());
    QVERIFY(results.pairs.empty());
    QCOMPARE(dialog.inputs().instructions, 500.0); // the last number on the way
    QTest::keyClick(dialog.instructionsEdit(), Qt::Key_Return);
    QCOMPARE(dialog.instructionsEdit()->text(), QStringLiteral("500"));
    QVERIFY(dialog.error().isEmpty());
    QCOMPARE(dialog.pairs().size(), std::size_t(9));
    QCOMPARE(results.pairs.size(), std::size_t(9));
    QCOMPARE(edits, 3); // 5, 50, 500
    typeInto(dialog.instructionsEdit(), QString());
    QCOMPARE(dialog.error(), QStringLiteral("Instructions retired: enter a number"));
}

void TestCountersDialog::measuredCpiPicksTheNearestPair()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    Results results(&dialog);
    const std::vector<int> clovertown {2, 2, 2, 2};

    typeInto(dialog.measuredCpiEdit(), QStringLiteral("1.05"));
    QCOMPARE(dialog.inputs().measured_cpi, std::optional<double>(1.05));
    const core::NearestPair expected = core::nearestStartingPair(dialog.pairs(), clovertown, 1.05);
    QCOMPARE(dialog.nearest(), std::optional<std::size_t>(expected.index));
    QCOMPARE(dialog.pairCpi(), expected.cpi);
    QCOMPARE(results.nearest, std::optional<std::size_t>(expected.index));
    QCOMPARE(results.measured, std::optional<double>(1.05));
    QCOMPARE(results.pairs.size(), std::size_t(9));
    const int row = int(expected.index);
    QVERIFY(dialog.pairsTable()->item(row, CountersDialog::PairP)->font().bold());
    QVERIFY(!dialog.pairsTable()->item((row + 1) % 9, CountersDialog::PairP)->font().bold());
    QCOMPARE(dialog.pairsTable()->currentRow(), row);
    QCOMPARE(cell(dialog.pairsTable(), row, CountersDialog::PairError),
             QString::number(expected.error, 'g', 4));
    QVERIFY(dialog.selectButton()->isEnabled());

    // A measured CPI equal to a pair's prediction picks that pair.
    for (std::size_t k : {std::size_t(0), std::size_t(4), std::size_t(8)}) {
        const double cpi = expected.cpi[k];
        dialog.measuredCpiEdit()->setText(QString::number(cpi, 'g', 17));
        QCOMPARE(dialog.nearest(), std::optional<std::size_t>(k));
        QCOMPARE(results.nearest, std::optional<std::size_t>(k));
        QVERIFY(dialog.pairsTable()->item(int(k), CountersDialog::PairCpi)->font().bold());
    }

    // Cleared: no nearest pair, none in the signal.
    typeInto(dialog.measuredCpiEdit(), QString());
    QVERIFY(!dialog.inputs().measured_cpi);
    QVERIFY(!dialog.nearest());
    QVERIFY(!results.nearest && !results.measured);
    QVERIFY(dialog.error().isEmpty());
}

void TestCountersDialog::topologyChangesThePredictions()
{
    CountersDialog dialog;
    QCOMPARE(dialog.topology(), (std::vector<int> {2, 2, 2, 2}));
    dialog.measuredCpiEdit()->setText(QStringLiteral("1.2"));
    Results results(&dialog);
    const std::vector<int> mixed {1, 3, 2};
    dialog.setTopology(mixed);
    QCOMPARE(results.count, 1);
    const core::NearestPair expected = core::nearestStartingPair(dialog.pairs(), mixed, 1.2);
    QCOMPARE(dialog.pairCpi(), expected.cpi);
    QCOMPARE(dialog.nearest(), std::optional<std::size_t>(expected.index));
    QVERIFY(dialog.pairCpi()[0] != steadyCpi({2, 2, 2, 2}, dialog.pairs()[0].p, dialog.pairs()[0].q));
    bool named = false;
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        named = named || label->text().contains(QStringLiteral("cache groups of 1, 3, 2 threads"));
    QVERIFY(named);
    dialog.setTopology(mixed); // no change, no recompute
    QCOMPARE(results.count, 1);

    // An invalid topology gives the core's message.
    dialog.setTopology({0});
    QVERIFY2(dialog.error().contains(QStringLiteral("group 1: threads must be between 1 and")),
             qPrintable(dialog.error()));
    QVERIFY(results.pairs.empty());
    verifyNoNan(dialog);
}

void TestCountersDialog::choosingAPair()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QList<QPair<double, double>> chosen;
    connect(&dialog, &CountersDialog::pairChosen, this, [&chosen](double p, double q) {
        chosen.append({p, q});
    });

    QTableWidget *table = dialog.pairsTable();
    const QRect rect = table->visualItemRect(table->item(5, CountersDialog::PairQ));
    // What a platform sends: press, release, press, double click, release.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mousePress(table->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseRelease(table->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.front().first, dialog.pairs()[5].p);
    QCOMPARE(chosen.front().second, dialog.pairs()[5].q);

    table->setCurrentCell(7, 0);
    QVERIFY(dialog.selectButton()->isEnabled());
    dialog.selectButton()->click();
    QCOMPARE(chosen.size(), 2);
    QCOMPARE(chosen.back().first, dialog.pairs()[7].p);
    QCOMPARE(chosen.back().second, dialog.pairs()[7].q);
}

void TestCountersDialog::addAndRemoveRows()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });

    // A new stall event has no stall cycles until it gets a count; its name is being edited.
    dialog.addStallButton()->click();
    QCOMPARE(edits, 1);
    QCOMPARE(dialog.stallTable()->model()->rowCount(), 5);
    QCOMPARE(dialog.inputs().stall.back().latency, 1.0);
    QCOMPARE(cell(dialog.stallTable(), 4, CountersDialog::StallComment), QStringLiteral("No stall cycles"));
    QCOMPARE(dialog.qEstimate()->mean_latency, 7.25);
    auto *editor = qobject_cast<QLineEdit *>(QApplication::focusWidget());
    QVERIFY(editor);
    QTest::keyClicks(editor, QStringLiteral("V"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();
    QCOMPARE(dialog.inputs().stall.back().name, std::string("V"));
    editCell(dialog.stallTable(), 4, CountersDialog::StallCount, QStringLiteral("5"));
    editCell(dialog.stallTable(), 4, CountersDialog::StallLatency, QStringLiteral("100"));
    QCOMPARE(dialog.qEstimate()->vector.highest_event, std::optional<std::size_t>(4));

    // Removing selected rows (two at once).
    QTableView *t = dialog.stallTable();
    t->clearSelection();
    t->selectionModel()->setCurrentIndex(t->model()->index(0, 0), QItemSelectionModel::Select);
    t->selectionModel()->setCurrentIndex(t->model()->index(4, 0), QItemSelectionModel::Select);
    dialog.removeStallButton()->click();
    QCOMPARE(dialog.inputs().stall.size(), std::size_t(3));
    QCOMPARE(dialog.inputs().stall[0].name, std::string("Y"));
    QCOMPARE(dialog.inputs().stall[2].name, std::string("W"));
    QCOMPARE(t->model()->rowCount(), 3);
    QCOMPARE(cell(t, 0, CountersDialog::StallName), QStringLiteral("Y"));
    QCOMPARE(dialog.qEstimate()->mean_latency, core::estimateQ(dialog.inputs().stall).mean_latency);

    // Every suspend event gone: p = 0, the pairs are still there.
    dialog.addSuspendButton()->click();
    QCOMPARE(dialog.inputs().suspend.size(), std::size_t(4));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QTableView *s = dialog.suspendTable();
    s->selectAll();
    dialog.removeSuspendButton()->click();
    QVERIFY(dialog.inputs().suspend.empty());
    QVERIFY(!dialog.removeSuspendButton()->isEnabled());
    QCOMPARE(dialog.pEstimate()->vector.all, 0.0);
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("lowest none")));
    QCOMPARE(dialog.pairs().size(), std::size_t(9));
    verifyNoNan(dialog);
}

void TestCountersDialog::inputsRoundTrip()
{
    CountersDialog dialog;
    Results results(&dialog);
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });

    CounterInputs in;
    in.instructions = 1.2345678901234e12;
    in.suspend = {{"MEM_LOAD_RETIRED.L2_MISS", 3.3333333333333335e9, 1e9}, {"", 0.1, 0.3}};
    in.stall = {{"l2 miss", 12345, 17.5}, {"RESOURCE_STALLS.ANY", 0, 1}};
    in.measured_cpi = 1.0000001;
    dialog.setInputs(in);
    QCOMPARE(edits, 0); // restoring is no edit
    QCOMPARE(results.count, 1);

    const CounterInputs out = dialog.inputs();
    QCOMPARE(out.instructions, in.instructions);
    QCOMPARE(out.measured_cpi, in.measured_cpi);
    QCOMPARE(out.suspend.size(), in.suspend.size());
    for (std::size_t i = 0; i < in.suspend.size(); ++i) {
        QCOMPARE(out.suspend[i].name, in.suspend[i].name);
        QCOMPARE(out.suspend[i].multi, in.suspend[i].multi);
        QCOMPARE(out.suspend[i].single, in.suspend[i].single);
    }
    QCOMPARE(out.stall.size(), in.stall.size());
    for (std::size_t i = 0; i < in.stall.size(); ++i) {
        QCOMPARE(out.stall[i].name, in.stall[i].name);
        QCOMPARE(out.stall[i].count, in.stall[i].count);
        QCOMPARE(out.stall[i].latency, in.stall[i].latency);
    }
    // The cells show the exact values, so editing one leaves the others as they were.
    QCOMPARE(cell(dialog.suspendTable(), 0, CountersDialog::SuspendMulti),
             QStringLiteral("3333333333.3333335"));
    QCOMPARE(dialog.instructionsEdit()->text(), QStringLiteral("1234567890123.4"));
    setCell(dialog.stallTable(), 0, CountersDialog::StallCount, QStringLiteral("12346"));
    QCOMPARE(dialog.inputs().suspend[0].multi, in.suspend[0].multi);
    QCOMPARE(dialog.inputs().instructions, in.instructions);
    QCOMPARE(dialog.inputs().stall[0].count, 12346.0);
    // The unnamed event is called as the core calls it.
    QVERIFY(dialog.pEstimate()->rejected[1]);
    QVERIFY(dialog.summaryLabel()->text().contains(QStringLiteral("rejected (PEC &lt; 0): event 2")));

    in.measured_cpi.reset();
    dialog.setInputs(in);
    QVERIFY(!dialog.inputs().measured_cpi);
    QVERIFY(dialog.measuredCpiEdit()->text().isEmpty());
    QCOMPARE(edits, 1);

    // The thesis example as the default.
    dialog.setInputs(CounterInputs::thesisExample());
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.5) < 1e-15);
    QCOMPARE(dialog.qEstimate()->mean_latency, 7.25);
}

void TestCountersDialog::eventsModelOfEachKind()
{
    // One model class for both tables: the kind decides the columns and the new events' defaults.
    CounterEventsModel suspend(CounterEventsModel::Suspend);
    CounterEventsModel stall(CounterEventsModel::Stall);
    QCOMPARE(suspend.columnCount(), 5);
    QCOMPARE(stall.columnCount(), 6);
    QCOMPARE(stall.headerData(CountersDialog::StallLatency, Qt::Horizontal).toString(),
             QStringLiteral("Latency m_i"));
    stall.setStallEvents({{"X", 10, 3}, {"Y", 5, 2}});
    QCOMPARE(stall.rowCount(), 2);
    QVERIFY(stall.flags(stall.index(0, CountersDialog::StallName)) & Qt::ItemIsEditable);
    QVERIFY(!(stall.flags(stall.index(0, CountersDialog::StallQ)) & Qt::ItemIsEditable));

    // A count that is no number is refused, the value kept; a number is taken.
    int edits = 0;
    QStringList refusals;
    connect(&stall, &CounterEventsModel::edited, this, [&edits] { ++edits; });
    connect(&stall, &CounterEventsModel::refused, this, [&refusals](const QString &m) { refusals << m; });
    QVERIFY(!stall.setData(stall.index(0, CountersDialog::StallCount), QStringLiteral("abc")));
    QCOMPARE(refusals,
             QStringList {QStringLiteral("Stall events, row 1: 'abc' is not a number; the cell keeps 10.")});
    QCOMPARE(stall.stallEvents()[0].count, 10.0);
    QCOMPARE(edits, 0);
    QVERIFY(stall.setData(stall.index(0, CountersDialog::StallCount), QStringLiteral("12")));
    QCOMPARE(stall.stallEvents()[0].count, 12.0);
    QCOMPARE(edits, 1);
    QVERIFY(!stall.setData(stall.index(0, CountersDialog::StallQ), QStringLiteral("0.5"))); // a result

    // The results of an estimate, then a new event with the core's defaults (a latency of one cycle).
    stall.showStallResults(core::estimateQ(stall.stallEvents()));
    QCOMPARE(stall.index(0, CountersDialog::StallCycles).data().toString(), QStringLiteral("36"));
    QVERIFY(stall.insertRows(2, 1));
    QCOMPARE(stall.stallEvents()[2], core::StallEvent {});
    QVERIFY(stall.index(2, CountersDialog::StallCycles).data().toString().isEmpty());
    QVERIFY(stall.removeRows(0, 2));
    QCOMPARE(stall.rowCount(), 1);
    QVERIFY(suspend.insertRows(0, 1));
    QCOMPARE(suspend.suspendEvents(), std::vector<core::SuspendEvent>(1));
}

QTEST_MAIN(TestCountersDialog)
#include "tst_counters_dialog.moc"
