// SPDX-License-Identifier: GPL-3.0-or-later
#include "readout_panel.h"

#include "xmodel_evaluation.h"

#include <QLabel>
#include <QVBoxLayout>

namespace crossroof::widgets {

namespace {

QString num(double v, int precision = 4)
{
    return QString::number(v, 'g', precision);
}

QString row(const QString &name, const QString &value, const QString &tip = {})
{
    return QStringLiteral("<tr><td title=\"%3\">%1</td><td align=\"right\"><b>%2</b></td></tr>")
        .arg(name, value, tip.toHtmlEscaped());
}

QString name(std::string_view s)
{
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

} // namespace

ReadoutPanel::ReadoutPanel(XModelEvaluation *evaluation, QWidget *parent)
    : QWidget(parent)
    , m_eval(evaluation)
    , m_label(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    m_label->setTextFormat(Qt::RichText);
    m_label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_label->setWordWrap(true);
    layout->addWidget(m_label);
    layout->addStretch(1);
    connect(m_eval, &XModelEvaluation::updated, this, &ReadoutPanel::refresh);
    refresh();
}

QString ReadoutPanel::text() const
{
    return m_label->text();
}

void ReadoutPanel::refresh()
{
    const auto &model = m_eval->model();
    if (!model) {
        m_label->setText(tr("<p style=\"color:#D55E00\"><b>Cannot evaluate the model.</b><br>%1</p>")
                             .arg(m_eval->error().toHtmlEscaped()));
        return;
    }
    const auto &p = model->params();
    const auto &r = m_eval->result();
    const auto &op = r.operatingPoint();
    const int stable = r.stableCount();

    QString html;
    html += tr("<h3 style=\"margin:0\">Operating point</h3>");
    if (stable > 1) {
        html += tr("<p style=\"color:#D55E00;margin:2px 0\"><b>Bistable:</b> %1 stable states; the machine "
                   "settles in the lower-k one from a cold start.</p>")
                    .arg(stable);
    }
    html += QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"1\">");
    html += row(tr("MS throughput"), tr("%1 GB/s").arg(num(op.ms_gbs)), tr("f(k) at the operating point"));
    html += row(tr("CS throughput"), tr("%1 Gop/s").arg(num(op.cs_gops)), tr("g(x) = Z·f(k) at the operating point"));
    html += row(tr("Bound"), name(core::boundClassName(op.bound)),
                tr("compute: x ≥ π; memory: k ≥ δ; capacity: both; thread: neither; cache-thrashing: f falling"));
    html += row(tr("Warps k / x"), tr("%1 / %2").arg(num(op.k), num(op.x)), tr("in the memory system / computing"));
    html += row(tr("Stability"), name(core::stabilityName(op.stability)), tr("dk/dt = G(n−k) − f(k)"));
    if (op.hit_rate)
        html += row(tr("Hit rate"), num(*op.hit_rate, 3), tr("shared-cache hit rate at k"));
    html += row(tr("Margin"), r.margin_warps ? tr("%1 warps").arg(num(*r.margin_warps)) : tr("none (unique)"),
                tr("distance from the operating point to the next (unstable) root: a larger perturbation tips "
                   "the machine into the low state"));
    html += QStringLiteral("</table>");

    html += tr("<h3 style=\"margin:8px 0 0 0\">Equilibria (%1)</h3>").arg(r.equilibria.size());
    html += QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"1\">");
    for (std::size_t i = 0; i < r.equilibria.size(); ++i) {
        const auto &e = r.equilibria[i];
        const QString mark = i == r.operating_index ? QStringLiteral("▶ ") : QString();
        html += row(mark + tr("k = %1").arg(num(e.k)),
                    tr("%1 GB/s, %2").arg(num(e.ms_gbs), name(core::stabilityName(e.stability))),
                    name(core::boundClassName(e.bound)));
    }
    html += QStringLiteral("</table>");

    const auto &lm = r.landmarks;
    const auto &m = r.metrics;
    html += tr("<h3 style=\"margin:8px 0 0 0\">Landmarks and metrics</h3>");
    html += QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"1\">");
    html += row(tr("π (CS transition)"), tr("%1 warps").arg(num(lm.pi)), tr("π = M/E"));
    html += row(tr("δ (MS transition)"), tr("%1 warps").arg(num(lm.delta)), tr("δ = R_req·L"));
    if (lm.psi)
        html += row(tr("ψ (cache peak)"), tr("%1 warps, %2 GB/s").arg(num(*lm.psi), num(*lm.psi_gbs)),
                    tr("local maximum of f(k) before δ"));
    if (lm.valley)
        html += row(tr("Cache valley"), tr("%1 warps, %2 GB/s").arg(num(*lm.valley), num(*lm.valley_gbs)),
                    tr("local minimum of f(k) after ψ"));
    html += row(tr("MLP of machine"), tr("%1 warps").arg(num(m.mlp)), tr("R_req·L"));
    html += row(tr("DLP of machine"), tr("%1 inst/req").arg(num(m.dlp_machine)),
                tr("M/R_req: the roofline ridge; Z below it is memory bound"));
    html += row(tr("TLP of machine"), m.tlp_machine ? tr("%1 warps").arg(num(*m.tlp_machine)) : tr("n/a (Z·R > M)"),
                tr("δ + Z·R_req/E: warps needed to saturate both sides"));
    html += row(tr("ILP of workload"), num(m.ilp), tr("E"));
    if (stable > 1) {
        html += row(tr("Worst degradation"), tr("%1 GB/s").arg(num(m.degradation_max_gbs)),
                    tr("M/Z − R: the largest drop when adding warps (III-D-2)"));
    }
    html += QStringLiteral("</table>");
    if (p.n > p.max_warps) {
        html += tr("<p style=\"color:#D55E00\">n = %1 exceeds the %2 warp slots of this device.</p>")
                    .arg(num(p.n), num(p.max_warps));
    }
    m_label->setText(html);
}

} // namespace crossroof::widgets
