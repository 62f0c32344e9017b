// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the counters dialog's tests share: its results as signalled, cells read and typed, perf stat runs.

#include "markov/counters_dialog.h"
#include "core/markov/markov.h"
#include "core/markov/markov_counters.h"
#include "core/traces/perf_stat.h"

#include <QAbstractButton>
#include <QBrush>
#include <QComboBox>
#include <QFont>
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

namespace crossroof::counters_dialog_test {

using namespace crossroof::widgets;

inline const QString kExcerpt = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_excerpt.tsv");

/// What resultsChanged() carried last, and how often it came.
struct Results {
    int count = 0;
    std::vector<core::StartingPair> pairs;
    std::optional<std::size_t> nearest;
    std::optional<double> measured;

    explicit Results(CountersDialog *dialog)
    {
        QObject::connect(dialog, &CountersDialog::resultsChanged, dialog,
                         [this](const std::vector<core::StartingPair> &p, std::optional<std::size_t> n,
                                std::optional<double> m) {
                             ++count;
                             pairs = p;
                             nearest = n;
                             measured = m;
                         });
    }
};

inline QString cell(const QTableView *table, int row, int column)
{
    return table->model()->index(row, column).data().toString();
}

/// Sets a cell as a program would (the model's edit role), without an editor.
inline void setCell(QTableView *table, int row, int column, const QString &text)
{
    table->model()->setData(table->model()->index(row, column), text);
}

inline QVariant cellData(const QTableView *table, int row, int column, Qt::ItemDataRole role)
{
    return table->model()->index(row, column).data(role);
}

/// Types into a table cell as a user does: F2, select all, the text, Enter.
inline void editCell(QTableView *table, int row, int column, const QString &text)
{
    table->setFocus();
    table->setCurrentIndex(table->model()->index(row, column));
    QTest::keyClick(table, Qt::Key_F2);
    auto *editor = qobject_cast<QLineEdit *>(QApplication::focusWidget());
    QVERIFY2(editor, "F2 opens a line edit");
    editor->selectAll();
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents(); // the view commits the edit with a queued call
}

inline void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

/// No cell or label shows what a failed computation would.
inline void verifyNoNan(const CountersDialog &dialog)
{
    const QRegularExpression bad(QStringLiteral("\\b(nan|inf)\\b"),
                                 QRegularExpression::CaseInsensitiveOption);
    for (const QTableView *table : dialog.findChildren<QTableView *>()) {
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            for (int c = 0; c < table->model()->columnCount(); ++c)
                QVERIFY2(!cell(table, r, c).contains(bad), qPrintable(cell(table, r, c)));
        }
    }
    for (const QLabel *label : dialog.findChildren<QLabel *>())
        QVERIFY2(!label->text().contains(bad), qPrintable(label->text()));
}

inline double steadyCpi(const std::vector<int> &threads, double p, double q)
{
    core::MarkovTopology t;
    for (int n : threads)
        t.push_back({n, p, q});
    return core::solveMarkovExact(t).cpi;
}

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return {};
    return path;
}

/// `perf stat -x '\t'` of the same work, aggregated (no -A, no -I): value, unit, event, run time, percentage.
inline const QByteArray kMultiRun = "# started on Mon Jun 12 10:00:00 2023\n"
                             "\n"
                             "4000.50\tmsec\tcpu-clock\t4000500000\t100.00\t3.990\tCPUs utilized\n"
                             "3000\t\tcycles:D\t4000000000\t100.00\t0.75\tGHz\n"
                             "1000\t\tinstructions:D\t4000000000\t100.00\t0.33\tinsn per cycle\n"
                             "300\t\tr08d1\t2000000000\t50.00\t\t\n"
                             "100\t\tr01d1\t2000000000\t50.00\t\t\n"
                             "40\t\tcs\t4000500000\t100.00\t\t\n"
                             "<not counted>\t\tr10d1\t0\t0.00\t\t\n";
inline const QByteArray kSingleRun = "1000.25\tmsec\tcpu-clock\t1000250000\t100.00\t0.999\tCPUs utilized\n"
                              "1500\t\tcycles:D\t1000000000\t100.00\t1.5\tGHz\n"
                              "1000\t\tinstructions:D\t1000000000\t100.00\t0.67\tinsn per cycle\n"
                              "100\t\tr08d1\t500000000\t50.00\t\t\n"
                              "150\t\tr01d1\t500000000\t50.00\t\t\n"
                              "9\t\tr10d1\t500000000\t50.00\t\t\n";


} // namespace crossroof::counters_dialog_test
