// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_view.h"

#include "common/parameter_state.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "state/kernel_label.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

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
    recompute();
}

void RooflineView::setReport(const std::optional<core::NcuReport> &report)
{
    m_report = report;
    refresh();
}

void RooflineView::setHighlighted(const QStringList &labels)
{
    m_highlighted = labels;
    refresh();
}

double RooflineView::memoryCeilingGbs() const
{
    return m_state->params().R;
}

double RooflineView::computeCeilingGops() const
{
    return m_state->params().M * m_state->params().gopsPerInstructionRate();
}

QString RooflineView::pointText(std::size_t i) const
{
    const KernelPoint &p = m_points.at(i);
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
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const QPointF at(m_plot->xAxis->coordToPixel(m_points[i].intensity),
                         m_plot->yAxis->coordToPixel(m_points[i].gops));
        const double d = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

void RooflineView::rebuildPoints()
{
    m_points.clear();
    if (!m_report)
        return;
    const double warpSize = m_state->params().warp_size;
    for (std::size_t k = 0; k < m_report->kernels.size(); ++k) {
        const core::NcuKernel &kernel = m_report->kernels[k];
        if (!kernel.instructions || !kernel.duration_ns || !kernel.dram_gbs || !(*kernel.duration_ns > 0)
            || !(*kernel.dram_gbs > 0) || !(*kernel.instructions > 0))
            continue;
        KernelPoint p;
        p.kernel = k;
        p.gops = *kernel.instructions * warpSize / *kernel.duration_ns;
        p.intensity = p.gops / *kernel.dram_gbs;
        p.duration_ns = *kernel.duration_ns;
        p.label = kernelLabel(kernel);
        m_points.push_back(p);
    }
}

void RooflineView::refresh()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    recompute();
}

void RooflineView::recompute()
{
    rebuildPoints();
    m_plot->clearGraphs();
    const core::XModelParams &params = m_state->params();
    const double R = memoryCeilingGbs();
    const double peak = computeCeilingGops();
    const double ridge = peak / R;

    m_operating = {};
    std::optional<double> latencyCeiling;
    try {
        const core::XModel model(params);
        const core::XGraphResult solved = model.solve(); // the operating point lives in it
        const core::Equilibrium &op = solved.operatingPoint();
        // Intensity per DRAM byte, as the axis and the memory ceiling count it: cache hits move no DRAM
        // bytes, so the point sits at Z*warp_size/request_bytes / (1 - h) and never above the ceiling R*I.
        // When every request hits there is no DRAM traffic and no finite intensity to draw it at.
        const double missShare = 1 - op.hit_rate.value_or(0);
        if (missShare > 1e-12)
            m_operating = QPointF(params.Z * params.warp_size / params.request_bytes / missShare, op.cs_gops);
        if (params.issueRate() * params.n < params.M)
            latencyCeiling = params.issueRate() * params.n * params.gopsPerInstructionRate();
    } catch (const core::InputError &) {
        // Parameters the model refuses: the ceilings alone.
    }

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
    for (const KernelPoint &p : m_points)
        include(p.intensity, p.gops);
    include(m_operating.x(), m_operating.y());
    double yMin = R * xMin / 1.5;
    for (const KernelPoint &p : m_points)
        yMin = p.gops > 0 ? std::min(yMin, p.gops / 1.5) : yMin;
    if (m_operating.y() > 0)
        yMin = std::min(yMin, m_operating.y() / 1.5);

    QCPGraph *roof = m_plot->addGraph();
    roof->setName(tr("Ceilings: R = %1, peak %2").arg(formatQuantity(R, QStringLiteral("B/s"), si::giga), formatQuantity(peak, QStringLiteral("op/s"), si::giga)));
    roof->setPen(QPen(plot_style::kBlack, 2));
    roof->setData({xMin, ridge, xMax}, {R * xMin, peak, peak});
    if (latencyCeiling) {
        QCPGraph *latency = m_plot->addGraph();
        latency->setName(tr("Latency ceiling E·n/L_c = %1 inst/cycle").arg(formatNumber(params.issueRate() * params.n)));
        latency->setPen(QPen(plot_style::kGrey, 1.5, Qt::DashLine));
        const double knee = *latencyCeiling / R;
        latency->setData({knee, xMax}, {*latencyCeiling, *latencyCeiling});
    }

    double longest = 0;
    for (const KernelPoint &p : m_points)
        longest = std::max(longest, p.duration_ns);
    bool legendDone = false;
    for (const KernelPoint &p : m_points) {
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
    if (m_operating.x() > 0 && m_operating.y() > 0) {
        QCPGraph *op = m_plot->addGraph();
        op->setName(tr("X-model operating point (n = %1, Z = %2, E = %3)")
                            .arg(formatNumber(params.n), formatNumber(params.Z), formatNumber(params.E)));
        op->setLineStyle(QCPGraph::lsNone);
        op->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, plot_style::kVermillion, 14));
        op->setData({m_operating.x()}, {m_operating.y()});
    }
    m_plot->xAxis->setRange(xMin, xMax);
    m_plot->yAxis->setRange(yMin, yMax);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const std::size_t total = m_report ? m_report->kernels.size() : 0;
    m_openKernels->setVisible(!m_report);
    m_note->setText(!m_report ? tr("No kernels: open an Nsight Compute CSV export to draw its kernels here.")
                    : m_points.size() == total
                            ? tr("%n kernel(s).", nullptr, int(total))
                            : tr("%1 of %2 kernels drawn; the others lack instructions "
                                 "(smsp__inst_executed.sum), duration or DRAM throughput.")
                                      .arg(m_points.size())
                                      .arg(total));
}

} // namespace crossroof::widgets
