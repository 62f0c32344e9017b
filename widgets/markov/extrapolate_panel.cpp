// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/extrapolate_panel.h"

#include "common/empty_state.h"
#include "common/file_folders.h"
#include "common/icon_legend_item.h"
#include "common/labelled.h"
#include "common/native_path.h"
#include "common/number_format.h"
#include "common/narrow_layout.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/qt_text.h"
#include "markov/extrapolate_evaluation.h"
#include "markov/training_columns_dialog.h"
#include "core/modeltree/tree_text.h"
#include "core/support/error.h"
#include "core/traces/csv_table.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

/// One colour per strategy, in the order of the training file (repeating after seven).
const QColor kStrategyColours[]
        = {plot_style::kBlue, plot_style::kOrange,     plot_style::kGreen, plot_style::kPurple,
           plot_style::kSky,  plot_style::kVermillion, plot_style::kBlack};
const QCPScatterStyle::ScatterShape kStrategyShapes[]
        = {QCPScatterStyle::ssCircle,  QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
           QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssPlus,
           QCPScatterStyle::ssStar};
QTableWidgetItem *cell(const QString &value, const QString &tip = {})
{
    auto *item = new QTableWidgetItem(value);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setToolTip(tip);
    return item;
}

} // namespace

ExtrapolatePanel::ExtrapolatePanel(QWidget *parent)
    : QWidget(parent)
    , m_eval(new ExtrapolateEvaluation(this))
{
    // The import button, then the target and the chart: one row in a wide view, two in a narrow one.
    auto *bar = new QHBoxLayout;
    auto *target = new QHBoxLayout;
    m_import = new QPushButton(tr("&Import Training CSV…"), this);
    m_import->setToolTip(tr("Training runs at small application sizes: Application_size, Iteration, Num_L2, "
                            "Num_threads_per_L2, Mapping_Strategy, Num_MC_States, p_value, q_value"));
    bar->addWidget(m_import, 0, Qt::AlignLeft);
    m_loadMeasured = new QPushButton(tr("Load &Measured CPI…"), this);
    m_loadMeasured->setToolTip(tr("CPI measured at larger sizes (Application_size, Mapping_Strategy, CPI and "
                                  "optionally Iteration): shown beside the predicted CPI, with the mean |error|"));
    bar->addWidget(m_loadMeasured, 0, Qt::AlignLeft);
    m_size = new QDoubleSpinBox(this);
    m_size->setRange(-1e12, 1e12);
    m_size->setDecimals(3);
    m_size->setEnabled(false);
    m_size->setToolTip(tr("The application size to predict (p, q) and the CPI at; it starts one size step past "
                          "the largest training size, so that the trees extrapolate"));
    addLabelled(target, tr("&Target size"), m_size);
    m_shown = new QComboBox(this);
    m_shown->addItem(tr("p against size"), ShowP);
    m_shown->addItem(tr("q against size"), ShowQ);
    addLabelled(target, tr("C&hart"), m_shown);
    m_smoothing = new QCheckBox(tr("S&moothing"), this);
    m_smoothing->setChecked(true);
    m_smoothing->setToolTip(
            tr("M5 smoothing: a leaf's prediction p is blended with the model q of each node above it,\n"
               "p' = (n·p + k·q) / (n + k), n the node's rows, k = 15; the tree then shows the blended models.\n"
               "Off: each leaf predicts with its own linear law, also beyond the training sizes."));
    connect(m_smoothing, &QCheckBox::toggled, m_eval, &ExtrapolateEvaluation::setSmoothing);
    connect(m_smoothing, &QCheckBox::toggled, this, &ExtrapolatePanel::settingsChanged);
    target->addStretch(0); // takes the room only when the rows are stacked
    bar->addLayout(target);
    bar->addStretch(1);
    stackWhenNarrow(this, bar, 640);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    m_check = new QLabel(this);
    m_check->setObjectName(QStringLiteral("ExtrapolateCheck"));
    m_check->setWordWrap(true);
    m_check->hide();

    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Model tree"), tr("Rows")});
    m_tree->setToolTip(tr("M5' model trees: the splits, and each leaf's linear model (LM1, LM2, ...)"));

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setHorizontalHeaderLabels(
            {tr("Rank"), tr("Strategy"), tr("p"), tr("q"), tr("Model (groups × threads)"), tr("CPI"),
             tr("Measured CPI")});
    m_table->horizontalHeaderItem(Cpi)->setToolTip(
            tr("Steady-state CPI of the strategy's cache groups at its predicted (p, q)"));
    m_table->horizontalHeaderItem(MeasuredCpi)->setToolTip(
            tr("The CPI measured at the target size (Load Measured CPI), its rank among the measured, and how far "
               "the prediction is off"));
    m_table->horizontalHeaderItem(Strategy)->setToolTip(
            tr("The training file's name, and the Mapping view's strategies with the same Markov model"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(Strategy, QHeaderView::Stretch);

    m_send = new QPushButton(tr("&Send to Markov Surface"), this);
    m_send->setToolTip(
            tr("Show the chosen strategy's topology and predicted (p, q) on the Markov CPI surface"));
    m_send->setEnabled(false);

    m_plot = new QCustomPlot(this);
    plot_style::setupAxes(m_plot);
    PlotNavigator::install(m_plot);
    m_plot->xAxis->setLabel(tr("application size"));
    m_plot->legend->setVisible(true);
    plot_style::placeLegendBelow(m_plot);
    m_plot->setMinimumSize(320, 420); // its legend below takes a row per strategy
    m_tree->setMinimumHeight(200);
    m_table->setMinimumHeight(200);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_table, 1);
    rightLayout->addWidget(m_send, 0, Qt::AlignRight);
    auto *left = new QWidget(this); // the trees, and whether they smooth
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_smoothing);
    leftLayout->addWidget(m_tree, 1);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(left);
    lower->addWidget(right);
    lower->setChildrenCollapsible(false);
    stackWhenNarrow(this, lower, 760); // the ranking under the tree in a narrow view, all its columns shown
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false); // a short window scrolls the view rather than squash a part
    split->addWidget(m_plot);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_info);
    layout->addWidget(m_check);
    layout->addWidget(split, 1);

    m_empty = new EmptyState(m_plot, tr("<p><b>No training data yet.</b></p><p>Import a CSV of runs at small "
                                        "application sizes (size, iteration, cache groups, threads and the measured "
                                        "p and q) to learn them and predict the real size.</p>"));
    connect(m_empty->addButton(tr("Import Training CSV…")), &QPushButton::clicked, this, &ExtrapolatePanel::chooseFile);
    m_empty->setEmpty(true);
    connect(m_import, &QPushButton::clicked, this, &ExtrapolatePanel::chooseFile);
    connect(m_loadMeasured, &QPushButton::clicked, this, &ExtrapolatePanel::chooseMeasuredFile);
    connect(m_eval, &ExtrapolateEvaluation::checkChanged, this, [this] {
        showCheck();
        fillTable();
    });
    connect(m_size, &QDoubleSpinBox::valueChanged, m_eval, &ExtrapolateEvaluation::setTargetSize);
    connect(m_eval, &ExtrapolateEvaluation::modelChanged, this, &ExtrapolatePanel::showModel);
    connect(m_eval, &ExtrapolateEvaluation::cleared, this, &ExtrapolatePanel::showCleared);
    connect(m_eval, &ExtrapolateEvaluation::predictionsChanged, this, [this] {
        fillTable();
        fillChart();
    });
    // Refused rows leave the trees, the table and the chart as they were.
    connect(m_eval, &ExtrapolateEvaluation::refused, m_info, &QLabel::setText);
    connect(m_shown, &QComboBox::currentIndexChanged, this, &ExtrapolatePanel::fillChart);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_send->setEnabled(!m_table->selectedItems().isEmpty()); });
    connect(m_send, &QPushButton::clicked, this, &ExtrapolatePanel::send);
    showCleared();
}

void ExtrapolatePanel::showCleared()
{
    if (m_columnsDialog)
        m_columnsDialog->close(); // its file belonged to what is gone
    m_empty->setEmpty(true);
    m_info->setText(tr("Import a training CSV to learn (p, q) from small application sizes."));
    m_check->hide();
    m_tree->clear();
    m_table->setRowCount(0);
    m_send->setEnabled(false);
    {
        const QSignalBlocker block(m_size);
        m_size->setValue(0);
        m_size->setEnabled(false);
    }
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->legend->clearItems();
    m_plot->yAxis->setLabel(QString());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

core::ExtrapolateSettings ExtrapolatePanel::settings() const
{
    core::ExtrapolateSettings s;
    s.training = m_eval->requestedSet();
    s.smoothing = m_smoothing->isChecked();
    s.measured = m_eval->measured();
    s.measured_source = m_eval->measuredSource();
    return s;
}

void ExtrapolatePanel::setSettings(const core::ExtrapolateSettings &settings)
{
    m_eval->clear();
    m_smoothing->setChecked(settings.smoothing); // nothing to retrain yet
    m_eval->setMeasured(settings.measured, settings.measured_source);
    if (settings.training)
        setTrainingSet(*settings.training);
    Q_EMIT settingsChanged();
}

void ExtrapolatePanel::chooseFile()
{
    const QString path = openFileName(this, FileKind::Data, tr("Import Training Runs"),
                                      tr("Tables (*.csv *.tsv *.txt);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

void ExtrapolatePanel::chooseMeasuredFile()
{
    const QString path = openFileName(this, FileKind::Data, tr("Load Measured CPI"),
                                      tr("Tables (*.csv *.tsv *.txt);;All files (*)"));
    if (!path.isEmpty())
        loadMeasuredFile(path);
}

bool ExtrapolatePanel::loadMeasuredFile(const QString &path)
{
    try {
        // The training file's column names, where it named other ones.
        const core::TrainingColumns columns = m_eval->trainingSet() ? m_eval->trainingSet()->columns
                                                                    : core::TrainingColumns{};
        m_eval->setMeasured(core::readCpiMeasurements(nativePath(path), columns), nativePath(path));
    } catch (const core::InputError &e) {
        m_info->setText(qs(e.what()));
        return false;
    }
    Q_EMIT settingsChanged();
    return true;
}

void ExtrapolatePanel::showCheck()
{
    const auto &check = m_eval->check();
    m_check->setVisible(!m_eval->measured().empty());
    if (m_eval->measured().empty())
        return;
    const QString file = QFileInfo(qs(m_eval->measuredSource())).fileName();
    if (!m_eval->checkError().isEmpty()) {
        m_check->setText(m_eval->checkError());
        return;
    }
    if (!check) {
        m_check->setText(tr("Measured CPI from %1: %2 measurements, checked once the trees are trained.")
                                 .arg(file)
                                 .arg(m_eval->measured().size()));
        return;
    }
    QString text = tr("Measured CPI from %1: %2 measurements; predicted against measured, mean |error| %3 %, "
                      "mean error %4 % (standard deviation %5 %).")
                           .arg(file)
                           .arg(check->rows.size())
                           .arg(QString::number(check->mean_abs_error_percent, 'f', 2),
                                QString::number(check->mean_error_percent, 'f', 2),
                                QString::number(check->sd_error_percent, 'f', 2));
    if (check->infinite > 0)
        text += tr(" %1 predicted infinite (left out of the means).").arg(check->infinite);
    m_check->setText(text);
}

void ExtrapolatePanel::setMappingStrategies(const std::vector<std::pair<std::string, std::vector<int>>> &strategies)
{
    if (strategies == m_mappingStrategies)
        return;
    m_mappingStrategies = strategies;
    fillTable();
}

QString ExtrapolatePanel::mappingIdsFor(int groups, int threads) const
{
    QStringList ids;
    for (const auto &[id, perCache] : m_mappingStrategies) {
        if (int(perCache.size()) == groups
            && std::all_of(perCache.begin(), perCache.end(), [threads](int t) { return t == threads; }))
            ids << qs(id);
    }
    return ids.join(QStringLiteral(", "));
}

TrainingColumnsDialog *ExtrapolatePanel::columnsDialog() const
{
    return m_columnsDialog;
}

void ExtrapolatePanel::importFile(const QString &path)
{
    std::vector<std::string> header;
    try {
        header = core::readCsv(nativePath(path)).header();
    } catch (const core::InputError &e) {
        m_info->setText(qs(e.what()));
        return;
    }
    const core::TrainingColumns defaults;
    bool complete = true;
    for (const std::string *name :
         {&defaults.size, &defaults.iteration, &defaults.num_l2, &defaults.threads_per_l2, &defaults.strategy,
          &defaults.states, &defaults.p, &defaults.q})
        complete = complete && std::find(header.begin(), header.end(), *name) != header.end();
    if (complete) {
        loadTrainingFile(path);
        return;
    }
    auto *dialog = new TrainingColumnsDialog(header, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, path] { loadTrainingFile(path, dialog->columns()); });
    m_columnsDialog = dialog;
    dialog->open();
}

bool ExtrapolatePanel::loadTrainingFile(const QString &path, const core::TrainingColumns &columns)
{
    try {
        setTrainingSet(core::readTrainingSet(nativePath(path), columns));
        return true;
    } catch (const core::InputError &e) {
        m_info->setText(qs(e.what()));
        return false;
    }
}

void ExtrapolatePanel::setTrainingSet(core::TrainingSet set)
{
    m_info->setText(tr("Training the model trees on %1…").arg(qs(set.source)));
    m_eval->setTrainingSet(std::move(set));
    Q_EMIT settingsChanged();
}

void ExtrapolatePanel::waitForResult()
{
    m_eval->wait();
}

const std::optional<core::ExtrapolationModel> &ExtrapolatePanel::model() const
{
    return m_eval->model();
}

const std::optional<core::ExtrapolationCv> &ExtrapolatePanel::crossValidation() const
{
    return m_eval->crossValidation();
}

const std::vector<core::StrategyPrediction> &ExtrapolatePanel::predictions() const
{
    return m_eval->predictions();
}

void ExtrapolatePanel::showModel()
{
    const core::TrainingSet &set = *m_eval->trainingSet();
    const core::ExtrapolationModel &model = *m_eval->model();
    const core::ExtrapolationCv &cv = *m_eval->crossValidation();
    m_empty->setEmpty(false);
    // A large set grows its trees on a spread part of its rows (core::kTreeRowLimit), as the command line says.
    const QString grown = model.tree_rows < model.rows
                                  ? tr(" Trees grown on %1 of the %2 rows, spread over each strategy's sizes and "
                                       "iterations; the cross-validation deals out those rows.")
                                            .arg(model.tree_rows)
                                            .arg(model.rows)
                                  : QString();
    m_info->setText(
            tr("%1: %2 rows, %3 strategies, sizes %4 to %5.%6 %7-fold cross-validation: MSE of p %8, of q %9.")
                    .arg(qs(set.source))
                    .arg(set.rows.size())
                    .arg(model.strategies.size())
                    .arg(formatNumber(model.min_size), formatNumber(model.max_size), grown)
                    .arg(m_eval->folds())
                    .arg(formatNumber(cv.p.mse), formatNumber(cv.q.mse)));
    if (m_eval->targetSize() > model.max_size)
        m_info->setText(m_info->text()
                        + tr(" Target size %1: past the largest training size, %2 (a new set starts one size step "
                             "beyond it).")
                                  .arg(formatNumber(m_eval->targetSize()), formatNumber(model.max_size)));
    fillTrees();
    const QSignalBlocker block(m_size); // a new set's target is one size step past its largest; otherwise it stays
    m_size->setEnabled(true);
    m_size->setValue(m_eval->targetSize());
}

void ExtrapolatePanel::addNode(QTreeWidgetItem *parent, const core::ModelTree &tree, int index,
                               const QString &label)
{
    const core::ModelTreeNode &n = tree.nodes()[std::size_t(index)];
    auto *item = new QTreeWidgetItem(parent);
    item->setText(1, QString::number(n.count));
    if (n.isLeaf()) {
        // The model that predicts here: smoothed along the path when the tree smooths.
        const QString model = qs(core::linearModelText(tree, tree.predictingModel(index))).trimmed();
        item->setText(0, label + QStringLiteral(" : ") + qs(core::leafName(n.leaf_number)));
        item->setToolTip(0, model);
        auto *equation = new QTreeWidgetItem(item);
        equation->setText(0, model);
        equation->setFirstColumnSpanned(true);
        return;
    }
    item->setText(0, label);
    const QString name = qs(tree.attributes()[std::size_t(n.attribute)]);
    const QString at = QString::number(n.threshold, 'g', 6);
    addNode(item, tree, n.left, name + QStringLiteral(" <= ") + at);
    addNode(item, tree, n.right, name + QStringLiteral(" > ") + at);
}

void ExtrapolatePanel::fillTrees()
{
    const core::ExtrapolationModel &model = *m_eval->model();
    m_tree->clear();
    for (const core::ModelTree *tree : {&model.q_tree, &model.p_tree}) {
        auto *top = new QTreeWidgetItem(m_tree);
        top->setText(0, tr("%1 (%2 leaves)").arg(qs(tree->target())).arg(tree->leafCount()));
        addNode(top, *tree, 0, tr("all rows"));
    }
    m_tree->expandAll();
    m_tree->resizeColumnToContents(0);
}

void ExtrapolatePanel::fillTable()
{
    m_table->setRowCount(0);
    m_send->setEnabled(false);
    if (!m_eval->predictionError().isEmpty())
        m_info->setText(m_eval->predictionError());
    const std::vector<core::StrategyPrediction> &predictions = m_eval->predictions();
    // The measured CPI at the target size, and each one's rank among them (lowest first).
    std::vector<std::optional<double>> measured;
    std::vector<double> sorted;
    for (const core::StrategyPrediction &s : predictions) {
        measured.push_back(m_eval->measuredCpi(s.strategy, s.size));
        if (measured.back())
            sorted.push_back(*measured.back());
    }
    std::sort(sorted.begin(), sorted.end());
    m_table->setColumnHidden(MeasuredCpi, sorted.empty());
    m_table->setRowCount(int(predictions.size()));
    for (int row = 0; row < int(predictions.size()); ++row) {
        const core::StrategyPrediction &s = predictions[std::size_t(row)];
        const QString clampNote = s.clamped ? tr("The trees gave p = %1, q = %2: clamped to [0, 1]")
                                                      .arg(formatNumber(s.p_tree), formatNumber(s.q_tree))
                                            : QString();
        const double cpi = s.markov.infinite ? std::numeric_limits<double>::infinity() : s.markov.cpi;
        m_table->setItem(row, Rank, cell(QString::number(row + 1)));
        const QString ids = mappingIdsFor(s.groups, s.threads_per_group);
        m_table->setItem(row, Strategy,
                         cell(ids.isEmpty() ? qs(s.strategy) : tr("%1 (Mapping: %2)").arg(qs(s.strategy), ids),
                              ids.isEmpty() ? QString()
                                            : tr("The Mapping view's %1 load the caches as %2 × %3: the same "
                                                 "Markov model")
                                                      .arg(ids)
                                                      .arg(s.groups)
                                                      .arg(s.threads_per_group)));
        m_table->setItem(row, P,
                         cell(formatNumber(s.p) + (s.clamped ? QStringLiteral(" *") : QString()), clampNote));
        m_table->setItem(row, Q,
                         cell(formatNumber(s.q) + (s.clamped ? QStringLiteral(" *") : QString()), clampNote));
        m_table->setItem(row, Model, cell(QStringLiteral("%1 × %2").arg(s.groups).arg(s.threads_per_group)));
        m_table->setItem(row, Cpi, cell(formatNumber(cpi)));
        if (const auto &m = measured[std::size_t(row)]) {
            const auto rank = std::lower_bound(sorted.begin(), sorted.end(), *m) - sorted.begin() + 1;
            const QString off = std::isfinite(cpi) ? tr("the prediction is off by %1 %")
                                                             .arg(QString::number(100 * (cpi - *m) / *m, 'f', 1))
                                                   : tr("the prediction is infinite");
            m_table->setItem(row, MeasuredCpi,
                             cell(tr("%1 (rank %2)").arg(formatNumber(*m)).arg(rank),
                                  tr("Measured at size %1: rank %2 of %3 measured; %4")
                                          .arg(formatNumber(s.size))
                                          .arg(rank)
                                          .arg(sorted.size())
                                          .arg(off)));
        } else {
            m_table->setItem(row, MeasuredCpi, cell(QString()));
        }
    }
    m_table->resizeColumnsToContents();
}

void ExtrapolatePanel::fillChart()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->legend->clearItems();
    if (!m_eval->model()) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const core::TrainingColumns &columns = m_eval->trainingSet()->columns;
    const bool showP = m_shown->currentData().toInt() == ShowP;
    m_plot->yAxis->setLabel(showP ? qs(columns.p) : qs(columns.q));
    const auto vec = [](const std::vector<double> &v) { return QVector<double>(v.begin(), v.end()); };
    const std::vector<ExtrapolateEvaluation::StrategyCurves> &curves = m_eval->curves();
    for (std::size_t k = 0; k < curves.size(); ++k) {
        const ExtrapolateEvaluation::StrategyCurves &c = curves[k];
        const QColor colour = kStrategyColours[k % std::size(kStrategyColours)];
        QCPGraph *points = m_plot->addGraph();
        points->setData(vec(c.point_size), vec(showP ? c.point_p : c.point_q));
        points->setLineStyle(QCPGraph::lsNone);
        points->setScatterStyle(QCPScatterStyle(kStrategyShapes[k % std::size(kStrategyShapes)], colour, 6));
        points->removeFromLegend();

        QCPGraph *curve = m_plot->addGraph();
        curve->setName(qs(c.strategy));
        curve->setData(vec(c.curve_size), vec(showP ? c.curve_p : c.curve_q));
        curve->setPen(QPen(colour, 1.5));
        curve->removeFromLegend();
        // The legend as the chart draws the strategy: its extrapolated line through its training markers.
        const QPen pen = curve->pen();
        const QCPScatterStyle marker = points->scatterStyle();
        m_plot->legend->addItem(new IconLegendItem(m_plot->legend, curve->name(),
                                                   [pen, marker](QCPPainter *painter, const QRectF &box) {
                                                       painter->setPen(pen);
                                                       painter->drawLine(QLineF(box.left(), box.center().y(),
                                                                                box.right(), box.center().y()));
                                                       marker.applyTo(painter, pen);
                                                       marker.drawShape(painter, box.center());
                                                   }));
    }
    const double target = m_eval->targetSize();
    const double from = m_eval->curveFrom();
    const double to = m_eval->curveTo();
    auto *line = new QCPItemStraightLine(m_plot);
    line->point1->setCoords(target, 0);
    line->point2->setCoords(target, 1);
    line->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
    m_plot->xAxis->setRange(from - 0.02 * (to - from), to + 0.02 * (to - from) + (to > from ? 0 : 1));
    m_plot->yAxis->setRange(0, 1.02);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ExtrapolatePanel::send()
{
    const QList<QTableWidgetItem *> selected = m_table->selectedItems();
    if (selected.isEmpty())
        return;
    const core::StrategyPrediction &s = m_eval->predictions()[std::size_t(selected.front()->row())];
    Q_EMIT sendToMarkov(s.groups, s.threads_per_group, s.p, s.q);
}

} // namespace crossroof::widgets
