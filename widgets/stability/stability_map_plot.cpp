// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/stability_map_plot.h"

#include "common/plot_navigator.h"
#include "common/number_format.h"
#include "common/plot_style.h"
#include "common/qt_text.h"
#include "common/stamped_graph.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The share of a band its shades take, light to dark: a cell's value is band + kShadeSpan * throughput / top.
constexpr double kShadeSpan = 0.95;

/// Blue for one stable state, orange for two, purple for three or more; each band runs light (no throughput)
/// to dark (the map's highest operating throughput).
const QColor kBands[3][2] = {{QColor(0xde, 0xeb, 0xf7), QColor(0x08, 0x51, 0x9c)},
                             {QColor(0xfe, 0xe6, 0xce), QColor(0xa6, 0x36, 0x03)},
                             {QColor(0xef, 0xed, 0xf5), QColor(0x54, 0x27, 0x8f)}};

/// The map's gradient: data values are band + shade, shade in [0, kShadeSpan].
QCPColorGradient bandGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    for (int b = 0; b < 3; ++b) {
        g.setColorStopAt(b / 3.0, kBands[b][0]);
        g.setColorStopAt((b + kShadeSpan) / 3.0, kBands[b][1]);
        if (b < 2)
            g.setColorStopAt((b + 0.999) / 3.0, kBands[b][1]);
    }
    g.setLevelCount(350);
    return g;
}

QSharedPointer<QCPAxisTicker> logTicker(double lo, double hi)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (double decade = std::pow(10.0, std::floor(lo)); std::log10(decade) <= hi + 1e-9; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            const double u = std::log10(m * decade);
            if (u >= lo - 1e-9 && u <= hi + 1e-9)
                ticker->addTick(u, QString::number(m * decade, 'g', 4));
        }
    }
    return ticker;
}

/// The key's throughput ticks, on its side towards the map: in every band the same round GB/s values where its
/// shade shows them (band + kShadeSpan * value / top), as many as fit the band's height two lines apart, so
/// that a reader reads a cell's throughput off its shade whichever band it is in; where only one fits, a scale
/// in the first band alone: 0 at its lightest shade and the map's highest throughput at its darkest.
class ShadeTicker : public QCPAxisTicker
{
public:
    explicit ShadeTicker(QCPAxis *axis)
        : m_axis(axis)
    {
    }

    /// The map's highest operating throughput in GB/s (the darkest shade); 0: none, no ticks.
    void setTop(double gbs) { m_top = gbs; }

protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        QVector<double> ticks;
        if (!(m_top > 0) || !std::isfinite(m_top))
            return ticks;
        const double band = std::abs(m_axis->coordToPixel(1) - m_axis->coordToPixel(0)); // pixels a band
        const double line = QFontMetricsF(m_axis->tickLabelFont()).height();
        // The least round step whose ticks are two lines apart in a band's shades.
        const double least = band > 0 ? 2 * line * m_top / (kShadeSpan * band) : m_top;
        double step = std::pow(10.0, std::floor(std::log10(std::max(least, 1e-300))));
        for (const double m : {1.0, 2.0, 5.0, 10.0}) {
            if (m * step >= least) {
                step *= m;
                break;
            }
        }
        // Room for one tick a band: a scale in the first band alone, its lightest shade's 0 and its darkest
        // (the map's highest) where the band is a line and a bit tall, else the highest alone; the same values
        // repeated in every band would read as three different scales.
        if (2 * step > m_top * (1 + 1e-9)) {
            const double first = std::floor(range.lower);
            if (kShadeSpan * band >= 1.2 * line)
                ticks << first;
            ticks << first + kShadeSpan;
            return ticks;
        }
        for (int b = int(std::floor(range.lower)); b < int(std::ceil(range.upper)); ++b) {
            for (int i = 1; i * step <= m_top * (1 + 1e-9); ++i)
                ticks << b + kShadeSpan * std::min(i * step, m_top) / m_top;
        }
        return ticks;
    }

    /// Each tick's throughput, read back from its place in its band.
    QVector<QString> createLabelVector(const QVector<double> &ticks, const QLocale &, QChar, int) override
    {
        QVector<QString> labels;
        for (const double t : ticks) {
            // Three significant digits, and every digit of the whole GB/s: "2020", never "2.02e+03".
            const double gbs = (t - std::floor(t + 1e-9)) / kShadeSpan * m_top;
            const int whole = int(std::floor(std::log10(std::max(std::abs(gbs), 1.0)))) + 1;
            labels << formatNumber(gbs, std::max(3, whole));
        }
        return labels;
    }

private:
    QCPAxis *m_axis;
    double m_top = 0;
};

} // namespace

QString parameterTitle(const core::ParameterInfo &info)
{
    const QString name = qs(info.label);
    const QString unit = qs(info.unit);
    const bool said = unit.isEmpty() || name.split(QLatin1Char(' ')).contains(unit, Qt::CaseInsensitive);
    return QStringLiteral("%1 %2").arg(name, qs(info.symbol)) + (said ? QString() : QStringLiteral(" (%1)").arg(unit));
}

double highestThroughput(const core::StabilityMap &map)
{
    double top = 0;
    for (double g : map.operating_gbs)
        top = std::max(top, g);
    return top;
}

StabilityMapPlot::StabilityMapPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    setAccessibleName(tr("Stability map"));
    plot_style::setupAxes(this);
    PlotNavigator::install(this)->setLeftButtonTaken(true); // the left button moves the point
    m_colorMap = new QCPColorMap(xAxis, yAxis);
    m_colorMap->setInterpolate(false);
    // The key beside the map: its own colours, a band per number of stable states, each light to dark with
    // the operating throughput, from 0 to the GB/s its title gives (showMap()). Beside, not below: a figure's
    // map is short and wide.
    m_key = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, m_key);
    m_key->setType(QCPAxis::atRight);
    m_key->setBarWidth(10);
    m_key->setRangeDrag(false);
    m_key->setRangeZoom(false);
    m_key->setGradient(bandGradient());
    m_key->setDataRange(QCPRange(0, 3));
    m_colorMap->setColorScale(m_key); // the map's gradient and data range, kept in step
    auto bandTicks = QSharedPointer<QCPAxisTickerText>::create();
    bandTicks->addTick(0.5, tr("1"));
    bandTicks->addTick(1.5, tr("2"));
    bandTicks->addTick(2.5, tr("3+"));
    m_key->axis()->setTicker(bandTicks);
    m_key->axis()->setSubTicks(false);
    // The bands' title names the bands only: the shades' title is on the other side, with their values.
    m_key->axis()->setLabel(tr("stable states"));
    m_key->axis()->setLabelFont(yAxis->labelFont());
    m_key->axis()->setTickLabelFont(yAxis->tickLabelFont());
    // Its other side, towards the map: the throughput each shade stands for, in GB/s.
    m_shadeAxis = m_key->axis()->axisRect()->axis(QCPAxis::atLeft);
    m_shadeTicker = QSharedPointer<ShadeTicker>::create(m_shadeAxis);
    m_shadeAxis->setTicker(m_shadeTicker);
    m_shadeAxis->setTicks(true);
    m_shadeAxis->setTickLabels(true);
    m_shadeAxis->setSubTicks(false);
    m_shadeAxis->setTickLengthIn(0);
    m_shadeAxis->setTickLengthOut(3);
    m_shadeAxis->setLabel(tr("shade: MS throughput (GB/s)"));
    plot_style::setShortLabel(m_shadeAxis, tr("GB/s"));
    m_shadeAxis->setLabelFont(yAxis->labelFont());
    m_shadeAxis->setTickLabelFont(yAxis->tickLabelFont());
    auto *aligned = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, aligned);
    m_key->setMarginGroup(QCP::msBottom | QCP::msTop, aligned);
    m_edges = new QCPCurve(xAxis, yAxis);
    m_edges->setPen(QPen(Qt::black, 1.5));
    // Drawn whole at the map's edge cells, over the edge, not cut in half by it.
    auto *current = new StampedGraph(xAxis, yAxis);
    current->setWholeMarks(true);
    m_current = current;
    // The point has a layer (and paint buffer) of its own: moving it redraws neither the map nor the axes.
    addLayer(QStringLiteral("point"), layer(QStringLiteral("main")), QCustomPlot::limAbove);
    layer(QStringLiteral("point"))->setMode(QCPLayer::lmBuffered);
    m_current->setLayer(QStringLiteral("point"));
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(Qt::black, 2),
                                               QColor(255, 255, 255, 160), 16));
    setMinimumSize(300, 240);
    setMouseTracking(true);
    connect(this, &QCustomPlot::beforeReplot, this, [this] { m_fullReplotQueued = false; });
}

void StabilityMapPlot::showMap(const core::StabilityMap &map)
{
    const std::size_t nx = map.x_values.size();
    const std::size_t ny = map.y_values.size();
    if (nx == 0 || ny == 0)
        return;
    std::vector<double> ux(nx), uy(ny);
    for (std::size_t i = 0; i < nx; ++i)
        ux[i] = map.x.log ? std::log10(map.x_values[i]) : map.x_values[i];
    for (std::size_t j = 0; j < ny; ++j)
        uy[j] = map.y.log ? std::log10(map.y_values[j]) : map.y_values[j];

    const double top = highestThroughput(map);
    // The key's side towards the map gives round GB/s values along every band: white is no throughput, the
    // darkest the map's highest.
    static_cast<ShadeTicker *>(m_shadeTicker.data())->setTop(top);

    auto *data = m_colorMap->data();
    data->setSize(int(nx), int(ny));
    data->setRange(QCPRange(ux.front(), ux.back()), QCPRange(uy.front(), uy.back()));
    for (std::size_t j = 0; j < ny; ++j) {
        for (std::size_t i = 0; i < nx; ++i) {
            const std::size_t at = map.shownIndex(i, j);
            const int band = std::clamp(map.stable_count[at] - 1, 0, 2);
            const double shade = top > 0 ? kShadeSpan * map.operating_gbs[at] / top : 0;
            data->setCell(int(i), int(j), band + shade);
        }
    }

    // Outline the regions along the cell sides where the stable count changes (tangencies).
    const auto edges = core::regionEdges(map);
    QVector<double> ex, ey;
    auto mid = [](const std::vector<double> &u, std::size_t i, int side) {
        if (side < 0)
            return i == 0 ? u[0] - (u[1] - u[0]) / 2 : (u[i - 1] + u[i]) / 2;
        return i + 1 >= u.size() ? u[i] + (u[i] - u[i - 1]) / 2 : (u[i] + u[i + 1]) / 2;
    };
    for (std::size_t j = 0; j < ny; ++j) {
        for (std::size_t i = 0; i < nx; ++i) {
            const auto e = edges[map.index(i, j)];
            if (e & core::kEdgeRight)
                ex << mid(ux, i, 1) << mid(ux, i, 1) << kNaN, ey << mid(uy, j, -1) << mid(uy, j, 1) << kNaN;
            if (e & core::kEdgeUp)
                ex << mid(ux, i, -1) << mid(ux, i, 1) << kNaN, ey << mid(uy, j, 1) << mid(uy, j, 1) << kNaN;
        }
    }
    m_edges->setData(ex, ey);

    for (int which : {0, 1}) {
        const core::MapAxis &a = which == 0 ? map.x : map.y;
        QCPAxis *qa = which == 0 ? xAxis : yAxis;
        const auto &u = which == 0 ? ux : uy;
        const double half = u.size() > 1 ? (u[1] - u[0]) / 2 : 0.5;
        qa->setRange(u.front() - half, u.back() + half);
        if (a.log)
            qa->setTicker(logTicker(u.front(), u.back()));
        else
            qa->setTicker(QSharedPointer<QCPAxisTicker>::create());
        const auto *info = core::findParameter(a.key);
        qa->setLabel(parameterTitle(*info) + (a.log ? tr(", log scale") : QString()));
        plot_style::setShortLabel(
                qa, qs(info->symbol)
                            + (info->unit.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(info->unit))));
    }
}

void StabilityMapPlot::markPoint(double u, double v, bool mapChanged)
{
    m_current->setData({u}, {v}, true);
    if (mapChanged || !isVisible()) {
        m_fullReplotQueued = true;
        replot(QCustomPlot::rpQueuedReplot);
    } else if (!m_fullReplotQueued) {
        m_current->layer()->replot(); // the point's buffer alone (a whole replot if the buffers are stale)
    }
}

} // namespace crossroof::widgets
