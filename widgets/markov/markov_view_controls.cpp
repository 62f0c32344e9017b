// SPDX-License-Identifier: GPL-3.0-or-later
// The Markov CPI view's controls and map, built and wired: the inputs' bars, the surface with its colour scale,
// contours and legend, and what each input changes.
#include "markov/markov_view.h"

#include "common/buffered_color_map.h"
#include "common/icon_legend_item.h"
#include "common/labelled.h"
#include "common/narrow_layout.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/static_text.h"
#include "markov/coloured_surface.h"
#include "markov/counters_dialog.h"
#include "markov/markov_evaluation.h"
#include "markov/markov_slice_charts.h"
#include "markov/surface_axes.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

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

} // namespace crossroof::widgets
