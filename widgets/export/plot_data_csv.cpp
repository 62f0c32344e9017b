// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/plot_data_csv.h"

#include "common/save_file.h"
#include "common/symbol_text.h"

#include <qcustomplot.h>

#include <cmath>

namespace crossroof::widgets {

QString exportPlotData(const QList<QCustomPlot *> &plots, const QString &path)
{
    if (plots.isEmpty())
        return QObject::tr("there is nothing to export in this view");
    QByteArray csv = "plot,series,x,y\n";
    auto quote = [](QString s) {
        s = symbol_text::plain(s); // "f_sched", not the markup that draws its subscript
        s.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QStringLiteral("\"%1\"").arg(s).toUtf8();
    };
    for (int pi = 0; pi < plots.size(); ++pi) {
        QCustomPlot *plot = plots[pi];
        const QByteArray plotName
                = quote(plot->xAxis->label() + QStringLiteral(" / ") + plot->yAxis->label());
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable *p = plot->plottable(i);
            const QByteArray series
                    = quote(p->name().isEmpty() ? QStringLiteral("series %1").arg(i + 1) : p->name());
            auto row = [&](double x, double y) {
                if (std::isfinite(x) && std::isfinite(y))
                    csv += plotName + ',' + series + ',' + QByteArray::number(x, 'g', 12) + ','
                           + QByteArray::number(y, 'g', 12) + '\n';
            };
            if (auto *g = qobject_cast<QCPGraph *>(p)) {
                for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                    row(it->key, it->value);
            } else if (auto *c = qobject_cast<QCPCurve *>(p)) {
                for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
                    row(it->key, it->value);
            } else if (auto *m = qobject_cast<QCPColorMap *>(p)) {
                // A colour map as x, y, value triples would not fit two columns: cells as "x;y" -> value.
                QCPColorMapData *d = m->data();
                for (int yi = 0; yi < d->valueSize(); ++yi) {
                    for (int xi = 0; xi < d->keySize(); ++xi) {
                        double x = 0, y = 0;
                        d->cellToCoord(xi, yi, &x, &y);
                        const double v = d->cell(xi, yi);
                        if (std::isfinite(v))
                            csv += plotName + ','
                                   + quote(p->name() + QStringLiteral(" at y=") + QString::number(y, 'g', 8))
                                   + ',' + QByteArray::number(x, 'g', 12) + ','
                                   + QByteArray::number(v, 'g', 12) + '\n';
                    }
                }
            }
        }
    }
    if (const QString why = saveFileAtomically(path, csv); !why.isEmpty())
        return QObject::tr("%1: cannot write the file (%2)").arg(path, why);
    return {};
}

} // namespace crossroof::widgets
