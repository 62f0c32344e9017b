// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QPointF>

#include <qcustomplot.h>

#include <array>

namespace crossroof::widgets {

/// Zoom, pan and a crosshair readout for one plot, the same on every view:
/// - wheel (or + and -): zoom around the pointer (the centre for keys);
/// - drag with the left button (the middle button on plots whose left button does something else): pan;
/// - double-click or Home: back to the view's own ranges;
/// - hovering: a crosshair and the coordinates under the pointer, with the axes' titles (units included).
///
/// The view keeps setting its ranges as before; while the user has zoomed or panned, the navigator puts the
/// user's ranges back just before each replot, and the secondary axes (right, top) follow the primary ones
/// the way the view couples them (the same linear map, in log space on log axes, by position on screen where
/// one of the two axes is reversed); a view that couples them itself on the primary axes' rangeChanged
/// has the last word, as the secondary axes are set first. The crosshair sits on a
/// buffered layer of its own, so moving it repaints only that layer.
class PlotNavigator : public QObject
{
    Q_OBJECT
public:
    /// Installs navigation on PLOT (the navigator is the plot's child). Returns the installed navigator.
    static PlotNavigator *install(QCustomPlot *plot);
    /// The plot's navigator, or nullptr.
    static PlotNavigator *of(QCustomPlot *plot);

    /// The left button belongs to the view (it drags a point or picks a cell): pan with the middle button.
    void setLeftButtonTaken(bool taken) { m_leftTaken = taken; }
    /// Whether the ranges are the user's (after a zoom or a pan) rather than the view's.
    bool isZoomed() const { return m_manual; }
    /// Zooms the primary axes by FACTOR (< 1 zooms in) around the pixel AT of the axis rect.
    void zoom(double factor, QPointF at);
    /// Back to the view's ranges.
    void resetRanges();
    /// The user's ranges of the bottom and left axes while isZoomed() (a session saves them).
    QCPRange userXRange() const { return m_user[0]; }
    QCPRange userYRange() const { return m_user[1]; }
    /// Shows X and Y on the bottom and left axes as if the user had zoomed there (a session reopened).
    void setUserRanges(const QCPRange &x, const QCPRange &y);
    /// The crosshair's text for pixel AT (empty outside the axis rect).
    QString readoutAt(QPointF at) const;
    /// The crosshair's text as shown now (empty while it is hidden): after every replot it reads the axes
    /// under the pointer again, so an undo, a slider or a zoom by key never leaves it telling old values.
    QString crosshairText() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit PlotNavigator(QCustomPlot *plot);
    std::array<QCPAxis *, 4> axes() const;
    void beforeReplot();
    /// Enters the user's ranges (from the current ones) if not there yet.
    void takeOver();
    /// Puts the user's ranges on the primary axes and the coupled ones on the secondary axes.
    void applyUserRanges();
    void press(QMouseEvent *event);
    void move(QMouseEvent *event);
    void release(QMouseEvent *event);
    void showCrosshair(QPointF at);
    void hideCrosshair();
    /// After a replot: the crosshair's text for the axes as they are now.
    void updateCrosshair();

    QCustomPlot *m_plot;
    bool m_leftTaken = false;
    bool m_manual = false;
    std::array<QCPRange, 4> m_auto{};    ///< the view's ranges (x, y, x2, y2), as it last set them
    std::array<QCPRange, 4> m_applied{}; ///< what the navigator last put on the axes
    std::array<QCPRange, 2> m_user{};    ///< the user's ranges of the primary axes (x, y)
    bool m_panning = false;
    QPointF m_panStart;
    std::array<QCPRange, 2> m_panFrom{};
    QCPLayer *m_overlay = nullptr;
    QPointer<QCPItemLine> m_vLine;
    QPointer<QCPItemLine> m_hLine;
    QPointer<QCPItemText> m_text;
    QPointF m_pointer; ///< where the crosshair is
};

} // namespace crossroof::widgets
