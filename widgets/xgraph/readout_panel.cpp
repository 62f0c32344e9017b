// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/readout_panel.h"

#include "common/parameter_state.h"
#include "common/thread_unit.h"
#include "common/value_label.h"
#include "common/wrapping_label.h"

#include "common/number_format.h"
#include "xgraph/xmodel_evaluation.h"

#include "core/xmodel/advisor.h"

#include <QAction>
#include <QClipboard>
#include <QGridLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QVBoxLayout>

namespace crossroof::widgets {

namespace {

/// A throughput in GB/s (Gop/s) under the prefix that suits it: "897.2 GB/s", "1.211 TB/s".
QString gbs(double v)
{
    return formatQuantity(v, QStringLiteral("B/s"), si::giga, 4);
}

QString gops(double v)
{
    return formatQuantity(v, QStringLiteral("op/s"), si::giga, 4);
}

QString name(std::string_view s)
{
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    label->setFont(f);
    return label;
}

QGridLayout *grid()
{
    auto *g = new QGridLayout;
    g->setContentsMargins(0, 2, 0, 8);
    g->setHorizontalSpacing(12);
    g->setVerticalSpacing(2);
    g->setColumnStretch(0, 1);
    return g;
}

} // namespace

ReadoutPanel::ReadoutPanel(XModelEvaluation *evaluation, QWidget *parent)
    : QWidget(parent)
    , m_eval(evaluation)
    , m_warning(new WrappingLabel(QString(), this))
    , m_equilibriaGrid(grid())
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(0);

    layout->addWidget(heading(tr("Operating point"), this));
    m_warning->setTextFormat(Qt::PlainText);
    m_warning->setStyleSheet(QStringLiteral("color: #D55E00;"));
    layout->addWidget(m_warning);
    auto *op = grid();
    addRow(op, QStringLiteral("ms"), tr("MS throughput"), tr("f(k) at the operating point"));
    addRow(op, QStringLiteral("cs"), tr("CS throughput"), tr("g(x) = Z·f(k) at the operating point"));
    addRow(op, QStringLiteral("bound"), tr("Bound"),
           tr("compute: x ≥ π; memory: k ≥ δ; capacity: both; thread: neither; cache-thrashing: f falling"));
    addRow(op, QStringLiteral("kx"), tr("Warps k / x"), tr("in the memory system / computing (n = k + x)"));
    addRow(op, QStringLiteral("stability"), tr("Stability"), tr("dk/dt = G(n−k) − f(k)"));
    addRow(op, QStringLiteral("hit"), tr("Hit rate"), tr("shared-cache hit rate h(k) at the operating point"));
    addRow(op, QStringLiteral("margin"), tr("Margin"),
           tr("distance from the operating point to the next (unstable) root: a larger perturbation of k tips "
              "the machine into the low state"));
    layout->addLayout(op);

    layout->addWidget(heading(tr("Equilibria"), this));
    layout->addLayout(m_equilibriaGrid);

    layout->addWidget(heading(tr("Landmarks and metrics"), this));
    auto *lm = grid();
    addRow(lm, QStringLiteral("pi"), tr("π, CS transition"), tr("π = M·L_c/E warps computing"));
    addRow(lm, QStringLiteral("delta"), tr("δ, MS transition"), tr("δ = R_req·L/m warps in the memory system (m requests in flight each)"));
    addRow(lm, QStringLiteral("psi"), tr("ψ, cache peak"), tr("local maximum of f(k) before δ"));
    addRow(lm, QStringLiteral("valley"), tr("Cache valley"), tr("local minimum of f(k) after ψ"));
    addRow(lm, QStringLiteral("mlp"), tr("MLP of machine"), tr("R_req·L: requests in flight needed to saturate the memory system (δ warps hold them)"));
    addRow(lm, QStringLiteral("dlp"), tr("DLP of machine"), tr("M/R_req: the roofline ridge; Z below it is memory bound"));
    addRow(lm, QStringLiteral("tlp"), tr("TLP of machine"), tr("δ + Z·R_req·L_c/E: warps needed to saturate both sides"));
    addRow(lm, QStringLiteral("ilp"), tr("ILP of workload"), tr("E"));
    addRow(lm, QStringLiteral("degradation"), tr("Worst degradation"),
           tr("The largest throughput drop when adding warps to a bistable machine: min(M/Z, highest f) − "
              "lowest f past the cache peak, over k up to max(n, warps per SM); the paper's M/Z − R where "
              "f's peak reaches M/Z and f is flat at R beyond the valley (III-D-2)"));
    layout->addLayout(lm);
    layout->addStretch(1);

    // The values are not selectable (a selectable label builds a text document for every new value): the
    // panel copies as a whole, from its context menu or with Ctrl+C once clicked.
    auto *copyAction = new QAction(tr("&Copy Readout"), this);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copyAction->setStatusTip(tr("Copy every line of the readout as text"));
    connect(copyAction, &QAction::triggered, this, &ReadoutPanel::copy);
    addAction(copyAction);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    setFocusPolicy(Qt::ClickFocus);

    connect(m_eval, &XModelEvaluation::updated, this, &ReadoutPanel::refresh);
    refresh();
}

void ReadoutPanel::copy() const
{
    QGuiApplication::clipboard()->setText(text());
}

ValueLabel *ReadoutPanel::addRow(QGridLayout *g, const QString &key, const QString &title, const QString &tip)
{
    auto *nameLabel = new WrappingLabel(title, this);
    auto *value = new ValueLabel(Qt::AlignRight, this);
    QFont bold = value->font();
    bold.setBold(true);
    value->setFont(bold);
    nameLabel->setToolTip(tip);
    value->setToolTip(tip);
    const int row = g->rowCount();
    g->addWidget(nameLabel, row, 0);
    g->addWidget(value, row, 1);
    m_values.insert(key, value);
    m_tips.insert(key, tip);
    m_rows.append(qMakePair(nameLabel, value));
    return value;
}

void ReadoutPanel::set(const QString &key, const QString &value)
{
    ValueLabel *label = m_values.value(key);
    const bool shown = !value.isEmpty();
    label->setText(value);
    label->setVisible(shown);
    for (const auto &row : std::as_const(m_rows)) {
        if (row.second == label)
            row.first->setVisible(shown);
    }
}

QString ReadoutPanel::text() const
{
    QStringList lines;
    if (!m_warning->isHidden())
        lines << m_warning->text();
    for (const auto &row : m_rows) {
        if (!row.second->isHidden())
            lines << row.first->text() + QStringLiteral(": ") + row.second->text();
    }
    for (const auto &[n, v] : m_equilibria) {
        if (!v->isHidden())
            lines << n->text() + QStringLiteral(": ") + v->text();
    }
    return lines.join(QLatin1Char('\n'));
}

double ReadoutPanel::worstDegradationGbs(const core::XModelParams &params)
{
    // Finding f's falling stretches is the costly part (numeric in two-level mode); a drag of n, Z or E keeps f.
    if (!m_shape || !m_shape->sameSupply(params))
        m_shape.emplace(params);
    return core::worstDegradationGbs(params, *m_shape);
}

void ReadoutPanel::refresh()
{
    const auto &model = m_eval->model();
    if (!model) {
        m_warning->setText(tr("Cannot evaluate the model: %1").arg(m_eval->error()));
        m_warning->show();
        for (auto *label : std::as_const(m_values))
            label->clear();
        return;
    }
    const auto &p = model->params();
    const auto &r = m_eval->result();
    const auto &op = r.operatingPoint();
    const int stable = r.stableCount();
    const QString unit = threadUnit(m_eval->state()->profile()); // warps, or a CPU's threads
    const auto count = [&unit](double v) { return QStringLiteral("%1 %2").arg(formatNumber(v), unit); };

    QString warning;
    if (stable > 1) {
        warning = tr("Bistable: %1 stable states. From a cold start the machine settles in the one with fewer %2 "
                     "waiting on memory.")
                      .arg(stable)
                      .arg(unit);
    }
    if (p.n > p.max_warps)
        warning += (warning.isEmpty() ? QString() : QStringLiteral("\n"))
                   + tr("n = %1 exceeds the %2 %3 this device holds.")
                             .arg(formatNumber(p.n), formatNumber(p.max_warps), unit);
    if (m_warning->text() != warning)
        m_warning->setText(warning);
    m_warning->setVisible(!warning.isEmpty());

    set(QStringLiteral("ms"), gbs(op.ms_gbs));
    set(QStringLiteral("cs"), gops(op.cs_gops));
    set(QStringLiteral("bound"), name(core::boundClassName(op.bound)));
    set(QStringLiteral("kx"), tr("%1 / %2").arg(formatNumber(op.k), count(op.x)));
    set(QStringLiteral("stability"), name(core::stabilityName(op.stability)));
    set(QStringLiteral("hit"), op.hit_rate ? formatNumber(*op.hit_rate, 3) : QString());
    set(QStringLiteral("margin"),
        r.margin_warps ? count(*r.margin_warps) : tr("none (unique)"));

    // One row per equilibrium; rows are kept and hidden rather than rebuilt.
    while (m_equilibria.size() < r.equilibria.size()) {
        auto *n = new ValueLabel(Qt::AlignLeft, this);
        auto *v = new ValueLabel(Qt::AlignRight, this);
        const int row = int(m_equilibria.size());
        m_equilibriaGrid->addWidget(n, row, 0);
        m_equilibriaGrid->addWidget(v, row, 1);
        m_equilibria.emplace_back(n, v);
    }
    for (std::size_t i = 0; i < m_equilibria.size(); ++i) {
        auto [n, v] = m_equilibria[i];
        const bool shown = i < r.equilibria.size();
        n->setVisible(shown);
        v->setVisible(shown);
        if (!shown)
            continue;
        const auto &e = r.equilibria[i];
        n->setText((i == r.operating_index ? QStringLiteral("▶ ") : QString())
                   + tr("k = %1").arg(formatNumber(e.k)));
        v->setText(tr("%1, %2").arg(gbs(e.ms_gbs), name(core::stabilityName(e.stability))));
        v->setToolTip(tr("x = %1, %2, %3-bound").arg(count(e.x), gops(e.cs_gops), name(core::boundClassName(e.bound))));
    }

    const auto &lm = r.landmarks;
    const auto &m = r.metrics;
    set(QStringLiteral("pi"), count(lm.pi));
    // delta, the MLP and the TLP are R and L's: a measured f(k) need not turn or level off where they say.
    const QString ofParameters = p.measured_f ? tr(" (parameters)") : QString();
    set(QStringLiteral("delta"), count(lm.delta) + ofParameters);
    set(QStringLiteral("psi"), lm.psi ? tr("%1, %2").arg(count(*lm.psi), gbs(*lm.psi_gbs)) : QString());
    set(QStringLiteral("valley"), lm.valley ? tr("%1, %2").arg(count(*lm.valley), gbs(*lm.valley_gbs)) : QString());
    set(QStringLiteral("mlp"), tr("%1 requests").arg(formatNumber(m.mlp)) + ofParameters);
    set(QStringLiteral("dlp"), tr("%1 inst/req").arg(formatNumber(m.dlp_machine)));
    set(QStringLiteral("tlp"),
        m.tlp_machine ? count(*m.tlp_machine) + ofParameters : tr("n/a (Z·R > M)"));
    const QString measuredTip = p.measured_f ? tr("\nf(k) is a measured curve: this value comes from the "
                                                  "parameters R and L, which no longer describe it.")
                                             : QString();
    for (const char *key : {"delta", "mlp", "tlp"})
        m_values.value(QLatin1String(key))->setToolTip(m_tips.value(QLatin1String(key)) + measuredTip);
    set(QStringLiteral("ilp"), formatNumber(m.ilp));
    // Only a bistable machine can fall to a lower state (the bound needs f's shape: computed only then).
    set(QStringLiteral("degradation"), stable > 1 ? gbs(worstDegradationGbs(p)) : QString());
}

} // namespace crossroof::widgets
