// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace crossroof::widgets {

/// Ticks for a log axis at decades: every decade where their labels fit along the axis (QCPAxisTickerLog would
/// thin them to about five), else every second, third ... decade, so that a range of many decades or a small
/// figure still has labels apart. Where each decade has room for three labels, its 2 and 5 multiples are
/// labelled too (1, 2, 5, 10, 20, 50, ...), or where it has room for two, its 3 multiples (1, 3, 10, 30, ...), so
/// that a value between decades can be read off. Where both axes
/// end on decades (the roofline's), their first labels would meet at the corner: a vertical axis leaves out the
/// label at its range's lower end (its tick and grid line stay).
class DecadeTicker : public QCPAxisTickerLog
{
public:
    explicit DecadeTicker(QCPAxis *axis);

protected:
    QVector<double> createTickVector(double, const QCPRange &range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double> &ticks) override;
    QVector<QString> createLabelVector(const QVector<double> &ticks, const QLocale &locale, QChar formatChar,
                                       int precision) override;

private:
    static constexpr int kMostTicks = 100;
    QCPAxis *m_axis;
    double m_lower = 0; ///< the range's lower end, for createLabelVector()
    QVector<double> m_multiples; ///< the multiples of each decade ticked besides it: {2, 5}, {3} or none
};

} // namespace crossroof::widgets
