// SPDX-License-Identifier: GPL-3.0-or-later
#include "skeleton/skeleton_view.h"

#include "skeleton/gantt_boxes.h"
#include "skeleton/graph_links.h"
#include "skeleton/skeleton_evaluation.h"

#include "common/labelled.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/narrow_layout.h"
#include "common/plot_style.h"
#include "core/profiles/profile_library.h"
#include "core/skeleton/bundled_skeletons.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <optional>

namespace crossroof::widgets {

namespace {

constexpr const char *kDefaultProfile = "xeon-phi-7210";

/// The cycles typed into a measured cell: a finite number above 0, or none.
std::optional<double> cyclesIn(const QString &text)
{
    bool ok = false;
    const double cycles = text.trimmed().toDouble(&ok);
    return ok && cycles >= core::kMinMeasuredCycles && cycles <= core::kMaxMeasuredCycles ? std::optional<double>(cycles)
                                                                                           : std::nullopt;
}

QCustomPlot *makePlot(QWidget *parent, const QString &x, const QString &y, const QString &name)
{
    auto *plot = new QCustomPlot(parent);
    plot_style::setupAxes(plot);
    PlotNavigator::install(plot);
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    plot->setAccessibleName(name);
    return plot;
}

} // namespace

SkeletonView::SkeletonView(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_editPause(new QTimer(this))
    , m_eval(new SkeletonEvaluation(this))
{
    m_editPause->setSingleShot(true);
    m_editPause->setInterval(kEditPauseMs);
    connect(m_eval, &SkeletonEvaluation::updated, this, &SkeletonView::showProjection);
    for (const core::HardwareProfile &p : core::bundledProfiles())
        if (p.core_model)
            m_profiles.push_back(p);

    // What runs (sample, core) and how (unroll, use): one row in a wide view, two in a narrow one.
    auto *bar = new QHBoxLayout;
    auto *what = new QHBoxLayout;
    auto *how = new QHBoxLayout;
    m_sampleBox = new QComboBox(this);
    m_sampleBox->addItem(tr("(your own)"));
    for (const core::BundledSkeleton &b : core::bundledSkeletons())
        m_sampleBox->addItem(QString::fromLatin1(b.name.data(), qsizetype(b.name.size())));
    m_sampleBox->setToolTip(tr("Load a bundled sample skeleton into the editor"));
    addLabelled(what, tr("&Sample"), m_sampleBox);
    m_profileBox = new QComboBox(this);
    for (const core::HardwareProfile &p : m_profiles)
        m_profileBox->addItem(QString::fromStdString(p.name), QString::fromStdString(p.id));
    m_profileBox->setToolTip(tr("The CPU whose core model (pipelines, latencies, memory levels) runs the skeleton"));
    // Long CPU names elide in a narrow view rather than push it wider than its pane.
    m_profileBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_profileBox->setMinimumContentsLength(14);
    addLabelled(what, tr("&Core"), m_profileBox);
    m_unroll = new QSpinBox(this);
    m_unroll->setRange(1, core::kMaxUnroll);
    m_unroll->setToolTip(tr("The unroll factor the schedule chart, Z and E use"));
    addLabelled(how, tr("&Unroll"), m_unroll);
    m_use = new QPushButton(tr("Use in &X-graph"), this);
    m_use->setToolTip(tr("Set the X-graph's Z (statements per memory request) and E (the schedule's ILP) to the "
                         "skeleton's at the unroll factor above, one undo step. Refused while the X-graph shows a "
                         "GPU: a CPU core's Z and E do not describe it."));
    m_use->setEnabled(false);
    how->addWidget(m_use);
    for (QHBoxLayout *row : {what, how}) {
        row->addStretch(0); // takes the room only when the rows are stacked
        bar->addLayout(row);
    }
    bar->addStretch(1);
    stackWhenNarrow(this, bar, 760);

    m_editor = new QPlainTextEdit(this);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setAccessibleName(tr("Skeleton"));
    m_errorLabel = new QLabel(this);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setStyleSheet(QStringLiteral("color: #D55E00"));
    m_useNote = new QLabel(this);
    m_useNote->setWordWrap(true);
    m_useNote->setVisible(false);
    m_readout = new QLabel(this);
    m_readout->setWordWrap(true);
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    // The graph's columns are its depths, left to right, wrapping into rows where they do not fit the width:
    // no scale to read off either axis.
    m_graphTitle = tr("dependency depth, left to right");
    m_graphPlot = makePlot(this, m_graphTitle, QString(), tr("Dependency graph"));
    plot_style::setShortLabelsTitle(m_graphPlot->xAxis, tr("depth, left to right (nodes: the statement's line)"));
    for (QCPAxis *axis : {m_graphPlot->xAxis, m_graphPlot->yAxis}) {
        axis->setTicks(false);
        axis->setTickLabels(false);
    }
    m_ganttPlot = makePlot(this, tr("cycle (paler: latency)"), QString(), tr("Schedule by pipeline"));
    // The graph's edges and dots, under the nodes' labels (made before any label).
    m_edges = new GraphLinks(m_graphPlot->xAxis, m_graphPlot->yAxis);
    m_edges->setPen(QPen(plot_style::kGrey, 1.0));
    m_criticalEdges = new GraphLinks(m_graphPlot->xAxis, m_graphPlot->yAxis);
    m_criticalEdges->setPen(QPen(plot_style::kVermillion, 2.0));
    m_dots = new GraphLinks(m_graphPlot->xAxis, m_graphPlot->yAxis);
    m_dots->setPen(QPen(plot_style::kBlue, 1.5));
    m_criticalDots = new GraphLinks(m_graphPlot->xAxis, m_graphPlot->yAxis);
    m_criticalDots->setPen(QPen(plot_style::kVermillion, 1.5));
    for (GraphLinks *links : {m_edges, m_criticalEdges, m_dots, m_criticalDots}) {
        links->setBrush(Qt::white);
        links->removeFromLegend();
    }
    m_ganttBoxes = new GanttBoxes(m_ganttPlot->xAxis, m_ganttPlot->yAxis);
    m_ganttBoxes->setBrush(plot_style::kBlue);
    m_ganttBoxes->setName(tr("issue"));
    m_ganttCritical = new GanttBoxes(m_ganttPlot->xAxis, m_ganttPlot->yAxis);
    m_ganttCritical->setBrush(plot_style::kVermillion);
    m_ganttCritical->setName(tr("critical path"));
    // What the two colours and the paler bars are, in a row under the chart: the boxes fill the lanes, and a
    // legend over them hid the schedule's first cycles.
    plot_style::placeLegendBelow(m_ganttPlot);
    // The right axis names every other lane where the plot is short (LaneTicker), in the left one's range.
    m_ganttPlot->yAxis2->setVisible(true);
    m_ganttPlot->yAxis2->setTicks(true); // QCustomPlot draws tick labels only with their ticks
    m_ganttPlot->yAxis2->setTickLabels(true);
    m_ganttPlot->yAxis2->setSubTicks(false);
    connect(m_ganttPlot->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), m_ganttPlot->yAxis2,
            qOverload<const QCPRange &>(&QCPAxis::setRange));
    m_unrollPlot = makePlot(this, tr("unroll factor"), tr("cycles per iteration"), tr("Cycles against unroll"));
    plot_style::setShortLabel(m_unrollPlot->yAxis, tr("cycles"));
    // Unroll factors are whole numbers: ticks on whole numbers only.
    QSharedPointer<QCPAxisTickerFixed> whole(new QCPAxisTickerFixed);
    whole->setTickStep(1);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_unrollPlot->xAxis->setTicker(whole);
    auto *cycles = m_unrollPlot->addGraph();
    cycles->setPen(QPen(plot_style::kBlue, 1.5));
    cycles->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    cycles->setName(tr("with spills"));
    auto *best = m_unrollPlot->addGraph();
    best->setName(tr("best"));
    best->setLineStyle(QCPGraph::lsNone);
    best->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(plot_style::kVermillion, 2), Qt::NoBrush, 12));

    auto *measured = m_unrollPlot->addGraph();
    measured->setLineStyle(QCPGraph::lsNone);
    measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(plot_style::kVermillion, 2), Qt::NoBrush, 9));
    measured->setName(tr("measured"));
    auto *scheduleOnly = m_unrollPlot->addGraph();
    scheduleOnly->setPen(QPen(plot_style::kBlue, 1, Qt::DashLine));
    scheduleOnly->setName(tr("no spills"));
    // The two curves named under the plot, or in a figure inside it where that covers neither curve; the best
    // factor is named by its label.
    best->removeFromLegend();
    plot_style::placeLegendBelow(m_unrollPlot);

    m_table = new QTableWidget(core::kMaxUnroll, 4, this);
    m_table->setHorizontalHeaderLabels(
            {tr("Unroll"), tr("Projected (cycles)"), tr("Measured (cycles)"), tr("Error")});
    m_table->verticalHeader()->hide();
    // Every heading whole; the error column takes what width is left.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Type the cycles you measured for the whole loop nest at an unroll factor; the error "
                           "is (projected − measured) / measured"));
    m_table->setAccessibleName(tr("Projected and measured cycles"));
    for (int row = 0; row < core::kMaxUnroll; ++row) {
        for (int col = 0; col < 4; ++col) {
            auto *item = new QTableWidgetItem;
            if (col != MeasuredColumn)
                item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, col, item);
        }
        m_table->item(row, FactorColumn)->setText(QString::number(row + 1));
    }

    // Small enough minimums that the editor, readout and table share a 1024x700 window's height without the
    // view scrolling; each scrolls its own text.
    m_editor->setMinimumHeight(90);
    m_table->setMinimumHeight(90);
    // A splitter, not a box layout: the readout's wrapped text would make the view ask for its height at each
    // width, taller than a 1024x700 window, and the view would scroll.
    auto *results = new QWidget(this);
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_errorLabel);
    resultsLayout->addWidget(m_useNote);
    resultsLayout->addWidget(m_readout, 1);
    auto *resultsArea = new QScrollArea(this); // a long readout scrolls in its pane
    resultsArea->setWidget(results);
    resultsArea->setWidgetResizable(true);
    resultsArea->setFrameShape(QFrame::NoFrame);
    resultsArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false);
    left->addWidget(m_editor);
    left->addWidget(resultsArea);
    left->addWidget(m_table);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setStretchFactor(2, 2);
    left->setSizes({300, 200, 200}); // shares, scaled to the height it gets
    // The graph's margins follow its width (a resize, the tabs of a narrow view) and its labels' font (a
    // figure's); a zoom or pan at the same size stays.
    connect(m_graphPlot, &QCustomPlot::afterLayout, this, [this] {
        fitGraphShareToFigure();
        const QPair<QSize, QSize> laidOut(m_graphPlot->axisRect()->size(), largestGraphNode(false));
        if (laidOut == m_graphLaidOut)
            return;
        m_graphLaidOut = laidOut;
        fitGraphRanges();
        m_graphPlot->replot(QCustomPlot::rpQueuedReplot);
    });
    auto *plots = new QVBoxLayout;
    m_plotTabs = new QTabWidget(this);
    m_plotTabs->setDocumentMode(true);
    // Below 1000 pixels (a 1024x700 window) the three plots are tabs beside the editor, each with the whole
    // height, instead of three strips or a view that scrolls.
    tabWhenNarrow(this, plots, m_plotTabs,
                  {{m_graphPlot, tr("Dependency graph"), 3}, {m_ganttPlot, tr("Schedule"), 2},
                   {m_unrollPlot, tr("Unroll"), 2}},
                  1000);
    auto *middle = new QHBoxLayout;
    middle->addWidget(left, 2);
    middle->addLayout(plots, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(middle, 1);
    stackWhenNarrow(this, middle, 560); // a pane of Side by Side: the plots under the editor; it scrolls

    connect(m_sampleBox, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            setText(QString::fromUtf8(core::bundledSkeletons()[std::size_t(index - 1)].text.data(),
                                      qsizetype(core::bundledSkeletons()[std::size_t(index - 1)].text.size())));
    });
    // Typing waits for a pause; a text set as a whole (a sample, a session) is projected at once.
    connect(m_editPause, &QTimer::timeout, this, &SkeletonView::recompute);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_settingText)
            recompute();
        else
            m_editPause->start();
    });
    connect(m_profileBox, &QComboBox::currentIndexChanged, this, &SkeletonView::recompute);
    connect(m_unroll, &QSpinBox::valueChanged, this, &SkeletonView::recompute);
    connect(m_use, &QPushButton::clicked, this, &SkeletonView::useInXGraph);
    connect(m_table, &QTableWidget::itemChanged, this, &SkeletonView::measuredEdited);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &SkeletonView::settingsChanged);
    connect(m_profileBox, &QComboBox::currentIndexChanged, this, &SkeletonView::settingsChanged);
    connect(m_unroll, &QSpinBox::valueChanged, this, &SkeletonView::settingsChanged);

    setProfile(QString::fromLatin1(kDefaultProfile));
    m_unroll->setValue(4);
    loadSample(defaultSample());
}

const std::optional<core::SkeletonProjection> &SkeletonView::projection() const
{
    return m_eval->projection();
}

const std::optional<core::SkeletonWorkload> &SkeletonView::workload() const
{
    return m_eval->workload();
}

const QString &SkeletonView::error() const
{
    return m_eval->error();
}

core::SkeletonSettings SkeletonView::settings() const
{
    core::SkeletonSettings s;
    s.text = text().toStdString();
    s.profile_id = profileId().toStdString();
    s.unroll = unroll();
    s.measured = measured();
    return s;
}

void SkeletonView::setSettings(const core::SkeletonSettings &s)
{
    setProfile(QString::fromStdString(s.profile_id));
    setUnroll(s.unroll);
    setMeasured(s.measured);
    if (s.text)
        setText(QString::fromStdString(*s.text));
    else
        loadSample(defaultSample());
}

bool SkeletonView::loadSample(const QString &name)
{
    const std::string wanted = name.toStdString();
    const auto &samples = core::bundledSkeletons();
    const auto it = std::find_if(samples.begin(), samples.end(),
                                 [&wanted](const core::BundledSkeleton &b) { return b.name == wanted; });
    if (it == samples.end())
        return false;
    setText(QString::fromUtf8(it->text.data(), qsizetype(it->text.size())));
    return true;
}

void SkeletonView::setText(const QString &text)
{
    const QScopedValueRollback setting(m_settingText, true);
    m_editor->setPlainText(text);
}

QString SkeletonView::text() const
{
    return m_editor->toPlainText();
}

bool SkeletonView::setProfile(const QString &id)
{
    const int index = m_profileBox->findData(id);
    if (index < 0)
        return false;
    m_profileBox->setCurrentIndex(index);
    return true;
}

QString SkeletonView::profileId() const
{
    return m_profileBox->currentData().toString();
}

void SkeletonView::setUnroll(int factor)
{
    m_unroll->setValue(factor);
}

int SkeletonView::unroll() const
{
    return m_unroll->value();
}

bool SkeletonView::editPending() const
{
    return m_editPause->isActive();
}

void SkeletonView::recompute()
{
    m_editPause->stop(); // whatever was typed is in the text projected now
    const QString skeleton = text();
    // The Sample box names the bundled sample the editor holds (the one shown at the start too), and "(your own)"
    // once the text is another.
    int sample = 0;
    const auto &samples = core::bundledSkeletons();
    for (std::size_t i = 0; i < samples.size() && sample == 0; ++i) {
        if (skeleton == QString::fromUtf8(samples[i].text.data(), qsizetype(samples[i].text.size())))
            sample = int(i) + 1;
    }
    m_sampleBox->setCurrentIndex(sample);
    const int index = m_profileBox->currentIndex();
    if (index < 0)
        return;
    m_eval->setInputs(skeleton, *m_profiles[std::size_t(index)].core_model, unroll());
}

void SkeletonView::showProjection()
{
    m_errorLabel->setText(m_eval->error());
    m_errorLabel->setVisible(!m_eval->error().isEmpty());
    if (!m_eval->projection())
        return;
    m_use->setEnabled(m_eval->error().isEmpty());
    if (!m_eval->error().isEmpty()) {
        markStale();
        return;
    }
    clearStale();
    drawGraph();
    drawGantt();
    drawUnroll();
    updateReadout();
    updateMeasured();
}


void SkeletonView::updateReadout()
{
    const core::SkeletonProjection &p = *m_eval->projection();
    const core::UnrollPoint &at = p.point(unroll());
    QString z = m_eval->workload()->Z ? QString::number(*m_eval->workload()->Z, 'g', 4) : tr("none (no loads or stores)");
    m_readout->setText(
            tr("<b>Critical path</b> %1 cycles. <b>Unroll %2:</b> %3 cycles per iteration, %4 cycles for the "
               "nest (%5 of first touch, streams held in %6).<br><b>Best unroll %7.</b> %8<br>"
               "<b>X-model at unroll %2:</b> Z = %9, E = %10")
                    .arg(p.critical.cycles)
                    .arg(unroll())
                    .arg(at.cycles_per_iteration, 0, 'g', 4)
                    .arg(at.total_cycles, 0, 'f', 0)
                    .arg(p.first_touch_cycles, 0, 'f', 0)
                    .arg(QString::fromStdString(p.stream_level))
                    .arg(p.best_unroll)
                    .arg(QString::fromStdString(p.reasoning).toHtmlEscaped())
                    .arg(z)
                    .arg(m_eval->workload()->E, 0, 'g', 4));
}

void SkeletonView::useInXGraph()
{
    if (editPending())
        recompute();
    if (!m_eval->workload())
        return;
    m_useNote->setVisible(true);
    const QString core = m_profileBox->currentText();
    const core::HardwareProfile &target = m_state->profile();
    const QString machine = QString::fromStdString(target.name);
    if (!m_eval->error().isEmpty()) {
        m_useNote->setText(tr("Not used: the text does not parse, and the Z and E shown are of the last text "
                              "that did."));
        return;
    }
    if (target.kind != "cpu") {
        m_useNote->setText(tr("Not used: the X-graph shows %1, a %2, and the skeleton's Z and E are of a CPU core "
                              "(%3). Load a CPU profile in the X-graph first.")
                                   .arg(machine, QString::fromStdString(target.kind).toUpper(), core));
        return;
    }
    const auto &w = *m_eval->workload();
    QUndoStack *undo = m_state->undoStack();
    undo->beginMacro(tr("Use the skeleton's Z and E"));
    if (w.Z)
        m_state->applyValue(QStringLiteral("Z"), *w.Z);
    m_state->applyValue(QStringLiteral("E"), w.E);
    undo->endMacro();
    QString note = (w.Z ? tr("Set Z = %1 and E = %2").arg(*w.Z, 0, 'g', 4) : tr("Set E = %2 (no loads or stores: Z "
                                                                               "kept)"))
                           .arg(w.E, 0, 'g', 4);
    note += tr(" in the X-graph of %1, from the skeleton at unroll %2 on the core of %3.").arg(machine).arg(w.factor).arg(core);
    if (QString::fromStdString(target.id) != profileId())
        note += tr(" That is another CPU than the one the skeleton was projected on.");
    m_useNote->setText(note);
}

std::vector<std::pair<int, double>> SkeletonView::measured() const
{
    std::vector<std::pair<int, double>> out;
    for (int row = 0; row < core::kMaxUnroll; ++row) {
        if (const auto cycles = cyclesIn(m_table->item(row, MeasuredColumn)->text()))
            out.emplace_back(row + 1, *cycles);
    }
    return out;
}

void SkeletonView::setMeasured(const std::vector<std::pair<int, double>> &measured)
{
    {
        const QSignalBlocker block(m_table);
        for (int row = 0; row < core::kMaxUnroll; ++row)
            m_table->item(row, MeasuredColumn)->setText(QString());
        for (const auto &[factor, cycles] : measured) {
            if (factor >= 1 && factor <= core::kMaxUnroll)
                m_table->item(factor - 1, MeasuredColumn)->setText(QString::number(cycles, 'g', 15));
        }
    }
    updateMeasured();
}

void SkeletonView::measuredEdited(QTableWidgetItem *item)
{
    if (item->column() != MeasuredColumn)
        return;
    updateMeasured();
    Q_EMIT settingsChanged();
}

void SkeletonView::updateMeasured()
{
    const QSignalBlocker block(m_table);
    QVector<double> x, y;
    for (int row = 0; row < core::kMaxUnroll; ++row) {
        QTableWidgetItem *measuredItem = m_table->item(row, MeasuredColumn);
        QTableWidgetItem *error = m_table->item(row, ErrorColumn);
        const QString text = measuredItem->text().trimmed();
        const std::optional<double> cycles = cyclesIn(text);
        const bool valid = cycles.has_value();
        measuredItem->setForeground(text.isEmpty() || valid ? palette().text() : QBrush(plot_style::kVermillion));
        measuredItem->setToolTip(text.isEmpty() || valid ? QString()
                                                         : tr("Not a number of cycles from 1 to 1e300 (those of the whole nest): '%1'").arg(text));
        if (!m_eval->projection()) {
            error->setText(QString());
            continue;
        }
        const core::UnrollPoint &p = m_eval->projection()->point(row + 1);
        m_table->item(row, ProjectedColumn)->setText(QString::number(p.total_cycles, 'f', 0));
        if (!valid) {
            error->setText(QString());
            continue;
        }
        error->setText(QStringLiteral("%1 %").arg(core::projectionErrorPercent(p.total_cycles, *cycles), 0, 'f', 1));
        // On the chart per iteration, scaled as the projection is.
        x.push_back(row + 1);
        y.push_back(*cycles * p.cycles_per_iteration / p.total_cycles);
    }
    m_unrollPlot->graph(2)->setData(x, y, true);
    if (y.empty()) // named in the legend only when there is a measured point
        m_unrollPlot->graph(2)->removeFromLegend();
    else
        m_unrollPlot->graph(2)->addToLegend();
    if (!y.empty()) {
        const double top = std::max(m_unrollPlot->yAxis->range().upper, *std::max_element(y.begin(), y.end()) * 1.1);
        m_unrollPlot->yAxis->setRange(0, top);
    }
    m_unrollPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace crossroof::widgets
