// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/tree_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace crossroof::core {

namespace {

std::string number(double v, const char *spec = "%.4g")
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, spec, v);
    return buffer;
}

void collectRules(const ModelTree &tree, int node, std::vector<AttributeRange> ranges, const TreeTable &table,
                  std::vector<LeafRule> &out)
{
    const ModelTreeNode &n = tree.nodes()[std::size_t(node)];
    if (n.isLeaf()) {
        out.push_back({node, n.leaf_number, std::move(ranges)});
        return;
    }
    const std::size_t column = std::size_t(std::find(table.columns.begin(), table.columns.end(), n.attribute)
                                           - table.columns.begin());
    std::vector<AttributeRange> left = ranges;
    left[column].high = std::min(left[column].high, n.threshold);
    collectRules(tree, n.left, std::move(left), table, out);
    ranges[column].low = std::max(ranges[column].low, n.threshold);
    collectRules(tree, n.right, std::move(ranges), table, out);
}

void writeTree(const ModelTree &tree, int node, int depth, std::string &out)
{
    const ModelTreeNode &n = tree.nodes()[std::size_t(node)];
    if (n.isLeaf()) {
        out += " : " + leafName(n.leaf_number) + " (" + std::to_string(n.count) + " rows, rms error "
               + number(n.rms_error) + ")\n";
        return;
    }
    const std::string indent = [&] {
        std::string s;
        for (int i = 0; i < depth; ++i)
            s += "|   ";
        return s;
    }();
    const std::string &name = tree.attributes()[std::size_t(n.attribute)];
    for (const auto &[op, child] : {std::pair {"<=", n.left}, std::pair {">", n.right}}) {
        out += indent + name + " " + op + " " + number(n.threshold, "%.6g");
        const ModelTreeNode &c = tree.nodes()[std::size_t(child)];
        if (!c.isLeaf())
            out += "\n";
        writeTree(tree, child, depth + 1, out);
    }
}

} // namespace

std::string AttributeRange::text() const
{
    std::string s;
    if (low > -std::numeric_limits<double>::infinity()) {
        s.append("> ");
        s.append(number(low, "%.6g"));
    }
    if (high < std::numeric_limits<double>::infinity()) {
        s.append(s.empty() ? "<= " : " <= ");
        s.append(number(high, "%.6g"));
    }
    return s;
}

TreeTable treeTable(const ModelTree &tree)
{
    TreeTable table;
    table.columns = tree.splitAttributes();
    collectRules(tree, 0, std::vector<AttributeRange>(table.columns.size()), table, table.rows);
    return table;
}

std::string leafName(int leafNumber)
{
    return "LM" + std::to_string(leafNumber);
}

std::string linearModelText(const ModelTree &tree, const LinearModel &model)
{
    std::string out = tree.target() + " =\n";
    for (std::size_t i = 0; i < model.attributes.size(); ++i) {
        const double c = model.coefficients[i];
        out += std::string("    ") + (c < 0 ? "- " : "+ ") + number(std::abs(c)) + " * "
               + tree.attributes()[std::size_t(model.attributes[i])] + "\n";
    }
    out += std::string("    ") + (model.intercept < 0 ? "- " : "+ ") + number(std::abs(model.intercept))
           + "\n";
    return out;
}

std::string treeText(const ModelTree &tree)
{
    std::string out = "Model tree for " + tree.target() + " (" + std::to_string(tree.leafCount())
                      + " leaves, " + std::to_string(tree.root().count) + " rows)\n\n";
    if (tree.root().isLeaf())
        out += "(a single leaf)";
    writeTree(tree, 0, 0, out);

    const TreeTable table = treeTable(tree);
    if (!table.columns.empty()) {
        out += "\nRules:\n";
        std::vector<std::size_t> widths;
        std::string header = "  ";
        for (int c : table.columns) {
            std::size_t w = tree.attributes()[std::size_t(c)].size();
            for (const LeafRule &r : table.rows)
                w = std::max(w, r.ranges[widths.size()].text().size());
            widths.push_back(w + 2);
            header += tree.attributes()[std::size_t(c)];
            header += std::string(widths.back() - tree.attributes()[std::size_t(c)].size(), ' ');
        }
        out += header + "model\n";
        for (const LeafRule &r : table.rows) {
            std::string line = "  ";
            for (std::size_t c = 0; c < widths.size(); ++c) {
                const std::string t = r.ranges[c].text();
                line += t + std::string(widths[c] - t.size(), ' ');
            }
            out += line + leafName(r.leaf_number) + "\n";
        }
    }
    out += tree.options().smooth ? "\nSmoothed linear models (each leaf blended with the models on its path, as\n"
                                   "the tree predicts):\n"
                                 : "\nLinear models (each leaf's own, as the tree predicts without smoothing):\n";
    for (std::size_t i = 0; i < tree.nodes().size(); ++i) {
        const ModelTreeNode &n = tree.nodes()[i];
        if (n.isLeaf())
            out += leafName(n.leaf_number) + ":\n" + linearModelText(tree, tree.predictingModel(int(i))) + "\n";
    }
    return out;
}

} // namespace crossroof::core
