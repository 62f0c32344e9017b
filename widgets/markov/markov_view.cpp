// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/markov_view.h"

#include "common/buffered_color_map.h"

#include "common/icon_legend_item.h"
#include "common/labelled.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
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

void MarkovView::createInputs(QHBoxLayout *bar, QHBoxLayout *bar2)
{
    // The topology, and its groups and threads: side by side in a wide view, one above the other in a narrow one.
    auto *shape = new QHBoxLayout;
    m_topology = new QComboBox(this);
    m_topology->addItem(tr("Groups × threads"), QString());
    m_topology->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_topology->setMinimumContentsLength(22);
    m_topology->setToolTip(tr("The machine as the model sees it: G cache groups of N threads from the spin boxes, "
                              "or a thread-to-core mapping strategy of a CPU profile (one group per shared cache "
                              "it uses, with the threads bound to that cache's cores)"));
    addLabelled(bar, tr("T&opology"), m_topology);
    m_groups = new QSpinBox(this);
    m_groups->setRange(1, 64);
    m_groups->setValue(4);
    m_groups->setToolTip(tr("Cache groups G: threads sharing one L2 form a group; groups are independent"));
    addLabelled(shape, tr("&Groups"), m_groups);
    m_threads = new QSpinBox(this);
    m_threads->setRange(1, 64);
    m_threads->setValue(2);
    m_threads->setToolTip(tr("Threads per group N_g"));
    addLabelled(shape, tr("&Threads each"), m_threads);
    m_countersButton = new QPushButton(tr("p, q from &Counters…"), this);
    m_countersButton->setToolTip(tr("Estimate p and q from event counts of a single- and a multi-threaded run "
                                    "(perf stat), with the nine starting pairs and the one nearest a measured CPI"));
    shape->addWidget(m_countersButton);
    shape->addStretch(0); // takes the room only when the rows are stacked
    stackWhenNarrow(this, shape, 440); // groups, threads and the counters button need about 410 pixels abreast
    bar->addLayout(shape);
    m_grid = new QComboBox(this);
    m_grid->addItem(tr("Thesis grid, 25 × 25"), QStringLiteral("thesis"));
    m_grid->addItem(tr("Uniform, 100 × 100"), QStringLiteral("uniform:100"));
    m_grid->addItem(tr("Uniform, 400 × 400"), QStringLiteral("uniform:400"));
    m_grid->addItem(tr("Logit axes, 200 × 200"), QStringLiteral("logit:200"));
    m_grid->setToolTip(tr("The (p, q) grid: the thesis' 25 values per axis (0.001 … 0.999, section 5.3.1), a "
                          "uniform grid, or logit axes that stretch the ends near 0 and 1"));
    bar->addStretch(1);
    auto *grid = new QHBoxLayout;
    addLabelled(grid, tr("G&rid"), m_grid);
    grid->addStretch(0);
    bar2->addLayout(grid);
    auto *when = new QHBoxLayout;
    m_transient = new QCheckBox(tr("Transient:"), this);
    m_transient->setToolTip(tr("CPI after t steps from all threads active instead of at steady state"));
    m_steps = new QSpinBox(this);
    m_steps->setRange(1, 1000000);
    m_steps->setValue(10);
    m_steps->setSuffix(tr(" steps"));
    m_steps->setEnabled(false);
    m_measured = new QDoubleSpinBox(this);
    m_measured->setRange(0, 1e6);
    m_measured->setDecimals(3);
    m_measured->setSpecialValueText(tr("none"));
    m_measured->setToolTip(tr("A measured CPI (e.g. cycles/instructions from perf stat): its iso-CPI curve, every "
                              "(p, q) that predicts it, is drawn over the surface"));
    when->addWidget(m_transient);
    when->addWidget(m_steps);
    addLabelled(when, tr("&Measured CPI"), m_measured);
    when->addStretch(0);
    stackWhenNarrow(this, when, 440); // the transient steps and the measured CPI: about 410 pixels abreast
    bar2->addLayout(when);
    bar2->addStretch(1);
}

void MarkovView::createMap()
{
    // The surface: colour map, contours, colour scale.
    m_map = new QCustomPlot(this);
    plot_style::setupAxes(m_map);
    // The legend names the lines and marks drawn over the surface (arrangeMapLegend()), not the surface itself:
    // the colour scale beside it does.
    m_map->setAutoAddPlottableToLegend(false);
    PlotNavigator::install(m_map)->setLeftButtonTaken(true); // the left button picks (p, q)
    m_map->xAxis->setLabel(tr("p: probability that an active thread suspends per step"));
    m_map->yAxis->setLabel(tr("q: probability that a suspended thread stays suspended"));
    plot_style::setShortLabel(m_map->xAxis, tr("p (suspends)"));
    plot_style::setShortLabel(m_map->yAxis, tr("q (stays suspended)"));
    m_colorMap = new BufferedColorMap(m_map->xAxis, m_map->yAxis);
    m_colorMap->setInterpolate(false);
    m_colorScale = new QCPColorScale(m_map);
    // The map and its colour scale side by side in a row of their own, so that the legend below takes the
    // whole width (legendColumns() counts on it).
    QCPAxisRect *rect = m_map->axisRect();
    m_map->plotLayout()->take(rect);
    auto *row = new QCPLayoutGrid;
    m_map->plotLayout()->addElement(0, 0, row);
    row->addElement(0, 0, rect);
    row->addElement(0, 1, m_colorScale);
    m_colorScale->setType(QCPAxis::atRight);
    // The map holds log10(CPI) on a linear scale (cheaper to colour than a logarithmic data scale); the
    // colour scale's ticks are labelled in CPI.
    m_colorScale->axis()->setLabel(tr("CPI (cycles per instruction), log scale"));
    plot_style::setShortLabel(m_colorScale->axis(), tr("CPI (log)"));
    m_colorScale->setGradient(viridis());
    m_colorMap->setColorScale(m_colorScale);
    auto *margins = new QCPMarginGroup(m_map);
    m_map->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_colorScale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_contours = new QCPCurve(m_map->xAxis, m_map->yAxis);
    m_contours->setPen(QPen(QColor(255, 255, 255, 200), 1));
    m_contours->setName(tr("iso-CPI contours, their CPI on each"));
    m_measuredCurve = new QCPCurve(m_map->xAxis, m_map->yAxis);
    m_measuredCurve->setPen(QPen(plot_style::kVermillion, 3));
    m_measuredCurve->setName(tr("measured CPI")); // with its value (showSurface())
    m_selection = m_map->addGraph();
    m_selection->setName(tr("chosen (p, q): the slice and transient"));
    m_selection->setLineStyle(QCPGraph::lsNone);
    m_selection->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(plot_style::kVermillion, 2),
                                                 Qt::NoBrush, 14));
    // The nine starting pairs from counters (4.3.1), the nearest to the measured CPI larger.
    m_pairs = m_map->addGraph();
    m_pairs->setName(tr("starting pairs"));
    m_pairs->setLineStyle(QCPGraph::lsNone);
    m_pairs->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::white, 1.5), QBrush(plot_style::kSky), 9));
    m_nearestPair = m_map->addGraph();
    m_nearestPair->setName(tr("starting pair nearest the measured CPI"));
    m_nearestPair->setLineStyle(QCPGraph::lsNone);
    m_nearestPair->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::white, 2), QBrush(plot_style::kVermillion), 15));
    m_map->setMinimumSize(340, 300);

    plot_style::placeLegendBelow(m_map); // before the entries are made: they take the legend's font
    // White contours on the surface: their entry draws the line on the surface's middle colour.
    m_legendEntries.insert(m_contours, new IconLegendItem(m_map->legend, m_contours->name(),
                                                          [this](QCPPainter *painter, const QRectF &box) {
                                                              painter->fillRect(box.adjusted(0, 3, 0, -3),
                                                                                m_colorScale->gradient().color(
                                                                                        0.5, QCPRange(0, 1)));
                                                              painter->setPen(m_contours->pen());
                                                              painter->drawLine(QLineF(box.left(), box.center().y(),
                                                                                       box.right(), box.center().y()));
                                                          }));
    for (QCPAbstractPlottable *p : {static_cast<QCPAbstractPlottable *>(m_measuredCurve),
                                    static_cast<QCPAbstractPlottable *>(m_selection),
                                    static_cast<QCPAbstractPlottable *>(m_pairs),
                                    static_cast<QCPAbstractPlottable *>(m_nearestPair)}) {
        addLegendEntry(p);
        m_legendEntries.insert(p, m_map->legend->itemWithPlottable(p));
    }
    arrangeMapLegend();
}

void MarkovView::arrangeMapLegend()
{
    // Only what is drawn: the contours and the chosen point once there is a surface, the measured CPI's curve
    // where it crosses the grid, the starting pairs once taken from counters.
    const auto shown = [this](QCPAbstractPlottable *p, bool drawn) -> QCPAbstractLegendItem * {
        return drawn ? m_legendEntries.value(p) : nullptr;
    };
    const auto has = [](QCPAbstractPlottable *p) { return p->interface1D() && p->interface1D()->dataCount() > 0; };
    arrangeLegend(m_map->legend,
                  {shown(m_contours, has(m_contours)), shown(m_measuredCurve, has(m_measuredCurve)),
                   shown(m_selection, has(m_selection)), shown(m_pairs, has(m_pairs)),
                   shown(m_nearestPair, has(m_nearestPair))},
                  m_legendEntries.values());
}

void MarkovView::connectInputs()
{
    for (QSpinBox *box : {m_groups, m_threads, m_steps})
        connect(box, &QSpinBox::valueChanged, this, &MarkovView::recompute);
    connect(m_measured, &QDoubleSpinBox::valueChanged, this, &MarkovView::recompute);
    connect(m_topology, &QComboBox::currentIndexChanged, this, &MarkovView::topologySourceChanged);

    m_counters = new CountersDialog(this);
    connect(m_countersButton, &QPushButton::clicked, this, [this] {
        if (!m_countersUsed) {
            m_countersUsed = true;
            setStartingPairs(m_counters->pairs(), m_counters->nearest());
            Q_EMIT settingsChanged();
        }
        m_counters->show();
        m_counters->raise();
        m_counters->activateWindow();
    });
    connect(m_counters, &CountersDialog::resultsChanged, this,
            [this](const std::vector<core::StartingPair> &pairs, std::optional<std::size_t> nearest) {
                if (m_countersUsed)
                    setStartingPairs(pairs, nearest);
            });
    connect(m_counters, &CountersDialog::pairChosen, this, &MarkovView::selectProbabilities);
    connect(m_counters, &CountersDialog::inputsChanged, this, [this] {
        // A measured CPI typed or imported there is drawn here as its iso-CPI curve.
        if (const auto measured = m_counters->inputs().measured_cpi; measured && *measured != m_measured->value())
            m_measured->setValue(*measured);
        else
            Q_EMIT settingsChanged();
    });
    connect(m_grid, &QComboBox::currentIndexChanged, this, [this] {
        // Keep the chosen (p, q) on the new grid: the nearest grid point by value.
        std::optional<std::pair<double, double>> chosen;
        const core::MarkovSurface &s = surface();
        if (m_pIndex >= 0 && std::size_t(m_pIndex) < s.p.size() && std::size_t(m_qIndex) < s.q.size())
            chosen = std::pair(s.p[std::size_t(m_pIndex)], s.q[std::size_t(m_qIndex)]);
        if (chosen) {
            const auto values = core::MarkovGrid::fromText(m_grid->currentData().toString().toStdString()).values();
            auto nearest = [&](double v) {
                return int(std::min_element(values.begin(), values.end(), [v](double a, double b) {
                               return std::abs(a - v) < std::abs(b - v);
                           }) - values.begin());
            };
            m_pIndex = nearest(chosen->first);
            m_qIndex = nearest(chosen->second);
        }
        recompute();
    });
    connect(m_transient, &QCheckBox::toggled, this, [this](bool on) {
        m_steps->setEnabled(on);
        recompute();
    });
    m_map->setMouseTracking(true);
    connect(m_map, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        const QPointF pos = e->position();
        if (!m_map->axisRect()->rect().contains(pos.toPoint())) {
            Q_EMIT hoverTextChanged(QString());
            return;
        }
        Q_EMIT hoverTextChanged(describeAt(m_map->xAxis->pixelToCoord(pos.x()), m_map->yAxis->pixelToCoord(pos.y())));
    });
    connect(m_map, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        const QPointF pos = e->position();
        if (!m_map->axisRect()->rect().contains(pos.toPoint()))
            return;
        selectPoint(ColouredSurface::nearestIndex(m_eval->surface().p_axis, m_map->xAxis->pixelToCoord(pos.x())),
                    ColouredSurface::nearestIndex(m_eval->surface().q_axis, m_map->yAxis->pixelToCoord(pos.y())));
    });
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
