// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli extrapolate on the synthetic sample (docs/samples/modeltree-*.csv) and on bad input.
#include "cli.h"
#include "cli_run.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string kTrain = std::string(CROSSROOF_SOURCE_DIR) + "/docs/samples/modeltree-training.csv";
const std::string kMeasured = std::string(CROSSROOF_SOURCE_DIR) + "/docs/samples/modeltree-measured-cpi.csv";

using crossroof::test::run;
using crossroof::test::runJson;
using crossroof::test::writeFile;

} // namespace

class TestCliExtrapolate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jsonReport()
    {
        const json j = runJson({"extrapolate", "--train", kTrain, "--target-size", "160", "--json"});
        QCOMPARE(j["rows"].get<int>(), 350);
        QCOMPARE(j["target_size"].get<double>(), 160.0);
        const json &p = j["tree"]["p"];
        QCOMPARE(p["target"].get<std::string>(), std::string("p_value"));
        QCOMPARE(p["leaves"].get<int>(), 4);
        QCOMPARE(p["root"]["split"]["attribute"].get<std::string>(), std::string("q_value"));
        QCOMPARE(p["root"]["le"]["split"]["attribute"].get<std::string>(), std::string("Num_MC_States"));
        QCOMPARE(p["root"]["le"]["split"]["threshold"].get<double>(), 20.5);
        QCOMPARE(p["root"]["le"]["le"]["leaf"].get<std::string>(), std::string("LM1"));
        QVERIFY(p["root"]["le"]["le"]["model"]["terms"].is_array());
        QVERIFY(p["rule_columns"] == json({"q_value", "Num_MC_States"}));
        QCOMPARE(p["rules"].size(), std::size_t(4));
        QCOMPARE(p["rules"][1]["ranges"]["Num_MC_States"]["above"].get<double>(), 20.5);
        QVERIFY(p["rules"][1]["ranges"]["Num_MC_States"]["at_most"].is_null());
        QVERIFY(p["text"].get<std::string>().find("LM4:") != std::string::npos);
        QCOMPARE(j["tree"]["q"]["target"].get<std::string>(), std::string("q_value"));

        QCOMPARE(j["cv"]["folds"].get<int>(), 10);
        QVERIFY(j["cv"]["mse_p"].get<double>() > 0 && j["cv"]["mse_p"].get<double>() < 1e-3);
        QVERIFY(j["cv"]["mse_q"].get<double>() > 0 && j["cv"]["mse_q"].get<double>() < 1e-4);

        const json &list = j["predictions"];
        QCOMPARE(list.size(), std::size_t(7));
        double last = 0;
        for (const json &s : list) {
            QVERIFY(s["p"].get<double>() >= 0 && s["p"].get<double>() <= 1);
            if (s["cpi"].is_null()) {
                QVERIFY(s["infinite"].get<bool>());
                last = std::numeric_limits<double>::infinity();
                continue;
            }
            QVERIFY(s["cpi"].get<double>() >= last);
            last = s["cpi"].get<double>();
        }
        QCOMPARE(list[0]["rank"].get<int>(), 1);
        QVERIFY(j["cpi_check"].is_null());
    }

    void measuredAndWarnings()
    {
        const auto r = run({"extrapolate", "--train", kTrain, "--target-size", "160", "--measured", kMeasured,
                            "--folds", "5", "--json"});
        QCOMPARE(r.status, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["cv"]["folds"].get<int>(), 5);
        const json &check = j["cpi_check"];
        QCOMPARE(check["rows"].size(), std::size_t(12));
        QVERIFY(check["sd_error_percent"].get<double>() > 0);
        QVERIFY(check["mean_abs_error_percent"].get<double>() < 10);
        // At 160 the trees push 8threads_4threads_per_core's q past 1: clamped, and said so on stderr.
        QVERIFY2(r.err.find("warning: 8threads_4threads_per_core") != std::string::npos, r.err.c_str());
        bool clamped = false;
        for (const json &s : j["predictions"])
            clamped = clamped || (s["strategy"] == "8threads_4threads_per_core" && s["clamped"].get<bool>());
        QVERIFY(clamped);
    }

    void smoothingOnAndOff()
    {
        // The printed leaf models are the ones that predict: with smoothing (the default) the blended models,
        // without it each leaf's own. At twice the largest training size (256) smoothing moves
        // 8threads_1thread_per_core's p from its leaf's own 0.0645 to 0.1167, while 8threads_4threads_per_core's
        // q passes 1 either way (its leaf's own law does: 1.1215 unsmoothed, 1.122 smoothed).
        const auto predicted = [](const json &j, const char *strategy, const char *key) {
            for (const json &s : j["predictions"]) {
                if (s["strategy"].get<std::string>().rfind(strategy, 0) == 0)
                    return s[key].get<double>();
            }
            return -1.0;
        };
        const auto printed = [](const json &j, const char *text) {
            return j["tree"]["q"]["text"].get<std::string>().find(text) != std::string::npos;
        };
        const json on = runJson({"extrapolate", "--train", kTrain, "--target-size", "256", "--json"});
        const json off = runJson({"extrapolate", "--train", kTrain, "--target-size", "256", "--smoothing", "off",
                                  "--json"});
        QVERIFY(on["smoothing"].get<bool>());
        QVERIFY(!off["smoothing"].get<bool>());
        QVERIFY(printed(on, "Smoothed linear models") && printed(off, "each leaf's own"));
        QVERIFY(std::abs(predicted(on, "8threads_1thread", "p_tree") - 0.1167) < 1e-3);
        QVERIFY(std::abs(predicted(off, "8threads_1thread", "p_tree") - 0.0645) < 1e-3);
        QVERIFY(std::abs(predicted(on, "8threads_4threads", "q_tree") - 1.122) < 1e-3);
        QVERIFY(std::abs(predicted(off, "8threads_4threads", "q_tree") - 1.1215) < 1e-3);
        // Without smoothing a leaf's predicting model is its own model.
        const json &leaf = off["tree"]["q"]["root"];
        std::vector<const json *> stack{&leaf};
        int leaves = 0;
        while (!stack.empty()) {
            const json &n = *stack.back();
            stack.pop_back();
            if (n.contains("leaf")) {
                QVERIFY(n["predicting_model"] == n["model"]);
                ++leaves;
            } else {
                stack.push_back(&n["le"]);
                stack.push_back(&n["gt"]);
            }
        }
        QVERIFY(leaves >= 1);
        QCOMPARE(run({"extrapolate", "--train", kTrain, "--smoothing", "maybe"}).status, 2);
    }

    void textReport()
    {
        const auto r = run({"extrapolate", "--train", kTrain, "--min-leaf", "6"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("Model tree for p_value") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("10-fold cross-validation: MSE p") != std::string::npos);
        QVERIFY(r.out.find("Predicted at size 128") != std::string::npos);
    }

    void largeTrainingFile()
    {
        // The sample's 350 runs 36 times over, each copy 0.001 larger: 12,600 rows, of which the trees learn
        // from about 10,000 spread over each strategy's sizes and iterations, and say so.
        QTemporaryDir dir;
        std::ifstream in(kTrain);
        std::string comment;
        std::string header;
        std::getline(in, comment);
        std::getline(in, header);
        std::vector<std::string> body;
        for (std::string line; std::getline(in, line);)
            body.push_back(line);
        QCOMPARE(body.size(), std::size_t(350));
        std::string text = header + "\n";
        for (int copy = 0; copy < 36; ++copy) {
            for (const std::string &line : body) {
                const std::size_t comma = line.find(',');
                text += std::to_string(std::stod(line.substr(0, comma)) + 0.001 * copy) + line.substr(comma) + "\n";
            }
        }
        const std::string path = writeFile(dir, "large.csv", text);
        const json j = runJson({"extrapolate", "--train", path, "--target-size", "160", "--json"});
        QCOMPARE(j["rows"].get<int>(), 12600);
        const int treeRows = j["tree_rows"].get<int>();
        QVERIFY2(treeRows >= 9993 && treeRows <= 10000, std::to_string(treeRows).c_str());
        QCOMPARE(j["cv"]["rows"].get<int>(), treeRows);
        QCOMPARE(j["tree"]["p"]["root"]["rows"].get<int>(), treeRows);
        QCOMPARE(j["training_sizes"]["max"].get<double>(), 128.035);
        QCOMPARE(j["predictions"].size(), std::size_t(7));
        // The copies repeat the sample's truth: the p tree keeps its first split on q near 0.84.
        QCOMPARE(j["tree"]["p"]["root"]["split"]["attribute"].get<std::string>(), std::string("q_value"));
        const auto r = run({"extrapolate", "--train", path});
        QCOMPARE(r.status, 0);
        const std::string line = "Trees     grown on " + std::to_string(treeRows)
                                 + " of the 12600 rows, spread over each strategy's sizes and iterations\n";
        QVERIFY2(r.out.find(line) != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("10-fold cross-validation on those " + std::to_string(treeRows) + " rows: MSE p")
                != std::string::npos);
        // The folds deal out those rows: no more folds than they are.
        crossroof::test::expectUsageError({"extrapolate", "--train", QString::fromStdString(path), "--folds",
                                           QString::number(treeRows + 1)},
                                          QString("option '--folds': must be between 2 and %1").arg(treeRows));
        // Up to the limit every row grows the trees, and the report says nothing more.
        const auto small = run({"extrapolate", "--train", kTrain});
        QVERIFY(small.out.find("Trees     grown on") == std::string::npos);
        QCOMPARE(runJson({"extrapolate", "--train", kTrain, "--json"})["tree_rows"].get<int>(), 350);
    }

    void renamedColumns()
    {
        QTemporaryDir dir;
        std::ifstream in(kTrain);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        text.replace(text.find("Application_size"), 16, "AS");
        const std::string path = writeFile(dir, "as.csv", text);
        const json j = runJson({"extrapolate", "--train", path, "--column", "size=AS", "--json"});
        QCOMPARE(j["columns"]["size"].get<std::string>(), std::string("AS"));
        QCOMPARE(j["tree"]["p"]["leaves"].get<int>(), 4);
        crossroof::test::expectUsageError({"extrapolate", "--train", QString::fromStdString(path)},
                                          "no column 'Application_size'");
    }

    void help()
    {
        const auto r = run({"extrapolate", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.find("--column KEY=NAME") != std::string::npos);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString train = QString::fromStdString(kTrain);
        QTest::newRow("no train") << QStringList {"extrapolate", "--json"} << "--train FILE";
        QTest::newRow("missing file")
                << QStringList {"extrapolate", "--train", "/nonexistent.csv"} << "/nonexistent.csv";
        QTest::newRow("bad size") << QStringList {"extrapolate", "--train", train, "--target-size", "big"}
                                  << "option '--target-size': 'big' is not a number";
        QTest::newRow("bad folds") << QStringList {"extrapolate", "--train", train, "--folds", "1"}
                                   << "--folds";
        QTest::newRow("too many folds")
                << QStringList {"extrapolate", "--train", train, "--folds", "351"} << "--folds";
        QTest::newRow("bad leaf") << QStringList {"extrapolate", "--train", train, "--min-leaf", "0"}
                                  << "--min-leaf";
        QTest::newRow("bad key") << QStringList {"extrapolate", "--train", train, "--column", "speed=S"}
                                 << "unknown column key 'speed'";
        QTest::newRow("measured unknown")
                << QStringList {"extrapolate", "--train", train, "--measured", train} << "no column 'CPI'";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        crossroof::test::expectUsageError(args, message);
    }

    void badFiles()
    {
        QTemporaryDir dir;
        const std::string header = "Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,"
                                   "Num_MC_States,p_value,"
                                   "q_value\n";
        const std::string few = writeFile(dir, "few.csv", header + "32,1,2,1,2T_2,4,0.2,0.5\n");
        crossroof::test::expectUsageError({"extrapolate", "--train", QString::fromStdString(few)},
                                          "few.csv: 1 training rows; a model tree needs at least 8");
        std::string text = header;
        for (int i = 0; i < 8; ++i)
            text += "32," + std::to_string(i) + ",2,1,2T_2,4,0.3,0." + std::to_string(i + 1) + "\n";
        const std::string constant = writeFile(dir, "constant.csv", text);
        crossroof::test::expectUsageError({"extrapolate", "--train", QString::fromStdString(constant)},
                                          "constant.csv: column 'p_value' is 0.3 in every row");
        const std::string measured
                = writeFile(dir, "measured.csv", "Application_size,Mapping_Strategy,CPI\n256,9T,2\n");
        crossroof::test::expectUsageError({"extrapolate", "--train", QString::fromStdString(kTrain),
                                           "--measured", QString::fromStdString(measured)},
                                          "line 2: unknown mapping strategy '9T'");
    }
};

QTEST_GUILESS_MAIN(TestCliExtrapolate)
#include "tst_cli_extrapolate.moc"
