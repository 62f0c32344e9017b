// SPDX-License-Identifier: GPL-3.0-or-later
// The code-skeleton view's plots, drawn from what SkeletonEvaluation holds: the dependency graph with its
// critical path, the schedule by pipeline, and cycles against the unroll factor.
#include "skeleton/skeleton_view.h"

#include "skeleton/gantt_boxes.h"
#include "skeleton/graph_links.h"
#include "skeleton/skeleton_evaluation.h"

#include "common/curve_thinning.h"
#include "common/plot_style.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace crossroof::widgets {

namespace {

/// The most of a figure's height the graph takes, beside the other plots' 1.1 and 1 (more, and a single-column
/// figure's schedule runs its lane names into each other and cuts the unroll curve's axis title), and the least.
constexpr double kMostGraphShare = 1.1;
constexpr double kLeastGraphShare = 0.6;

QString statementLabel(const core::SkeletonStatement &s)
{
    const QString kind = QString::fromLatin1(core::statementKindName(s.kind).data());
    const std::string &name = s.target.empty() ? s.sources.front() : s.target;
    return kind + QLatin1Char(' ') + QString::fromStdString(name);
}

/// The schedule's lanes, a tick each, named on the left axis, or on the left and the right axis in turn (even
/// lanes left, odd ones right) where the plot is too short for a name a lane on one side (a single-column
/// figure): every lane is named on one side or the other, never thinned away.
class LaneTicker : public QCPAxisTickerText
{
public:
    /// On AXIS, the left (SIDE 0) or the right one (1).
    LaneTicker(QCPAxis *axis, int side)
        : m_axis(axis)
        , m_side(side)
    {
    }

    /// Whether the lanes are named on both sides in turn: less height a lane than a line and the room a
    /// figure leaves between two labels.
    static bool alternates(const QCPAxis *axis)
    {
        const double lane = std::abs(axis->coordToPixel(1) - axis->coordToPixel(0));
        return lane < 1.4 * QFontMetricsF(axis->tickLabelFont()).height();
    }

protected:
    QVector<QString> createLabelVector(const QVector<double> &ticks, const QLocale &locale, QChar formatChar,
                                       int precision) override
    {
        QVector<QString> labels = QCPAxisTickerText::createLabelVector(ticks, locale, formatChar, precision);
        const bool alternate = alternates(m_axis);
        for (qsizetype i = 0; i < labels.size(); ++i) {
            const int lane = int(std::lround(ticks[i]));
            if (alternate ? std::abs(lane % 2) != m_side : m_side == 1)
                labels[i].clear();
        }
        return labels;
    }

private:
    QCPAxis *m_axis;
    int m_side;
};

} // namespace

void SkeletonView::drawGraph()
{
    const core::DependencyGraph &g = m_eval->projection()->graph;
    const core::CriticalPath &cp = m_eval->projection()->critical;
    for (GraphLinks *links : {m_edges, m_criticalEdges, m_dots, m_criticalDots})
        links->clear(); // before the labels they point at go
    m_graphPlot->clearItems();
    std::vector<char> critical(g.nodeCount(), 0);
    for (int k : cp.nodes)
        critical[std::size_t(k)] = 1;
    // Each node a label, placed by fitGraphRanges() (core::layOutGraph() at the plot's size and the labels'
    // size of the moment); its dot (GraphLinks, under the labels) follows the label's place wherever a figure
    // puts it.
    m_graphNodes.clear();
    m_graphTexts.clear();
    m_graphInput = core::GraphLayoutInput{};
    m_graphInput.node_count = int(g.nodeCount());
    std::vector<const QCPItemText *> dots[2];
    for (std::size_t k = 0; k < g.nodeCount(); ++k) {
        auto *label = new QCPItemText(m_graphPlot);
        plot_style::setShortText(label, QString::number(g.statementOf(int(k)).line));
        label->setText(statementLabel(g.statementOf(int(k))));
        m_graphTexts.push_back(label->text());
        label->setFont(plot_style::annotationFont());
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setBrush(Qt::white);
        label->setPen(QPen(critical[k] ? plot_style::kVermillion : plot_style::kBlue, critical[k] ? 1.5 : 1.0));
        m_graphNodes.push_back(label);
        dots[critical[k] ? 1 : 0].push_back(label);
    }
    m_graphEdges.clear();
    for (const core::DependencyEdge &e : g.edges) {
        const bool onPath = critical[std::size_t(e.from)] && critical[std::size_t(e.to)]
                            && std::adjacent_find(cp.nodes.begin(), cp.nodes.end(), [&](int a, int b) {
                                   return a == e.from && b == e.to;
                               }) != cp.nodes.end();
        m_graphInput.edges.push_back({e.from, e.to});
        m_graphEdges.push_back({onPath, e.kind != core::DependencyKind::Raw});
    }
    m_dots->setLinks({}, std::move(dots[0]));
    m_criticalDots->setLinks({}, std::move(dots[1]));
    m_graphLaidOut = {};
    fitGraphRanges();
    m_graphPlot->replot(QCustomPlot::rpQueuedReplot);
}

QSize SkeletonView::largestGraphNode(bool numbered) const
{
    QSize largest(0, 0);
    for (std::size_t k = 0; k < m_graphNodes.size(); ++k) {
        const QCPItemText *label = m_graphNodes[k];
        const QFontMetrics metrics(label->font());
        const QString text = numbered ? plot_style::shortText(label) : m_graphTexts[k];
        largest = largest.expandedTo(QSize(metrics.horizontalAdvance(text) + label->padding().left()
                                                   + label->padding().right() + 2,
                                           metrics.height() + label->padding().top() + label->padding().bottom() + 2));
    }
    return largest;
}

void SkeletonView::fitGraphRanges()
{
    // The layout in the plot's pixels, one coordinate unit a pixel (y up), with the boxes of the labels' font of
    // the moment (a figure draws them in its own): the layers wrap into rows where they do not fit the width
    // side by side, and no edge passes behind a box. Room between the columns for an arrow head, between the
    // boxes of a column for an edge passing through. Where the statements' names do not fit, the nodes are
    // numbered (the statement's line), and the axis title says so.
    const QRect rect = m_graphPlot->axisRect()->rect();
    m_graphInput.width = std::max(rect.width(), 1);
    m_graphInput.height = std::max(rect.height(), 1);
    const auto layOut = [this](QSize node) {
        setGraphGaps(m_graphInput, node);
        return core::layOutGraph(m_graphInput);
    };
    core::GraphLayout layout = layOut(largestGraphNode(false));
    const bool numbered = !layout.fits;
    if (numbered)
        layout = layOut(largestGraphNode(true));
    for (std::size_t k = 0; k < m_graphNodes.size(); ++k) {
        m_graphNodes[k]->setText(numbered ? plot_style::shortText(m_graphNodes[k]) : m_graphTexts[k]);
        m_graphNodes[k]->position->setCoords(layout.centre[k].x, -layout.centre[k].y);
    }
    m_graphPlot->xAxis->setLabel(numbered ? plot_style::shortLabelsTitle(m_graphPlot->xAxis) : m_graphTitle);
    std::vector<GraphLinks::Edge> edges[2];
    for (std::size_t e = 0; e < m_graphEdges.size(); ++e) {
        QVector<QPointF> route;
        for (const core::LayoutPoint &p : layout.routes[e])
            route << QPointF(p.x, -p.y);
        const auto [from, to] = m_graphInput.edges[e];
        edges[m_graphEdges[e].onPath ? 1 : 0].push_back(
                {m_graphNodes[std::size_t(from)], m_graphNodes[std::size_t(to)], m_graphEdges[e].dashed, route});
    }
    m_edges->setLinks(std::move(edges[0]), {});
    m_criticalEdges->setLinks(std::move(edges[1]), {});
    m_graphPlot->xAxis->setRange(0, layout.width);
    m_graphPlot->yAxis->setRange(-layout.height, 0);
}

void SkeletonView::setGraphGaps(core::GraphLayoutInput &in, QSizeF node)
{
    in.node_width = std::max(node.width(), 1.0);
    in.node_height = std::max(node.height(), 1.0);
    in.column_gap = std::max(12.0, 0.8 * node.height());
    in.row_gap = std::max(2.0, 0.2 * node.height());
    in.track = std::max(2.0, 0.1 * node.height());
}

void SkeletonView::fitGraphShareToFigure()
{
    // Only while a figure is exported (the export guard marks its plots so), with the figure's fonts.
    if (m_graphNodes.empty() || !m_graphPlot->property(kFullDetailProperty).toBool())
        return;
    // The figure's height from the graph's band and the shares; the graph, its nodes numbered, laid out at its
    // width as high as it needs, and its axis title's room (the band less the axis rect).
    const double others = plot_style::figureShare(m_ganttPlot) + plot_style::figureShare(m_unrollPlot);
    const double mine = plot_style::figureShare(m_graphPlot);
    const double band = m_graphPlot->viewport().height();
    const double canvas = band * (mine + others) / mine;
    core::GraphLayoutInput in = m_graphInput;
    setGraphGaps(in, largestGraphNode(true));
    in.width = std::max(m_graphPlot->axisRect()->width(), 1);
    in.height = 0;
    const double need = core::layOutGraph(in).height + band - m_graphPlot->axisRect()->height();
    const double share = need * others / std::max(1.0, canvas - need);
    plot_style::setFigureShare(m_graphPlot, std::clamp(share, kLeastGraphShare, kMostGraphShare));
}

double SkeletonView::graphFigureShare() const
{
    // A single-column figure's canvas (85 x 60 mm at 0.5 pt a pixel: 482 x 340 pixels, 8 pt text 16 pixels
    // high): the graph with numbered nodes laid out at its plot's width, and its plot the height that takes and
    // its axis title's, where a share of 1 (each other plot's) is about 95 pixels; at most kMostGraphShare.
    QFont font = plot_style::annotationFont();
    font.setPixelSize(16);
    const QFontMetricsF metrics(font);
    core::GraphLayoutInput in = m_graphInput;
    setGraphGaps(in, QSizeF(metrics.horizontalAdvance(QStringLiteral("00")) + 8, metrics.height() + 4));
    in.width = 460;
    in.height = 0; // as many rows as the width asks
    const core::GraphLayout layout = core::layOutGraph(in);
    return std::min(kMostGraphShare, (layout.height + 35) / 95);
}

void SkeletonView::drawGantt()
{
    const core::CoreModel &model = *m_profiles[std::size_t(m_profileBox->currentIndex())].core_model;
    const core::DependencyGraph &g = m_eval->projection()->graph;
    // One row per pipeline: FP units first, then load, store and integer; only the kinds the schedule uses (a
    // skeleton without integer work has no idle integer lanes to name).
    std::array<bool, core::kPipelineKinds> used{};
    for (const core::ScheduledStatement &s : m_eval->schedule()->items)
        used[std::size_t(s.pipeline)] = true;
    std::array<int, core::kPipelineKinds> firstRow{};
    QSharedPointer<LaneTicker> left(new LaneTicker(m_ganttPlot->yAxis, 0));
    QSharedPointer<LaneTicker> right(new LaneTicker(m_ganttPlot->yAxis2, 1));
    int rows = 0;
    for (std::size_t p = 0; p < core::kPipelineKinds; ++p) {
        firstRow[p] = rows;
        for (int u = 0; used[p] && u < model.pipelines[p]; ++u) {
            const QString name = QString::fromLatin1(core::pipelineKindName(core::PipelineKind(p)).data())
                                 + QString::number(u);
            left->addTick(rows, name);
            right->addTick(rows++, name);
        }
    }
    m_ganttPlot->yAxis->setTicker(left);
    m_ganttPlot->yAxis2->setTicker(right);
    // A figure's shares of its height: a schedule of more than four lanes a tenth more, so that its names, on both
    // sides in turn, fit a single column; the graph a third more for each row of nodes past three, so that its nodes
    // (numbered where names do not fit) show on their rows.
    const bool many = rows > 4;
    plot_style::setFigureShare(m_ganttPlot, many ? 1.1 : 1.0);
    plot_style::setFigureShare(m_graphPlot, std::max(many ? 0.9 : 1.0, graphFigureShare()));
    std::vector<char> critical(g.nodeCount(), 0);
    for (int k : m_eval->projection()->critical.nodes)
        critical[std::size_t(k)] = 1;
    // Each statement's issue cycle, and a thinner box for its latency after it.
    std::vector<GanttBoxes::Box> issues[2], latencies[2];
    for (const core::ScheduledStatement &s : m_eval->schedule()->items) {
        const int row = firstRow[std::size_t(s.pipeline)] + s.unit;
        const std::size_t k = std::size_t(s.node) % g.nodeCount();
        const int on = critical[k] ? 1 : 0;
        issues[on].push_back({double(s.start), double(s.start) + 1, row - 0.35, row + 0.35});
        latencies[on].push_back({double(s.start) + 1, double(s.finish), row - 0.15, row + 0.15});
    }
    m_ganttBoxes->setBoxes(std::move(issues[0]), std::move(latencies[0]));
    m_ganttCritical->setBoxes(std::move(issues[1]), std::move(latencies[1]));
    m_ganttPlot->xAxis->setRange(0, std::max(1.0, m_eval->schedule()->makespan));
    m_ganttPlot->yAxis->setRange(-0.6, rows - 0.4);
    m_ganttPlot->replot(QCustomPlot::rpQueuedReplot);
}

void SkeletonView::drawUnroll()
{
    const core::SkeletonProjection &projection = *m_eval->projection();
    const int registers = m_profiles[std::size_t(m_profileBox->currentIndex())].core_model->registers;
    // The curve the best factor is chosen on (the schedule and its spill code), and the schedule alone dashed.
    QVector<double> x, y, alone;
    int fits = 0; // the largest factor whose values fit in the registers, while they all do
    for (const core::UnrollPoint &p : projection.unroll) {
        x.push_back(p.factor);
        y.push_back(p.cost_per_iteration);
        alone.push_back(p.cycles_per_iteration);
        if (!p.spills && fits == p.factor - 1)
            fits = p.factor;
    }
    m_unrollPlot->graph(0)->setData(x, y, true);
    m_unrollPlot->graph(3)->setData(x, alone, true);
    const core::UnrollPoint &best = projection.point(projection.best_unroll);
    m_unrollPlot->graph(1)->setData({double(best.factor)}, {best.cost_per_iteration}, true);
    m_unrollPlot->graph(1)->setName(tr("best: %1").arg(best.factor));
    m_unrollPlot->clearItems();
    auto *bestLabel = new QCPItemText(m_unrollPlot); // named on the plot, not in the legend
    bestLabel->position->setCoords(best.factor, best.cost_per_iteration);
    bestLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    bestLabel->setPadding(QMargins(0, 0, 0, 8));
    bestLabel->setFont(plot_style::annotationFont());
    bestLabel->setColor(plot_style::kVermillion);
    bestLabel->setText(m_unrollPlot->graph(1)->name());
    // The register limit: past this line the unrolled body keeps more values live than the core has registers.
    if (fits < core::kMaxUnroll) {
        auto *limit = new QCPItemStraightLine(m_unrollPlot);
        limit->point1->setCoords(fits + 0.5, 0);
        limit->point2->setCoords(fits + 0.5, 1);
        limit->setPen(QPen(plot_style::kVermillion, 1, Qt::DotLine));
        auto *text = new QCPItemText(m_unrollPlot);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(fits + 0.6, 0.02);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setFont(plot_style::annotationFont());
        text->setColor(plot_style::kVermillion);
        text->setText(tr("%1 registers: spills from unroll %2").arg(registers).arg(fits + 1));
    }
    m_unrollPlot->xAxis->setRange(0.5, core::kMaxUnroll + 0.5);
    m_unrollPlot->yAxis->setRange(0, std::max(*std::max_element(y.begin(), y.end()),
                                              *std::max_element(alone.begin(), alone.end())) * 1.1);
    m_unrollPlot->replot(QCustomPlot::rpQueuedReplot);
}

void SkeletonView::markStale()
{
    if (isStale())
        return;
    for (QCustomPlot *plot : figurePlots()) {
        auto *mark = new QCPItemText(plot);
        mark->position->setType(QCPItemPosition::ptAxisRectRatio);
        mark->position->setCoords(0.0, 0.0); // the upper left: the legends are upper right
        mark->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        mark->setFont(plot_style::annotationFont());
        mark->setColor(plot_style::kVermillion);
        mark->setBrush(QColor(255, 255, 255, 220));
        mark->setPen(QPen(plot_style::kVermillion));
        mark->setPadding(QMargins(4, 2, 4, 2));
        mark->setText(tr("Stale: the last text that parsed (see the error under the editor)"));
        m_staleMarks.push_back(mark);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_readout->setText(tr("<b>Stale</b>, of the last text that parsed: ") + m_readout->text());
}

void SkeletonView::clearStale()
{
    for (const QPointer<QCPItemText> &mark : std::as_const(m_staleMarks))
        if (mark)
            mark->parentPlot()->removeItem(mark);
    m_staleMarks.clear();
}

} // namespace crossroof::widgets
