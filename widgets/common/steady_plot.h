// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QList>
#include <QMargins>
#include <QSize>
#include <QString>

#include <array>

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
/// It also paints with less copying. A QCustomPlot clears its paint buffer to transparent, draws into it, and on
/// every paint fills the widget with its background and blends the buffer over it. When the background is one
/// opaque colour, this plot clears its bottom buffer to that colour instead and copies it to the widget as it
/// is: two passes over every pixel fewer, the same picture (within a level of rounding at antialiased edges).
class SteadyPlot : public QCustomPlot
{
public:
    explicit SteadyPlot(QWidget *parent = nullptr);

    /// Whether the bottom buffer carries the background (on by default; off paints as QCustomPlot does, for
    /// comparisons). Takes effect at the next replot.
    void setOpaqueBase(bool on) { m_opaqueBase = on; }
    /// Whether the last paint copied an opaque bottom buffer.
    bool paintedOpaque() const { return m_paintedOpaque; }

    /// Redraws at the next return to the event loop (requests in between are one redraw).
    void requestRedraw();

    /// How many redraws kept the layout, and how many replots laid the plot out (tests, the benchmark).
    int steadyRedraws() const { return m_steadyRedraws; }
    int laidOutRedraws() const { return m_laidOutRedraws; }

protected:
    void updateLayout() override;
    void paintEvent(QPaintEvent *event) override;

private:
    void redraw();
    /// Puts a buffer that can be cleared to the background at the bottom, and tells it the colour (none when
    /// the background is not one opaque colour).
    void prepareBaseBuffer();
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
    bool m_queued = false;
    bool m_holdLayout = false;
    bool m_opaqueBase = true;
    bool m_paintedOpaque = false;
    int m_steadyRedraws = 0;
    int m_laidOutRedraws = 0;
};

} // namespace crossroof::widgets
