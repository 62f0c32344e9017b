// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/prediction_view.h"
#include "kernels/kernel_detail.h"

#include "common/empty_state.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/point_labels.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

PredictionView::PredictionView(KernelState *kernels, QWidget *parent)
    : QWidget(parent)
    , m_kernels(kernels)
    , m_plot(new QCustomPlot(this))
    , m_summary(new QLabel(this))
    , m_names(new QCheckBox(tr("&Names"), this))
    , m_diagnosis(new QLabel(this))
{
    m_plot->setObjectName(QStringLiteral("PredictionPlot"));
    m_plot->setMinimumSize(420, 320);
    plot_style::setupAxes(m_plot);
    placeAgainAfterResize(
            m_plot, [this] { return m_names->isChecked() && !m_points.empty(); }, [this] { draw(); });
    PlotNavigator::install(m_plot);
    plot_style::setLogScale(m_plot->xAxis, true);
    plot_style::setLogScale(m_plot->yAxis, true);
    m_plot->xAxis->setLabel(tr("Measured DRAM throughput (GB/s)"));
    m_plot->yAxis->setLabel(tr("Predicted DRAM throughput (GB/s)"));
    plot_style::setShortLabel(m_plot->xAxis, tr("measured (GB/s)"));
    plot_style::setShortLabel(m_plot->yAxis, tr("predicted (GB/s)"));
    m_plot->legend->setVisible(true);
    plot_style::placeLegendBelow(m_plot);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("PredictionSummary"));
    m_summary->setToolTip(tr("Accuracy of one kernel: 1 − |predicted − measured| / measured, floored at 0. Memory "
                             "roofline: every kernel at the peak DRAM bandwidth. Roofline: min(peak, M/Z × DRAM "
                             "bytes per request × clock × SMs) with the kernel's own inputs, without latency."));
    m_names->setChecked(true);
    m_names->setToolTip(tr("Name each point (its short kernel name and launch ID)"));
    connect(m_names, &QCheckBox::toggled, this, [this] { draw(); });
    m_diagnosis->setWordWrap(true);
    m_diagnosis->setObjectName(QStringLiteral("PredictionDiagnosis"));
    m_diagnosis->setTextFormat(Qt::PlainText);
    m_diagnosis->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnosis->setToolTip(
            tr("The kernel selected in the Kernels dock: what bounds it (a memory level, the request "
               "rate, latency, the issue rate or the tensor pipe) and the changes the model ranks "
               "best for it, each with its predicted speed-up (kernel time before / after − 1)"));
    m_diagnosis->hide();
    auto *row = new QHBoxLayout;
    row->addWidget(m_summary, 1);
    row->addWidget(m_names);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_diagnosis);
    layout->addLayout(row);
    m_empty = new EmptyState(m_plot, QString());
    connect(m_kernels, &KernelState::tableChanged, this, &PredictionView::refresh);
    connect(m_kernels, &KernelState::reportChanged, this, &PredictionView::refresh);
    refresh();
}

void PredictionView::setHighlighted(const QStringList &labels)
{
    m_highlighted = labels;
    showDiagnosis();
    if (isVisible())
        draw();
    else
        m_stale = true;
}

void PredictionView::showDiagnosis()
{
    const core::KernelRow *row = m_highlighted.isEmpty() ? nullptr : m_kernels->row(m_highlighted.front());
    m_diagnosis->setVisible(row != nullptr);
    if (row) {
        m_diagnosis->setText(
                breakLongWords(QStringLiteral("%1 [%2]: ")
                                       .arg(QString::fromStdString(core::baseKernelName(row->name)),
                                            QString::fromStdString(row->id))
                               + kernelDiagnosisText(*row)));
    }
}

void PredictionView::upToDate()
{
    m_kernels->wait();
    catchUp();
}

void PredictionView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    catchUp();
}

void PredictionView::refresh()
{
    // Placing the names takes a replot: a hidden view waits until it is shown.
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = true;
    catchUp();
}

void PredictionView::catchUp()
{
    if (!m_stale && !m_points.empty())
        return;
    m_stale = false;
    m_points.clear();
    m_accuracy.reset();
    if (m_kernels->report()) {
        const core::KernelTable &table = m_kernels->table();
        for (std::size_t i = 0; i < table.rows.size(); ++i) {
            const core::KernelRow &r = table.rows[i];
            if (r.predicted_gbs && r.dram_gbs && !r.dram_gbs_derived && *r.dram_gbs > 0 && *r.predicted_gbs > 0)
                m_points.push_back({i, *r.dram_gbs, *r.predicted_gbs, shortKernelLabel(r.short_name, r.id)});
        }
        m_accuracy = m_kernels->accuracy();
    }
    showDiagnosis();
    draw();
}

void PredictionView::draw()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_empty->setEmpty(m_points.empty());
    if (m_points.empty()) {
        // The panel over the plot says why it is empty (and a figure of it is refused, saying the same).
        m_empty->label()->setText(
                m_kernels->report()
                        ? tr("<p><b>No kernel of this export has a prediction.</b></p><p>The Kernels dock says which "
                             "metrics each lacks.</p>")
                        : tr("<p><b>No kernels yet.</b></p><p>Open an Nsight Compute export (<tt>ncu --csv --page "
                             "raw</tt>) in the Kernels dock to compare its kernels with the model.</p>"));
        m_summary->clear();
        m_plot->xAxis->setRange(10, 10000);
        m_plot->yAxis->setRange(10, 10000);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    double lo = m_points.front().measured_gbs, hi = lo;
    for (const Point &p : m_points) {
        lo = std::min({lo, p.measured_gbs, p.predicted_gbs});
        hi = std::max({hi, p.measured_gbs, p.predicted_gbs});
    }
    // A decade's margin in log space, so that the bands and the labels have room.
    lo /= 1.6;
    hi *= 1.6;
    const auto line = [&](double factor, const QPen &pen, const QString &name) {
        QCPGraph *g = m_plot->addGraph();
        g->setData(QVector<double>{lo, hi}, QVector<double>{lo * factor, hi * factor});
        g->setPen(pen);
        g->setName(name);
        return g;
    };
    const QColor band20 = plot_style::tintOnPaper(m_plot, QColor(86, 180, 233, 45));
    const QColor band10 = plot_style::tintOnPaper(m_plot, QColor(86, 180, 233, 90));
    QCPGraph *over20 = line(1.2, QPen(Qt::NoPen), tr("±20 %"));
    QCPGraph *under20 = line(0.8, QPen(Qt::NoPen), QString());
    over20->setBrush(band20);
    over20->setChannelFillGraph(under20);
    QCPGraph *over10 = line(1.1, QPen(Qt::NoPen), tr("±10 %"));
    QCPGraph *under10 = line(0.9, QPen(Qt::NoPen), QString());
    over10->setBrush(band10);
    over10->setChannelFillGraph(under10);
    for (QCPGraph *g : {under20, under10})
        m_plot->legend->removeItem(m_plot->legend->itemWithPlottable(g));
    line(1, QPen(plot_style::kBlack, 1.2), tr("predicted = measured"));

    QCPGraph *points = m_plot->addGraph();
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, plot_style::kVermillion, 8));
    points->setName(tr("kernels (the X-model)"));
    QVector<double> xs, ys;
    for (const Point &p : m_points) {
        xs << p.measured_gbs;
        ys << p.predicted_gbs;
    }
    points->setData(xs, ys);
    // The kernels selected in the Kernels dock, ringed.
    QVector<double> hx, hy;
    for (const QString &label : m_highlighted) {
        const core::KernelRow *row = m_kernels->row(label);
        for (const Point &p : m_points) {
            if (row == &m_kernels->table().rows[p.kernel]) {
                hx << p.measured_gbs;
                hy << p.predicted_gbs;
            }
        }
    }
    if (!hx.isEmpty()) {
        QCPGraph *ring = m_plot->addGraph();
        ring->setLineStyle(QCPGraph::lsNone);
        ring->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(plot_style::kGreen, 2.5), Qt::NoBrush, 16));
        ring->setData(hx, hy);
        ring->setName(tr("selected kernel"));
    }
    m_plot->xAxis->setRange(lo, hi);
    m_plot->yAxis->setRange(lo, hi);

    int within10 = 0, within20 = 0;
    for (const Point &p : m_points) {
        const double e = std::abs(p.predicted_gbs - p.measured_gbs) / p.measured_gbs;
        within10 += e <= 0.1;
        within20 += e <= 0.2;
    }
    if (m_accuracy) {
        m_summary->setText(tr("Mean accuracy %1 over %n kernel(s); a memory roofline %2, the roofline min(peak, "
                              "M/Z) %3. Within ±10 %: %4, within ±20 %: %5.",
                              nullptr, int(m_accuracy->kernels))
                                   .arg(m_accuracy->model, 0, 'f', 3)
                                   .arg(m_accuracy->naive, 0, 'f', 3)
                                   .arg(m_accuracy->roofline, 0, 'f', 3)
                                   .arg(within10)
                                   .arg(within20));
    }
    m_plot->replot(QCustomPlot::rpImmediateRefresh); // lays the axes out, so the labels can be placed in pixels
    m_hiddenLabels = 0;
    if (m_names->isChecked()) {
        placeLabels();
        if (m_hiddenLabels > 0)
            m_summary->setText(m_summary->text()
                               + tr(" %n name(s) left out where points crowd (the Kernels dock lists every kernel).",
                                    nullptr, m_hiddenLabels));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PredictionView::placeLabels()
{
    // The Kernels table names every kernel, so a name with no free place is left out rather than drawn over
    // another.
    std::vector<PointLabel> labels;
    for (const Point &p : m_points)
        labels.push_back({p.measured_gbs, p.predicted_gbs, p.label, 5});
    m_hiddenLabels = placePointLabels(m_plot, labels);
}

} // namespace crossroof::widgets
