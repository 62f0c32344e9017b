// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/comparison_curves.h"

#include "common/curve_thinning.h"
#include "common/number_format.h"
#include "common/plot_style.h"
#include "common/stamped_graph.h"
#include "common/static_text.h"
#include "common/symbol_text.h"
#include "common/dashed_graph.h"

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// One colour per what-if, in the order they were added: the first in the current f's blue, lighter (as the
/// compare mode always drew it), the others in colours the current curves do not use.
QColor colourOf(std::size_t i)
{
    using namespace plot_style;
    if (i == 0)
        return QColor(0x00, 0x72, 0xB2, 130);
    static const std::array<QColor, 5> others{kGreen, kPurple, kOrange, kSky, kGrey};
    QColor c = others[(i - 1) % others.size()];
    c.setAlpha(220);
    return c;
}

} // namespace

ComparisonCurves::ComparisonCurves(QCustomPlot *plot)
    : m_plot(plot)
{
}

const ComparisonCurves::Graphs &ComparisonCurves::at(std::size_t i)
{
    while (m_graphs.size() <= i) {
        const std::size_t j = m_graphs.size();
        const QColor colour = colourOf(j);
        // The first what-if keeps the current curves' colours, lighter; later ones take one colour for both.
        const QColor demand = j == 0 ? QColor(0xD5, 0x5E, 0x00, 130) : colour;
        Graphs g{};
        const bool autoAdd = m_plot->autoAddPlottableToLegend();
        m_plot->setAutoAddPlottableToLegend(false);
        // Dashed and dotted, drawn dash by dash on screen (DashedGraph): Qt's dasher's pixels, cheaper at DPR 2.
        g.f = new DashedGraph(m_plot->xAxis, m_plot->yAxis);
        g.f->setPen(QPen(colour, 1.5, Qt::DashLine));
        g.g = new DashedGraph(m_plot->xAxis, m_plot->yAxis);
        g.g->setPen(QPen(demand, 1.5, j == 0 ? Qt::DashLine : Qt::DotLine));
        g.g->setName(QObject::tr("what-if G(n−k)"));
        g.op = new StampedGraph(m_plot->xAxis, m_plot->yAxis);
        g.op->setName(QObject::tr("what-if operating point"));
        g.op->setPen(Qt::NoPen);
        g.op->setLineStyle(QCPGraph::lsNone);
        g.op->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(j == 0 ? plot_style::kGreen : colour, 2),
                                              Qt::white, 12));
        m_plot->setAutoAddPlottableToLegend(autoAdd);
        m_graphs.push_back(g);
    }
    return m_graphs[i];
}

QCPGraph *ComparisonCurves::supplyGraph(int i)
{
    return at(std::size_t(i)).f;
}

QCPGraph *ComparisonCurves::operatingGraph(int i)
{
    return at(std::size_t(i)).op;
}

QList<QCPGraph *> ComparisonCurves::graphs() const
{
    QList<QCPGraph *> all;
    for (const Graphs &g : m_graphs)
        all << g.f << g.g << g.op;
    return all;
}

ComparisonCurves::Extent ComparisonCurves::show(const std::vector<XModelEvaluation::Comparison> &comparisons,
                                                ThinnedGraphs *thinned)
{
    Extent extent;
    for (std::size_t i = 0; i < comparisons.size(); ++i) {
        const auto &cmp = comparisons[i];
        const Graphs &g = at(i);
        const auto &cc = cmp.curves;
        const QVector<double> keys(cc.k.begin(), cc.k.end());
        thinned->set(g.f, keys, QVector<double>(cc.f_gbs.begin(), cc.f_gbs.end()));
        thinned->set(g.g, keys, QVector<double>(cc.g_gbs.begin(), cc.g_gbs.end()));
        const auto &op = cmp.result.operatingPoint();
        g.op->setData({op.k}, {op.ms_gbs}, true);
        // The legend names the what-if and says where its operating point lies, as the operating point's does.
        g.f->setName(QObject::tr("what-if (%1): %2 at k = %3")
                             .arg(symbol_text::literal(cmp.label),
                                  formatQuantity(op.ms_gbs, QStringLiteral("B/s"), si::giga, 4),
                                  formatNumber(op.k, 3)));
        addLegendEntry(g.f);
        // All of its supply and its operating point in view (the demand may leave the top, as the current one).
        for (double f : cc.f_gbs) {
            if (std::isfinite(f))
                extent.top = std::max(extent.top, f);
        }
        extent.top = std::max(extent.top, op.ms_gbs);
        if (!cc.k.empty())
            extent.right = std::max(extent.right, cc.k.back());
    }
    for (std::size_t i = comparisons.size(); i < m_graphs.size(); ++i) {
        m_graphs[i].f->removeFromLegend();
        for (QCPGraph *g : {m_graphs[i].f, m_graphs[i].g, m_graphs[i].op})
            g->data()->clear();
    }
    return extent;
}

} // namespace crossroof::widgets
