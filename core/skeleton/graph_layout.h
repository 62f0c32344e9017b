// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the dependency graph's nodes and edges go on a page (pure geometry, in pixels, y downwards): a
// layered (Sugiyama-style) layout. Each node in a layer one past its deepest producer (then as late as its
// consumers let it, so that a load stands just before its use); layers as columns, left to right. An edge
// that skips layers passes each layer between through a slot of its own (a dummy point), so that every piece
// of an edge runs either through the gap between two columns, where no box is, or straight across a column
// through its own slot (the edges from one node share its slots: a value with several later uses runs as one
// line that they branch off). Within a layer the nodes are ordered by the barycentre of their neighbours
// (fewer crossings), and placed as near their neighbours' heights as their order allows (straight chains).
// Where the layers do not fit the width side by side they wrap into bands, one under the other; an edge from
// one band to the next leaves its band on the right, runs back under it and enters the next band from the
// left, each on a track of its own. The number of bands is the one at which the graph fits its room at the
// largest scale.

#include <utility>
#include <vector>

namespace crossroof::core {

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

struct GraphLayoutInput {
    int node_count = 0;
    /// (from, to) node indices; the graph must be acyclic (a dependency graph's edges run forward in the
    /// body).
    std::vector<std::pair<int, int>> edges;
    double node_width = 40; ///< every node's box, pixels (the widest label's)
    double node_height = 14;
    double width = 400; ///< the room, pixels
    double height = 300; ///< 0: as high as the graph needs at the least gaps, wrapped to fit the width
    double column_gap
            = 16; ///< the least gap between two columns, where the edges run and their arrow heads go
    double row_gap = 4; ///< the least gap between two boxes (or a box and an edge's slot) in one column
    double track = 3; ///< between two edges running side by side (slots, and from one band to the next)
};

struct GraphLayout {
    std::vector<int> layer; ///< per node: its layer (0 for an entry node)
    std::vector<LayoutPoint> centre; ///< per node: its box's centre
    /// Per edge: the polyline from the right side of its source's box to the left side of its target's (where
    /// the arrow head goes), every piece clear of every other box.
    std::vector<std::vector<LayoutPoint>> routes;
    int bands = 1;
    int layers_per_band = 1;
    /// The width and height the layout takes: the room's, or more where the graph does not fit it (fits
    /// false).
    double width = 0;
    double height = 0;
    bool fits = true;
};

/// The layout of IN's graph in IN's room (see above): within [0, width] x [0, height] of the room when it
/// fits, spread over the room; else at the least gaps, larger than the room.
GraphLayout layOutGraph(const GraphLayoutInput &in);

} // namespace crossroof::core
