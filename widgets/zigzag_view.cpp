// SPDX-License-Identifier: GPL-3.0-or-later
#include "zigzag_view.h"

#include "error.h"
#include "occupancy_state.h"
#include "plot_style.h"
#include "scheduling.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace crossroof::widgets {

ZigzagView::ZigzagView(OccupancyState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    auto *bar = new QHBoxLayout;
    auto addLabelled = [&](const QString &text, QWidget *w) {
        auto *label = new QLabel(text, this);
        label->setBuddy(w);
        bar->addWidget(label);
        bar->addWidget(w);
    };
    m_sms = new QSpinBox(this);
    m_sms->setRange(1, 100000);
    m_sms->setToolTip(tr("S = P/Q: streaming multiprocessors (from the profile)"));
    addLabelled(tr("S&Ms"), m_sms);
    m_follow = new QCheckBox(tr("B_a from the &calculator"), this);
    m_follow->setToolTip(tr("Follow the occupancy calculator, or untick to force B_a by hand (the paper's "
                            "section V over-requests shared memory to do this)"));
    bar->addWidget(m_follow);
    m_ba = new QSpinBox(this);
    m_ba->setRange(1, 1024);
    m_ba->setToolTip(tr("B_a: active blocks per SM"));
    addLabelled(tr("&B_a"), m_ba);
    m_brMax = new QSpinBox(this);
    m_brMax->setRange(0, 1000000);
    m_brMax->setSpecialValueText(tr("6 passes"));
    m_brMax->setToolTip(tr("The largest number of requested blocks B_r plotted (0: six full passes of B_a·S)"));
    addLabelled(tr("B_r &up to"), m_brMax);
    bar->addStretch(1);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    m_plot = new QCustomPlot(this);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    plot_style::setupAxes(m_plot);
    m_plot->xAxis->setLabel(tr("requested blocks B_r"));
    m_plot->yAxis->setLabel(tr("scheduling factor f_sched (time / ideal time)"));
    m_curve = m_plot->addGraph();
    m_curve->setName(tr("f_sched = ceil(B_r/(B_a·S))·B_a·S/B_r"));
    m_curve->setPen(QPen(plot_style::kBlue, 1.5));
    m_minima = m_plot->addGraph();
    m_minima->setName(tr("minima: B_r a multiple of B_a·S"));
    m_minima->setLineStyle(QCPGraph::lsNone);
    m_minima->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(plot_style::kGreen, 1.5), plot_style::kGreen, 7));
    plot_style::placeLegendBelow(m_plot);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_info);
    layout->addWidget(m_plot, 1);

    connect(m_sms, &QSpinBox::valueChanged, m_state, [this](int v) { m_state->setSmCount(v); });
    connect(m_brMax, &QSpinBox::valueChanged, m_state, [this](int v) { m_state->setRequestedBlocksMax(v); });
    connect(m_follow, &QCheckBox::toggled, this, [this](bool follow) {
        m_state->setManualActiveBlocks(follow ? std::nullopt : std::optional<int>(std::max(1, m_state->activeBlocks())));
    });
    connect(m_ba, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_follow->isChecked())
            m_state->setManualActiveBlocks(v);
    });
    connect(m_state, &OccupancyState::changed, this, &ZigzagView::refresh);
    refresh();
}

void ZigzagView::refresh()
{
    const int ba = m_state->activeBlocks();
    {
        const QSignalBlocker b1(m_sms), b2(m_follow), b3(m_ba), b4(m_brMax);
        m_sms->setValue(int(m_state->smCount()));
        m_follow->setChecked(!m_state->manualActiveBlocks());
        m_ba->setEnabled(m_state->manualActiveBlocks().has_value());
        m_ba->setValue(std::max(1, ba));
        m_brMax->setValue(m_state->requestedBlocksMaxIsAuto() ? 0 : int(m_state->requestedBlocksMax()));
    }
    if (ba <= 0) {
        m_info->setText(tr("The launch configuration fits no block on an SM (B_a = 0): nothing to schedule."));
        m_curve->data()->clear();
        m_minima->data()->clear();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    try {
        const core::Zigzag z = core::zigzag(m_state->smCount(), ba, 1, m_state->requestedBlocksMax());
        QVector<double> x, y, mx, my;
        x.reserve(qsizetype(z.br.size()));
        y.reserve(qsizetype(z.br.size()));
        for (std::size_t i = 0; i < z.br.size(); ++i) {
            x << double(z.br[i]);
            y << z.f_sched[i];
        }
        for (long long m : z.minima) {
            mx << double(m);
            my << 1.0;
        }
        m_curve->setData(x, y, true);
        m_minima->setData(mx, my, true);
        m_plot->xAxis->setRange(0, double(m_state->requestedBlocksMax()) + 1);
        // Below one full pass f_sched = B_a·S/B_r grows without bound; the range shows the zigzag after it.
        double top = 1;
        for (std::size_t i = 0; i < z.br.size(); ++i) {
            if (z.br[i] >= z.blocks_per_pass)
                top = std::max(top, z.f_sched[i]);
        }
        if (top <= 1)
            top = std::min(y.front(), 4.0);
        m_plot->yAxis->setRange(0.9, top * 1.08);
        m_info->setText(tr("B_a = %1 blocks per SM × S = %2 SMs = %3 blocks per pass. A launch whose B_r is not a "
                           "multiple of that leaves SMs idle in the last pass; the worst case, one block past a "
                           "multiple, costs a whole extra pass. Below one pass f_sched = B_a·S/B_r leaves the top of the plot.")
                            .arg(ba)
                            .arg(m_state->smCount())
                            .arg(z.blocks_per_pass));
    } catch (const core::InputError &e) {
        m_info->setText(QString::fromStdString(e.what()));
        m_curve->data()->clear();
        m_minima->data()->clear();
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace crossroof::widgets
