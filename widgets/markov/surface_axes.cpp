// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/surface_axes.h"

#include "common/number_format.h"
#include "core/support/contour.h"

#include <QStringList>

#include <cmath>

namespace crossroof::widgets {

QCPColorGradient viridis()
{
    QCPColorGradient g;
    g.clearColorStops();
    const QColor stops[]
            = {QColor(68, 1, 84),    QColor(72, 40, 120),  QColor(62, 74, 137),  QColor(49, 104, 142),
               QColor(38, 130, 142), QColor(31, 158, 137), QColor(53, 183, 121), QColor(109, 205, 89),
               QColor(180, 222, 44), QColor(253, 231, 37)};
    for (int i = 0; i < 10; ++i)
        g.setColorStopAt(i / 9.0, stops[i]);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(0xBB, 0xBB, 0xBB));
    return g;
}

QSharedPointer<QCPAxisTicker> probabilityTicker(const ColouredSurface &surface,
                                                const std::vector<double> &values,
                                                const std::vector<double> &axis)
{
    if (surface.grid.kind == core::MarkovGridKind::Uniform)
        return QSharedPointer<QCPAxisTicker>::create();
    const bool byIndex = surface.grid.kind == core::MarkovGridKind::Thesis;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // By index the middle values sit close together; 0.5 is labelled only on value and logit axes.
    const std::vector<double> labels
            = byIndex ? std::vector<double> {0.001, 0.01, 0.1, 0.9, 0.99, 0.999}
                      : std::vector<double> {0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999};
    QStringList shown;
    for (double label : labels) {
        // Label the grid point nearest to each round probability, once: on a grid that does not reach a
        // round value (0.001 on a grid from 0.01) two of them would name the same point.
        std::size_t best = 0;
        for (std::size_t i = 1; i < values.size(); ++i) {
            if (std::abs(values[i] - label) < std::abs(values[best] - label))
                best = i;
        }
        const QString text = QString::number(byIndex ? values[best] : label, 'g', 3);
        if (shown.contains(text))
            continue;
        shown << text;
        ticker->addTick(byIndex ? axis[best] : surface.toAxis(label), text);
    }
    return ticker;
}

QSharedPointer<QCPAxisTicker> cpiTicker(double lo, double hi)
{
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    for (double v : core::niceContourLevels(lo * 0.999, hi * 1.001)) {
        const double mantissa = v / std::pow(10.0, std::floor(std::log10(v)));
        if (std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9)
            ticks->addTick(std::log10(v), formatNumber(v));
    }
    if (ticks->ticks().isEmpty())
        ticks->addTick(std::log10(lo), formatNumber(lo));
    return ticks;
}

} // namespace crossroof::widgets
