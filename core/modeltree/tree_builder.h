// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to core/modeltree: how ModelTree::train() grows (tree_growth.cpp) and prunes (tree_pruning.cpp).

#include "core/modeltree/model_tree.h"

#include <utility>
#include <vector>

namespace crossroof::core {

class ModelTreeBuilder
{
public:
    ModelTreeBuilder(const RegressionData &data, const M5Options &options);

    /// The grown, pruned and numbered tree.
    ModelTree build();

private:
    // tree_growth.cpp: the unpruned tree, by standard-deviation reduction.
    int grow(int begin, int end, int depth);
    struct Split {
        int attribute = -1;
        double threshold = 0;
        int left_count = 0;
        double sdr = 0;
    };
    Split bestSplit(int begin, int end, double sd) const;
    void partition(int begin, int end, const Split &split);

    // tree_pruning.cpp: the node models, pruning and the final preorder numbering.
    std::vector<int> prune(int node);
    int copyPruned(int node, ModelTree &tree, int &leafNumber) const;

    std::span<const int> rowsOf(int node) const;

    const RegressionData &m_data;
    M5Options m_options;
    double m_root_sd = 0;
    double m_tolerance = 0;
    std::vector<ModelTreeNode> m_nodes; ///< preorder, unpruned
    std::vector<std::pair<int, int>> m_ranges; ///< each node's rows: a range of m_sorted[a] (any a) or m_rows
    std::vector<int> m_rows; ///< the row indices, partitioned node by node
    std::vector<std::vector<int>> m_sorted; ///< per attribute, each node's range sorted by it
    std::vector<char> m_goes_left; ///< scratch: per row, during a partition
    std::vector<int> m_scratch;
};

} // namespace crossroof::core
