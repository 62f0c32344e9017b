// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each view's settings in a session file, read and written (core/session only; session.cpp puts them together).

#include "core/markov/markov_settings.h"
#include "core/occupancy/occupancy_settings.h"
#include "core/roofline/roofline_settings.h"
#include "core/session/session.h"
#include "core/skeleton/skeleton_settings.h"
#include "core/support/json_reader.h"
#include "core/xmodel/stability_settings.h"

#include <nlohmann/json.hpp>

#include <array>
#include <vector>

namespace crossroof::core::detail {

/// The views a session names (Session::current_view, PlotZoom::view).
/// The GUI's view registry (app/gui/view_tabs.cpp) lists the same names in the same order, and checks it.
inline constexpr std::array kViews{"xgraph",    "stability", "occupancy",  "zigzag", "markov",  "mapping",
                                   "extrapolate", "bandwidth", "roofline", "prediction", "levels", "skeleton"};

/// Each reader refuses an unknown key or a value out of range with the field named through R, and gives the
/// default of each field left out.
OccupancySettings readOccupancy(const JsonReader &r, const json &obj);
TmmSettings readTmm(const JsonReader &r, const json &obj);
MarkovSettings readMarkov(const JsonReader &r, const json &obj);
MappingSettings readMapping(const JsonReader &r, const json &obj);
StabilitySettings readStability(const JsonReader &r, const json &obj);
RooflineSettings readRoofline(const JsonReader &r, const json &obj);
SkeletonSettings readSkeleton(const JsonReader &r, const json &obj);
/// The zoomed plots: [{"view", "plot", "x": [lower, upper], "y": [lower, upper]}].
std::vector<PlotZoom> readZoom(const JsonReader &r, const json &zoom);

/// Each as its session field holds it, keys in the order a person reads them.
nlohmann::ordered_json occupancyToJson(const OccupancySettings &o);
nlohmann::ordered_json tmmToJson(const TmmSettings &t);
nlohmann::ordered_json markovToJson(const MarkovSettings &m);
nlohmann::ordered_json mappingToJson(const MappingSettings &mapping);
nlohmann::ordered_json stabilityToJson(const StabilitySettings &st);
nlohmann::ordered_json rooflineToJson(const RooflineSettings &roofline);
nlohmann::ordered_json skeletonToJson(const SkeletonSettings &skeleton);
nlohmann::ordered_json zoomToJson(const std::vector<PlotZoom> &zoom);

} // namespace crossroof::core::detail
