// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/modeltree/extrapolation.h"
#include "core/modeltree/extrapolate_settings.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <string>
#include <utility>
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
class ExtrapolateEvaluation;
class TrainingColumnsDialog;

/// The thesis' second step (MODEL.md 9): model trees learned from training runs at small application sizes,
/// shown as trees with each leaf's linear model and their cross-validation, p or q against the size per
/// strategy (training points and the extrapolation), and every strategy's predicted (p, q) and Markov CPI at
/// the target size, ranked, beside the CPI measured there when a file of measured CPI is loaded. "Send to Markov surface" hands the chosen strategy's topology and (p, q) on. The
/// trees, their predictions and the chart's curves are computed by an ExtrapolateEvaluation (the training in
/// the background): the panel draws them when they arrive.
class ExtrapolatePanel : public QWidget
{
    Q_OBJECT
public:
    /// Columns of the prediction table.
    enum Column { Rank, Strategy, P, Q, Model, Cpi, MeasuredCpi, ColumnCount };
    /// What the chart shows.
    enum Shown { ShowP, ShowQ };

    explicit ExtrapolatePanel(QWidget *parent = nullptr);

    /// Imports a training file: straight away when it has every default column, otherwise through the
    /// column dialog (opened non-blocking; columnsDialog() while it is open). Errors show in infoLabel().
    void importFile(const QString &path);
    TrainingColumnsDialog *columnsDialog() const;

    /// Reads a training file and has it trained and cross-validated in the background. Returns false and
    /// shows the message when the file cannot be read; the previous model then stays, as it does when the
    /// trees refuse the rows (the message then shows when the training ends).
    bool loadTrainingFile(const QString &path, const core::TrainingColumns &columns = {});
    /// Reads CPI measured at larger sizes (Application_size, Mapping_Strategy, CPI, optionally Iteration) to
    /// check the predictions against: the table shows each strategy's measured CPI beside its predicted one,
    /// and checkLabel() the mean |error| over every measurement. Returns false and shows the message when the
    /// file cannot be read (the measurements before stay).
    bool loadMeasuredFile(const QString &path);
    /// Trains and cross-validates SET in the background (the same as loading it).
    void setTrainingSet(core::TrainingSet set);
    /// The training runs (the last set asked for) and the smoothing, as a session saves them.
    core::ExtrapolateSettings settings() const;
    /// Forgets what was trained and trains SETTINGS' runs, if any (opening a session, File > New Session).
    void setSettings(const core::ExtrapolateSettings &settings);
    /// Blocks until the training asked for has arrived and is shown (tests, figure export).
    void waitForResult();
    ExtrapolateEvaluation *evaluation() const { return m_eval; }

    QPushButton *importButton() const { return m_import; }
    QPushButton *measuredButton() const { return m_loadMeasured; }
    /// Predicted against measured CPI over every measurement loaded (hidden without any).
    QLabel *checkLabel() const { return m_check; }
    /// The Mapping view's strategies, each ID with the threads it puts on each shared cache it uses: a training
    /// strategy whose Markov model (its caches × threads) is one of theirs is shown with their IDs.
    void setMappingStrategies(const std::vector<std::pair<std::string, std::vector<int>>> &strategies);
    /// The Mapping view's IDs with the Markov model of GROUPS caches of THREADS threads each ("8T_1"), or empty.
    QString mappingIdsFor(int groups, int threads) const;
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

    const std::optional<core::ExtrapolationModel> &model() const;
    const std::optional<core::ExtrapolationCv> &crossValidation() const;
    /// The table's rows: every strategy at the target size, lowest CPI first.
    const std::vector<core::StrategyPrediction> &predictions() const;

Q_SIGNALS:
    /// "Send to Markov surface": the chosen strategy's cache groups and predicted (p, q).
    void sendToMarkov(int groups, int threadsPerGroup, double p, double q);
    /// settings() changed: new training runs, or the smoothing.
    void settingsChanged();

private:
    void chooseFile();
    void chooseMeasuredFile();
    void showCheck();
    /// New trees: the file, its figures and the trees, and the target size they were trained for.
    void showModel();
    /// No training runs: the panel as a new window shows it.
    void showCleared();
    void fillTrees();
    void addNode(QTreeWidgetItem *parent, const core::ModelTree &tree, int index, const QString &label);
    void fillTable();
    void fillChart();
    void send();

    QPushButton *m_import;
    QPushButton *m_loadMeasured;
    QLabel *m_check;
    std::vector<std::pair<std::string, std::vector<int>>> m_mappingStrategies;
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
    ExtrapolateEvaluation *m_eval;
};

} // namespace crossroof::widgets
