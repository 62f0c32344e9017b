// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-bench's tools: the JSON summary of a timing, the paint watch, the slider drag; and the benchmark
// sections, one function each (bench_views.cpp: what a user sees; bench_models.cpp: core only).
#pragma once

#include <nlohmann/json.hpp>

#include <QObject>
#include <QWidget>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

class QCustomPlot;
class QEvent;

namespace crossroof::app {
class MainWindow;
}
namespace crossroof::widgets {
class SteadyPlot;
}

namespace crossroof::bench {

using Clock = std::chrono::steady_clock;
using nlohmann::ordered_json;

/// What every section reads and writes: the window it drives, the JSON it fills, and how long to run.
struct Bench
{
    crossroof::app::MainWindow &window;
    ordered_json &out;
    bool quick = false;
    int rounds = 600;
    std::string dpr = "1";
};

/// Median, p99, maximum and count of MS (milliseconds).
ordered_json summarize(std::vector<double> ms);

/// Seconds since this process started, from /proc (includes the dynamic loader and static initialisers).
double secondsSinceProcessStart();

/// This process's resident memory in MiB, from /proc.
double residentMegabytes();

/// An `ncu --page raw` export of KERNELS kernels: the kernels of the real export at PATH repeated, each with
/// its own ID (what scripts/scale_inputs.sh writes).
std::string scaledNcuExport(const std::string &path, int kernels);

/// Counts, in one sequence, the replots and the paint events of the plots and labels it watches: a step of a
/// drag is over when every watched plot that replotted has painted since, and the events have run out.
class PaintWatch : public QObject
{
public:
    void watchPlot(QCustomPlot *plot);
    void watchLabel(QWidget *label) { label->installEventFilter(this); }
    std::uint64_t sequence() const { return m_sequence; }
    /// Every watched plot that replotted after FROM has painted after its replot.
    bool allPainted(std::uint64_t from) const;
    /// The plots that painted after FROM, and whether a watched label did.
    int plotsPaintedSince(std::uint64_t from) const;
    bool labelPaintedSince(std::uint64_t from) const { return m_labelPaintAt > from; }
    bool paintedSince(QObject *plot, std::uint64_t from) const { return m_paintAt.at(plot) > from; }
    /// How long each replot of PLOT took to draw its layers (QCustomPlot::replotTime; for a SteadyPlot, which
    /// draws them when it paints, its paint time as noted by drawTimesSince), from now on.
    const std::vector<double> &replotTimes(QObject *plot) { return m_replotMs[plot]; }
    /// Notes the paint time of each watched SteadyPlot that painted after FROM.
    void drawTimesSince(std::uint64_t from);
    void clearReplotTimes() { m_replotMs.clear(); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    std::map<QObject *, std::uint64_t> m_replotAt;
    std::map<QObject *, std::uint64_t> m_paintAt;
    std::map<QObject *, std::vector<double>> m_replotMs;
    std::vector<crossroof::widgets::SteadyPlot *> m_steady;
    std::uint64_t m_labelPaintAt = 0;
    std::uint64_t m_sequence = 0;
};

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
                     const std::vector<QCustomPlot *> &mustPaint, bool labels);

/// Watches every plot of WINDOW that shows on the screen, and the readout's labels that do (a widget scrolled
/// out of its pane paints nothing). Returns the plots with their view's name, and how many labels.
std::pair<std::vector<std::pair<QCustomPlot *, std::string>>, int> watchVisible(crossroof::app::MainWindow &window,
                                                                               PaintWatch &watch);

// The sections: each fills its keys of B.out and returns 0, or 1 when what it measures went wrong.
int benchXGraph(Bench &b);
int benchLinked(Bench &b, const std::string &key, bool withData, bool busy);
int benchOccupancy(Bench &b);
int benchMarkov(Bench &b);
int benchExport(Bench &b);
int benchScale(Bench &b);
int benchStability(Bench &b);
int benchImport(Bench &b);
int benchSkeleton(Bench &b);
int benchLiteral(Bench &b);
int benchModelTree(Bench &b);

} // namespace crossroof::bench
