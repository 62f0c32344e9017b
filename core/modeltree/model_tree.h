// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// M5' model trees for regression (Quinlan 1992, Wang and Witten 1997): a decision tree grown by
// standard-deviation reduction whose leaves are linear models, pruned by M5's estimated error and smoothed
// along the path when it predicts (MODEL.md, "Model tree").

#include "core/modeltree/linear_model.h"
#include "core/modeltree/regression_data.h"

#include <span>
#include <string>
#include <vector>

namespace crossroof::core {

struct M5Options {
    int min_leaf = 4; ///< fewest training rows on either side of a split
    double sd_fraction = 0.05; ///< a node whose target sd is below this fraction of the root's is a leaf
    bool prune = true; ///< replace subtrees by their node's model where that is estimated better
    bool smooth = true; ///< blend the leaf's prediction with the models on the path to the root
    double smoothing_k = 15; ///< the smoothing constant k of p' = (n p + k q) / (n + k)
};

/// Checks the options: min_leaf in 1..kMaxMinLeaf, sd_fraction in [0, 1), smoothing_k >= 0 and finite.
/// Throws InputError naming the option.
void validate(const M5Options &options);

inline constexpr int kMaxMinLeaf = 1000000;
/// Nodes this deep are leaves whatever their rows: the building, pruning and printing recurse along a path.
inline constexpr int kMaxTreeDepth = 256;

/// One node. Interior nodes send rows with x[attribute] <= threshold left, the others right.
struct ModelTreeNode {
    int attribute = -1; ///< the split attribute (column index); -1 at a leaf
    double threshold = 0;
    int left = -1; ///< child node indices into ModelTree::nodes()
    int right = -1;
    int count = 0; ///< training rows that reached the node
    double mean = 0; ///< their mean target
    double sd = 0; ///< their target's standard deviation
    LinearModel model; ///< every node has one: the leaves predict with it, the others smooth with it
    double rms_error = 0; ///< of the node's model on its rows
    double estimated_error = 0; ///< M5's estimate: the model's, at a leaf; the subtree's, inside
    int leaf_number = 0; ///< 1-based, left to right: "LM1"; 0 inside

    bool isLeaf() const { return attribute < 0; }
};

class ModelTree
{
public:
    /// Grows, prunes and numbers a tree on DATA. Deterministic: splits tie-break by the lower attribute
    /// index, then the lower threshold. Throws InputError for invalid options, invalid data or fewer than 2
    /// rows.
    static ModelTree train(const RegressionData &data, const M5Options &options = {});

    /// The prediction for one row of attributes (as many values as attributes()), smoothed when the options
    /// say so. Throws InputError when the row has the wrong length.
    double predict(std::span<const double> row) const;
    /// The leaf the row reaches (index into nodes()).
    int leafOf(std::span<const double> row) const;
    /// The linear model that predicts for the rows reaching LEAF (an index into nodes()): with smoothing the
    /// leaf's model blended with every model on the path to the root, folded into one linear model (a blend of
    /// linear models is linear, so predict() equals its value on every row that reaches the leaf; Weka's M5P
    /// prints these); without, the leaf's own model. Throws InputError when LEAF is not a leaf.
    LinearModel predictingModel(int leaf) const;

    const std::vector<ModelTreeNode> &nodes() const { return m_nodes; }
    const ModelTreeNode &root() const { return m_nodes.front(); }
    const std::vector<std::string> &attributes() const { return m_attributes; }
    const std::string &target() const { return m_target; }
    const M5Options &options() const { return m_options; }
    int leafCount() const;
    int depth() const;
    /// Attributes tested by the splits, by column index, in the order a preorder walk meets them.
    std::vector<int> splitAttributes() const;

private:
    friend class ModelTreeBuilder;
    std::vector<ModelTreeNode> m_nodes; ///< preorder; the root first
    std::vector<std::string> m_attributes;
    std::string m_target;
    M5Options m_options;
};

} // namespace crossroof::core
