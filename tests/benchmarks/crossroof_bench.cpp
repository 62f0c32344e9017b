// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench: measures the speed targets of docs/PERFORMANCE.md and prints them as JSON.
#include "export/figure_export.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/ncu_csv.h"
#include "kernels/kernel_table_view.h"
#include "roofline/roofline_view.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"
#include "traces/trace_import_dialog.h"
#include "traces/traces_panel.h"
#include "core/xmodel/hysteresis.h"
#include "core/traces/perf_stat.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/skeleton/projection.h"
#include "core/xmodel/stability_map.h"
#include "core/traces/trace_fit.h"
#include "main_window.h"
#include "core/markov/markov.h"
#include "markov/markov_view.h"
#include "core/modeltree/cross_validation.h"
#include "state/occupancy_state.h"
#include "occupancy/occupancy_view.h"
#include "common/parameter_panel.h"
#include "common/parameter_state.h"
#include "common/value_label.h"
#include "stability/stability_view.h"
#include "xgraph/readout_panel.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>
#include <string>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::ordered_json;

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

/// Counts, in one sequence, the replots and the paint events of the plots and labels it watches: a step of a
/// drag is over when every watched plot that replotted has painted since, and the events have run out.
class PaintWatch : public QObject
{
public:
    void watchPlot(QCustomPlot *plot)
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
    void watchLabel(QWidget *label) { label->installEventFilter(this); }
    std::uint64_t sequence() const { return m_sequence; }
    /// Every watched plot that replotted after FROM has painted after its replot.
    bool allPainted(std::uint64_t from) const
    {
        for (const auto &[plot, replot] : m_replotAt) {
            if (replot > from && m_paintAt.at(plot) < replot)
                return false;
        }
        return true;
    }
    /// The plots that painted after FROM, and whether a watched label did.
    int plotsPaintedSince(std::uint64_t from) const
    {
        int count = 0;
        for (const auto &[plot, paint] : m_paintAt)
            count += paint > from ? 1 : 0;
        return count;
    }
    bool labelPaintedSince(std::uint64_t from) const { return m_labelPaintAt > from; }
    bool paintedSince(QObject *plot, std::uint64_t from) const { return m_paintAt.at(plot) > from; }
    /// How long each replot of PLOT took to draw its layers (QCustomPlot::replotTime; for a SteadyPlot, which
    /// draws them when it paints, its paint time as noted by drawTimesSince), from now on.
    const std::vector<double> &replotTimes(QObject *plot) { return m_replotMs[plot]; }
    /// Notes the paint time of each watched SteadyPlot that painted after FROM.
    void drawTimesSince(std::uint64_t from)
    {
        for (crossroof::widgets::SteadyPlot *plot : m_steady) {
            if (paintedSince(plot, from))
                m_replotMs[plot].push_back(plot->lastPaintMs());
        }
    }
    void clearReplotTimes() { m_replotMs.clear(); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
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

private:
    std::map<QObject *, std::uint64_t> m_replotAt;
    std::map<QObject *, std::uint64_t> m_paintAt;
    std::map<QObject *, std::vector<double>> m_replotMs;
    std::vector<crossroof::widgets::SteadyPlot *> m_steady;
    std::uint64_t m_labelPaintAt = 0;
    std::uint64_t m_sequence = 0;
};

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

/// What a drag measured: each step's time, and how the steps ended.
struct DragSteps
{
    std::vector<double> times;
    int withReadout = 0;
    int plotsPainted = 0;
    int unfinished = 0;
};

/// Drags KEY's slider of WINDOW over STEPS positions as a user's drag does (slider held, its own signals, the
/// state and undo). A step is timed from the slider's new position to the end of the event processing in which
/// the last view it changed painted: every plot in MUST_PAINT and the readout's labels (when LABELS and the
/// readout's text changed), and every other watched plot that replotted since the move, after its replot. Steps
/// whose position gives the same value are not counted.
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

} // namespace

int main(int argc, char **argv)
{
    const auto processStart = Clock::now();
    bool quick = false;
    std::string only;
    std::string dpr = "1";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") {
            quick = true;
        } else if (a == "--only" && i + 1 < argc) {
            only = argv[++i];
        } else if (a == "--dpr" && i + 1 < argc) {
            // Every window drawn at this device pixel ratio (a HiDPI screen); the X-graph's drag is then
            // reported as xgraph_update_dprN.
            dpr = argv[++i];
            if (dpr != "1" && dpr != "2" && dpr != "3") {
                std::cerr << "crossroof-bench: --dpr takes 1, 2 or 3\n";
                return 2;
            }
        } else if (a == "--help") {
            std::cout
                    << "Usage: crossroof-bench [--json] [--quick] [--dpr 2] [--only xgraph|linked|linked_data|linked_busy|occupancy|markov|export|stability|import|scale|skeleton|literal|modeltree]\n"
                       "Prints timings as JSON (docs/PERFORMANCE.md).\n";
            return 0;
        } else if (a != "--json") {
            std::cerr << "crossroof-bench: unknown option '" << a << "'\n";
            return 2;
        }
    }

    if (dpr != "1")
        qputenv("QT_SCALE_FACTOR", QByteArray::fromStdString(dpr));
    QApplication app(argc, argv);
    // The user's settings (View > Side by Side, ...) neither change what is measured nor are changed by it.
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("view/sideBySide")); // every part starts in the tabs
    ordered_json out;
    out["machine"] = {{"cores", std::thread::hardware_concurrency()},
                      {"qpa_platform", QGuiApplication::platformName().toStdString()},
                      {"device_pixel_ratio", qApp->devicePixelRatio()}};

    // Cold start: process start to the first painted X-graph.
    crossroof::app::MainWindow window;
    window.resize(1280, 800);
    bool painted = false;
    QObject::connect(window.xgraphView()->plot(), &QCustomPlot::afterReplot, [&] { painted = true; });
    window.show();
    while (!painted)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    QCoreApplication::processEvents();
    const double inProcessMs = std::chrono::duration<double, std::milli>(Clock::now() - processStart).count();
    out["cold_start"] = {{"process_ms", secondsSinceProcessStart() * 1000.0}, {"from_main_ms", inProcessMs}};
    out["resident_mb"] = residentMegabytes();

    auto wanted = [&](const char *section) { return only.empty() || only == section; };
    const int rounds = quick ? 60 : 600;

    // The X-graph in the 1280x800 window (its tab in front, the readout beside it) while a user drags each of
    // eight sliders in turn: model, curves sampled where they bend, readout, redraw and paint, antialiased. Then
    // the same eight parameters set one at a time to scattered values (a jump: every range may change), each
    // timed to the X-graph's paint.
    if (wanted("xgraph")) {
        const std::string dragKey = dpr == "1" ? "xgraph_update" : "xgraph_update_dpr" + dpr;
        const char *dragged[] = {"Z", "n", "L", "alpha", "R", "E", "S_s", "beta"};
        PaintWatch dragWatch;
        const int labels = watchVisible(window, dragWatch).second;
        std::vector<double> drag;
        int unfinished = 0;
        const crossroof::widgets::SteadyPlot *xplot = window.xgraphView()->steadyPlot();
        const int steadyBefore = xplot->steadyRedraws();
        const int laidOutBefore = xplot->laidOutRedraws();
        const int marginsKeptBefore = xplot->marginsKept();
        const int gridDrawsBefore = xplot->gridDraws();
        const int picturesBefore = xplot->picturesAllocated();
        for (const char *key : dragged) {
            const DragSteps d = dragSlider(window, dragWatch, key, rounds / int(std::size(dragged)),
                                           {window.xgraphView()->plot()}, labels > 0);
            drag.insert(drag.end(), d.times.begin(), d.times.end());
            unfinished += d.unfinished;
        }
        out[dragKey] = summarize(drag);
        out[dragKey]["steps_unfinished_after_1_s"] = unfinished;
        // How the steps were drawn: with the layout of the step before, or laid out anew.
        out[dragKey]["steady_redraws"] = xplot->steadyRedraws() - steadyBefore;
        out[dragKey]["laid_out_redraws"] = xplot->laidOutRedraws() - laidOutBefore;
        out[dragKey]["direct_paint"] = xplot->directPaint(); // layers drawn onto the widget, no buffer
        // Paints that left the axes' tick labels and titles on the window (the axes' ranges held still).
        out[dragKey]["margins_kept"] = xplot->marginsKept() - marginsKeptBefore;
        // Steps that drew the grid's vertical lines again (new ticks or layout); the others blended its picture.
        out[dragKey]["grid_draws"] = xplot->gridDraws() - gridDrawsBefore;
        // Images those drawings took: none while the window keeps its size (each reuses the grid's picture).
        out[dragKey]["pictures_allocated"] = xplot->picturesAllocated() - picturesBefore;
        // Of those steps, the X-graph's paint: its background and layers drawn onto the window; the rest of a step
        // is the slider's signal through the undo stack to the model and the views, the layout when needed, and
        // the window's other paints (slider, spin box, readout).
        out[dragKey]["paint_draw"] = summarize(dragWatch.replotTimes(window.xgraphView()->plot()));
        window.state()->applyProfile(window.state()->profile()); // back to the profile's values
        QCoreApplication::processEvents();

        auto *state = window.state();
        QCustomPlot *plot = window.xgraphView()->plot();
        const char *keys[] = {"Z", "n", "L", "alpha", "R", "E", "S_s", "beta"};
        std::vector<double> update;
        std::vector<double> modelOnly;
        PaintWatch jumpWatch;
        jumpWatch.watchPlot(plot);
        for (int i = 0; i < rounds; ++i) {
            const char *key = keys[i % std::size(keys)];
            const auto *info = crossroof::core::findParameter(key);
            const double t = 0.3 + 0.4 * double((i * 37) % 100) / 100.0; // slider positions in the middle
            const double value = info->log_scale
                                         ? info->slider_min * std::pow(info->slider_max / info->slider_min, t)
                                         : info->slider_min + t * (info->slider_max - info->slider_min);
            const std::uint64_t from = jumpWatch.sequence();
            const auto t0 = Clock::now();
            state->setValue(QString::fromLatin1(key), value);
            // The view's redraw and the plot's paint, as the event loop runs them.
            while (!jumpWatch.paintedSince(plot, from) && Clock::now() - t0 < std::chrono::seconds(1))
                QCoreApplication::processEvents();
            const auto t1 = Clock::now();
            if (!jumpWatch.paintedSince(plot, from)) {
                std::cerr << "crossroof-bench: the plot did not paint\n";
                return 1;
            }
            update.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            QCoreApplication::processEvents(); // whatever else is queued, outside the timing

            const auto m0 = Clock::now();
            const crossroof::core::XModel model(state->params());
            const auto result = model.solve();
            crossroof::core::XGraphCurves curves;
            model.sampleCurvesAdaptive(crossroof::widgets::XModelEvaluation::kCurveTolerance, curves,
                                       result.landmarks); // as drawn
            modelOnly.push_back(std::chrono::duration<double, std::milli>(Clock::now() - m0).count());
            if (result.equilibria.empty())
                return 1;
        }
        out["xgraph_jump_update"] = summarize(update);
        out["xgraph_model_only"] = summarize(modelOnly);
    }

    // Linked views: View > Side by Side in a 1600x1000 window (X-graph, stability map and hysteresis, the three
    // occupancy sweeps, the readout), and a drag of the n slider and of the Z slider, 600 steps each, through
    // the slider's own signals. A step is timed from the slider's move to the end of the event processing in
    // which the last plot that replotted painted (the readout's labels paint in the same window update).
    // Three ways: the bare model ("linked"); with a user's data loaded ("linked_data": the seven V100 stream
    // traces, the H100 ncu export and the H100 kernel family as traces); and with one core kept busy by another
    // process, as a build or a profiler beside the GUI does ("linked_busy").
    const auto linkedSteps = [&](const std::string &key, bool withData, bool busy) -> int {
        window.hide();
        crossroof::app::MainWindow linked;
        ordered_json loaded = ordered_json::array();
        if (withData) {
            const QString data = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/");
            for (const QString &file : {QStringLiteral("gpu_stream_v100.txt"), QStringLiteral("h100_sxm/family.csv")}) {
                const std::size_t before = linked.traceState()->traces().size();
                const QString error = linked.tracesPanel()->importFile(data + file);
                // A plain CSV opens the column mapping: the family's kernels as points, n against GB/s with Z.
                if (crossroof::widgets::TraceImportDialog *mapping = linked.tracesPanel()->importDialog()) {
                    mapping->setMapping({crossroof::core::TraceKind::KernelPoints, "n", "gbs", "Z", "", "", ""});
                    mapping->accept();
                }
                if (!error.isEmpty() || linked.traceState()->traces().size() == before) {
                    std::cerr << "crossroof-bench: " << file.toStdString() << ": "
                              << (error.isEmpty() ? "no trace imported" : error.toStdString()) << '\n';
                    return 1;
                }
                loaded.push_back(file.toStdString());
            }
            const QString error = linked.kernelTable()->loadFile(data + QStringLiteral("ncu_h100_raw.csv"));
            if (!error.isEmpty()) {
                std::cerr << "crossroof-bench: " << error.toStdString() << '\n';
                return 1;
            }
            loaded.push_back("ncu_h100_raw.csv");
        }
        linked.sideBySide()->setActive(true);
        linked.resize(1600, 1000);
        linked.show();
        for (int i = 0; i < 20; ++i)
            QCoreApplication::processEvents();
        linked.stabilityView()->waitForMap();
        QCoreApplication::processEvents();
        PaintWatch watch;
        const auto [watched, labels] = watchVisible(linked, watch);
        ordered_json views = ordered_json::array();
        for (const auto &entry : watched)
            views.push_back(entry.second);
        // Done when the X-graph, the stability map and the readout have painted, and every other plot that
        // replotted since the move has painted after its replot. The stability map's background refinement
        // goes on after that (on the other core); what of it lands before the step is over counts.
        const std::vector<QCustomPlot *> mustPaint{linked.xgraphView()->plot(), linked.stabilityView()->mapPlot()};
        const int steps = quick ? 60 : 600;
        watch.clearReplotTimes();
        // The busy core: a child process that only spins, from before the first step to after the last.
        const pid_t spinner = busy ? fork() : 0;
        if (busy && spinner == 0) {
            volatile unsigned long spin = 0;
            for (;;)
                spin = spin + 1;
        }
        std::vector<double> all;
        int withReadout = 0;
        int plotsPainted = 0;
        int unfinished = 0;
        for (const char *param : {"n", "Z"}) {
            const DragSteps d = dragSlider(linked, watch, param, steps, mustPaint, labels > 0);
            all.insert(all.end(), d.times.begin(), d.times.end());
            withReadout += d.withReadout;
            plotsPainted += d.plotsPainted;
            unfinished += d.unfinished;
            if (!withData && !busy)
                out[key + "_" + param] = summarize(d.times);
        }
        if (spinner > 0) {
            kill(spinner, SIGKILL);
            waitpid(spinner, nullptr, 0);
        }
        out[key] = summarize(all);
        out[key]["steps_unfinished_after_1_s"] = unfinished;
        if (busy)
            out[key]["busy"] = "another process spinning on one core";
        if (withData)
            out[key]["loaded"] = loaded;
        if (!withData && !busy) {
            // Where a step's time goes: each plot's replots during both drags and what drawing their layers took.
            ordered_json replots = ordered_json::array();
            for (const auto &[plot, name] : watched) {
                const std::vector<double> &times = watch.replotTimes(plot);
                ordered_json entry = {{"plot", name}, {"replots", times.size()}};
                if (!times.empty())
                    entry["replot_draw"] = summarize(times);
                replots.push_back(entry);
            }
            out["linked_view_replots"] = replots;
            out["linked_view_setup"] = {{"window", "1600x1000, View > Side by Side"},
                                        {"plots", views},
                                        {"readout_labels", labels},
                                        {"plots_painted_per_step", double(plotsPainted) / double(all.size())},
                                        {"steps_with_readout_painted", withReadout},
                                        {"steps_unfinished_after_1_s", unfinished}};
        }
        linked.sideBySide()->setActive(false);
        linked.hide();
        window.show();
        QCoreApplication::processEvents();
        return 0;
    };
    if (wanted("linked") && linkedSteps("linked_view_step", false, false) != 0)
        return 1;
    if (wanted("linked_data") && linkedSteps("linked_view_step_with_data", true, false) != 0)
        return 1;
    if (wanted("linked_busy") && linkedSteps("linked_view_step_busy", false, true) != 0)
        return 1;

    // Occupancy: one input change -> calculator + three full sweeps + three repaints.
    if (wanted("occupancy")) {
        window.showView(QStringLiteral("occupancy"));
        QCoreApplication::processEvents();
        auto *occupancy = window.occupancyState();
        std::vector<double> occ;
        for (int i = 0; i < rounds; ++i) {
            const auto t0 = Clock::now();
            occupancy->setRegistersPerThread(16 + (i * 7) % 200);
            for (int p = 0; p < 3; ++p)
                window.occupancyView()->sweepPlot(p)->replot(QCustomPlot::rpImmediateRefresh);
            occ.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            QCoreApplication::processEvents();
        }
        out["occupancy_update"] = summarize(occ);
    }

    // Markov: the thesis grid for 8 groups x 4 threads (core only), and a 400x400 surface for topologies up
    // to 16 groups x 8 threads recomputed and repainted in the view.
    if (wanted("markov")) {
        std::vector<double> thesis;
        const std::vector<int> eightByFour(8, 4);
        const auto grid = crossroof::core::MarkovGrid::fromText("thesis");
        for (int i = 0; i < rounds; ++i) {
            const auto t0 = Clock::now();
            const auto surface = crossroof::core::markovSurface(eightByFour, grid);
            thesis.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (surface.cpi.empty())
                return 1;
        }
        out["markov_thesis_8x4"] = summarize(thesis);

        window.showView(QStringLiteral("markov"));
        auto *markov = window.markovView();
        markov->gridBox()->setCurrentIndex(markov->gridBox()->findData(QStringLiteral("uniform:400")));
        markov->groupsBox()->setValue(16);
        QCoreApplication::processEvents();
        std::vector<double> surface400;
        for (int i = 0; i < rounds; ++i) {
            const auto t0 = Clock::now();
            markov->threadsBox()->setValue(8 - i % 2); // 16x8 and 16x7 in turn
            markov->mapPlot()->replot(QCustomPlot::rpImmediateRefresh);
            markov->sliceGraph()->parentPlot()->replot(QCustomPlot::rpImmediateRefresh);
            markov->transientGraph()->parentPlot()->replot(QCustomPlot::rpImmediateRefresh);
            surface400.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            QCoreApplication::processEvents();
        }
        out["markov_surface_400_16x8_redraw"] = summarize(surface400);
    }

    // Figures and sessions: a PDF of each view, and opening a session to its first paint.
    if (wanted("export")) {
        QTemporaryDir dir;
        for (const QString &view : crossroof::app::MainWindow::viewNames()) {
            std::vector<double> times;
            for (int i = 0; i < (quick ? 3 : 20); ++i) {
                const auto t0 = Clock::now();
                const QString error = crossroof::widgets::exportFigure(window.figurePlots(view),
                                                                       dir.filePath(view + QStringLiteral(".pdf")), {});
                times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                if (!error.isEmpty())
                    return 1;
            }
            out["export_pdf"][view.toStdString()] = summarize(times);
        }
        const QString session = dir.filePath(QStringLiteral("bench.crossroof"));
        window.saveSession(session);
        std::vector<double> opens;
        for (int i = 0; i < (quick ? 3 : 20); ++i) {
            crossroof::app::MainWindow other;
            other.resize(1280, 800);
            other.show();
            QCoreApplication::processEvents();
            bool repainted = false;
            QObject::connect(other.xgraphView()->plot(), &QCustomPlot::afterReplot, [&] { repainted = true; });
            const auto t0 = Clock::now();
            other.openSession(session);
            other.showView(QStringLiteral("xgraph"));
            while (!repainted)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
            opens.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        out["session_open_to_paint"] = summarize(opens);
    }

    // Stability maps, hysteresis sweeps, importers and fits (core only).
    if (wanted("stability")) {
        auto base = crossroof::core::findBundledProfile("gtx570-sp")->params;
        const crossroof::core::MapAxis x{"n", 1, 96, 256, false};
        const crossroof::core::MapAxis y{"Z", 0.5, 200, 256, true};
        std::vector<double> maps;
        for (int i = 0; i < (quick ? 2 : 15); ++i) {
            const auto t0 = Clock::now();
            const auto map = crossroof::core::computeStabilityMap(base, x, y, 2);
            maps.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (map.stable_count.empty())
                return 1;
        }
        out["stability_map_256x256_2_threads"] = summarize(maps);
        std::vector<double> sweeps;
        std::vector<double> values;
        for (int n = 1; n <= 256; ++n)
            values.push_back(n);
        for (int i = 0; i < (quick ? 5 : 100); ++i) {
            const auto t0 = Clock::now();
            const auto h = crossroof::core::sweepHysteresis(base, "n", values);
            sweeps.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (h.up_gbs.size() != values.size())
                return 1;
        }
        out["hysteresis_256_n"] = summarize(sweeps);
    }
    const std::string shared = CROSSROOF_SHARED_DIR;
    if (wanted("import") && !QFileInfo::exists(QString::fromStdString(shared + "/data/perf-stat/perf_result.tsv"))) {
        out["import_skipped"] = "the measured data in " + shared + "/data are not there";
    } else if (wanted("import")) {
        std::vector<double> perf, benches, fits;
        for (int i = 0; i < (quick ? 2 : 20); ++i) {
            auto t0 = Clock::now();
            const auto stat = crossroof::core::readPerfStat(shared + "/data/perf-stat/perf_result.tsv");
            perf.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            t0 = Clock::now();
            const auto set = crossroof::core::readGpuBenches(shared + "/data/gpu-benches");
            benches.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            const auto *trace = crossroof::core::findStreamTrace(set.tidy, "v100", "init");
            if (!trace)
                return 1;
            t0 = Clock::now();
            const auto fit = crossroof::core::fitRoofline(trace->warps_per_sm, trace->gbs);
            fits.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (!(fit.R_gbs > 0) || stat.records.empty())
                return 1;
        }
        out["import_perf_stat_700kb"] = summarize(perf);
        out["import_gpu_benches_set"] = summarize(benches);
        out["fit_roofline_trace"] = summarize(fits);
    }

    // Crossroof's JSON reader on a 1 MiB profile of 110,000 keys and one of 100,000 empty objects, each refused
    // once read (they are not profiles); it once took 20-32 s on each.
    if (wanted("import")) {
        std::string keys = R"({"format_version": 1, "id": "x", "name": "x", "kind": "gpu", "parameters": {)";
        std::string objects = R"({"format_version": 1, "id": "x", "name": "x", "kind": "gpu", "sources": [)";
        for (int i = 0; i < 110'000; ++i)
            keys += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
        for (int i = 0; i < 100'000; ++i)
            objects += i ? ",{}" : "{}";
        keys += "}}";
        objects += "]}";
        for (const auto &[name, text] : {std::pair {"read_profile_110k_keys", &keys},
                                         std::pair {"read_profile_100k_objects", &objects}}) {
            std::vector<double> reads;
            for (int i = 0; i < (quick ? 2 : 10); ++i) {
                const auto t0 = Clock::now();
                try {
                    crossroof::core::parseProfile(*text, "bench.json");
                    return 1; // accepted: the benchmark no longer measures what it says
                } catch (const crossroof::core::InputError &) {
                }
                reads.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            out[name] = summarize(reads);
        }
    }

    // A user's whole-application profile: a 10,000-kernel `ncu --page raw` export made of the real H100 rows
    // (scripts/scale_inputs.sh writes the same file), imported (with the resident memory it adds), shown in the
    // Kernels table (sorted by each of its first columns in turn, then filtered) and on the roofline (panned).
    if (wanted("scale")) {
        constexpr int kKernels = 10'000;
        const std::string text = scaledNcuExport(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv", kKernels);
        std::vector<double> imports;
        double growth = 0;
        for (int i = 0; i < (quick ? 2 : 10); ++i) {
            const double before = residentMegabytes();
            const auto t0 = Clock::now();
            const crossroof::core::NcuReport report = crossroof::core::parseNcuCsv(text, "ncu_10k.csv");
            imports.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            growth = std::max(growth, residentMegabytes() - before);
            if (report.kernels.size() != std::size_t(kKernels))
                return 1;
        }
        out["ncu_import_10k"] = summarize(imports);
        out["ncu_import_10k"]["rss_growth_mb"] = growth;
        out["ncu_import_10k"]["bytes"] = text.size();

        window.resize(1600, 1000);
        window.showView(QStringLiteral("roofline"));
        crossroof::widgets::KernelTableView *table = window.kernelTable();
        window.kernelState()->setReport(
                std::make_shared<const crossroof::core::NcuReport>(crossroof::core::parseNcuCsv(text, "ncu_10k.csv")));
        window.kernelState()->wait();
        for (int i = 0; i < 10; ++i)
            QCoreApplication::processEvents();
        // Sorting and filtering, each to the end of the event processing that follows (the table's repaint).
        QTableView *view = table->table();
        std::vector<double> sorts;
        const int columns = std::min(view->model()->columnCount(), 12);
        for (int i = 0; i < (quick ? 4 : 40); ++i) {
            const auto t0 = Clock::now();
            if (i % 4 == 3) {
                table->filter()->setText(i % 8 == 3 ? QStringLiteral("xkernel<4") : QString());
            } else {
                view->sortByColumn(i % columns, i % 2 ? Qt::DescendingOrder : Qt::AscendingOrder);
            }
            QCoreApplication::processEvents();
            sorts.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        table->filter()->clear();
        out["kernel_table_sort_10k"] = summarize(sorts);

        // The roofline's pan: its ranges moved by 2 % of a decade a step, to the plot's paint.
        QCustomPlot *roof = window.rooflineView()->plot();
        PaintWatch roofWatch;
        roofWatch.watchPlot(roof);
        std::vector<double> pans;
        for (int i = 0; i < (quick ? 20 : 300); ++i) {
            const double factor = std::pow(10.0, (i / 50) % 2 ? -0.02 : 0.02);
            const std::uint64_t from = roofWatch.sequence();
            const auto t0 = Clock::now();
            roof->xAxis->setRange(roof->xAxis->range().lower * factor, roof->xAxis->range().upper * factor);
            roof->yAxis->setRange(roof->yAxis->range().lower * factor, roof->yAxis->range().upper * factor);
            roof->replot(QCustomPlot::rpQueuedReplot);
            while (!roofWatch.paintedSince(roof, from) && Clock::now() - t0 < std::chrono::seconds(1))
                QCoreApplication::processEvents();
            pans.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        out["roofline_pan_10k"] = summarize(pans);
        window.kernelState()->clear();
        window.resize(1280, 800);
        window.showView(QStringLiteral("xgraph"));
        QCoreApplication::processEvents();
    }

    // A 200-statement skeleton parsed and re-projected for unroll factors 1..16 on the KNL core model, as the
    // skeleton view does after each edit.
    if (wanted("skeleton")) {
        std::string text = "def bench ()\n{\n  :n = 100000\n  forall i = 0:n\n  {\n";
        for (int i = 0; i < 200; ++i) {
            const std::string a = "a" + std::to_string(i / 10);
            const std::string prev = "t" + std::to_string(i >= 3 ? i - 3 : 0);
            if (i % 10 == 0)
                text += "    ld " + a + "\n";
            else if (i % 10 == 9)
                text += "    st t" + std::to_string(i - 1) + "\n";
            else if (i % 3 == 0)
                text += "    fma t" + std::to_string(i) + ": t" + std::to_string(i - 1) + ", " + a + ", c\n";
            else
                text += "    fp t" + std::to_string(i) + ": " + a + ", " + prev + "\n";
        }
        text += "  }\n}\n";
        const auto *knl = crossroof::core::findBundledProfile("xeon-phi-7210");
        if (!knl || !knl->core_model)
            return 1;
        std::vector<double> projections;
        for (int i = 0; i < rounds; ++i) {
            const auto t0 = Clock::now();
            const auto skeleton = crossroof::core::parseSkeleton(text, "bench.skel");
            const auto projection = crossroof::core::projectSkeleton(skeleton, *knl->core_model);
            projections.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (skeleton.body.size() != 200 || projection.unroll.size() != 16)
                return 1;
        }
        out["skeleton_project_200_x16"] = summarize(projections);
    }

    // The literal solver (dense chain, appendix A) against the exact product form.
    for (int groups : {4, 8}) {
        if (!wanted("literal"))
            break;
        const auto topo = crossroof::core::uniformTopology(groups, 2, 0.3, 0.6);
        const int repeats = groups == 4 ? 200 : 1;
        const auto l0 = Clock::now();
        for (int r = 0; r < repeats; ++r)
            crossroof::core::solveMarkov(topo, crossroof::core::MarkovSolver::Literal);
        const double literal = std::chrono::duration<double, std::milli>(Clock::now() - l0).count() / repeats;
        const auto e0 = Clock::now();
        for (int r = 0; r < 1000; ++r)
            crossroof::core::solveMarkovExact(topo);
        const double exact = std::chrono::duration<double, std::milli>(Clock::now() - e0).count() / 1000;
        out["markov_literal_vs_exact"][std::to_string(groups) + "x2"]
                = {{"literal_ms", literal}, {"exact_ms", exact}, {"ratio", literal / exact}};
    }
    // Model tree: M5' training on 10,000 rows x 8 attributes (piecewise-linear truth with noise) and a 10-fold
    // cross-validation (ten more trainings on 9,000 rows each).
    if (wanted("modeltree")) {
        crossroof::core::RegressionData data;
        data.target = "y";
        const int rows = 10000;
        for (int a = 0; a < 8; ++a)
            data.attributes.push_back("a" + std::to_string(a));
        data.x.resize(rows, 8);
        data.y.resize(rows);
        unsigned seed = 12345;
        auto uniform = [&] {
            seed = 1103515245u * seed + 12345u;
            return double((seed >> 8) & 0xffff) / 65536.0;
        };
        for (int i = 0; i < rows; ++i) {
            for (int a = 0; a < 8; ++a)
                data.x(i, a) = a == 7 ? double(i % 7) : 10 * uniform();
            data.y[i] = (data.x(i, 0) > 5 ? 2 * data.x(i, 1) + data.x(i, 2) : 10 - data.x(i, 3))
                        + (data.x(i, 7) > 3 ? data.x(i, 4) : 0) + 0.1 * uniform();
        }
        std::vector<double> train, withCv;
        int leaves = 0;
        double mse = 0;
        for (int r = 0; r < (quick ? 1 : 5); ++r) {
            auto t0 = Clock::now();
            leaves = crossroof::core::ModelTree::train(data).leafCount();
            train.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            t0 = Clock::now();
            leaves = crossroof::core::ModelTree::train(data).leafCount();
            mse = crossroof::core::crossValidate(data, {}, 10).mse;
            withCv.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
        out["modeltree_train_10000x8"] = summarize(train);
        out["modeltree_train_and_cv10_10000x8"] = summarize(withCv);
        out["modeltree_shape"] = {{"leaves", leaves}, {"cv_mse", mse}};
    }
    std::cout << out.dump(2) << std::endl;
    return 0;
}
