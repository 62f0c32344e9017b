// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training runs of the thesis' model-tree step: one row per (application size, iteration, mapping
// strategy) with the strategy's Markov topology and the (p, q) fitted to that run (docs/MODEL.md, "Model
// tree"; the file format in docs/CLI.md, "extrapolate").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// The column each field is read from. The defaults are the column labels of the thesis' Weka input.
struct TrainingColumns {
    std::string size = "Application_size";
    std::string iteration = "Iteration";
    std::string num_l2 = "Num_L2";
    std::string threads_per_l2 = "Num_threads_per_L2";
    std::string strategy = "Mapping_Strategy";
    std::string states = "Num_MC_States";
    std::string p = "p_value";
    std::string q = "q_value";
    std::string cpi = "CPI"; ///< only in files of measured CPI (readCpiMeasurements())

    /// The keys set() takes: size, iteration, num_l2, threads_per_l2, strategy, states, p, q, cpi.
    static const std::vector<std::string_view> &keys();
    /// Renames the column of KEY. Throws InputError for an unknown key or an empty name.
    void set(std::string_view key, std::string name);
    /// "KEY=NAME" as on the command line; throws InputError naming the assignment when it is malformed.
    void assign(std::string_view assignment);
    bool operator==(const TrainingColumns &) const = default;
};

struct TrainingRow {
    double size = 0; ///< application size, in the user's unit
    double iteration = 0;
    int num_l2 = 1; ///< cache groups (G)
    int threads_per_l2 = 1; ///< threads per group (N)
    std::string strategy; ///< mapping strategy name
    double states = 0; ///< number of Markov states, as the training file gives it
    double p = 0;
    double q = 0;
    int line = 0; ///< 1-based line in the file
    bool operator==(const TrainingRow &) const = default;
};

struct TrainingSet {
    std::string source;
    TrainingColumns columns;
    std::vector<TrainingRow> rows;

    /// The strategies in the order they first appear.
    std::vector<std::string> strategies() const;
    bool operator==(const TrainingSet &) const = default;
};

/// Fewest rows a training file must have.
inline constexpr std::size_t kMinTrainingRows = 8;

/// Reads training runs from CSV text (any of the table forms core::parseCsv() reads). Throws InputError
/// naming the file, line and column for: a missing column, a cell that is not a number (or beyond +-1e100,
/// kMaxRegressionMagnitude), Num_L2 or
/// Num_threads_per_L2 not a whole number in 1..kMaxThreadsPerGroup, p or q outside [0, 1], an empty strategy,
/// a strategy whose rows disagree about its topology, fewer than kMinTrainingRows rows, and p or q the same
/// in every row.
TrainingSet parseTrainingSet(std::string_view text, const std::string &source,
                             const TrainingColumns &columns = {});
TrainingSet readTrainingSet(const std::string &path, const TrainingColumns &columns = {});
/// The checks parseTrainingSet() makes of the rows as a whole, for rows from elsewhere (a session): at least
/// kMinTrainingRows rows, each strategy with one topology and one number of states, p and q not the same in
/// every row. Throws InputError naming SET.source and the row's line.
void checkTrainingSet(const TrainingSet &set);

/// A CPI measured at some size, for the second check of an extrapolation (checkCpi()).
struct CpiMeasurement {
    std::string strategy;
    double size = 0;
    std::optional<double> iteration; ///< none: the file has no iteration column
    double cpi = 0;
    int line = 0;
    bool operator==(const CpiMeasurement &) const = default;
};

/// Reads measured CPI from CSV text with the size, strategy and cpi columns, and the iteration column when
/// the file has one. Throws InputError naming the file, line and column (a CPI must be >= 1).
std::vector<CpiMeasurement> parseCpiMeasurements(std::string_view text, const std::string &source,
                                                 const TrainingColumns &columns = {});
std::vector<CpiMeasurement> readCpiMeasurements(const std::string &path, const TrainingColumns &columns = {});

} // namespace crossroof::core
