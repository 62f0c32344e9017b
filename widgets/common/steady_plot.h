// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QImage>
#include <QList>
#include <QPainterPath>
#include <QPointer>
#include <QMargins>
#include <QRegion>
#include <QSize>
#include <QString>

#include <array>
#include <vector>

namespace crossroof::widgets {

/// A QCustomPlot that redraws without laying itself out again when nothing the layout depends on has changed.
///
/// Every replot of a QCustomPlot lays out its axes and legend before drawing: it measures each tick label,
/// each legend entry and the axis titles to find the margins and the legend's cells. On a step of a slider's
/// drag that answer rarely changes (the view holds its axes still; the legend's numbers keep their width), yet
/// it was a good part of the step. requestRedraw() redraws every layer as a replot does, but keeps the last
/// layout when it still holds: the same plot size, no zoom of the user's, margins that still fit every axis's
/// new tick labels, and legend entries of the same number and sizes. Otherwise, and for replot() itself, the
/// plot is laid out in full. Either way it draws the same pixels.
///
/// It also paints the layers straight onto the widget. A QCustomPlot draws its layers into a paint buffer at
/// every replot and copies that buffer to the widget at every paint; this plot draws them in its paint event
/// instead (a redraw lays the plot out and asks for a paint): no buffer to clear and no copy of it, one pass over
/// every pixel fewer. A paint that no redraw asked for (an exposure, the crosshair's moves) draws the layers again.
/// replot() still works as QCustomPlot's does: it draws its buffers too, which this plot's paints do not show.
///
/// A redraw that kept the layout and left every axis as it was painted (the same range, tick labels, title and
/// look) repaints all but the axis rect's margins, where the axes' tick labels and titles are: those pixels stay
/// on the window as they are, and the axes draw only their lines and ticks, which lie on the axis rect's edge.
/// It does so only while nothing but the axes draws into those margins.
class SteadyPlot : public QCustomPlot
{
public:
    explicit SteadyPlot(QWidget *parent = nullptr);

    /// Whether paints draw the layers straight onto the widget (on by default; off paints QCustomPlot's buffers,
    /// for comparisons).
    void setDirectPaint(bool on);
    bool directPaint() const { return m_direct; }
    /// How long the last paint of the widget took, in milliseconds (the benchmark).
    double lastPaintMs() const { return m_lastPaintMs; }

    /// Redraws at the next return to the event loop (requests in between are one redraw).
    void requestRedraw();

    /// How many redraws kept the layout, and how many replots laid the plot out (tests, the benchmark).
    int steadyRedraws() const { return m_steadyRedraws; }
    int laidOutRedraws() const { return m_laidOutRedraws; }
    /// How many paints left the axis rect's margins as they were on the window (tests, the benchmark).
    int marginsKept() const { return m_marginsKept; }

    /// Keeps what LAYER draws as a picture between paints while it would draw the same: the same graphs (the
    /// layer holds graphs alone) with the same data and look, on axes of the same ranges, in the same layout and
    /// at the same pixel ratio. A drag that moves the model's curves leaves the measured points of a loaded file
    /// as they were: a paint then copies their picture rather than drawing hundreds of markers again. The
    /// picture is drawn as QCustomPlot draws a buffered layer (into a transparent image, blended over what lies
    /// below). A layer that holds anything but graphs is drawn as usual.
    void setCachedLayer(QCPLayer *layer);
    /// How many times the cached layer's picture was drawn (tests, the benchmark).
    int cachedLayerDraws() const { return m_cacheDraws; }
    /// How many times the grid's picture was drawn (tests, the benchmark). Above a pixel ratio of 1 the grid
    /// layer, while it holds the grids of the one axis rect alone, is kept as a picture between paints as the
    /// cached layer is, and drawn again when the axes' ticks, ranges, pens or the layout change: Qt 6's raster
    /// engine hands every fill of over 96 scanlines (a vertical grid line, twice as tall at a pixel ratio of 2)
    /// to its thread pool in pieces, while the picture is blended by the painting thread alone.
    int gridDraws() const { return m_gridDraws; }
    /// How many images the grid's and the cached layer's pictures took (tests, the benchmark): one each while the
    /// plot keeps its size, however often they are drawn again.
    int picturesAllocated() const { return m_picturesAllocated; }

protected:
    void updateLayout() override;
    void paintEvent(QPaintEvent *event) override;
    /// During a paint: the layers in order, the cached layer and the grid from their pictures where they have
    /// one.
    void draw(QCPPainter *painter) override;

private:
    class StandIn;
    class AxisLines;
    class GridLines;
    /// What an axis shows in the axis rect's margins.
    struct AxisLook
    {
        bool visible = false;
        QCPRange range;
        QVector<QString> tickLabels;
        QString title;
        QColor tickLabelColour;
        QColor titleColour;
        QFont tickLabelFont;
        QFont titleFont;
        bool operator==(const AxisLook &) const = default;
    };

    void redraw();
    /// What the cached layer's graphs draw (everything a paint of them depends on), into NUMBERS and PATHS;
    /// false when the layer holds anything else.
    bool describeCachedLayer(std::vector<double> &numbers, QList<QPainterPath> &paths) const;
    /// The axis rect's margins, less the band along its edges where the axes' lines and ticks are.
    QRegion margins() const;
    /// Whether the stand-ins draw what the axes' layer draws inside the axis rect and its band: one axis rect, its
    /// grids alone on their layer, no axis selected or with line endings, its labels beyond the band.
    bool standInsExact() const;
    /// Whether a redraw may leave the margins as painted: the stand-ins are exact and nothing but the axes draws
    /// into the margins.
    bool marginsKeepable() const;
    std::array<AxisLook, 4> looks() const;
    /// Whether the layout of the last full replot still holds. Gives the axes their ticks for their ranges.
    bool layoutHolds();
    /// What the layout was made for, after it was made.
    void remember();

    struct LegendEntry
    {
        QCPAbstractLegendItem *item; ///< nullptr: an empty cell of a wrapped legend
        bool visible;
        QSize size;
    };
    struct Layout
    {
        bool valid = false;
        QSize viewport;
        std::array<double, 8> ranges{}; ///< lower and upper of the axis rect's bottom, left, top and right axes
        std::array<QString, 4> labels;  ///< the same axes' titles
        QMargins margins;
        bool legendVisible = false;
        QList<LegendEntry> legend;
    };

    Layout m_layout;
    QPointer<QCPLayer> m_cachedLayer;
    struct Picture
    {
        std::vector<double> numbers;
        QList<QPainterPath> paths;
        QImage image;   ///< what the layer draws in AREA (its children's clip rectangles), transparent elsewhere
        QRect area;
    };
    /// Makes PICTURE's image a transparent one of AREA (the plot's coordinates) at the plot's pixel ratio, reusing
    /// its pixels while the area keeps its size.
    void clearPicture(Picture &picture, const QRect &area);
    int m_picturesAllocated = 0;
    Picture m_picture; ///< the cached layer as last drawn
    int m_cacheDraws = 0;
    /// What the grid layer draws (describeGrid()) and its picture, or false where it holds anything else.
    bool describeGrid(std::vector<double> &numbers) const;
    /// The grid's picture for this paint, drawn again where it is stale; false where the grid is not kept so.
    bool gridPictureReady();
    /// GRID's lines as the grid layer draws them.
    void drawGrid(QCPPainter *painter, QCPGrid *grid) const;
    /// The background and every layer; GRIDS (the grid layer) and CACHED from their pictures where not null.
    void drawLayers(QCPPainter *painter, QCPLayer *grids, QCPLayer *cached);
    Picture m_gridPicture;
    int m_gridDraws = 0;
    AxisLines *m_axisLines = nullptr;
    GridLines *m_gridLines = nullptr;
    std::array<AxisLook, 4> m_paintedLooks; ///< what the margins on the window show
    bool m_paintedLooksValid = false;
    bool m_linesOnly = false; ///< this paint keeps the margins: the axes draw their lines alone
    int m_marginsKept = 0;
    bool m_queued = false;
    bool m_holdLayout = false;
    bool m_direct = true;
    bool m_painting = false;
    double m_lastPaintMs = 0;
    int m_steadyRedraws = 0;
    int m_laidOutRedraws = 0;
};

/// Redraws PLOT at the next return to the event loop: a SteadyPlot by its requestRedraw() (its layout kept when
/// it holds, its layers painted once), any other plot by a queued replot.
void redrawSoon(QCustomPlot *plot);

} // namespace crossroof::widgets
