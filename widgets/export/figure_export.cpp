// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/figure_export.h"

#include "common/legend_groups.h"
#include "common/plot_style.h"
#include "common/save_file.h"
#include "common/symbol_text.h"
#include "export/export_guard.h"
#include "export/figure_text.h"
#include "export/figure_units.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>
#include <map>
#include <vector>

namespace crossroof::widgets {

using figure::ExportGuard;
using figure::canvasHeight;
using figure::canvasWidth;
using figure::layOutText;
using figure::TextBox;
using figure::tooClose;

namespace {

/// Draws the plots stacked into a painter whose logical canvas is WIDTH x HEIGHT units.
void paintPlots(QCPPainter &painter, const QList<QCustomPlot *> &plots, double width, double height)
{
    const int w = int(std::lround(width));
    const std::vector<figure::PlotBand> bands = figure::stackPlots(plots, height);
    for (int i = 0; i < int(plots.size()); ++i) {
        painter.save();
        painter.translate(0, bands[std::size_t(i)].top);
        plots[i]->toPainter(&painter, w, int(bands[std::size_t(i)].height));
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
    if (o.min_font_pt < 0 || o.min_font_pt > 48)
        return QObject::tr("the smallest font size must be between 0 and 48 pt");
    if (!(o.line_pt >= 0.1 && o.line_pt <= 4))
        return QObject::tr("the line width must be between 0.1 and 4 pt");
    const double pixels = o.width_mm / 25.4 * o.dpi * (o.height_mm / 25.4 * o.dpi);
    if (pixels > 200e6)
        return QObject::tr("%1 × %2 mm at %3 dpi is too large an image").arg(o.width_mm).arg(o.height_mm).arg(o.dpi);
    return {};
}

} // namespace

QStringList figureLabels(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    if (!checkOptions(plots, options).isEmpty())
        return {};
    QStringList labels;
    {
        const ExportGuard guard(plots, options);
        for (const TextBox &box : layOutText(plots, canvasWidth(options), canvasHeight(options))) {
            if (!box.item)
                continue;
            QString text;
            for (const symbol_text::Run &run : symbol_text::runs(box.item->text()))
                text += run.text;
            labels << text;
        }
    }
    for (QCustomPlot *plot : plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
    return labels;
}

QStringList figureLayoutProblems(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    if (QString problem = checkOptions(plots, options); !problem.isEmpty())
        return {problem};
    const double wPt = canvasWidth(options);
    const double hPt = canvasHeight(options);
    std::vector<TextBox> boxes;
    std::map<std::ptrdiff_t, QRectF> labelGlyphs; ///< by the index of their box: labels not pinned to their line
    std::vector<DataShape> data;
    QStringList problems;
    {
        const ExportGuard guard(plots, options);
        boxes = layOutText(plots, wPt, hPt, &data);
        // A label's glyphs, read while the guard holds it: a figure's kernel names go with the guard.
        for (TextBox &box : boxes) {
            if (box.item && !plot_style::isPinnedLabel(box.item))
                labelGlyphs.emplace(&box - boxes.data(), box.rect.marginsRemoved(QMarginsF(box.item->padding())));
            box.item = nullptr;
        }
        // A plot with a legend keeps its share of its part of the page for its axes, whatever the legend
        // holds (layOutText() stacks the plots).
        const std::vector<figure::PlotBand> bands = figure::stackPlots(plots, hPt);
        for (int i = 0; i < int(plots.size()); ++i) {
            QCustomPlot *plot = plots[i];
            const double each = bands[std::size_t(i)].height;
            if (!legend_groups::hasLegendBelow(plot) || plot->legend->itemCount() == 0)
                continue; // no legend, or one drawn over the plot
            const double between = legend_groups::axesHeight(plot).outer;
            if (between < legend_groups::kPlotShare * each - 0.5)
                problems << QObject::tr("the plot keeps %1 % of its height beside a legend of %n entries", nullptr,
                                        plot->legend->itemCount())
                                    .arg(int(std::lround(100 * between / each)));
        }
    }
    for (QCustomPlot *plot : plots)
        plot->replot(QCustomPlot::rpQueuedReplot);

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
        if (boxes[i].cut)
            problems << QObject::tr("%1 is cut at the plot's edge").arg(boxes[i].text);
        // A label inside the plot stays off the data: its glyphs cross no curve and cover no marker, except a
        // label set on its own line (a contour's value), which the line gives way to.
        if (const auto label = labelGlyphs.find(std::ptrdiff_t(i)); label != labelGlyphs.end()) {
            const QRectF &glyphs = label->second;
            for (const DataShape &shape : data) {
                if (crosses(glyphs, shape)) {
                    problems << QObject::tr("%1 crosses %2").arg(boxes[i].text, shape.name);
                    break;
                }
            }
        }
        // A legend inside a plot covers none of its data (a guide line across the plot may pass behind it).
        if (boxes[i].kind == TextBox::Kind::LegendEntry) {
            for (const DataShape &shape : data) {
                if (shape.name != guideLineName() && crosses(boxes[i].rect, shape)) {
                    problems << QObject::tr("%1 covers %2").arg(boxes[i].text, shape.name);
                    break;
                }
            }
        }
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

double figurePlotShare(const QList<QCustomPlot *> &plots, const FigureOptions &options)
{
    if (!checkOptions(plots, options).isEmpty())
        return 0;
    const double h = canvasHeight(options);
    double between = 0;
    {
        const ExportGuard guard(plots, options);
        layOutText(plots, canvasWidth(options), h);
        for (const QCustomPlot *plot : plots)
            between += legend_groups::axesHeight(plot).inner;
    }
    for (QCustomPlot *plot : plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
    return between / h;
}

QList<FigurePreset> figurePresets()
{
    return {{QStringLiteral("single"), QObject::tr("Single column (85 × 60 mm, 8 pt)"), 85, 60, 8, 7, 0.5},
            {QStringLiteral("double"), QObject::tr("Double column (175 × 90 mm, 9 pt)"), 175, 90, 9, 7, 0.75},
            {QStringLiteral("slide"), QObject::tr("Slide 16:9 (254 × 142.9 mm, 18 pt)"), 254, 142.875, 18, 16, 1.0}};
}

std::optional<FigurePreset> figurePreset(const QString &id)
{
    for (const FigurePreset &preset : figurePresets()) {
        if (preset.id == id)
            return preset;
    }
    return std::nullopt;
}

FigureOptions withPreset(FigureOptions options, const FigurePreset &preset)
{
    options.width_mm = preset.width_mm;
    options.height_mm = preset.height_mm;
    options.font_pt = preset.font_pt;
    options.min_font_pt = preset.min_font_pt;
    options.line_pt = preset.line_pt;
    return options;
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
    const double wPt = canvasWidth(options);
    const double hPt = canvasHeight(options);
    const int wPx = int(std::lround(options.width_mm / 25.4 * options.dpi));
    const int hPx = int(std::lround(options.height_mm / 25.4 * options.dpi));
    QImage image(wPx, hPx, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const int dotsPerMeter = int(std::lround(options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    const ExportGuard guard(plots, options);
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
    // The logical canvas (1 / line_pt units per point); each device maps it onto the exact physical size.
    const double wPt = canvasWidth(options);
    const double hPt = canvasHeight(options);

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
        const ExportGuard guard(plots, options);
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
        const ExportGuard guard(plots, options);
        QCPPainter painter(&svg);
        painter.setFont(figure::figureFont(options)); // the family every group of the SVG names
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

} // namespace crossroof::widgets
