// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace crossroof::widgets {
class ExtrapolatePanel;
class MarkovView;
} // namespace crossroof::widgets

namespace crossroof::app {

class ViewTabs;

/// "Send to Markov surface" of the EXTRAPOLATE panel: the Markov view takes the strategy's cache groups and
/// the grid point nearest its predicted (p, q) in one change of its inputs (one undo step), and comes to the
/// front in TABS.
void linkExtrapolationToMarkov(widgets::ExtrapolatePanel *extrapolate, widgets::MarkovView *markov,
                               ViewTabs *tabs);

} // namespace crossroof::app
