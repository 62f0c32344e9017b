// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/graph_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace crossroof::core {

namespace {

/// A place in a layer: a node's box, or the slot an edge passes a layer through (no height of its own).
struct Item {
    int node = -1; ///< -1 for an edge's slot
    int layer = 0;
    double height = 0;
    double y = 0; ///< its centre, in its layer's frame
};

struct Layered {
    std::vector<Item> items; ///< the nodes first (item k is node k), then the slots
    std::vector<std::vector<int>> order; ///< per layer, items top to bottom
    std::vector<std::vector<int>> chain; ///< per edge: its items, source first
    std::vector<std::vector<int>> before, after; ///< per item: its neighbours in the layers before and after
    std::vector<int> pos; ///< per item: its index in its layer's order
};

/// Layer one past the deepest producer, then as late as the consumers let it (edges run forward in index).
std::vector<int> assignLayers(const GraphLayoutInput &in)
{
    std::vector<int> layer(std::size_t(in.node_count), 0);
    std::vector<std::vector<int>> out(layer.size()), into(layer.size());
    for (const auto &[from, to] : in.edges) {
        if (from < 0 || to >= in.node_count || from >= to)
            throw std::invalid_argument("layOutGraph: an edge must run from a node to a later one");
        out[std::size_t(from)].push_back(to);
        into[std::size_t(to)].push_back(from);
    }
    for (std::size_t k = 0; k < layer.size(); ++k)
        for (int from : into[k])
            layer[k] = std::max(layer[k], layer[std::size_t(from)] + 1);
    for (std::size_t k = layer.size(); k-- > 0;) {
        if (out[k].empty())
            continue;
        int latest = std::numeric_limits<int>::max();
        for (int to : out[k])
            latest = std::min(latest, layer[std::size_t(to)] - 1);
        layer[k] = std::max(layer[k], latest);
    }
    return layer;
}

Layered buildLayers(const GraphLayoutInput &in, const std::vector<int> &layer)
{
    Layered g;
    const int layers = layer.empty() ? 0 : *std::max_element(layer.begin(), layer.end()) + 1;
    g.order.resize(std::size_t(layers));
    for (int k = 0; k < in.node_count; ++k)
        g.items.push_back({k, layer[std::size_t(k)], in.node_height, 0});
    g.chain.resize(in.edges.size());
    // Each layer in body order, an edge's slot just after its source's place (a first guess the sweeps
    // improve on).
    std::vector<std::vector<std::pair<double, int>>> keyed(g.order.size());
    for (int k = 0; k < in.node_count; ++k)
        keyed[std::size_t(layer[std::size_t(k)])].push_back({k, k});
    // The edges from one node share its slot in each layer they pass, as far as each goes: a value used by
    // several later statements runs as one line that its uses branch off.
    std::map<std::pair<int, int>, int> slots; // (source, layer) -> item
    for (std::size_t e = 0; e < in.edges.size(); ++e) {
        const auto [from, to] = in.edges[e];
        g.chain[e].push_back(from);
        for (int l = layer[std::size_t(from)] + 1; l < layer[std::size_t(to)]; ++l) {
            const auto [at, fresh] = slots.try_emplace({from, l}, int(g.items.size()));
            if (fresh) {
                g.items.push_back({-1, l, 0, 0});
                keyed[std::size_t(l)].push_back({from + 0.5, at->second});
            }
            g.chain[e].push_back(at->second);
        }
        g.chain[e].push_back(to);
    }
    g.before.resize(g.items.size());
    g.after.resize(g.items.size());
    for (const std::vector<int> &c : g.chain) {
        for (std::size_t i = 1; i < c.size(); ++i) {
            std::vector<int> &after = g.after[std::size_t(c[i - 1])];
            if (std::find(after.begin(), after.end(), c[i]) == after.end()) { // a shared piece once
                after.push_back(c[i]);
                g.before[std::size_t(c[i])].push_back(c[i - 1]);
            }
        }
    }
    g.pos.resize(g.items.size());
    for (std::size_t l = 0; l < keyed.size(); ++l) {
        std::stable_sort(keyed[l].begin(), keyed[l].end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &[key, item] : keyed[l]) {
            g.pos[std::size_t(item)] = int(g.order[l].size());
            g.order[l].push_back(item);
        }
    }
    return g;
}

/// How many pairs of edge pieces between adjacent layers cross (in the order of the layers, bands aside).
long crossings(const Layered &g)
{
    long total = 0;
    for (std::size_t l = 0; l + 1 < g.order.size(); ++l) {
        std::vector<std::pair<int, int>> pieces;
        for (int a : g.order[l])
            for (int b : g.after[std::size_t(a)])
                pieces.push_back({g.pos[std::size_t(a)], g.pos[std::size_t(b)]});
        std::sort(pieces.begin(), pieces.end());
        // Inversions of the lower ends, counted with a Fenwick tree over the next layer's places.
        std::vector<int> tree(g.order[l + 1].size() + 1, 0);
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            int below = 0; // pieces so far that end at or above this one's end
            for (int j = pieces[i].second + 1; j > 0; j -= j & -j)
                below += tree[std::size_t(j)];
            total += long(i) - below;
            for (std::size_t j = std::size_t(pieces[i].second) + 1; j < tree.size(); j += j & -j)
                ++tree[j];
        }
    }
    return total;
}

/// Each layer ordered by the mean place of its items' neighbours in the layer before (DOWN) or after.
void orderSweep(Layered &g, bool down)
{
    const int layers = int(g.order.size());
    for (int i = 1; i < layers; ++i) {
        const std::size_t l = std::size_t(down ? i : layers - 1 - i);
        std::vector<std::pair<double, int>> keyed;
        for (int item : g.order[l]) {
            const std::vector<int> &near = down ? g.before[std::size_t(item)] : g.after[std::size_t(item)];
            double key = g.pos[std::size_t(item)];
            if (!near.empty()) {
                key = 0;
                for (int n : near)
                    key += g.pos[std::size_t(n)];
                key /= double(near.size());
            }
            keyed.push_back({key, item});
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        for (std::size_t j = 0; j < keyed.size(); ++j) {
            g.order[l][j] = keyed[j].second;
            g.pos[std::size_t(keyed[j].second)] = int(j);
        }
    }
}

/// Centres nearest WANT (least squares) in their order, each at least SEP[j] below the one before, the first
/// no higher than FIRST and the last no lower than LAST: the pool adjacent violators algorithm on the centres
/// less the least offsets, clipped to the window.
std::vector<double> placeInOrder(const std::vector<double> &want, const std::vector<double> &sep,
                                 double first, double last)
{
    std::vector<double> offset(want.size(), 0);
    for (std::size_t j = 1; j < want.size(); ++j)
        offset[j] = offset[j - 1] + sep[j - 1];
    struct Block {
        double sum;
        int count;
        double mean() const { return sum / count; }
    };
    std::vector<Block> blocks;
    for (std::size_t j = 0; j < want.size(); ++j) {
        blocks.push_back({want[j] - offset[j], 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            blocks[blocks.size() - 2].sum += blocks.back().sum;
            blocks[blocks.size() - 2].count += blocks.back().count;
            blocks.pop_back();
        }
    }
    const double lowest = last - offset.back();
    std::vector<double> y;
    for (const Block &b : blocks)
        for (int i = 0; i < b.count; ++i)
            y.push_back(std::clamp(b.mean(), first, std::max(first, lowest)) + offset[y.size()]);
    return y;
}

/// Each item's height in its layer (two slots a track apart, anything else ROW_GAP): as near its neighbours'
/// as the order and the gaps allow, within the height of the tallest layer stacked (so that straightening the
/// chains makes no band taller).
void placeHeights(Layered &g, double rowGap, double track)
{
    const auto separations = [&](const std::vector<int> &order) {
        std::vector<double> sep;
        for (std::size_t j = 1; j < order.size(); ++j) {
            const Item &a = g.items[std::size_t(order[j - 1])];
            const Item &b = g.items[std::size_t(order[j])];
            sep.push_back(a.node < 0 && b.node < 0 ? track : (a.height + b.height) / 2 + rowGap);
        }
        return sep;
    };
    const auto span = [&](const std::vector<int> &order) {
        const std::vector<double> sep = separations(order);
        return g.items[std::size_t(order.front())].height / 2 + g.items[std::size_t(order.back())].height / 2
               + std::accumulate(sep.begin(), sep.end(), 0.0);
    };
    double tallest = 0;
    for (const std::vector<int> &order : g.order)
        tallest = std::max(tallest, span(order));
    for (const std::vector<int> &order : g.order) {
        const std::vector<double> sep = separations(order);
        double y = (g.items[std::size_t(order.front())].height - span(order)) / 2;
        for (std::size_t j = 0; j < order.size(); ++j) {
            y += j ? sep[j - 1] : 0;
            g.items[std::size_t(order[j])].y = y;
        }
    }
    const int layers = int(g.order.size());
    for (int round = 0; round < 8; ++round) {
        const bool down = round % 2 == 0;
        for (int i = 1; i < layers; ++i) {
            const std::vector<int> &order = g.order[std::size_t(down ? i : layers - 1 - i)];
            std::vector<double> want;
            for (int item : order) {
                const std::vector<int> &near
                        = down ? g.before[std::size_t(item)] : g.after[std::size_t(item)];
                double y = g.items[std::size_t(item)].y;
                if (!near.empty()) {
                    y = 0;
                    for (int n : near)
                        y += g.items[std::size_t(n)].y;
                    y /= double(near.size());
                }
                want.push_back(y);
            }
            const std::vector<double> y = placeInOrder(
                    want, separations(order), (g.items[std::size_t(order.front())].height - tallest) / 2,
                    (tallest - g.items[std::size_t(order.back())].height) / 2);
            for (std::size_t j = 0; j < order.size(); ++j)
                g.items[std::size_t(order[j])].y = y[j];
        }
    }
}

/// The geometry of one way of wrapping the layers: LAYERS_PER_BAND columns a band.
struct Wrap {
    int perBand = 1;
    int bands = 1;
    std::vector<int> pieces; ///< per break between bands: the edge pieces that cross it
    double side = 0; ///< the margin left and right of the columns (with the channels)
    std::vector<double> gap; ///< per break: the room between the bands
    double width = 0; ///< at the least column gap
    double height = 0;
};

} // namespace

GraphLayout layOutGraph(const GraphLayoutInput &in)
{
    GraphLayout out;
    out.width = in.width;
    out.height = in.height;
    out.layer = assignLayers(in);
    if (in.node_count == 0)
        return out;
    Layered g = buildLayers(in, out.layer);
    long fewest = crossings(g);
    std::vector<std::vector<int>> best = g.order;
    for (int sweep = 0; sweep < 8 && fewest > 0; ++sweep) {
        orderSweep(g, sweep % 2 == 0);
        const long now = crossings(g);
        if (now < fewest) {
            fewest = now;
            best = g.order;
        }
    }
    g.order = best;
    for (const std::vector<int> &order : g.order)
        for (std::size_t j = 0; j < order.size(); ++j)
            g.pos[std::size_t(order[j])] = int(j);
    placeHeights(g, in.row_gap, in.track);

    const int layers = int(g.order.size());
    std::vector<double> top(std::size_t(layers), std::numeric_limits<double>::max());
    std::vector<double> bottom(std::size_t(layers), std::numeric_limits<double>::lowest());
    std::vector<int> piecesAfter(std::size_t(layers), 0);
    for (std::size_t i = 0; i < g.items.size(); ++i) {
        const Item &item = g.items[i];
        top[std::size_t(item.layer)] = std::min(top[std::size_t(item.layer)], item.y - item.height / 2);
        bottom[std::size_t(item.layer)] = std::max(bottom[std::size_t(item.layer)], item.y + item.height / 2);
        piecesAfter[std::size_t(item.layer)] += int(g.after[i].size());
    }
    const double margin = in.row_gap;
    const auto bandSpan = [&](int perBand, int band) {
        double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
        for (int l = band * perBand; l < std::min(layers, (band + 1) * perBand); ++l) {
            lo = std::min(lo, top[std::size_t(l)]);
            hi = std::max(hi, bottom[std::size_t(l)]);
        }
        return std::make_pair(lo, hi);
    };
    const auto wrap = [&](int perBand) {
        Wrap w;
        w.perBand = perBand;
        w.bands = (layers + perBand - 1) / perBand;
        int most = 0;
        for (int b = 0; b + 1 < w.bands; ++b) {
            w.pieces.push_back(piecesAfter[std::size_t((b + 1) * perBand - 1)]);
            most = std::max(most, w.pieces.back());
            w.gap.push_back(2 * in.row_gap + (w.pieces.back() + 1) * in.track);
        }
        w.side = margin + (w.bands > 1 ? (most + 1) * in.track : 0.0);
        w.width = 2 * w.side + perBand * in.node_width + (perBand - 1) * in.column_gap;
        w.height = 2 * margin;
        for (int b = 0; b < w.bands; ++b) {
            const auto [lo, hi] = bandSpan(perBand, b);
            w.height += hi - lo + (b + 1 < w.bands ? w.gap[std::size_t(b)] : 0.0);
        }
        return w;
    };
    // The wrap that fits the room at the largest scale, the fewest bands where several fit it whole.
    const double roomHeight = in.height > 0 ? in.height : std::numeric_limits<double>::infinity();
    Wrap chosen = wrap(layers);
    double bestScale = std::min({1.0, in.width / chosen.width, roomHeight / chosen.height});
    for (int bands = 2; bands <= layers; ++bands) {
        const int perBand = (layers + bands - 1) / bands;
        if (perBand == chosen.perBand || (layers + perBand - 1) / perBand != bands)
            continue;
        const Wrap w = wrap(perBand);
        const double scale = std::min({1.0, in.width / w.width, roomHeight / w.height});
        if (scale > bestScale + 1e-9) {
            bestScale = scale;
            chosen = w;
        }
    }
    out.bands = chosen.bands;
    out.layers_per_band = chosen.perBand;
    out.fits = chosen.width <= in.width + 1e-9 && chosen.height <= roomHeight + 1e-9;
    out.width = std::max(in.width, chosen.width);
    // Spread over the room: the columns across its width (one column in its middle), every height scaled to
    // its height (the boxes keep their size, so the gaps only grow).
    const int columns = chosen.perBand;
    const double columnGap
            = columns > 1 ? std::max(in.column_gap,
                                     (out.width - 2 * chosen.side - columns * in.node_width) / (columns - 1))
                          : in.column_gap;
    const double left = columns > 1 ? chosen.side : std::max(chosen.side, (out.width - in.node_width) / 2);
    const auto columnX
            = [&](int l) { return left + in.node_width / 2 + (l % columns) * (in.node_width + columnGap); };
    const double scale = in.height > chosen.height ? in.height / chosen.height : 1.0;
    out.height = std::max(in.height, chosen.height);
    std::vector<double> shift(std::size_t(chosen.bands)); // a band's frame to the page's (unscaled)
    std::vector<double> bandBottom(std::size_t(chosen.bands));
    double y = margin;
    for (int b = 0; b < chosen.bands; ++b) {
        const auto [lo, hi] = bandSpan(columns, b);
        shift[std::size_t(b)] = y - lo;
        bandBottom[std::size_t(b)] = y + hi - lo;
        y = bandBottom[std::size_t(b)] + (b + 1 < chosen.bands ? chosen.gap[std::size_t(b)] : 0.0);
    }
    const auto itemY = [&](int item) {
        const Item &it = g.items[std::size_t(item)];
        return it.y + shift[std::size_t(it.layer / columns)];
    };
    out.centre.resize(std::size_t(in.node_count));
    for (int k = 0; k < in.node_count; ++k)
        out.centre[std::size_t(k)] = {columnX(out.layer[std::size_t(k)]), itemY(k) * scale};
    // The pieces that cross each break, ranked by the heights they leave at (then arrive at): the highest
    // runs furthest out on the right, lowest under the band and innermost on the left, so that the tracks of
    // one break cross as little as the order of their ends allows.
    std::vector<std::vector<std::pair<int, int>>> crossing(std::size_t(std::max(0, chosen.bands - 1)));
    for (const std::vector<int> &c : g.chain)
        for (std::size_t i = 1; i < c.size(); ++i) {
            const int l = g.items[std::size_t(c[i - 1])].layer;
            if (l / columns != (l + 1) / columns)
                crossing[std::size_t(l / columns)].push_back({c[i - 1], c[i]});
        }
    for (auto &pieces : crossing) {
        std::sort(pieces.begin(), pieces.end(), [&](const auto &a, const auto &b) {
            return std::make_tuple(itemY(a.first), itemY(a.second), a)
                   < std::make_tuple(itemY(b.first), itemY(b.second), b);
        });
        pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end()); // a shared piece one track
    }
    const double half = in.node_width / 2;
    out.routes.resize(in.edges.size());
    for (std::size_t e = 0; e < in.edges.size(); ++e) {
        const std::vector<int> &c = g.chain[e];
        std::vector<LayoutPoint> &route = out.routes[e];
        route.push_back({columnX(g.items[std::size_t(c[0])].layer) + half, itemY(c[0])});
        for (std::size_t i = 1; i < c.size(); ++i) {
            const int l = g.items[std::size_t(c[i])].layer;
            const double x = columnX(l);
            const double yTo = itemY(c[i]);
            if ((l - 1) / columns != l / columns) {
                const int b = (l - 1) / columns;
                const auto &pieces = crossing[std::size_t(b)];
                const int n = int(pieces.size());
                const int r = int(std::find(pieces.begin(), pieces.end(), std::make_pair(c[i - 1], c[i]))
                                  - pieces.begin());
                const double right = columnX(columns - 1) + half + (n - r) * in.track;
                const double under = bandBottom[std::size_t(b)] + in.row_gap + (n - r) * in.track;
                const double leftTrack = x - half - (r + 1) * in.track;
                const double yFrom = route.back().y;
                route.push_back({right, yFrom});
                route.push_back({right, under});
                route.push_back({leftTrack, under});
                route.push_back({leftTrack, yTo});
            }
            route.push_back({x - half, yTo});
            if (g.items[std::size_t(c[i])].node < 0) // through its slot to the next gap
                route.push_back({x + half, yTo});
        }
        for (LayoutPoint &p : route)
            p.y *= scale;
    }
    return out;
}

} // namespace crossroof::core
