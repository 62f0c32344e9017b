// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/modeltree/training_set.h"

#include "core/markov/markov.h"
#include "core/modeltree/regression_data.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace crossroof::core {

namespace {

std::string formatNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

std::string *field(TrainingColumns &c, std::string_view key)
{
    static const std::map<std::string_view, std::string TrainingColumns::*> kFields {
            {"size", &TrainingColumns::size},
            {"iteration", &TrainingColumns::iteration},
            {"num_l2", &TrainingColumns::num_l2},
            {"threads_per_l2", &TrainingColumns::threads_per_l2},
            {"strategy", &TrainingColumns::strategy},
            {"states", &TrainingColumns::states},
            {"p", &TrainingColumns::p},
            {"q", &TrainingColumns::q},
            {"cpi", &TrainingColumns::cpi}};
    const auto it = kFields.find(key);
    return it == kFields.end() ? nullptr : &(c.*(it->second));
}

std::string keyList()
{
    std::string list;
    for (std::string_view k : TrainingColumns::keys())
        list += (list.empty() ? "" : ", ") + std::string(k);
    return list;
}

/// A whole number in 1..kMaxThreadsPerGroup.
int count(const CsvTable &t, std::size_t row, std::size_t col)
{
    const double v = t.number(row, col);
    if (v != std::floor(v) || v < 1 || v > kMaxThreadsPerGroup)
        throw InputError(t.where(row, col) + ": " + formatNumber(v) + " is not a whole number in 1.."
                         + std::to_string(kMaxThreadsPerGroup));
    return int(v);
}

/// A number a model tree can take (within kMaxRegressionMagnitude).
double bounded(const CsvTable &t, std::size_t row, std::size_t col)
{
    const double v = t.number(row, col);
    if (std::abs(v) > kMaxRegressionMagnitude)
        throw InputError(t.where(row, col) + ": " + formatNumber(v) + " is beyond +-1e100");
    return v;
}

double probability(const CsvTable &t, std::size_t row, std::size_t col)
{
    const double v = t.number(row, col);
    if (v < 0 || v > 1)
        throw InputError(t.where(row, col) + ": " + formatNumber(v) + " is not a probability in [0, 1]");
    return v;
}

/// Every row of a strategy must give it the same cache groups and the same number of states.
void checkStrategies(const TrainingSet &set)
{
    std::map<std::string, const TrainingRow *, std::less<>> first;
    for (const TrainingRow &r : set.rows) {
        const auto [it, fresh] = first.emplace(r.strategy, &r);
        const TrainingRow &f = *it->second;
        if (!fresh && (f.num_l2 != r.num_l2 || f.threads_per_l2 != r.threads_per_l2 || f.states != r.states))
            throw InputError(set.source + ":" + std::to_string(r.line) + ": strategy '" + quoteForMessage(r.strategy)
                             + "' has " + std::to_string(r.num_l2) + " x " + std::to_string(r.threads_per_l2)
                             + " threads and " + formatNumber(r.states) + " states here but "
                             + std::to_string(f.num_l2) + " x " + std::to_string(f.threads_per_l2) + " and "
                             + formatNumber(f.states) + " on line " + std::to_string(f.line));
    }
}

void checkNotConstant(const TrainingSet &set, double TrainingRow::*value, const std::string &column)
{
    const double v = set.rows.front().*value;
    if (std::all_of(set.rows.begin(), set.rows.end(), [&](const TrainingRow &r) { return r.*value == v; }))
        throw InputError(set.source + ": column '" + column + "' is " + formatNumber(v)
                         + " in every row: there is nothing to learn");
}

} // namespace

const std::vector<std::string_view> &TrainingColumns::keys()
{
    static const std::vector<std::string_view> kKeys {
            "size", "iteration", "num_l2", "threads_per_l2", "strategy", "states", "p", "q", "cpi"};
    return kKeys;
}

void TrainingColumns::set(std::string_view key, std::string name)
{
    std::string *f = field(*this, key);
    if (!f)
        throw InputError("unknown column key '" + std::string(key) + "' (the keys are " + keyList() + ")");
    if (name.empty())
        throw InputError("column key '" + std::string(key) + "': the column name is empty");
    *f = std::move(name);
}

void TrainingColumns::assign(std::string_view assignment)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos)
        throw InputError("'" + std::string(assignment) + "' is not KEY=NAME (the keys are " + keyList()
                         + ")");
    set(assignment.substr(0, eq), std::string(assignment.substr(eq + 1)));
}

std::vector<std::string> TrainingSet::strategies() const
{
    std::vector<std::string> out;
    for (const TrainingRow &r : rows) {
        if (std::find(out.begin(), out.end(), r.strategy) == out.end())
            out.push_back(r.strategy);
    }
    return out;
}

TrainingSet parseTrainingSet(std::string_view text, const std::string &source, const TrainingColumns &columns)
{
    const CsvTable t = parseCsv(text, source);
    const std::size_t size = t.column(columns.size);
    const std::size_t iteration = t.column(columns.iteration);
    const std::size_t numL2 = t.column(columns.num_l2);
    const std::size_t threads = t.column(columns.threads_per_l2);
    const std::size_t strategy = t.column(columns.strategy);
    const std::size_t states = t.column(columns.states);
    const std::size_t p = t.column(columns.p);
    const std::size_t q = t.column(columns.q);
    TrainingSet set;
    set.source = source;
    set.columns = columns;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        TrainingRow row;
        row.line = t.line(r);
        row.size = bounded(t, r, size);
        row.iteration = bounded(t, r, iteration);
        row.num_l2 = count(t, r, numL2);
        row.threads_per_l2 = count(t, r, threads);
        row.strategy = std::string(t.cell(r, strategy));
        if (row.strategy.empty())
            throw InputError(t.where(r, strategy) + ": the strategy is empty");
        row.states = bounded(t, r, states);
        row.p = probability(t, r, p);
        row.q = probability(t, r, q);
        set.rows.push_back(std::move(row));
    }
    checkTrainingSet(set);
    return set;
}

void checkTrainingSet(const TrainingSet &set)
{
    if (set.rows.size() < kMinTrainingRows)
        throw InputError(set.source + ": " + std::to_string(set.rows.size())
                         + " training rows; a model tree needs at least " + std::to_string(kMinTrainingRows));
    checkStrategies(set);
    checkNotConstant(set, &TrainingRow::p, set.columns.p);
    checkNotConstant(set, &TrainingRow::q, set.columns.q);
}

TrainingSet readTrainingSet(const std::string &path, const TrainingColumns &columns)
{
    return parseTrainingSet(readTextFile(path, kCsvMaxBytes, "training CSV files"), path, columns);
}

std::vector<CpiMeasurement> parseCpiMeasurements(std::string_view text, const std::string &source,
                                                 const TrainingColumns &columns)
{
    const CsvTable t = parseCsv(text, source);
    const std::size_t size = t.column(columns.size);
    const std::size_t strategy = t.column(columns.strategy);
    const std::size_t cpi = t.column(columns.cpi);
    const std::optional<std::size_t> iteration = t.findColumn(columns.iteration);
    std::vector<CpiMeasurement> out;
    for (std::size_t r = 0; r < t.rowCount(); ++r) {
        CpiMeasurement m;
        m.line = t.line(r);
        m.size = bounded(t, r, size);
        m.strategy = std::string(t.cell(r, strategy));
        if (m.strategy.empty())
            throw InputError(t.where(r, strategy) + ": the strategy is empty");
        if (iteration)
            m.iteration = bounded(t, r, *iteration);
        m.cpi = t.number(r, cpi);
        if (m.cpi < 1)
            throw InputError(t.where(r, cpi) + ": a CPI of " + formatNumber(m.cpi)
                             + " is below 1, which the Markov model cannot predict");
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<CpiMeasurement> readCpiMeasurements(const std::string &path, const TrainingColumns &columns)
{
    return parseCpiMeasurements(readTextFile(path, kCsvMaxBytes, "CPI CSV files"), path, columns);
}

} // namespace crossroof::core
