// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/model_tree.h"

#include "core/modeltree/tree_builder.h"
#include "core/support/error.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

void validate(const M5Options &options)
{
    if (options.min_leaf < 1 || options.min_leaf > kMaxMinLeaf)
        throw InputError("minimum rows per leaf: " + std::to_string(options.min_leaf) + " is not in 1.."
                         + std::to_string(kMaxMinLeaf));
    if (!(options.sd_fraction >= 0 && options.sd_fraction < 1))
        throw InputError("sd fraction: must be in [0, 1)");
    if (!(options.smoothing_k >= 0 && std::isfinite(options.smoothing_k)))
        throw InputError("smoothing constant k: must be a finite number >= 0");
}

ModelTree ModelTree::train(const RegressionData &data, const M5Options &options)
{
    return ModelTreeBuilder(data, options).build();
}

int ModelTree::leafOf(std::span<const double> row) const
{
    if (row.size() != m_attributes.size())
        throw InputError("model tree for '" + m_target + "': a row of " + std::to_string(row.size())
                         + " values, the tree has " + std::to_string(m_attributes.size()) + " attributes");
    int at = 0;
    while (!m_nodes[std::size_t(at)].isLeaf()) {
        const ModelTreeNode &n = m_nodes[std::size_t(at)];
        at = row[std::size_t(n.attribute)] <= n.threshold ? n.left : n.right;
    }
    return at;
}

double ModelTree::predict(std::span<const double> row) const
{
    const int leaf = leafOf(row);
    double value = m_nodes[std::size_t(leaf)].model.predict(row);
    if (!m_options.smooth)
        return value;
    // Walk down again to find the path, then blend upwards: the child's value with the node's own model,
    // weighted by the child's training rows against k.
    std::vector<int> path {0};
    while (path.back() != leaf) {
        const ModelTreeNode &n = m_nodes[std::size_t(path.back())];
        path.push_back(row[std::size_t(n.attribute)] <= n.threshold ? n.left : n.right);
    }
    const double k = m_options.smoothing_k;
    for (std::size_t i = path.size() - 1; i-- > 0;) {
        const double n = m_nodes[std::size_t(path[i + 1])].count;
        value = (n * value + k * m_nodes[std::size_t(path[i])].model.predict(row)) / (n + k);
    }
    return value;
}

LinearModel ModelTree::predictingModel(int leaf) const
{
    if (leaf < 0 || std::size_t(leaf) >= m_nodes.size() || !m_nodes[std::size_t(leaf)].isLeaf())
        throw InputError("model tree for '" + m_target + "': node " + std::to_string(leaf) + " is not a leaf");
    const LinearModel &own = m_nodes[std::size_t(leaf)].model;
    if (!m_options.smooth)
        return own;
    // The path from the root, found through the parents (nodes are in preorder: a parent comes first).
    std::vector<int> parent(m_nodes.size(), -1);
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        if (!m_nodes[i].isLeaf()) {
            parent[std::size_t(m_nodes[i].left)] = int(i);
            parent[std::size_t(m_nodes[i].right)] = int(i);
        }
    }
    // Coefficients per attribute column, blended upwards as predict() blends values.
    std::vector<double> coefficients(m_attributes.size(), 0);
    for (std::size_t t = 0; t < own.attributes.size(); ++t)
        coefficients[std::size_t(own.attributes[t])] = own.coefficients[t];
    double intercept = own.intercept;
    const double k = m_options.smoothing_k;
    for (int child = leaf; parent[std::size_t(child)] >= 0; child = parent[std::size_t(child)]) {
        const ModelTreeNode &up = m_nodes[std::size_t(parent[std::size_t(child)])];
        const double n = m_nodes[std::size_t(child)].count;
        for (double &c : coefficients)
            c *= n / (n + k);
        for (std::size_t t = 0; t < up.model.attributes.size(); ++t)
            coefficients[std::size_t(up.model.attributes[t])] += k / (n + k) * up.model.coefficients[t];
        intercept = (n * intercept + k * up.model.intercept) / (n + k);
    }
    LinearModel blended;
    blended.intercept = intercept;
    for (std::size_t a = 0; a < coefficients.size(); ++a) {
        if (coefficients[a] != 0) {
            blended.attributes.push_back(int(a));
            blended.coefficients.push_back(coefficients[a]);
        }
    }
    return blended;
}

int ModelTree::leafCount() const
{
    return int(
            std::count_if(m_nodes.begin(), m_nodes.end(), [](const ModelTreeNode &n) { return n.isLeaf(); }));
}

int ModelTree::depth() const
{
    std::vector<int> depths(m_nodes.size(), 0);
    int deepest = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        deepest = std::max(deepest, depths[i]);
        if (!m_nodes[i].isLeaf()) {
            depths[std::size_t(m_nodes[i].left)] = depths[i] + 1;
            depths[std::size_t(m_nodes[i].right)] = depths[i] + 1;
        }
    }
    return deepest;
}

std::vector<int> ModelTree::splitAttributes() const
{
    std::vector<int> out;
    for (const ModelTreeNode &n : m_nodes) {
        if (!n.isLeaf() && std::find(out.begin(), out.end(), n.attribute) == out.end())
            out.push_back(n.attribute);
    }
    return out;
}

} // namespace crossroof::core
