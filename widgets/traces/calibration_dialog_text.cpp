// SPDX-License-Identifier: GPL-3.0-or-later
// The calibration dialog's texts: the fit as the panel shows it and as a saved profile's source names it.
#include "traces/calibration_dialog.h"

#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "state/trace_state.h"

#include <QComboBox>
#include <QFileInfo>

#include <cmath>
#include <cstring>
#include <utility>

namespace crossroof::widgets {

namespace {

QString unitOf(const QString &key)
{
    const auto *info = core::findParameter(key.toStdString());
    return info ? QString::fromUtf8(info->unit.data(), qsizetype(info->unit.size())) : QString();
}

/// KEY's symbol as the parameter panel labels its slider: Greek names as letters, a digit after '_' as a
/// subscript (alpha_2's symbol gamma_2 is γ₂), and the key after a symbol that is not the key's own name.
QString symbolOf(const QString &key)
{
    const auto *info = core::findParameter(key.toStdString());
    const QString symbol = info ? QString::fromUtf8(info->symbol.data(), qsizetype(info->symbol.size())) : key;
    QString shown = symbol;
    for (const auto &[name, letter] : {std::pair {"alpha", "α"}, std::pair {"beta", "β"}, std::pair {"gamma", "γ"}}) {
        if (shown.startsWith(QLatin1String(name)))
            shown = QString::fromUtf8(letter) + shown.mid(qsizetype(std::strlen(name)));
    }
    if (shown.size() >= 2 && shown.at(shown.size() - 2) == QLatin1Char('_') && shown.back().isDigit())
        shown = shown.chopped(2) + QChar(0x2080 + shown.back().digitValue());
    return symbol == key ? shown : QStringLiteral("%1 (%2)").arg(shown, key);
}

/// WARNINGS as a list in the plot style's warning colour, nothing when there are none.
QString warningList(const QStringList &warnings)
{
    if (warnings.isEmpty())
        return {};
    QString items;
    for (const QString &w : warnings)
        items += QStringLiteral("<li>%1</li>").arg(w.toHtmlEscaped());
    return QStringLiteral("<p style='color:%1'>%2</p><ul style='color:%1'>%3</ul>")
            .arg(plot_style::kVermillion.name(), CalibrationDialog::tr("Check before applying:"), items);
}

} // namespace

QString CalibrationDialog::symbol(const QString &key)
{
    return symbolOf(key);
}

QString CalibrationDialog::describeFit() const
{
    const auto &now = m_state->params();
    QString rows;
    auto row = [&rows](const QString &name, const QString &value, const QString &current = {}) {
        rows += QStringLiteral("<tr><td>%1</td><td align='right'>&nbsp;<b>%2</b></td><td>&nbsp;%3</td></tr>")
                        .arg(name, value, current);
    };
    for (const auto &[key, value] : fittedValues()) {
        const QString unit = unitOf(key);
        const auto *info = core::findParameter(key.toStdString());
        const double current = info ? now.*(info->member) : 0;
        // The standard error of a cache fit's key (core::FittedParameter::sigma), "± ?" where the data do not
        // determine it.
        QString error;
        if (m_cache) {
            for (const auto &f : m_cache->parameters) {
                if (QString::fromStdString(f.key) == key && f.trace <= 0)
                    error = std::isfinite(f.sigma) ? QStringLiteral(" ± %1").arg(formatNumber(f.sigma))
                                                   : QStringLiteral(" ± ?");
            }
        }
        const QString shown = formatNumber(value) + error;
        row(symbolOf(key), unit.isEmpty() ? shown : QStringLiteral("%1 %2").arg(shown, unit),
            tr("(now %1)").arg(formatNumber(current)));
    }
    QString notes;
    QStringList warnings;
    if (m_roofline) {
        const auto &f = *m_roofline;
        row(QStringLiteral("s"), tr("%1 GB/s per warp").arg(formatNumber(f.slope_gbs_per_warp)));
        row(QStringLiteral("δ = R/s"), tr("%1 warps").arg(formatNumber(f.delta)));
        notes = tr("L = request_bytes·clock·SMs / s = %1 B × %2 GHz × %3 SMs / s, so that the X-model's "
                   "f(k) = k/L requests/cycle/SM is s·k in GB/s. %4 of %5 points lie on the slope.")
                        .arg(formatNumber(m_machine.request_bytes), formatNumber(m_machine.clock_ghz),
                             formatNumber(m_machine.sm_count))
                        .arg(f.rising_points)
                        .arg(f.points);
    } else if (m_cache) {
        // What the fit leaves as it is: the two-level fit fits R and L too, and only S_s/β enters its f(k); the
        // keys the user holds.
        QStringList held;
        for (const auto &f : m_cache->parameters) {
            if (f.held)
                held << QStringLiteral("%1 = %2").arg(symbolOf(QString::fromStdString(f.key)), formatNumber(f.value));
        }
        notes = m_cache->mode == core::CacheMode::TwoLevel
                        ? tr("Held from the current parameters: S_s = %1 KiB (only S_s/β enters f(k), so β is "
                             "fitted in its place) and the device shape.")
                                  .arg(formatNumber(m_machine.S_s))
                        : tr("Held from the current parameters: R = %1 GB/s, L = %2 cycles, S_s = %3 KiB.")
                                  .arg(formatNumber(m_machine.R), formatNumber(m_machine.L),
                                       formatNumber(m_machine.S_s));
        if (!held.isEmpty())
            notes += QLatin1Char(' ') + tr("Held as chosen: %1.").arg(held.join(QStringLiteral(", ")));
        if (m_cache->trace_r2.size() > 1) {
            // A joint fit: each trace's own r² and β; RMSE and r² above are over all of them.
            QStringList each;
            QStringList names {m_traceBox->currentText()};
            for (const QString &id : m_together) {
                if (const core::MeasuredTrace *other = m_traces->trace(id))
                    names << QString::fromStdString(other->name);
            }
            for (std::size_t i = 0; i < m_cache->trace_r2.size() && i < std::size_t(names.size()); ++i) {
                each << tr("%1: r² %2, β = %3 KiB")
                                .arg(names[qsizetype(i)], QString::number(m_cache->trace_r2[i], 'f', 4),
                                     formatNumber(m_cache->trace_beta[i]));
            }
            notes += QLatin1Char(' ')
                     + tr("Fitted together as one machine (every parameter shared but β): %1; RMSE and r² are over "
                          "all %2 points, the plots show the first trace.")
                               .arg(each.join(QStringLiteral("; ")))
                               .arg(m_cache->points);
        }
        if (m_cache->fit_points < m_cache->points) {
            // A long trace is fitted on a bounded part of it (kCacheFitPointLimit), as the command line says.
            notes += QLatin1Char(' ')
                     + tr("Fitted on %1 of the %2 points, spread evenly over k; RMSE, r² and the residuals are "
                          "over every point.")
                               .arg(m_cache->fit_points)
                               .arg(m_cache->points);
        }
        if (!m_cache->converged)
            notes += QLatin1Char(' ') + tr("The fit stopped at its iteration limit.");
        // A degenerate or unphysical result, one sentence each (core::CacheFit::warnings).
        for (const std::string &w : m_cache->warnings)
            warnings << QString::fromStdString(w);
    }
    if (m_machine.measured_f) {
        // The fit is always the analytic curve it names; the X-graph keeps drawing the measured one.
        const core::MeasuredTrace *supply = m_traces->trace(m_state->supplyTrace());
        notes += QLatin1Char(' ')
                 + tr("A measured f(k) is in use (%1): this fit is the model's own curve; the X-graph draws the "
                      "measured one until Use as f(k) is switched off.")
                           .arg(supply ? QString::fromStdString(supply->name) : tr("a trace"));
    }
    const std::size_t points = m_roofline ? m_roofline->points : m_cache->points;
    return tr("<h3>Fitted parameters</h3><table>%1</table>"
              "<h3>Quality</h3><table>"
              "<tr><td>RMSE</td><td align='right'>&nbsp;<b>%2 GB/s</b></td></tr>"
              "<tr><td>r²</td><td align='right'>&nbsp;<b>%3</b></td></tr>"
              "<tr><td>points</td><td align='right'>&nbsp;%4</td></tr></table>"
              "<p>%5</p>%6<p>Apply sets these values (one undo step); Save as Profile writes them into a new "
              "profile file.</p>")
            .arg(rows, formatNumber(rmse()), QString::number(r2(), 'f', 4))
            .arg(points)
            .arg(notes.toHtmlEscaped(), warningList(warnings));
}

std::string CalibrationDialog::sourceText() const
{
    const core::MeasuredTrace *t = m_traces->trace(traceId());
    const QString trace
            = t ? tr("the trace '%1' from %2")
                              .arg(QString::fromStdString(t->name), QString::fromStdString(t->source))
                : QString();
    QString text;
    if (m_roofline) {
        const auto &f = *m_roofline;
        text = tr("Crossroof calibration: least-squares fit of the roofline y = min(s*k, R) to %1 (%2 "
                  "points): "
                  "R = %3 GB/s, s = %4 GB/s per warp, so L = request_bytes*clock*SMs/s = %5 B x %6 GHz x %7 "
                  "SMs "
                  "/ s = %8 cycles; rmse %9 GB/s, r^2 = %10.")
                       .arg(trace)
                       .arg(f.points)
                       .arg(formatNumber(f.R_gbs, 6), formatNumber(f.slope_gbs_per_warp, 6),
                            formatNumber(m_machine.request_bytes), formatNumber(m_machine.clock_ghz),
                            formatNumber(m_machine.sm_count),
                            formatNumber(m_machine.gbsPerRequestRate() / f.slope_gbs_per_warp, 6),
                            formatNumber(f.rmse))
                       .arg(QString::number(f.r2, 'f', 4));
    } else if (m_cache) {
        QStringList values;
        for (const auto &[key, value] : fittedValues())
            values << QStringLiteral("%1 = %2").arg(key, formatNumber(value, 6));
        const core::CacheMode mode = m_cache->mode;
        QString held = mode == core::CacheMode::TwoLevel
                               ? tr("S_s = %1 KiB held").arg(formatNumber(m_machine.S_s))
                               : tr("R = %1 GB/s, L = %2 cycles and S_s = %3 KiB held")
                                         .arg(formatNumber(m_machine.R), formatNumber(m_machine.L),
                                              formatNumber(m_machine.S_s));
        for (const auto &f : m_cache->parameters) {
            if (f.held)
                held += QStringLiteral(", %1 = %2 held").arg(QString::fromStdString(f.key), formatNumber(f.value, 6));
        }
        const QString name = mode == core::CacheMode::Fixed      ? tr("fixed hit rate")
                             : mode == core::CacheMode::TwoLevel ? tr("two-level")
                                                                 : tr("locality");
        QString withOthers;
        for (const QString &id : m_together) {
            if (const core::MeasuredTrace *other = m_traces->trace(id))
                withOthers += tr(" and the trace '%1' from %2")
                                      .arg(QString::fromStdString(other->name), QString::fromStdString(other->source));
        }
        if (!withOthers.isEmpty())
            withOthers += tr(" fitted together (each its own beta)");
        text = tr("Crossroof calibration: least-squares fit of the %1 cache curve (MODEL.md 1.3) to %2 (%3 "
                  "points) with %4: %5; rmse %6 GB/s, r^2 = %7.")
                       .arg(name, trace + withOthers)
                       .arg(m_cache->points)
                       .arg(held, values.join(QStringLiteral(", ")), formatNumber(m_cache->rmse))
                       .arg(QString::number(m_cache->r2, 'f', 4));
    }
    return text.toStdString();
}

} // namespace crossroof::widgets
