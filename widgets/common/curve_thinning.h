// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QVector>

#include <optional>
#include <vector>

class QCPGraph;
class QCustomPlot;

namespace crossroof::widgets {

/// A dynamic property set on a QCustomPlot while a figure of it is exported: views that draw thinned curves
/// draw every sample then (a figure may be printed far larger than the plot is on screen).
inline constexpr char kFullDetailProperty[] = "crossroofFullDetail";

/// A curve as it is drawn: keys and values, NaN values breaking it into pieces.
struct DrawnCurve
{
    QVector<double> keys;
    QVector<double> values;
};

/// Thins a densely sampled curve for drawing: keeps the fewest samples such that the polyline through them
/// passes within TOLERANCE pixels (vertically) of every dropped sample, so it draws the same pixels with far
/// fewer segments where the curve is straight and all of them where it bends. X_SCALE and Y_SCALE are pixels
/// per data unit. Kept always: the first and last sample of every piece, every sample where KEEP is true
/// (kinks, peaks, valleys), and each local extreme of the values. A NaN between pieces stays one NaN.
/// KEYS must be ascending; KEEP is empty or as long as KEYS.
DrawnCurve thinCurve(const QVector<double> &keys, const QVector<double> &values, double xScale, double yScale,
                     double tolerance, const std::vector<bool> &keep = {});

/// The densely sampled curves of one plot, each drawn by its graph thinned (thinCurve()) for the plot's present
/// ranges and size: thinned again before a replot whenever those changed (zoom, pan, resize), and drawn from
/// every sample while a figure is exported (kFullDetailProperty). Along a logarithmic axis a curve is thinned in
/// the logarithm of its keys or values, where the axis's pixels are even.
class ThinnedGraphs : public QObject
{
public:
    /// TOLERANCE in pixels; 0 draws every sample.
    explicit ThinnedGraphs(QCustomPlot *plot, double tolerance = 0.1);

    /// Sets what GRAPH draws: KEYS ascending, NaN values breaking the curve, KEEP as for thinCurve(). It is
    /// thinned at the next update(), at the latest before the next replot.
    void set(QCPGraph *graph, QVector<double> keys, QVector<double> values, std::vector<bool> keep = {});
    /// Forgets every curve (their graphs keep what they draw until set again or cleared).
    void clear()
    {
        m_dense.clear();
        m_thinnedFor.clear();
    }
    void setTolerance(double pixels);
    double tolerance() const { return m_tolerance; }
    /// Thins every curve again if the ranges, the size or the detail changed since the last time (or always,
    /// with FORCE).
    void update(bool force = false);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Dense
    {
        QCPGraph *graph;
        QVector<double> keys;
        QVector<double> values;
        std::vector<bool> keep;
    };
    struct ThinnedFor
    {
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        bool logKeys = false;
        bool logValues = false;
        int width = 0, height = 0;
        bool full = false; ///< every sample (a figure being exported)
        bool operator==(const ThinnedFor &) const = default;
    };
    void thin(const Dense &curve, const ThinnedFor &now) const;

    QCustomPlot *m_plot;
    double m_tolerance;
    std::vector<Dense> m_dense;
    std::vector<std::optional<ThinnedFor>> m_thinnedFor; ///< for each curve: what it was last thinned for
};

} // namespace crossroof::widgets
