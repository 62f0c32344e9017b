// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_support.h"

#include "common/parameter_panel.h"
#include "common/steady_plot.h"
#include "common/value_label.h"
#include "core/xmodel/parameters.h"
#include "main_window.h"
#include "common/parameter_state.h"
#include "xgraph/readout_panel.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QSlider>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace crossroof::bench {

ordered_json summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    auto quantile = [&](double q) {
        return ms[std::min(ms.size() - 1, std::size_t(q * double(ms.size() - 1) + 0.5))];
    };
    return {{"median_ms", quantile(0.5)},
            {"p99_ms", quantile(0.99)},
            {"max_ms", ms.back()},
            {"samples", ms.size()}};
}

/// Seconds since this process started, from /proc (includes the dynamic loader and static initialisers).
double secondsSinceProcessStart()
{
    std::ifstream stat("/proc/self/stat");
    std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = content.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream fields(content.substr(close + 2));
    std::string field;
    unsigned long long start = 0;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22)
            start = std::stoull(field);
    }
    std::ifstream uptimeFile("/proc/uptime");
    double uptime = 0;
    uptimeFile >> uptime;
    return uptime - double(start) / double(sysconf(_SC_CLK_TCK));
}

double residentMegabytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    }
    return -1;
}

/// An `ncu --page raw` export of KERNELS kernels: the kernels of the real export at PATH repeated, each with
/// its own ID (what scripts/scale_inputs.sh writes).
std::string scaledNcuExport(const std::string &path, int kernels)
{
    std::ifstream in(path);
    std::string line;
    std::string head;
    std::vector<std::string> body;
    int headerRows = 0;
    while (std::getline(in, line)) {
        if (line.rfind("==PROF==", 0) == 0 || headerRows < 2) {
            head += line + '\n';
            headerRows += line.rfind("==PROF==", 0) == 0 ? 0 : 1;
        } else {
            body.push_back(line.substr(line.find(',')));
        }
    }
    std::string text = head;
    for (int k = 0; k < kernels && !body.empty(); ++k)
        text += '"' + std::to_string(k) + '"' + body[std::size_t(k) % body.size()] + '\n';
    return text;
}

void PaintWatch::watchPlot(QCustomPlot *plot)
{
    plot->installEventFilter(this);
    QObject::connect(plot, &QCustomPlot::beforeReplot, this, [this, plot] { m_replotAt[plot] = ++m_sequence; });
    if (auto *steady = dynamic_cast<crossroof::widgets::SteadyPlot *>(plot); steady && steady->directPaint())
        m_steady.push_back(steady); // draws its layers when it paints: timed there (drawTimesSince)
    else
        QObject::connect(plot, &QCustomPlot::afterReplot, this,
                         [this, plot] { m_replotMs[plot].push_back(plot->replotTime(false)); });
    m_replotAt[plot] = 0;
    m_paintAt[plot] = 0;
}

bool PaintWatch::allPainted(std::uint64_t from) const
{
    for (const auto &[plot, replot] : m_replotAt) {
        if (replot > from && m_paintAt.at(plot) < replot)
            return false;
    }
    return true;
}

int PaintWatch::plotsPaintedSince(std::uint64_t from) const
{
    int count = 0;
    for (const auto &[plot, paint] : m_paintAt)
        count += paint > from ? 1 : 0;
    return count;
}

void PaintWatch::drawTimesSince(std::uint64_t from)
{
    for (crossroof::widgets::SteadyPlot *plot : m_steady) {
        if (paintedSince(plot, from))
            m_replotMs[plot].push_back(plot->lastPaintMs());
    }
}

bool PaintWatch::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint) {
        ++m_sequence;
        if (auto it = m_paintAt.find(watched); it != m_paintAt.end())
            it->second = m_sequence;
        else
            m_labelPaintAt = m_sequence;
    }
    return false;
}

namespace {

/// Slider positions for STEPS steps of a drag of KEY back and forth over the middle 80 % of its slider, as a
/// hand moves it (whole keys one at a time).
std::vector<int> dragPositions(const crossroof::core::ParameterInfo &info, int steps)
{
    std::vector<int> positions;
    const double lo = info.slider_min + 0.1 * (info.slider_max - info.slider_min);
    const double hi = info.slider_min + 0.9 * (info.slider_max - info.slider_min);
    for (int i = 0; i < steps; ++i) {
        double value;
        if (info.integer) {
            const int span = std::max(1, int(hi - lo));
            const int phase = i % (2 * span);
            value = std::round(lo) + (phase < span ? phase : 2 * span - phase);
        } else {
            const double phase = double(i % 200) / 100.0; // 0..2
            const double t = phase < 1 ? phase : 2 - phase;
            value = info.log_scale ? std::exp(std::log(info.slider_min * 1.5)
                                              + t * std::log(info.slider_max / info.slider_min / 2.25))
                                   : lo + t * (hi - lo);
        }
        positions.push_back(crossroof::widgets::ParameterPanel::sliderPosition(info, value));
    }
    return positions;
}

} // namespace

DragSteps dragSlider(crossroof::app::MainWindow &window, PaintWatch &watch, const char *key, int steps,
                     const std::vector<QCustomPlot *> &mustPaint, bool labels)
{
    DragSteps d;
    const auto *info = crossroof::core::findParameter(key);
    QSlider *slider = window.parameterPanel()->slider(QString::fromLatin1(key));
    slider->setSliderDown(true);
    for (int pos : dragPositions(*info, steps)) {
        const double before = window.state()->params().*(info->member);
        const QString readoutBefore = labels ? window.readout()->text() : QString();
        const std::uint64_t from = watch.sequence();
        auto t0 = Clock::now();
        slider->setSliderPosition(pos);
        if (window.state()->params().*(info->member) == before)
            continue; // the same value: nothing changes, nothing to time
        // Labels whose text stayed the same paint nothing: wait for them only when the text changed (the time
        // to tell is left out of the step's).
        const auto asked = Clock::now();
        const bool labelsChange = labels && window.readout()->text() != readoutBefore;
        t0 += Clock::now() - asked;
        auto last = Clock::now();
        for (;;) {
            const std::uint64_t seen = watch.sequence();
            QCoreApplication::processEvents();
            if (watch.sequence() != seen)
                last = Clock::now();
            const bool required = std::all_of(mustPaint.begin(), mustPaint.end(),
                                               [&](QCustomPlot *p) { return watch.paintedSince(p, from); });
            if (watch.allPainted(from) && required && (!labelsChange || watch.labelPaintedSince(from)))
                break;
            if (Clock::now() - t0 > std::chrono::seconds(1)) {
                ++d.unfinished;
                break;
            }
        }
        d.times.push_back(std::chrono::duration<double, std::milli>(last - t0).count());
        watch.drawTimesSince(from);
        d.withReadout += watch.labelPaintedSince(from) ? 1 : 0;
        d.plotsPainted += watch.plotsPaintedSince(from);
    }
    slider->setSliderDown(false);
    QCoreApplication::processEvents(); // the refit on release, outside the timing
    return d;
}

/// Watches every plot of WINDOW that shows on the screen, and the readout's labels that do (a widget scrolled
/// out of its pane paints nothing). Returns the plots with their view's name, and how many labels.
std::pair<std::vector<std::pair<QCustomPlot *, std::string>>, int> watchVisible(crossroof::app::MainWindow &window,
                                                                               PaintWatch &watch)
{
    std::vector<std::pair<QCustomPlot *, std::string>> watched;
    for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
        if (!plot->isVisible() || plot->visibleRegion().isEmpty())
            continue;
        watch.watchPlot(plot);
        const QWidget *view = plot->parentWidget();
        while (view && !QByteArray(view->metaObject()->className()).startsWith("crossroof::"))
            view = view->parentWidget();
        watched.emplace_back(plot, std::string(view ? view->metaObject()->className() : "?") + ": "
                                           + plot->accessibleName().toStdString());
    }
    int labels = 0;
    for (QWidget *label : window.readout()->findChildren<QWidget *>()) {
        const bool isLabel = qobject_cast<QLabel *>(label) || qobject_cast<crossroof::widgets::ValueLabel *>(label);
        if (isLabel && label->isVisible() && !label->visibleRegion().isEmpty()) {
            watch.watchLabel(label);
            ++labels;
        }
    }
    return {watched, labels};
}

} // namespace crossroof::bench
