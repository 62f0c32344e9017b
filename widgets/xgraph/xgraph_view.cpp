// SPDX-License-Identifier: GPL-3.0-or-later
#include "xgraph/xgraph_view.h"

#include "common/curve_thinning.h"
#include "common/icon_legend_item.h"
#include "common/label_placement.h"
#include "common/measured_graph.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/stamped_graph.h"
#include "common/static_text.h"
#include "common/steady_plot.h"
#include "common/symbol_text.h"
#include "core/xmodel/measured_curve.h"
#include "state/kernel_state.h"
#include "xgraph/comparison_curves.h"
#include "common/dashed_graph.h"
#include "xgraph/level_curves.h"
#include "xgraph/measured_extent.h"
#include "xgraph/xgraph_hover.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QScopeGuard>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace crossroof::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

XGraphView::XGraphView(XModelEvaluation *evaluation, QWidget *parent)
    : QWidget(parent)
    , m_eval(evaluation)
    , m_plot(new SteadyPlot(this))
    , m_held(evaluation->state(), this, [this] { refresh(); }) // a slider let go: the axes fit the graph again
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumSize(400, 320);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->setAccessibleName(tr("X-graph"));

    plot_style::setupAxes(m_plot);

    PlotNavigator::install(m_plot);
    m_plot->xAxis->setLabel(tr("k: warps in the memory system"));
    m_plot->xAxis2->setVisible(true);
    m_plot->xAxis2->setRangeReversed(true);
    m_plot->xAxis2->setLabel(tr("x = n − k: warps computing"));
    m_plot->yAxis->setLabel(tr("MS throughput (GB/s)"));
    plot_style::setShortLabel(m_plot->xAxis, tr("k (warps)"));
    plot_style::setShortLabel(m_plot->xAxis2, tr("x = n − k"));
    plot_style::setShortLabel(m_plot->yAxis, tr("MS (GB/s)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(tr("CS throughput (Gop/s)"));
    plot_style::setShortLabel(m_plot->yAxis2, tr("CS (Gop/s)"));
    // Whoever moves the bottom or left axis (this view, a wheel zoom, a pan, the keys, Home), the top and right
    // ones follow.
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &XGraphView::coupleAxes);
    connect(m_plot->yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &XGraphView::coupleAxes);
    // A zoom or a pan: the legend names what is still in view.
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
            if (!m_refreshing && m_eval->model())
                arrangeOwnLegend(m_unstableStretch);
        });
    }

    // The view's own entries are StaticLegendItems, added below; traces' graphs come into the legend by themselves.
    m_plot->setAutoAddPlottableToLegend(false);
    auto addGraph = [this](const QString &name, const QPen &pen) {
        QCPGraph *g = m_plot->addGraph();
        g->setName(name);
        g->setPen(pen);
        return g;
    };
    using namespace plot_style;
    m_f = addGraph(tr("f(k): memory supply"), QPen(kBlue, 2));
    m_fUnstable = new DashedGraph(m_plot->xAxis, m_plot->yAxis);
    m_fUnstable->setName(tr("f(k), unstable stretch")); // named by f's entry
    m_fUnstable->setPen(QPen(kBlue, 2, Qt::DashLine));
    m_g = addGraph(tr("G(n−k): compute demand"), QPen(kVermillion, 2));
    m_neutral = addGraph(tr("neutral equilibria"), QPen(kGreen, 6));
    // Marks are stamped from images on screen (StampedGraph).
    auto addMarks = [&](const QString &name, QCPScatterStyle style) {
        QCPGraph *g = new StampedGraph(m_plot->xAxis, m_plot->yAxis);
        g->setName(name);
        g->setPen(Qt::NoPen);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(style);
        return g;
    };
    m_stable = addMarks(tr("stable"), QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(kBlack, 1.5), kBlack, 9));
    m_unstable = addMarks(tr("unstable"), QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kBlack, 1.5), Qt::white, 9));
    m_critical = addMarks(tr("critical (tangency)"),
                          QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kBlack, 1.5), kYellow, 11));
    m_operating = addMarks(tr("operating point"),
                           QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kGreen, 3), Qt::NoBrush, 20));
    static_cast<StampedGraph *>(m_operating)->setWholeMarks(true); // whole at the origin too
    m_comparisons = std::make_unique<ComparisonCurves>(m_plot); // the compare mode's what-ifs, dashed
    m_levels = std::make_unique<LevelCurves>(m_plot);
    m_cacheMarks = addMarks(tr("cache peak ψ / valley"),
                            QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(kBlue, 1.5), kSky, 10));

    auto makeLine = [this](const QPen &pen) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setPen(pen);
        line->setClipToAxisRect(true);
        return line;
    };
    m_deltaLine = makeLine(QPen(kBlue, 1, Qt::DotLine));
    m_piLine = makeLine(QPen(kVermillion, 1, Qt::DotLine));
    m_plateauLine = makeLine(QPen(kGrey, 1, Qt::DashDotLine));
    m_deltaLabel = makeLabel(kBlue);
    m_piLabel = makeLabel(kVermillion);
    m_plateauLabel = makeLabel(kGrey);
    m_psiLabel = makeLabel(kBlue);
    m_valleyLabel = makeLabel(kBlue);
    setLabelFreedom(m_deltaLabel, LabelFreedom::AlongVerticalLine);
    setLabelFreedom(m_piLabel, LabelFreedom::AlongVerticalLine);
    setLabelFreedom(m_plateauLabel, LabelFreedom::AlongHorizontalLine);
    setNamedLine(m_deltaLabel, m_deltaLine);
    setNamedLine(m_piLabel, m_piLine);
    setNamedLine(m_plateauLabel, m_plateauLine);
    // Placed whenever the plot is laid out (for the ranges refresh() set, or a new size) and at every redraw that
    // kept its layout (a pan or a zoom moves the ranges under the labels), before it is drawn; not while a
    // slider is held.
    for (auto signal : {&QCustomPlot::afterLayout, &QCustomPlot::afterReplot}) {
        connect(m_plot, signal, this, [this] {
            if (!m_held.held())
                placeLandmarkLabels();
        });
    }
    m_message = makeLabel(kVermillion);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setPositionAlignment(Qt::AlignCenter);

    m_flowArrows = new FlowArrows(m_plot);
    // Under the grid, over the axis rect's background.
    m_basins = new BasinShading(m_plot, m_plot->layer(QStringLiteral("background")));

    // Only the lines people look for go into the legend, and of them only those drawn (arrangeLegend() in
    // refresh()).
    for (QCPGraph *g : {m_f, m_g, m_neutral, m_stable, m_unstable, m_critical, m_operating})
        addLegendEntry(g);
    // Those drawn only at times are kept while out of the legend (f's gives way to one that names its dashed
    // stretch).
    for (QCPGraph *g : m_levels->graphs())
        addLegendEntry(g);
    for (QCPGraph *g : QList<QCPGraph *> {m_f, m_g, m_neutral, m_stable, m_unstable, m_critical, m_operating}
                               + m_levels->graphs())
        m_ownEntries.insert(g, m_plot->legend->itemWithPlottable(g));
    m_plot->setAutoAddPlottableToLegend(true);
    plot_style::placeLegendBelow(m_plot);
    // The view's own entries, made after placeLegendBelow() so that they take the legend's font. f(k) solid,
    // then dashed where an equilibrium would be unstable: its pen both ways.
    const auto solidThenDashed = [this](QCPPainter *painter, const QRectF &box) {
        QPen pen = m_f->pen();
        const double y = box.center().y();
        const double middle = box.center().x();
        painter->setPen(pen);
        painter->drawLine(QLineF(box.left(), y, middle - 2, y));
        pen.setStyle(m_fUnstable->pen().style());
        painter->setPen(pen);
        painter->drawLine(QLineF(middle + 2, y, box.right(), y));
    };
    m_fDashedEntry = new IconLegendItem(m_plot->legend, tr("f(k), dashed where unstable"), solidThenDashed);
    // The basins' shading, as the plot shades them (on its paper, grey in a greyscale figure): one entry, the
    // operating point's basin first and the other stable states' beside it.
    const auto basinShades = [this](QCPPainter *painter, const QRectF &box) {
        const double half = box.width() / 2;
        for (const bool operating : {true, false}) {
            const QRectF patch = QRectF(box.left() + (operating ? 0 : half), box.top(), half, box.height())
                                         .adjusted(1, 3, -1, -3);
            painter->fillRect(patch, m_basins->fill(operating));
            painter->setPen(QPen(plot_style::tintOnPaper(m_plot, QColor(0x80, 0x80, 0x80, 110)), 1));
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(patch);
        }
    };
    m_basinEntry = new IconLegendItem(m_plot->legend, tr("basins of attraction"), basinShades);

    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &XGraphView::onMouseMove);
    connect(m_eval, &XModelEvaluation::updated, this, &XGraphView::refresh);
    m_thinned = new ThinnedGraphs(m_plot, kDefaultCurveTolerance);
    refresh();
}

XGraphView::~XGraphView() = default;

void XGraphView::setCurveTolerance(double pixels)
{
    m_thinned->setTolerance(pixels);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QCPItemText *XGraphView::makeLabel(const QColor &color)
{
    auto *label = new StaticTextItem(m_plot);
    label->setColor(color);
    label->setFont(plot_style::annotationFont());
    label->setPadding(QMargins(3, 1, 3, 1));
    label->setClipToAxisRect(true);
    return label;
}

void XGraphView::placeLandmarkLabels()
{
    placeLabelsOffData(m_plot, {m_plateauLabel, m_deltaLabel, m_piLabel, m_psiLabel, m_valleyLabel});
}

void XGraphView::refresh()
{
    m_refreshing = true;
    const auto done = qScopeGuard([this] { m_refreshing = false; });
    const auto &model = m_eval->model();
    const bool ok = model.has_value();
    for (QCPAbstractItem *item : {static_cast<QCPAbstractItem *>(m_deltaLine), static_cast<QCPAbstractItem *>(m_piLine),
                                  static_cast<QCPAbstractItem *>(m_plateauLine),
                                  static_cast<QCPAbstractItem *>(m_deltaLabel),
                                  static_cast<QCPAbstractItem *>(m_piLabel),
                                  static_cast<QCPAbstractItem *>(m_plateauLabel)}) {
        item->setVisible(ok);
    }
    m_message->setVisible(!ok);
    if (!ok) {
        m_message->setText(m_eval->error());
        m_thinned->clear();
        for (QCPGraph *g : ownGraphs())
            g->data()->clear();
        m_flowArrows->setArrows({}, 0, 0);
        m_basins->setBasins({});
        m_levels->update(nullptr, 0, false);
        arrangeOwnLegend(false);
        m_psiLabel->setVisible(false);
        m_valleyLabel->setVisible(false);
        m_plot->requestRedraw();
        return;
    }

    const auto &p = model->params();
    const auto &c = m_eval->curves();
    const auto &r = m_eval->result();
    // A measured f(k) is named as such, after its trace, in both of f's legend entries.
    const QString supply = supplyName();
    m_f->setName(supply);
    static_cast<IconLegendItem *>(m_fDashedEntry)
            ->setText(p.measured_f ? tr("%1, dashed where unstable").arg(supply) : tr("f(k), dashed where unstable"));
    const double n = p.n;

    // f(k) is drawn solid where an equilibrium would be stable and dashed where F falls (unstable).
    const std::size_t size = c.k.size();
    const auto count = static_cast<qsizetype>(size);
    QVector<double> keys(count), solid(count), dashed(count);
    double fMax = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const bool before = i > 0 && c.f_falling_faster[i - 1];
        const bool after = i + 1 < size && c.f_falling_faster[i];
        const bool inStable = (i > 0 && !before) || (i + 1 < size && !after);
        keys[qsizetype(i)] = c.k[i];
        solid[qsizetype(i)] = inStable ? c.f_gbs[i] : kNaN;
        dashed[qsizetype(i)] = (before || after) ? c.f_gbs[i] : kNaN;
        fMax = std::max(fMax, c.f_gbs[i]);
    }
    // The kinks (delta for f, pi for G), the cache peak and the valley are samples; the thinned curves keep them.
    const auto &lmarks = r.landmarks;
    std::vector<bool> keep(size, false);
    for (std::size_t i = 0; i < size; ++i) {
        for (double kink : {lmarks.delta, n - lmarks.pi, lmarks.psi.value_or(-1), lmarks.valley.value_or(-1)})
            keep[i] = keep[i] || std::abs(c.k[i] - kink) <= 1e-12 * std::max(n, 1.0);
    }
    m_thinned->clear();
    m_thinned->set(m_f, keys, solid, keep);
    // The dashed stretch is one polyline per piece, its dash pattern laid along the path whatever the number of
    // vertices: thinned like the solid curves, it looks the same for a fraction of the drawing.
    m_thinned->set(m_fUnstable, keys, dashed, keep);
    m_thinned->set(m_g, keys, QVector<double>(c.g_gbs.begin(), c.g_gbs.end()), keep);

    QVector<double> sk, sv, uk, uv, ck, cv, nk, nv;
    for (const auto &e : r.equilibria) {
        switch (e.stability) {
        case core::Stability::Stable:
            sk << e.k;
            sv << e.ms_gbs;
            break;
        case core::Stability::Unstable:
            uk << e.k;
            uv << e.ms_gbs;
            break;
        case core::Stability::Critical:
            ck << e.k;
            cv << e.ms_gbs;
            break;
        case core::Stability::Neutral:
            nk << e.k << e.k_end << kNaN;
            nv << e.ms_gbs << e.ms_gbs << kNaN;
            break;
        }
    }
    m_stable->setData(sk, sv, true);
    m_unstable->setData(uk, uv, true);
    m_critical->setData(ck, cv, true);
    m_neutral->setData(nk, nv, true);

    const auto &op = r.operatingPoint();
    m_operating->setData({op.k}, {op.ms_gbs}, true);

    const auto &lm = r.landmarks;
    QVector<double> mk, mv;
    m_psiLabel->setVisible(false);
    m_valleyLabel->setVisible(false);
    if (lm.psi && *lm.psi <= n) {
        mk << *lm.psi;
        mv << *lm.psi_gbs;
        m_psiLabel->setVisible(true);
        m_psiLabel->position->setCoords(*lm.psi, *lm.psi_gbs);
        // Near the left edge the label starts at the peak rather than centring on it, so it is not cut off.
        m_psiLabel->setPositionAlignment((*lm.psi < 0.15 * n ? Qt::AlignLeft : Qt::AlignHCenter) | Qt::AlignBottom);
        m_psiLabel->setText(tr("ψ cache peak"));
    }
    if (lm.valley && *lm.valley <= n) {
        mk << *lm.valley;
        mv << *lm.valley_gbs;
        m_valleyLabel->setVisible(true);
        m_valleyLabel->position->setCoords(*lm.valley, *lm.valley_gbs);
        m_valleyLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        m_valleyLabel->setText(tr("valley"));
    }
    m_cacheMarks->setData(mk, mv, true);

    // Ranges: all of f, the plateau and every equilibrium visible; G's saturated demand M/Z too unless it
    // would squash f (then G leaves the top and the readout still gives its value).
    double top = std::max({fMax, lm.plateau_gbs * 1.0, op.ms_gbs});
    for (const auto &e : r.equilibria)
        top = std::max(top, e.ms_gbs);
    // Measured points that others draw on this plot (trace overlays, kernels) stay in view too, those beyond
    // k = n included (a kernel's warps per SM are measured, n is the model's), their markers whole.
    const MeasuredExtent data = measuredExtent(m_plot, ownGraphs(), n);
    if (data.any)
        top = std::max(top, data.vMax * 1.05);
    const double demandCeiling = model->toGbs(p.M / p.Z);
    if (demandCeiling <= 3 * top)
        top = std::max(top, demandCeiling);
    top = top > 0 ? top * 1.15 : 1.0;
    double right = n;
    double left = 0;
    double bottom = 0;
    if (data.any) {
        // A margin of the largest marker's half (in pixels of the axis rect as laid out now) around the points.
        const QRect rect = m_plot->axisRect()->rect();
        const double fx = std::min(data.marginPx / std::max(rect.width(), 200), 0.2);
        const double fy = std::min(data.marginPx / std::max(rect.height(), 150), 0.2);
        const double padK = (std::max(n, data.kMax) - std::min(0.0, data.kMin)) * fx / (1 - 2 * fx);
        right = std::max(n, data.kMax + padK);
        left = std::min(0.0, data.kMin - padK);
        const double padV = (std::max(top, data.vMax) - std::min(0.0, data.vMin)) * fy / (1 - 2 * fy);
        top = std::max(top, data.vMax + padV);
        bottom = std::min(0.0, data.vMin - padV);
    }
    // While a slider is held the axes hold still as long as the graph fits them and fills at least half of k's
    // (a third of the height), with a third more room when it outgrows them, so that the picture does not jump
    // under the pointer and the axes are not laid out again on every step; letting go fits them again
    // (interactionEnded).
    if (const Held *held = m_held.held()) {
        if (right > held->right)
            right = std::ceil(right * 4 / 3);
        else if (right >= held->right / 2)
            right = held->right;
        if (top > held->top)
            top *= 4.0 / 3;
        else if (top >= held->top / 3)
            top = held->top;
    }
    m_held.hold(Held{right, top});
    m_n = n;
    m_gopsPerGbs = p.Z * p.warp_size / p.request_bytes;
    m_plot->xAxis->setRange(left, right);
    m_plot->yAxis->setRange(bottom, top);

    const bool deltaVisible = lm.delta > 0 && lm.delta < n;
    m_deltaLine->setVisible(deltaVisible);
    m_deltaLabel->setVisible(deltaVisible);
    m_deltaLine->point1->setCoords(lm.delta, 0);
    m_deltaLine->point2->setCoords(lm.delta, 1);
    m_deltaLabel->position->setCoords(lm.delta, top);
    m_deltaLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    // The plateau and delta come from the parameters; a measured f(k) need not reach or turn at them.
    const QString ofParameters = p.measured_f ? tr(" (parameters)") : QString();
    m_deltaLabel->setText(tr("δ = R·L = %1").arg(formatNumber(lm.delta, 3)) + ofParameters);
    plot_style::setShortText(m_deltaLabel, tr("δ = %1").arg(formatNumber(lm.delta, 3)));
    keepLabelInside(m_deltaLabel); // left of the line where the right edge would cut it

    const double piK = n - lm.pi;
    const bool piVisible = piK > 0 && piK < n;
    m_piLine->setVisible(piVisible);
    m_piLabel->setVisible(piVisible);
    m_piLine->point1->setCoords(piK, 0);
    m_piLine->point2->setCoords(piK, 1);
    m_piLabel->position->setCoords(piK, top * 0.07); // above the row of flow arrows
    // Left of the line unless that would cut the label off at the left edge.
    m_piLabel->setPositionAlignment((piK < 0.4 * n ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    m_piLabel->setText(tr("π = M·L_{c}/E = %1").arg(formatNumber(lm.pi, 3)));
    plot_style::setShortText(m_piLabel, tr("π = %1").arg(formatNumber(lm.pi, 3)));
    keepLabelInside(m_piLabel);

    m_plateauLine->point1->setCoords(0, lm.plateau_gbs);
    m_plateauLine->point2->setCoords(1, lm.plateau_gbs);
    // The plateau label goes to the side away from the operating point so the two never collide.
    const bool plateauLeft = r.operatingPoint().k > n / 2;
    m_plateauLabel->position->setCoords(plateauLeft ? 0 : n, lm.plateau_gbs);
    m_plateauLabel->setPositionAlignment((plateauLeft ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    m_plateauLabel->setPadding(QMargins(8, 1, 8, 1));
    const QString plateau = formatQuantity(lm.plateau_gbs, QStringLiteral("B/s"), si::giga, 4);
    m_plateauLabel->setText(tr("plateau R = %1").arg(plateau) + ofParameters);
    plot_style::setShortText(m_plateauLabel, tr("R = %1").arg(plateau));

    // Compare mode: the what-ifs' curves over their own n, and their operating points, all in view (Home too).
    const ComparisonCurves::Extent whatIfs = m_comparisons->show(m_eval->comparisons(), m_thinned);
    top = std::max(top, whatIfs.top * 1.1);
    if (whatIfs.right > right)
        m_plot->xAxis->setRange(left, whatIfs.right);
    m_plot->yAxis->setRange(bottom, top);
    coupleAxes(); // n or Z may have changed where the ranges did not
    m_levels->update(&*model, m_plot->xAxis->range().upper, levelsWanted());
    m_thinned->update(true); // for the ranges just set
    // The dynamics: basins of attraction where there are several stable states, and the flow along k.
    m_basins->setBasinsOf(r, n);
    m_flowArrows->setFlowOf(*model, top);
    arrangeOwnLegend(size > 0 && std::any_of(dashed.begin(), dashed.end(), [](double v) { return std::isfinite(v); }));

    // The operating point's numbers go into its legend entry, where no curve can run through them.
    m_operating->setName(tr("operating point, %1").arg(formatQuantity(op.ms_gbs, QStringLiteral("B/s"), si::giga, 4)));

    for (QCPItemText *label : {m_plateauLabel, m_deltaLabel, m_piLabel, m_psiLabel, m_valleyLabel})
        setLabelHome(label);
    m_plot->requestRedraw();

    if (!m_held.held()) {
        QString notice;
        if (data.kernelsBeyond > 0 || data.pointsBeyond > 0) {
            QStringList what;
            if (data.kernelsBeyond > 0)
                what << (data.kernelsBeyond == 1 ? tr("1 kernel") : tr("%1 kernels").arg(data.kernelsBeyond));
            if (data.pointsBeyond > 0) {
                what << (data.pointsBeyond == 1 ? tr("1 measured point")
                                                : tr("%1 measured points").arg(data.pointsBeyond));
            }
            const bool one = data.kernelsBeyond + data.pointsBeyond == 1;
            notice = tr("%1 %2 beyond n = %3 warps: the k axis runs on to %4 to show %5 (x = n − k below zero)")
                             .arg(what.join(tr(" and ")), one ? tr("lies") : tr("lie"), formatNumber(n),
                                  formatNumber(data.kMax, 3), one ? tr("it") : tr("them"));
        }
        if (notice != m_dataNotice) {
            m_dataNotice = notice;
            Q_EMIT dataNoticeChanged(notice);
        }
    }
}

void XGraphView::coupleAxes()
{
    if (!std::isfinite(m_n))
        return;
    // The top axis counts x = n - k the other way (reversed): n over k = 0, and below zero past k = n.
    const QCPRange k = m_plot->xAxis->range();
    m_plot->xAxis2->setRange(m_n - k.upper, m_n - k.lower);
    const QCPRange gbs = m_plot->yAxis->range();
    m_plot->yAxis2->setRange(gbs.lower * m_gopsPerGbs, gbs.upper * m_gopsPerGbs);
}

QList<QCPGraph *> XGraphView::ownGraphs() const
{
    return QList<QCPGraph *> {m_f,       m_fUnstable, m_g,          m_stable, m_unstable, m_critical,
                              m_neutral, m_operating, m_cacheMarks}
           + m_levels->graphs() + m_comparisons->graphs();
}

QCPGraph *XGraphView::comparisonSupplyGraph(int i) const
{
    return m_comparisons->supplyGraph(i);
}

QCPGraph *XGraphView::comparisonOperatingGraph(int i) const
{
    return m_comparisons->operatingGraph(i);
}

QList<QCPGraph *> XGraphView::levelGraphs() const
{
    return m_levels->graphs();
}

void XGraphView::setKernels(KernelState *kernels)
{
    m_kernels = kernels;
}

void XGraphView::setSelectedKernels(const QStringList &labels)
{
    m_selectedKernels = labels;
    refresh();
}

bool XGraphView::levelsWanted() const
{
    if (!m_kernels)
        return false;
    return std::any_of(m_selectedKernels.begin(), m_selectedKernels.end(), [this](const QString &label) {
        const core::KernelRow *row = m_kernels->row(label);
        return row && row->workload.has_value();
    });
}

void XGraphView::setTraceNames(std::function<QString(const QString &traceId)> nameOf)
{
    m_traceName = std::move(nameOf);
    refresh();
}

QString XGraphView::supplyName() const
{
    const auto &model = m_eval->model();
    if (!model || !model->params().measured_f)
        return tr("f(k): memory supply");
    QString name = m_traceName ? m_traceName(m_eval->state()->supplyTrace()) : QString();
    if (name.isEmpty())
        name = QString::fromStdString(model->params().measured_f->source());
    return tr("f(k): measured, %1").arg(name);
}

void XGraphView::arrangeOwnLegend(bool unstableStretch)
{
    // The model's entries first, only what is drawn: the dashed stretch where f falls faster than G, the kinds of
    // equilibria there are, the basins where they are shaded; then the what-if's and the measured data's.
    // While a slider is held the legend keeps its layout, as the axes do (a drag step then needs no new layout),
    // but blanks the entry of what is no longer drawn (never naming an unstable point or basins that are gone);
    // letting go names what is drawn again, in place (refresh()).
    m_unstableStretch = unstableStretch;
    QCPLegend *legend = m_plot->legend;
    QList<QCPAbstractLegendItem *> managed = m_ownEntries.values();
    managed << m_basinEntry << m_fDashedEntry;
    const auto own = [this](QCPGraph *g, bool shown) -> QCPAbstractLegendItem * {
        return shown ? m_ownEntries.value(g) : nullptr;
    };
    const auto drawn = [this](const QCPGraph *g) { return inView(g); };
    const bool basins = m_basins->basins().size() > 1;
    // In two columns as a single-column figure's legend shows them: the curves and the operating point, whose
    // entries are wide, in the first, the marks and the basins in the second.
    const QList<QCPAbstractLegendItem *> wanted{
            unstableStretch ? m_fDashedEntry : own(m_f, true), // f's stretch where it is unstable is dashed
            own(m_stable, drawn(m_stable)),
            own(m_g, drawn(m_g)),
            own(m_unstable, drawn(m_unstable)),
            own(m_operating, drawn(m_operating)),
            basins ? m_basinEntry : nullptr,
            own(m_critical, drawn(m_critical)),
            own(m_neutral, drawn(m_neutral)),
    };
    QList<QCPAbstractLegendItem *> levels;
    for (QCPGraph *g : m_levels->graphs())
        levels << own(g, drawn(g));
    // f is always drawn: whichever of its two entries the legend holds names it. An entry the legend does not
    // hold stays hidden: it is drawn where it last was, over another entry.
    for (QCPAbstractLegendItem *item : std::as_const(managed)) {
        if (item)
            item->setVisible(legend->hasItem(item)
                             && (!m_held.held() || wanted.contains(item) || levels.contains(item)
                                 || item == m_fDashedEntry || item == m_ownEntries.value(m_f)));
    }
    if (!m_held.held())
        arrangeLegend(legend, wanted + levels, managed);
}

bool XGraphView::inView(const QCPGraph *graph) const
{
    const QCPRange x = graph->keyAxis()->range();
    const QCPRange y = graph->valueAxis()->range();
    const bool line = graph->lineStyle() != QCPGraph::lsNone;
    const QCPGraphData *last = nullptr;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        if (!std::isfinite(it->key) || !std::isfinite(it->value)) {
            last = nullptr; // a gap in the line
            continue;
        }
        if (x.contains(it->key) && y.contains(it->value))
            return true;
        if (line && last) {
            double x0 = last->key, y0 = last->value, x1 = it->key, y1 = it->value;
            if (clipSegment(x0, y0, x1, y1, x.lower, x.upper, y.lower, y.upper))
                return true;
        }
        last = &*it;
    }
    return false;
}

QString XGraphView::describeAt(double k, double gbs, double kTolerance, double gbsTolerance) const
{
    const auto &model = m_eval->model();
    if (!model)
        return {};
    const QString level = m_levels->describeAt(k, gbs, kTolerance, gbsTolerance);
    return level.isEmpty() ? describeXGraphAt(*model, m_eval->result(), k, gbs, kTolerance, gbsTolerance)
                           : level;
}

void XGraphView::onMouseMove(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (!m_plot->axisRect()->rect().contains(pos.toPoint())) {
        Q_EMIT hoverTextChanged(QString());
        return;
    }
    constexpr double px = 6;
    const double k = m_plot->xAxis->pixelToCoord(pos.x());
    const double gbs = m_plot->yAxis->pixelToCoord(pos.y());
    const double dk = std::abs(m_plot->xAxis->pixelToCoord(pos.x() + px) - k);
    const double dg = std::abs(m_plot->yAxis->pixelToCoord(pos.y() - px) - gbs);
    Q_EMIT hoverTextChanged(describeAt(k, gbs, dk, dg));
}

} // namespace crossroof::widgets
