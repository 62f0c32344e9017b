// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/kernel_names.h"

#include "common/curve_thinning.h"
#include "common/point_labels.h"
#include "common/steady_plot.h"
#include "state/kernel_label.h"
#include "core/traces/ncu_csv.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

KernelNames::KernelNames(QCustomPlot *plot)
    : QObject(plot)
    , m_plot(plot)
{
    // Placed for the ranges and size the plot is laid out for, before it draws; a figure places its own
    // (the export holds the plot at full detail meanwhile).
    connect(plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_plot && !m_plot->property(kFullDetailProperty).toBool())
            place();
    });
    // A redraw that kept the plot's layout (a drag step, new kernels to name): placed after it, drawn by the next.
    connect(plot, &QCustomPlot::afterReplot, this, [this] {
        if (m_plot && !m_plot->property(kFullDetailProperty).toBool() && place())
            redrawSoon(m_plot);
    });
}

QString KernelNames::shortName(const QString &label)
{
    const qsizetype open = label.lastIndexOf(QStringLiteral(" ["));
    if (open > 0 && label.endsWith(QLatin1Char(']')))
        return shortKernelLabel(label.left(open).toStdString(), label.mid(open + 2).chopped(1).toStdString());
    QString name = QString::fromStdString(core::baseKernelName(label.toStdString()));
    return name.size() > 28 ? name.left(27) + QStringLiteral("…") : name;
}

void KernelNames::setKernels(std::vector<Kernel> kernels, const QStringList &selected)
{
    m_kernels = std::move(kernels);
    m_named.clear();
    for (std::size_t i = 0; i < m_kernels.size(); ++i) {
        if (selected.contains(m_kernels[i].label))
            m_named.push_back(i);
    }
    std::optional<std::size_t> worst;
    double worstError = 0;
    for (std::size_t i = 0; i < m_kernels.size(); ++i) {
        const Kernel &k = m_kernels[i];
        if (!k.predicted || !(k.gbs > 0) || !std::isfinite(*k.predicted))
            continue;
        const double error = std::abs(*k.predicted - k.gbs) / k.gbs;
        if (error > worstError) {
            worstError = error;
            worst = i;
        }
    }
    if (worst && std::find(m_named.begin(), m_named.end(), *worst) == m_named.end())
        m_named.push_back(*worst);
    m_wanted.clear();
    for (std::size_t i : m_named)
        m_wanted << shortName(m_kernels[i].label);
    m_placedFor.clear(); // placed again at the next layout
    // Until then (a view never shown, as for crossroof-cli render) a figure names them still.
    if (m_plot)
        setPendingPointLabels(m_plot, pointLabels());
}

std::vector<PointLabel> KernelNames::pointLabels() const
{
    // The named kernels first, then every other star as a mark in the way.
    std::vector<PointLabel> labels;
    for (std::size_t i = 0; i < m_named.size(); ++i) {
        const Kernel &k = m_kernels[m_named[i]];
        labels.push_back({k.warps, k.gbs, m_wanted[qsizetype(i)], 8});
    }
    for (const Kernel &k : m_kernels)
        labels.push_back({k.warps, k.gbs, QString(), 8});
    return labels;
}

bool KernelNames::place()
{
    // Nothing to name and no name on the plot: nothing to place, and no redraw after a drag step for it.
    if (m_named.empty() && !m_labelsShown)
        return false;
    QCustomPlot *plot = m_plot;
    const QRect rect = plot->axisRect()->rect();
    QString key = QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                          .arg(rect.width())
                          .arg(rect.height())
                          .arg(plot->xAxis->range().lower)
                          .arg(plot->xAxis->range().upper)
                          .arg(plot->yAxis->range().lower)
                          .arg(plot->yAxis->range().upper)
                          .arg(m_wanted.join(QLatin1Char('|')));
    if (key == m_placedFor)
        return false;
    m_placedFor = key;
    m_leftOut = placePointLabels(plot, pointLabels());
    m_labelsShown = !m_named.empty();
    return true;
}

} // namespace crossroof::widgets
