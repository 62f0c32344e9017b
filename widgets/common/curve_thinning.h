// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
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

/// The samples of a long series that a drawing COLUMNS pixels wide needs, as indices in key order. Of the
/// samples whose keys lie in one of COLUMNS equal columns of [KEY_LO, KEY_HI] (equal in the logarithm of the
/// keys with LOG_KEYS) it keeps the first, the lowest, the highest and the last, so that a line, a step line
/// or markers through them cover the same column and reach its every peak and valley; the last sample before
/// KEY_LO and the first after KEY_HI stay too (the line leaves the plot as before), and a NaN value stays as
/// one break. KEYS must be ascending; at most 4 * COLUMNS + 2 indices come back, plus the breaks.
std::vector<qsizetype> columnSamples(const QVector<double> &keys, const QVector<double> &values, double keyLo,
                                     double keyHi, int columns, bool logKeys = false);

/// A series longer than this many samples per pixel column is drawn from columnSamples() alone.
inline constexpr int kSamplesPerColumn = 4;
/// The columns a figure's curves are sampled at: those of a 200 mm wide figure printed at 600 dpi.
inline constexpr int kFigureColumns = 4800;

/// The densely sampled curves of one plot, each drawn by its graph thinned (thinCurve()) for the plot's present
/// ranges and size: thinned again before a replot whenever those changed (zoom, pan, resize), and drawn from
/// every sample while a figure is exported (kFullDetailProperty). Along a logarithmic axis a curve is thinned in
/// the logarithm of its keys or values, where the axis's pixels are even. A curve of more than
/// kSamplesPerColumn samples per pixel column of the plot (of kFigureColumns in a figure) is first cut to
/// columnSamples(), so that a trace of millions of samples draws and exports as fast as one of thousands.
class ThinnedGraphs : public QObject
{
public:
    /// How a curve's samples may be dropped: a model curve (Smooth) is thinned to within the tolerance; a
    /// measured one (Measured: step lines, markers) keeps every sample unless it has more than
    /// kSamplesPerColumn per column, and then columnSamples().
    enum class Kind { Smooth, Measured };

    /// TOLERANCE in pixels; 0 draws every sample of a curve that does not need columnSamples().
    explicit ThinnedGraphs(QCustomPlot *plot, double tolerance = 0.1);

    /// Sets what GRAPH draws: KEYS ascending, NaN values breaking the curve, KEEP as for thinCurve(). It is
    /// thinned at the next update(), at the latest before the next replot.
    void set(QCPGraph *graph, QVector<double> keys, QVector<double> values, std::vector<bool> keep = {},
             Kind kind = Kind::Smooth);
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
        QPointer<QCPGraph> graph; ///< null once its plot removed it: then nothing is drawn for it
        QVector<double> keys;
        QVector<double> values;
        std::vector<bool> keep;
        Kind kind;
    };
    struct ThinnedFor
    {
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        bool logKeys = false;
        bool logValues = false;
        int width = 0, height = 0;
        int columns = 0; ///< device pixels across the plot
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
