// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench: measures the speed targets of docs/PERFORMANCE.md and prints them as JSON. The sections
// live in bench_views.cpp (what a user sees) and bench_models.cpp (core only); the tools they share in
// bench_support.*.
#include "bench_support.h"

#include "main_window.h"
#include "xgraph/xgraph_view.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

#include <iostream>
#include <string>
#include <thread>

using namespace crossroof::bench;

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

    crossroof::bench::Bench bench{window, out, quick, quick ? 60 : 600, dpr};
    const auto wanted = [&](const char *section) { return only.empty() || only == section; };
    const std::pair<const char *, int (*)(Bench &)> sections[] = {
            {"xgraph", benchXGraph},
            {"linked", [](Bench &b) { return benchLinked(b, "linked_view_step", false, false); }},
            {"linked_data", [](Bench &b) { return benchLinked(b, "linked_view_step_with_data", true, false); }},
            {"linked_busy", [](Bench &b) { return benchLinked(b, "linked_view_step_busy", false, true); }},
            {"occupancy", benchOccupancy},
            {"markov", benchMarkov},
            {"export", benchExport},
            {"stability", benchStability},
            {"import", benchImport},
            {"scale", benchScale},
            {"skeleton", benchSkeleton},
            {"literal", benchLiteral},
            {"modeltree", benchModelTree},
    };
    for (const auto &[name, run] : sections) {
        if (wanted(name) && run(bench) != 0)
            return 1;
    }
    std::cout << out.dump(2) << std::endl;
    return 0;
}
