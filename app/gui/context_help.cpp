// SPDX-License-Identifier: GPL-3.0-or-later
#include "context_help.h"

#include "control_help.h"
#include "help_menu.h"
#include "view_tabs.h"

#include <QScrollArea>

#include <QCoreApplication>

namespace crossroof::app {

QString contextHelpText(const QString &part)
{
    struct Entry
    {
        const char *part;
        const char *text;
    };
    static constexpr Entry kTexts[] = {
        {"xgraph",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "X-graph: the memory system's supply f(k) against the compute side's demand G(n−k) = g(x)/Z, "
           "k warps in memory and x = n − k computing. Where they cross the machine is in balance: filled "
           "dots are stable, hollow ones unstable, the ringed one is the operating point a cold start "
           "reaches. δ = R·L and π = M·L_c/E mark where each side saturates; arrows show which way the "
           "warps flow.")},
        {"stability",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Stability: the number of stable states over two parameters (orange: bistable), the hysteresis "
           "of a sweep up and down (where the branches part, the machine remembers where it came from), "
           "and the what-if advisor: the case study's tuning operations ranked by predicted gain, counted "
           "from the low state where the machine is bistable. Drag the point to set both parameters.")},
        {"occupancy",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Occupancy: active blocks per SM, B_a, limited by warps, registers, shared memory and the "
           "block limit of the compute capability, and how it changes with each input.")},
        {"zigzag",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Zigzag: the scheduling factor against the blocks requested, the passes an uneven grid "
           "needs over the SMs, with the TMM runtime model and measured runtimes when imported.")},
        {"markov",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Markov CPI: cycles per instruction over p (a thread suspends) and q (it stays suspended) "
           "for the chosen cache topology, steady state or after some steps; click to choose the slice "
           "below, enter a measured CPI to draw the (p, q) that predict it.")},
        {"mapping",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Mapping: the thread-to-core strategies of a CPU side by side, each one's CPI from its own "
           "(p, q) or the common one; edit p and q in the table to enter measured values.")},
        {"extrapolate",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Extrapolate: model trees (M5') trained on runs at small sizes predict p, q and so the CPI of "
           "every strategy at a larger size; the ranking can be sent to the Markov surface.")},
        {"bandwidth",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Bandwidth: sorted bandwidth-demand curves from memory-controller counts, the share of the "
           "time above a limit B and the slowdown an interval with demand d suffers, max(1, d/B).")},
        {"roofline",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Roofline: Nsight Compute kernels at their instructions per DRAM byte against the memory and "
           "compute ceilings of the profile, with the X-model's operating point.")},
        {"prediction",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Prediction: each Nsight Compute kernel's predicted DRAM throughput (from its own counters and "
           "the current machine) against what it measured, with y = x, ±10/20 % bands and the mean "
           "accuracy beside two rooflines'.")},
        {"levels",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Memory Levels: gpu-benches' pointer chase (cycles per dependent load) and cache sweeps (GB/s) "
           "against the footprint, over the levels the parameters give (L_s, L_2, L; R_l1, R_l2, R_dram, "
           "stepping at S_s and S_2 × SMs), and each measured level beside the model's value.")},
        {"skeleton",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Code Skeleton: a loop nest's statements scheduled on a CPU core model: dependency graph and "
           "critical path, schedule by pipeline, cycles against the unroll factor; the result can set the "
           "X-graph's Z and E.")},
        {"readout",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Readout: the operating point (throughputs, bound, warps in each system, margin before it can "
           "tip), every equilibrium, the landmarks and the machine's metrics, as numbers.")},
        {"traces",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Traces: measured files imported (gpu-benches, Nsight Compute, perf stat, any table), shown "
           "on the X-graph or the zigzag; Fit… calibrates the model to the selected one.")},
        {"kernels",
         QT_TRANSLATE_NOOP("crossroof::app::ContextHelp",
           "Kernels: an Nsight Compute export's kernels with their achieved warps per SM, DRAM "
           "throughput and the X-model's prediction at that n, and its error.")},
    };
    for (const Entry &entry : kTexts) {
        if (part == QLatin1String(entry.part))
            return QCoreApplication::translate("crossroof::app::ContextHelp", entry.text);
    }
    return {};
}

void addContextHelp(ViewTabs *tabs, const QList<QPair<QString, QWidget *>> &docks)
{
    for (const QString &view : ViewTabs::names()) {
        QWidget *widget = tabs->scrollArea(view)->widget();
        setContextHelp(widget, contextHelpText(view));
        addControlHelp(widget, view);
    }
    for (const auto &[part, widget] : docks) {
        if (const QString text = contextHelpText(part); !text.isEmpty())
            setContextHelp(widget, text);
        addControlHelp(widget, part);
    }
}

} // namespace crossroof::app
