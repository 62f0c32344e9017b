// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/extrapolation.h"

#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>

namespace crossroof::core {

namespace {

std::vector<std::string> labelsOf(const std::vector<TrainingRow> &rows)
{
    std::vector<std::string> labels;
    labels.reserve(rows.size());
    for (const TrainingRow &r : rows)
        labels.push_back(r.strategy);
    return labels;
}

std::vector<double> valuesOf(const std::vector<TrainingRow> &rows, double TrainingRow::*value)
{
    std::vector<double> v;
    v.reserve(rows.size());
    for (const TrainingRow &r : rows)
        v.push_back(r.*value);
    return v;
}

/// One row of attributeTable()'s columns.
std::vector<double> attributeRow(double size, double iteration, const StrategyShape &s,
                                 const NominalEncoding &strategy, std::optional<double> q)
{
    std::vector<double> row {size, iteration, double(s.groups), double(s.threads_per_group)};
    const std::vector<double> bits = strategy.encode(s.name);
    row.insert(row.end(), bits.begin(), bits.end());
    row.push_back(s.states);
    if (q)
        row.push_back(*q);
    return row;
}

StrategyShape shapeOf(const TrainingRow &r)
{
    return {r.strategy, r.num_l2, r.threads_per_l2, r.states, r.iteration};
}

/// The model of ROWS with trees grown on TREEROWS (ROWS or a spread part of them): the encodings, strategies
/// and sizes from every row.
ExtrapolationModel trainRows(const std::vector<TrainingRow> &rows, const std::vector<TrainingRow> &treeRows,
                             const TrainingColumns &columns, const M5Options &options)
{
    if (rows.empty() || treeRows.empty())
        throw InputError("no training rows");
    ExtrapolationModel m;
    m.columns = columns;
    m.rows = rows.size();
    m.tree_rows = treeRows.size();
    const std::vector<std::string> labels = labelsOf(rows);
    const std::vector<double> q = valuesOf(rows, &TrainingRow::q);
    const std::vector<double> p = valuesOf(rows, &TrainingRow::p);
    m.q_encoding = NominalEncoding::byMeanTarget(columns.strategy, labels, q);
    m.p_encoding = NominalEncoding::byMeanTarget(columns.strategy, labels, p);
    m.q_tree = ModelTree::train(attributeTable(treeRows, columns, m.q_encoding, false), options);
    m.p_tree = ModelTree::train(attributeTable(treeRows, columns, m.p_encoding, true), options);
    m.min_size = m.max_size = rows.front().size;
    for (const TrainingRow &r : rows) {
        m.min_size = std::min(m.min_size, r.size);
        m.max_size = std::max(m.max_size, r.size);
        auto it = std::find_if(m.strategies.begin(), m.strategies.end(),
                               [&](const StrategyShape &s) { return s.name == r.strategy; });
        if (it == m.strategies.end())
            m.strategies.push_back(shapeOf(r));
        else
            it->last_iteration = std::max(it->last_iteration, r.iteration);
    }
    return m;
}

std::vector<TrainingRow> rowsAt(const std::vector<TrainingRow> &rows, const std::vector<std::size_t> &at)
{
    std::vector<TrainingRow> out;
    out.reserve(at.size());
    for (std::size_t i : at)
        out.push_back(rows[i]);
    return out;
}

} // namespace

std::vector<std::size_t> treeRows(const TrainingSet &set, std::size_t limit)
{
    const std::size_t n = set.rows.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    if (n <= limit)
        return order;
    // Each strategy's rows in order of size and iteration, the strategies in the order they first appear.
    std::unordered_map<std::string_view, std::size_t> first;
    std::vector<std::size_t> group(n);
    for (std::size_t i = 0; i < n; ++i)
        group[i] = first.try_emplace(set.rows[i].strategy, first.size()).first->second;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const TrainingRow &l = set.rows[a];
        const TrainingRow &r = set.rows[b];
        return std::tie(group[a], l.size, l.iteration, a) < std::tie(group[b], r.size, r.iteration, b);
    });
    std::vector<std::size_t> picked;
    picked.reserve(limit + first.size());
    for (std::size_t begin = 0; begin < n;) {
        std::size_t end = begin + 1;
        while (end < n && group[order[end]] == group[order[begin]])
            ++end;
        const std::size_t count = end - begin;
        const std::size_t take = std::max<std::size_t>(1, count * limit / n);
        for (std::size_t j = 0; j < take; ++j)
            picked.push_back(order[begin + (2 * j + 1) * count / (2 * take)]);
        begin = end;
    }
    std::sort(picked.begin(), picked.end());
    return picked;
}

const StrategyShape *ExtrapolationModel::findStrategy(std::string_view name) const
{
    const auto it = std::find_if(strategies.begin(), strategies.end(),
                                 [&](const StrategyShape &s) { return s.name == name; });
    return it == strategies.end() ? nullptr : &*it;
}

RegressionData attributeTable(const std::vector<TrainingRow> &rows, const TrainingColumns &columns,
                              const NominalEncoding &strategy, bool withQ)
{
    RegressionData d;
    d.target = withQ ? columns.p : columns.q;
    d.attributes = {columns.size, columns.iteration, columns.num_l2, columns.threads_per_l2};
    for (std::string &name : strategy.binaryNames())
        d.attributes.push_back(std::move(name));
    d.attributes.push_back(columns.states);
    if (withQ)
        d.attributes.push_back(columns.q);
    d.x.resize(Eigen::Index(rows.size()), Eigen::Index(d.attributes.size()));
    d.y.resize(Eigen::Index(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TrainingRow &r = rows[i];
        const std::vector<double> row = attributeRow(r.size, r.iteration, shapeOf(r), strategy,
                                                     withQ ? std::optional<double>(r.q) : std::nullopt);
        for (std::size_t a = 0; a < row.size(); ++a)
            d.x(Eigen::Index(i), Eigen::Index(a)) = row[a];
        d.y[Eigen::Index(i)] = withQ ? r.p : r.q;
    }
    return d;
}

ExtrapolationModel trainExtrapolation(const TrainingSet &set, const M5Options &options, std::size_t rowLimit)
{
    return trainRows(set.rows, rowsAt(set.rows, treeRows(set, rowLimit)), set.columns, options);
}

StrategyPrediction predictStrategy(const ExtrapolationModel &model, std::string_view strategy, double size,
                                   std::optional<double> iteration)
{
    const StrategyShape *s = model.findStrategy(strategy);
    if (!s) {
        std::vector<std::string> known;
        for (const StrategyShape &k : model.strategies)
            known.push_back(k.name);
        throw InputError("unknown mapping strategy '" + quoteForMessage(strategy) + "' (the training rows have "
                         + briefList(known, 240) + ")");
    }
    if (!(std::abs(size) <= kMaxRegressionMagnitude))
        throw InputError("the target application size must be a finite number within 1e100");
    if (iteration && !(std::abs(*iteration) <= kMaxRegressionMagnitude))
        throw InputError("the iteration must be a finite number within 1e100");
    StrategyPrediction out;
    out.strategy = s->name;
    out.size = size;
    out.iteration = iteration.value_or(s->last_iteration);
    out.groups = s->groups;
    out.threads_per_group = s->threads_per_group;
    out.q_tree = model.q_tree.predict(attributeRow(size, out.iteration, *s, model.q_encoding, std::nullopt));
    if (!std::isfinite(out.q_tree))
        throw InputError("the tree of " + model.columns.q + " gives no finite value for '" + s->name
                         + "' there");
    out.q = std::clamp(out.q_tree, 0.0, 1.0);
    out.p_tree = model.p_tree.predict(attributeRow(size, out.iteration, *s, model.p_encoding, out.q));
    if (!std::isfinite(out.p_tree))
        throw InputError("the tree of " + model.columns.p + " gives no finite value for '" + s->name
                         + "' there");
    out.p = std::clamp(out.p_tree, 0.0, 1.0);
    out.clamped = out.p != out.p_tree || out.q != out.q_tree;
    out.markov = solveMarkovExact(uniformTopology(out.groups, out.threads_per_group, out.p, out.q));
    return out;
}

std::vector<StrategyPrediction> predictAll(const ExtrapolationModel &model, double size,
                                           std::optional<double> iteration)
{
    std::vector<StrategyPrediction> out;
    for (const StrategyShape &s : model.strategies)
        out.push_back(predictStrategy(model, s.name, size, iteration));
    std::stable_sort(out.begin(), out.end(), [](const StrategyPrediction &a, const StrategyPrediction &b) {
        if (a.markov.cpi != b.markov.cpi)
            return a.markov.cpi < b.markov.cpi;
        return a.strategy < b.strategy;
    });
    return out;
}

ExtrapolationCv crossValidateExtrapolation(const TrainingSet &set, const M5Options &options, int folds,
                                           std::size_t rowLimit)
{
    validate(options);
    const std::vector<TrainingRow> rows = rowsAt(set.rows, treeRows(set, rowLimit));
    validateFolds(folds, rows.size());
    std::vector<double> p(rows.size());
    std::vector<double> q(rows.size());
    for (int fold = 0; fold < folds; ++fold) {
        std::vector<TrainingRow> train;
        std::vector<TrainingRow> test;
        for (std::size_t r = 0; r < rows.size(); ++r)
            (foldOf(r, folds) == fold ? test : train).push_back(rows[r]);
        const ExtrapolationModel m = trainRows(train, train, set.columns, options);
        for (std::size_t i = 0; i < test.size(); ++i) {
            const TrainingRow &r = test[i];
            const std::size_t at = std::size_t(fold) + i * std::size_t(folds);
            StrategyShape s = shapeOf(r);
            // A strategy that only the held-out fold has: the trees have never seen it, so its indicator
            // attributes stay at the lowest rank.
            const bool known = m.q_encoding.rank(r.strategy).has_value();
            if (!known)
                s.name = m.q_encoding.values.front();
            q[at] = m.q_tree.predict(attributeRow(r.size, r.iteration, s, m.q_encoding, std::nullopt));
            if (!known)
                s.name = m.p_encoding.values.front();
            p[at] = m.p_tree.predict(attributeRow(r.size, r.iteration, s, m.p_encoding, r.q));
        }
    }
    Eigen::VectorXd py(Eigen::Index(rows.size()));
    Eigen::VectorXd qy(Eigen::Index(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        py[Eigen::Index(r)] = rows[r].p;
        qy[Eigen::Index(r)] = rows[r].q;
    }
    return {summarizeFolds(folds, std::move(p), py), summarizeFolds(folds, std::move(q), qy), rows.size()};
}

CpiCheck checkCpi(const ExtrapolationModel &model, const std::vector<CpiMeasurement> &measured)
{
    if (measured.empty())
        throw InputError("no measured CPI to check against");
    CpiCheck check;
    double sum = 0;
    double sumAbs = 0;
    std::vector<double> finite;
    for (const CpiMeasurement &m : measured) {
        CpiCheckRow row;
        row.measured = m;
        try {
            row.predicted = predictStrategy(model, m.strategy, m.size, m.iteration);
        } catch (const InputError &e) {
            throw InputError("line " + std::to_string(m.line) + ": " + e.what());
        }
        if (row.predicted.markov.infinite) {
            row.error_percent = std::numeric_limits<double>::infinity();
            ++check.infinite;
        } else {
            row.error_percent = 100 * (row.predicted.markov.cpi - m.cpi) / m.cpi;
            finite.push_back(row.error_percent);
            sum += row.error_percent;
            sumAbs += std::abs(row.error_percent);
        }
        check.rows.push_back(std::move(row));
    }
    if (!finite.empty()) {
        const double n = double(finite.size());
        check.mean_error_percent = sum / n;
        check.mean_abs_error_percent = sumAbs / n;
        double squares = 0;
        for (double e : finite)
            squares += (e - check.mean_error_percent) * (e - check.mean_error_percent);
        check.sd_error_percent = std::sqrt(squares / n);
    }
    return check;
}

} // namespace crossroof::core
