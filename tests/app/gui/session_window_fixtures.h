// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the session window tests share: a window with every part of the analysis changed.

#include "main_window.h"
#include "common/parameter_state.h"
#include "core/modeltree/training_set.h"
#include "core/profiles/profile_library.h"
#include "markov/extrapolate_panel.h"
#include "markov/mapping_view.h"
#include "markov/markov_view.h"
#include "skeleton/skeleton_view.h"
#include "stability/stability_view.h"
#include "state/occupancy_state.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"
#include "zigzag/zigzag_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

namespace crossroof::session_window_test {

/// Changes something in every part of the analysis.
inline void editEverything(app::MainWindow &w)
{
    w.state()->applyProfile(*core::findBundledProfile("a100-40"));
    w.state()->applyValue(QStringLiteral("Z"), 5.5);
    w.state()->applyCacheMode(core::CacheMode::Fixed);
    w.state()->applyValue(QStringLiteral("h"), 0.375);
    w.occupancyState()->setThreadsPerBlock(384);
    w.occupancyState()->setRegistersPerThread(48);
    w.occupancyState()->setMode(core::OccupancyMode::Paper);
    w.zigzagView()->workEdit()->setText(QStringLiteral("3.5e9"));
    w.zigzagView()->threadsEdit()->setText(QStringLiteral("8"));
    w.zigzagView()->coresEdit()->setText(QStringLiteral("96x")); // a typo is kept as typed
    core::MarkovSettings m = w.markovView()->settings();
    m.groups = 8;
    m.threads_per_group = 3;
    m.grid = "uniform:100";
    m.steps = 12;
    m.p_index = 40;
    m.q_index = 77;
    m.topology_source = "clovertown-x5365/8T_2";
    m.counters = core::CounterInputs::thesisExample();
    m.counters->instructions = 60;
    w.markovView()->setSettings(m);
    core::MappingSettings mapping;
    mapping.q = 0.75;
    mapping.points = {{"4T_4", 0.25, 0.95}};
    w.mappingView()->setSettings(mapping);
    core::StabilitySettings st;
    st.y_key = "E";
    st.sweep_key = "Z";
    st.sweep_shows_k = true;
    w.stabilityView()->setSettings(st);
    w.skeletonView()->loadSample(QStringLiteral("nekbone-glsc3i.skel"));
    w.skeletonView()->setProfile(QStringLiteral("epyc-9654"));
    w.skeletonView()->setUnroll(6);
    QCOMPARE(w.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")),
             QString());
    QVERIFY(!w.traceState()->traces().empty());
    w.showView(QStringLiteral("zigzag"));
}

const QString kNcuH100 = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
const QString kStreamV100 = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt");

} // namespace crossroof::session_window_test
