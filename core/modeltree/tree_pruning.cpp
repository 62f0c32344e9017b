// SPDX-License-Identifier: GPL-3.0-or-later
// Pruning the grown tree: a linear model at every node on the attributes tested below it (simplified by
// dropping terms), and a subtree replaced by its node's model wherever that model's estimated error is no
// larger than the subtree's (its children's estimates weighted by their rows).
#include "core/modeltree/tree_builder.h"

#include <algorithm>
#include <iterator>

namespace crossroof::core {

std::vector<int> ModelTreeBuilder::prune(int index)
{
    const std::span<const int> rows = rowsOf(index);
    if (m_nodes[std::size_t(index)].isLeaf()) {
        const FittedModel f = constantModel(m_data, rows);
        ModelTreeNode &node = m_nodes[std::size_t(index)];
        node.model = f.model;
        node.rms_error = f.rms_error;
        node.estimated_error = f.estimated_error;
        return {};
    }
    const int left = m_nodes[std::size_t(index)].left;
    const int right = m_nodes[std::size_t(index)].right;
    const std::vector<int> below = prune(left);
    const std::vector<int> belowRight = prune(right);
    std::vector<int> tested;
    std::set_union(below.begin(), below.end(), belowRight.begin(), belowRight.end(),
                   std::back_inserter(tested));
    const int attribute = m_nodes[std::size_t(index)].attribute;
    tested.insert(std::lower_bound(tested.begin(), tested.end(), attribute), attribute);
    tested.erase(std::unique(tested.begin(), tested.end()), tested.end());

    const FittedModel f = fitM5Model(m_data, rows, tested);
    const ModelTreeNode &l = m_nodes[std::size_t(left)];
    const ModelTreeNode &r = m_nodes[std::size_t(right)];
    const double subtree = (l.count * l.estimated_error + r.count * r.estimated_error) / (l.count + r.count);
    ModelTreeNode &node = m_nodes[std::size_t(index)];
    node.model = f.model;
    node.rms_error = f.rms_error;
    if (m_options.prune && f.estimated_error <= subtree + m_tolerance) {
        node.attribute = -1;
        node.threshold = 0;
        node.left = -1;
        node.right = -1;
        node.estimated_error = f.estimated_error;
    } else {
        node.estimated_error = subtree;
    }
    return tested;
}

int ModelTreeBuilder::copyPruned(int node, ModelTree &tree, int &leafNumber) const
{
    const int index = int(tree.m_nodes.size());
    tree.m_nodes.push_back(m_nodes[std::size_t(node)]);
    if (tree.m_nodes.back().isLeaf()) {
        tree.m_nodes.back().leaf_number = ++leafNumber;
        return index;
    }
    const int left = copyPruned(m_nodes[std::size_t(node)].left, tree, leafNumber);
    const int right = copyPruned(m_nodes[std::size_t(node)].right, tree, leafNumber);
    tree.m_nodes[std::size_t(index)].left = left;
    tree.m_nodes[std::size_t(index)].right = right;
    return index;
}

ModelTree ModelTreeBuilder::build()
{
    grow(0, int(m_data.rows()), 0);
    prune(0);
    ModelTree tree;
    tree.m_attributes = m_data.attributes;
    tree.m_target = m_data.target;
    tree.m_options = m_options;
    int leafNumber = 0;
    copyPruned(0, tree, leafNumber);
    return tree;
}

} // namespace crossroof::core
