// SPDX-License-Identifier: GPL-3.0-or-later
// The layered layout of a dependency graph (core/skeleton/graph_layout.h) on hand-worked graphs and on the
// HACCmk sample: layers that respect the dependencies, an order that uncrosses what body order crosses, no
// edge behind a box it does not end at, and a graph that wraps into bands to fit a single column's width.
#include "core/skeleton/bundled_skeletons.h"
#include "core/skeleton/dependency_graph.h"
#include "core/skeleton/graph_layout.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace crossroof;

namespace {

struct Box {
    double left, top, right, bottom;
};

Box boxOf(const core::GraphLayout &layout, const core::GraphLayoutInput &in, int node)
{
    const core::LayoutPoint c = layout.centre[std::size_t(node)];
    return {c.x - in.node_width / 2, c.y - in.node_height / 2, c.x + in.node_width / 2,
            c.y + in.node_height / 2};
}

/// Whether the segment A-B passes through the inside of BOX (less half a pixel a side): Liang-Barsky
/// clipping.
bool entersBox(core::LayoutPoint a, core::LayoutPoint b, Box box)
{
    box = {box.left + 0.5, box.top + 0.5, box.right - 0.5, box.bottom - 0.5};
    double t0 = 0, t1 = 1;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x - box.left, box.right - a.x, a.y - box.top, box.bottom - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    return t0 < t1;
}

/// Every way the layout is wrong, one line each: an edge piece through a box other than its ends', two boxes
/// that overlap, a box off the room, an edge into an earlier or the same layer.
QStringList problems(const core::GraphLayout &layout, const core::GraphLayoutInput &in)
{
    QStringList out;
    for (std::size_t e = 0; e < in.edges.size(); ++e) {
        const auto [from, to] = in.edges[e];
        if (layout.layer[std::size_t(to)] <= layout.layer[std::size_t(from)])
            out << QStringLiteral("edge %1->%2 does not go to a later layer").arg(from).arg(to);
        const std::vector<core::LayoutPoint> &route = layout.routes[e];
        if (route.size() < 2)
            out << QStringLiteral("edge %1->%2 has no route").arg(from).arg(to);
        for (std::size_t i = 1; i < route.size(); ++i)
            for (int k = 0; k < in.node_count; ++k)
                if (k != from && k != to && entersBox(route[i - 1], route[i], boxOf(layout, in, k)))
                    out << QStringLiteral("edge %1->%2 runs behind node %3").arg(from).arg(to).arg(k);
    }
    for (int a = 0; a < in.node_count; ++a) {
        const Box p = boxOf(layout, in, a);
        if (p.left < 0 || p.top < 0 || p.right > in.width || p.bottom > in.height)
            out << QStringLiteral("node %1 leaves the room").arg(a);
        for (int b = a + 1; b < in.node_count; ++b) {
            const Box q = boxOf(layout, in, b);
            if (std::min(p.right, q.right) > std::max(p.left, q.left)
                && std::min(p.bottom, q.bottom) > std::max(p.top, q.top))
                out << QStringLiteral("nodes %1 and %2 overlap").arg(a).arg(b);
        }
    }
    return out;
}

core::GraphLayoutInput chain(int nodes, double width, double height)
{
    core::GraphLayoutInput in;
    in.node_count = nodes;
    for (int k = 1; k < nodes; ++k)
        in.edges.push_back({k - 1, k});
    in.node_width = 20;
    in.node_height = 12;
    in.width = width;
    in.height = height;
    return in;
}

} // namespace

class TestGraphLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layersRespectDependencies()
    {
        // a(0) and b(1) feed c(3), c feeds d(4), a feeds d too, e(2) feeds d: layers by the longest path
        // from an entry (a 0, b 0, e 0, c 1, d 2), then each as late as its consumers let it: e just before d
        // (1), a stays at 0 (c needs it at 1).
        core::GraphLayoutInput in;
        in.node_count = 5;
        in.edges = {{0, 3}, {1, 3}, {3, 4}, {0, 4}, {2, 4}};
        const core::GraphLayout layout = core::layOutGraph(in);
        QCOMPARE(layout.layer, (std::vector<int> {0, 0, 1, 1, 2}));
        const QStringList wrong = problems(layout, in);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    void aLongEdgeGoesAroundTheNodeBetween()
    {
        // a -> b -> c and a -> c: in one row a straight a-c line would pass behind b. It passes b's layer
        // through a slot of its own, above or below b's box.
        core::GraphLayoutInput in = chain(3, 400, 200);
        in.edges.push_back({0, 2});
        const core::GraphLayout layout = core::layOutGraph(in);
        QCOMPARE(layout.bands, 1);
        QVERIFY(layout.routes[2].size() >= 4); // bends: into the slot, across b's column, out of it
        const QStringList wrong = problems(layout, in);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
        // The arrow ends at the left side of c's box, at c's height.
        QCOMPARE(layout.routes[2].back().x, layout.centre[2].x - in.node_width / 2);
        QCOMPARE(layout.routes[2].back().y, layout.centre[2].y);
    }

    void barycentreUncrossesBodyOrder()
    {
        // a(0) -> d(3) and b(1) -> c(2): body order stacks a over b and c over d, and the two edges cross;
        // ordered by their producers' places, d goes over c (or b over a) and they do not.
        core::GraphLayoutInput in;
        in.node_count = 4;
        in.edges = {{0, 3}, {1, 2}};
        const core::GraphLayout layout = core::layOutGraph(in);
        QCOMPARE(layout.layer, (std::vector<int> {0, 0, 1, 1}));
        const bool aOverB = layout.centre[0].y < layout.centre[1].y;
        const bool dOverC = layout.centre[3].y < layout.centre[2].y;
        QCOMPARE(aOverB, dOverC);
        // And each pair straight across: one row each.
        QCOMPARE(layout.centre[0].y, layout.centre[3].y);
        QCOMPARE(layout.centre[1].y, layout.centre[2].y);
    }

    void aLongChainWrapsToFitTheWidth()
    {
        // Sixteen statements in a chain, 20 x 12 pixel boxes 16 pixels apart: 16 x 20 + 15 x 16 = 560 pixels
        // in one row. 300 pixels wide and 200 high, they wrap into bands one under the other, every box on
        // the page and every edge clear of the boxes; with room for all in one row, they stay in one row.
        core::GraphLayoutInput in = chain(16, 300, 200);
        core::GraphLayout layout = core::layOutGraph(in);
        QVERIFY(layout.fits);
        QCOMPARE(layout.bands, 2); // 8 columns: 8 x 20 + 7 x 16 = 272 pixels and the channels
        QCOMPARE(layout.layers_per_band, 8);
        QStringList wrong = problems(layout, in);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
        // The edge from the first band's last node to the second band's first goes around: out to the right,
        // back under the first band, in from the left.
        const std::vector<core::LayoutPoint> &hop = layout.routes[7];
        QVERIFY(hop.size() >= 6);
        QVERIFY(std::any_of(hop.begin(), hop.end(),
                            [&](core::LayoutPoint p) { return p.x > layout.centre[7].x; }));
        QVERIFY(std::any_of(hop.begin(), hop.end(),
                            [&](core::LayoutPoint p) { return p.x < layout.centre[8].x; }));
        QVERIFY(layout.centre[8].y > layout.centre[7].y + in.node_height);

        in.width = 600;
        layout = core::layOutGraph(in);
        QCOMPARE(layout.bands, 1);
        for (int k = 1; k < 16; ++k) {
            QCOMPARE(layout.centre[std::size_t(k)].y, layout.centre[0].y);
            QVERIFY(layout.centre[std::size_t(k)].x > layout.centre[std::size_t(k - 1)].x);
        }
        wrong = problems(layout, in);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    void tooSmallARoomIsSaid()
    {
        // 16 boxes of 20 x 12 in 60 x 40 pixels: no wrap fits; the layout says so and takes more room.
        const core::GraphLayout layout = core::layOutGraph(chain(16, 60, 40));
        QVERIFY(!layout.fits);
        QVERIFY(layout.width > 60 || layout.height > 40);
        for (const core::LayoutPoint &c : layout.centre) {
            QVERIFY(std::isfinite(c.x) && std::isfinite(c.y));
            QVERIFY(c.x > 0 && c.x < layout.width && c.y > 0 && c.y < layout.height);
        }
    }

    void haccmkAtASingleColumn()
    {
        // The HACCmk sample's graph (28 statements, 15 layers) as a single-column figure draws it: boxes of
        // line numbers, 16 x 11 pixels, in 330 x 150 pixels. It wraps, and no edge passes behind a box.
        const core::Skeleton s = core::parseSkeleton(core::bundledSkeletons()[0].text, "haccmk.skel");
        core::CoreModel model;
        const core::DependencyGraph g = core::buildDependencyGraph(s.body, model);
        core::GraphLayoutInput in;
        in.node_count = int(g.nodeCount());
        for (const core::DependencyEdge &e : g.edges)
            in.edges.push_back({e.from, e.to});
        in.node_width = 16;
        in.node_height = 11;
        in.width = 330;
        in.height = 150;
        const core::GraphLayout layout = core::layOutGraph(in);
        QCOMPARE(*std::max_element(layout.layer.begin(), layout.layer.end()), 14);
        QVERIFY(layout.fits);
        QVERIFY(layout.bands >= 2);
        const QStringList wrong = problems(layout, in);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
    }

    void edgesMustRunForward()
    {
        core::GraphLayoutInput in;
        in.node_count = 2;
        in.edges = {{1, 0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::layOutGraph(in));
    }
};

QTEST_APPLESS_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
