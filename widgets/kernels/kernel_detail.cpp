// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/kernel_detail.h"

#include "common/number_format.h"

#include <QCoreApplication>

#include <cmath>

namespace crossroof::widgets {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("KernelDetail", text);
}

} // namespace

QString breakLongWords(const QString &text)
{
    constexpr int kPiece = 10; // the shortest piece a word is broken into
    QString out;
    out.reserve(text.size() + text.size() / 8);
    int wordLength = 0;
    for (const QChar c : text) {
        out += c;
        wordLength = c.isSpace() ? 0 : wordLength + 1;
        if (wordLength >= kPiece && (c == u'_' || c == u'.' || c == u'/' || c == u',' || c == u'<')) {
            out += QChar(0x200B);
            wordLength = 0;
        }
    }
    return out;
}

QString kernelLimitText(const core::KernelRow &row)
{
    if (row.limit)
        return QString::fromLatin1(core::kernelLimitName(*row.limit).data());
    if (!row.skipped.empty())
        return tr("no prediction: %1").arg(QString::fromStdString(row.skipped));
    return QStringLiteral("–");
}

QString kernelDiagnosisText(const core::KernelRow &row)
{
    if (!row.predicted_gbs) {
        return row.skipped.empty() ? tr("No prediction.")
                                   : tr("No prediction: %1").arg(QString::fromStdString(row.skipped));
    }
    QStringList parts;
    if (row.limit)
        parts << tr("Bound by %1.").arg(kernelLimitText(row));
    QStringList changes;
    for (const core::KernelChange &c : row.diagnosis)
        changes << QStringLiteral("%1: %2 %")
                           .arg(QString::fromStdString(c.change), QString::asprintf("%+.0f", c.gain * 100));
    parts << (changes.isEmpty()
                      ? tr("No change the model weighs gains 0.5 % or more.")
                      : tr("The model's best changes: %1.").arg(changes.join(QStringLiteral("; "))));
    return parts.join(QLatin1Char(' '));
}

QString kernelDetailText(const core::KernelRow &row)
{
    QString text
            = QString::fromStdString(row.name) + QStringLiteral(" [%1]").arg(QString::fromStdString(row.id));
    if (row.dram_gbs || row.predicted_gbs) {
        const auto gbs
                = [](const std::optional<double> &v) { return v ? formatNumber(*v) : QStringLiteral("–"); };
        text += QLatin1Char('\n')
                + tr("DRAM %1 GB/s measured%2, %3 GB/s predicted")
                          .arg(gbs(row.dram_gbs),
                               row.dram_gbs_derived ? tr(" (from DRAM Throughput %)") : QString(),
                               gbs(row.predicted_gbs));
        if (row.error)
            text += tr(" (error %1 %)").arg(QString::asprintf("%+.1f", *row.error * 100));
    }
    return text + QLatin1Char('\n') + kernelDiagnosisText(row);
}

} // namespace crossroof::widgets
