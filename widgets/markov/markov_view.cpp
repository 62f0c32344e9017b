// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/markov_view.h"

#include "common/buffered_color_map.h"
#include "common/number_format.h"
#include "common/narrow_layout.h"
#include "common/plot_style.h"
#include "common/static_text.h"
#include "markov/coloured_surface.h"
#include "markov/counters_dialog.h"
#include "markov/markov_evaluation.h"
#include "markov/markov_slice_charts.h"
#include "markov/surface_axes.h"
#include "core/support/contour.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace crossroof::widgets {

MarkovView::MarkovView(QWidget *parent)
    : QWidget(parent)
    , m_eval(new MarkovEvaluation(this))
{
    auto *bar = new QHBoxLayout;
    auto *bar2 = new QHBoxLayout;
    createInputs(bar, bar2);
    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    createMap();
    m_charts = new MarkovSliceCharts(this);

    auto *plots = new QHBoxLayout;
    plots->addWidget(m_map, 3);
    plots->addWidget(m_charts, 2);
    stackWhenNarrow(this, plots, 640); // the slice and transient charts under the map
    stackWhenNarrow(this, bar, 760);
    stackWhenNarrow(this, bar2, 680);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(bar2);
    layout->addWidget(m_info);
    layout->addLayout(plots, 1);

    connectInputs();
    connect(m_eval, &MarkovEvaluation::updated, this, &MarkovView::showSurface);
    recompute();
}

std::vector<int> MarkovView::topology() const
{
    const core::CpuTopology *cpu = nullptr;
    if (const core::MappingStrategy *s = strategy(&cpu))
        return core::mappingUsage(*cpu, *s).threads_per_cache;
    return std::vector<int>(std::size_t(m_groups->value()), m_threads->value());
}

const core::MappingStrategy *MarkovView::strategy(const core::CpuTopology **topology,
                                                  const core::HardwareProfile **profile) const
{
    const QStringList source = m_topology->currentData().toString().split(QLatin1Char('/'));
    if (source.size() != 2)
        return nullptr;
    for (const auto &prof : m_cpuProfiles) {
        if (QString::fromStdString(prof.id) != source[0] || !prof.topology)
            continue;
        if (const core::MappingStrategy *s = prof.topology->findStrategy(source[1].toStdString())) {
            if (topology)
                *topology = &*prof.topology;
            if (profile)
                *profile = &prof;
            return s;
        }
    }
    return nullptr;
}

void MarkovView::setCpuProfiles(const std::vector<core::HardwareProfile> &profiles)
{
    const QString chosen = m_topology->currentData().toString();
    m_cpuProfiles.clear();
    for (const auto &prof : profiles) {
        if (prof.topology && !prof.topology->strategies.empty())
            m_cpuProfiles.push_back(prof);
    }
    {
        const QSignalBlocker block(m_topology);
        while (m_topology->count() > 1)
            m_topology->removeItem(1);
        for (const auto &prof : m_cpuProfiles) {
            m_topology->insertSeparator(m_topology->count());
            for (const auto &s : prof.topology->strategies) {
                const auto usage = core::mappingUsage(*prof.topology, s);
                const QString id = QString::fromStdString(s.id);
                // The strategy first: a narrow box elides the profile's name, not what tells strategies apart.
                m_topology->addItem(tr("%1 (%2) · %3").arg(id, QString::fromStdString(core::markovShapeText(usage.threads_per_cache)),
                                                          QString::fromStdString(prof.name)),
                                    QString(QString::fromStdString(prof.id) + QLatin1Char('/') + id));
                m_topology->setItemData(m_topology->count() - 1,
                                        tr("%1: %2; %3 threads on %4 cores, %5 %6 caches, %7 sockets")
                                                .arg(id, QString::fromStdString(s.description))
                                                .arg(usage.threads)
                                                .arg(usage.cores)
                                                .arg(usage.caches)
                                                .arg(QString::fromStdString(prof.topology->cache_level))
                                                .arg(usage.sockets),
                                        Qt::ToolTipRole);
            }
        }
        m_topology->setCurrentIndex(std::max(0, m_topology->findData(chosen)));
        // The list shows whole names even where the box itself elides them.
        m_topology->view()->setMinimumWidth(m_topology->view()->sizeHintForColumn(0) + 24);
    }
    if (m_topology->currentData().toString() != chosen)
        topologySourceChanged();
}

void MarkovView::topologySourceChanged()
{
    // A strategy fixes the topology: the spin boxes show its shape where it is uniform and are locked.
    const core::CpuTopology *cpu = nullptr;
    const core::MappingStrategy *s = strategy(&cpu);
    if (s) {
        const auto counts = core::mappingUsage(*cpu, *s).threads_per_cache;
        const QSignalBlocker b1(m_groups), b2(m_threads);
        m_groups->setValue(int(counts.size()));
        m_threads->setValue(*std::max_element(counts.begin(), counts.end()));
    }
    m_groups->setEnabled(!s);
    m_threads->setEnabled(!s);
    recompute();
}

const core::MarkovSurface &MarkovView::surface() const
{
    return m_eval->surface().surface;
}

QCPColorMap *MarkovView::colorMap() const
{
    return m_colorMap;
}

void MarkovView::recompute()
{
    MarkovEvaluation::Inputs inputs;
    inputs.grid = m_grid->currentData().toString().toStdString();
    inputs.shape = topology();
    if (m_transient->isChecked())
        inputs.steps = m_steps->value();
    inputs.measured_cpi = m_measured->value();
    m_eval->setInputs(std::move(inputs));
}

void MarkovView::showSurface()
{
    if (!m_eval->error().isEmpty()) {
        m_info->setText(m_eval->error());
        return;
    }
    const ColouredSurface &coloured = m_eval->surface();
    const std::size_t np = surface().p.size();
    const std::size_t nq = surface().q.size();
    const std::vector<double> &pAxis = coloured.p_axis;
    const std::vector<double> &qAxis = coloured.q_axis;
    m_map->xAxis->setTicker(probabilityTicker(coloured, surface().p, pAxis));
    m_map->yAxis->setTicker(probabilityTicker(coloured, surface().q, qAxis));

    const double lo = coloured.cpi_low;
    const double hi = m_eval->cpiHigh();
    m_colorMap->setCells(coloured.colourValues(), int(np), int(nq), QCPRange(pAxis.front(), pAxis.back()),
                         QCPRange(qAxis.front(), qAxis.back()));
    m_colorScale->setDataRange(QCPRange(std::log10(lo), std::log10(hi)));
    m_colorScale->axis()->setTicker(cpiTicker(lo, hi));
    const core::ContourLines &lines = m_eval->contours();
    m_contours->setData(QVector<double>(lines.x.begin(), lines.x.end()), QVector<double>(lines.y.begin(), lines.y.end()));
    // Each line's CPI on it, where the line lies farthest inside the map.
    for (QCPItemText *label : std::as_const(m_contourLabels))
        m_map->removeItem(label);
    m_contourLabels.clear();
    for (const MarkovEvaluation::ContourLabel &at : m_eval->contourLabels()) {
        auto *label = new StaticTextItem(m_map);
        label->position->setCoords(at.p, at.q);
        label->setPositionAlignment(Qt::AlignCenter);
        label->setText(formatNumber(at.cpi));
        label->setFont(plot_style::annotationFont());
        label->setColor(plot_style::kBlack);
        label->setBrush(QColor(255, 255, 255, 200));
        label->setPadding(QMargins(2, 0, 2, 0));
        plot_style::setPinnedLabel(label); // a value off its contour would name another
        m_contourLabels.append(label);
    }
    if (const core::ContourLines &iso = m_eval->measuredCurve(); !iso.x.empty())
        m_measuredCurve->setData(QVector<double>(iso.x.begin(), iso.x.end()), QVector<double>(iso.y.begin(), iso.y.end()));
    else
        m_measuredCurve->data()->clear();
    m_measuredCurve->setName(tr("measured CPI %1: every (p, q) that predicts it")
                                     .arg(formatNumber(m_eval->inputs().measured_cpi)));

    const double dp = np > 1 ? (pAxis.back() - pAxis.front()) / double(np - 1) / 2 : 0.5;
    const double dq = nq > 1 ? (qAxis.back() - qAxis.front()) / double(nq - 1) / 2 : 0.5;
    m_map->xAxis->setRange(pAxis.front() - dp, pAxis.back() + dp);
    m_map->yAxis->setRange(qAxis.front() - dq, qAxis.back() + dq);
    m_charts->setPAxis(probabilityTicker(coloured, surface().p, pAxis), pAxis.front() - dp, pAxis.back() + dp);
    for (QCPItemText *label : std::as_const(m_contourLabels))
        keepLabelInside(label); // a value at the map's edge moves in, whole

    const std::vector<int> &shape = m_eval->inputs().shape;
    m_counters->setTopology(shape); // the pairs' CPIs are predicted for it (nothing to do when unchanged)
    m_info->setText(infoText());
    m_map->replot(QCustomPlot::rpQueuedReplot);
    if (m_pIndex < 0 || m_qIndex < 0) {
        m_pIndex = int(np) / 2;
        m_qIndex = int(nq) * 4 / 5;
    }
    m_pIndex = std::clamp(m_pIndex, 0, int(np) - 1);
    m_qIndex = std::clamp(m_qIndex, 0, int(nq) - 1);
    refreshPairs();
    refreshSelection();
    Q_EMIT settingsChanged();
}

QString MarkovView::infoText() const
{
    const std::vector<int> &shape = m_eval->inputs().shape;
    const core::HardwareProfile *cpuProfile = nullptr;
    const core::MappingStrategy *chosen = strategy(nullptr, &cpuProfile);
    const QString source = chosen ? tr("%1 on %2: ").arg(QString::fromStdString(chosen->id),
                                                         QString::fromStdString(cpuProfile->name))
                                  : QString();
    auto extreme = [](const core::MarkovSurface::Extreme &e) {
        return e.infinite ? tr("infinite") : formatNumber(e.cpi);
    };
    return tr("%1%2 (groups × threads) = %3 threads, %4 system states. %5: CPI from %6 (p = %7, q = %8) "
              "to %9 (p = %10, q = %11). Contours at round CPI values; click to choose the slice.")
            .arg(source, QString::fromStdString(core::markovShapeText(shape)))
            .arg(std::accumulate(shape.begin(), shape.end(), 0LL))
            .arg(std::isfinite(surface().system_states) ? formatNumber(surface().system_states, 6)
                                                        : QString::fromStdString(core::systemStateCountText(shape)))
            .arg(m_eval->inputs().steps ? tr("After %1 steps").arg(*m_eval->inputs().steps) : tr("Steady state"))
            .arg(extreme(surface().min), formatNumber(surface().min.p), formatNumber(surface().min.q),
                 extreme(surface().max), formatNumber(surface().max.p), formatNumber(surface().max.q));
}

QCPGraph *MarkovView::sliceGraph() const
{
    return m_charts->sliceGraph();
}

QCPGraph *MarkovView::transientGraph() const
{
    return m_charts->transientGraph();
}

void MarkovView::selectPoint(int pIndex, int qIndex)
{
    m_pIndex = std::clamp(pIndex, 0, int(m_eval->surface().p_axis.size()) - 1);
    m_qIndex = std::clamp(qIndex, 0, int(m_eval->surface().q_axis.size()) - 1);
    refreshSelection();
    Q_EMIT settingsChanged();
}

void MarkovView::refreshSelection()
{
    if (m_eval->surface().p_axis.empty() || m_eval->surface().q_axis.empty())
        return;
    const auto pi = std::size_t(m_pIndex);
    const auto qj = std::size_t(m_qIndex);
    m_selection->setData({m_eval->surface().p_axis[pi]}, {m_eval->surface().q_axis[qj]}, true);
    arrangeMapLegend();
    m_map->replot(QCustomPlot::rpQueuedReplot);

    const std::optional<long long> steps
            = m_transient->isChecked() ? std::optional<long long>(m_steps->value()) : std::nullopt;
    m_charts->showPoint(m_eval->surface().surface, m_eval->surface().p_axis, pi, qj, topology(), steps);
}

core::MarkovSettings MarkovView::settings() const
{
    core::MarkovSettings s;
    s.groups = m_groups->value();
    s.threads_per_group = m_threads->value();
    s.topology_source = m_topology->currentData().toString().toStdString();
    s.grid = m_grid->currentData().toString().toStdString();
    if (m_transient->isChecked())
        s.steps = m_steps->value();
    s.p_index = m_pIndex;
    s.q_index = m_qIndex;
    if (m_measured->value() > 0)
        s.measured_cpi = m_measured->value();
    if (m_countersUsed)
        s.counters = m_counters->inputs();
    return s;
}

void MarkovView::setSettings(const core::MarkovSettings &s)
{
    {
        const QSignalBlocker b1(m_groups), b2(m_threads), b3(m_grid), b4(m_transient), b5(m_steps), b6(m_measured),
                b7(m_topology);
        // A strategy of a profile this Crossroof does not have falls back to the groups and threads saved with it.
        m_topology->setCurrentIndex(std::max(0, m_topology->findData(QString::fromStdString(s.topology_source))));
        m_groups->setEnabled(m_topology->currentIndex() == 0);
        m_threads->setEnabled(m_topology->currentIndex() == 0);
        m_measured->setValue(s.measured_cpi.value_or(0));
        m_groups->setValue(s.groups);
        m_threads->setValue(s.threads_per_group);
        const int grid = m_grid->findData(QString::fromStdString(s.grid));
        if (grid >= 0) {
            m_grid->setCurrentIndex(grid);
        } else {
            // A grid the combo box does not list (from a session or a script): add it.
            m_grid->addItem(QString::fromStdString(s.grid), QString::fromStdString(s.grid));
            m_grid->setCurrentIndex(m_grid->count() - 1);
        }
        m_transient->setChecked(s.steps.has_value());
        m_steps->setEnabled(s.steps.has_value());
        if (s.steps)
            m_steps->setValue(int(std::min<long long>(*s.steps, m_steps->maximum())));
    }
    m_pIndex = s.p_index;
    m_qIndex = s.q_index;
    m_countersUsed = s.counters.has_value();
    {
        // Restoring the counters is no edit; their measured CPI is already the view's.
        const QSignalBlocker block(m_counters);
        m_counters->setInputs(s.counters.value_or(core::CounterInputs::thesisExample()));
    }
    m_pairValues.clear();
    m_nearest.reset();
    recompute();
    if (m_countersUsed)
        setStartingPairs(m_counters->pairs(), m_counters->nearest());
}

void MarkovView::setStartingPairs(const std::vector<core::StartingPair> &pairs, std::optional<std::size_t> nearest)
{
    m_pairValues = pairs;
    m_nearest = nearest && *nearest < pairs.size() ? nearest : std::nullopt;
    refreshPairs();
}

void MarkovView::refreshPairs()
{
    if (surface().p.empty())
        return;
    QVector<double> x, y;
    for (const auto &pair : m_pairValues) {
        x << m_eval->surface().axisOf(pair.p, surface().p);
        y << m_eval->surface().axisOf(pair.q, surface().q);
    }
    m_pairs->setData(x, y);
    if (m_nearest)
        m_nearestPair->setData({x[int(*m_nearest)]}, {y[int(*m_nearest)]});
    else
        m_nearestPair->data()->clear();
    arrangeMapLegend();
    m_map->replot(QCustomPlot::rpQueuedReplot);
}

void MarkovView::selectProbabilities(double p, double q)
{
    if (!surface().p.empty())
        selectPoint(ColouredSurface::nearestIndex(surface().p, p), ColouredSurface::nearestIndex(surface().q, q));
}

QString MarkovView::describeAt(double u, double v) const
{
    if (m_eval->surface().p_axis.empty() || m_eval->surface().q_axis.empty())
        return {};
    const auto i = std::size_t(ColouredSurface::nearestIndex(m_eval->surface().p_axis, u));
    const auto j = std::size_t(ColouredSurface::nearestIndex(m_eval->surface().q_axis, v));
    const double cpi = surface().at(i, j);
    return tr("p = %1, q = %2: CPI = 1/(1 − P_all) = %3, P_all = Π_g (p/(p+1−q))^N_g at steady state")
            .arg(formatNumber(surface().p[i]), formatNumber(surface().q[j]),
                 std::isfinite(cpi) ? formatNumber(cpi) : tr("infinite"));
}

} // namespace crossroof::widgets
