// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/markov_slice_charts.h"

#include "common/curve_thinning.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

MarkovSliceCharts::MarkovSliceCharts(QWidget *parent)
    : QWidget(parent)
{
    m_slice = new QCustomPlot(this);
    plot_style::setupAxes(m_slice);
    PlotNavigator::install(m_slice);
    plot_style::setLogScale(m_slice->yAxis, true);
    m_slice->yAxis->setLabel(tr("CPI"));
    m_sliceGraph = m_slice->addGraph();
    m_sliceGraph->setPen(QPen(plot_style::kBlue, 2));
    m_transient = new QCustomPlot(this);
    plot_style::setupAxes(m_transient);
    PlotNavigator::install(m_transient);
    m_transient->xAxis->setLabel(tr("steps t from all-active"));
    m_transient->yAxis->setLabel(tr("CPI after t steps"));
    m_transientGraph = m_transient->addGraph();
    m_transientGraph->setPen(QPen(plot_style::kVermillion, 2));
    for (QCustomPlot *p : {m_slice, m_transient})
        p->setMinimumSize(220, 200);
    // A fine grid's slice (400 points) and a long transient (up to 2,000) are drawn thinned.
    m_sliceThinned = new ThinnedGraphs(m_slice);
    m_transientThinned = new ThinnedGraphs(m_transient);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slice, 1);
    layout->addWidget(m_transient, 1);
}

void MarkovSliceCharts::setPAxis(const QSharedPointer<QCPAxisTicker> &ticker, double lower, double upper)
{
    m_slice->xAxis->setTicker(ticker);
    m_slice->xAxis->setRange(lower, upper);
}

void MarkovSliceCharts::showPoint(const core::MarkovSurface &surface, const std::vector<double> &pAxis,
                                  std::size_t pi, std::size_t qj, const std::vector<int> &shape,
                                  std::optional<long long> steps)
{
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    QVector<double> x, y;
    double top = 1;
    for (std::size_t i = 0; i < pAxis.size(); ++i) {
        const double v = surface.at(i, qj);
        x << pAxis[i];
        y << (std::isfinite(v) ? v : kNaN);
        if (std::isfinite(v))
            top = std::max(top, v);
    }
    // Dots show the grid points on the coarse thesis grid, every one of them; on fine grids they would only
    // cost paint time, and the curve is drawn thinned.
    const bool coarse = pAxis.size() <= 50;
    m_sliceThinned->clear();
    if (coarse)
        m_sliceGraph->setData(x, y, true);
    else
        m_sliceThinned->set(m_sliceGraph, x, y);
    m_sliceGraph->setScatterStyle(QCPScatterStyle(coarse ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssNone, 4));
    m_slice->yAxis->setRange(0.9, top * 1.3);
    m_sliceThinned->update(true);
    m_slice->xAxis->setLabel(tr("p, at q = %1").arg(formatNumber(surface.q[qj])));
    m_slice->replot(QCustomPlot::rpQueuedReplot);

    // The transient from all-active at the chosen point rises and saturates at the steady state.
    const double p = surface.p[pi];
    const double q = surface.q[qj];
    core::MarkovTopology topo;
    for (int n : shape)
        topo.push_back({n, p, q});
    const long long horizon = std::max<long long>(50, steps ? 2LL * *steps : 0);
    const long long count = std::min<long long>(horizon, 2000);
    QVector<double> t, c;
    double tTop = 1;
    for (long long i = 0; i <= count; ++i) {
        const long long step = horizon * i / count;
        const auto r = core::solveMarkovExact(topo, step);
        t << double(step);
        c << (r.infinite ? kNaN : r.cpi);
        if (!r.infinite)
            tTop = std::max(tTop, r.cpi);
    }
    m_transientThinned->set(m_transientGraph, t, c);
    m_transient->xAxis->setRange(0, double(horizon));
    m_transient->yAxis->setRange(0.95, tTop * 1.1);
    m_transientThinned->update(true);
    m_transient->xAxis->setLabel(
            tr("steps t from all-active (p = %1, q = %2)").arg(formatNumber(p), formatNumber(q)));
    m_transient->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace crossroof::widgets
