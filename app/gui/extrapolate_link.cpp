// SPDX-License-Identifier: GPL-3.0-or-later
#include "extrapolate_link.h"

#include "view_tabs.h"

#include "markov/coloured_surface.h"
#include "markov/extrapolate_panel.h"
#include "markov/mapping_view.h"
#include "core/markov/markov.h"

#include <vector>

namespace crossroof::app {

void linkExtrapolationToMarkov(widgets::ExtrapolatePanel *extrapolate,
                               widgets::SettingsPart<core::MarkovSettings> *markov, ViewTabs *tabs)
{
    QObject::connect(extrapolate, &widgets::ExtrapolatePanel::sendToMarkov, markov,
                     [markov, tabs](int groups, int threadsPerGroup, double p, double q) {
                         core::MarkovSettings s = markov->settings();
                         s.groups = groups;
                         s.threads_per_group = threadsPerGroup;
                         s.topology_source.clear(); // groups x threads, not a profile's strategy
                         const std::vector<double> values = core::MarkovGrid::fromText(s.grid).values();
                         s.p_index = widgets::ColouredSurface::nearestIndex(values, p);
                         s.q_index = widgets::ColouredSurface::nearestIndex(values, q);
                         markov->setSettings(s);
                         tabs->showView(QStringLiteral("markov"));
                     });
}

void linkExtrapolationToMapping(widgets::ExtrapolatePanel *extrapolate, widgets::MappingView *mapping)
{
    const auto pass = [extrapolate, mapping] {
        std::vector<std::pair<std::string, std::vector<int>>> strategies;
        for (const core::MappingPrediction &row : mapping->predictions())
            strategies.emplace_back(row.strategy->id, row.usage.threads_per_cache);
        extrapolate->setMappingStrategies(strategies);
    };
    QObject::connect(mapping, &widgets::MappingView::settingsChanged, extrapolate, pass);
    pass();
}

} // namespace crossroof::app
