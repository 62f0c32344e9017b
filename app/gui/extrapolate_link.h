// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/settings_part.h"
#include "core/markov/markov_settings.h"

namespace crossroof::widgets {
class ExtrapolatePanel;
class MappingView;
} // namespace crossroof::widgets

namespace crossroof::app {

class ViewTabs;

/// "Send to Markov surface" of the EXTRAPOLATE panel: the document's Markov inputs take the strategy's cache
/// groups and the grid point nearest its predicted (p, q) in one change (one undo step), and the Markov view
/// comes to the front in TABS.
void linkExtrapolationToMarkov(widgets::ExtrapolatePanel *extrapolate,
                               widgets::SettingsPart<core::MarkovSettings> *markov, ViewTabs *tabs);

/// The Mapping view's strategies (its CPU profile's, and the user's) name the training strategies with the same
/// Markov model in the Extrapolate view's ranking.
void linkExtrapolationToMapping(widgets::ExtrapolatePanel *extrapolate, widgets::MappingView *mapping);

} // namespace crossroof::app
