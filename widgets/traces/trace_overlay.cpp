// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_overlay.h"

#include "common/curve_thinning.h"
#include "common/legend_groups.h"
#include "common/measured_graph.h"

#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "common/stamped_graph.h"
#include "common/steady_plot.h"
#include "common/symbol_text.h"
#include "core/occupancy/runtime_fit.h"
#include "core/support/error.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"
#include "traces/kernel_names.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QMouseEvent>
#include <QToolTip>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <utility>

namespace crossroof::widgets {

namespace {

/// A mean error in percent as a legend says it: two significant digits, whole numbers from 100 on ("4.7",
/// "38", "130"; %g would write 1.3e+02).
QString percentText(double percent)
{
    return percent >= 100 && percent < 1e15 ? QString::number(qRound64(percent)) : formatNumber(percent, 2);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString fileNameOf(const core::MeasuredTrace &t)
{
    return t.source.empty() ? TraceOverlay::tr("no file")
                            : QFileInfo(QString::fromStdString(t.source)).fileName();
}

QVector<double> toVector(const std::vector<double> &v)
{
    return QVector<double>(v.begin(), v.end());
}

/// Sets what GRAPH draws through THINNED: the points of T in the order of x (a graph draws them so), every one
/// unless there are millions.
void setMeasuredPoints(ThinnedGraphs *thinned, QCPGraph *graph, const core::MeasuredTrace &t)
{
    std::vector<std::size_t> order(t.x.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&t](std::size_t a, std::size_t b) { return t.x[a] < t.x[b]; });
    QVector<double> keys, values;
    keys.reserve(qsizetype(order.size()));
    values.reserve(qsizetype(order.size()));
    for (std::size_t i : order) {
        keys << t.x[i];
        values << t.y[i];
    }
    thinned->set(graph, std::move(keys), std::move(values), {}, ThinnedGraphs::Kind::Measured);
}

} // namespace

QColor seriesColour(int index)
{
    using namespace plot_style;
    // Okabe-Ito without the model curves' blue and vermillion, then Paul Tol's muted scheme; neither's yellow nor
    // sand, too pale to see on white (Tol's rose and purple in their places).
    static const QColor colours[] = {kOrange,           kGreen,           kPurple,          kSky,
                                     QColor(0xCC, 0x66, 0x77), kGrey,     QColor(0x88, 0x22, 0x55),
                                     QColor(0x44, 0xAA, 0x99), QColor(0x99, 0x99, 0x33), QColor(0x33, 0x22, 0x88),
                                     QColor(0xAA, 0x44, 0x99), kBlack};
    const int n = int(std::size(colours));
    return colours[((index % n) + n) % n];
}

TraceOverlay::TraceOverlay(QCustomPlot *plot, TraceState *traces, Target target, QObject *parent)
    : QObject(parent ? parent : plot)
    , m_plot(plot)
    , m_traces(traces)
    , m_target(target)
    , m_thinned(new ThinnedGraphs(plot))
{
    // The X-graph's measured points lie on their own layer over the model's (where they were, last on its main
    // layer), kept as a picture while a drag moves only the model (SteadyPlot::setCachedLayer()).
    if (auto *steady = dynamic_cast<SteadyPlot *>(plot); steady && target == Target::XGraph) {
        const QString name = QStringLiteral("crossroof-measured");
        if (!plot->layer(name))
            plot->addLayer(name, plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
        m_layer = plot->layer(name);
        steady->setCachedLayer(m_layer);
    }
    if (target == Target::XGraph)
        m_names = new KernelNames(plot);
    connect(m_traces, &TraceState::changed, this, &TraceOverlay::refresh);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString text = hoverText(event->position());
        if (!text.isEmpty())
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    refresh();
}

void TraceOverlay::setHighlighted(const QStringList &labels)
{
    if (labels == m_highlighted)
        return;
    m_highlighted = labels;
    refresh();
}

QString TraceOverlay::hoverText(const QPointF &pixel) const
{
    constexpr double kPixels = 10;
    if (!m_plot || m_target != Target::XGraph)
        return {};
    double best = kPixels;
    QString text;
    for (const core::MeasuredTrace *shown : shownTraces()) {
        const core::MeasuredTrace &t = *shown;
        if (t.kind != core::TraceKind::KernelPoints || !t.visible)
            continue;
        for (std::size_t i = 0; i < t.x.size(); ++i) {
            const double d = std::hypot(m_plot->xAxis->coordToPixel(t.x[i]) - pixel.x(),
                                        m_plot->yAxis->coordToPixel(t.y[i]) - pixel.y());
            if (d > best)
                continue;
            best = d;
            const QString label = i < t.labels.size() ? QString::fromStdString(t.labels[i]) : QString();
            text = tr("%1\n%2 warps/SM, %3 GB/s (%4)")
                           .arg(label, formatNumber(t.x[i], 4), formatNumber(t.y[i], 4), QString::fromStdString(t.name));
        }
    }
    return text;
}

TraceOverlay::~TraceOverlay()
{
    // Touch the plot only while one of our graphs lives: then the plot is not being torn down.
    if (graphs().isEmpty())
        return;
    if (m_ownsRightAxis)
        m_plot->yAxis2->setVisible(false);
    clearGraphs();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TraceOverlay::setPrediction(Prediction prediction)
{
    m_prediction = std::move(prediction);
    refresh();
}

void TraceOverlay::setKernels(KernelState *kernels)
{
    m_kernels = kernels;
    connect(kernels, &KernelState::reportChanged, this, [this] {
        takeKernels();
        refresh();
    });
    connect(kernels, &KernelState::tableChanged, this, &TraceOverlay::refresh);
    takeKernels();
    refresh();
}

void TraceOverlay::takeKernels()
{
    m_kernelTrace.reset();
    if (!m_kernels || !m_kernels->report())
        return;
    try {
        m_kernelTrace = core::kernelPointsTrace(*m_kernels->report(), m_kernels->report()->source);
        m_kernelTrace->id = "kernels";
    } catch (const core::InputError &) {
        // No kernel has warps per SM and a measured DRAM throughput: nothing to draw on the X-graph.
    }
}

std::vector<const core::MeasuredTrace *> TraceOverlay::shownTraces() const
{
    std::vector<const core::MeasuredTrace *> out;
    bool kernelsTraced = false;
    for (const core::MeasuredTrace &t : m_traces->traces()) {
        out.push_back(&t);
        kernelsTraced = kernelsTraced
                        || (m_kernelTrace && t.kind == core::TraceKind::KernelPoints
                            && t.source == m_kernelTrace->source);
    }
    if (m_kernelTrace && !kernelsTraced && m_target == Target::XGraph)
        out.push_back(&*m_kernelTrace);
    return out;
}

TraceOverlay::Prediction TraceOverlay::xmodelPrediction(const ParameterState *state)
{
    // A kernel's prediction depends on the parameters other than n and Z only through the solve at its own
    // whole warps and Z: those solves are kept while the other parameters stay (a drag of n or Z, or a kernel's
    // own Z, moves nothing else), so that a drag does not solve every kernel of a family again at each step.
    struct Solved
    {
        core::XModelParams base; ///< the parameters with n and Z zeroed, for which the solves hold
        std::map<std::pair<double, double>, std::optional<double>> gbs; ///< (n, Z) -> the operating GB/s
    };
    auto solved = std::make_shared<Solved>();
    return [state, solved](double warps, double Z) -> std::optional<double> {
        core::XModelParams p = state->params();
        if (std::isfinite(Z) && Z > 0)
            p.Z = Z;
        core::XModelParams base = p;
        base.n = 0;
        base.Z = 0;
        constexpr std::size_t kMostKept = 100'000; // kernels without their own Z add solves at each step of Z
        if (!(base == solved->base) || solved->gbs.size() > kMostKept) {
            solved->base = base;
            solved->gbs.clear();
        }
        // The model takes whole warps; a kernel's achieved warps per SM are an average, so interpolate.
        const auto at = [&p, &solved](double n) -> std::optional<double> {
            const auto key = std::make_pair(n, p.Z);
            if (const auto it = solved->gbs.find(key); it != solved->gbs.end())
                return it->second;
            core::XModelParams q = p;
            q.n = n;
            std::optional<double> gbs;
            try {
                gbs = core::XModel(q).solve().operatingPoint().ms_gbs;
            } catch (const core::InputError &) {
            }
            solved->gbs.emplace(key, gbs);
            return gbs;
        };
        if (!std::isfinite(warps) || warps <= 0)
            return std::nullopt;
        const double lo = std::max(1.0, std::floor(warps));
        const double hi = std::max(1.0, std::ceil(warps));
        const auto a = at(lo);
        if (!a || hi == lo)
            return a;
        const auto b = at(hi);
        if (!b)
            return std::nullopt;
        return *a + (*b - *a) * (std::max(warps, 1.0) - lo);
    };
}

QList<QCPGraph *> TraceOverlay::graphs() const
{
    QList<QCPGraph *> out;
    for (const auto &g : m_graphs) {
        if (g)
            out << g.data();
    }
    return out;
}

QList<QCPGraph *> TraceOverlay::graphsFor(const QString &id) const
{
    QList<QCPGraph *> out;
    for (int i = 0; i < m_graphs.size(); ++i) {
        if (m_graphIds[i].section(QLatin1Char('/'), 0, -2) == id && m_graphs[i])
            out << m_graphs[i].data();
    }
    return out;
}

QCPGraph *TraceOverlay::addGraph(const QString &id, const char *role, bool rightAxis)
{
    const QString key = id + QLatin1Char('/') + QLatin1String(role);
    QCPAxis *valueAxis = rightAxis ? m_plot->yAxis2 : m_plot->yAxis;
    QCPGraph *g = nullptr;
    if (m_reuse < m_previous.size() && m_previousIds[m_reuse] == key && m_previous[m_reuse]
        && m_previous[m_reuse]->valueAxis() == valueAxis) {
        g = m_previous[m_reuse++].data();
        g->data()->clear(); // the caller sets its data and its look again
    } else {
        dropUnused(); // what follows is drawn by new graphs, in the order a first refresh adds them
        g = new StampedGraph(m_plot->xAxis, valueAxis); // hundreds of stars, crosses and circles: stamped
        if (m_layer)
            g->setLayer(m_layer);
    }
    m_graphs << g;
    m_graphIds << key;
    return g;
}

void TraceOverlay::dropUnused()
{
    for (qsizetype i = m_reuse; i < m_previous.size(); ++i) {
        if (m_previous[i])
            m_plot->removeGraph(m_previous[i].data());
    }
    m_previous.clear();
    m_previousIds.clear();
    m_reuse = 0;
}

void TraceOverlay::clearGraphs()
{
    // A graph still alive means its plot is too.
    for (const auto &g : std::as_const(m_graphs)) {
        if (g)
            m_plot->removeGraph(g.data());
    }
    m_graphs.clear();
    m_graphIds.clear();
}

void TraceOverlay::refresh()
{
    // With nothing drawn before or now the plot stays as it is (its view redraws what it changed itself).
    const bool had = !m_graphs.isEmpty();
    if (m_thinned)
        m_thinned->clear();
    m_previous = std::exchange(m_graphs, {});
    m_previousIds = std::exchange(m_graphIds, {});
    m_reuse = 0;
    double timeTop = 0;
    double timeBottom = std::numeric_limits<double>::infinity();
    int seriesIndex = -1;
    std::vector<KernelNames::Kernel> kernels; // every kernel point drawn, with its prediction
    for (const core::MeasuredTrace *shown : shownTraces()) {
        const core::MeasuredTrace &t = *shown;
        const bool mine = m_target == Target::XGraph ? (t.kind == core::TraceKind::BandwidthVsWarps
                                                        || t.kind == core::TraceKind::KernelPoints)
                                                     : t.kind == core::TraceKind::Runtimes;
        if (!mine)
            continue;
        // By position among this plot's traces, so hiding one does not recolour the others.
        const int colourIndex = ++seriesIndex;
        if (!t.visible || t.x.empty())
            continue;
        const QString id = QString::fromStdString(t.id);
        const QString name = QString::fromStdString(t.name);
        const QColor colour = seriesColour(colourIndex);

        if (t.kind == core::TraceKind::BandwidthVsWarps) {
            QCPGraph *g = addGraph(id, "curve");
            QColor light = colour;
            light.setAlpha(110);
            g->setPen(QPen(light, 1));
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 1.5), Qt::NoBrush, 7));
            g->setName(symbol_text::literal(tr("%1 (%2)").arg(name, fileNameOf(t))));
            legend_groups::setMember(g, fileNameOf(t), name, legend_groups::MemberKind::Trace);
            setMeasuredPoints(m_thinned, g, t);
            setMeasuredKind(g, MeasuredKind::TracePoints);
            continue;
        }

        if (t.kind == core::TraceKind::KernelPoints) {
            QCPGraph *stars = addGraph(id, "kernels");
            stars->setLineStyle(QCPGraph::lsNone);
            stars->setScatterStyle(QCPScatterStyle(plot_style::starPath(), QPen(plot_style::kBlack, 0.8), colour, 16));
            stars->setData(toVector(t.x), toVector(t.y));
            setMeasuredKind(stars, MeasuredKind::KernelPoints);
            QVector<double> hx, hy;
            for (std::size_t i = 0; i < t.x.size() && i < t.labels.size(); ++i) {
                if (m_highlighted.contains(QString::fromStdString(t.labels[i]))) {
                    hx << t.x[i];
                    hy << t.y[i];
                }
            }
            if (!hx.isEmpty()) {
                QCPGraph *rings = addGraph(id, "selected");
                rings->setLineStyle(QCPGraph::lsNone);
                rings->setScatterStyle(
                        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(plot_style::kBlack, 2.5), Qt::NoBrush, 26));
                rings->setData(hx, hy);
                rings->removeFromLegend();
            }
            // Predictions and the error lines between, in the order of x so the lines can be stored sorted.
            std::vector<std::size_t> order(t.x.size());
            std::iota(order.begin(), order.end(), std::size_t(0));
            std::stable_sort(order.begin(), order.end(),
                             [&t](std::size_t a, std::size_t b) { return t.x[a] < t.x[b]; });
            // The kernels of the Kernels dock's file: the Kernels table's predictions, each kernel at its own
            // workload and clock; other kernel points: the model at their warps and Z.
            const bool tabled = m_kernels && m_kernels->report() && t.source == m_kernels->report()->source;
            const auto predict = [&](std::size_t i) -> std::optional<double> {
                if (tabled) {
                    const core::KernelRow *row
                            = i < t.labels.size() ? m_kernels->row(QString::fromStdString(t.labels[i])) : nullptr;
                    return row ? row->predicted_gbs : std::nullopt;
                }
                return m_prediction ? m_prediction(t.x[i], t.extra.empty() ? kNaN : t.extra[i]) : std::nullopt;
            };
            QVector<double> pk, pv, ek, ev;
            double errorSum = 0;
            int predicted = 0;
            for (std::size_t i : order) {
                const auto p = predict(i);
                kernels.push_back({t.x[i], t.y[i], i < t.labels.size() ? QString::fromStdString(t.labels[i]) : QString(),
                                   p && std::isfinite(*p) ? p : std::nullopt});
                if (!p || !std::isfinite(*p))
                    continue;
                pk << t.x[i];
                pv << *p;
                ek << t.x[i] << t.x[i] << t.x[i];
                ev << t.y[i] << *p << kNaN;
                if (t.y[i] > 0) {
                    errorSum += std::abs(*p - t.y[i]) / t.y[i];
                    ++predicted;
                }
            }
            // The Kernels table's kernels are off by 1 − its mean accuracy, which the table says too.
            const std::optional<core::KernelAccuracy> tableAccuracy
                    = tabled ? m_kernels->accuracy() : std::optional<core::KernelAccuracy>();
            const QString off = tableAccuracy ? modelOffPercent(*tableAccuracy)
                                : predicted > 0 ? percentText(100 * errorSum / predicted)
                                                : QString();
            stars->setName(!off.isEmpty() ? tr("%1 (%2): model off %3 %")
                                                    .arg(symbol_text::literal(name),
                                                         symbol_text::literal(fileNameOf(t)), off)
                                          : symbol_text::literal(tr("%1 (%2)").arg(name, fileNameOf(t))));
            legend_groups::setMember(stars, fileNameOf(t), name, legend_groups::MemberKind::KernelSet);
            if (!pk.isEmpty()) {
                QCPGraph *lines = addGraph(id, "errors");
                lines->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
                lines->setData(ek, ev, true);
                lines->removeFromLegend();
                QCPGraph *model = addGraph(id, "model");
                model->setLineStyle(QCPGraph::lsNone);
                // A cross: the X-graph's own circles mean equilibria.
                model->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross,
                                                       QPen(plot_style::kBlack, 1.5), Qt::NoBrush, 9));
                model->setName(tabled ? tr("model at each kernel's own workload and clock (Kernels dock)")
                                      : tr("model at kernels' n and Z"));
                // Merged with the kernels' entries when the legend is crowded, as in a single-column figure.
                legend_groups::setMember(model, fileNameOf(t), tr("model"), legend_groups::MemberKind::Prediction);
                model->setData(pk, pv, true);
            }
            continue;
        }

        // Runtimes on the zigzag: time against B_r on the right axis, with the Eq. 15 calibration.
        QCPGraph *points = addGraph(id, "runtimes", true);
        points->setLineStyle(QCPGraph::lsNone);
        points->setScatterStyle(
                QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(colour, 1.5), Qt::NoBrush, 8));
        points->setName(symbol_text::literal(tr("%1 (%2)").arg(name, fileNameOf(t))));
        legend_groups::setMember(points, fileNameOf(t), name, legend_groups::MemberKind::Trace);
        setMeasuredPoints(m_thinned, points, t);
        timeTop = std::max(timeTop, *std::max_element(t.y.begin(), t.y.end()));
        timeBottom = std::min(timeBottom, *std::min_element(t.y.begin(), t.y.end()));
        std::vector<core::RuntimeSample> samples;
        for (std::size_t i = 0; i < t.x.size(); ++i)
            samples.push_back({t.x[i], t.extra.empty() ? 1.0 : t.extra[i], t.y[i]});
        try {
            const core::RuntimeFit fit = core::fitRuntime(samples);
            QVector<double> fk, fv;
            const bool oneT
                    = std::all_of(samples.begin(), samples.end(), [&samples](const core::RuntimeSample &s) {
                          return s.threads_per_core == samples.front().threads_per_core;
                      });
            if (oneT) {
                // One T: the fit is a smooth curve in B_r.
                const auto [lo, hi] = std::minmax_element(t.x.begin(), t.x.end());
                const int steps = 200;
                for (int i = 0; i <= steps; ++i) {
                    const double br = *lo + (*hi - *lo) * i / steps;
                    fk << br;
                    fv << fit.predict(br, samples.front().threads_per_core);
                }
            } else {
                std::vector<core::RuntimeSample> sorted = samples;
                std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
                    return a.requested_blocks < b.requested_blocks;
                });
                for (const auto &s : sorted) {
                    fk << s.requested_blocks;
                    fv << fit.predict(s.requested_blocks, s.threads_per_core);
                }
            }
            QCPGraph *line = addGraph(id, "fit", true);
            line->setPen(QPen(colour, 1.5, Qt::DashLine));
            line->setName(tr("Eq. 15 fit: time = %1·√B_{r}/T + %2 s, r² = %3")
                                  .arg(formatNumber(fit.a1, 4), formatNumber(fit.a0, 4),
                                       QString::number(fit.r2, 'f', 4)));
            line->setData(fk, fv, true);
            for (double v : std::as_const(fv)) {
                timeTop = std::max(timeTop, v);
                timeBottom = std::min(timeBottom, v);
            }
        } catch (const core::InputError &) {
            // Too few runs, or all at one sqrt(B_r)/T: the points alone are shown.
        }
    }

    if (m_target == Target::Zigzag) {
        if (timeTop > 0) {
            if (!m_plot->yAxis2->visible())
                m_ownsRightAxis = true;
            if (m_ownsRightAxis) {
                // The measured span with a margin: the zigzag's steps in the times are what one looks for.
                const double pad = std::max(0.08 * (timeTop - timeBottom), 0.02 * timeTop);
                m_plot->yAxis2->setVisible(true);
                m_plot->yAxis2->setTickLabels(true);
                m_plot->yAxis2->setLabel(tr("measured time (s)"));
                m_plot->yAxis2->setRange(std::max(0.0, timeBottom - pad), timeTop + pad);
            }
        } else if (m_ownsRightAxis) {
            m_plot->yAxis2->setVisible(false);
            m_ownsRightAxis = false;
        }
    }
    if (m_names)
        m_names->setKernels(std::move(kernels), m_highlighted);
    dropUnused();
    if (m_thinned)
        m_thinned->update();
    if (had || !m_graphs.isEmpty())
        redrawSoon(m_plot);
}

} // namespace crossroof::widgets
