// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/level_curves.h"

#include "common/number_format.h"
#include "common/plot_style.h"
#include "common/dashed_graph.h"
#include "core/xmodel/memory_levels.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <cmath>

namespace crossroof::widgets {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("XGraphView", text);
}

/// The symbols of level I: its name, bandwidth, latency and bytes per request.
struct LevelSymbols {
    const char *name, *bandwidth, *latency, *bytes;
};
constexpr std::array<LevelSymbols, 3> kSymbols {
        {{"L1", "R_l1", "L_s", "B_req"}, {"L2", "R_l2", "L_2", "B_l2"}, {"DRAM", "R_dram", "L", "B_dram"}}};

} // namespace

LevelCurves::LevelCurves(QCustomPlot *plot)
    : m_plot(plot)
{
    using namespace plot_style;
    const std::array<QPen, 3> pens {QPen(kSky, 1.4, Qt::DashDotLine), QPen(kPurple, 1.4, Qt::DashDotLine),
                                    QPen(kOrange, 1.4, Qt::DashDotLine)};
    for (std::size_t i = 0; i < m_graphs.size(); ++i) {
        // Dash-dotted, drawn dash by dash on screen (DashedGraph): the same pixels as Qt's dasher, cheaper at a
        // device pixel ratio of 2.
        m_graphs[i] = new DashedGraph(m_plot->xAxis, m_plot->yAxis);
        m_graphs[i]->setPen(pens[i]);
        m_graphs[i]->setName(tr("%1 supply").arg(QString::fromLatin1(kSymbols[i].name)));
    }
}

void LevelCurves::update(const core::XModel *model, double right, bool shown)
{
    for (QCPGraph *g : m_graphs)
        g->data()->clear();
    m_params.reset();
    if (!model || !shown || !(right > 0))
        return;
    const core::XModelParams &p = model->params();
    m_params = p;
    const auto levels = core::memoryLevels(p);
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const core::HierarchyLevel &level = levels[i];
        if (!std::isfinite(level.cap) || !(level.latency_cycles > 0))
            continue;
        // Straight but for the knee where the latency side meets the ceiling.
        QVector<double> ks {0};
        const double knee = level.cap * level.latency_cycles / p.m;
        if (knee > 0 && knee < right)
            ks << knee;
        ks << right;
        QVector<double> gbs;
        for (const double k : ks)
            gbs << model->toGbs(core::levelSupply(level, k, p.m));
        m_graphs[i]->setData(ks, gbs, true);
        m_graphs[i]->setName(
                tr("%1 supply, %2 = %3")
                        .arg(QString::fromLatin1(kSymbols[i].name),
                             QString::fromLatin1(kSymbols[i].bandwidth),
                             formatQuantity(level.bandwidth_gbs, QStringLiteral("B/s"), si::giga, 4)));
    }
}

QString LevelCurves::describeAt(double k, double gbs, double kTolerance, double gbsTolerance) const
{
    if (!m_params || k < -kTolerance)
        return {};
    const core::XModelParams &p = *m_params;
    const auto levels = core::memoryLevels(p);
    for (std::size_t i = 0; i < levels.size(); ++i) {
        if (m_graphs[i]->data()->isEmpty())
            continue;
        const core::HierarchyLevel &level = levels[i];
        const double kc = std::max(k, 0.0);
        const double value = core::levelSupply(level, kc, p.m) * p.gbsPerRequestRate();
        if (std::abs(value - gbs) > gbsTolerance)
            continue;
        const LevelSymbols &s = kSymbols[i];
        return tr("%1 supply f_%1(k) = min(k·m/%2, %3/(%4·clock·SMs)), %4 = %5 B per request, %2 = %6 "
                  "cycles, %3 = "
                  "%7: at k = %8 warps, %9 (requests of B_req = %10 B)")
                .arg(QString::fromLatin1(s.name), QString::fromLatin1(s.latency),
                     QString::fromLatin1(s.bandwidth), QString::fromLatin1(s.bytes),
                     formatNumber(level.bytes_per_request), formatNumber(level.latency_cycles),
                     formatQuantity(level.bandwidth_gbs, QStringLiteral("B/s"), si::giga, 4),
                     formatNumber(kc), formatQuantity(value, QStringLiteral("B/s"), si::giga, 4))
                .arg(formatNumber(p.workloadRequestBytes()));
    }
    return {};
}

} // namespace crossroof::widgets
