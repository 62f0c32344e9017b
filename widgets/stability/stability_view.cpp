// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/stability_view.h"

#include "common/background_priority.h"

#include "common/labelled.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/narrow_layout.h"
#include "common/plot_style.h"
#include "common/qt_text.h"
#include "stability/advisor_panel.h"
#include "stability/hysteresis_chart.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const char *const kMapKeys[] = {"n", "Z", "E", "R", "L", "M", "S_s", "L_s", "h", "alpha", "beta", "bypass"};

/// Blue for one stable state, orange for two, purple for three or more; each band runs light (no throughput)
/// to dark (the map's highest operating throughput).
const QColor kBands[3][2] = {{QColor(0xde, 0xeb, 0xf7), QColor(0x08, 0x51, 0x9c)},
                             {QColor(0xfe, 0xe6, 0xce), QColor(0xa6, 0x36, 0x03)},
                             {QColor(0xef, 0xed, 0xf5), QColor(0x54, 0x27, 0x8f)}};

/// The map's gradient: data values are band + shade, shade in [0, 0.95].
QCPColorGradient bandGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    for (int b = 0; b < 3; ++b) {
        g.setColorStopAt(b / 3.0, kBands[b][0]);
        g.setColorStopAt((b + 0.95) / 3.0, kBands[b][1]);
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

} // namespace

StabilityView::StabilityView(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
{
    auto *bar = new QHBoxLayout;
    auto keyBox = [this](const char *initial) {
        auto *box = new QComboBox(this);
        for (const char *key : kMapKeys) {
            const auto *info = core::findParameter(key);
            box->addItem(qs(info->symbol), QString::fromLatin1(key));
            box->setItemData(box->count() - 1, qs(info->label), Qt::ToolTipRole);
        }
        box->setCurrentIndex(box->findData(QString::fromLatin1(initial)));
        return box;
    };
    m_xKey = keyBox("n");
    m_yKey = keyBox("Z");
    addLabelled(bar, tr("Map &x"), m_xKey);
    addLabelled(bar, tr("&y"), m_yKey);
    m_resolution = new QSpinBox(this);
    m_resolution->setRange(16, 512);
    m_resolution->setValue(128);
    m_resolution->setSuffix(tr(" cells"));
    m_resolution->setToolTip(tr("Cells per axis; the map refines to this in the background, coarse first"));
    addLabelled(bar, tr("&Resolution"), m_resolution);
    m_sweepKey = keyBox("n");
    auto *sweepBar = new QHBoxLayout;
    addLabelled(sweepBar, tr("&Hysteresis of"), m_sweepKey);
    m_sweepShows = new QComboBox(this);
    m_sweepShows->addItem(tr("MS throughput"));
    m_sweepShows->addItem(tr("warps in memory, k"));
    m_sweepShows->setToolTip(tr("Where compute demand is flat (x ≥ π) every equilibrium has the same throughput "
                                "M/Z; the branches then differ in k, the warps waiting on memory"));
    addLabelled(sweepBar, tr("sho&wing"), m_sweepShows);
    sweepBar->addStretch(1);
    bar->addStretch(1);

    m_info = new QLabel(this);
    m_info->setWordWrap(true);

    m_map = new QCustomPlot(this);
    m_map->setAccessibleName(tr("Stability map"));
    plot_style::setupAxes(m_map);
    PlotNavigator::install(m_map)->setLeftButtonTaken(true); // the left button moves the point
    m_colorMap = new QCPColorMap(m_map->xAxis, m_map->yAxis);
    m_colorMap->setInterpolate(false);
    // The key beside the map: its own colours, a band per number of stable states, each light to dark with the
    // operating throughput (the text above the map gives the darkest shade's GB/s). Beside, not below: a figure's
    // map is short and wide.
    m_key = new QCPColorScale(m_map);
    m_map->plotLayout()->addElement(0, 1, m_key);
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
    m_key->axis()->setLabel(tr("stable states (darker: more MS throughput)"));
    plot_style::setShortLabel(m_key->axis(), tr("stable states"));
    m_key->axis()->setLabelFont(m_map->yAxis->labelFont());
    m_key->axis()->setTickLabelFont(m_map->yAxis->tickLabelFont());
    auto *aligned = new QCPMarginGroup(m_map);
    m_map->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, aligned);
    m_key->setMarginGroup(QCP::msBottom | QCP::msTop, aligned);
    m_edges = new QCPCurve(m_map->xAxis, m_map->yAxis);
    m_edges->setPen(QPen(Qt::black, 1.5));
    m_current = m_map->addGraph();
    // The point has a layer (and paint buffer) of its own: moving it redraws neither the map nor the axes.
    m_map->addLayer(QStringLiteral("point"), m_map->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_map->layer(QStringLiteral("point"))->setMode(QCPLayer::lmBuffered);
    m_current->setLayer(QStringLiteral("point"));
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle, QPen(Qt::black, 2), QColor(255, 255, 255, 160), 16));
    m_map->setMinimumSize(300, 240);
    m_map->setMouseTracking(true);

    m_hyst = new HysteresisChart(this);
    m_advisor = new AdvisorPanel(m_state, this);

    auto *hystPane = new QWidget(this);
    auto *hystLayout = new QVBoxLayout(hystPane);
    hystLayout->setContentsMargins(0, 0, 0, 0);
    hystLayout->addLayout(sweepBar);
    hystLayout->addWidget(m_hyst, 1);
    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false); // a short window scrolls the view rather than squash a plot
    left->addWidget(m_map);
    left->addWidget(hystPane);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setSizes({600, 400}); // the map above the larger share, whatever the panes' size hints
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_advisor);
    split->setStretchFactor(0, 1); // the advisor as wide as the map: its gains on one line
    split->setStretchFactor(1, 1);
    // The advisor beside the map and the chart needs about 700 pixels; below 760 it goes under them.
    stackWhenNarrow(this, split, 760);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_info);
    layout->addWidget(split, 1);

    for (QComboBox *box : {m_xKey, m_yKey, m_sweepKey, m_sweepShows}) {
        connect(box, &QComboBox::currentIndexChanged, this, &StabilityView::scheduleRefresh);
        connect(box, &QComboBox::currentIndexChanged, this, &StabilityView::settingsChanged);
    }
    connect(m_resolution, &QSpinBox::valueChanged, this, &StabilityView::scheduleRefresh);
    connect(m_resolution, &QSpinBox::valueChanged, this, &StabilityView::settingsChanged);
    connect(m_state, &ParameterState::changed, this, &StabilityView::scheduleRefresh);
    // Let go of a slider: the map may re-centre on the point (its axes held still during the drag).
    connect(m_state, &ParameterState::interactionEnded, this, &StabilityView::scheduleRefresh);
    m_advisorTimer = new QTimer(this);
    m_advisorTimer->setSingleShot(true);
    m_advisorTimer->setInterval(150);
    connect(m_advisorTimer, &QTimer::timeout, m_advisor, &AdvisorPanel::refresh);
    connect(m_map, &QCustomPlot::beforeReplot, this, [this] { m_fullReplotQueued = false; });
    connect(m_map, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (!m_map->axisRect()->rect().contains(e->position().toPoint()))
            return;
        m_dragging = true;
        m_dragAxes = std::array{axis(0), axis(1)};
        m_state->beginInteraction();
        m_state->undoStack()->beginMacro(tr("Move the point on the stability map"));
        dragTo(e);
    });
    connect(m_map, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        if (m_dragging) {
            dragTo(e);
            return;
        }
        const QPointF pos = e->position();
        Q_EMIT hoverTextChanged(m_map->axisRect()->rect().contains(pos.toPoint())
                                    ? describeAt(m_map->xAxis->pixelToCoord(pos.x()), m_map->yAxis->pixelToCoord(pos.y()))
                                    : QString());
    });
    connect(m_map, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *) {
        if (!m_dragging)
            return;
        m_dragging = false;
        m_state->undoStack()->endMacro();
        m_state->endInteraction();
        m_dragAxes.reset();
        scheduleRefresh(); // now the map may re-centre on the point
    });
    m_map->setFocusPolicy(Qt::StrongFocus);
    m_map->installEventFilter(this);
    m_map->setToolTip(tr("Drag the marked point, or use the arrow keys (Shift: ten cells), to set both "
                         "parameters"));
}

bool StabilityView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_map && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const int step = key->modifiers() & Qt::ShiftModifier ? 10 : 1;
        switch (key->key()) {
        case Qt::Key_Left:
            nudge(-step, 0);
            return true;
        case Qt::Key_Right:
            nudge(step, 0);
            return true;
        case Qt::Key_Up:
            nudge(0, step);
            return true;
        case Qt::Key_Down:
            nudge(0, -step);
            return true;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void StabilityView::nudge(int dx, int dy)
{
    // One cell of the map is one step: in log10 units on a log axis, in the key's units otherwise.
    const core::MapAxis axes[2] = {axis(0), axis(1)};
    const QString keys[2] = {m_xKey->currentData().toString(), m_yKey->currentData().toString()};
    const int steps[2] = {dx, dy};
    m_state->undoStack()->beginMacro(tr("Move the point on the stability map"));
    for (int which : {0, 1}) {
        if (steps[which] == 0)
            continue;
        const core::MapAxis &a = axes[which];
        const auto *info = core::findParameter(keys[which].toStdString());
        const double lo = a.log ? std::log10(a.min) : a.min;
        const double hi = a.log ? std::log10(a.max) : a.max;
        const double cell = (hi - lo) / std::max(a.count - 1, 1);
        const double now = toAxis(which, m_state->params().*(info->member));
        double value = fromAxis(which, std::clamp(now + steps[which] * cell, lo, hi));
        if (info->integer) // whole keys move by at least one
            value = std::round(steps[which] > 0 ? std::max(value, std::floor(fromAxis(which, now)) + 1)
                                                : std::min(value, std::ceil(fromAxis(which, now)) - 1));
        m_state->applyValue(keys[which], std::clamp(value, std::max(a.min, info->min), std::min(a.max, info->max)));
    }
    m_state->undoStack()->endMacro();
}

StabilityView::~StabilityView()
{
    m_worker.request_stop();
}

QCustomPlot *StabilityView::hysteresisPlot() const
{
    return m_hyst;
}

const core::HysteresisResult &StabilityView::sweep() const
{
    return m_hyst->sweep();
}

QCPGraph *StabilityView::upBranch() const
{
    return m_hyst->upBranch();
}

QCPGraph *StabilityView::downBranch() const
{
    return m_hyst->downBranch();
}

QTableWidget *StabilityView::advisorTable() const
{
    return m_advisor->table();
}

core::StabilitySettings StabilityView::settings() const
{
    core::StabilitySettings s;
    s.x_key = m_xKey->currentData().toString().toStdString();
    s.y_key = m_yKey->currentData().toString().toStdString();
    s.resolution = m_resolution->value();
    s.sweep_key = m_sweepKey->currentData().toString().toStdString();
    s.sweep_shows_k = m_sweepShows->currentIndex() == 1;
    return s;
}

void StabilityView::setSettings(const core::StabilitySettings &s)
{
    auto choose = [](QComboBox *box, const std::string &key) {
        const int index = box->findData(QString::fromStdString(key));
        if (index >= 0)
            box->setCurrentIndex(index);
    };
    choose(m_xKey, s.x_key);
    choose(m_yKey, s.y_key);
    choose(m_sweepKey, s.sweep_key);
    m_resolution->setValue(s.resolution);
    m_sweepShows->setCurrentIndex(s.sweep_shows_k ? 1 : 0);
}

core::MapAxis StabilityView::axis(int which) const
{
    if (m_dragAxes)
        return (*m_dragAxes)[std::size_t(which)];
    const QString key = (which == 0 ? m_xKey : m_yKey)->currentData().toString();
    const auto *info = core::findParameter(key.toStdString());
    const auto &p = m_state->params();
    // While a slider is held the map keeps its axes as long as the point stays on it, as while the point is
    // dragged on the map: it re-centres when the slider is let go, not on every step.
    const core::MapAxis *held = nullptr;
    if (m_state->interactionOpen() && m_mapInputs) {
        held = &m_mapInputs->axes[std::size_t(which)];
        if (held->key != key.toStdString() || held->count != m_resolution->value())
            held = nullptr;
        const double v = p.*(info->member);
        if (held && v >= held->min && v <= held->max)
            return *held;
    }
    core::MapAxis a;
    a.key = key.toStdString();
    a.count = m_resolution->value();
    const double v = p.*(info->member);
    if (a.key == "n") {
        // The device holds at most max_warps warps per SM.
        a.min = 1;
        a.max = std::max(p.max_warps, p.n);
        // n dragged past the map's end: a third more room, so that the next steps land on the map too.
        if (held && p.n > held->max)
            a.max = std::min(info->max, std::ceil(p.n * 4 / 3));
    } else if (info->log_scale) {
        // Two and a half decades around the current value, within the key's limits.
        a.min = std::max(info->min > 0 ? info->min : 1e-6, v / 18);
        a.max = std::min(info->max, v * 18);
        a.log = true;
    } else {
        a.min = info->slider_min;
        a.max = info->slider_max;
    }
    if (!(a.max > a.min))
        a.max = a.min * 2 + 1;
    return a;
}

double StabilityView::toAxis(int which, double value) const
{
    return axis(which).log ? std::log10(value) : value;
}

double StabilityView::fromAxis(int which, double u) const
{
    return axis(which).log ? std::pow(10.0, u) : u;
}

void StabilityView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleRefresh();
}

void StabilityView::scheduleRefresh()
{
    // A hidden view costs nothing while sliders move elsewhere; it catches up when shown.
    if (!isVisible()) {
        m_stale = true;
        m_worker.request_stop();
        m_refinementStopped = true;
        return;
    }
    if (m_refreshQueued)
        return;
    m_refreshQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_refreshQueued = false;
        refresh();
    });
}

void StabilityView::refresh()
{
    m_stale = false;
    // Only the point moved (one of the map's own keys, the axes the same): the map stays as it is.
    const core::MapAxis ax = axis(0), ay = axis(1);
    const bool mapChanged = mapInputsChanged(ax, ay);
    if (!mapChanged)
        markCurrent();
    refreshHysteresis();
    // The advisor's table costs a dozen solves and a relayout: while a slider is held it follows every 150 ms
    // (and once more when the slider is let go), not on every step.
    if (m_state->interactionOpen()) {
        if (!m_advisorTimer->isActive())
            m_advisorTimer->start();
    } else {
        m_advisorTimer->stop();
        m_advisor->refresh();
    }
    if (mapChanged)
        startMap();
}

bool StabilityView::mapInputsChanged(const core::MapAxis &x, const core::MapAxis &y) const
{
    if (!m_mapInputs)
        return true;
    // A refinement that was stopped (the view was hidden) has to start again.
    if (m_refinementStopped)
        return true;
    auto sameAxis = [](const core::MapAxis &a, const core::MapAxis &b) {
        return a.key == b.key && a.min == b.min && a.max == b.max && a.count == b.count && a.log == b.log;
    };
    core::XModelParams base = m_state->params();
    for (const core::MapAxis *a : {&x, &y}) {
        if (const auto *info = core::findParameter(a->key))
            base.*(info->member) = 0;
    }
    return !(base == m_mapInputs->base && sameAxis(x, m_mapInputs->axes[0]) && sameAxis(y, m_mapInputs->axes[1]));
}

void StabilityView::startMap()
{
    const core::MapAxis ax = axis(0);
    const core::MapAxis ay = axis(1);
    const core::XModelParams base = m_state->params();
    MapInputs inputs{base, {ax, ay}};
    for (const core::MapAxis *a : {&ax, &ay}) {
        if (const auto *info = core::findParameter(a->key))
            inputs.base.*(info->member) = 0;
    }
    m_mapInputs = std::move(inputs);
    m_refinementStopped = false;
    const int generation = ++m_generation;
    m_worker.request_stop();
    if (m_worker.joinable())
        m_worker.join();
    // Coarse first, on this thread, so the view answers within a frame; finer levels in the background.
    auto mapper = std::make_shared<core::StabilityMapper>(base, ax, ay);
    mapper->compute(16, 1);
    showMap(mapper->map());
    m_worker = std::jthread([this, mapper, generation](std::stop_token stop) {
        lowerThreadPriority(); // and the helper thread the mapper starts
        for (int stride : {8, 4, 2, 1}) {
            if (!mapper->compute(stride, 2, stop))
                return;
            QMetaObject::invokeMethod(
                this,
                [this, map = mapper->map(), generation] {
                    if (generation == m_generation)
                        showMap(map);
                },
                Qt::QueuedConnection);
        }
    });
}

void StabilityView::waitForMap()
{
    if (m_stale || m_refreshQueued) {
        m_refreshQueued = false;
        refresh();
    }
    if (m_worker.joinable())
        m_worker.join();
    QCoreApplication::processEvents();
    m_hyst->waitForSweep();
    m_advisor->waitForAdvice();
}

void StabilityView::showMap(const core::StabilityMap &map)
{
    m_shown = map;
    const std::size_t nx = map.x_values.size();
    const std::size_t ny = map.y_values.size();
    if (nx == 0 || ny == 0)
        return;
    std::vector<double> ux(nx), uy(ny);
    for (std::size_t i = 0; i < nx; ++i)
        ux[i] = map.x.log ? std::log10(map.x_values[i]) : map.x_values[i];
    for (std::size_t j = 0; j < ny; ++j)
        uy[j] = map.y.log ? std::log10(map.y_values[j]) : map.y_values[j];

    double top = 0;
    for (double g : map.operating_gbs)
        top = std::max(top, g);
    auto *data = m_colorMap->data();
    data->setSize(int(nx), int(ny));
    data->setRange(QCPRange(ux.front(), ux.back()), QCPRange(uy.front(), uy.back()));
    for (std::size_t j = 0; j < ny; ++j) {
        for (std::size_t i = 0; i < nx; ++i) {
            const std::size_t at = map.shownIndex(i, j);
            const int band = std::clamp(map.stable_count[at] - 1, 0, 2);
            const double shade = top > 0 ? 0.95 * map.operating_gbs[at] / top : 0;
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
        QCPAxis *qa = which == 0 ? m_map->xAxis : m_map->yAxis;
        const auto &u = which == 0 ? ux : uy;
        const double half = u.size() > 1 ? (u[1] - u[0]) / 2 : 0.5;
        qa->setRange(u.front() - half, u.back() + half);
        if (a.log)
            qa->setTicker(logTicker(u.front(), u.back()));
        else
            qa->setTicker(QSharedPointer<QCPAxisTicker>::create());
        const auto *info = core::findParameter(a.key);
        qa->setLabel(QStringLiteral("%1 (%2)").arg(qs(info->label), qs(info->symbol))
                     + (info->unit.empty() ? QString() : QStringLiteral(", ") + qs(info->unit))
                     + (a.log ? tr(", log scale") : QString()));
        plot_style::setShortLabel(qa, qs(info->symbol)
                                          + (info->unit.empty() ? QString()
                                                                : QStringLiteral(" (%1)").arg(qs(info->unit))));
    }
    int bistable = 0;
    for (int c : map.stable_count)
        bistable += c >= 2 ? 1 : 0;
    const bool done = map.completed_stride == 1;
    m_info->setText(
            tr("The colour counts the stable states (blue one, orange two: bistable, purple three or more; the key "
               "beside the map); darker is higher operating throughput, up to %1 GB/s. The lines between regions "
               "are tangencies, their edges. Drag the marked point to set both parameters. %2")
                    .arg(formatNumber(top))
                    .arg(done ? tr("%1 of %2 cells bistable.").arg(bistable).arg(map.stable_count.size())
                              : tr("Refining…")));
    markCurrent(true);
}

void StabilityView::markCurrent(bool mapChanged)
{
    const auto &p = m_state->params();
    const auto *xi = core::findParameter(m_xKey->currentData().toString().toStdString());
    const auto *yi = core::findParameter(m_yKey->currentData().toString().toStdString());
    m_current->setData({toAxis(0, p.*(xi->member))}, {toAxis(1, p.*(yi->member))}, true);
    if (mapChanged || !m_map->isVisible()) {
        m_fullReplotQueued = true;
        m_map->replot(QCustomPlot::rpQueuedReplot);
    } else if (!m_fullReplotQueued) {
        m_current->layer()->replot(); // the point's buffer alone (a whole replot if the buffers are stale)
    }
}

void StabilityView::dragTo(QMouseEvent *event)
{
    const QPointF pos = event->position();
    const double x = fromAxis(0, m_map->xAxis->pixelToCoord(pos.x()));
    const double y = fromAxis(1, m_map->yAxis->pixelToCoord(pos.y()));
    const core::MapAxis ax = axis(0), ay = axis(1);
    m_state->applyValue(m_xKey->currentData().toString(), std::clamp(x, ax.min, ax.max));
    m_state->applyValue(m_yKey->currentData().toString(), std::clamp(y, ay.min, ay.max));
}

QString StabilityView::describeAt(double u, double v) const
{
    core::XModelParams p = m_state->params();
    const auto *xi = core::findParameter(m_xKey->currentData().toString().toStdString());
    const auto *yi = core::findParameter(m_yKey->currentData().toString().toStdString());
    const double x = fromAxis(0, u), y = fromAxis(1, v);
    if (core::checkValue(*xi, x) || core::checkValue(*yi, y))
        return {};
    p.*(xi->member) = xi->integer ? std::round(x) : x;
    p.*(yi->member) = yi->integer ? std::round(y) : y;
    const auto r = core::XModel(p).solve();
    QStringList roots;
    for (const auto &e : r.equilibria)
        roots << tr("k = %1 (%2, %3 GB/s)")
                         .arg(formatNumber(e.k, 3), qs(core::stabilityName(e.stability)),
                              formatNumber(e.ms_gbs));
    return tr("%1 = %2, %3 = %4: %5 stable; %6")
            .arg(qs(xi->symbol), formatNumber(p.*(xi->member)), qs(yi->symbol), formatNumber(p.*(yi->member)))
            .arg(r.stableCount())
            .arg(roots.join(QStringLiteral(", ")));
}

void StabilityView::refreshHysteresis()
{
    m_hyst->showSweep(m_state->params(), m_sweepKey->currentData().toString().toStdString(),
                      m_sweepShows->currentIndex() == 1);
}

void StabilityView::applyAdvice(int row)
{
    m_advisor->applyAdvice(row);
}

void StabilityView::compareAdvice(int row)
{
    m_advisor->compareAdvice(row);
}

} // namespace crossroof::widgets
