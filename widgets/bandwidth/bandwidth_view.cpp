// SPDX-License-Identifier: GPL-3.0-or-later
#include "bandwidth/bandwidth_view.h"

#include "bandwidth/bandwidth_evaluation.h"

#include "common/curve_thinning.h"
#include "common/empty_state.h"
#include "common/error_message.h"
#include "common/file_folders.h"
#include "common/labelled.h"
#include "common/narrow_layout.h"
#include "common/number_format.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "state/trace_state.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

QColor connectionColour(const QString &name, int index)
{
    using namespace plot_style;
    if (name == QLatin1String("reads"))
        return kBlue;
    if (name == QLatin1String("writes"))
        return kOrange;
    if (name == QLatin1String("total"))
        return kBlack;
    static const QColor others[] = {kBlue, kOrange, kGreen, kPurple, kSky, kGrey};
    return others[index % int(std::size(others))];
}

/// Each socket's share of a CPU profile's peak memory bandwidth R (the whole machine's), GB/s.
double perSocket(const core::HardwareProfile &p)
{
    return p.params.R / double(p.topology ? std::max(1, p.topology->sockets) : 1);
}

} // namespace

BandwidthView::BandwidthView(TraceState *traces, QWidget *parent)
    : QWidget(parent)
    , m_traces(traces)
    , m_eval(new BandwidthEvaluation(traces, this))
{
    // Two groups, side by side in a wide view and one above the other in a narrow one.
    auto *source = new QHBoxLayout;
    auto *knobs = new QHBoxLayout;
    m_traceBox = new QComboBox(this);
    m_traceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_traceBox->setToolTip(
            tr("A trace of bytes per time interval (perf stat memory-controller counts, or a table "
               "imported as bytes per interval)"));
    addLabelled(source, tr("&Trace"), m_traceBox);
    m_load = new QPushButton(tr("&Load perf stat…"), this);
    m_load->setToolTip(tr("Read perf stat -x SEP -I MS output with the memory controllers' CAS counts "
                          "(reads and writes, 64 bytes each)"));
    source->addWidget(m_load);
    m_window = new QSpinBox(this);
    m_window->setRange(1, 1);
    // "1 interval", "3 intervals": the suffix follows the number.
    const auto suffix = [this](int w) { m_window->setSuffix(w == 1 ? tr(" interval") : tr(" intervals")); };
    suffix(m_window->value());
    connect(m_window, &QSpinBox::valueChanged, this, suffix);
    m_window->setToolTip(tr("W: each interval's demand is the mean of the W intervals around it, the trace mirrored at its ends "
                          "(smoothing that keeps the bytes moved)"));
    addLabelled(knobs, tr("&Window W"), m_window);
    m_limitFrom = new QComboBox(this);
    m_limitFrom->addItem(tr("none"), QString());
    m_limitFrom->addItem(tr("typed"), QStringLiteral("typed"));
    for (const core::HardwareProfile &p : core::bundledProfiles()) {
        if (p.kind == "cpu" && p.params.R > 0)
            m_limitFrom->addItem(tr("%1: peak R").arg(QString::fromStdString(p.name)), QString::fromStdString(p.id));
    }
    // Long CPU names elide rather than push the bar wider than the view.
    m_limitFrom->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_limitFrom->setMinimumContentsLength(16);
    m_limitFrom->setToolTip(tr("Where B comes from: a CPU profile's peak memory bandwidth R shared among its "
                               "sockets, a value you type, or none (no limit, no slowdown)"));
    addLabelled(knobs, tr("Limit &from"), m_limitFrom);
    m_limit = new QDoubleSpinBox(this);
    m_limit->setRange(0, 1e6);
    m_limit->setDecimals(2);
    m_limit->setSpecialValueText(tr("none")); // until a profile or the user gives one
    m_limit->setSuffix(tr(" GB/s"));
    m_limit->setToolTip(tr("B: the bandwidth limit of each connection (each socket's memory controllers; "
                           "reads and writes share one). An interval with demand d takes max(1, d/B) intervals"));
    addLabelled(knobs, tr("&Limit B"), m_limit);
    knobs->addStretch(1);
    auto *bar = new QBoxLayout(QBoxLayout::LeftToRight);
    bar->addLayout(source);
    bar->addLayout(knobs, 1);
    stackWhenNarrow(this, bar, 720);

    auto makePlot = [this](const QString &x, const QString &y) {
        auto *plot = new QCustomPlot(this);
        plot->setPlottingHint(QCP::phFastPolylines, true);
        plot_style::setupAxes(plot);
        PlotNavigator::install(plot);
        plot->xAxis->setLabel(x);
        plot->yAxis->setLabel(y);
        return plot;
    };
    m_curvePlot = makePlot(tr("share of the time, intervals sorted by demand (%)"), tr("demand (GB/s)"));
    plot_style::setShortLabel(m_curvePlot->xAxis, tr("share of time (%)"));
    m_curvePlot->setAccessibleName(tr("Bandwidth curves"));
    m_timePlot = makePlot(tr("time (s)"), tr("demand over time (GB/s)"));
    plot_style::setShortLabel(m_timePlot->yAxis, tr("GB/s"));
    plot_style::setShortLabel(m_curvePlot->yAxis, tr("GB/s"));
    m_timePlot->setAccessibleName(tr("Demand over time"));
    m_curveThinned = new ThinnedGraphs(m_curvePlot);
    m_timeThinned = new ThinnedGraphs(m_timePlot);
    auto limitLine = [](QCustomPlot *plot) {
        auto *line = new QCPItemStraightLine(plot);
        line->setPen(QPen(plot_style::kVermillion, 1.5, Qt::DashLine));
        line->setClipToAxisRect(true);
        return line;
    };
    m_curveLimit = limitLine(m_curvePlot);
    m_timeLimit = limitLine(m_timePlot);
    m_curveTotalLimit = limitLine(m_curvePlot);
    m_timeTotalLimit = limitLine(m_timePlot);
    for (QCPItemStraightLine *line : {m_curveTotalLimit, m_timeTotalLimit})
        line->setPen(QPen(plot_style::kBlack, 1.5, Qt::DashLine));
    m_limitLabel = new QCPItemText(m_curvePlot);
    m_limitLabel->setColor(plot_style::kVermillion);
    m_limitLabel->setFont(plot_style::annotationFont());
    m_limitLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_limitLabel->setPadding(QMargins(4, 1, 4, 1));
    m_limitLabel->setClipToAxisRect(true);
    plot_style::placeLegendBelow(m_curvePlot);

    m_readout = new QLabel(this);
    m_readout->setWordWrap(true);
    m_readout->setTextFormat(Qt::RichText);
    m_readout->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setMinimumWidth(280);
    m_readout->setMaximumWidth(360);

    // Tall enough to read with their legends; in a short window the view scrolls instead.
    m_curvePlot->setMinimumHeight(260);
    m_timePlot->setMinimumHeight(200);
    auto *plots = new QVBoxLayout;
    plots->addWidget(m_curvePlot, 3);
    plots->addWidget(m_timePlot, 2);
    // The summary beside the plots, or under them in a narrow view: never over them.
    auto *middle = new QBoxLayout(QBoxLayout::LeftToRight);
    middle->addLayout(plots, 1);
    middle->addWidget(m_readout);
    stackWhenNarrow(this, middle, 760);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(middle, 1);

    connect(m_load, &QPushButton::clicked, this, &BandwidthView::loadInteractively);
    m_empty = new EmptyState(m_curvePlot,
                             tr("<p><b>No bytes-per-interval trace yet.</b></p><p>Load <tt>perf stat -x, -I 1000</tt> "
                                "output with the memory controllers' CAS counts, or import any table of bytes per "
                                "interval with <i>File &gt; Import Trace</i>.</p>"));
    connect(m_empty->addButton(tr("Load perf stat…")), &QPushButton::clicked, this, &BandwidthView::loadInteractively);
    connect(m_traceBox, &QComboBox::currentIndexChanged, this, &BandwidthView::traceSelected);
    connect(m_window, &QSpinBox::valueChanged, this, &BandwidthView::recompute);
    connect(m_limit, &QDoubleSpinBox::valueChanged, this, [this] {
        // A value typed is the user's: the source says so.
        const QSignalBlocker block(m_limitFrom);
        m_limitFrom->setCurrentIndex(m_limit->value() > 0 ? 1 : 0);
        recompute();
    });
    connect(m_limitFrom, &QComboBox::activated, this, [this] { setLimitSource(m_limitFrom->currentData().toString()); });
    connect(m_traces, &TraceState::changed, this, &BandwidthView::rebuildTraceList);
    connect(m_eval, &BandwidthEvaluation::updated, this, &BandwidthView::showCurves);
    rebuildTraceList();
}

void BandwidthView::rebuildTraceList()
{
    const QString current = traceId();
    {
        const QSignalBlocker block(m_traceBox);
        m_traceBox->clear();
        for (const auto &t : m_traces->traces()) {
            if (t.kind != core::TraceKind::BytesPerInterval)
                continue;
            m_traceBox->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
            m_traceBox->setItemData(m_traceBox->count() - 1, QString::fromStdString(t.source),
                                    Qt::ToolTipRole);
        }
        const int index = m_traceBox->findData(current);
        m_traceBox->setCurrentIndex(index >= 0 ? index : 0);
        // Empty, it says why: the traces loaded are of another kind (bandwidth against warps, say).
        const int others = int(m_traces->traces().size()) - m_traceBox->count();
        m_traceBox->setPlaceholderText(others > 0 ? tr("none: %n of another kind", nullptr, others)
                                                  : tr("none loaded"));
    }
    traceSelected();
}

bool BandwidthView::setTrace(const QString &id)
{
    const int index = m_traceBox->findData(id);
    if (index < 0)
        return false;
    m_traceBox->setCurrentIndex(index);
    return true;
}

QString BandwidthView::traceId() const
{
    return m_traceBox->currentData().toString();
}

void BandwidthView::setWindow(int units)
{
    m_window->setValue(units);
}

void BandwidthView::setLimit(double gbs)
{
    m_limit->setValue(gbs);
}

bool BandwidthView::setLimitSource(const QString &profileId)
{
    const int index = m_limitFrom->findData(profileId);
    if (index < 0)
        return false;
    {
        const QSignalBlocker b1(m_limitFrom), b2(m_limit);
        m_limitFrom->setCurrentIndex(index);
        if (const core::HardwareProfile *p = limitProfile())
            m_limit->setValue(perSocket(*p));
        else if (profileId.isEmpty())
            m_limit->setValue(0);
    }
    recompute();
    return true;
}

QString BandwidthView::limitSource() const
{
    return m_limitFrom->currentData().toString();
}

const core::HardwareProfile *BandwidthView::limitProfile() const
{
    const QString id = limitSource();
    return id.isEmpty() || id == QLatin1String("typed") ? nullptr : core::findBundledProfile(id.toStdString());
}

double BandwidthView::limitBytesPerUnit() const
{
    return m_limit->value() * 1e9 * m_eval->unitSeconds();
}

double BandwidthView::unitSeconds() const
{
    return m_eval->unitSeconds();
}

const std::vector<BandwidthView::ConnectionCurve> &BandwidthView::curves() const
{
    return m_eval->curves();
}

const std::optional<core::Dominance> &BandwidthView::dominance() const
{
    return m_eval->dominance();
}

const QString &BandwidthView::error() const
{
    return m_loadError.isEmpty() ? m_eval->error() : m_loadError;
}

void BandwidthView::traceSelected()
{
    const core::MeasuredTrace *t = m_traces->trace(traceId());
    if (t && traceId() != m_shownId) {
        // A new trace: no smoothing; the limit stays where it came from (a profile, typed, or none).
        m_shownId = traceId();
        const QSignalBlocker block(m_window);
        m_window->setRange(1, std::max(1, int(core::pointCount(*t))));
        m_window->setValue(1);
    }
    recompute();
}

void BandwidthView::recompute()
{
    m_eval->setInputs(traceId(), m_window->value(), m_limit->value());
}

void BandwidthView::showCurves()
{
    m_loadError.clear();
    m_curveThinned->clear();
    m_timeThinned->clear();
    m_curvePlot->clearGraphs();
    m_timePlot->clearGraphs();
    const core::MeasuredTrace *t = m_eval->trace();
    const bool haveTrace = t != nullptr;
    const bool limited = haveTrace && m_eval->limited();
    for (QCPAbstractItem *item :
         {static_cast<QCPAbstractItem *>(m_curveLimit), static_cast<QCPAbstractItem *>(m_timeLimit),
          static_cast<QCPAbstractItem *>(m_limitLabel)})
        item->setVisible(limited);
    for (QCPAbstractItem *item : {m_curveTotalLimit, m_timeTotalLimit})
        item->setVisible(limited && m_eval->separateLinks());
    m_curvePlot->legend->setVisible(haveTrace); // an empty legend row would squeeze the axes
    m_limit->setEnabled(haveTrace);
    m_window->setEnabled(haveTrace);
    m_empty->setEmpty(!haveTrace);
    if (!haveTrace) {
        m_curvePlot->xAxis->setRange(0, 100);
        m_readout->setText(tr("<p>The demand, the slowdown under the limit B and the time it takes appear "
                              "here once a trace is loaded.</p>"));
        m_curvePlot->replot(QCustomPlot::rpQueuedReplot);
        m_timePlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    // Sorted curves: unit i covers the share [i, i+1)/units of the time.
    const std::size_t units = core::pointCount(*t);
    const double toGbs = 1.0 / (m_eval->unitSeconds() * 1e9);
    const double totalLimit = m_eval->curves().empty() ? 0.0 : m_eval->curves().back().limit_gbs;
    double top = std::max(m_limit->value(), m_eval->separateLinks() ? totalLimit : 0.0);
    const auto &curves = m_eval->curves();
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto &c = curves[i];
        const QColor colour = connectionColour(c.name, int(i));
        QCPGraph *g = m_curvePlot->addGraph();
        g->setName(symbol_text::literal(c.name));
        g->setPen(QPen(colour, c.name == tr("total") ? 2 : 1.5));
        g->setLineStyle(QCPGraph::lsStepLeft);
        QVector<double> x, y;
        x.reserve(qsizetype(c.curve.sorted.size()) + 1);
        y.reserve(qsizetype(c.curve.sorted.size()) + 1);
        for (std::size_t u = 0; u < c.curve.sorted.size(); ++u) {
            x << 100.0 * double(u) / double(units);
            y << c.curve.sorted[u] * toGbs;
        }
        if (!y.isEmpty()) {
            x << 100.0;
            y << y.back();
        }
        m_curveThinned->set(g, std::move(x), std::move(y), {}, ThinnedGraphs::Kind::Measured);
        top = std::max(top, c.curve.peak * toGbs);

        // Each interval's demand holds over the whole interval, from its start (the sample is taken at its end).
        QCPGraph *tg = m_timePlot->addGraph();
        tg->setName(symbol_text::literal(c.name));
        tg->setPen(QPen(colour, c.name == tr("total") ? 1.5 : 1));
        tg->setLineStyle(QCPGraph::lsStepRight);
        QVector<double> tx, ty;
        tx.reserve(qsizetype(c.smoothed.size()) + 1);
        ty.reserve(qsizetype(c.smoothed.size()) + 1);
        for (std::size_t u = 0; u < c.smoothed.size(); ++u) {
            if (u == 0) {
                tx << t->x[0] - t->extra[0];
                ty << c.smoothed[0] * toGbs;
            }
            tx << t->x[u];
            ty << c.smoothed[u] * toGbs;
        }
        m_timeThinned->set(tg, std::move(tx), std::move(ty), {}, ThinnedGraphs::Kind::Measured);
    }
    m_curvePlot->xAxis->setRange(0, 100);
    m_curvePlot->yAxis->setRange(0, top * 1.1);
    m_timePlot->xAxis->setRange(t->x.front() - t->extra.front(), t->x.back());
    m_timePlot->yAxis->setRange(0, top * 1.1);
    for (QCPItemStraightLine *line : {m_curveLimit, m_timeLimit}) {
        line->point1->setCoords(0, m_limit->value());
        line->point2->setCoords(1, m_limit->value());
    }
    for (QCPItemStraightLine *line : {m_curveTotalLimit, m_timeTotalLimit}) {
        line->point1->setCoords(0, totalLimit);
        line->point2->setCoords(1, totalLimit);
    }
    m_limitLabel->position->setCoords(100, m_limit->value());
    m_limitLabel->setText(m_eval->separateLinks()
                                  ? tr("limit B = %1 each; total %2")
                                            .arg(formatQuantity(m_limit->value(), QStringLiteral("B/s"), si::giga, 4),
                                                 formatQuantity(totalLimit, QStringLiteral("B/s"), si::giga, 4))
                                  : tr("limit B = %1").arg(formatQuantity(m_limit->value(), QStringLiteral("B/s"), si::giga, 4)));
    m_readout->setText(readoutHtml(*t));
    m_curveThinned->update();
    m_timeThinned->update();
    m_curvePlot->replot(QCustomPlot::rpQueuedReplot);
    m_timePlot->replot(QCustomPlot::rpQueuedReplot);
}

QString BandwidthView::readoutHtml(const core::MeasuredTrace &t) const
{
    if (!m_eval->error().isEmpty())
        return QStringLiteral("<p style='color:%1'>%2</p>")
                .arg(plot_style::kVermillion.name(), m_eval->error().toHtmlEscaped());
    const std::size_t units = core::pointCount(t);
    const double unitSeconds = m_eval->unitSeconds();
    const double toGbs = 1.0 / (unitSeconds * 1e9);
    QString html = tr("<p><b>%1</b><br>%2 intervals of %3 s; smoothed over W = %4 (%5 s).</p>")
                           .arg(QString::fromStdString(t.name).toHtmlEscaped())
                           .arg(units)
                           .arg(formatNumber(unitSeconds), QString::number(m_eval->window()),
                                formatNumber(double(m_eval->window()) * unitSeconds));
    html += limitSourceHtml();
    if (!m_eval->limited()) {
        html += tr("<table><tr><th align='left'>connection</th><th align='right'>&nbsp;peak</th>"
                   "<th align='right'>&nbsp;mean</th></tr>");
        for (const auto &c : m_eval->curves()) {
            html += QStringLiteral("<tr><td>%1</td><td align='right'>&nbsp;%2</td><td align='right'>&nbsp;%3</td></tr>")
                            .arg(c.name.toHtmlEscaped(), formatGrouped(c.curve.peak * toGbs, 3),
                                 formatGrouped(c.curve.mean * toGbs, 3));
        }
        return html + tr("</table><p>Peak and mean in GB/s.</p>");
    }
    html += tr("<h3>Slowdown under the limits</h3><table><tr><th align='left'>connection</th>"
               "<th align='right'>&nbsp;limit</th><th align='right'>&nbsp;peak</th><th align='right'>&nbsp;mean</th>"
               "<th align='right'>&nbsp;over</th><th align='right'>&nbsp;slowdown</th></tr>");
    for (const auto &c : m_eval->curves()) {
        html += QStringLiteral("<tr><td>%1</td><td align='right'>&nbsp;%2</td><td align='right'>&nbsp;%3</td>"
                               "<td align='right'>&nbsp;%4</td><td align='right'>&nbsp;%5 %</td>"
                               "<td align='right'>&nbsp;<b>%6×</b></td></tr>")
                        .arg(c.name.toHtmlEscaped(), formatGrouped(c.limit_gbs, 4), formatGrouped(c.curve.peak * toGbs, 3),
                             formatGrouped(c.curve.mean * toGbs, 3),
                             formatNumber(100.0 * double(c.curve.units_over_limit) / double(c.curve.units), 3),
                             QString::number(c.curve.slowdown, 'f', 3));
    }
    html += tr("</table><p>GB/s. Over: the share of the intervals whose demand is over the connection's limit. "
               "Slowdown = Σ max(1, d/limit) / intervals: how much longer the run would take if that connection "
               "alone were limited.</p>");
    if (const auto &dominance = m_eval->dominance()) {
        html += tr("<h3>Dominant connection</h3><p>Per interval, the connection with the largest demand/limit "
                   "(when above 1), the total among them, limits it:</p><table>");
        const auto &curves = m_eval->curves();
        for (std::size_t c = 0; c < curves.size(); ++c) {
            html += tr("<tr><td>%1</td><td align='right'>&nbsp;<b>%2 %</b></td><td>&nbsp;of the intervals, "
                       "%3 extra</td></tr>")
                            .arg(curves[c].name.toHtmlEscaped(),
                                 formatNumber(100.0 * double(dominance->units[c]) / double(units), 3),
                                 formatNumber(dominance->extra_units[c], 3));
        }
        html += tr("<tr><td>none</td><td align='right'>&nbsp;<b>%1 %</b></td><td>&nbsp;(every demand "
                   "under its limit)</td></tr></table>")
                        .arg(formatNumber(100.0 * double(dominance->free_units) / double(units), 3));
    }
    return html;
}

QString BandwidthView::limitSourceHtml() const
{
    const QString b = formatNumber(m_limit->value(), 4);
    const QString each = m_eval->separateLinks() ? tr(" for each socket's memory controllers, their total %1 GB/s")
                                                           .arg(formatNumber(m_eval->curves().back().limit_gbs, 4))
                                                 : QString();
    if (const core::HardwareProfile *p = limitProfile()) {
        const int sockets = p->topology ? std::max(1, p->topology->sockets) : 1;
        return tr("<p>Limit B = %1 GB/s%2: the %3 profile's peak memory bandwidth R = %4 GB/s over its %5.</p>")
                .arg(b, each, QString::fromStdString(p->name).toHtmlEscaped(), formatNumber(p->params.R, 4),
                     sockets == 1 ? tr("one socket") : tr("%1 sockets").arg(sockets));
    }
    if (m_eval->limited())
        return tr("<p>Limit B = %1 GB/s%2, as typed.</p>").arg(b, each);
    return tr("<p>No limit B: choose a CPU profile's peak under <i>Limit from</i> or type one for the slowdown "
              "and the dominant connection.</p>");
}

QString BandwidthView::loadFile(const QString &path)
{
    TraceLoad load = loadTraceFile(path, {}, this);
    if (load.cancelled)
        return {}; // the trace shown stays
    if (load.ok() && load.needsMapping()) {
        load.error = tr("%1: not perf stat output. Import a table of bytes per interval with Import… in the "
                        "Traces "
                        "panel (kind: bytes per time interval).")
                             .arg(path);
    }
    std::vector<core::MeasuredTrace> bytes;
    for (auto &t : load.traces) {
        if (t.kind == core::TraceKind::BytesPerInterval)
            bytes.push_back(std::move(t));
    }
    if (load.ok() && bytes.empty())
        load.error = tr("%1: holds no bytes per interval (it is %2)").arg(path, traceFormatName(load.format));
    if (!load.ok()) {
        m_loadError = load.error;
        m_readout->setText(QStringLiteral("<p style='color:%1'>%2</p>")
                                   .arg(plot_style::kVermillion.name(), m_loadError.toHtmlEscaped()));
        return m_loadError;
    }
    const QStringList ids = m_traces->add(std::move(bytes));
    setTrace(ids.front());
    return {};
}

void BandwidthView::loadInteractively()
{
    const QString path = openFileName(this, FileKind::Data, tr("Load perf stat Output"),
                                      tr("perf stat output (*.tsv *.csv *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = loadFile(path);
    if (error.isEmpty())
        return;
    showError(this, tr("The trace was not loaded:\n%1").arg(error));
}

} // namespace crossroof::widgets
