// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the session tests share: a sample session, its text with other traces, the test data, a parse's error.

#include "core/support/error.h"
#include "core/modeltree/training_set.h"
#include "core/support/text_file.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "core/traces/trace_import.h"
#include "core/xmodel/advisor.h"
#include "core/xmodel/hysteresis.h"
#include "core/xmodel/measured_curve.h"
#include "core/xmodel/xmodel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace crossroof::session_test {

inline core::Session sample()
{
    core::Session s;
    s.profile = *core::findBundledProfile("v100");
    s.params = s.profile.params;
    s.params.Z = 3.25;
    s.params.n = 17;
    s.params.cache = core::CacheMode::Locality;
    s.params.alpha = 2.5;
    s.current_view = "markov";
    s.occupancy.cc = "7.0";
    s.occupancy.threads_per_block = 192;
    s.occupancy.regs_per_thread = 40;
    s.occupancy.smem_per_block = 4096;
    s.occupancy.smem_config = 65536;
    s.occupancy.mode = "paper";
    s.occupancy.linked = true;
    s.occupancy.manual_active_blocks = 3;
    s.occupancy.sm_count = 80;
    s.occupancy.requested_blocks_max = 500;
    s.tmm.work = "2.5e9";
    s.tmm.span = "1000";
    s.tmm.transactions = "3e7";
    s.tmm.latency = "350";
    s.tmm.threads_per_core = "4";
    s.tmm.cores = "";   // cleared by the user: kept as typed
    s.tmm.requested_blocks = "4x"; // not a number yet: kept as typed too
    s.tmm.apsp_vertices = 4096;
    s.tmm.apsp_sub_block = 64;
    s.tmm.apsp_chunk = "16";
    s.markov.groups = 8;
    s.markov.threads_per_group = 4;
    s.markov.grid = "logit:200";
    s.markov.steps = 25;
    s.markov.p_index = 3;
    s.markov.q_index = 190;
    s.markov.measured_cpi = 7.5;
    s.markov.topology_source = "clovertown-x5365/4T_4";
    s.markov.counters = core::CounterInputs::thesisExample();
    s.markov.counters->measured_cpi = 2.25;
    s.markov.counters->stall[1].latency = 1.0 / 3 + 4; // doubles survive exactly
    s.mapping.profile_id = "clovertown-x5365";
    s.mapping.p = 0.3;
    s.mapping.q = 0.95;
    s.mapping.points = {{"2T_2", 0.4, 0.99}, {"8T_1", 0.05, 0.5}};
    s.mapping.own_strategies = {{"pairs", {0, 0, 4, 4}}};
    s.stability.x_key = "S_s";
    s.stability.y_key = "beta";
    s.stability.resolution = 64;
    s.stability.sweep_key = "Z";
    s.stability.sweep_shows_k = true;
    s.roofline.names = false;
    s.roofline.levels = false;
    s.skeleton.text = "def k\n  for i = 0:8\n    ld x[i]\n    fp y: x, y\n";
    s.skeleton.profile_id = "epyc-9654";
    s.skeleton.unroll = 8;
    s.skeleton.measured = {{1, 1.5e6}, {8, 410000.25}};
    core::MeasuredTrace t;
    t.id = "t1";
    t.name = "v100 init";
    t.source = "/data/stream_vs_warps_per_sm.csv";
    t.x = {2, 4, 8, 16};
    t.y = {153, 306, 595, 895};
    t.visible = false;
    s.traces.push_back(t);
    return s;
}

inline const QString kTestData = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data");
inline const QString kTraining = QStringLiteral(CROSSROOF_SOURCE_DIR "/docs/samples/modeltree-training.csv");

/// Whether A and B hold the same training runs, row by row, with their file and columns.
inline bool sameTraining(const core::TrainingSet &a, const core::TrainingSet &b)
{
    const auto sameRow = [](const core::TrainingRow &x, const core::TrainingRow &y) {
        return x.size == y.size && x.iteration == y.iteration && x.num_l2 == y.num_l2
               && x.threads_per_l2 == y.threads_per_l2 && x.strategy == y.strategy && x.states == y.states
               && x.p == y.p && x.q == y.q && x.line == y.line;
    };
    return a.source == b.source && a.columns.p == b.columns.p && a.columns.size == b.columns.size
           && std::equal(a.rows.begin(), a.rows.end(), b.rows.begin(), b.rows.end(), sameRow);
}

inline void writeFile(const QString &path, const std::string &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

/// A session whose traces field is TRACES (JSON text), for linked-trace records.
inline std::string withTraces(const std::string &traces)
{
    core::Session s = sample();
    s.traces.clear();
    std::string text = core::sessionToJson(s);
    const std::string empty = "\"traces\": []";
    text.replace(text.find(empty), empty.size(), "\"traces\": " + traces);
    return text;
}

inline QString errorOf(const std::string &text)
{
    try {
        core::parseSession(text, "s.crossroof");
    } catch (const core::InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace crossroof::session_test
