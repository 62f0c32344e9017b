// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_view.h"

#include "common/parameter_state.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "roofline/roofline_evaluation.h"
#include "core/support/text.h"
#include "core/xmodel/parameters.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

/// Pixels within which hovering finds a point.
constexpr double kHoverPixels = 10;

} // namespace

RooflineView::RooflineView(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_eval(new RooflineEvaluation(state, this))
    , m_plot(new QCustomPlot(this))
    , m_note(new QLabel(this))
{
    m_plot->setObjectName(QStringLiteral("RooflinePlot"));
    m_plot->setMinimumSize(420, 320);
    m_plot->setToolTip(QString());
    plot_style::setupAxes(m_plot);
    PlotNavigator::install(m_plot);
    plot_style::setLogScale(m_plot->xAxis, true);
    plot_style::setLogScale(m_plot->yAxis, true);
    m_plot->xAxis->setLabel(tr("Intensity I (thread-instructions per DRAM byte)"));
    m_plot->yAxis->setLabel(tr("Instruction throughput (Gop/s)"));
    plot_style::setShortLabel(m_plot->xAxis, tr("I (op/B)"));
    plot_style::setShortLabel(m_plot->yAxis, tr("Gop/s"));
    m_plot->legend->setVisible(true);
    plot_style::placeLegendBelow(m_plot);
    m_plot->setMouseTracking(true);
    m_note->setWordWrap(true);
    m_note->setToolTip(tr("Memory ceiling R·I; compute ceiling M·warp_size·clock·SMs; latency ceiling "
                          "(E·n/L_c)·warp_size·clock·SMs when E·n/L_c < M (n warps, each issuing E "
                          "instructions per L_c cycles). Kernels: I = 32·instructions / (DRAM GB/s · "
                          "duration), throughput = 32·instructions / duration."));
    m_openKernels = new QPushButton(tr("Open ncu CSV…"), this);
    m_openKernels->setToolTip(tr("Read an Nsight Compute export (ncu --csv) into the Kernels dock and draw its "
                                 "kernels here"));
    connect(m_openKernels, &QPushButton::clicked, this, &RooflineView::openKernelsRequested);
    auto *noteRow = new QHBoxLayout;
    noteRow->addWidget(m_note, 1);
    noteRow->addWidget(m_openKernels);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_plot, 1);
    layout->addLayout(noteRow);

    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const auto i = pointAt(event->position());
        if (i)
            QToolTip::showText(event->globalPosition().toPoint(), pointText(*i), m_plot);
        else
            QToolTip::hideText();
    });
    connect(m_state, &ParameterState::changed, this, &RooflineView::refresh);
    connect(m_eval, &RooflineEvaluation::updated, this, &RooflineView::draw);
    refresh();
}

void RooflineView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    catchUp();
}

void RooflineView::catchUp()
{
    if (!m_stale)
        return;
    m_stale = false;
    m_eval->recompute();
}

void RooflineView::setReport(const std::optional<core::NcuReport> &report)
{
    m_eval->setReport(report);
    refresh();
}

void RooflineView::setHighlighted(const QStringList &labels)
{
    m_highlighted = labels;
    refresh();
}

double RooflineView::memoryCeilingGbs() const
{
    return m_eval->memoryCeilingGbs();
}

double RooflineView::computeCeilingGops() const
{
    return m_eval->computeCeilingGops();
}

const std::vector<RooflineView::KernelPoint> &RooflineView::points() const
{
    return m_eval->points();
}

QPointF RooflineView::operatingPoint()
{
    catchUp();
    return m_eval->operatingPoint();
}

QString RooflineView::pointText(std::size_t i) const
{
    const KernelPoint &p = m_eval->points().at(i);
    const double ridge = computeCeilingGops() / memoryCeilingGbs();
    const QString bound = p.intensity < ridge ? tr("memory-bound (I < ridge %1)").arg(formatNumber(ridge))
                                              : tr("compute-bound (I ≥ ridge %1)").arg(formatNumber(ridge));
    return tr("%1\nI = %2 op/byte, %3 Gop/s, %4 µs\n%5")
            .arg(p.label, formatNumber(p.intensity), formatNumber(p.gops), formatNumber(p.duration_ns / 1e3), bound);
}

std::optional<std::size_t> RooflineView::pointAt(const QPointF &pixel) const
{
    std::optional<std::size_t> best;
    double bestDistance = kHoverPixels;
    const std::vector<KernelPoint> &points = m_eval->points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const QPointF at(m_plot->xAxis->coordToPixel(points[i].intensity),
                         m_plot->yAxis->coordToPixel(points[i].gops));
        const double d = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

void RooflineView::refresh()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_eval->recompute();
}

void RooflineView::draw()
{
    m_plot->clearGraphs();
    const core::XModelParams &params = m_state->params();
    const double R = memoryCeilingGbs();
    const double peak = computeCeilingGops();
    const double ridge = peak / R;
    const std::vector<KernelPoint> &points = m_eval->points();
    const QPointF operating = m_eval->operatingPoint();
    const std::optional<double> &latencyCeiling = m_eval->latencyCeilingGops();

    // Two decades of intensity either side of the ridge, or more for the points, and from a little under the
    // lowest of the memory ceiling and the points up to a little over the peak: no decades of empty plot.
    double xMin = ridge / 100, xMax = ridge * 100;
    double yMax = peak * 2;
    const auto include = [&](double x, double y) {
        if (!(x > 0) || !(y > 0))
            return;
        xMin = std::min(xMin, x / 2);
        xMax = std::max(xMax, x * 2);
        yMax = std::max(yMax, y * 2);
    };
    for (const KernelPoint &p : points)
        include(p.intensity, p.gops);
    include(operating.x(), operating.y());
    double yMin = R * xMin / 1.5;
    for (const KernelPoint &p : points)
        yMin = p.gops > 0 ? std::min(yMin, p.gops / 1.5) : yMin;
    if (operating.y() > 0)
        yMin = std::min(yMin, operating.y() / 1.5);

    QCPGraph *roof = m_plot->addGraph();
    roof->setName(tr("Ceilings: R = %1, peak %2").arg(formatQuantity(R, QStringLiteral("B/s"), si::giga), formatQuantity(peak, QStringLiteral("op/s"), si::giga)));
    roof->setPen(QPen(plot_style::kBlack, 2));
    roof->setData({xMin, ridge, xMax}, {R * xMin, peak, peak});
    if (latencyCeiling) {
        QCPGraph *latency = m_plot->addGraph();
        latency->setName(tr("Latency ceiling E·n/L_{c} = %1 inst/cycle").arg(formatNumber(params.issueRate() * params.n)));
        latency->setPen(QPen(plot_style::kGrey, 1.5, Qt::DashLine));
        const double knee = *latencyCeiling / R;
        latency->setData({knee, xMax}, {*latencyCeiling, *latencyCeiling});
    }

    double longest = 0;
    for (const KernelPoint &p : points)
        longest = std::max(longest, p.duration_ns);
    bool legendDone = false;
    for (const KernelPoint &p : points) {
        QCPGraph *g = m_plot->addGraph();
        const bool highlighted = m_highlighted.contains(p.label);
        const double size = 6 + 14 * std::sqrt(p.duration_ns / longest);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc,
                                           highlighted ? plot_style::kBlack : plot_style::kBlue,
                                           highlighted ? plot_style::kOrange : plot_style::kSky, size));
        g->setData({p.intensity}, {p.gops});
        g->setName(tr("Kernels (size ∝ duration)"));
        if (legendDone)
            g->removeFromLegend();
        legendDone = true;
    }
    if (operating.x() > 0 && operating.y() > 0) {
        QCPGraph *op = m_plot->addGraph();
        op->setName(tr("X-model operating point (n = %1, Z = %2, E = %3)")
                            .arg(formatNumber(params.n), formatNumber(params.Z), formatNumber(params.E)));
        op->setLineStyle(QCPGraph::lsNone);
        op->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, plot_style::kVermillion, 14));
        op->setData({operating.x()}, {operating.y()});
    }
    m_plot->xAxis->setRange(xMin, xMax);
    m_plot->yAxis->setRange(yMin, yMax);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const std::optional<core::NcuReport> &report = m_eval->report();
    const std::size_t total = report ? report->kernels.size() : 0;
    m_openKernels->setVisible(!report);
    m_note->setText(!report ? tr("No kernels: open an Nsight Compute CSV export to draw its kernels here.")
                    : points.size() == total
                            ? tr("%n kernel(s).", nullptr, int(total))
                            : tr("%1 of %2 kernels drawn; the others lack instructions "
                                 "(smsp__inst_executed.sum), duration or DRAM throughput.")
                                      .arg(points.size())
                                      .arg(total));
}

} // namespace crossroof::widgets
