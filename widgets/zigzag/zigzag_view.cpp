// SPDX-License-Identifier: GPL-3.0-or-later
#include "zigzag/zigzag_view.h"

#include "zigzag/zigzag_evaluation.h"

#include "common/cached_group_box.h"
#include "common/labelled.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/narrow_layout.h"
#include "common/plot_style.h"
#include "state/occupancy_state.h"
#include "core/occupancy/scheduling.h"
#include "core/support/error.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace crossroof::widgets {

ZigzagView::ZigzagView(OccupancyState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_eval(new ZigzagEvaluation(state, this))
{
    connect(m_eval, &ZigzagEvaluation::zigzagUpdated, this, &ZigzagView::showZigzag);
    connect(m_eval, &ZigzagEvaluation::tmmUpdated, this, &ZigzagView::showTmm);
    // Two groups, side by side in a wide view and one above the other in a narrow one.
    auto *bar = new QHBoxLayout;
    auto *blocks = new QHBoxLayout;
    auto *requested = new QHBoxLayout;
    m_sms = new QSpinBox(this);
    m_sms->setRange(1, 100000);
    m_sms->setToolTip(tr("S = P/Q: streaming multiprocessors (from the profile)"));
    addLabelled(blocks, tr("S&Ms"), m_sms);
    m_follow = new QCheckBox(tr("B_a from the &calculator"), this);
    m_follow->setToolTip(tr("Follow the occupancy calculator, or untick to force B_a by hand (the paper's "
                            "section V over-requests shared memory to do this)"));
    blocks->addWidget(m_follow);
    m_ba = new QSpinBox(this);
    m_ba->setRange(1, 1024);
    m_ba->setToolTip(tr("B_a: active blocks per SM"));
    addLabelled(blocks, tr("&B_a"), m_ba);
    blocks->addStretch(0); // takes the room only when the groups are stacked
    m_brMax = new QSpinBox(this);
    m_brMax->setRange(0, 1000000);
    m_brMax->setSpecialValueText(tr("6 passes"));
    m_brMax->setToolTip(tr("The largest number of requested blocks B_r plotted (0: six full passes of B_a·S)"));
    addLabelled(requested, tr("B_r &up to"), m_brMax);
    requested->addStretch(0);
    bar->addLayout(blocks);
    bar->addLayout(requested);
    bar->addStretch(1);
    stackWhenNarrow(this, bar, 600);

    auto *tmm = new CachedGroupBox(tr("Time model (TMM)"), this);
    tmm->setToolTip(tr("Time ~ max(T1/P, T_inf, M·L/(T·P)) · f_sched(B_r) (Eq. 1, 6-8), in the model's "
                       "unit-free steps; B_a and S are the ones above"));
    auto *grid = new QGridLayout;
    auto addEdit = [&](int row, int column, const QString &label, const QString &tip, const QString &value) {
        auto *edit = new QLineEdit(value, tmm);
        edit->setToolTip(tip);
        edit->setMinimumWidth(60);
        edit->setMaximumWidth(120);
        auto *l = new QLabel(label, tmm);
        l->setToolTip(tip);
        l->setBuddy(edit);
        grid->addWidget(l, row, 2 * column, Qt::AlignRight);
        grid->addWidget(edit, row, 2 * column + 1);
        return edit;
    };
    const core::TmmSettings defaults;
    auto text = [](const std::string &s) { return QString::fromStdString(s); };
    m_work = addEdit(0, 0, tr("T1"), tr("T1: work, operations (term T1/P)"), text(defaults.work));
    m_span = addEdit(0, 1, tr("T_inf"), tr("T_inf: span, operations on the critical path (term T_inf)"),
                     text(defaults.span));
    m_transactions = addEdit(0, 2, tr("M"), tr("M: global memory transactions (term M·L/(T·P))"),
                             text(defaults.transactions));
    m_latency = addEdit(1, 0, tr("L"), tr("L: latency of one slow-memory access, steps"),
                        text(defaults.latency));
    m_threads = addEdit(1, 1, tr("T"), tr("T: threads per core that hide the latency"),
                        text(defaults.threads_per_core));
    m_cores = addEdit(1, 2, tr("P"), tr("P: cores (S = P/Q SMs)"), text(defaults.cores));
    m_br = addEdit(2, 0, tr("B_r"), tr("B_r: requested blocks the panel evaluates f_sched and the time at"),
                   text(defaults.requested_blocks));
    grid->setColumnStretch(6, 1);

    auto *apspRow = new QHBoxLayout;
    m_apsp = new QPushButton(tr("APSP preset"), tmm);
    m_apsp->setToolTip(tr("All-pairs shortest paths (Eq. 10-14): T1 = n³·lg n, T_inf dropped, "
                          "M = n³·lg n/(S_D·C), B_r = (n/S_D)², with L, T, P above; memory-bound exactly when "
                          "T·S_D < L/C"));
    apspRow->addWidget(m_apsp);
    auto addApsp = [&](const QString &text, QWidget *w) {
        auto *label = new QLabel(text, tmm);
        label->setBuddy(w);
        apspRow->addWidget(label);
        apspRow->addWidget(w);
    };
    m_apspN = new QSpinBox(tmm);
    m_apspN->setRange(2, 1 << 24);
    m_apspN->setValue(defaults.apsp_vertices);
    m_apspN->setToolTip(tr("n: vertices of the graph"));
    addApsp(tr("n"), m_apspN);
    m_apspSd = new QSpinBox(tmm);
    m_apspSd->setRange(1, 1 << 24);
    m_apspSd->setValue(defaults.apsp_sub_block);
    m_apspSd->setToolTip(tr("S_D: sub-block dimension (divides n); one block per S_D × S_D sub-block"));
    addApsp(tr("S_D"), m_apspSd);
    m_apspC = new QLineEdit(text(defaults.apsp_chunk), tmm);
    m_apspC->setMaximumWidth(60);
    m_apspC->setToolTip(tr("C: chunk, accesses grouped into one memory transaction"));
    addApsp(tr("C"), m_apspC);
    apspRow->addStretch(1);

    m_bound = new QLabel(tmm);
    m_bound->setWordWrap(true);
    m_tmmInfo = new QLabel(tmm);
    m_tmmInfo->setWordWrap(true);
    m_tmmInfo->setTextFormat(Qt::PlainText);
    auto *tmmLayout = new QVBoxLayout(tmm);
    tmmLayout->addLayout(grid);
    tmmLayout->addLayout(apspRow);
    tmmLayout->addWidget(m_bound);
    tmmLayout->addWidget(m_tmmInfo);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    m_plot = new QCustomPlot(this);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    plot_style::setupAxes(m_plot);
    PlotNavigator::install(m_plot);
    m_plot->xAxis->setLabel(tr("requested blocks B_{r}"));
    m_plot->yAxis->setLabel(tr("scheduling factor f_{sched} (time / ideal time)"));
    plot_style::setShortLabel(m_plot->yAxis, tr("f_{sched}"));
    m_curve = m_plot->addGraph();
    m_curve->setName(tr("f_{sched}(B_{r})"));
    m_curve->setPen(QPen(plot_style::kBlue, 1.5));
    m_minima = m_plot->addGraph();
    m_minima->setName(tr("minima (B_{r} = j·B_{a}·S)"));
    m_minima->setLineStyle(QCPGraph::lsNone);
    m_minima->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(plot_style::kGreen, 1.5), plot_style::kGreen, 7));
    // The model's time gets a right axis of its own: yAxis2 belongs to the TraceOverlay's measured runtimes
    // (seconds, its own range, shown only while there are some), and model units are not seconds.
    m_timeAxis = m_plot->axisRect()->addAxis(QCPAxis::atRight);
    m_timeAxis->setLabel(tr("predicted time (model units)"));
    plot_style::setShortLabel(m_timeAxis, tr("time (model units)"));
    m_timeAxis->setLabelFont(m_plot->yAxis->labelFont());
    m_timeAxis->setTickLabelFont(m_plot->yAxis->tickLabelFont());
    m_timeAxis->setLabelColor(plot_style::kVermillion);
    m_timeAxis->setBasePen(m_plot->yAxis->basePen());
    m_timeAxis->setTickPen(m_plot->yAxis->tickPen());
    m_timeAxis->setSubTickPen(m_plot->yAxis->subTickPen());
    m_timeAxis->grid()->setVisible(false);
    m_timeCurve = m_plot->addGraph(m_plot->xAxis, m_timeAxis);
    m_timeCurve->setName(tr("TMM time t_{p}·f_{sched}"));
    m_timeCurve->setPen(QPen(plot_style::kVermillion, 1.5, Qt::DashLine));
    plot_style::placeLegendBelow(m_plot);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(tmm);
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
    for (QLineEdit *edit : {m_work, m_span, m_transactions, m_latency, m_threads, m_cores, m_br}) {
        connect(edit, &QLineEdit::textChanged, this, &ZigzagView::refreshTmm);
        connect(edit, &QLineEdit::textChanged, this, &ZigzagView::settingsChanged);
    }
    connect(m_apspC, &QLineEdit::textChanged, this, &ZigzagView::settingsChanged);
    for (QSpinBox *box : {m_apspN, m_apspSd})
        connect(box, &QSpinBox::valueChanged, this, &ZigzagView::settingsChanged);
    connect(m_apsp, &QPushButton::clicked, this, &ZigzagView::applyApspPreset);
    connect(m_state, &OccupancyState::changed, this, &ZigzagView::refresh);
    refresh();
}

void ZigzagView::applyApspPreset()
{
    try {
        core::ApspParams a;
        a.vertices = m_apspN->value();
        a.sub_block = m_apspSd->value();
        a.chunk = parseTmmNumber(m_apspC->text(), "APSP chunk size C");
        a.latency = parseTmmNumber(m_latency->text(), "latency L");
        a.threads_per_core = parseTmmNumber(m_threads->text(), "threads per core T");
        a.cores = parseTmmNumber(m_cores->text(), "cores P");
        a.active_blocks = std::max(1, m_state->activeBlocks());
        a.sms = m_state->smCount();
        const core::TmmParams p = core::apspPreset(a);
        {
            const QSignalBlocker b1(m_work), b2(m_span), b3(m_transactions), b4(m_br);
            m_work->setText(formatExact(p.work));
            m_span->setText(formatExact(p.span));
            m_transactions->setText(formatExact(p.transactions));
            m_br->setText(QString::number(p.requested_blocks));
        }
        Q_EMIT settingsChanged();
        // Widen the plotted B_r so the preset's B_r is in view, as far as the zigzag can go.
        const long long cap = std::min<long long>(m_brMax->maximum(), core::kMaxZigzagPoints);
        if (p.requested_blocks > m_state->requestedBlocksMax() && p.requested_blocks <= cap)
            m_state->setRequestedBlocksMax(std::min(cap, p.requested_blocks + p.requested_blocks / 4));
    } catch (const core::InputError &e) {
        m_eval->clearTmm();
        m_bound->clear();
        m_tmmInfo->setText(QString::fromStdString(e.what()));
        return;
    }
    refreshTmm();
}

const std::optional<core::TmmResult> &ZigzagView::tmmResult() const
{
    return m_eval->tmm();
}

core::TmmSettings ZigzagView::settings() const
{
    core::TmmSettings s;
    s.work = m_work->text().toStdString();
    s.span = m_span->text().toStdString();
    s.transactions = m_transactions->text().toStdString();
    s.latency = m_latency->text().toStdString();
    s.threads_per_core = m_threads->text().toStdString();
    s.cores = m_cores->text().toStdString();
    s.requested_blocks = m_br->text().toStdString();
    s.apsp_vertices = m_apspN->value();
    s.apsp_sub_block = m_apspSd->value();
    s.apsp_chunk = m_apspC->text().toStdString();
    return s;
}

void ZigzagView::setSettings(const core::TmmSettings &s)
{
    {
        const QSignalBlocker b1(m_work), b2(m_span), b3(m_transactions), b4(m_latency), b5(m_threads),
                b6(m_cores), b7(m_br), b8(m_apspN), b9(m_apspSd), b10(m_apspC);
        m_work->setText(QString::fromStdString(s.work));
        m_span->setText(QString::fromStdString(s.span));
        m_transactions->setText(QString::fromStdString(s.transactions));
        m_latency->setText(QString::fromStdString(s.latency));
        m_threads->setText(QString::fromStdString(s.threads_per_core));
        m_cores->setText(QString::fromStdString(s.cores));
        m_br->setText(QString::fromStdString(s.requested_blocks));
        m_apspN->setValue(s.apsp_vertices);
        m_apspSd->setValue(s.apsp_sub_block);
        m_apspC->setText(QString::fromStdString(s.apsp_chunk));
    }
    refreshTmm();
    Q_EMIT settingsChanged();
}

void ZigzagView::refreshTmm()
{
    m_eval->setTmmSettings(settings());
}

void ZigzagView::showTmm()
{
    m_timeCurve->data()->clear();
    m_timeAxis->setVisible(false);
    if (!m_eval->tmm()) {
        m_bound->clear();
        m_tmmInfo->setText(m_eval->tmmError());
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const long long br = m_eval->requestedBlocks();
    const core::TmmResult &r = *m_eval->tmm();
    QString words;
    QColor colour;
    switch (r.bound) {
    case core::TmmBound::Compute:
        words = tr("Compute-bound: the work T1/P dominates; more threads per core do not help (Eq. 13).");
        colour = plot_style::kBlue;
        break;
    case core::TmmBound::Span:
        words = tr("Span-bound: the critical path T_inf dominates.");
        colour = plot_style::kPurple;
        break;
    case core::TmmBound::Memory:
        words = tr("Memory-bound: the latency term M·L/(T·P) dominates; time falls as 1/T (Eq. 14).");
        colour = plot_style::kVermillion;
        break;
    }
    m_bound->setText(words);
    m_bound->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour.name()));
    const bool inView = br <= m_state->requestedBlocksMax();
    m_tmmInfo->setText(tr("T1/P = %1 · T_inf = %2 · M·L/(T·P) = %3, so t_p = %4. At B_r = %5: %6 passes, "
                          "f_sched = %7; predicted time t_p·f_sched = %8 (model units)%9.")
                               .arg(formatNumber(r.work_term), formatNumber(r.span_term),
                                    formatNumber(r.memory_term), formatNumber(r.t_p))
                               .arg(br)
                               .arg(r.passes)
                               .arg(formatNumber(r.f_sched, 6), formatNumber(r.time, 6))
                               .arg(inView ? QString() : tr("; this B_r lies beyond the plotted range")));

    // The time against the plotted B_r: t_p times the f_sched curve, on the same clipping as the left axis.
    QVector<double> x, y;
    x.reserve(m_curve->dataCount());
    y.reserve(m_curve->dataCount());
    for (auto it = m_curve->data()->constBegin(); it != m_curve->data()->constEnd(); ++it) {
        x << it->key;
        y << r.t_p * it->value;
    }
    m_timeCurve->setData(x, y, true);
    if (!x.isEmpty() && r.t_p > 0) {
        m_timeAxis->setVisible(true);
        m_timeAxis->setRange(0, r.t_p * m_plot->yAxis->range().upper);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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
    m_eval->recomputeZigzag();
    refreshTmm();
}

void ZigzagView::showZigzag()
{
    const int ba = m_state->activeBlocks();
    if (ba <= 0) {
        m_info->setText(tr("The launch configuration fits no block on an SM (B_a = 0): nothing to schedule."));
        m_curve->data()->clear();
        m_minima->data()->clear();
        return;
    }
    if (!m_eval->zigzag()) {
        m_info->setText(m_eval->zigzagError());
        m_curve->data()->clear();
        m_minima->data()->clear();
        return;
    }
    const core::Zigzag &z = *m_eval->zigzag();
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
}

} // namespace crossroof::widgets
