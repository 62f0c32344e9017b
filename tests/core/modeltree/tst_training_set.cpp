// SPDX-License-Identifier: GPL-3.0-or-later
// The training CSV of the model-tree step and the measured-CPI file: columns, renaming, and every refusal.

#include "core/error_of.h"
#include "core/modeltree/training_set.h"
#include "core/support/error.h"

#include <QTest>

using namespace crossroof::core;

namespace {

using crossroof::test::errorOf;

const char *kHeader
        = "Application_size,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,p_value,"
          "q_value\n";

/// Eight good rows of two strategies (lines 2..9), with ROW_TEXT appended as line 10 when given.
std::string training(const std::string &extra = {}, const std::string &header = kHeader)
{
    std::string text = header;
    for (int i = 0; i < 4; ++i) {
        text += "32," + std::to_string(i + 1) + ",2,1,2T_2,4,0." + std::to_string(2 + i) + ",0.5\n";
        text += "32," + std::to_string(i + 1) + ",4,2,8T_1,81,0.3,0." + std::to_string(6 + i) + "\n";
    }
    return text + extra;
}

} // namespace

class TestTrainingSet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheThesisColumns()
    {
        const TrainingSet set = parseTrainingSet(training(), "runs.csv");
        QCOMPARE(set.rows.size(), std::size_t(8));
        const TrainingRow &r = set.rows[1];
        QCOMPARE(r.size, 32.0);
        QCOMPARE(r.iteration, 1.0);
        QCOMPARE(r.num_l2, 4);
        QCOMPARE(r.threads_per_l2, 2);
        QCOMPARE(r.strategy, std::string("8T_1"));
        QCOMPARE(r.states, 81.0);
        QCOMPARE(r.p, 0.3);
        QCOMPARE(r.q, 0.6);
        QCOMPARE(r.line, 3);
        QCOMPARE(set.strategies(), (std::vector<std::string> {"2T_2", "8T_1"}));
    }

    void renamedColumns()
    {
        TrainingColumns c;
        c.assign("size=AS");
        c.set("p", "p");
        std::string text
                = training({}, "AS,Iteration,Num_L2,Num_threads_per_L2,Mapping_Strategy,Num_MC_States,p,"
                               "q_value\n");
        QCOMPARE(parseTrainingSet(text, "runs.csv", c).rows.size(), std::size_t(8));
        // Under the default names the same file lacks a column, and the message lists what it has.
        QCOMPARE(errorOf([&] { parseTrainingSet(text, "runs.csv"); }),
                 QStringLiteral("runs.csv:1: no column 'Application_size' in the header (columns: AS, Iteration, Num_L2, "
                                "Num_threads_per_L2, Mapping_Strategy, Num_MC_States, p, q_value)"));
        QCOMPARE(errorOf([&] { c.assign("speed=S"); }),
                 QStringLiteral(
                         "unknown column key 'speed' (the keys are size, iteration, num_l2, threads_per_l2, "
                         "strategy, states, p, q, cpi)"));
        QVERIFY(errorOf([&] { c.assign("size"); }).startsWith("'size' is not KEY=NAME"));
        QCOMPARE(errorOf([&] { c.assign("size="); }),
                 QStringLiteral("column key 'size': the column name is empty"));
    }

    void badRows_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a number") << QString::fromStdString(training("64,x,2,1,2T_2,4,0.2,0.5\n"))
                                      << "runs.csv:10:4: column 'Iteration': 'x' is not a number";
        QTest::newRow("huge size") << QString::fromStdString(training("1e300,1,2,1,2T_2,4,0.2,0.5\n"))
                                   << "runs.csv:10:1: column 'Application_size': 1e+300 is beyond +-1e100";
        QTest::newRow("fractional groups") << QString::fromStdString(training("64,1,2.5,1,2T_2,4,0.2,0.5\n"))
                                           << "runs.csv:10:6: column 'Num_L2': 2.5 is not a whole number in "
                                              "1..1000000";
        QTest::newRow("no threads") << QString::fromStdString(training("64,1,2,0,2T_2,4,0.2,0.5\n"))
                                    << "column 'Num_threads_per_L2': 0 is not a whole number";
        QTest::newRow("p above 1") << QString::fromStdString(training("64,1,2,1,2T_2,4,1.2,0.5\n"))
                                   << "runs.csv:10:17: column 'p_value': 1.2 is not a probability in [0, 1]";
        QTest::newRow("empty strategy") << QString::fromStdString(training("64,1,2,1,,4,0.2,0.5\n"))
                                        << "runs.csv:10:10: column 'Mapping_Strategy': the strategy is empty";
        QTest::newRow("missing cell")
                << QString::fromStdString(training("64,1,2,1,2T_2,4,0.2\n")) << "runs.csv:10";
        QTest::newRow("two topologies") << QString::fromStdString(training("64,1,1,2,2T_2,3,0.2,0.5\n"))
                                        << "runs.csv:10: strategy '2T_2' has 1 x 2 threads and 3 states here "
                                           "but 2 x 1 and 4 on line 2";
        QTest::newRow("too few rows")
                << QString(kHeader) + "32,1,2,1,2T_2,4,0.2,0.5\n32,2,2,1,2T_2,4,0.3,0.6\n"
                << "runs.csv: 2 training rows; a model tree needs at least 8";
    }

    void badRows()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = errorOf([&] { parseTrainingSet(text.toStdString(), "runs.csv"); });
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void constantTargets()
    {
        std::string text = kHeader;
        for (int i = 0; i < 8; ++i)
            text += "32," + std::to_string(i) + ",2,1,2T_2,4,0.25,0." + std::to_string(1 + i) + "\n";
        QCOMPARE(
                errorOf([&] { parseTrainingSet(text, "runs.csv"); }),
                QStringLiteral("runs.csv: column 'p_value' is 0.25 in every row: there is nothing to learn"));
        std::string q = kHeader;
        for (int i = 0; i < 8; ++i)
            q += "32," + std::to_string(i) + ",2,1,2T_2,4,0." + std::to_string(1 + i) + ",0.5\n";
        QCOMPARE(errorOf([&] { parseTrainingSet(q, "runs.csv"); }),
                 QStringLiteral("runs.csv: column 'q_value' is 0.5 in every row: there is nothing to learn"));
    }

    void missingFile()
    {
        QVERIFY(errorOf([] {
                    readTrainingSet("/nonexistent/runs.csv");
                }).startsWith("/nonexistent/runs.csv"));
    }

    void measuredCpi()
    {
        const std::vector<CpiMeasurement> m = parseCpiMeasurements(
                "Application_size,Mapping_Strategy,CPI\n256,2T_2,1.5\n512,8T_1,2\n", "cpi.csv");
        QCOMPARE(m.size(), std::size_t(2));
        QCOMPARE(m[1].strategy, std::string("8T_1"));
        QCOMPARE(m[1].size, 512.0);
        QCOMPARE(m[1].cpi, 2.0);
        QVERIFY(!m[1].iteration);
        QCOMPARE(m[1].line, 3);
        const std::vector<CpiMeasurement> withIteration = parseCpiMeasurements(
                "Application_size,Iteration,Mapping_Strategy,CPI\n256,7,2T_2,1.5\n", "cpi.csv");
        QCOMPARE(*withIteration[0].iteration, 7.0);
        QCOMPARE(errorOf([] {
                     parseCpiMeasurements("Application_size,Mapping_Strategy,CPI\n256,2T_2,0.5\n", "cpi.csv");
                 }),
                 QStringLiteral(
                         "cpi.csv:2:10: column 'CPI': a CPI of 0.5 is below 1, which the Markov model cannot "
                         "predict"));
        QVERIFY(errorOf([] {
                    parseCpiMeasurements("Application_size,Mapping_Strategy\n256,2T_2\n", "cpi.csv");
                }).startsWith("cpi.csv:1: no column 'CPI'"));
    }
};

QTEST_GUILESS_MAIN(TestTrainingSet)
#include "tst_training_set.moc"
