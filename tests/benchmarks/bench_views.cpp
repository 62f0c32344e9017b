// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench's sections on what a user sees: the X-graph's drag, the linked views, occupancy, Markov,
// figures and sessions, and a 10,000-kernel export in the Kernels table and on the roofline.
#include "bench_support.h"

#include "common/parameter_state.h"
#include "common/steady_plot.h"
#include "core/markov/markov.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/xmodel.h"
#include "export/figure_export.h"
#include "kernels/kernel_table_view.h"
#include "main_window.h"
#include "markov/markov_view.h"
#include "occupancy/occupancy_view.h"
#include "roofline/roofline_view.h"
#include "stability/stability_view.h"
#include "state/kernel_state.h"
#include "state/occupancy_state.h"
#include "state/trace_state.h"
#include "traces/trace_import_dialog.h"
#include "traces/traces_panel.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace crossroof::bench {

// The X-graph in the 1280x800 window (its tab in front, the readout beside it) while a user drags each of
// eight sliders in turn: model, curves sampled where they bend, readout, redraw and paint, antialiased. Then
// the same eight parameters set one at a time to scattered values (a jump: every range may change), each
// timed to the X-graph's paint.
int benchXGraph(Bench &b)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const int rounds = b.rounds;
    const std::string dragKey = b.dpr == "1" ? "xgraph_update" : "xgraph_update_dpr" + b.dpr;
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
    return 0;
}

// Linked views: View > Side by Side in a 1600x1000 window (X-graph, stability map and hysteresis, the three
// occupancy sweeps, the readout), and a drag of the n slider and of the Z slider, 600 steps each, through
// the slider's own signals. A step is timed from the slider's move to the end of the event processing in
// which the last plot that replotted painted (the readout's labels paint in the same window update).
// Three ways: the bare model ("linked"); with a user's data loaded ("linked_data": the seven V100 stream
// traces, the H100 ncu export and the H100 kernel family as traces); and with one core kept busy by another
// process, as a build or a profiler beside the GUI does ("linked_busy").
int benchLinked(Bench &b, const std::string &key, bool withData, bool busy)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const bool quick = b.quick;
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
}

// Occupancy: one input change -> calculator + three full sweeps + three repaints.
int benchOccupancy(Bench &b)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const int rounds = b.rounds;
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
    return 0;
}

// Markov: the thesis grid for 8 groups x 4 threads (core only), and a 400x400 surface for topologies up
// to 16 groups x 8 threads recomputed and repainted in the view.
int benchMarkov(Bench &b)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const int rounds = b.rounds;
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
    return 0;
}

// Figures and sessions: a PDF of each view, and opening a session to its first paint.
int benchExport(Bench &b)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const bool quick = b.quick;
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
    return 0;
}

// A user's whole-application profile: a 10,000-kernel `ncu --page raw` export made of the real H100 rows
// (scripts/scale_inputs.sh writes the same file), imported (with the resident memory it adds), shown in the
// Kernels table (sorted by each of its first columns in turn, then filtered) and on the roofline (panned).
int benchScale(Bench &b)
{
    crossroof::app::MainWindow &window = b.window;
    ordered_json &out = b.out;
    const bool quick = b.quick;
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
    return 0;
}
} // namespace crossroof::bench
