// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_export.h"

#include "common/curve_thinning.h"
#include "common/plot_style.h"
#include "common/save_file.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QHash>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <vector>

namespace crossroof::widgets {

namespace {

constexpr double kPointsPerMm = 72.0 / 25.4;
// Figures are laid out on a canvas of two logical units per point: text keeps its size in points while pens
// and markers, given in screen pixels, come out at half a point per pixel, as printed figures want.
constexpr double kUnitsPerPoint = 2.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// The least room between two tick labels of one axis: labels that merely touch read as one ("2T_12T_2").
constexpr double kTickLabelGap = 2.5 * kUnitsPerPoint;

/// Whether tick labels A and B of one axis are closer than kTickLabelGap along it (or overlap).
bool tooClose(const QRectF &a, const QRectF &b, Qt::Orientation along)
{
    const QMarginsF room = along == Qt::Horizontal ? QMarginsF(kTickLabelGap / 2, 0, kTickLabelGap / 2, 0)
                                                   : QMarginsF(0, kTickLabelGap / 2, 0, kTickLabelGap / 2);
    const QRectF both = a.marginsAdded(room).intersected(b.marginsAdded(room));
    return both.width() > 0.5 && both.height() > 0.5;
}

/// Clips the segment (x0,y0)-(x1,y1) to [xlo,xhi] x [ylo,yhi] (Liang-Barsky); false if nothing is left.
bool clipSegment(double &x0, double &y0, double &x1, double &y1, double xlo, double xhi, double ylo, double yhi)
{
    double t0 = 0, t1 = 1;
    const double dx = x1 - x0, dy = y1 - y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - xlo, xhi - x0, y0 - ylo, yhi - y0};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, r);
        else
            t1 = std::min(t1, r);
        if (t0 > t1)
            return false;
    }
    const double nx0 = x0 + t0 * dx, ny0 = y0 + t0 * dy;
    x1 = x0 + t1 * dx;
    y1 = y0 + t1 * dy;
    x0 = nx0;
    y0 = ny0;
    return true;
}

/// Coordinates in which an axis is linear (log axes clip in log space).
struct AxisMap
{
    bool log;
    double to(double v) const { return log ? std::log(v) : v; }
    double from(double v) const { return log ? std::exp(v) : v; }
};

/// Clips a polyline of data points to the axis ranges; pieces are separated by NaN points.
void clipPolyline(const std::vector<std::pair<double, double>> &points, const QCPAxis *keyAxis,
                  const QCPAxis *valueAxis, bool joined, std::vector<std::pair<double, double>> &out)
{
    const AxisMap km{keyAxis->scaleType() == QCPAxis::stLogarithmic};
    const AxisMap vm{valueAxis->scaleType() == QCPAxis::stLogarithmic};
    const double xlo = km.to(keyAxis->range().lower), xhi = km.to(keyAxis->range().upper);
    const double ylo = vm.to(valueAxis->range().lower), yhi = vm.to(valueAxis->range().upper);
    auto inside = [&](double x, double y) { return x >= xlo && x <= xhi && y >= ylo && y <= yhi; };
    auto push = [&](double x, double y) { out.emplace_back(km.from(x), vm.from(y)); };
    auto gap = [&] {
        if (!out.empty() && !std::isnan(out.back().second))
            out.emplace_back(out.back().first, kNaN);
    };
    if (!joined) {
        for (const auto &[k, v] : points) {
            if (std::isfinite(k) && std::isfinite(v) && inside(km.to(k), vm.to(v)))
                out.emplace_back(k, v);
        }
        return;
    }
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        double x0 = km.to(points[i].first), y0 = vm.to(points[i].second);
        double x1 = km.to(points[i + 1].first), y1 = vm.to(points[i + 1].second);
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) {
            gap();
            continue;
        }
        const bool startInside = inside(x0, y0);
        if (!clipSegment(x0, y0, x1, y1, xlo, xhi, ylo, yhi)) {
            gap();
            continue;
        }
        if (!startInside || out.empty() || std::isnan(out.back().second))
            push(x0, y0);
        push(x1, y1);
        if (!inside(km.to(points[i + 1].first), vm.to(points[i + 1].second)))
            gap();
    }
}

/// A piece of text a figure draws and the box it takes, in the figure's canvas units.
struct TextBox
{
    enum class Kind { TickLabel, AxisTitle, LegendEntry, Other };
    QString text;
    QRectF rect;
    Kind kind = Kind::Other;
    QCPAxis *axis = nullptr; ///< the axis of a tick label or title
    double key = 0;          ///< where a tick label's tick is, in axis coordinates
    QCPItemText *item = nullptr; ///< the text item, for a label
};

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
            return QRectF(along - size.width() / 2, r.top() - from - size.height(), size.width(), size.height());
        case QCPAxis::atLeft:
            return QRectF(r.left() - from - size.width(), along - size.height() / 2, size.width(), size.height());
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
        const QSizeF text(metrics.horizontalAdvance(axis->label()), metrics.height());
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
        if (scale->visible())
            addAxisBoxes(scale->axis(), dy, boxes);
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
            boxes.push_back({QObject::tr("title '%1'").arg(title->text()), QRectF(title->rect()).translated(0, dy)});
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->visible() || text->text().isEmpty() || text->layer()->visible() == false)
            continue;
        QRectF box = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
        if (text->clipToAxisRect() && text->clipAxisRect())
            box = box.intersected(text->clipAxisRect()->rect()); // the part that is drawn
        if (!box.isEmpty())
            boxes.push_back({QObject::tr("label '%1'").arg(text->text().simplified()), box.translated(0, dy),
                             TextBox::Kind::Other, nullptr, 0, text});
    }
}

/// Lays PLOTS out as the export draws them, stacked on a page of W x H canvas units, and returns every piece
/// of text with its box.
std::vector<TextBox> layOutText(const QList<QCustomPlot *> &plots, double w, double h)
{
    QImage image(std::max(1, int(std::ceil(w / 4))), std::max(1, int(std::ceil(h / 4))),
                 QImage::Format_ARGB32_Premultiplied);
    std::vector<TextBox> boxes;
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.scale(0.25, 0.25);
    const int count = int(plots.size());
    for (int i = 0; i < count; ++i) {
        const double top = h * i / count;
        painter.save();
        painter.translate(0, top);
        plots[i]->toPainter(&painter, int(std::lround(w)), int(std::lround(h * (i + 1) / count - top)));
        painter.restore();
        addTextBoxes(plots[i], top, boxes); // as laid out for the figure, until the next replot
    }
    return boxes;
}

/// Changes the plots for export and puts everything back when it goes out of scope: fonts, greyscale
/// pens, and (for vector formats) data clipped to the axis rectangles.
class ExportGuard
{
public:
    ExportGuard(const QList<QCustomPlot *> &plots, const FigureOptions &options, bool clipData)
    {
        QFont font = QApplication::font();
        if (!options.font_family.isEmpty())
            font.setFamily(options.font_family);
        // Font sizes in logical units: kUnitsPerPoint of them make a point on paper.
        font.setPixelSize(int(std::lround(options.font_pt * kUnitsPerPoint)));
        QFont small = font;
        small.setPixelSize(int(std::lround((options.font_pt - 1) * kUnitsPerPoint)));
        for (QCustomPlot *plot : plots) {
            // Every sample of thinned curves first (and thinned again last, on the way back).
            plot->setProperty(kFullDetailProperty, true);
            m_restore.push_back([plot] { plot->setProperty(kFullDetailProperty, false); });
            // Figures are for paper: black on white, whatever the screen's palette.
            plot_style::forceLight(plot, true);
            m_restore.push_back([plot] { plot_style::forceLight(plot, false); });
            // The full axis titles, even where the screen shows the short ones: the figure has its own room.
            for (QCPAxis *axis : plot->findChildren<QCPAxis *>()) {
                const QString shown = axis->label();
                const QString full = plot_style::fullLabel(axis);
                if (full != shown) {
                    axis->setLabel(full);
                    m_restore.push_back([axis, shown] { axis->setLabel(shown); });
                }
            }
            for (QCPAxisRect *rect : plot->axisRects()) {
                for (QCPAxis *axis : rect->axes())
                    setAxisFonts(axis, font, small);
            }
            for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>())
                setAxisFonts(scale->axis(), font, small);
            const QFont legendFont = plot->legend->font();
            plot->legend->setFont(small);
            m_restore.push_back([plot, legendFont] { plot->legend->setFont(legendFont); });
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                QCPAbstractLegendItem *item = plot->legend->item(i);
                if (!item) // an empty cell of a wrapped legend
                    continue;
                const QFont f = item->font();
                item->setFont(small);
                m_restore.push_back([item, f] { item->setFont(f); });
            }
            fitLegendColumns(plot, options);
            for (int i = 0; i < plot->itemCount(); ++i) {
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i))) {
                    const QFont f = text->font();
                    text->setFont(small);
                    m_restore.push_back([text, f] { text->setFont(f); });
                }
            }
            if (options.style == FigureStyle::Greyscale)
                makeGreyscale(plot);
            if (clipData)
                clipToAxisRects(plot);
        }
        fitText(plots, options);
    }
    ~ExportGuard()
    {
        for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it)
            (*it)();
    }
    ExportGuard(const ExportGuard &) = delete;
    ExportGuard &operator=(const ExportGuard &) = delete;

private:
    /// As many legend columns as the figure's width holds at its font (up to four), so that a legend of short
    /// entries stays one or two rows instead of the screen's arrangement.
    void fitLegendColumns(QCustomPlot *plot, const FigureOptions &options)
    {
        QCPLegend *legend = plot->legend;
        const int columns
                = plot_style::legendColumns(legend, options.width_mm * kPointsPerMm * kUnitsPerPoint - 16, 4);
        const int wrap = legend->wrap();
        if (columns == 0 || columns == wrap)
            return;
        legend->setWrap(columns);
        legend->setFillOrder(legend->fillOrder(), true);
        m_restore.push_back([legend, wrap] {
            legend->setWrap(wrap);
            legend->setFillOrder(legend->fillOrder(), true);
        });
    }

    /// The figure's page is not the screen's: where tick labels collide or leave the page their axis gets
    /// fewer ticks, and an axis title longer than its axis is cut short with an ellipsis (the plot data CSV
    /// keeps the whole name). A few rounds of laying out, measuring and changing.
    void fitText(const QList<QCustomPlot *> &plots, const FigureOptions &options)
    {
        const double w = options.width_mm * kPointsPerMm * kUnitsPerPoint;
        const double h = options.height_mm * kPointsPerMm * kUnitsPerPoint;
        const QRectF page(-0.5, -0.5, w + 1, h + 1);
        for (int round = 0; round < 5; ++round) {
            const std::vector<TextBox> boxes = layOutText(plots, w, h);
            std::set<QCPAxis *> crowded;
            std::vector<const TextBox *> corners; // tick labels of a vertical axis that meet another axis's
            for (std::size_t i = 0; i < boxes.size(); ++i) {
                const TextBox &a = boxes[i];
                if (a.kind != TextBox::Kind::TickLabel)
                    continue;
                if (!page.contains(a.rect))
                    crowded.insert(a.axis);
                for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                    const TextBox &b = boxes[j];
                    if (b.kind != TextBox::Kind::TickLabel)
                        continue;
                    if (b.axis == a.axis) {
                        if (tooClose(a.rect, b.rect, a.axis->orientation()))
                            crowded.insert(a.axis);
                        continue;
                    }
                    const QRectF both = a.rect.intersected(b.rect);
                    if (both.width() > 0.5 && both.height() > 0.5)
                        corners.push_back(a.axis->orientation() == Qt::Vertical ? &a : &b);
                }
            }
            bool changed = false;
            for (const TextBox *corner : corners) {
                // Two axes' end labels meeting at a corner: the vertical axis's one goes, where its ticks are
                // its own (a numeric ticker places them anew, so fewer ticks there instead).
                QCPAxis *axis = corner->axis;
                const auto text = axis->ticker().dynamicCast<QCPAxisTickerText>();
                if (!text) {
                    crowded.insert(axis);
                    continue;
                }
                auto fewer = QSharedPointer<QCPAxisTickerText>::create();
                fewer->setTicks(text->ticks());
                fewer->ticks().remove(corner->key);
                fewer->setSubTickCount(text->subTickCount());
                axis->setTicker(fewer);
                m_restore.push_back([axis, text] { axis->setTicker(text); });
                changed = true;
            }
            for (QCPAxis *axis : crowded) {
                const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
                if (const auto text = ticker.dynamicCast<QCPAxisTickerText>()) {
                    // Ticks at fixed places with their own labels: every other one goes.
                    if (text->ticks().size() <= 2)
                        continue;
                    auto thinned = QSharedPointer<QCPAxisTickerText>::create();
                    int i = 0;
                    for (auto it = text->ticks().cbegin(); it != text->ticks().cend(); ++it, ++i) {
                        if (i % 2 == 0)
                            thinned->addTick(it.key(), it.value());
                    }
                    thinned->setSubTickCount(text->subTickCount());
                    axis->setTicker(thinned);
                    m_restore.push_back([axis, ticker] { axis->setTicker(ticker); });
                    changed = true;
                    continue;
                }
                if (ticker->tickCount() <= 1)
                    continue;
                const int count = ticker->tickCount();
                ticker->setTickCount(count - 1);
                if (!m_tickCounts.contains(ticker.data())) {
                    m_tickCounts.insert(ticker.data(), count);
                    m_restore.push_back([ticker, count] { ticker->setTickCount(count); });
                }
                changed = true;
            }
            for (const TextBox &box : boxes) {
                if (box.kind != TextBox::Kind::AxisTitle)
                    continue;
                QCPAxis *axis = box.axis;
                const QRect r = axis->axisRect()->rect();
                const bool horizontal = axis->orientation() == Qt::Horizontal;
                const double room = std::min(horizontal ? double(r.width()) : double(r.height()),
                                             horizontal ? w : h) - 4;
                const double length = horizontal ? box.rect.width() : box.rect.height();
                if (length <= room || room <= 0)
                    continue;
                // First the axis's short title, if it has one; then a smaller font, down to three quarters of
                // the figure's; then an ellipsis.
                const QString brief = plot_style::shortLabel(axis);
                if (!brief.isEmpty() && axis->label() != brief) {
                    const QString label = axis->label();
                    axis->setLabel(brief);
                    m_restore.push_back([axis, label] { axis->setLabel(label); });
                    changed = true;
                    continue;
                }
                const QFont font = axis->labelFont();
                const int pixels = QFontInfo(font).pixelSize();
                const int smallest = int(std::lround(options.font_pt * kUnitsPerPoint * 0.75));
                if (pixels > smallest) {
                    QFont smaller = font;
                    smaller.setPixelSize(std::max(smallest, int(std::floor(pixels * room / length))));
                    axis->setLabelFont(smaller);
                    m_restore.push_back([axis, font] { axis->setLabelFont(font); });
                    changed = true;
                    continue;
                }
                const QString label = axis->label();
                const QString shorter = QFontMetricsF(font).elidedText(label, Qt::ElideRight, room);
                if (shorter == label)
                    continue;
                axis->setLabel(shorter);
                m_restore.push_back([axis, label] { axis->setLabel(label); });
                changed = true;
            }
            changed = separateLabels(boxes, round) || changed;
            changed = shrinkLegends(plots, boxes, options, w * h) || changed;
            if (!changed)
                return;
        }
    }

    /// Legends that take more than a quarter of the page get a smaller font, down to three quarters of the
    /// figure's, and as many columns as then fit.
    bool shrinkLegends(const QList<QCustomPlot *> &plots, const std::vector<TextBox> &boxes,
                       const FigureOptions &options, double pageArea)
    {
        double area = 0;
        for (const TextBox &box : boxes)
            area += box.kind == TextBox::Kind::LegendEntry ? box.rect.width() * box.rect.height() : 0;
        if (area <= pageArea / 4)
            return false;
        const int smallest = int(std::lround(options.font_pt * kUnitsPerPoint * 0.75));
        bool changed = false;
        for (QCustomPlot *plot : plots) {
            QCPLegend *legend = plot->legend;
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem *item = legend->item(i);
                if (!item)
                    continue;
                const QFont font = item->font();
                const int pixels = QFontInfo(font).pixelSize();
                if (pixels <= smallest)
                    continue;
                QFont smaller = font;
                smaller.setPixelSize(std::max(smallest, int(std::floor(pixels * 0.9))));
                item->setFont(smaller);
                m_restore.push_back([item, font] { item->setFont(font); });
                changed = true;
            }
            if (changed)
                fitLegendColumns(plot, options);
        }
        return changed;
    }

    /// Labels in the plot (landmarks, node names) that overlap: the later one moves off the earlier, up or
    /// down, in the first rounds; if they still meet in the last, it is left out of this figure.
    bool separateLabels(const std::vector<TextBox> &boxes, int round)
    {
        bool changed = false;
        std::set<QCPItemText *> moved;
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                const TextBox &a = boxes[i];
                const TextBox &b = boxes[j];
                QCPItemText *item = b.item ? b.item : a.item;
                const TextBox &fixed = b.item ? a : b;
                const TextBox &mobile = b.item ? b : a;
                const QRectF both = a.rect.intersected(b.rect);
                if (!item || moved.count(item) || !(both.width() > 0.5 && both.height() > 0.5))
                    continue;
                moved.insert(item);
                if (round >= 2) {
                    item->setVisible(false);
                    m_restore.push_back([item] { item->setVisible(true); });
                } else {
                    const bool down = mobile.rect.center().y() >= fixed.rect.center().y();
                    const double shift = (down ? fixed.rect.bottom() - mobile.rect.top()
                                               : fixed.rect.top() - mobile.rect.bottom()) + (down ? 2 : -2);
                    QCPItemPosition *position = item->position;
                    const QPointF coords = position->coords();
                    position->setPixelPosition(position->pixelPosition() + QPointF(0, shift));
                    m_restore.push_back([position, coords] { position->setCoords(coords); });
                }
                changed = true;
            }
        }
        return changed;
    }

    void setAxisFonts(QCPAxis *axis, const QFont &label, const QFont &ticks)
    {
        const QFont l = axis->labelFont(), t = axis->tickLabelFont();
        axis->setLabelFont(label);
        axis->setTickLabelFont(ticks);
        m_restore.push_back([axis, l, t] {
            axis->setLabelFont(l);
            axis->setTickLabelFont(t);
        });
    }

    void makeGreyscale(QCustomPlot *plot)
    {
        static const Qt::PenStyle dashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                               QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};
        int line = 0;
        for (int i = 0; i < plot->graphCount(); ++i) {
            QCPGraph *g = plot->graph(i);
            const QPen pen = g->pen();
            const QCPScatterStyle scatter = g->scatterStyle();
            const int skip = g->scatterSkip();
            m_restore.push_back([g, pen, scatter, skip] {
                g->setPen(pen);
                g->setScatterStyle(scatter);
                g->setScatterSkip(skip);
            });
            QPen grey = pen;
            grey.setColor(QColor::fromHsvF(0, 0, 0.55 * qGray(pen.color().rgb()) / 255.0));
            QCPScatterStyle s = scatter;
            s.setPen(QPen(Qt::black, s.pen().widthF()));
            if (s.brush().style() != Qt::NoBrush && s.brush().color() != Qt::white)
                s.setBrush(Qt::black);
            if (pen.style() != Qt::NoPen && g->lineStyle() != QCPGraph::lsNone) {
                grey.setStyle(dashes[line % 4]);
                // A marker every few dozen points names the series where dashes alone might not.
                if (scatter.isNone()) {
                    s = QCPScatterStyle(shapes[line % 4], QPen(Qt::black, 1), Qt::white, 5);
                    g->setScatterSkip(std::max(1, g->dataCount() / 10));
                }
                ++line;
            }
            g->setPen(grey);
            g->setScatterStyle(s);
        }
        for (int i = 0; i < plot->plottableCount(); ++i) {
            if (auto *map = qobject_cast<QCPColorMap *>(plot->plottable(i))) {
                const QCPColorGradient gradient = map->gradient();
                QCPColorGradient grey(QCPColorGradient::gpGrayscale);
                grey.setNanHandling(QCPColorGradient::nhNanColor);
                grey.setNanColor(Qt::white);
                map->setGradient(grey);
                m_restore.push_back([map, gradient] { map->setGradient(gradient); });
            }
        }
        for (int i = 0; i < plot->itemCount(); ++i) {
            QCPAbstractItem *item = plot->item(i);
            if (auto *line = qobject_cast<QCPItemStraightLine *>(item)) {
                const QPen pen = line->pen();
                line->setPen(QPen(Qt::black, pen.widthF(), pen.style()));
                m_restore.push_back([line, pen] { line->setPen(pen); });
            } else if (auto *text = qobject_cast<QCPItemText *>(item)) {
                const QColor color = text->color();
                text->setColor(Qt::black);
                m_restore.push_back([text, color] { text->setColor(color); });
            }
        }
    }

    void clipToAxisRects(QCustomPlot *plot)
    {
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable *p = plot->plottable(i);
            if (auto *g = qobject_cast<QCPGraph *>(p)) {
                std::vector<std::pair<double, double>> in, out;
                for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                    in.emplace_back(it->key, it->value);
                // Step lines are not straight between points; their points stay, only those off the keys go.
                const bool joined = g->lineStyle() == QCPGraph::lsLine;
                clipPolyline(in, g->keyAxis(), g->valueAxis(), joined, out);
                if (g->lineStyle() != QCPGraph::lsLine && g->lineStyle() != QCPGraph::lsNone) {
                    out.clear();
                    const QCPRange keys = g->keyAxis()->range();
                    for (const auto &pt : in) {
                        if (keys.contains(pt.first))
                            out.push_back({pt.first, std::clamp(pt.second, g->valueAxis()->range().lower,
                                                                g->valueAxis()->range().upper)});
                    }
                }
                auto saved = g->data();
                auto clipped = QSharedPointer<QCPGraphDataContainer>::create();
                QVector<QCPGraphData> points;
                for (const auto &[k, v] : out)
                    points.append(QCPGraphData(k, v));
                clipped->add(points, true);
                g->setData(clipped);
                m_restore.push_back([g, saved] { g->setData(saved); });
            } else if (auto *c = qobject_cast<QCPCurve *>(p)) {
                std::vector<std::pair<double, double>> in, out;
                for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
                    in.emplace_back(it->key, it->value);
                clipPolyline(in, c->keyAxis(), c->valueAxis(), c->lineStyle() != QCPCurve::lsNone, out);
                auto saved = c->data();
                auto clipped = QSharedPointer<QCPCurveDataContainer>::create();
                QVector<QCPCurveData> points;
                double t = 0;
                for (const auto &[k, v] : out)
                    points.append(QCPCurveData(t++, k, v));
                clipped->add(points, true);
                c->setData(clipped);
                m_restore.push_back([c, saved] { c->setData(saved); });
            }
        }
    }

    std::vector<std::function<void()>> m_restore;
    QHash<QCPAxisTicker *, int> m_tickCounts; ///< the tickers whose tick count fitText() changed
};

/// Draws the plots stacked into a painter whose logical canvas is WIDTH x HEIGHT units.
void paintPlots(QCPPainter &painter, const QList<QCustomPlot *> &plots, double width, double height)
{
    const int count = int(plots.size());
    const int w = int(std::lround(width));
    for (int i = 0; i < count; ++i) {
        const double top = height * i / count;
        const int h = int(std::lround(height * (i + 1) / count - top));
        painter.save();
        painter.translate(0, top);
        plots[i]->toPainter(&painter, w, h);
        painter.restore();
    }
}

QString checkOptions(const QList<QCustomPlot *> &plots, const FigureOptions &o)
{
    if (plots.isEmpty())
        return QObject::tr("there is nothing to export in this view");
    if (!(o.width_mm >= 10 && o.width_mm <= 1000) || !(o.height_mm >= 10 && o.height_mm <= 1000))
        return QObject::tr("the figure size must be between 10 and 1000 mm on each side");
    if (o.dpi < 30 || o.dpi > 2400)
        return QObject::tr("the resolution must be between 30 and 2400 dpi");
    if (o.font_pt < 4 || o.font_pt > 48)
        return QObject::tr("the font size must be between 4 and 48 pt");
    const double pixels = o.width_mm / 25.4 * o.dpi * (o.height_mm / 25.4 * o.dpi);
    if (pixels > 200e6)
        return QObject::tr("%1 × %2 mm at %3 dpi is too large an image").arg(o.width_mm).arg(o.height_mm).arg(o.dpi);
    return {};
}

} // namespace

QStringList figureLayoutProblems(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    if (QString problem = checkOptions(plots, options); !problem.isEmpty())
        return {problem};
    const double wPt = options.width_mm * kPointsPerMm * kUnitsPerPoint;
    const double hPt = options.height_mm * kPointsPerMm * kUnitsPerPoint;
    std::vector<TextBox> boxes;
    {
        const ExportGuard guard(plots, options, false);
        boxes = layOutText(plots, wPt, hPt);
    }
    for (QCustomPlot *plot : plots)
        plot->replot(QCustomPlot::rpQueuedReplot);

    QStringList problems;
    // The legends together take at most a quarter of the page.
    double legendArea = 0;
    for (const TextBox &box : boxes)
        legendArea += box.kind == TextBox::Kind::LegendEntry ? box.rect.width() * box.rect.height() : 0;
    if (legendArea > wPt * hPt / 4)
        problems << QObject::tr("the legend takes %1 % of the page").arg(int(std::lround(100 * legendArea / (wPt * hPt))));
    const QRectF page(-0.5, -0.5, wPt + 1, hPt + 1);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        // An axis title must fit whole (its short form, if it has one): a title cut to "occu…" names nothing.
        if (boxes[i].kind == TextBox::Kind::AxisTitle && boxes[i].text.contains(QChar(0x2026)))
            problems << QObject::tr("%1 is cut short").arg(boxes[i].text);
        if (!page.contains(boxes[i].rect))
            problems << QObject::tr("%1 leaves the page").arg(boxes[i].text);
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            const QRectF both = boxes[i].rect.intersected(boxes[j].rect);
            if (both.width() > 0.5 && both.height() > 0.5)
                problems << QObject::tr("%1 overlaps %2").arg(boxes[i].text, boxes[j].text);
            else if (boxes[i].kind == TextBox::Kind::TickLabel && boxes[j].kind == TextBox::Kind::TickLabel
                     && boxes[i].axis == boxes[j].axis
                     && tooClose(boxes[i].rect, boxes[j].rect, boxes[i].axis->orientation()))
                problems << QObject::tr("%1 runs into %2").arg(boxes[i].text, boxes[j].text);
        }
    }
    return problems;
}

QList<FigurePreset> figurePresets()
{
    return {{QStringLiteral("single"), QObject::tr("Single column (85 × 60 mm)"), 85, 60},
            {QStringLiteral("double"), QObject::tr("Double column (175 × 90 mm)"), 175, 90},
            {QStringLiteral("slide"), QObject::tr("Slide 16:9 (254 × 142.9 mm)"), 254, 142.875}};
}

std::optional<FigureFormat> figureFormatForPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return FigureFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return FigureFormat::Svg;
    if (suffix == QLatin1String("png"))
        return FigureFormat::Png;
    return std::nullopt;
}

QImage renderFigure(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    if (!checkOptions(plots, options).isEmpty())
        return {};
    const double wPt = options.width_mm * kPointsPerMm * kUnitsPerPoint;
    const double hPt = options.height_mm * kPointsPerMm * kUnitsPerPoint;
    const int wPx = int(std::lround(options.width_mm / 25.4 * options.dpi));
    const int hPx = int(std::lround(options.height_mm / 25.4 * options.dpi));
    QImage image(wPx, hPx, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const int dotsPerMeter = int(std::lround(options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    const ExportGuard guard(plots, options, false);
    QCPPainter painter(&image);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(wPx / wPt, hPx / hPt);
    paintPlots(painter, plots, wPt, hPt);
    painter.end();
    return image;
}

QString exportFigure(const QList<QCustomPlot *> &plots, const QString &path, const FigureOptions &options)
{
    if (QString problem = checkOptions(plots, options); !problem.isEmpty())
        return problem;
    const auto format = figureFormatForPath(path);
    if (!format)
        return QObject::tr("%1: choose a file name ending in .pdf, .svg or .png").arg(path);
    // The logical canvas (kUnitsPerPoint units per point); each device maps it onto the exact physical size.
    const double wPt = options.width_mm * kPointsPerMm * kUnitsPerPoint;
    const double hPt = options.height_mm * kPointsPerMm * kUnitsPerPoint;

    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (*format == FigureFormat::Png) {
        const QImage image = renderFigure(plots, options);
        if (image.isNull() || !image.save(&buffer, "PNG"))
            return QObject::tr("%1: the image could not be encoded").arg(path);
    } else if (*format == FigureFormat::Pdf) {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("Crossroof"));
        writer.setResolution(1200);
        writer.setPageSize(QPageSize(QSizeF(options.width_mm, options.height_mm), QPageSize::Millimeter, QString(),
                                     QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        const ExportGuard guard(plots, options, true);
        QCPPainter painter(&writer);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setRenderHint(QPainter::Antialiasing);
        const QRect device = painter.viewport();
        painter.setWindow(QRect(0, 0, int(std::lround(wPt)), int(std::lround(hPt))));
        painter.setViewport(device);
        paintPlots(painter, plots, wPt, hPt);
        painter.end();
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        // 100 units per millimetre make the width and height attributes exact; the drawing is in canvas units.
        svg.setResolution(2540);
        svg.setSize(QSize(int(std::lround(options.width_mm * 100)), int(std::lround(options.height_mm * 100))));
        svg.setViewBox(QRectF(0, 0, wPt, hPt));
        svg.setTitle(QStringLiteral("Crossroof figure"));
        const ExportGuard guard(plots, options, true);
        QCPPainter painter(&svg);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setRenderHint(QPainter::Antialiasing);
        paintPlots(painter, plots, wPt, hPt);
        painter.end();
    }
    buffer.close();

    if (const QString why = saveFileAtomically(path, bytes); !why.isEmpty())
        return QObject::tr("%1: cannot write the file (%2)").arg(path, why);
    return {};
}

QString exportPlotData(const QList<QCustomPlot *> &plots, const QString &path)
{
    if (plots.isEmpty())
        return QObject::tr("there is nothing to export in this view");
    QByteArray csv = "plot,series,x,y\n";
    auto quote = [](QString s) {
        s.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QStringLiteral("\"%1\"").arg(s).toUtf8();
    };
    for (int pi = 0; pi < plots.size(); ++pi) {
        QCustomPlot *plot = plots[pi];
        const QByteArray plotName = quote(plot->xAxis->label() + QStringLiteral(" / ") + plot->yAxis->label());
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable *p = plot->plottable(i);
            const QByteArray series = quote(p->name().isEmpty() ? QStringLiteral("series %1").arg(i + 1) : p->name());
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
                            csv += plotName + ',' + quote(p->name() + QStringLiteral(" at y=")
                                                          + QString::number(y, 'g', 8))
                                + ',' + QByteArray::number(x, 'g', 12) + ',' + QByteArray::number(v, 'g', 12) + '\n';
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
