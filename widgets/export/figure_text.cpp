// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_text.h"

#include "common/label_placement.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"

#include <qcustomplot.h>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace crossroof::widgets::figure {

namespace {

/// The least room between two tick labels of one axis, in canvas units (2.5 pt at half a point a line): labels
/// that merely touch read as one ("2T_12T_2").
constexpr double kTickLabelGap = 5;

/// The width of a tick label as the axis draws it: "1e+03" with beautiful powers is a 10 and a raised 3.
double tickLabelWidth(const QCPAxis *axis, const QString &label, const QFontMetricsF &metrics)
{
    const int e = int(label.indexOf(QLatin1Char('e')));
    if (e < 0 || !axis->numberFormat().contains(QLatin1Char('b')))
        return metrics.horizontalAdvance(label);
    QString mantissa = label.left(e);
    if (mantissa == QLatin1String("1"))
        mantissa.clear();
    QString exponent = label.mid(e + 1);
    if (exponent.startsWith(QLatin1Char('+')))
        exponent.remove(0, 1);
    while (exponent.startsWith(QLatin1Char('0')) || exponent.startsWith(QLatin1String("-0")))
        exponent.remove(exponent.startsWith(QLatin1Char('-')) ? 1 : 0, 1);
    const QString base = mantissa.isEmpty() ? QStringLiteral("10") : mantissa + QStringLiteral("·10");
    QFont small = axis->tickLabelFont();
    small.setPixelSize(std::max(1, int(std::lround(QFontInfo(small).pixelSize() * 0.75))));
    return metrics.horizontalAdvance(base) + QFontMetricsF(small).horizontalAdvance(exponent);
}

/// The tick labels and the title of AXIS, laid out as QCustomPlot draws them.
void addAxisBoxes(QCPAxis *axis, double dy, std::vector<TextBox> &boxes)
{
    if (!axis->visible())
        return;
    const QRect r = axis->axisRect()->rect();
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const double out = axis->offset() + (axis->ticks() ? std::max(0, axis->tickLengthOut()) : 0)
                       + axis->tickLabelPadding();
    const auto place = [&](double along, double from, QSizeF size) {
        // ALONG: centre along the axis; FROM: distance out from the axis rect's edge.
        switch (axis->axisType()) {
        case QCPAxis::atBottom:
            return QRectF(along - size.width() / 2, r.bottom() + from, size.width(), size.height());
        case QCPAxis::atTop:
            return QRectF(along - size.width() / 2, r.top() - from - size.height(), size.width(),
                          size.height());
        case QCPAxis::atLeft:
            return QRectF(r.left() - from - size.width(), along - size.height() / 2, size.width(),
                          size.height());
        case QCPAxis::atRight:
            return QRectF(r.right() + from, along - size.height() / 2, size.width(), size.height());
        }
        return QRectF();
    };
    double reach = 0; // how far the tick labels stand out from the axis
    if (axis->tickLabels()) {
        const QFontMetricsF metrics(axis->tickLabelFont());
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 0; i < std::min(ticks.size(), labels.size()); ++i) {
            if (labels[i].isEmpty() || !axis->range().contains(ticks[i]))
                continue;
            const QSizeF size(tickLabelWidth(axis, labels[i], metrics), metrics.height());
            reach = std::max(reach, horizontal ? size.height() : size.width());
            boxes.push_back({QObject::tr("tick label '%1'").arg(labels[i]),
                             place(axis->coordToPixel(ticks[i]), out, size).translated(0, dy),
                             TextBox::Kind::TickLabel, axis, ticks[i]});
        }
    }
    if (!axis->label().isEmpty()) {
        const QFontMetricsF metrics(axis->labelFont());
        const QSizeF text(symbol_text::width(axis->label(), axis->labelFont()), metrics.height());
        const QSizeF size = horizontal ? text : text.transposed(); // vertical axes draw it turned
        const double along = horizontal ? r.center().x() : r.center().y();
        boxes.push_back({QObject::tr("axis title '%1'").arg(axis->label()),
                         place(along, out + reach + axis->labelPadding(), size).translated(0, dy),
                         TextBox::Kind::AxisTitle, axis});
    }
}

/// Every piece of text PLOT draws as laid out now (after toPainter() at the figure's size), moved down by DY.
void addTextBoxes(QCustomPlot *plot, double dy, std::vector<TextBox> &boxes)
{
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            addAxisBoxes(axis, dy, boxes);
    }
    for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>()) {
        if (scale->visible()) {
            // Its own axis and any other that shows ticks (the stability key's throughput beside its bands).
            for (QCPAxis *axis : scale->axis()->axisRect()->axes())
                addAxisBoxes(axis, dy, boxes);
        }
    }
    for (QCPLegend *legend : plot->findChildren<QCPLegend *>()) {
        if (!legend->visible())
            continue;
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (QCPAbstractLegendItem *item = legend->item(i); item && item->visible()) {
                // As large as its icon and text draw, which a squeezed layout does not shrink.
                const QMargins m = item->margins();
                const QSize drawn = item->minimumOuterSizeHint().shrunkBy(m);
                const QRectF box(item->rect().topLeft(), drawn.expandedTo(item->rect().size()));
                boxes.push_back({QObject::tr("legend entry %1").arg(i + 1), box.translated(0, dy),
                                 TextBox::Kind::LegendEntry});
            }
        }
    }
    for (QCPTextElement *title : plot->findChildren<QCPTextElement *>()) {
        if (title->visible() && !title->text().isEmpty())
            boxes.push_back(
                    {QObject::tr("title '%1'").arg(title->text()), QRectF(title->rect()).translated(0, dy)});
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->visible() || text->text().isEmpty() || text->layer()->visible() == false)
            continue;
        const QRectF whole = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        QRectF box = whole;
        bool cut = false;
        if (text->clipToAxisRect() && text->clipAxisRect()) {
            const QRectF clip = text->clipAxisRect()->rect();
            box = box.intersected(clip); // the part that is drawn
            // Cut: the clip takes some of the text itself, not only of its padding.
            const QRectF glyphs = whole.marginsRemoved(QMarginsF(text->padding()));
            cut = !clip.adjusted(-0.5, -0.5, 0.5, 0.5).contains(glyphs);
        }
        if (!box.isEmpty())
            boxes.push_back({QObject::tr("label '%1'").arg(text->text().simplified()), box.translated(0, dy),
                             TextBox::Kind::Other, nullptr, 0, text, cut});
    }
}

} // namespace

bool tooClose(const QRectF &a, const QRectF &b, Qt::Orientation along)
{
    const QMarginsF room = along == Qt::Horizontal ? QMarginsF(kTickLabelGap / 2, 0, kTickLabelGap / 2, 0)
                                                   : QMarginsF(0, kTickLabelGap / 2, 0, kTickLabelGap / 2);
    const QRectF both = a.marginsAdded(room).intersected(b.marginsAdded(room));
    return both.width() > 0.5 && both.height() > 0.5;
}

std::vector<PlotBand> stackPlots(const QList<QCustomPlot *> &plots, double h)
{
    double total = 0;
    for (const QCustomPlot *plot : plots)
        total += plot_style::figureShare(plot);
    std::vector<PlotBand> bands;
    double before = 0;
    for (const QCustomPlot *plot : plots) {
        const double top = h * before / total;
        before += plot_style::figureShare(plot);
        // Whole units: the plots are drawn at whole sizes.
        bands.push_back({top, double(std::lround(h * before / total - top))});
    }
    return bands;
}

std::vector<TextBox> layOutText(const QList<QCustomPlot *> &plots, double w, double h, std::vector<DataShape> *data)
{
    QImage image(std::max(1, int(std::ceil(w / 4))), std::max(1, int(std::ceil(h / 4))),
                 QImage::Format_ARGB32_Premultiplied);
    std::vector<TextBox> boxes;
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.scale(0.25, 0.25);
    const std::vector<PlotBand> bands = stackPlots(plots, h);
    for (int i = 0; i < int(plots.size()); ++i) {
        const double top = bands[std::size_t(i)].top;
        painter.save();
        painter.translate(0, top);
        plots[i]->toPainter(&painter, int(std::lround(w)), int(bands[std::size_t(i)].height));
        painter.restore();
        addTextBoxes(plots[i], top, boxes); // as laid out for the figure, until the next replot
        if (data) {
            std::vector<DataShape> shapes = dataShapes(plots[i], top);
            data->insert(data->end(), std::make_move_iterator(shapes.begin()), std::make_move_iterator(shapes.end()));
        }
    }
    return boxes;
}

} // namespace crossroof::widgets::figure
