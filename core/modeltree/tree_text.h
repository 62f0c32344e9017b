// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model tree for people: the rule table of the thesis' Appendix D (one row per leaf, the range of each
// split attribute on its path, the leaf's model "LM1"), each linear model written out, and the indented tree.

#include "core/modeltree/model_tree.h"

#include <limits>
#include <string>
#include <vector>

namespace crossroof::core {

/// The range an attribute is confined to on the path to a leaf: low < x <= high (infinite where open).
struct AttributeRange {
    double low = -std::numeric_limits<double>::infinity();
    double high = std::numeric_limits<double>::infinity();

    /// "<= 0.84", "> 0.84", "> 0.84 <= 0.982", or "" when unbounded.
    std::string text() const;
};

/// One leaf of the rule table.
struct LeafRule {
    int node = 0; ///< index into ModelTree::nodes()
    int leaf_number = 0; ///< "LM<leaf_number>"
    std::vector<AttributeRange> ranges; ///< one per TreeTable::columns
};

/// The rule table: the split attributes (preorder) as columns, one row per leaf, left to right.
struct TreeTable {
    std::vector<int> columns;
    std::vector<LeafRule> rows;
};

TreeTable treeTable(const ModelTree &tree);

/// "LM3" for a leaf's number.
std::string leafName(int leafNumber);

/// A model as the thesis prints it: "p_value =\n    - 0.0412 * Num_L2\n    ...\n    + 0.6007\n", coefficients
/// with 4 significant digits.
std::string linearModelText(const ModelTree &tree, const LinearModel &model);

/// The whole tree: the indented splits with each leaf's name, rows and error, the rule table, then the model
/// that predicts at every leaf (ModelTree::predictingModel: smoothed when the tree smooths).
std::string treeText(const ModelTree &tree);

} // namespace crossroof::core
