// SPDX-License-Identifier: GPL-3.0-or-later
#include "levels/levels_view.h"

#include "common/decade_ticker.h"
#include "common/label_placement.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"
#include "core/xmodel/footprint_levels.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QShowEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace crossroof::widgets {

namespace {

const QColor kSweepColours[] = {plot_style::kBlue, plot_style::kOrange, plot_style::kGreen, plot_style::kPurple,
                                plot_style::kSky, plot_style::kVermillion};

QCustomPlot *makePlot(QWidget *parent, const QString &y, const QString &shortY, const QString &name, bool logY)
{
    auto *plot = new QCustomPlot(parent);
    plot_style::setupAxes(plot);
    PlotNavigator::install(plot);
    plot->xAxis->setLabel(QCoreApplication::translate("LevelsView", "footprint (kB)"));
    plot_style::setShortLabel(plot->xAxis, QCoreApplication::translate("LevelsView", "kB"));
    plot->yAxis->setLabel(y);
    plot_style::setShortLabel(plot->yAxis, shortY);
    plot_style::setLogScale(plot->xAxis, true);
    plot_style::setLogScale(plot->yAxis, logY);
    // The bandwidths' decades labelled with their 2 and 5 multiples too where each has room (as the roofline's);
    // the footprints' many decades keep QCustomPlot's labels, which thin less on a short axis.
    if (logY)
        plot->yAxis->setTicker(QSharedPointer<DecadeTicker>::create(plot->yAxis));
    plot->setAccessibleName(name);
    plot->setMinimumHeight(260);
    plot_style::placeLegendBelow(plot);
    symbol_text::useSymbolText(plot);
    return plot;
}

/// The model's staircase over [FROM, TO] kB.
void drawSteps(QCPCurve *curve, const std::vector<core::FootprintStep> &steps, double from, double to)
{
    QVector<double> x, y;
    for (const core::FootprintStep &step : steps) {
        const double left = std::max(step.from_kb, from);
        const double right = std::min(step.to_kb, to);
        if (!(right > left) || !(step.value > 0))
            continue;
        x << left << right;
        y << step.value << step.value;
    }
    curve->setData(x, y);
}

/// A vertical dotted line at a level's capacity, with its name at the top, on the side of the line with more of
/// the footprint axis [FROM, TO].
void markCapacity(QCustomPlot *plot, double kb, const QString &text, double from, double to)
{
    if (!(kb > 0))
        return;
    auto *line = new QCPItemStraightLine(plot);
    line->setPen(QPen(plot_style::kGrey, 1, Qt::DotLine));
    line->point1->setCoords(kb, 1);
    line->point2->setCoords(kb, 2);
    auto *label = new QCPItemText(plot);
    label->setFont(plot_style::annotationFont());
    label->setColor(plot_style::kGrey);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(kb, 0.02);
    // On the side of the line with more of the (log) axis: a line in the axis's left half has its label on its
    // right, where the axis would otherwise cut it.
    const bool right = std::log(kb / from) < std::log(to / kb);
    label->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    label->setPadding(right ? QMargins(4, 0, 2, 0) : QMargins(2, 0, 4, 0));
    label->setText(text);
    // Up or down its line, off the curves; a figure with no room names the line in its legend.
    setLabelFreedom(label, LabelFreedom::AlongVerticalLine);
    setLabelHome(label);
    setNamedLine(label, line);
}

/// A level without a capacity: a dashed line across at VALUE, named TEXT (SHORT where a figure is short of room).
void markLevel(QCustomPlot *plot, double value, const QString &text, const QString &brief)
{
    if (!(value > 0))
        return;
    auto *line = new QCPItemStraightLine(plot);
    line->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
    line->point1->setCoords(1, value);
    line->point2->setCoords(2, value);
    auto *label = new QCPItemText(plot);
    label->setFont(plot_style::annotationFont());
    label->setColor(plot_style::kGrey);
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(0.98, value);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    label->setText(text);
    plot_style::setShortText(label, brief);
    setLabelFreedom(label, LabelFreedom::AlongHorizontalLine);
    setLabelHome(label);
    setNamedLine(label, line);
}

QString gbs(double value)
{
    return formatQuantity(value, QStringLiteral("B/s"), si::giga);
}

QString footprint(double kb)
{
    return formatQuantity(kb, QStringLiteral("B"), si::kilo);
}

/// How far the model is off, as a percentage with a sign ("+7.4 %", "-70 %", "+1230 %").
QString percentOff(double off)
{
    const double percent = 100 * off;
    const QString number = std::abs(percent) >= 100 ? QString::number(std::lround(percent)) : formatNumber(percent, 2);
    return (percent >= 0 ? QStringLiteral("+") : QString()) + number + QStringLiteral(" %");
}

} // namespace

LevelsView::LevelsView(ParameterState *state, TraceState *traces, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_traces(traces)
{
    m_latency = makePlot(this, tr("latency of a dependent load (cycles)"), tr("cycles"), tr("Latency against footprint"),
                         false);
    m_bandwidth = makePlot(this, tr("bandwidth (GB/s)"), tr("GB/s"), tr("Bandwidth against footprint"),
                           true);
    auto model = [](QCustomPlot *plot, const QString &tip) {
        auto *curve = new QCPCurve(plot->xAxis, plot->yAxis);
        curve->setPen(QPen(plot_style::kBlack, 2));
        curve->setName(tip);
        return curve;
    };
    m_latencyModel = model(m_latency, tr("model: L_{s}, L_{2}, L"));
    m_bandwidthModel = model(m_bandwidth, tr("model: R_{l1}, R_{l2}, R_{dram}"));
    m_latency->setToolTip(tr("A pointer chase (gpu-benches' gpu-latency) against the model's latencies: L_s while "
                             "the chain fits the L1 (S_s), L_2 while it fits the L2 (S_2 × SMs), then L"));
    m_bandwidth->setToolTip(tr("Every SM reading one data set over and over (gpu-cache, gpu-l2-cache) against the "
                               "model's ceilings: R_l1 up to S_s, R_l2 up to S_2 × SMs, then R_dram (R without one)"));

    m_readout = new QLabel(this);
    m_readout->setWordWrap(true);
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setMinimumWidth(260);
    m_readout->setMaximumWidth(380);

    auto *plots = new QVBoxLayout;
    plots->addWidget(m_latency, 1);
    plots->addWidget(m_bandwidth, 1);
    auto *layout = new QHBoxLayout(this);
    layout->addLayout(plots, 1);
    layout->addWidget(m_readout);

    connect(state, &ParameterState::changed, this, &LevelsView::refresh);
    connect(state, &ParameterState::profileChanged, this, &LevelsView::refresh);
    connect(traces, &TraceState::changed, this, &LevelsView::refresh);
    connect(traces, &TraceState::traceAdded, this, [this](const QString &id) {
        const core::MeasuredTrace *t = m_traces->trace(id);
        if (t && (t->kind == core::TraceKind::LatencyVsFootprint || t->kind == core::TraceKind::BandwidthVsFootprint))
            Q_EMIT sweepImported();
    });
    refresh();
}

void LevelsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    catchUp();
}

void LevelsView::refresh()
{
    m_stale = true;
    if (isVisible())
        catchUp();
}

void LevelsView::catchUp()
{
    if (!m_stale)
        return;
    m_stale = false;
    draw();
}

void LevelsView::draw()
{
    const core::XModelParams &p = m_state->params();
    for (QCustomPlot *plot : {m_latency, m_bandwidth}) {
        for (int i = plot->graphCount() - 1; i >= 0; --i)
            plot->removeGraph(i);
        plot->clearItems();
    }
    m_sweeps.clear();
    // The footprints shown: the sweeps', else around the capacities.
    const double l1 = core::l1CapacityKb(p), l2 = core::l2CapacityKb(p);
    double from = std::max(1.0, l1 / 16), to = std::max({l1, l2, 1.0}) * 16;
    int colour = 0;
    for (const core::MeasuredTrace &t : m_traces->traces()) {
        const bool latency = t.kind == core::TraceKind::LatencyVsFootprint;
        if (!t.visible || !(latency || t.kind == core::TraceKind::BandwidthVsFootprint))
            continue;
        QCustomPlot *plot = latency ? m_latency : m_bandwidth;
        QCPGraph *graph = plot->addGraph();
        QVector<double> x(t.x.begin(), t.x.end()), y(t.y.begin(), t.y.end());
        graph->setData(x, y);
        const QColor c = kSweepColours[colour++ % int(std::size(kSweepColours))];
        graph->setPen(QPen(c, 1));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, 4));
        graph->setName(symbol_text::literal(QString::fromStdString(t.name)));
        for (double v : t.x) {
            if (v > 0) {
                from = std::min(from, v);
                to = std::max(to, v);
            }
        }
        m_sweeps.push_back({QString::fromStdString(t.id), QString::fromStdString(t.name), latency,
                            core::compareFootprintTrace(t, p)});
    }
    drawSteps(m_latencyModel, core::latencyByFootprint(p), from, to);
    drawSteps(m_bandwidthModel, core::bandwidthByFootprint(p), from, to);
    // Without an L2 capacity the L2 has no step: its latency and bandwidth are drawn across, dashed.
    if (!(l2 > 0)) {
        markLevel(m_latency, p.L_2, tr("L2 latency %1 cycles (its capacity S₂ unknown)").arg(formatNumber(p.L_2, 4)),
                  tr("L2 %1 cycles").arg(formatNumber(p.L_2, 4)));
        markLevel(m_bandwidth, p.R_l2, tr("L2 bandwidth %1 (its capacity S₂ unknown)").arg(gbs(p.R_l2)),
                  tr("L2 %1").arg(gbs(p.R_l2)));
    }
    for (QCustomPlot *plot : {m_latency, m_bandwidth}) {
        // The capacity as the profile gives it, and as the footprint axis counts it (kB of 1000 bytes).
        markCapacity(plot, l1, tr("L1 %1 KiB (%2)").arg(formatNumber(p.S_s, 3), footprint(l1)), from / 1.5, to * 1.5);
        markCapacity(plot, l2, tr("L2 %1 MiB (%2)").arg(formatNumber(l2 / 1.024 / 1024, 3), footprint(l2)), from / 1.5,
                     to * 1.5);
        // The values every curve shows, with room above and below on the log axis.
        std::optional<QCPRange> y;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            bool ok = false;
            const QCPRange v = plot->plottable(i)->getValueRange(ok, QCP::sdPositive);
            if (ok)
                y = y ? QCPRange(std::min(y->lower, v.lower), std::max(y->upper, v.upper)) : v;
        }
        plot->xAxis->setRange(from / 1.5, to * 1.5);
        if (y && plot->yAxis->scaleType() == QCPAxis::stLogarithmic) {
            // Whole decades, two at least: decade ticks that never crowd, in a figure a few centimetres high.
            const double lower = std::pow(10.0, std::floor(std::log10(y->lower)));
            const double upper = std::max(std::pow(10.0, std::ceil(std::log10(y->upper))), lower * 100);
            plot->yAxis->setRange(lower, upper);
        } else if (y) {
            plot->yAxis->setRange(0, y->upper * 1.1); // cycles from zero: the levels' ratios as they are
        }
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_readout->setText(readoutHtml());
}

QString LevelsView::readoutHtml() const
{
    const core::XModelParams &p = m_state->params();
    QString html = tr("<p><b>%1</b>: L1 %2 KiB, L<sub>s</sub> %3 cycles, R<sub>l1</sub> %4; L2 %5, L<sub>2</sub> "
                      "%6 cycles, R<sub>l2</sub> %7; DRAM L %8 cycles, %9.</p>")
                           .arg(QString::fromStdString(m_state->profile().name).toHtmlEscaped(),
                                formatNumber(p.S_s, 3), formatNumber(p.L_s, 4),
                                p.R_l1 > 0 ? gbs(p.R_l1) : tr("none"),
                                p.S_2 > 0 ? tr("%1 KiB per SM").arg(formatNumber(p.S_2, 4)) : tr("capacity unknown"),
                                formatNumber(p.L_2, 4), p.R_l2 > 0 ? gbs(p.R_l2) : tr("none"),
                                formatNumber(p.L, 4), gbs(p.R_dram > 0 ? p.R_dram : p.R));
    if (m_sweeps.empty()) {
        html += tr("<p>Import a gpu-benches <i>gpu-latency</i>, <i>gpu-cache</i> or <i>gpu-l2-cache</i> output "
                   "(File &gt; Import Trace) to lay it over these levels.</p>");
        return html;
    }
    for (const Sweep &s : m_sweeps) {
        html += QStringLiteral("<p><b>%1</b>").arg(s.name.toHtmlEscaped());
        if (!s.comparison.note.empty()) {
            html += QStringLiteral(": %1</p>").arg(QString::fromStdString(s.comparison.note).toHtmlEscaped());
            continue;
        }
        html += QStringLiteral("</p><table cellspacing=\"6\"><tr><th align=\"left\">%1</th><th>%2</th><th>%3</th>"
                               "<th>%4</th></tr>")
                        .arg(tr("level"), tr("measured"), tr("model"), tr("off"));
        const auto value = [&s](double v) { return s.latency ? tr("%1 cycles").arg(formatNumber(v, 4)) : gbs(v); };
        for (const core::MeasuredLevel &l : s.comparison.levels) {
            // The level's footprints below its name, kept on one line (a word joiner after the dash), and no
            // number apart from its unit, in a narrow dock.
            const auto whole = [](QString text) { return text.replace(QLatin1Char(' '), QChar(0xa0)); };
            const QString range
                    = whole(footprint(l.from_kb)) + QChar(0x2013) + QChar(0x2060) + whole(footprint(l.to_kb));
            // The model's value, and whose it is where the level has no bandwidth of its own ("895 GB/s", "DRAM's").
            QString model = l.model > 0 ? whole(value(l.model)) : tr("none");
            if (l.model > 0 && l.model_level != l.level)
                model += QStringLiteral("<br><small>%1</small>")
                                 .arg(tr("%1's").arg(QString::fromLatin1(core::kernelLimitName(l.model_level))));
            html += QStringLiteral("<tr><td>%1<br><small>%2</small></td><td align=\"right\">%3</td>"
                                   "<td align=\"right\">%4</td><td align=\"right\">%5</td></tr>")
                            .arg(QString::fromLatin1(core::kernelLimitName(l.level)), range, whole(value(l.measured)),
                                 model, l.model > 0 ? whole(percentOff(l.offBy())) : QString());
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

} // namespace crossroof::widgets
