// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "xgraph/xmodel_evaluation.h"

#include <QList>

#include <vector>

class QCPGraph;
class QCustomPlot;

namespace crossroof::widgets {

class ThinnedGraphs;

/// The compare mode's what-ifs on the X-graph, as many as the state holds: each its f(k) dashed and its G(n-k)
/// dotted in a colour of its own, with its operating point, and a legend entry that names it and says where its
/// operating point lies. Graphs are made as they are first needed and kept (emptied) for later ones.
class ComparisonCurves
{
public:
    explicit ComparisonCurves(QCustomPlot *plot);

    /// How far the what-ifs reach on the plot's axes: the largest k of their curves, and the largest MS
    /// throughput of their f(k) and operating points.
    struct Extent
    {
        double right = 0;
        double top = 0;
    };
    /// Draws COMPARISONS through THINNED (which draws the current curves too), their legend entries named;
    /// empties the graphs of none. Returns their extent, for the view's ranges (and so Home's).
    Extent show(const std::vector<XModelEvaluation::Comparison> &comparisons, ThinnedGraphs *thinned);
    /// Every graph made so far (the view's own: no measured data).
    QList<QCPGraph *> graphs() const;
    /// The I-th what-if's f(k) and operating point (made if not yet there).
    QCPGraph *supplyGraph(int i);
    QCPGraph *operatingGraph(int i);

private:
    struct Graphs
    {
        QCPGraph *f;
        QCPGraph *g;
        QCPGraph *op;
    };
    const Graphs &at(std::size_t i);

    QCustomPlot *m_plot;
    std::vector<Graphs> m_graphs;
};

} // namespace crossroof::widgets
