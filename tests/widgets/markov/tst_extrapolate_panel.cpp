// SPDX-License-Identifier: GPL-3.0-or-later
// The Extrapolate panel on the synthetic sample (docs/samples/modeltree-training.csv): trees, table, chart,
// the target size, sending a strategy on, and a refused file.
#include "common/empty_state.h"
#include "core/modeltree/extrapolate_settings.h"
#include "core/modeltree/training_set.h"
#include "markov/extrapolate_panel.h"
#include "markov/training_columns_dialog.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>
#include <fstream>
#include <map>

using crossroof::widgets::ExtrapolatePanel;

namespace {
const QString kTrain = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");
const QString kMeasured = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-measured-cpi.csv");
}

class TestExtrapolatePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void loadsTheSample()
    {
        ExtrapolatePanel panel;
        QVERIFY(!panel.targetSizeBox()->isEnabled());
        // Nothing trained: the chart says what to import, with a button for it.
        QVERIFY(!panel.emptyState()->isHidden());
        QCOMPARE(panel.emptyState()->buttons().size(), 1);
        QVERIFY(panel.emptyState()->label()->text().contains(QStringLiteral("No training data")));
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        QVERIFY(panel.emptyState()->isHidden());
        QVERIFY(panel.model().has_value());
        QVERIFY(panel.infoLabel()->text().contains("350 rows, 7 strategies"));
        QVERIFY(panel.infoLabel()->text().contains("10-fold cross-validation"));
        QVERIFY(!panel.infoLabel()->text().contains("Trees grown")); // every row grows them
        // One size step past the largest training size (128, after 96): the trees extrapolate, and say so.
        QCOMPARE(panel.targetSizeBox()->value(), 160.0);
        QVERIFY2(panel.infoLabel()->text().contains("Target size 160: past the largest training size, 128"),
                 qPrintable(panel.infoLabel()->text()));

        // Two trees: q's, then p's, whose first split is on q.
        QCOMPARE(panel.treeWidget()->topLevelItemCount(), 2);
        QTreeWidgetItem *p = panel.treeWidget()->topLevelItem(1);
        QCOMPARE(p->text(0), QStringLiteral("p_value (4 leaves)"));
        QTreeWidgetItem *all = p->child(0);
        QCOMPARE(all->text(1), QStringLiteral("350"));
        QVERIFY(all->child(0)->text(0).startsWith("q_value <= 0.84"));
        QCOMPARE(all->child(0)->child(0)->text(0), QStringLiteral("Num_MC_States <= 20.5 : LM1"));
        QVERIFY(all->child(0)->child(0)->child(0)->text(0).startsWith("p_value ="));

        // Every strategy, lowest CPI first.
        QCOMPARE(panel.table()->rowCount(), 7);
        QCOMPARE(panel.predictions().size(), std::size_t(7));
        for (std::size_t i = 1; i < panel.predictions().size(); ++i)
            QVERIFY(panel.predictions()[i - 1].markov.cpi <= panel.predictions()[i].markov.cpi);
        QCOMPARE(panel.table()->item(0, ExtrapolatePanel::Strategy)->text(),
                 QString::fromStdString(panel.predictions()[0].strategy));

        // Per strategy, the training points and the extrapolated curve.
        QCOMPARE(panel.plot()->graphCount(), 14);
        QCOMPARE(panel.plot()->graph(0)->dataCount(), 5); // five sizes at the last iteration
        QCOMPARE(panel.plot()->graph(1)->dataCount(), 60);
    }

    void smoothingShowsTheModelsThatPredict()
    {
        ExtrapolatePanel panel;
        QVERIFY(panel.smoothingBox()->isChecked());
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        panel.targetSizeBox()->setValue(150);
        // The p tree's first leaf under "all rows": its equation is the one that predicts.
        QTreeWidgetItem *lm1 = panel.treeWidget()->topLevelItem(1)->child(0)->child(0)->child(0);
        const QString smoothed = lm1->child(0)->text(0);
        QVERIFY(panel.model()->p_tree.options().smooth);
        std::map<std::string, double> pSmoothed;
        for (const auto &prediction : panel.predictions())
            pSmoothed[prediction.strategy] = prediction.p;

        panel.smoothingBox()->setChecked(false);
        panel.waitForResult();
        QVERIFY(!panel.model()->p_tree.options().smooth);
        QCOMPARE(panel.targetSizeBox()->value(), 150.0); // the target stays
        QCOMPARE(panel.predictions().front().size, 150.0);
        lm1 = panel.treeWidget()->topLevelItem(1)->child(0)->child(0)->child(0);
        const QString own = lm1->child(0)->text(0);
        QVERIFY(own != smoothed);
        QVERIFY(own.startsWith("p_value ="));
        bool moved = false;
        for (const auto &prediction : panel.predictions())
            moved = moved || std::abs(prediction.p - pSmoothed.at(prediction.strategy)) > 1e-9;
        QVERIFY2(moved, "the predictions must follow the leaves' own laws");
        panel.smoothingBox()->setChecked(true);
        panel.waitForResult();
        QCOMPARE(panel.treeWidget()->topLevelItem(1)->child(0)->child(0)->child(0)->child(0)->text(0), smoothed);
    }

    void targetSizeMovesThePredictions()
    {
        ExtrapolatePanel panel;
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        panel.targetSizeBox()->setValue(128); // the largest training size
        const double before = panel.plot()->xAxis->range().upper;
        panel.targetSizeBox()->setValue(160);
        QCOMPARE(panel.predictions().front().size, 160.0);
        QVERIFY(panel.plot()->xAxis->range().upper > before);
        // At 160 the trees push one strategy's q past 1: marked in the table.
        bool marked = false;
        for (int row = 0; row < panel.table()->rowCount(); ++row)
            marked = marked || panel.table()->item(row, ExtrapolatePanel::Q)->text().endsWith(" *");
        QVERIFY(marked);
        panel.shownBox()->setCurrentIndex(1);
        QCOMPARE(panel.plot()->yAxis->label(), QStringLiteral("q_value"));
    }

    void sendsTheChosenStrategy()
    {
        ExtrapolatePanel panel;
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        QVERIFY(!panel.sendButton()->isEnabled());
        QSignalSpy spy(&panel, &ExtrapolatePanel::sendToMarkov);
        panel.table()->selectRow(2);
        QVERIFY(panel.sendButton()->isEnabled());
        QTest::mouseClick(panel.sendButton(), Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        const auto &s = panel.predictions()[2];
        QCOMPARE(spy.at(0).at(0).toInt(), s.groups);
        QCOMPARE(spy.at(0).at(1).toInt(), s.threads_per_group);
        QCOMPARE(spy.at(0).at(2).toDouble(), s.p);
        QCOMPARE(spy.at(0).at(3).toDouble(), s.q);
    }

    void columnDialogForOtherNames()
    {
        // A file with the thesis' short labels: the dialog opens, guesses what it can, and the rest is
        // chosen.
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/short.csv");
        {
            std::ifstream in(kTrain.toStdString());
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            text.replace(text.find("Application_size"), 16, "AS");
            text.replace(text.find("Mapping_Strategy"), 16, "MS");
            text.replace(text.find("Iteration"), 9, "iteration");
            std::ofstream(path.toStdString()) << text;
        }
        ExtrapolatePanel panel;
        panel.importFile(path);
        QVERIFY(!panel.model());
        crossroof::widgets::TrainingColumnsDialog *dialog = panel.columnsDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->box("iteration")->currentText(), QStringLiteral("iteration")); // case ignored
        QCOMPARE(dialog->box("p")->currentText(), QStringLiteral("p_value"));
        QCOMPARE(dialog->box("size")->currentIndex(), -1);
        dialog->box("size")->setCurrentText(QStringLiteral("AS"));
        dialog->box("strategy")->setCurrentText(QStringLiteral("MS"));
        dialog->accept();
        panel.waitForResult();
        QVERIFY2(panel.model().has_value(), qPrintable(panel.infoLabel()->text()));
        QCOMPARE(panel.model()->p_tree.leafCount(), 4);
        QCOMPARE(panel.model()->columns.size, std::string("AS"));

        // The sample itself needs no dialog.
        ExtrapolatePanel direct;
        direct.importFile(kTrain);
        direct.waitForResult();
        QVERIFY(!direct.columnsDialog());
        QVERIFY(direct.model().has_value());
    }

    void largeSetSaysWhichRowsGrewTheTrees()
    {
        // Above core::kTreeRowLimit rows the trees grow on a spread part of them; the panel says so, as
        // extrapolate's report does. The sample's 350 runs 36 times over, each copy 0.001 larger: 12,600 rows.
        const crossroof::core::TrainingSet sample = crossroof::core::readTrainingSet(kTrain.toStdString());
        crossroof::core::TrainingSet large = sample;
        large.source = "large.csv";
        large.rows.clear();
        for (int copy = 0; copy < 36; ++copy) {
            for (crossroof::core::TrainingRow row : sample.rows) {
                row.size += 0.001 * copy;
                large.rows.push_back(row);
            }
        }
        ExtrapolatePanel panel;
        panel.setTrainingSet(large);
        panel.waitForResult();
        QVERIFY(panel.model().has_value());
        const std::size_t grown = panel.model()->tree_rows;
        QVERIFY(grown >= 9993 && grown <= 10000);
        const QString info = panel.infoLabel()->text();
        QVERIFY2(info.contains(QStringLiteral("large.csv: 12600 rows, 7 strategies")), qPrintable(info));
        QVERIFY2(info.contains(QStringLiteral("Trees grown on %1 of the 12600 rows, spread over each strategy's "
                                              "sizes and iterations; the cross-validation deals out those rows. "
                                              "10-fold cross-validation")
                                       .arg(grown)),
                 qPrintable(info));
    }

    void refusedFileKeepsTheModel()
    {
        ExtrapolatePanel panel;
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        QTemporaryDir dir;
        const QString bad = dir.path() + QStringLiteral("/bad.csv");
        std::ofstream(bad.toStdString()) << "Application_size,p_value\n1,0.5\n";
        QVERIFY(!panel.loadTrainingFile(bad));
        QVERIFY2(panel.infoLabel()->text().contains("no column 'Iteration'"),
                 qPrintable(panel.infoLabel()->text()));
        QVERIFY(panel.model().has_value());
        QCOMPARE(panel.table()->rowCount(), 7);

        // Rows the trees refuse: the message once the training ends, and the model, the trees and the table
        // as they were.
        crossroof::core::TrainingSet empty;
        empty.source = "empty.csv";
        panel.setTrainingSet(empty);
        panel.waitForResult();
        QVERIFY2(panel.infoLabel()->text().contains("no training rows"), qPrintable(panel.infoLabel()->text()));
        QCOMPARE(panel.model()->p_tree.leafCount(), 4);
        QCOMPARE(panel.treeWidget()->topLevelItemCount(), 2);
        QCOMPARE(panel.table()->rowCount(), 7);
        QCOMPARE(panel.targetSizeBox()->value(), 160.0);
    }

    void measuredCpiBesidePredicted()
    {
        // The CLI's --measured check in the view: the mean |error| over the 12 measurements, and at the target
        // size each strategy's measured CPI and its rank beside the predicted one; saved with the settings.
        ExtrapolatePanel panel;
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        QVERIFY(panel.table()->isColumnHidden(ExtrapolatePanel::MeasuredCpi));
        QVERIFY(panel.checkLabel()->isHidden());
        QSignalSpy changed(&panel, &ExtrapolatePanel::settingsChanged);
        QVERIFY(panel.loadMeasuredFile(kMeasured));
        QCOMPARE(changed.count(), 1);
        QVERIFY(!panel.checkLabel()->isHidden());
        QVERIFY2(panel.checkLabel()->text().contains("12 measurements"), qPrintable(panel.checkLabel()->text()));
        QVERIFY2(panel.checkLabel()->text().contains("mean |error| 5.41 %"), qPrintable(panel.checkLabel()->text()));
        QVERIFY(!panel.table()->isColumnHidden(ExtrapolatePanel::MeasuredCpi));
        // At 160 the measured best, 4threads_with_1threads_per_L2 (1.068), is second by prediction.
        QCOMPARE(panel.targetSizeBox()->value(), 160.0);
        int best = -1;
        for (int row = 0; row < panel.table()->rowCount(); ++row) {
            if (panel.table()->item(row, ExtrapolatePanel::Strategy)->text() == "4threads_with_1threads_per_L2")
                best = row;
        }
        QCOMPARE(best, 1);
        QVERIFY2(panel.table()->item(best, ExtrapolatePanel::MeasuredCpi)->text().contains("(rank 1)"),
                 qPrintable(panel.table()->item(best, ExtrapolatePanel::MeasuredCpi)->text()));
        QVERIFY(panel.table()->item(best, ExtrapolatePanel::MeasuredCpi)->text().startsWith("1.068"));
        // A size without measurements: the column is empty there.
        panel.targetSizeBox()->setValue(150);
        QVERIFY(panel.table()->item(0, ExtrapolatePanel::MeasuredCpi)->text().isEmpty());
        // Saved and opened again.
        const crossroof::core::ExtrapolateSettings s = panel.settings();
        QCOMPARE(s.measured.size(), std::size_t(12));
        ExtrapolatePanel reopened;
        reopened.setSettings(s);
        reopened.waitForResult();
        QVERIFY2(reopened.checkLabel()->text().contains("mean |error| 5.41 %"),
                 qPrintable(reopened.checkLabel()->text()));
        QVERIFY(reopened.settings() == s);
        // A file that is not one: said, the measurements before stay.
        QTemporaryDir dir;
        const QString bad = dir.path() + QStringLiteral("/bad.csv");
        std::ofstream(bad.toStdString()) << "Application_size,Mapping_Strategy,CPI\n144,2threads_same_L2,0.5\n";
        QVERIFY(!reopened.loadMeasuredFile(bad));
        QVERIFY2(reopened.infoLabel()->text().contains("bad.csv"), qPrintable(reopened.infoLabel()->text()));
        QCOMPARE(reopened.settings().measured.size(), std::size_t(12));
    }

    void legendShowsWhatTheChartDraws()
    {
        // Each strategy's entry shows its line through its marker, as the chart draws it; one entry each.
        ExtrapolatePanel panel;
        QVERIFY(panel.loadTrainingFile(kTrain));
        panel.waitForResult();
        QCPLegend *legend = panel.plot()->legend;
        int entries = 0; // the legend is a grid: its empty cells are no entries
        for (int i = 0; i < legend->itemCount(); ++i)
            entries += legend->item(i) ? 1 : 0;
        QCOMPARE(entries, 7);
        for (int i = 0; i < panel.plot()->graphCount(); ++i)
            QVERIFY(!legend->itemWithPlottable(panel.plot()->graph(i)));
        panel.resize(900, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.plot()->replot();
        // The first entry: the strategy's colour along a line (one or two rows of pixels) and in its marker's
        // outline above and below it (a line alone, as the entry drew it, has no more rows).
        const QRect entry = legend->item(0)->rect();
        const QImage drawn = panel.plot()->toPixmap().toImage();
        int left = entry.right(), right = entry.left();
        QSet<int> rows;
        for (int y = entry.top(); y <= entry.bottom(); ++y) {
            for (int x = entry.left(); x <= entry.right(); ++x) {
                const QColor c = drawn.pixelColor(x, y);
                if (c.blue() > c.red() + 40) { // the strategy's blue, or a tint of it where antialiased
                    rows.insert(y);
                    left = std::min(left, x);
                    right = std::max(right, x);
                }
            }
        }
        QVERIFY2(rows.size() >= 5, qPrintable(QString::number(rows.size())));
        QVERIFY2(right - left >= 15, qPrintable(QString::number(right - left))); // and a line across
        // And the Mapping view's IDs beside the training names where the Markov model is the same.
        panel.setMappingStrategies({{"2T_3", {2}}, {"2T_4", {2}}, {"8T_1", {2, 2, 2, 2}}, {"8T_2", {4, 4}}});
        QStringList names;
        for (int row = 0; row < panel.table()->rowCount(); ++row)
            names << panel.table()->item(row, ExtrapolatePanel::Strategy)->text();
        QVERIFY2(names.contains("8threads_1threads_per_core (Mapping: 8T_1)"), qPrintable(names.join('|')));
        QVERIFY2(names.contains("8threads_2threads_per_core (Mapping: 8T_2)"), qPrintable(names.join('|')));
        QVERIFY2(names.contains("2threads_same_L2 (Mapping: 2T_3, 2T_4)"), qPrintable(names.join('|')));
        QVERIFY(names.contains("4threads_with_1threads_per_L2")); // no 4 x 1 among them
    }
};

QTEST_MAIN(TestExtrapolatePanel)
#include "tst_extrapolate_panel.moc"
