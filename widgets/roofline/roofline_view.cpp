// SPDX-License-Identifier: GPL-3.0-or-later
#include "roofline/roofline_view.h"

#include "common/parameter_state.h"
#include "common/legend_groups.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/point_labels.h"
#include "common/file_folders.h"
#include "common/save_file.h"
#include "common/error_message.h"
#include "common/decade_ticker.h"
#include "roofline/measured_rooflines.h"
#include "roofline/roofline_evaluation.h"
#include "state/trace_state.h"
#include "state/kernel_state.h"
#include "core/support/text.h"
#include "core/xmodel/parameters.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QSignalBlocker>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

/// Pixels within which hovering finds a point.
constexpr double kHoverPixels = 10;

/// The most kernels named and given a prediction arrow, the longest first: a whole application's export has
/// thousands, which no plot can name, and placing a name costs a test against every mark.
constexpr std::size_t kMostNamed = 200;

/// A CSV field, quoted where it holds a comma, a quote or a line break.
QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"'))
        && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

RooflineView::RooflineView(KernelState *kernels, QWidget *parent)
    : QWidget(parent)
    , m_state(kernels->parameters())
    , m_eval(new RooflineEvaluation(kernels, this))
    , m_plot(new QCustomPlot(this))
    , m_note(new QLabel(this))
    , m_exportCsv(new QPushButton(tr("Export CSV…"), this))
    , m_names(new QCheckBox(tr("&Names"), this))
    , m_predictions(new QCheckBox(tr("&Predictions"), this))
    , m_levels(new QCheckBox(tr("L1/L&2"), this))
{
    m_plot->setObjectName(QStringLiteral("RooflinePlot"));
    m_plot->setMinimumSize(420, 320);
    m_plot->setToolTip(QString());
    placeAgainAfterResize(
            m_plot, [this] { return m_names->isChecked() && !m_eval->points().empty(); }, [this] { draw(); });
    plot_style::setupAxes(m_plot);
    m_minimumMargins = m_plot->axisRect()->minimumMargins();
    PlotNavigator::install(m_plot);
    plot_style::setLogScale(m_plot->xAxis, true);
    plot_style::setLogScale(m_plot->yAxis, true);
    m_plot->xAxis->setTicker(QSharedPointer<DecadeTicker>::create(m_plot->xAxis));
    m_plot->yAxis->setTicker(QSharedPointer<DecadeTicker>::create(m_plot->yAxis));
    m_plot->xAxis->setLabel(tr("Intensity I (thread-instructions per DRAM byte)"));
    m_plot->yAxis->setLabel(tr("Instruction throughput (Gop/s)"));
    plot_style::setShortLabel(m_plot->xAxis, tr("I (op/B)"));
    plot_style::setShortLabel(m_plot->yAxis, tr("Gop/s"));
    m_plot->legend->setVisible(true);
    plot_style::placeLegendBelow(m_plot);
    m_plot->setMouseTracking(true);
    m_note->setWordWrap(true);
    m_note->setToolTip(tr("Memory ceiling R·I; compute ceiling M·warp_size·clock·SMs; issue ceiling "
                          "(E·n/L_c)·warp_size·clock·SMs when E·n/L_c < M (n warps, each issuing E "
                          "instructions per L_c cycles); memory-latency ceiling (Little's law) "
                          "n·m·request_bytes·clock·SMs / L, and at L_2 and L_s for L2 and L1. Kernels: "
                          "I = 32·instructions / (DRAM GB/s · duration), throughput = 32·instructions / duration; "
                          "at L1, per global sector byte; at L2, per byte that missed L1. FP32 and FP64 pipe "
                          "ceilings: lanes per SM (the compute capability's results per clock) × clock × SMs; "
                          "tensor cores have none here: one MMA instruction does hundreds of operations."));
    m_names->setChecked(true);
    m_names->setToolTip(tr("Name each kernel (its short name and launch ID); names that would cover another "
                           "are left out"));
    m_predictions->setChecked(true);
    m_predictions->setToolTip(tr("Draw the X-model's prediction for each kernel (its own workload, as the "
                                 "Kernels dock predicts it) with an arrow to the measured point"));
    m_levels->setChecked(true);
    m_levels->setToolTip(tr("Draw each kernel at its L2 and L1 intensity too, with those levels' "
                            "memory-latency ceilings, where the export has that traffic (global sectors; the "
                            "L1 hit rate for L2)"));
    m_exportCsv->setToolTip(tr("Write the plotted ceilings and points as CSV"));
    for (QCheckBox *box : {m_names, m_predictions, m_levels}) {
        connect(box, &QCheckBox::toggled, this, [this] {
            draw();
            Q_EMIT settingsChanged();
        });
    }
    connect(m_exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = saveFileName(this, FileKind::Export, tr("Export Roofline Data"),
                                          QStringLiteral("roofline.csv"), tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        const QString error = exportCsv(path);
        if (!error.isEmpty())
            showError(this, error);
    });
    m_openKernels = new QPushButton(tr("Open ncu CSV…"), this);
    m_openKernels->setToolTip(tr("Read an Nsight Compute export (ncu --csv) into the Kernels dock and draw its "
                                 "kernels here"));
    connect(m_openKernels, &QPushButton::clicked, this, &RooflineView::openKernelsRequested);
    auto *noteRow = new QHBoxLayout;
    noteRow->addWidget(m_note, 1);
    noteRow->addWidget(m_openKernels);
    noteRow->addWidget(m_names);
    noteRow->addWidget(m_predictions);
    noteRow->addWidget(m_levels);
    noteRow->addWidget(m_exportCsv);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_plot, 1);
    layout->addLayout(noteRow);

    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const auto i = pointAt(event->position());
        if (i)
            QToolTip::showText(event->globalPosition().toPoint(), pointText(*i), m_plot);
        else
            QToolTip::hideText();
    });
    connect(m_state, &ParameterState::changed, this, &RooflineView::refresh);
    connect(kernels, &KernelState::reportChanged, this, &RooflineView::refresh);
    connect(kernels, &KernelState::tableChanged, this, &RooflineView::refresh);
    connect(m_eval, &RooflineEvaluation::updated, this, &RooflineView::draw);
    refresh();
}

void RooflineView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    catchUp();
}

void RooflineView::catchUp()
{
    if (!m_stale)
        return;
    m_stale = false;
    m_eval->recompute();
}

void RooflineView::upToDate()
{
    m_eval->kernels()->wait();
    catchUp();
}

void RooflineView::setTraces(TraceState *traces)
{
    m_traces = traces;
    connect(traces, &TraceState::changed, this, &RooflineView::refresh);
    refresh();
}

void RooflineView::setHighlighted(const QStringList &labels)
{
    m_highlighted = labels;
    refresh();
}

core::RooflineSettings RooflineView::settings() const
{
    return {m_names->isChecked(), m_predictions->isChecked(), m_levels->isChecked()};
}

void RooflineView::setSettings(const core::RooflineSettings &settings)
{
    const bool changed = settings != this->settings();
    const std::pair<QCheckBox *, bool> boxes[] = {
            {m_names, settings.names}, {m_predictions, settings.predictions}, {m_levels, settings.levels}};
    for (const auto &[box, checked] : boxes) {
        const QSignalBlocker blocker(box);
        box->setChecked(checked);
    }
    refresh();
    if (changed)
        Q_EMIT settingsChanged(); // one signal for the three boxes, as an undo or a session sets them
}

double RooflineView::memoryCeilingGbs() const
{
    return m_eval->ceilings().memory_gbs;
}

double RooflineView::computeCeilingGops() const
{
    return m_eval->ceilings().compute_gops;
}

const std::vector<RooflineView::KernelPoint> &RooflineView::points() const
{
    return m_eval->points();
}

QPointF RooflineView::operatingPoint()
{
    catchUp();
    return m_eval->operatingPoint();
}

QString RooflineView::pointText(std::size_t i) const
{
    const KernelPoint &p = m_eval->points().at(i);
    const double ridge = computeCeilingGops() / memoryCeilingGbs();
    const QString bound = p.intensity < ridge ? tr("memory-bound (I < ridge %1)").arg(formatNumber(ridge))
                                              : tr("compute-bound (I ≥ ridge %1)").arg(formatNumber(ridge));
    return tr("%1\nI = %2 op/byte, %3, %4 µs\n%5")
            .arg(p.label, formatNumber(p.intensity), formatQuantity(p.gops, QStringLiteral("op/s"), si::giga, 4),
                 formatNumber(p.duration_ns / 1e3), bound);
}

std::optional<std::size_t> RooflineView::pointAt(const QPointF &pixel) const
{
    std::optional<std::size_t> best;
    double bestDistance = kHoverPixels;
    const std::vector<KernelPoint> &points = m_eval->points();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const QPointF at(m_plot->xAxis->coordToPixel(points[i].intensity),
                         m_plot->yAxis->coordToPixel(points[i].gops));
        const double d = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    return best;
}

void RooflineView::refresh()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_eval->recompute();
}

void RooflineView::draw()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_arrowPass.reset();
    m_csvRows.clear();
    const core::XModelParams &params = m_state->params();
    const double R = memoryCeilingGbs();
    const double peak = computeCeilingGops();
    const double ridge = peak / R;
    const std::vector<KernelPoint> &points = m_eval->points();
    const QPointF operating = m_eval->operatingPoint();
    const core::RooflineCeilings &limits = m_eval->ceilings();
    const std::vector<core::MeasuredRoofline> measured = visibleMeasuredRooflines(m_traces);
    const std::optional<double> &issueCeiling = limits.issue_gops;
    const bool predictions = m_predictions->isChecked();
    const bool levels = m_levels->isChecked();
    const std::optional<double> dramLatency = limits.dram_latency_gbs;
    const std::optional<double> l2Latency
            = levels && m_eval->hasL2() ? limits.l2_latency_gbs : std::nullopt;
    const std::optional<double> l1Latency
            = levels && m_eval->hasL1() ? limits.l1_latency_gbs : std::nullopt;

    // Two decades of intensity left of the ridge (the memory ceiling's slope) and one right of it (the flat
    // compute roof), or more for the points, and from a little under the lowest of the memory ceiling and the
    // points up to a little over the peak: no decades of empty plot.
    // Every point is inside by a factor 2 (a third of a decade), so that no mark, the selected ones included,
    // is cut at an edge.
    double xMin = ridge / 100, xMax = ridge * 10;
    double yMax = peak * 2;
    double yMin = std::numeric_limits<double>::infinity();
    const auto include = [&](double x, double y) {
        if (!(x > 0) || !(y > 0))
            return;
        xMin = std::min(xMin, x / 2);
        xMax = std::max(xMax, x * 2);
        yMax = std::max(yMax, y * 2);
        yMin = std::min(yMin, y / 2);
    };
    for (const KernelPoint &p : points) {
        include(p.intensity, p.gops);
        if (levels && p.l1Intensity)
            include(*p.l1Intensity, p.gops);
        if (levels && p.l2Intensity)
            include(*p.l2Intensity, p.gops);
        if (predictions && p.predicted)
            include(p.predicted->x(), p.predicted->y());
    }
    include(operating.x(), operating.y());
    for (const core::MeasuredRoofline &r : measured) {
        for (std::size_t i = 0; i < r.gops.size(); ++i)
            include(r.intensity[i], r.gops[i]);
    }
    // The floating-point pipes' ceilings, with room over them for their legend text's line.
    const std::vector<core::PipeCeiling> &pipes = limits.pipes;
    for (const auto &pipe : pipes) {
        yMax = std::max(yMax, pipe.gops * 1.5);
        xMax = std::max(xMax, pipe.gops / R * 10);
    }
    yMin = std::min(yMin, R * xMin / 1.5);
    // Out to whole decades, so that both ends of each axis carry a labelled tick.
    const auto decadeBelow = [](double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); };
    const auto decadeAbove = [](double v) { return std::pow(10.0, std::ceil(std::log10(v) - 1e-9)); };
    xMin = decadeBelow(xMin);
    xMax = decadeAbove(xMax);
    yMin = decadeBelow(yMin);
    yMax = decadeAbove(yMax);

    const auto addCsv = [this](const QString &series, const QString &name, double x, double y) {
        m_csvRows.push_back(CsvRow {series, name, x, y});
    };
    QCPGraph *roof = m_plot->addGraph();
    roof->setName(tr("Ceilings: R = %1, peak %2").arg(formatQuantity(R, QStringLiteral("B/s"), si::giga), formatQuantity(peak, QStringLiteral("op/s"), si::giga)));
    roof->setPen(QPen(plot_style::kBlack, 2));
    roof->setData({xMin, ridge, xMax}, {R * xMin, peak, peak});
    // The ceilings share one legend entry where the legend would crowd the plot (a figure's page).
    const QString ceilings = tr("Ceilings");
    legend_groups::setMember(roof, ceilings, tr("memory and peak"), legend_groups::MemberKind::Ceiling);
    for (const double x : {xMin, ridge, xMax})
        addCsv(QStringLiteral("ceiling"), tr("memory R·I and compute peak"), x, std::min(R * x, peak));
    if (issueCeiling) {
        QCPGraph *issue = m_plot->addGraph();
        issue->setName(
                tr("Issue ceiling E·n/L_{c} = %1 inst/cycle").arg(formatNumber(params.issueRate() * params.n)));
        issue->setPen(QPen(plot_style::kGrey, 1.5, Qt::DashLine));
        const double knee = *issueCeiling / R;
        issue->setData({knee, xMax}, {*issueCeiling, *issueCeiling});
        legend_groups::setMember(issue, ceilings, tr("issue"), legend_groups::MemberKind::Ceiling);
        addCsv(QStringLiteral("ceiling"), tr("issue E·n/L_c"), knee, *issueCeiling);
        addCsv(QStringLiteral("ceiling"), tr("issue E·n/L_c"), xMax, *issueCeiling);
    }
    // The FP32 and FP64 pipes: one FMA instruction per lane and cycle, a roof the issue rate M may lie under
    // (the measured M of a kernel mix) or over (FP64 on a card whose FP64 units are few).
    for (const auto &pipe : pipes) {
        const QString precision = QString::fromStdString(pipe.precision);
        QCPGraph *g = m_plot->addGraph();
        g->setName(tr("%1 pipe: %2 lanes/SM × clock × SMs = %3")
                           .arg(precision, QString::number(pipe.lanes),
                                formatQuantity(pipe.gops, QStringLiteral("op/s"), si::giga)));
        g->setPen(QPen(precision == QLatin1String("FP32") ? plot_style::kBlue : plot_style::kPurple, 1.3,
                       Qt::DotLine));
        const double knee = pipe.gops / R;
        g->setData({knee, xMax}, {pipe.gops, pipe.gops});
        legend_groups::setMember(g, ceilings, tr("%1 pipe").arg(precision), legend_groups::MemberKind::Ceiling);
        const QString name = tr("%1 pipe, %2 lanes per SM").arg(precision, QString::number(pipe.lanes));
        addCsv(QStringLiteral("ceiling"), name, knee, pipe.gops);
        addCsv(QStringLiteral("ceiling"), name, xMax, pipe.gops);
    }
    drawMeasuredRooflines(m_plot, measured);
    for (const core::MeasuredRoofline &r : measured) {
        for (std::size_t i = 0; i < r.gops.size(); ++i)
            addCsv(QStringLiteral("measured roofline"), QString::fromStdString(r.name), r.intensity[i], r.gops[i]);
    }
    // Little's law: a slope like R's, up to the compute peak.
    const auto latencyCeiling = [&](double gbs, const QString &level, const QString &latency, const QColor &colour,
                                    Qt::PenStyle style) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(tr("%1 latency ceiling n·m·%2 B / %3 = %4")
                           .arg(level, formatNumber(params.workloadRequestBytes()), latency,
                                formatQuantity(gbs, QStringLiteral("B/s"), si::giga)));
        g->setPen(QPen(colour, 1.3, style));
        const double knee = peak / gbs;
        g->setData({xMin, knee}, {gbs * xMin, peak});
        legend_groups::setMember(g, ceilings, tr("%1 latency").arg(level), legend_groups::MemberKind::Ceiling);
        const QString name = tr("%1 latency (Little's law), n = %2, m = %3")
                                     .arg(level, formatNumber(params.n), formatNumber(params.m));
        addCsv(QStringLiteral("ceiling"), name, xMin, gbs * xMin);
        addCsv(QStringLiteral("ceiling"), name, knee, peak);
    };
    if (dramLatency)
        latencyCeiling(*dramLatency, tr("DRAM"), QStringLiteral("L"), plot_style::kVermillion, Qt::DashLine);
    if (l2Latency)
        latencyCeiling(*l2Latency, tr("L2"), QStringLiteral("L_{2}"), plot_style::kGreen, Qt::DashDotLine);
    if (l1Latency)
        latencyCeiling(*l1Latency, tr("L1"), QStringLiteral("L_{s}"), plot_style::kGreen, Qt::DotLine);

    double longest = 0;
    for (const KernelPoint &p : points)
        longest = std::max(longest, p.duration_ns);
    const auto markSize = [longest](const KernelPoint &p) {
        return 6 + 14 * std::sqrt(p.duration_ns / longest);
    };
    // The kernels by duration, longest first: the first kMostNamed are named and get an arrow.
    std::vector<std::size_t> order(points.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&points](std::size_t a, std::size_t b) {
        return points[a].duration_ns > points[b].duration_ns;
    });
    std::vector<bool> leading(points.size(), false);
    for (std::size_t rank = 0; rank < order.size() && rank < kMostNamed; ++rank)
        leading[order[rank]] = true;
    // Predictions first, so that the measured points lie over them.
    std::vector<PointLabel> labels;
    if (predictions) {
        auto *predicted = new KernelMarks(m_plot->xAxis, m_plot->yAxis, true);
        std::vector<KernelMarks::Mark> drawn;
        predicted->setName(tr("X-model prediction → measured"));
        legend_groups::setMember(predicted, tr("Marks"), tr("prediction → measured"), legend_groups::MemberKind::Mark);
        predicted->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(plot_style::kVermillion, 1.5),
                                                   Qt::NoBrush, 9));
        m_arrowPass = std::make_shared<KernelArrow::Pass>();
        int arrows = 0;
        QColor arrowColour = plot_style::kVermillion;
        arrowColour.setAlpha(170);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const KernelPoint &p = points[i];
            if (!p.predicted)
                continue;
            drawn.push_back({p.predicted->x(), p.predicted->y()});
            labels.push_back({p.predicted->x(), p.predicted->y(), QString(), 5});
            addCsv(QStringLiteral("predicted"), p.label, p.predicted->x(), p.predicted->y());
            if (!leading[i])
                continue;
            auto *arrow = new KernelArrow(m_plot, m_arrowPass, arrows++ == 0);
            arrow->setClipToAxisRect(true);
            arrow->setPen(QPen(arrowColour, 1.1));
            arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
            arrow->start->setCoords(*p.predicted);
            arrow->end->setCoords(p.intensity, p.gops);
            arrow->setObjectName(p.label); // which kernel the arrow pairs (the tests read it)
        }
        predicted->setMarks(std::move(drawn));
        if (predicted->dataCount() == 0)
            m_plot->removeGraph(predicted);
    }
    // Highlighted kernels in a graph of their own over the others, each graph of one look (an export restyles
    // a graph's look).
    for (const bool highlighted : {false, true}) {
        std::vector<KernelMarks::Mark> drawn;
        for (const KernelPoint &p : points) {
            if (m_highlighted.contains(p.label) == highlighted)
                drawn.push_back({p.intensity, p.gops, markSize(p)});
        }
        if (drawn.empty())
            continue;
        auto *marks = new KernelMarks(m_plot->xAxis, m_plot->yAxis, false);
        marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc,
                                               highlighted ? plot_style::kBlack : plot_style::kBlue,
                                               highlighted ? plot_style::kOrange : plot_style::kSky,
                                               drawn.front().size));
        marks->setMarks(std::move(drawn));
        marks->setName(tr("Kernels at DRAM (size ∝ duration)"));
        legend_groups::setMember(marks, tr("Marks"), tr("kernels at DRAM"), legend_groups::MemberKind::Mark);
        if (m_marks)
            marks->removeFromLegend();
        else
            m_marks = marks;
    }
    for (const KernelPoint &p : points)
        addCsv(QStringLiteral("kernel DRAM"), p.label, p.intensity, p.gops);
    const auto levelPoints = [&](const QString &name, QCPScatterStyle::ScatterShape shape,
                                 const std::optional<double> KernelPoint::*intensity, const QString &series) {
        KernelMarks *g = nullptr;
        std::vector<KernelMarks::Mark> drawn;
        for (const KernelPoint &p : points) {
            if (!(p.*intensity))
                continue;
            if (!g) {
                g = new KernelMarks(m_plot->xAxis, m_plot->yAxis, true);
                g->setName(name);
                legend_groups::setMember(g, tr("Marks"), tr("kernels %1").arg(name.section(QLatin1Char(' '), 1, 2)),
                                         legend_groups::MemberKind::Mark); // "kernels at L1"
                g->setScatterStyle(QCPScatterStyle(shape, QPen(plot_style::kGreen, 1.6), Qt::NoBrush, 9));
            }
            drawn.push_back({*(p.*intensity), p.gops});
            labels.push_back({*(p.*intensity), p.gops, QString(), 5});
            addCsv(series, p.label, *(p.*intensity), p.gops);
        }
        if (g)
            g->setMarks(std::move(drawn));
    };
    // Over the DRAM discs: a kernel that reuses nothing has its L1 point at its DRAM point.
    if (levels) {
        levelPoints(tr("Kernels at L2 (per byte missing L1)"), QCPScatterStyle::ssSquare,
                    &KernelPoint::l2Intensity, QStringLiteral("kernel L2"));
        levelPoints(tr("Kernels at L1 (per global sector byte)"), QCPScatterStyle::ssTriangle,
                    &KernelPoint::l1Intensity, QStringLiteral("kernel L1"));
    }
    if (operating.x() > 0 && operating.y() > 0) {
        QCPGraph *op = m_plot->addGraph();
        op->setName(tr("X-model operating point (n = %1, Z = %2, E = %3)")
                            .arg(formatNumber(params.n), formatNumber(params.Z), formatNumber(params.E)));
        op->setLineStyle(QCPGraph::lsNone);
        legend_groups::setMember(op, tr("Marks"), tr("X-model operating point"), legend_groups::MemberKind::Mark);
        op->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, plot_style::kVermillion, 14));
        op->setData({operating.x()}, {operating.y()});
        labels.push_back({operating.x(), operating.y(), QString(), 7});
        addCsv(QStringLiteral("operating point"),
               tr("n = %1, Z = %2, E = %3")
                       .arg(formatNumber(params.n), formatNumber(params.Z), formatNumber(params.E)),
               operating.x(), operating.y());
    }
    // A hair wider than the decades: the ticker steps to the last decade by multiplying, and a tick a rounding
    // error past the range's end would go unlabelled.
    m_plot->xAxis->setRange(xMin / (1 + 1e-9), xMax * (1 + 1e-9));
    m_plot->yAxis->setRange(yMin / (1 + 1e-9), yMax * (1 + 1e-9));
    // Room right of the axis for half of its last decade's label, which QCustomPlot leaves out when the widget's
    // edge would cut it.
    const QFontMetrics tickMetrics(m_plot->xAxis->tickLabelFont());
    QMargins margins = m_minimumMargins;
    margins.setRight(
            std::max(margins.right(), tickMetrics.horizontalAdvance(QString::number(xMax, 'g', 6)) / 2 + 6));
    m_plot->axisRect()->setMinimumMargins(margins);

    const core::NcuReport *report = m_eval->kernels()->report();
    const std::size_t total = report ? report->kernels.size() : 0;
    m_openKernels->setVisible(!report);
    for (QCheckBox *box : {m_names, m_predictions, m_levels})
        box->setVisible(!points.empty());
    m_levels->setVisible(m_eval->hasL1() || m_eval->hasL2());
    QString note = !report ? tr("No kernels: open an Nsight Compute CSV export to draw its kernels here.")
                   : points.size() == total
                           ? tr("%n kernel(s).", nullptr, int(total))
                           : tr("%1 of %2 kernels drawn; the others lack instructions "
                                "(smsp__inst_executed.sum), duration or DRAM throughput.")
                                     .arg(points.size())
                                     .arg(total);
    m_hiddenLabels = 0;
    if (m_names->isChecked() && !points.empty()) {
        // The names go to the kernels' DRAM points, biggest (longest) first; every other mark is in the way.
        std::vector<PointLabel> named;
        for (std::size_t rank = 0; rank < order.size(); ++rank) {
            const KernelPoint &p = points[order[rank]];
            named.push_back({p.intensity, p.gops, rank < kMostNamed ? p.shortLabel : QString(), markSize(p) / 2});
        }
        named.insert(named.begin(), labels.begin(), labels.end());
        m_plot->replot(QCustomPlot::rpImmediateRefresh); // lays the axes out, so the names can be placed in pixels
        m_hiddenLabels = placePointLabels(m_plot, named)
                         + int(points.size() - std::min(points.size(), kMostNamed));
        if (m_hiddenLabels > 0)
            note += tr(" %n name(s) left out where points crowd (hover a point, or see the Kernels dock).", nullptr,
                       m_hiddenLabels);
    }
    m_note->setText(note);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString RooflineView::csv()
{
    catchUp();
    QString text = QStringLiteral("series,name,intensity_op_per_byte,gops\n");
    for (const CsvRow &row : m_csvRows)
        text += csvField(row.series) + QLatin1Char(',') + csvField(row.name) + QLatin1Char(',')
                + QString::number(row.intensity, 'g', 12) + QLatin1Char(',') + QString::number(row.gops, 'g', 12)
                + QLatin1Char('\n');
    return text;
}

QString RooflineView::exportCsv(const QString &path)
{
    const QString why = saveFileAtomically(path, csv().toUtf8());
    return why.isEmpty() ? QString() : tr("%1: cannot write the file (%2)").arg(path, why);
}

} // namespace crossroof::widgets
