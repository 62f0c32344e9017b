// SPDX-License-Identifier: GPL-3.0-or-later
#include "occupancy/occupancy_view.h"

#include "occupancy/occupancy_evaluation.h"

#include "common/cached_group_box.h"
#include "state/occupancy_state.h"
#include "common/limited_spin_box.h"
#include "common/plot_navigator.h"
#include "common/narrow_layout.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace crossroof::widgets {

namespace {

QString limiterText(const core::LimiterSet &set)
{
    QStringList names;
    for (core::Limiter l : set.list()) {
        const auto n = core::limiterName(l);
        names << QString::fromLatin1(n.data(), qsizetype(n.size())).replace(QLatin1Char('_'), QLatin1Char(' '));
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

OccupancyView::OccupancyView(OccupancyState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_eval(new OccupancyEvaluation(state, this))
{
    auto *controls = new QWidget(this);
    // The form, then the Result below it in a column: a row of a QFormLayout kept the height its wrapped lines
    // had at another width (a window made smaller cut them), where a box layout asks their height for each width.
    auto *column = new QVBoxLayout(controls);
    auto *form = new QFormLayout;
    column->addLayout(form);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);

    m_cc = new QComboBox(controls);
    for (const auto &cc : core::computeCapabilities())
        m_cc->addItem(QString::fromStdString(cc.name), QString::fromStdString(cc.name));
    m_cc->setToolTip(tr("Compute capability: the per-SM limits (warps, blocks, registers, shared memory)"));
    form->addRow(tr("&Compute capability"), m_cc);

    m_mode = new QComboBox(controls);
    m_mode->addItem(tr("CUDA rule"), int(core::OccupancyMode::Cuda));
    m_mode->addItem(tr("Paper (Eq. 4)"), int(core::OccupancyMode::Paper));
    m_mode->setToolTip(tr("CUDA: what the hardware does, with warp, register and shared-memory allocation units.\n"
                          "Paper: min(S_sm/S_B, R_sm/(R_T·T_r), B_max/(P/Q), T_maxMP/T_r) (Eq. 4)."));
    form->addRow(tr("&Mode"), m_mode);

    m_threads = new LimitedSpinBox(tr("CUDA allows at most %1 threads per block").arg(core::kMaxThreadsPerBlock),
                                   controls);
    m_threads->setRange(1, core::kMaxThreadsPerBlock);
    m_threads->setSingleStep(32);
    m_threads->setSuffix(tr(" threads"));
    m_threads->setToolTip(tr("Threads per block T_r; warps per block w = ceil(T_r/32)"));
    form->addRow(tr("&Block size"), m_threads);

    m_regs = new QSpinBox(controls);
    m_regs->setRange(0, 255);
    m_regs->setSuffix(tr(" regs"));
    m_regs->setToolTip(tr("Registers per thread R_T, allocated per warp in units of the CC's allocation unit; "
                          "0 means no register limit"));
    form->addRow(tr("&Registers/thread"), m_regs);

    m_smem = new QSpinBox(controls);
    m_smem->setRange(0, 256 * 1024);
    m_smem->setSingleStep(256);
    m_smem->setSuffix(tr(" B"));
    m_smem->setToolTip(tr("Shared memory per block S_B in bytes (plus the driver's reserve, rounded up to the "
                          "allocation unit)"));
    form->addRow(tr("&Shared memory/block"), m_smem);

    m_config = new QComboBox(controls);
    m_config->setToolTip(tr("Shared memory per SM (carveout) C"));
    form->addRow(tr("Shared memory/&SM"), m_config);

    m_link = new QCheckBox(tr("&Link n of the X-graph to B_a × warps per block"), controls);
    m_link->setToolTip(tr("The occupancy is the X-model's n (the X-model paper, V; docs/MODEL.md 2.3)"));
    form->addRow(m_link);

    auto *resultBox = new CachedGroupBox(tr("Result"), controls);
    auto *resultLayout = new QVBoxLayout(resultBox);
    m_summary = new QLabel(resultBox);
    QFont big = m_summary->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_summary->setFont(big);
    m_summary->setWordWrap(true);
    m_limits = new QLabel(resultBox);
    m_limits->setWordWrap(true);
    m_limits->setTextFormat(Qt::PlainText);
    resultLayout->addWidget(m_summary);
    resultLayout->addWidget(m_limits);
    column->addWidget(resultBox);
    column->addStretch(1);
    controls->setMinimumWidth(260);
    controls->setMaximumWidth(360);

    auto *plots = new QVBoxLayout;
    const QString xLabels[3] = {tr("threads per block"), tr("registers per thread"),
                                tr("shared memory per block (KiB)")};
    for (int i = 0; i < 3; ++i) {
        auto *plot = new QCustomPlot(this);
        plot->setAccessibleName(tr("Occupancy against %1").arg(xLabels[i]));
        plot->setPlottingHint(QCP::phFastPolylines, true);
        plot_style::setupAxes(plot);
        PlotNavigator::install(plot);
        plot->xAxis->setLabel(xLabels[i]);
        plot->yAxis->setLabel(tr("occupancy (%)"));
        plot_style::setShortLabel(plot->yAxis, tr("occ. %"));
        plot->yAxis->setRange(0, 105);
        m_curves[i] = plot->addGraph();
        m_curves[i]->setPen(QPen(plot_style::kBlue, 2));
        m_curves[i]->setLineStyle(QCPGraph::lsStepLeft);
        m_points[i] = plot->addGraph();
        m_points[i]->setLineStyle(QCPGraph::lsNone);
        m_points[i]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(plot_style::kVermillion, 1.5), plot_style::kVermillion, 10));
        plot->setMinimumHeight(150);
        m_plots[i] = plot;
        plots->addWidget(plot, 1);
    }

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(controls);
    layout->addLayout(plots, 1);
    // The controls beside the plots need about 590 pixels; below 640 they go above them.
    stackWhenNarrow(this, layout, 640);

    connect(m_cc, &QComboBox::activated, this,
            [this](int i) { m_state->setComputeCapability(m_cc->itemData(i).toString().toStdString()); });
    connect(m_mode, &QComboBox::activated, this,
            [this](int i) { m_state->setMode(core::OccupancyMode(m_mode->itemData(i).toInt())); });
    connect(m_threads, &QSpinBox::valueChanged, m_state, &OccupancyState::setThreadsPerBlock);
    connect(m_regs, &QSpinBox::valueChanged, m_state, &OccupancyState::setRegistersPerThread);
    connect(m_smem, &QSpinBox::valueChanged, m_state, [this](int v) { m_state->setSharedMemoryPerBlock(v); });
    connect(m_config, &QComboBox::activated, this, [this](int i) {
        const QVariant data = m_config->itemData(i);
        m_state->setSharedMemoryConfig(data.isNull() ? std::nullopt : std::optional<long long>(data.toLongLong()));
    });
    connect(m_link, &QCheckBox::toggled, m_state, &OccupancyState::setLinked);
    connect(m_eval, &OccupancyEvaluation::updated, this, &OccupancyView::refresh);
    refresh();
}

void OccupancyView::refillConfigs()
{
    const auto *cc = core::findComputeCapability(m_state->computeCapability());
    const QSignalBlocker block(m_config);
    m_config->clear();
    if (!cc)
        return;
    m_config->addItem(tr("Largest (%1 KiB)").arg(cc->smem_per_sm_bytes / 1024), QVariant());
    for (long long bytes : cc->smemConfigsBytes())
        m_config->addItem(tr("%1 KiB").arg(bytes / 1024), bytes);
    const auto &chosen = m_state->input().smem_config;
    m_config->setCurrentIndex(chosen ? m_config->findData(*chosen) : 0);
}

void OccupancyView::refresh()
{
    const auto &in = m_state->input();
    {
        const QSignalBlocker b1(m_cc), b2(m_mode), b3(m_threads), b4(m_regs), b5(m_smem), b6(m_link);
        m_cc->setCurrentIndex(m_cc->findData(QString::fromStdString(m_state->computeCapability())));
        m_mode->setCurrentIndex(m_mode->findData(int(m_state->mode())));
        m_threads->setValue(in.threads_per_block);
        m_regs->setValue(in.regs_per_thread);
        m_smem->setValue(int(std::min<long long>(in.smem_per_block, m_smem->maximum())));
        m_link->setChecked(m_state->linked());
    }
    refillConfigs();

    const auto &r = m_state->result();
    if (!r) {
        m_summary->setText(tr("Invalid configuration"));
        m_limits->setText(m_state->error());
        for (int i = 0; i < 3; ++i) {
            m_curves[i]->data()->clear();
            m_points[i]->data()->clear();
            m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
        }
        return;
    }
    if (r->blocks == 0) {
        m_summary->setText(tr("0 blocks: this launch cannot run"));
    } else {
        m_summary->setText(tr("%1 blocks/SM · %2 warps · %3 %")
                               .arg(r->blocks)
                               .arg(r->warps_per_sm, 0, 'g', 4)
                               .arg(r->occupancy * 100, 0, 'f', 1));
    }
    auto limitText = [](std::optional<int> v) { return v ? QString::number(*v) : tr("no limit"); };
    m_limits->setText(tr("Limited by %1\nBlocks allowed by warps: %2, by the block limit: %3, by registers: %4, "
                         "by shared memory: %5\nShared memory per SM used: %6 KiB of the %7 KiB carveout")
                          .arg(r->limiters.empty() ? tr("nothing") : limiterText(r->limiters))
                          .arg(r->by.warps)
                          .arg(r->by.blocks)
                          .arg(limitText(r->by.registers), limitText(r->by.shared_memory))
                          .arg(double(r->smem_used) / 1024, 0, 'g', 4)
                          .arg(r->smem_config / 1024));

    const double current[3] = {double(in.threads_per_block), double(in.regs_per_thread),
                               double(in.smem_per_block) / 1024.0};
    for (int i = 0; i < 3; ++i) {
        const std::optional<core::OccupancySweep> &sweep = m_eval->sweeps()[std::size_t(i)];
        if (!sweep) {
            m_curves[i]->data()->clear();
            m_points[i]->data()->clear();
            m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
            continue;
        }
        const double scale = i == 2 ? 1.0 / 1024.0 : 1.0;
        QVector<double> x, y;
        x.reserve(qsizetype(sweep->x.size()));
        y.reserve(qsizetype(sweep->x.size()));
        for (std::size_t j = 0; j < sweep->x.size(); ++j) {
            x << double(sweep->x[j]) * scale;
            y << sweep->occupancy[j] * 100;
        }
        m_curves[i]->setData(x, y, true);
        // Shared memory is swept in allocation units: under the CUDA rule a size between two units is
        // allocated the upper one, so each step reaches back to the unit before; the paper's quotient is not
        // rounded, so there each value holds from its own size on, as for the others (swept at every value).
        if (i == 2)
            m_curves[i]->setLineStyle(m_state->mode() == core::OccupancyMode::Cuda ? QCPGraph::lsStepRight
                                                                                   : QCPGraph::lsStepLeft);
        m_points[i]->setData({current[i]}, {r->occupancy * 100}, true);
        m_plots[i]->xAxis->setRange(std::min(x.front(), current[i]), std::max(x.back(), current[i]));
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace crossroof::widgets
