// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/measured_rooflines.h"

#include "common/number_format.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"
#include "core/support/error.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QCoreApplication>

namespace crossroof::widgets {

std::vector<core::MeasuredRoofline> visibleMeasuredRooflines(const TraceState *traces)
{
    std::vector<core::MeasuredRoofline> out;
    if (!traces)
        return out;
    for (const core::MeasuredTrace &t : traces->traces()) {
        if (!t.visible || t.kind != core::TraceKind::PerformanceVsIntensity)
            continue;
        try {
            out.push_back(core::measuredRoofline(t));
        } catch (const core::InputError &) {
            // A trace without a usable row draws nothing; the Traces dock lists it as it is.
        }
    }
    return out;
}

void drawMeasuredRooflines(QCustomPlot *plot, const std::vector<core::MeasuredRoofline> &rooflines)
{
    const QColor colours[] = {plot_style::kOrange, plot_style::kPurple, plot_style::kSky};
    int index = 0;
    for (const core::MeasuredRoofline &r : rooflines) {
        const QColor colour = colours[index++ % int(std::size(colours))];
        QCPGraph *rows = plot->addGraph();
        rows->setName(QCoreApplication::translate("RooflineView", "%1 (measured, 2 flops per FMA instruction)")
                              .arg(symbol_text::literal(QString::fromStdString(r.name))));
        rows->setPen(QPen(colour, 1.3));
        rows->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, 5));
        rows->setData(QVector<double>(r.intensity.begin(), r.intensity.end()),
                      QVector<double>(r.gops.begin(), r.gops.end()));
        if (!(r.ridge > 0))
            continue;
        QCPGraph *ridge = plot->addGraph();
        ridge->setName(QCoreApplication::translate("RooflineView", "its ridge %1 op/B: %2, peak %3")
                               .arg(formatNumber(r.ridge, 3),
                                    formatQuantity(r.peak_gbs, QStringLiteral("B/s"), si::giga),
                                    formatQuantity(r.peak_gops, QStringLiteral("op/s"), si::giga)));
        ridge->setLineStyle(QCPGraph::lsNone);
        ridge->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(colour, 2), Qt::NoBrush, 11));
        ridge->setData({r.ridge}, {r.peak_gops});
    }
}

} // namespace crossroof::widgets
