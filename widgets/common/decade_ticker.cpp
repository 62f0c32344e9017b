// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/decade_ticker.h"

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

DecadeTicker::DecadeTicker(QCPAxis *axis)
    : m_axis(axis)
{
    setTickCount(kMostTicks); // the most; those that fit are drawn
}

QVector<double> DecadeTicker::createTickVector(double, const QCPRange &range)
{
    QVector<double> ticks;
    if (!(range.lower > 0) || !(range.upper > range.lower))
        return ticks;
    const int first = int(std::floor(std::log10(range.lower) + 1e-9));
    const int last = int(std::ceil(std::log10(range.upper) - 1e-9));
    const QFontMetricsF metrics(m_axis->tickLabelFont());
    const QLocale locale = m_axis->parentPlot()->locale();
    const QChar format = m_axis->numberFormat().isEmpty() ? QLatin1Char('g') : m_axis->numberFormat().at(0);
    double widest = 0;
    for (const int e : {first, last})
        widest = std::max(widest, metrics.horizontalAdvance(getTickLabel(std::pow(10.0, e), locale, format,
                                                                         m_axis->numberPrecision())));
    const bool horizontal = m_axis->orientation() == Qt::Horizontal;
    const double room = horizontal ? m_axis->axisRect()->width() : m_axis->axisRect()->height();
    const double each = horizontal ? widest + 2 * metrics.height() : 2 * metrics.height();
    const int fit = std::clamp(int(room / each), 2, tickCount());
    const int step = std::max(1, int(std::ceil(double(last - first) / (fit - 1))));
    // Three labels a decade where they fit: 1, 2 and 5 times each, the nearest (1 and 2, 5 and 10) 0.3 of a decade
    // apart, with two fifths of a line (or a line's height across) between them; else two, 1 and 3 times each
    // (0.48 of a decade apart), so that a level between two decades can still be read off.
    const double decade = room / std::max(1, last - first);
    const double label = horizontal ? widest + metrics.height() : 1.4 * metrics.height();
    m_multiples.clear();
    if (step == 1 && decade >= label / std::log10(2.0))
        m_multiples = {2, 5};
    else if (step == 1 && decade >= label / std::log10(3.0))
        m_multiples = {3};
    // One tick beyond each end, as QCustomPlot's tickers give, so that the sub ticks reach the ends.
    const int start = int(std::floor(double(first) / step)) * step - step;
    for (int e = start; e <= last + step; e += step) {
        ticks.append(std::pow(10.0, e));
        for (const double m : m_multiples) {
            if (e <= last)
                ticks.append(m * std::pow(10.0, e));
        }
    }
    m_lower = range.lower;
    return ticks;
}

QVector<double> DecadeTicker::createSubTickVector(int subTickCount, const QVector<double> &ticks)
{
    if (m_multiples.isEmpty())
        return QCPAxisTickerLog::createSubTickVector(subTickCount, ticks);
    // The integer multiples of each decade between the ticks (3 and 4 between 2 and 5; 6 to 9 after 5).
    QVector<double> subTicks;
    for (int i = 0; i + 1 < ticks.size(); ++i) {
        const double decade = std::pow(10.0, std::floor(std::log10(ticks[i]) + 1e-9));
        for (int m = 2; m <= 9; ++m) {
            const double v = m * decade;
            if (v > ticks[i] * (1 + 1e-9) && v < ticks[i + 1] * (1 - 1e-9))
                subTicks.append(v);
        }
    }
    return subTicks;
}

QVector<QString> DecadeTicker::createLabelVector(const QVector<double> &ticks, const QLocale &locale,
                                                 QChar formatChar, int precision)
{
    QVector<QString> labels = QCPAxisTickerLog::createLabelVector(ticks, locale, formatChar, precision);
    if (m_axis->orientation() == Qt::Vertical) {
        for (int i = 0; i < ticks.size(); ++i) {
            if (std::abs(std::log10(ticks[i] / m_lower)) < 1e-6)
                labels[i].clear();
        }
    }
    return labels;
}

} // namespace crossroof::widgets
