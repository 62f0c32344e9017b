// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/modeltree/extrapolation.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace crossroof::widgets {

class EmptyState;

class TrainingColumnsDialog;

/// The thesis' second step (MODEL.md 9): model trees learned from training runs at small application sizes,
/// shown as trees with each leaf's linear model and their cross-validation, p or q against the size per
/// strategy (training points and the extrapolation), and every strategy's predicted (p, q) and Markov CPI at
/// the target size, ranked. "Send to Markov surface" hands the chosen strategy's topology and (p, q) on.
class ExtrapolatePanel : public QWidget
{
    Q_OBJECT
public:
    /// Columns of the prediction table.
    enum Column { Rank, Strategy, P, Q, Model, Cpi, ColumnCount };
    /// What the chart shows.
    enum Shown { ShowP, ShowQ };

    explicit ExtrapolatePanel(QWidget *parent = nullptr);

    /// Imports a training file: straight away when it has every default column, otherwise through the
    /// column dialog (opened non-blocking; columnsDialog() while it is open). Errors show in infoLabel().
    void importFile(const QString &path);
    TrainingColumnsDialog *columnsDialog() const;

    /// Reads, trains and cross-validates a training file. Returns false and shows the message when the file
    /// is refused; the previous model then stays.
    bool loadTrainingFile(const QString &path, const core::TrainingColumns &columns = {});
    /// Trains and cross-validates SET (the same as loading it).
    void setTrainingSet(core::TrainingSet set);

    QPushButton *importButton() const { return m_import; }
    QDoubleSpinBox *targetSizeBox() const { return m_size; }
    QComboBox *shownBox() const { return m_shown; }
    /// On (the default): predictions blend each leaf's model with the models on its path to the root (M5's
    /// smoothing), and the tree shows those blended models; off: every leaf follows its own linear law.
    QCheckBox *smoothingBox() const { return m_smoothing; }
    QTreeWidget *treeWidget() const { return m_tree; }
    QTableWidget *table() const { return m_table; }
    /// The file, its rows and the cross-validation figures, or why there is no model.
    QLabel *infoLabel() const { return m_info; }
    /// Over the chart while nothing is trained: what to import, and a button for it.
    EmptyState *emptyState() const { return m_empty; }
    QCustomPlot *plot() const { return m_plot; }
    QPushButton *sendButton() const { return m_send; }
    QList<QCustomPlot *> figurePlots() const { return {m_plot}; }

    const std::optional<core::ExtrapolationModel> &model() const { return m_model; }
    const std::optional<core::ExtrapolationCv> &crossValidation() const { return m_cv; }
    /// The table's rows: every strategy at the target size, lowest CPI first.
    const std::vector<core::StrategyPrediction> &predictions() const { return m_predictions; }

Q_SIGNALS:
    /// "Send to Markov surface": the chosen strategy's cache groups and predicted (p, q).
    void sendToMarkov(int groups, int threadsPerGroup, double p, double q);

private:
    void chooseFile();
    /// Trains the trees on SET with the smoothing chosen, then keeps SET and shows the trees and their
    /// predictions (at the largest training size when NEW_SET, else at the target size shown). Throws
    /// InputError, the panel unchanged, when the trees cannot be trained.
    void train(core::TrainingSet set, bool newSet);
    void fillTrees();
    void addNode(QTreeWidgetItem *parent, const core::ModelTree &tree, int index, const QString &label);
    void predict();
    void fillChart();
    void send();

    QPushButton *m_import;
    QDoubleSpinBox *m_size;
    QComboBox *m_shown;
    QCheckBox *m_smoothing;
    QLabel *m_info;
    QTreeWidget *m_tree;
    QTableWidget *m_table;
    QCustomPlot *m_plot;
    EmptyState *m_empty;
    QPushButton *m_send;
    QPointer<TrainingColumnsDialog> m_columnsDialog;
    std::optional<core::TrainingSet> m_set;
    std::optional<core::ExtrapolationModel> m_model;
    std::optional<core::ExtrapolationCv> m_cv;
    std::vector<core::StrategyPrediction> m_predictions;
};

} // namespace crossroof::widgets
