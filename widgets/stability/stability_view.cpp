// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/stability_view.h"

#include "common/labelled.h"
#include "common/narrow_layout.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/qt_text.h"
#include "stability/advisor_panel.h"
#include "stability/hysteresis_chart.h"
#include "stability/stability_evaluation.h"
#include "stability/stability_map_plot.h"
#include "core/xmodel/xmodel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace crossroof::widgets {

namespace {

const char *const kMapKeys[] = {"n", "Z", "E", "R", "L", "M", "S_s", "L_s", "h", "alpha", "beta", "bypass"};

} // namespace

StabilityView::StabilityView(ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_state(state)
    , m_eval(new StabilityEvaluation(state, this))
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
    m_map = new StabilityMapPlot(this);
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
    // Halves from the start: from their size hints the advisor's table (every column as wide as its contents)
    // took two thirds and left the map a strip.
    split->setSizes({1000, 1000});
    // The advisor beside the map and the chart needs about 700 pixels; below 760 it goes under them, and the
    // map and the chart go side by side, so that all three fit a 1024x700 window's height. Below 560 (a pane of
    // View > Side by Side) the map and the chart need more than the width: stacked, the view scrolls down.
    stackWhenNarrow(this, split, 760);
    besideWhenNarrow(this, left, 760, 560);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_info);
    layout->addWidget(split, 1);

    m_eval->setSettings(chosenSettings());
    for (QComboBox *box : {m_xKey, m_yKey, m_sweepKey, m_sweepShows}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] { m_eval->setSettings(chosenSettings()); });
        connect(box, &QComboBox::currentIndexChanged, this, &StabilityView::settingsChanged);
    }
    connect(m_resolution, &QSpinBox::valueChanged, this, [this] { m_eval->setSettings(chosenSettings()); });
    connect(m_resolution, &QSpinBox::valueChanged, this, &StabilityView::settingsChanged);
    connect(m_eval, &StabilityEvaluation::mapUpdated, this, &StabilityView::showMap);
    connect(m_eval, &StabilityEvaluation::pointMoved, this, [this] { markCurrent(false); });
    connect(m_eval, &StabilityEvaluation::sweepUpdated, this, [this] { m_hyst->drawSweep(m_eval->sweep()); });
    connect(m_eval, &StabilityEvaluation::adviceUpdated, this, [this] { m_advisor->showAdvice(*m_eval->advice()); });
    connect(m_advisor, &AdvisorPanel::comparisonShown, this, &StabilityView::comparisonShown);
    connectGestures();
}

void StabilityView::connectGestures()
{
    connect(m_map, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (!m_map->axisRect()->rect().contains(e->position().toPoint()))
            return;
        m_dragging = true;
        m_eval->holdAxes();
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
        m_state->endInteraction(); // the held axes go: now the map may re-centre on the point
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
    const core::MapAxis axes[2] = {m_eval->axis(0), m_eval->axis(1)};
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
        const double now = m_eval->toAxis(which, m_state->params().*(info->member));
        double value = m_eval->fromAxis(which, std::clamp(now + steps[which] * cell, lo, hi));
        if (info->integer) // whole keys move by at least one
            value = std::round(steps[which] > 0 ? std::max(value, std::floor(m_eval->fromAxis(which, now)) + 1)
                                                : std::min(value, std::ceil(m_eval->fromAxis(which, now)) - 1));
        m_state->applyValue(keys[which], std::clamp(value, std::max(a.min, info->min), std::min(a.max, info->max)));
    }
    m_state->undoStack()->endMacro();
}

QCustomPlot *StabilityView::mapPlot() const
{
    return m_map;
}

QCPColorMap *StabilityView::colorMap() const
{
    return m_map->colorMap();
}

QCPColorScale *StabilityView::key() const
{
    return m_map->key();
}

QCPGraph *StabilityView::currentPoint() const
{
    return m_map->currentPoint();
}

QCustomPlot *StabilityView::hysteresisPlot() const
{
    return m_hyst;
}

const core::HysteresisResult &StabilityView::sweep() const
{
    return m_eval->sweep().result;
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

const core::StabilityMap &StabilityView::map() const
{
    return m_eval->map();
}

core::StabilitySettings StabilityView::chosenSettings() const
{
    core::StabilitySettings s;
    s.x_key = m_xKey->currentData().toString().toStdString();
    s.y_key = m_yKey->currentData().toString().toStdString();
    s.resolution = m_resolution->value();
    s.sweep_key = m_sweepKey->currentData().toString().toStdString();
    s.sweep_shows_k = m_sweepShows->currentIndex() == 1;
    return s;
}

core::StabilitySettings StabilityView::settings() const
{
    return m_eval->settings();
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

void StabilityView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_eval->setActive(isVisible());
}

void StabilityView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_eval->setActive(isVisible()); // a minimised window is still visible, and keeps computing
}

void StabilityView::waitForMap()
{
    m_eval->wait();
    QCoreApplication::processEvents();
}

void StabilityView::showMap()
{
    const core::StabilityMap &map = m_eval->map();
    if (map.x_values.empty() || map.y_values.empty())
        return;
    m_map->showMap(map);
    int bistable = 0;
    for (int c : map.stable_count)
        bistable += c >= 2 ? 1 : 0;
    const bool done = map.completed_stride == 1;
    m_info->setText(
            tr("The colour counts the stable states (blue one, orange two: bistable, purple three or more; the key "
               "beside the map); darker is higher operating throughput, up to %1 GB/s. The lines between regions "
               "are tangencies, their edges. Drag the marked point to set both parameters. %2")
                    .arg(formatNumber(highestThroughput(map)))
                    .arg(done ? tr("%1 of %2 cells bistable.").arg(bistable).arg(map.stable_count.size())
                              : tr("Refining…")));
    markCurrent(true);
}

void StabilityView::markCurrent(bool mapChanged)
{
    const auto &p = m_state->params();
    const auto *xi = core::findParameter(m_eval->settings().x_key);
    const auto *yi = core::findParameter(m_eval->settings().y_key);
    m_map->markPoint(m_eval->toAxis(0, p.*(xi->member)), m_eval->toAxis(1, p.*(yi->member)), mapChanged);
}

void StabilityView::dragTo(QMouseEvent *event)
{
    const QPointF pos = event->position();
    const double x = m_eval->fromAxis(0, m_map->xAxis->pixelToCoord(pos.x()));
    const double y = m_eval->fromAxis(1, m_map->yAxis->pixelToCoord(pos.y()));
    const core::MapAxis ax = m_eval->axis(0), ay = m_eval->axis(1);
    m_state->applyValue(m_xKey->currentData().toString(), std::clamp(x, ax.min, ax.max));
    m_state->applyValue(m_yKey->currentData().toString(), std::clamp(y, ay.min, ay.max));
}

QString StabilityView::describeAt(double u, double v) const
{
    return m_eval->describeAt(u, v);
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
