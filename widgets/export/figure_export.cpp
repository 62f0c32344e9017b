// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_export.h"

#include "common/curve_thinning.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace crossroof::widgets {

namespace {

constexpr double kPointsPerMm = 72.0 / 25.4;
// Figures are laid out on a canvas of two logical units per point: text keeps its size in points while pens
// and markers, given in screen pixels, come out at half a point per pixel, as printed figures want.
constexpr double kUnitsPerPoint = 2.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
            for (QCPAxisRect *rect : plot->axisRects()) {
                for (QCPAxis *axis : rect->axes())
                    setAxisFonts(axis, font, small);
            }
            for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>())
                setAxisFonts(scale->axis(), font, small);
            const QFont legendFont = plot->legend->font();
            plot->legend->setFont(small);
            m_restore.push_back([plot, legendFont] { plot->legend->setFont(legendFont); });
            // A single-column figure has room for two legend entries side by side, not three.
            if (options.width_mm < 120 && plot->legend->wrap() > 2) {
                const int wrap = plot->legend->wrap();
                plot->legend->setWrap(2);
                plot->legend->setFillOrder(plot->legend->fillOrder(), true);
                m_restore.push_back([plot, wrap] {
                    plot->legend->setWrap(wrap);
                    plot->legend->setFillOrder(plot->legend->fillOrder(), true);
                });
            }
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                QCPAbstractLegendItem *item = plot->legend->item(i);
                if (!item) // an empty cell of a wrapped legend
                    continue;
                const QFont f = item->font();
                item->setFont(small);
                m_restore.push_back([item, f] { item->setFont(f); });
            }
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
    }
    ~ExportGuard()
    {
        for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it)
            (*it)();
    }
    ExportGuard(const ExportGuard &) = delete;
    ExportGuard &operator=(const ExportGuard &) = delete;

private:
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

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot write the file (%2)").arg(path, file.errorString());
    file.write(bytes);
    if (!file.commit())
        return QObject::tr("%1: cannot write the file (%2)").arg(path, file.errorString());
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
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot write the file (%2)").arg(path, file.errorString());
    file.write(csv);
    if (!file.commit())
        return QObject::tr("%1: cannot write the file (%2)").arg(path, file.errorString());
    return {};
}

} // namespace crossroof::widgets
