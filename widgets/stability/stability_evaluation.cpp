// SPDX-License-Identifier: GPL-3.0-or-later
#include "stability/stability_evaluation.h"

#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/qt_text.h"
#include "core/support/error.h"
#include "core/xmodel/xmodel.h"

#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace crossroof::widgets {

StabilityEvaluation::StabilityEvaluation(ParameterState *state, QObject *parent)
    : QObject(parent)
    , m_state(state)
    , m_refreshTimer(new QTimer(this))
    , m_dragAxes(state, this)
    , m_mapJob(this, [this](core::StabilityMap map) { showMap(std::move(map)); })
    , m_sweepJob(this,
                 [this](Sweep sweep) {
                     m_sweep = std::move(sweep);
                     Q_EMIT sweepUpdated();
                 })
    , m_adviceJob(this,
                  [this](std::optional<core::Advice> advice) {
                      if (!advice)
                          return;
                      m_advice = std::move(advice);
                      Q_EMIT adviceUpdated();
                  })
{
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(0);
    connect(m_refreshTimer, &QTimer::timeout, this, &StabilityEvaluation::refresh);
    connect(m_state, &ParameterState::changed, this, &StabilityEvaluation::scheduleRefresh);
    // Let go of a slider (or of the dragged point): the map may re-centre on the point.
    connect(m_state, &ParameterState::interactionEnded, this, &StabilityEvaluation::scheduleRefresh);
}

void StabilityEvaluation::setSettings(const core::StabilitySettings &settings)
{
    m_settings = settings;
    scheduleRefresh();
}

void StabilityEvaluation::setActive(bool active)
{
    m_active = active;
    if (m_active && m_stale)
        scheduleRefresh();
}

core::MapAxis StabilityEvaluation::axis(int which) const
{
    if (const auto *held = m_dragAxes.held())
        return (*held)[std::size_t(which)];
    const std::string &key = which == 0 ? m_settings.x_key : m_settings.y_key;
    const auto *info = core::findParameter(key);
    const auto &p = m_state->params();
    // While a slider is held the map keeps its axes as long as the point stays on it, as while the point is
    // dragged on the map: it re-centres when the slider is let go, not on every step.
    const core::MapAxis *held = nullptr;
    if (m_state->interactionOpen() && m_mapInputs) {
        held = &m_mapInputs->axes[std::size_t(which)];
        if (held->key != key || held->count != m_settings.resolution)
            held = nullptr;
        const double v = p.*(info->member);
        if (held && v >= held->min && v <= held->max)
            return *held;
    }
    core::MapAxis a;
    a.key = key;
    a.count = m_settings.resolution;
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

double StabilityEvaluation::toAxis(int which, double value) const
{
    return axis(which).log ? std::log10(value) : value;
}

double StabilityEvaluation::fromAxis(int which, double u) const
{
    return axis(which).log ? std::pow(10.0, u) : u;
}

void StabilityEvaluation::holdAxes()
{
    m_dragAxes.hold(std::array {axis(0), axis(1)});
}

void StabilityEvaluation::scheduleRefresh()
{
    // An inactive view costs nothing while sliders move elsewhere; it catches up when shown.
    if (!m_active) {
        m_stale = true;
        m_mapJob.stop();
        m_refinementStopped = true;
        return;
    }
    if (!m_refreshTimer->isActive())
        m_refreshTimer->start();
}

void StabilityEvaluation::refresh()
{
    m_stale = false;
    // Only the point moved (one of the map's own keys, the axes the same): the map stays as it is.
    const bool mapChanged = mapInputsChanged(axis(0), axis(1));
    if (!mapChanged)
        Q_EMIT pointMoved();
    requestSweep();
    // The advice costs a dozen solves, and the advisor's table and wrapped explanations a relayout that took a
    // fifth of a linked step with data: followed every 150 ms of a held slider, those steps were a drag's slowest
    // percent. While a slider is held the advice waits; it follows when the slider is let go.
    if (!m_state->interactionOpen())
        requestAdvice();
    if (mapChanged)
        startMap();
}

bool StabilityEvaluation::mapInputsChanged(const core::MapAxis &x, const core::MapAxis &y) const
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
    return !(base == m_mapInputs->base && sameAxis(x, m_mapInputs->axes[0])
             && sameAxis(y, m_mapInputs->axes[1]));
}

void StabilityEvaluation::startMap()
{
    const core::MapAxis ax = axis(0);
    const core::MapAxis ay = axis(1);
    const core::XModelParams base = m_state->params();
    MapInputs inputs {base, {ax, ay}};
    for (const core::MapAxis *a : {&ax, &ay}) {
        if (const auto *info = core::findParameter(a->key))
            inputs.base.*(info->member) = 0;
    }
    m_mapInputs = std::move(inputs);
    m_refinementStopped = false;
    m_mapJob.stop();
    // Coarse first, on this thread, so the view answers within a frame; finer levels in the background.
    auto mapper = std::make_shared<core::StabilityMapper>(base, ax, ay);
    mapper->compute(16, 1);
    showMap(mapper->map());
    m_mapJob.start([mapper](std::stop_token stop, const auto &publish) {
        for (int stride : {8, 4, 2, 1}) {
            if (!mapper->compute(stride, 2, stop))
                return;
            publish(mapper->map());
        }
    });
}

void StabilityEvaluation::showMap(core::StabilityMap map)
{
    m_map = std::move(map);
    Q_EMIT mapUpdated();
}

void StabilityEvaluation::requestSweep()
{
    const core::XModelParams &p = m_state->params();
    const std::string &key = m_settings.sweep_key;
    const auto *info = core::findParameter(key);
    std::vector<double> values;
    if (key == "n") {
        const int top = int(std::max(p.max_warps, p.n)); // the device holds at most max_warps per SM
        for (int n = 1; n <= top; ++n)
            values.push_back(n);
    } else {
        const double v = p.*(info->member);
        const double lo
                = info->log_scale ? std::max(info->min > 0 ? info->min : 1e-6, v / 18) : info->slider_min;
        const double hi = info->log_scale ? std::min(info->max, v * 18) : info->slider_max;
        for (int i = 0; i < 256; ++i) {
            const double t = i / 255.0;
            values.push_back(info->log_scale ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo));
        }
    }
    // Every point of the sweep sets the key itself: only the other parameters and the range matter.
    SweepRequest request {p, key, values, m_settings.sweep_shows_k};
    request.params.*(info->member) = 0;
    if (m_sweepRequested == request)
        return;
    m_sweepRequested = request;
    m_sweepJob.request([request = std::move(request), p](std::stop_token) {
        Sweep sweep {request.key, request.values, request.showK, {}};
        try {
            sweep.result = core::sweepHysteresis(p, request.key, request.values);
        } catch (const core::InputError &) {
            // Parameters the model refuses: the chart is left empty; the X-graph says why.
        }
        return sweep;
    });
}

void StabilityEvaluation::requestAdvice()
{
    m_adviceJob.request([params = m_state->params()](std::stop_token) -> std::optional<core::Advice> {
        try {
            return core::advise(params);
        } catch (const core::InputError &) {
            return std::nullopt; // the X-graph says what is wrong with the parameters
        }
    });
}

QString StabilityEvaluation::describeAt(double u, double v) const
{
    core::XModelParams p = m_state->params();
    const auto *xi = core::findParameter(m_settings.x_key);
    const auto *yi = core::findParameter(m_settings.y_key);
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

void StabilityEvaluation::wait()
{
    if (m_stale || m_refreshTimer->isActive()) {
        m_refreshTimer->stop();
        refresh();
    }
    m_mapJob.wait();
    m_sweepJob.wait();
    m_adviceJob.wait();
}

} // namespace crossroof::widgets
