// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/number_format.h"

#include <QLocale>
#include <QRegularExpression>

#include <array>
#include <cmath>

namespace crossroof::widgets {

namespace {

struct Prefix {
    const char *symbol;
    int exponent;
};

constexpr std::array<Prefix, 11> kPrefixes {{{"p", -12},
                                             {"n", -9},
                                             {"µ", -6},
                                             {"m", -3},
                                             {"", 0},
                                             {"k", 3},
                                             {"M", 6},
                                             {"G", 9},
                                             {"T", 12},
                                             {"P", 15},
                                             {"E", 18}}};

/// The prefix whose power of ten is the largest multiple of 3 not above EXPONENT, within p..E.
std::size_t prefixFor(int exponent)
{
    std::size_t best = 0;
    for (std::size_t i = 0; i < kPrefixes.size(); ++i) {
        if (kPrefixes[i].exponent <= exponent)
            best = i;
    }
    return best;
}

} // namespace

QString formatNumber(double v, int precision)
{
    if (std::isnan(v))
        return QStringLiteral("–");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QString::number(v, 'g', precision);
}

QString formatExact(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QString formatQuantity(double value, const QString &unit, double scale, int precision)
{
    const double base = value * scale;
    if (!std::isfinite(base) || base == 0) {
        const std::size_t at = prefixFor(int(std::floor(std::log10(scale) + 1e-9)));
        return formatNumber(value, precision) + QLatin1Char(' ') + QString::fromUtf8(kPrefixes[at].symbol)
               + unit;
    }
    std::size_t at = prefixFor(int(std::floor(std::log10(std::abs(base)) + 1e-9)));
    double shown = base / std::pow(10.0, kPrefixes[at].exponent);
    // Rounding to PRECISION digits can carry into the next prefix: 999.96 is "1 k", not "1e+03".
    const double rounded = QString::number(shown, 'g', precision).toDouble();
    if (std::abs(rounded) >= 1000 && at + 1 < kPrefixes.size()) {
        ++at;
        shown = base / std::pow(10.0, kPrefixes[at].exponent);
    }
    return formatNumber(shown, precision) + QLatin1Char(' ') + QString::fromUtf8(kPrefixes[at].symbol) + unit;
}

QString formatReading(const QString &label, double value, int precision)
{
    // "Title (Gop/s)": a prefix the table knows, then a unit that takes one ("warps", "min" and "%" do not).
    static const QRegularExpression titled(
            QStringLiteral("^(.*\\S)\\s*\\(([pnµmkMGTPE]?)(op/s|B/s|B|FLOP/s|flop/s|inst/s|req/s|Hz|s|W)\\)$"));
    if (const QRegularExpressionMatch m = titled.match(label.trimmed()); m.hasMatch() && std::isfinite(value)) {
        int exponent = 0;
        for (const Prefix &p : kPrefixes) {
            if (m.captured(2) == QString::fromUtf8(p.symbol))
                exponent = p.exponent;
        }
        return QStringLiteral("%1 = %2").arg(m.captured(1),
                                             formatQuantity(value, m.captured(3), std::pow(10.0, exponent), precision));
    }
    return QStringLiteral("%1 = %2").arg(label, formatGrouped(value, precision));
}

QString formatGrouped(double v, int precision)
{
    const QString number = formatNumber(v, precision);
    if (!number.contains(QLatin1String("e+")) || !(std::abs(v) < 1e15))
        return number;
    // Rounded to PRECISION digits and written out whole, its thousands grouped.
    const double step = std::pow(10.0, std::floor(std::log10(std::abs(v))) + 1 - precision);
    return QLocale(QLocale::English).toString(std::round(v / step) * step, 'f', 0);
}

std::optional<double> parseExact(const QString &text)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::RejectGroupSeparator);
    bool ok = false;
    const double v = c.toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

} // namespace crossroof::widgets
