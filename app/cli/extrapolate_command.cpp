// SPDX-License-Identifier: GPL-3.0-or-later
// extrapolate: model trees learn (p, q) from training runs at small sizes, predict them at a target size for
// every mapping strategy, and rank the strategies by their Markov CPI there (CLI.md).
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/modeltree/extrapolation.h"
#include "core/modeltree/tree_text.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

/// The most mapping strategies a training file may hold.
constexpr std::size_t kMaxStrategies = 64;

Json modelJson(const core::ModelTree &tree, const core::LinearModel &model)
{
    Json terms = Json::array();
    for (std::size_t i = 0; i < model.attributes.size(); ++i)
        terms.push_back({{"attribute", tree.attributes()[std::size_t(model.attributes[i])]},
                         {"coefficient", model.coefficients[i]}});
    return {{"intercept", model.intercept}, {"terms", terms}};
}

Json nodeJson(const core::ModelTree &tree, int index)
{
    const core::ModelTreeNode &n = tree.nodes()[std::size_t(index)];
    Json j;
    if (n.isLeaf())
        j["leaf"] = core::leafName(n.leaf_number);
    else
        j["split"] = {{"attribute", tree.attributes()[std::size_t(n.attribute)]}, {"threshold", n.threshold}};
    j["rows"] = n.count;
    j["rms_error"] = n.rms_error;
    j["model"] = modelJson(tree, n.model);
    if (n.isLeaf())
        j["predicting_model"] = modelJson(tree, tree.predictingModel(index));
    if (!n.isLeaf()) {
        j["le"] = nodeJson(tree, n.left);
        j["gt"] = nodeJson(tree, n.right);
    }
    return j;
}

Json rangeJson(const core::AttributeRange &r)
{
    return {{"above", std::isfinite(r.low) ? Json(r.low) : Json(nullptr)},
            {"at_most", std::isfinite(r.high) ? Json(r.high) : Json(nullptr)}};
}

Json treeJson(const core::ModelTree &tree)
{
    Json j;
    j["target"] = tree.target();
    j["attributes"] = tree.attributes();
    j["leaves"] = tree.leafCount();
    j["depth"] = tree.depth();
    const core::TreeTable table = core::treeTable(tree);
    Json columns = Json::array();
    for (int c : table.columns)
        columns.push_back(tree.attributes()[std::size_t(c)]);
    Json rules = Json::array();
    for (const core::LeafRule &r : table.rows) {
        Json ranges = Json::object();
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            if (!r.ranges[c].text().empty())
                ranges[columns[c].get<std::string>()] = rangeJson(r.ranges[c]);
        }
        rules.push_back({{"leaf", core::leafName(r.leaf_number)}, {"ranges", ranges}});
    }
    j["rule_columns"] = columns;
    j["rules"] = rules;
    j["root"] = nodeJson(tree, 0);
    j["text"] = core::treeText(tree);
    return j;
}

Json cpiJson(const core::MarkovResult &r)
{
    return r.infinite ? Json(nullptr) : Json(r.cpi);
}

Json predictionJson(const core::StrategyPrediction &s, std::size_t rank)
{
    return {{"rank", rank},
            {"strategy", s.strategy},
            {"p", s.p},
            {"q", s.q},
            {"cpi", cpiJson(s.markov)},
            {"infinite", s.markov.infinite},
            {"clamped", s.clamped},
            {"p_tree", s.p_tree},
            {"q_tree", s.q_tree},
            {"groups", s.groups},
            {"threads_per_group", s.threads_per_group},
            {"iteration", s.iteration}};
}

Json checkJson(const core::CpiCheck &check, const std::string &path)
{
    Json rows = Json::array();
    for (const core::CpiCheckRow &r : check.rows)
        rows.push_back(
                {{"line", r.measured.line},
                 {"strategy", r.measured.strategy},
                 {"size", r.measured.size},
                 {"iteration", r.predicted.iteration},
                 {"measured_cpi", r.measured.cpi},
                 {"predicted_cpi", cpiJson(r.predicted.markov)},
                 {"error_percent", std::isfinite(r.error_percent) ? Json(r.error_percent) : Json(nullptr)}});
    return {{"file", path},
            {"mean_error_percent", check.mean_error_percent},
            {"sd_error_percent", check.sd_error_percent},
            {"mean_abs_error_percent", check.mean_abs_error_percent},
            {"infinite", check.infinite},
            {"rows", rows}};
}

void printText(const core::TrainingSet &set, const core::ExtrapolationModel &model,
               const core::ExtrapolationCv &cv, double size,
               const std::vector<core::StrategyPrediction> &predictions,
               const std::optional<core::CpiCheck> &check, std::ostream &out)
{
    out << "Training  " << set.source << ", " << set.rows.size() << " rows, " << model.strategies.size()
        << " strategies, sizes " << fmt(model.min_size, "%g") << " to " << fmt(model.max_size, "%g") << '\n';
    if (model.tree_rows < model.rows)
        out << "Trees     grown on " << model.tree_rows << " of the " << model.rows
            << " rows, spread over each strategy's sizes and iterations\n";
    out << '\n'
        << core::treeText(model.q_tree) << core::treeText(model.p_tree) << cv.p.folds
        << "-fold cross-validation" << (cv.rows < set.rows.size() ? " on those " + std::to_string(cv.rows) + " rows" : "")
        << ": MSE p " << fmt(cv.p.mse, "%.4g") << ", MSE q " << fmt(cv.q.mse, "%.4g")
        << "\n\nPredicted at size " << fmt(size, "%g") << " (steady-state Markov CPI, best first):\n"
        << "  rank  strategy                                   p        q      groups        CPI\n";
    std::size_t rank = 1;
    for (const core::StrategyPrediction &s : predictions) {
        std::string name = s.strategy;
        name.resize(std::max<std::size_t>(name.size(), 40), ' ');
        out << fmt(double(rank++), "%6.0f") << "  " << name << fmt(s.p, "%7.4f") << fmt(s.q, "%9.4f") << "   "
            << s.groups << " x " << s.threads_per_group
            << (s.markov.infinite ? std::string("   infinite") : fmt(s.markov.cpi, "%11.4f"))
            << (s.clamped ? "  (clamped to [0, 1])" : "") << '\n';
    }
    if (check) {
        out << "\nAgainst measured CPI (" << check->rows.size() << " rows): mean error "
            << fmt(check->mean_error_percent, "%+.2f") << " %, standard deviation "
            << fmt(check->sd_error_percent, "%.2f") << " %, mean |error| "
            << fmt(check->mean_abs_error_percent, "%.2f") << " %";
        if (check->infinite > 0)
            out << ", " << check->infinite << " predicted infinite";
        out << '\n';
    }
}

/// Refuses a comparison with measured CPI whose errors in percent overflowed a double (a measured CPI near
/// its limit), naming the file, line and column of the largest such CPI, before anything is printed.
void checkErrorsAreFinite(const core::CpiCheck &check, const std::string &path, const std::string &column)
{
    bool finite = std::isfinite(check.mean_error_percent) && std::isfinite(check.sd_error_percent)
                  && std::isfinite(check.mean_abs_error_percent);
    const core::CpiCheckRow *largest = nullptr;
    for (const core::CpiCheckRow &r : check.rows) {
        if (r.predicted.markov.infinite)
            continue;
        finite = finite && std::isfinite(r.error_percent);
        if (!largest || r.measured.cpi > largest->measured.cpi)
            largest = &r;
    }
    if (finite || !largest)
        return;
    throw InputError(path + ":" + std::to_string(largest->measured.line) + ": column '" + column + "': measured CPI "
                     + core::formatNumber(largest->measured.cpi)
                     + " is too large to compare with (its error in percent overflows a double)");
}

void runExtrapolate(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err)
{
    const Args args(
            argv,
            {{"json"}, {"train", "target-size", "iteration", "min-leaf", "folds", "measured", "smoothing"}, {"column"}});
    const std::string path = args.value("train");
    if (path.empty())
        throw InputError("give the training runs with '--train FILE'");
    core::TrainingColumns columns;
    std::vector<std::string> keys; // each once, as other options: a second silently won
    for (const std::string &assignment : args.all("column")) {
        const std::string key = assignment.substr(0, assignment.find('='));
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            throw InputError("option '--column': key '" + core::quoteForMessage(key) + "' is given twice");
        keys.push_back(key);
        withOption("column", [&] { columns.assign(assignment); });
    }
    core::M5Options options;
    options.min_leaf = int(args.integer("min-leaf", 4, 1, core::kMaxMinLeaf));
    const std::string smoothing = args.value("smoothing", "on");
    if (smoothing != "on" && smoothing != "off")
        throw InputError("option '--smoothing': must be on or off (got '" + smoothing + "')");
    options.smooth = smoothing == "on";
    const core::TrainingSet set = core::readTrainingSet(path, columns);
    // Each strategy is an attribute of the trees: their work grows with the square of the strategies (8,000
    // took 122 s and 2.7 GB; 64 over 10,000 rows take about 6 s of CPU), and no ranking of thousands is read.
    std::unordered_set<std::string_view> strategies;
    for (const core::TrainingRow &row : set.rows)
        strategies.insert(row.strategy);
    if (strategies.size() > kMaxStrategies) {
        throw InputError(path + ": " + std::to_string(strategies.size()) + " mapping strategies, more than "
                         + std::to_string(kMaxStrategies) + " (each is an attribute of the model trees)");
    }
    const core::ExtrapolationModel model = core::trainExtrapolation(set, options);
    // The folds deal out the rows the trees are grown on (all of them, or a spread part of a large set).
    const int folds = int(args.integer("folds", 10, 2, (long long)model.tree_rows));
    const core::ExtrapolationCv cv = core::crossValidateExtrapolation(set, options, folds);
    // The trees' linear models take magnitudes up to 1e100 (kMaxRegressionMagnitude).
    const double size = args.number("target-size", model.max_size, -1e100, 1e100);
    const std::optional<double> iteration
            = args.has("iteration") ? std::optional<double>(args.number("iteration", 0, -1e100, 1e100)) : std::nullopt;
    const std::vector<core::StrategyPrediction> predictions = core::predictAll(model, size, iteration);
    std::optional<core::CpiCheck> check;
    if (args.has("measured")) {
        const std::string measured = args.value("measured");
        const std::vector<core::CpiMeasurement> rows = core::readCpiMeasurements(measured, columns);
        try {
            check = core::checkCpi(model, rows);
        } catch (const InputError &e) {
            throw InputError(measured + ": " + e.what()); // "line N: ..." of which file
        }
        checkErrorsAreFinite(*check, measured, columns.cpi);
    }

    for (const core::StrategyPrediction &s : predictions) {
        if (s.clamped)
            err << "crossroof-cli extrapolate: warning: " << s.strategy
                << ": the trees predict p = " << fmt(s.p_tree, "%.4g") << ", q = " << fmt(s.q_tree, "%.4g")
                << " at size " << fmt(size, "%g") << "; clamped to [0, 1]\n";
    }
    if (!args.flag("json")) {
        printText(set, model, cv, size, predictions, check, out);
        return;
    }
    Json j;
    j["train"] = path;
    j["rows"] = set.rows.size();
    j["tree_rows"] = model.tree_rows;
    j["columns"] = {{"size", columns.size},
                    {"iteration", columns.iteration},
                    {"num_l2", columns.num_l2},
                    {"threads_per_l2", columns.threads_per_l2},
                    {"strategy", columns.strategy},
                    {"states", columns.states},
                    {"p", columns.p},
                    {"q", columns.q}};
    j["training_sizes"] = {{"min", model.min_size}, {"max", model.max_size}};
    j["target_size"] = size;
    j["iteration"] = iteration ? Json(*iteration) : Json(nullptr);
    j["min_leaf"] = options.min_leaf;
    j["smoothing"] = options.smooth;
    j["tree"] = {{"p", treeJson(model.p_tree)}, {"q", treeJson(model.q_tree)}};
    j["cv"] = {{"folds", folds},
               {"rows", cv.rows},
               {"mse_p", cv.p.mse},
               {"mse_q", cv.q.mse},
               {"mae_p", cv.p.mae},
               {"mae_q", cv.q.mae}};
    Json list = Json::array();
    for (std::size_t i = 0; i < predictions.size(); ++i)
        list.push_back(predictionJson(predictions[i], i + 1));
    j["predictions"] = list;
    j["cpi_check"] = check ? checkJson(*check, args.value("measured")) : Json(nullptr);
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp
        = "Usage: crossroof-cli extrapolate --train FILE [--target-size S] [--iteration I] [--min-leaf N]\n"
          "                                 [--smoothing on|off] [--folds K] [--column KEY=NAME]...\n"
          "                                 [--measured FILE] [--json]\n\n"
          "Learns the thread transition probabilities q and p of each mapping strategy from training runs at "
          "small\n"
          "application sizes with M5' model trees (q from the run's description; p from the description and "
          "q),\n"
          "predicts them at the target size, and ranks the strategies by the steady-state Markov CPI of "
          "their\n"
          "cache groups there. Prints both trees (rules and linear models), the k-fold cross-validation MSE "
          "of p\n"
          "and q, and the predictions; predicted p and q outside [0, 1] are clamped, with a warning.\n\n"
          "  --train FILE        CSV of training runs, one row per size, iteration and strategy, with the "
          "columns\n"
          "                      Application_size, Iteration, Num_L2, Num_threads_per_L2, Mapping_Strategy,\n"
          "                      Num_MC_States, p_value, q_value (other columns are ignored)\n"
          "  --target-size S     the application size to predict (default: the largest training size)\n"
          "  --iteration I       the iteration to predict (default: each strategy's last training "
          "iteration)\n"
          "  --min-leaf N        fewest training rows on each side of a split (default 4)\n"
          "  --smoothing on|off  on (default): a prediction blends the leaf's model with the models on its\n"
          "                      path (M5'), and the trees print these blended models; off: each leaf's own\n"
          "                      linear law\n"
          "  --folds K           folds of the cross-validation, 2 to the number of rows (default 10)\n"
          "                      (of a file over 10000 rows the trees are grown and cross-validated on\n"
          "                      about 10000 of them, spread over each strategy's sizes and iterations)\n"
          "  --column KEY=NAME   read KEY from the column NAME (repeatable); keys: size, iteration, num_l2,\n"
          "                      threads_per_l2, strategy, states, p, q, and cpi (for --measured)\n"
          "  --measured FILE     CSV of measured CPI (Application_size, Mapping_Strategy, CPI and "
          "optionally\n"
          "                      Iteration): reports predicted against measured, mean and standard "
          "deviation\n"
          "                      of the errors in percent\n"
          "  --json              JSON output (keys as in CLI.md); without it, a readable report\n";

} // namespace

const Command kExtrapolateCommand {"extrapolate",
                                   "model trees: (p, q) and CPI of every strategy at a larger size", kHelp,
                                   nullptr, runExtrapolate};

} // namespace crossroof::cli
