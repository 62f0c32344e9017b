// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/hysteresis_chart.h"

#include "common/curve_thinning.h"
#include "common/dashed_graph.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/qt_text.h"
#include "common/static_text.h"
#include "stability/stability_map_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace crossroof::widgets {

HysteresisChart::HysteresisChart(QWidget *parent)
    : SteadyPlot(parent)
{
    setAccessibleName(tr("Hysteresis"));
    plot_style::setupAxes(this);
    PlotNavigator::install(this);
    yAxis->setLabel(tr("MS throughput (GB/s)"));
    m_bistable = addGraph();
    m_bistable->setName(tr("bistable range"));
    m_bistable->setPen(Qt::NoPen);
    m_bistable->setLineStyle(QCPGraph::lsStepCenter);
    // Behind the grid, in an opaque shade of the background: a translucent fill of the whole band cost more
    // than the branches.
    m_bistable->setLayer(QStringLiteral("background"));
    const auto shade = [this] { m_bistable->setBrush(plot_style::tintOnPaper(this, QColor(0xE6, 0x9F, 0x00, 50))); };
    shade();
    connect(this, &QCustomPlot::beforeReplot, this, shade); // the palette may have changed
    m_up = addGraph();
    m_up->setName(tr("rising"));
    m_up->setPen(QPen(plot_style::kBlue, 2));
    // Dashed, drawn dash by dash on screen (DashedGraph): the pixels of Qt's dasher for less work.
    m_down = new DashedGraph(xAxis, yAxis);
    m_down->setName(tr("lowering"));
    m_down->setPen(QPen(plot_style::kVermillion, 2, Qt::DashLine));
    m_jumps = addGraph();
    m_jumps->setName(tr("jumps"));
    m_jumps->setLineStyle(QCPGraph::lsNone);
    m_jumps->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(Qt::black, 1.5), Qt::white, 9));
    plot_style::placeLegendBelow(this);
    setMinimumSize(300, 280); // with its two-row legend, a plot of some 180 pixels
    m_thinned = new ThinnedGraphs(this);
}

void HysteresisChart::drawSweep(const StabilityEvaluation::Sweep &sweep)
{
    const core::HysteresisResult &h = sweep.result;
    const bool showK = sweep.showK;
    const std::string &key = sweep.key;
    const auto *info = core::findParameter(key);
    const std::vector<double> &values = sweep.values;
    const auto &up = showK ? h.up_k : h.up_gbs;
    const auto &down = showK ? h.down_k : h.down_gbs;
    QVector<double> x(h.values.begin(), h.values.end());
    // Drawn thinned, through both ends of every jump.
    std::vector<bool> keep(h.values.size(), false);
    for (const auto &j : h.jumps) {
        for (std::size_t i : {j.index - (j.index > 0 ? 1 : 0), j.index, std::min(j.index + 1, keep.size() - 1)})
            keep[i] = true;
    }
    m_thinned->set(m_up, x, QVector<double>(up.begin(), up.end()), keep);
    m_thinned->set(m_down, x, QVector<double>(down.begin(), down.end()), keep);
    yAxis->setLabel(showK ? tr("warps in memory, k") : tr("MS throughput (GB/s)"));
    plot_style::setShortLabel(yAxis, showK ? tr("k") : tr("GB/s"));
    double top = 0;
    for (double g : up)
        top = std::max(top, g);
    for (double g : down)
        top = std::max(top, g);
    top = top > 0 ? top * 1.1 : 1;
    QVector<double> band;
    for (int c : h.stable_count)
        band << (c >= 2 ? top : std::numeric_limits<double>::quiet_NaN());
    m_bistable->setData(x, band, true);
    QVector<double> jx, jy;
    for (const auto &j : h.jumps) {
        jx << j.to_value;
        jy << (showK ? j.to_k : j.to_gbs);
    }
    m_jumps->setData(jx, jy, false);
    // The legend names only what is drawn: no bistable range or jumps where the sweep has none.
    const bool bistable = std::any_of(h.stable_count.begin(), h.stable_count.end(), [](int c) { return c >= 2; });
    // Entries made again only when what is drawn changes: a new entry is a new layout of the legend, measured
    // again, at every step of a drag otherwise.
    std::vector<QCPGraph *> shown;
    for (QCPGraph *g : {m_bistable, m_up, m_down, m_jumps}) {
        if ((g != m_bistable || bistable) && (g != m_jumps || !h.jumps.empty()))
            shown.push_back(g);
    }
    std::vector<QCPGraph *> listed;
    for (QCPGraph *g : {m_bistable, m_up, m_down, m_jumps}) {
        if (legend->hasItemWithPlottable(g))
            listed.push_back(g);
    }
    if (listed != shown) {
        for (QCPGraph *g : {m_bistable, m_up, m_down, m_jumps})
            g->removeFromLegend();
        for (QCPGraph *g : shown)
            addLegendEntry(g);
    }
    plot_style::setLogScale(xAxis, info->log_scale && key != "n");
    if (!values.empty())
        xAxis->setRange(values.front(), values.back());
    yAxis->setRange(0, top);
    m_thinned->update(true); // for the ranges just set
    xAxis->setLabel(tr("%1, swept up then down").arg(parameterTitle(*info)));
    const QString symbol = qs(info->symbol);
    plot_style::setShortLabel(xAxis, info->unit.empty() ? symbol
                                                        : QStringLiteral("%1 (%2)").arg(symbol, qs(info->unit)));
    requestRedraw();
}

} // namespace crossroof::widgets
