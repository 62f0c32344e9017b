// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/calibration_views.h"

#include "common/symbol_text.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QTableWidget>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

namespace crossroof::widgets {

namespace {

const std::array<QColor, 6> kColours {plot_style::kBlue,   plot_style::kOrange, plot_style::kGreen,
                                      plot_style::kPurple, plot_style::kSky,    plot_style::kVermillion};
const std::array<QCPScatterStyle::ScatterShape, 6> kShapes {
        QCPScatterStyle::ssDisc,    QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangleInverted};

QString fileName(const std::string &path)
{
    return QString::fromStdString(std::filesystem::path(path).filename().string());
}

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QTableWidgetItem *item(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

/// A number that sorts as a number, shown with PRECISION significant digits.
QTableWidgetItem *numberItem(double value, int precision)
{
    auto *item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setData(Qt::DisplayRole, QString::number(value, 'g', precision).toDouble());
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

QString shareText(double share)
{
    return share < 0.005 ? QObject::tr("<1 %") : QStringLiteral("%1 %").arg(std::round(100 * share));
}

namespace {

void setHeaders(QTableWidget *table, const QStringList &labels, const QStringList &tips)
{
    table->setColumnCount(int(labels.size()));
    for (int c = 0; c < labels.size(); ++c) {
        auto *header = new QTableWidgetItem(labels[c]);
        header->setToolTip(tips.value(c));
        table->setHorizontalHeaderItem(c, header);
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
}

} // namespace

void setupCalibrationPlot(QCustomPlot *plot)
{
    plot_style::setupAxes(plot);
    PlotNavigator::install(plot);
    plot->setAccessibleName(QObject::tr("Predicted against measured values of every source"));
    plot_style::setLogScale(plot->xAxis, true);
    plot_style::setLogScale(plot->yAxis, true);
    plot->xAxis->setLabel(QObject::tr("measured (GB/s; latencies in cycles)"));
    plot->yAxis->setLabel(QObject::tr("predicted (GB/s; latencies in cycles)"));
    plot_style::setShortLabel(plot->xAxis, QObject::tr("measured"));
    plot_style::setShortLabel(plot->yAxis, QObject::tr("predicted"));
    plot->setToolTip(
            QObject::tr("Each measured value against the fitted X-model's prediction, in the source's "
                        "unit; on the dashed line predicted = measured"));
    plot_style::placeLegendBelow(plot);
}

void drawCalibration(QCustomPlot *plot, const core::JointCalibration *fit)
{
    plot->clearGraphs();
    double lo = INFINITY, hi = 0;
    if (fit) {
        for (std::size_t s = 0; s < fit->sources.size(); ++s) {
            const core::SourceReport &report = fit->sources[s];
            QCPGraph *g = plot->addGraph();
            const QColor colour = kColours[s % kColours.size()];
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(kShapes[s % kShapes.size()], QPen(colour, 1.5), colour, 7));
            g->setName(symbol_text::literal(QStringLiteral("%1 (%2)").arg(fileName(report.source), text(report.unit))));
            for (const core::SourceRow &row : report.rows) {
                g->addData(row.measured, row.predicted);
                if (row.predicted > 0) {
                    lo = std::min({lo, row.measured, row.predicted});
                    hi = std::max({hi, row.measured, row.predicted});
                }
            }
        }
    }
    if (hi > 0) {
        QCPGraph *diagonal = plot->addGraph();
        diagonal->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
        diagonal->setName(QObject::tr("predicted = measured"));
        diagonal->setData({lo / 1.3, hi * 1.3}, {lo / 1.3, hi * 1.3});
        plot->xAxis->setRange(lo / 1.3, hi * 1.3);
        plot->yAxis->setRange(lo / 1.3, hi * 1.3);
    }
    plot->replot();
}

void setupValuesTable(QTableWidget *table)
{
    setHeaders(
            table,
            {QObject::tr("source"), QObject::tr("line"), QObject::tr("measured"), QObject::tr("predicted"),
             QObject::tr("unit"), QObject::tr("error (%)"), QObject::tr("accuracy"), QObject::tr("value")},
            {QObject::tr("The file the value comes from"), QObject::tr("Its line in the file"),
             QObject::tr("Measured, in the unit column's unit"),
             QObject::tr("The fitted X-model's prediction, in the unit column's unit"),
             QObject::tr("GB/s: the family's and stream's memory throughput, a kernel's DRAM throughput; "
                         "cycles: a latency"),
             QObject::tr("error = 100 · (predicted − measured) / measured"),
             QObject::tr("accuracy = 1 − |predicted − measured| / measured, floored at 0"),
             QObject::tr(
                     "The kernel (n warps per SM, Z warp-instructions per request, E chains), the stream's "
                     "warps per SM, the chase, or the ncu kernel's id and name")});
    // In the sources' order until a header is clicked.
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->setSortingEnabled(true);
    table->setAccessibleName(QObject::tr("Every measured value with its prediction"));
}

void fillValuesTable(QTableWidget *table, const core::JointCalibration *fit)
{
    table->setSortingEnabled(false);
    table->setRowCount(0);
    if (!fit) {
        table->setSortingEnabled(true);
        return;
    }
    int rows = 0;
    for (const core::SourceReport &report : fit->sources)
        rows += int(report.rows.size());
    table->setRowCount(rows);
    int r = 0;
    for (const core::SourceReport &report : fit->sources) {
        const QString file = fileName(report.source);
        for (const core::SourceRow &row : report.rows) {
            table->setItem(r, 0, item(file));
            table->setItem(r, 1, numberItem(row.line, 10));
            table->setItem(r, 2, numberItem(row.measured, 6));
            table->setItem(r, 3, numberItem(row.predicted, 6));
            table->setItem(r, 4, item(text(report.unit)));
            table->setItem(r, 5, numberItem(100 * row.error, 3));
            table->setItem(r, 6, numberItem(row.accuracy, 3));
            QTableWidgetItem *label = item(QString::fromStdString(row.label));
            label->setToolTip(label->text());
            table->setItem(r, 7, label);
            ++r;
        }
    }
    table->setSortingEnabled(true);
}

void setupParametersTable(QTableWidget *table)
{
    setHeaders(table,
               {QObject::tr("parameter"), QObject::tr("before"), QObject::tr("after"), QObject::tr("unit"),
                QObject::tr("from")},
               {QObject::tr("A machine parameter the calibration changes"),
                QObject::tr("The current value the fit started from"),
                QObject::tr("The fitted value, or the value a file measures directly"),
                QObject::tr("The parameter's unit"),
                QObject::tr("Fitted: each source's share of Σ (∂rᵢ/∂ log p)², rᵢ the weighted residuals "
                            "log(predicted / measured); set: the file and line that measure it")});
    table->setAccessibleName(QObject::tr("The parameters the calibration changes"));
}

void fillParametersTable(QTableWidget *table, const core::JointCalibration *fit,
                         const core::XModelParams &start)
{
    table->setRowCount(0);
    if (!fit)
        return;
    const auto addRow = [&](const std::string &key, double value, const QString &from, const QString &tip) {
        const core::ParameterInfo *info = core::findParameter(key);
        const int r = table->rowCount();
        table->insertRow(r);
        QTableWidgetItem *name = item(QString::fromStdString(key));
        name->setToolTip(text(info->tooltip));
        table->setItem(r, 0, name);
        table->setItem(r, 1, item(formatNumber(start.*(info->member))));
        table->setItem(r, 2, item(formatNumber(value)));
        table->setItem(r, 3, item(info->unit.empty() ? QObject::tr("(none)") : text(info->unit)));
        QTableWidgetItem *source = item(from);
        source->setToolTip(tip);
        table->setItem(r, 4, source);
        for (int c : {1, 2})
            table->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    for (const core::KeyOrigin &o : fit->origins) {
        QStringList shares;
        for (const auto &[index, share] : o.shares)
            shares << QStringLiteral("%1 %2").arg(fileName(fit->sources[index].source), shareText(share));
        QString from = o.undetermined
                ? (o.free_upward ? QObject::tr("not determined: every larger value predicts the same")
                                 : QObject::tr("not determined: every smaller value predicts the same"))
                : QObject::tr("fitted: %1").arg(shares.join(QStringLiteral(", ")));
        if (std::find(fit->at_bound.begin(), fit->at_bound.end(), o.key) != fit->at_bound.end())
            from += QObject::tr(" (on a bound of its range: no source pins it down)");
        addRow(o.key, fit->params.*(core::findParameter(o.key)->member), from,
               QObject::tr("Least squares of log(predicted / measured) over every source's values"));
    }
    for (const core::KeySetting &s : fit->settings) {
        addRow(s.key, s.value,
               QObject::tr("set: %1, %2").arg(fileName(s.source), QString::fromStdString(s.how)),
               QObject::tr("Measured directly by the file rather than fitted"));
    }
}

} // namespace crossroof::widgets
