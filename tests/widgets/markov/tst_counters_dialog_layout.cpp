// SPDX-License-Identifier: GPL-3.0-or-later
#include "counters_dialog_fixtures.h"

using namespace crossroof;
using namespace crossroof::widgets;
using namespace crossroof::counters_dialog_test;

/// The counters dialog at the keyboard and on screen: every control reached in order, nothing overlapping.
class TestCountersDialogLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keyboardAccess();
    void nothingOverlapsAtTheDefaultSize_data();
    void nothingOverlapsAtTheDefaultSize();
};

void TestCountersDialogLayout::keyboardAccess()
{
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));

    // Mnemonics: unique, and every labelled field reachable by one.
    std::set<QChar> keys;
    const QRegularExpression mnemonic(QStringLiteral("&([^&])"));
    int labels = 0;
    for (const QWidget *w : dialog.findChildren<QWidget *>()) {
        QString text;
        if (const auto *label = qobject_cast<const QLabel *>(w)) {
            text = label->text();
            if (label->textFormat() == Qt::RichText || !mnemonic.match(text).hasMatch())
                continue;
            QVERIFY2(label->buddy(), qPrintable(text));
            ++labels;
        } else if (const auto *button = qobject_cast<const QAbstractButton *>(w)) {
            text = button->text();
        }
        const auto m = mnemonic.match(text);
        if (!m.hasMatch())
            continue;
        const QChar key = m.captured(1).at(0).toLower();
        QVERIFY2(keys.insert(key).second, qPrintable(QStringLiteral("mnemonic %1 twice").arg(key)));
    }
    QCOMPARE(labels, 6); // instructions, measured CPI, the perf events (after an import), suspend, stall, pairs

    QTest::keyClick(&dialog, Qt::Key_C, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), dialog.measuredCpiEdit());
    QTest::keyClick(&dialog, Qt::Key_T, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), dialog.stallTable());
    QTest::keyClick(&dialog, Qt::Key_P, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), dialog.pairsTable());

    // Tab goes through the dialog in reading order and leaves the tables.
    const QList<QWidget *> expected
            = {dialog.instructionsEdit(), dialog.measuredCpiEdit(),     dialog.suspendTable(),
               dialog.addSuspendButton(), dialog.removeSuspendButton(), dialog.stallTable(),
               dialog.addStallButton(),   dialog.removeStallButton(),   dialog.pairsTable(),
               dialog.selectButton()};
    dialog.instructionsEdit()->setFocus();
    QList<QWidget *> seen {dialog.instructionsEdit()};
    for (int i = 0; i < 9; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        seen.append(QApplication::focusWidget());
    }
    qsizetype last = -1;
    for (QWidget *w : seen) {
        const qsizetype at = expected.indexOf(w);
        QVERIFY2(at > last,
                 qPrintable(w->accessibleName() + QLatin1Char(' ') + w->metaObject()->className()));
        last = at;
    }
    for (QWidget *w :
         {static_cast<QWidget *>(dialog.suspendTable()), static_cast<QWidget *>(dialog.stallTable()),
          static_cast<QWidget *>(dialog.addStallButton())})
        QVERIFY(seen.contains(w));
}

void TestCountersDialogLayout::nothingOverlapsAtTheDefaultSize_data()
{
    QTest::addColumn<bool>("imported");
    QTest::newRow("as opened") << false;
    QTest::newRow("with a perf run") << true;
}

void TestCountersDialogLayout::nothingOverlapsAtTheDefaultSize()
{
    QFETCH(bool, imported);
    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    if (imported) {
        // A per-CPU run read, one of its CPUs taken as the single-threaded run: the events table, the command
        // lines, the CPU offer and the latency help shown as well.
        QCOMPARE(dialog.importMultiRun(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_interval1.tsv")),
                 QString());
        QCOMPARE(dialog.useCpuAsSingleRun(dialog.cpuBox()->currentData().toInt()), QString());
        QCoreApplication::processEvents();
    }
    QVERIFY(dialog.width() >= dialog.minimumSizeHint().width());
    QVERIFY(dialog.height() >= dialog.minimumSizeHint().height());
    // Long results make no difference: the error and the import status wrap.
    setCell(dialog.stallTable(), 0, CountersDialog::StallLatency, QStringLiteral("0.5"));
    QCoreApplication::processEvents();

    QList<QWidget *> controls;
    for (QWidget *w : dialog.findChildren<QWidget *>()) {
        // Parts of a table or a line edit; the dialog's body scrolls as a whole (DialogBody) and is no part.
        const auto isBody = [](const QWidget *p) { return p->objectName() == QLatin1String("DialogBody"); };
        bool inside = false;
        for (QWidget *p = w->parentWidget(); p && p != &dialog; p = p->parentWidget())
            inside = inside || (qobject_cast<QAbstractScrollArea *>(p) && !isBody(p)) || qobject_cast<QLineEdit *>(p);
        const bool control = qobject_cast<QLabel *>(w) || qobject_cast<QAbstractButton *>(w)
                             || qobject_cast<QLineEdit *>(w) || (qobject_cast<QAbstractScrollArea *>(w) && !isBody(w));
        if (control && !inside && w->isVisible())
            controls.append(w);
    }
    QVERIFY(controls.size() >= 20);
    auto frame = [&dialog](QWidget *w) { return QRect(w->mapTo(&dialog, QPoint(0, 0)), w->size()); };
    for (qsizetype i = 0; i < controls.size(); ++i) {
        const QRect a = frame(controls[i]);
        QVERIFY2(dialog.rect().contains(a), controls[i]->metaObject()->className());
        for (qsizetype j = i + 1; j < controls.size(); ++j) {
            QVERIFY2(!a.intersects(frame(controls[j])),
                     qPrintable(QStringLiteral("%1 '%2' and %3 '%4'")
                                        .arg(QString::fromLatin1(controls[i]->metaObject()->className()),
                                             controls[i]->accessibleName(),
                                             QString::fromLatin1(controls[j]->metaObject()->className()),
                                             controls[j]->accessibleName())));
        }
        if (auto *label = qobject_cast<QLabel *>(controls[i]); label && label->wordWrap())
            QVERIFY2(label->height() >= label->heightForWidth(label->width()), qPrintable(label->text()));
    }
    // The nine pairs fit without scrolling.
    QVERIFY(!dialog.pairsTable()->verticalScrollBar()->isVisible());
}

QTEST_MAIN(TestCountersDialogLayout)
#include "tst_counters_dialog_layout.moc"
