// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench: measures the speed targets of docs/PERFORMANCE.md and prints them as JSON.
#include "main_window.h"
#include "parameter_state.h"
#include "profile_library.h"
#include "xgraph_view.h"
#include "xmodel.h"

#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::ordered_json;

ordered_json summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    auto quantile = [&](double q) { return ms[std::min(ms.size() - 1, std::size_t(q * double(ms.size() - 1) + 0.5))]; };
    return {{"median_ms", quantile(0.5)}, {"p99_ms", quantile(0.99)}, {"max_ms", ms.back()}, {"samples", ms.size()}};
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

} // namespace

int main(int argc, char **argv)
{
    const auto processStart = Clock::now();
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") {
            quick = true;
        } else if (a == "--help") {
            std::cout << "Usage: crossroof-bench [--json] [--quick]\nPrints timings as JSON.\n";
            return 0;
        } else if (a != "--json") {
            std::cerr << "crossroof-bench: unknown option '" << a << "'\n";
            return 2;
        }
    }

    QApplication app(argc, argv);
    ordered_json out;
    out["machine"] = {{"cores", std::thread::hardware_concurrency()},
                      {"qpa_platform", QGuiApplication::platformName().toStdString()}};

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

    // Parameter change -> model + 2,000-point curves + replot + paint, 1280x800, antialiased.
    auto *state = window.state();
    QCustomPlot *plot = window.xgraphView()->plot();
    const int rounds = quick ? 60 : 600;
    const char *keys[] = {"Z", "n", "L", "alpha", "R", "E", "S_s", "beta"};
    std::vector<double> update;
    std::vector<double> modelOnly;
    int replots = 0;
    QObject::connect(plot, &QCustomPlot::afterReplot, [&] { ++replots; });
    for (int i = 0; i < rounds; ++i) {
        const char *key = keys[i % std::size(keys)];
        const auto *info = crossroof::core::findParameter(key);
        const double t = 0.3 + 0.4 * double((i * 37) % 100) / 100.0; // slider positions in the middle
        const double value = info->log_scale ? info->slider_min * std::pow(info->slider_max / info->slider_min, t)
                                             : info->slider_min + t * (info->slider_max - info->slider_min);
        const int before = replots;
        const auto t0 = Clock::now();
        state->setValue(QString::fromLatin1(key), value);
        plot->replot(QCustomPlot::rpImmediateRefresh); // what the queued replot does, now
        const auto t1 = Clock::now();
        if (replots == before) {
            std::cerr << "crossroof-bench: the plot did not replot\n";
            return 1;
        }
        update.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        QCoreApplication::processEvents(); // drain the queued replot outside the timing

        const auto m0 = Clock::now();
        const crossroof::core::XModel model(state->params());
        const auto result = model.solve();
        crossroof::core::XGraphCurves curves;
        model.sampleCurves(2000, curves);
        modelOnly.push_back(std::chrono::duration<double, std::milli>(Clock::now() - m0).count());
        if (result.equilibria.empty())
            return 1;
    }
    out["xgraph_update"] = summarize(update);
    out["xgraph_model_only"] = summarize(modelOnly);
    out["replot_internal_ms"] = plot->replotTime();
    std::cout << out.dump(2) << std::endl;
    return 0;
}
