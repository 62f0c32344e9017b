// SPDX-License-Identifier: GPL-3.0-or-later
// Growing the unpruned model tree: at each node the split with the largest standard-deviation reduction
// sd(T) - sum |T_i| / |T| sd(T_i), scanned over each attribute's sorted values with running sums.
#include "core/modeltree/tree_builder.h"

#include "core/support/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace crossroof::core {

namespace {

/// Population standard deviation from the count, sum and sum of squares of values already shifted near their
/// mean (so that the difference does not cancel).
double sdOf(double n, double sum, double sumSquares)
{
    const double mean = sum / n;
    return std::sqrt(std::max(0.0, sumSquares / n - mean * mean));
}

} // namespace

ModelTreeBuilder::ModelTreeBuilder(const RegressionData &data, const M5Options &options)
    : m_data(data)
    , m_options(options)
{
    validate(options);
    validate(data);
    if (data.rows() < 2)
        throw InputError("a model tree needs at least 2 rows, not " + std::to_string(data.rows()));
    if (data.rows() > std::size_t(std::numeric_limits<int>::max() / 2))
        throw InputError("too many rows for a model tree: " + std::to_string(data.rows()));
    const int n = int(data.rows());
    m_rows.resize(std::size_t(n));
    std::iota(m_rows.begin(), m_rows.end(), 0);
    m_sorted.assign(data.attributes.size(), m_rows);
    for (std::size_t a = 0; a < m_sorted.size(); ++a) {
        const Eigen::Index col = Eigen::Index(a);
        std::stable_sort(m_sorted[a].begin(), m_sorted[a].end(),
                         [&](int l, int r) { return data.x(l, col) < data.x(r, col); });
    }
    m_goes_left.assign(std::size_t(n), 0);
    m_scratch.resize(std::size_t(n));
    const double mean = data.y.mean();
    m_root_sd = std::sqrt((data.y.array() - mean).square().mean());
    m_tolerance = kM5Tolerance * m_root_sd;
}

std::span<const int> ModelTreeBuilder::rowsOf(int node) const
{
    const auto [begin, end] = m_ranges[std::size_t(node)];
    return std::span<const int>(m_rows).subspan(std::size_t(begin), std::size_t(end - begin));
}

ModelTreeBuilder::Split ModelTreeBuilder::bestSplit(int begin, int end, double sd) const
{
    const int n = end - begin;
    // Targets shifted by the node's mean keep the running sums small.
    double shift = 0;
    for (int i = begin; i < end; ++i)
        shift += m_data.y[m_rows[std::size_t(i)]];
    shift /= n;
    double total = 0;
    double totalSquares = 0;
    for (int i = begin; i < end; ++i) {
        const double v = m_data.y[m_rows[std::size_t(i)]] - shift;
        total += v;
        totalSquares += v * v;
    }
    Split best;
    const int minLeaf = m_options.min_leaf;
    for (std::size_t a = 0; a < m_sorted.size(); ++a) {
        const std::vector<int> &sorted = m_sorted[a];
        const Eigen::Index col = Eigen::Index(a);
        double left = 0;
        double leftSquares = 0;
        for (int i = begin; i < end - 1; ++i) {
            const int row = sorted[std::size_t(i)];
            const double v = m_data.y[row] - shift;
            left += v;
            leftSquares += v * v;
            const int leftCount = i - begin + 1;
            if (leftCount < minLeaf)
                continue;
            if (n - leftCount < minLeaf)
                break;
            const double here = m_data.x(row, col);
            const double next = m_data.x(sorted[std::size_t(i) + 1], col);
            if (!(here < next))
                continue;
            const double sdLeft = sdOf(leftCount, left, leftSquares);
            const double sdRight = sdOf(n - leftCount, total - left, totalSquares - leftSquares);
            const double sdr = sd - (leftCount * sdLeft + (n - leftCount) * sdRight) / n;
            if (sdr > best.sdr) {
                best.attribute = int(a);
                best.sdr = sdr;
                best.left_count = leftCount;
                const double middle = here + (next - here) / 2;
                best.threshold = middle < next ? middle : here;
            }
        }
    }
    return best;
}

void ModelTreeBuilder::partition(int begin, int end, const Split &split)
{
    const std::vector<int> &by = m_sorted[std::size_t(split.attribute)];
    for (int i = begin; i < end; ++i)
        m_goes_left[std::size_t(by[std::size_t(i)])] = i - begin < split.left_count;
    auto stable = [&](std::vector<int> &rows) {
        int l = begin;
        int r = 0;
        for (int i = begin; i < end; ++i) {
            const int row = rows[std::size_t(i)];
            if (m_goes_left[std::size_t(row)])
                rows[std::size_t(l++)] = row;
            else
                m_scratch[std::size_t(r++)] = row;
        }
        std::copy(m_scratch.begin(), m_scratch.begin() + r, rows.begin() + l);
    };
    stable(m_rows);
    for (std::vector<int> &sorted : m_sorted)
        stable(sorted);
}

int ModelTreeBuilder::grow(int begin, int end, int depth)
{
    const int index = int(m_nodes.size());
    m_nodes.emplace_back();
    m_ranges.emplace_back(begin, end);
    const int n = end - begin;
    double mean = 0;
    for (int i = begin; i < end; ++i)
        mean += m_data.y[m_rows[std::size_t(i)]];
    mean /= n;
    double squares = 0;
    for (int i = begin; i < end; ++i) {
        const double d = m_data.y[m_rows[std::size_t(i)]] - mean;
        squares += d * d;
    }
    const double sd = std::sqrt(squares / n);
    {
        ModelTreeNode &node = m_nodes.back();
        node.count = n;
        node.mean = mean;
        node.sd = sd;
    }
    if (n < 2 * m_options.min_leaf || sd <= m_options.sd_fraction * m_root_sd || sd <= m_tolerance
        || depth >= kMaxTreeDepth)
        return index;
    const Split split = bestSplit(begin, end, sd);
    if (split.attribute < 0 || split.sdr <= m_tolerance)
        return index;
    partition(begin, end, split);
    const int mid = begin + split.left_count;
    const int left = grow(begin, mid, depth + 1);
    const int right = grow(mid, end, depth + 1);
    ModelTreeNode &node = m_nodes[std::size_t(index)];
    node.attribute = split.attribute;
    node.threshold = split.threshold;
    node.left = left;
    node.right = right;
    return index;
}

} // namespace crossroof::core
