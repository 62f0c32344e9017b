// SPDX-License-Identifier: GPL-3.0-or-later
#include "counters_dialog_fixtures.h"

#include <QFileInfo>

#include "common/number_format.h"

#include <algorithm>

using namespace crossroof;
using namespace crossroof::widgets;
using namespace crossroof::counters_dialog_test;

/// The counters dialog's perf stat runs: read, mapped to uses by event name, refused whole when malformed.
class TestCountersDialogImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void importFillsTheSuspendEvents();
    void importOfTheRealExcerpt();
    void realPerfFileMapsByName();
    void malformedPerfFileLeavesTheInputsAlone();
    void theSameRunTwiceIsRefused();
    void theDialogSaysHowToRecordTheRuns();
    void oneCpuOfAPerCpuRunIsTheSingleRun();
};

void TestCountersDialogImport::importFillsTheSuspendEvents()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString multi = writeFile(dir, QStringLiteral("multi.tsv"), kMultiRun);
    const QString single = writeFile(dir, QStringLiteral("single.tsv"), kSingleRun);
    QVERIFY(!multi.isEmpty() && !single.isEmpty());

    CountersDialog dialog;
    Results results(&dialog);
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });

    // The single-threaded run alone changes nothing yet.
    QCOMPARE(dialog.importSingleRun(single), QString());
    QCOMPARE(dialog.suspendTable()->model()->rowCount(), 3);
    QVERIFY(dialog.importLabel()->text().contains(QStringLiteral("import the multi-threaded run")));
    QVERIFY(dialog.eventUsesTable()->isHidden());

    // With the multi-threaded run: instructions, CPI = cycles / instructions, and the events by name: r08d1
    // (L1 misses, the deepest level counted in the multi-threaded run) suspends; r01d1 (L1 hits), cs and the
    // time-valued cpu-clock are unused, and so is r10d1, which the multi-threaded run did not count.
    QCOMPARE(edits, 0);
    QCOMPARE(dialog.importMultiRun(multi), QString());
    QCOMPARE(edits, 1);
    QVERIFY(!dialog.eventUsesTable()->isHidden());
    QCOMPARE(dialog.eventUsesTable()->rowCount(), 7);
    const CounterInputs in = dialog.inputs();
    QCOMPARE(in.instructions, 1000.0);
    QCOMPARE(in.measured_cpi, std::optional<double>(3.0));
    QCOMPARE(dialog.instructionsEdit()->text(), QStringLiteral("1000"));
    QCOMPARE(dialog.measuredCpiEdit()->text(), QStringLiteral("3"));
    QCOMPARE(in.suspend.size(), std::size_t(1));
    QCOMPARE(in.suspend[0].name, std::string("r08d1"));
    QCOMPARE(in.suspend[0].multi, 300.0);
    QCOMPARE(in.suspend[0].single, 100.0);
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - 0.2) < 1e-15);
    // The thesis' stall events are gone: perf stat has no latency, so q waits for a stall use.
    QVERIFY(in.stall.empty());
    QVERIFY(!dialog.qEstimate());
    QVERIFY2(dialog.error().contains(QStringLiteral("Cannot compute q: no event is used as stall")),
             qPrintable(dialog.error()));
    const QString status = dialog.importLabel()->text();
    QVERIFY2(status.contains(QStringLiteral("multi.tsv (multi-threaded run) and single.tsv (single-threaded run)")),
             qPrintable(status));
    QVERIFY(status.contains(QStringLiteral("cycles / instructions 3")));

    // r08d1 also keeps threads suspended, 20 cycles each: q, the pairs, and the pair nearest the measured CPI.
    dialog.setEventUse(3, core::CounterUse::SuspendAndStall, QStringLiteral("20"));
    QCOMPARE(edits, 2);
    QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
    QCOMPARE(dialog.inputs().stall.size(), std::size_t(1));
    QCOMPARE(dialog.inputs().stall[0].count, 300.0);
    QCOMPARE(dialog.qEstimate()->vector.all, 1 - 1 / 20.0);
    QVERIFY(dialog.nearest());
    QCOMPARE(results.measured, std::optional<double>(3.0));
    QCOMPARE(results.nearest, dialog.nearest());

    // Importing the other run again pairs it with the one already read, and the user's use stays.
    QCOMPARE(dialog.importSingleRun(single), QString());
    QCOMPARE(dialog.inputs().suspend.size(), std::size_t(1));
    QCOMPARE(dialog.inputs().stall.size(), std::size_t(1));
}

void TestCountersDialogImport::importOfTheRealExcerpt()
{
    // 4 CPUs x 3 intervals of a real `perf stat -A -a -x TAB -I 1000` run, and its CPU 0 as the single-threaded
    // run (read as both runs, it is refused: theSameRunTwiceIsRefused).
    CountersDialog dialog;
    QCOMPARE(dialog.importMultiRun(kExcerpt), QString());
    QCOMPARE(dialog.useCpuAsSingleRun(0), QString());
    const core::PerfStat stat = core::readPerfStat(kExcerpt.toStdString());
    const double scale = stat.event("instructions").total / stat.event("instructions").perCpu()[0];
    const CounterInputs in = dialog.inputs();
    QCOMPARE(in.instructions, stat.event("instructions").total);
    QVERIFY(in.measured_cpi);
    QCOMPARE(*in.measured_cpi, core::cyclesPerInstruction(stat));
    QVERIFY(*in.measured_cpi > 1 && *in.measured_cpi < 3);
    std::set<std::string> names;
    for (const auto &e : in.suspend) {
        names.insert(e.name);
        QCOMPARE(e.multi, stat.event(e.name).total);
        QCOMPARE(e.single, stat.event(e.name).perCpu()[0] * scale);
    }
    // The suspending events by name: L2 misses (r10d1, which counts the L1 misses r08d1 again), the three
    // page walks and the mispredicted branches.
    QCOMPARE(names, (std::set<std::string>{"r10d1", "r0e85", "r0e08", "r0e49", "r00c5"}));
    QVERIFY(dialog.pEstimate() && std::isfinite(dialog.pEstimate()->vector.all));
    QVERIFY(dialog.error().startsWith(QStringLiteral("Cannot compute q: no event is used as stall")));
    verifyNoNan(dialog);
}

void TestCountersDialogImport::realPerfFileMapsByName()
{
    // The first interval of the perf-stat sample, all 64 CPUs: cycles / instructions = 0.64.
    const QString multi = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_interval1.tsv");
    QFile in(multi);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray cpu0; // CPU0's lines: a one-CPU slice of the same measurement for the single-threaded run
    for (const QByteArray &line : in.readAll().split('\n')) {
        if (line.contains("\tCPU0\t"))
            cpu0 += line + '\n';
    }
    QTemporaryDir dir;
    const QString single = writeFile(dir, QStringLiteral("cpu0.tsv"), cpu0);
    QVERIFY(!single.isEmpty());

    CountersDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // A machine of 64 CPUs against the default topology, the Clovertown's 8 threads: said; with a topology of
    // 64 threads, not.
    dialog.setTopology({32, 32});
    QCOMPARE(dialog.importMultiRun(multi), QString());
    QVERIFY2(!dialog.importLabel()->text().contains(QStringLiteral("counted on")), qPrintable(dialog.importLabel()->text()));
    dialog.setTopology({2, 2, 2, 2});
    QCOMPARE(dialog.importMultiRun(multi), QString());
    QVERIFY2(dialog.importLabel()->text().contains(QStringLiteral("counted on 64 CPUs, a machine larger than the Markov "
                                                                  "topology's 8 hardware threads (4 caches)")),
             qPrintable(dialog.importLabel()->text()));
    const QTableWidget *uses = dialog.eventUsesTable();
    QVERIFY(uses->isVisible());
    QCOMPARE(uses->rowCount(), 21);
    auto rowOf = [uses](const QString &name) {
        for (int r = 0; r < uses->rowCount(); ++r) {
            if (uses->item(r, CountersDialog::UseEvent)->text() == name)
                return r;
        }
        return -1;
    };
    auto useShown = [uses](int row) {
        return static_cast<QComboBox *>(uses->cellWidget(row, CountersDialog::UseUse))->currentText();
    };
    const int l2 = rowOf(QStringLiteral("r10d1"));
    QVERIFY(l2 >= 0);
    QCOMPARE(useShown(l2), QStringLiteral("suspend"));
    QVERIFY(uses->item(l2, CountersDialog::UseMeaning)->text().startsWith(QStringLiteral("MEM_LOAD_RETIRED.L2_MISS")));
    QCOMPARE(useShown(rowOf(QStringLiteral("cycles:D"))), QStringLiteral("cycles"));
    QCOMPARE(useShown(rowOf(QStringLiteral("instructions:D"))), QStringLiteral("instructions"));
    QCOMPARE(useShown(rowOf(QStringLiteral("r08d1"))), QStringLiteral("unused"));
    QCOMPARE(useShown(rowOf(QStringLiteral("cpu-clock"))), QStringLiteral("unused"));
    QCOMPARE(uses->item(l2, CountersDialog::UseSingle)->text(), QStringLiteral("no run"));

    // No placeholder remains: the thesis' events A-C and X-W are gone, p waits for the single-threaded run,
    // q for a stall use, and the CPI below 1 is refused with the reason.
    QCOMPARE(dialog.suspendTable()->model()->rowCount(), 0);
    QCOMPARE(dialog.stallTable()->model()->rowCount(), 0);
    QVERIFY(!dialog.pEstimate() && !dialog.qEstimate());
    QVERIFY2(dialog.error().contains(QStringLiteral("Cannot compute p: p needs the single-threaded run of the "
                                                    "same work for E_single of r10d1")),
             qPrintable(dialog.error()));
    QVERIFY(dialog.measuredCpiEdit()->text().isEmpty());
    QVERIFY2(dialog.importLabel()->text().contains(QStringLiteral("cycles / instructions 0.6434")),
             qPrintable(dialog.importLabel()->text()));

    // The single-threaded run and a stall latency: p and q finite and plausible.
    QCOMPARE(dialog.importSingleRun(single), QString());
    QVERIFY(uses->item(l2, CountersDialog::UseSingle)->text() != QStringLiteral("no run"));
    dialog.setEventUse(l2, core::CounterUse::SuspendAndStall, QStringLiteral("40"));
    QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
    QVERIFY(dialog.pEstimate() && dialog.qEstimate());
    const double p = dialog.pEstimate()->vector.all;
    QVERIFY2(p > 1e-3 && p < 0.1, qPrintable(QString::number(p)));
    QCOMPARE(dialog.qEstimate()->vector.all, 1 - 1 / 40.0);
    QCOMPARE(dialog.pairs().size(), std::size_t(9));
    for (double cpi : dialog.pairCpi())
        QVERIFY(std::isfinite(cpi) && cpi >= 1);
    QVERIFY(!dialog.nearest());
    QVERIFY2(dialog.importLabel()->text().contains(QStringLiteral("Measured CPI 0.643433 is below 1, which the Markov "
                                                                  "model cannot reach")),
             qPrintable(dialog.importLabel()->text()));
    QVERIFY(dialog.importLabel()->text().contains(QStringLiteral("superscalar")));

    // Changing a use changes the estimate: the mispredicted branches no longer suspend.
    const int branches = rowOf(QStringLiteral("r00c5"));
    static_cast<QComboBox *>(uses->cellWidget(branches, CountersDialog::UseUse))
            ->setCurrentIndex(int(core::CounterUse::Unused));
    QVERIFY(dialog.pEstimate());
    QVERIFY(dialog.pEstimate()->vector.all < p);
    QCOMPARE(dialog.inputs().suspend.size(), std::size_t(4));

    // A stall use before its latency: q names what is missing; an entered latency completes it.
    const int walks = rowOf(QStringLiteral("r0e08"));
    static_cast<QComboBox *>(uses->cellWidget(walks, CountersDialog::UseUse))
            ->setCurrentIndex(int(core::CounterUse::Stall));
    QVERIFY(!dialog.qEstimate());
    QVERIFY2(dialog.error().contains(QStringLiteral("stall event 'r0e08' has no latency in cycles")),
             qPrintable(dialog.error()));
    dialog.eventUsesTable()->item(walks, CountersDialog::UseLatency)->setText(QStringLiteral("30"));
    QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
    QCOMPARE(dialog.inputs().stall.size(), std::size_t(2));
    verifyNoNan(dialog);
}

void TestCountersDialogImport::malformedPerfFileLeavesTheInputsAlone()
{
    QTemporaryDir dir;
    const QString bad = writeFile(dir, QStringLiteral("bad.tsv"),
                                  "1000\t\tinstructions\t1000\t100.00\n"
                                  "lots\t\tcycles\t1000\t100.00\n");
    const QString noInstructions
            = writeFile(dir, QStringLiteral("noinst.tsv"), "1000\t\tcycles\t1000\t100.00\n");
    const QString single = writeFile(dir, QStringLiteral("single.tsv"), kSingleRun);
    QVERIFY(!bad.isEmpty() && !noInstructions.isEmpty() && !single.isEmpty());

    CountersDialog dialog;
    Results results(&dialog);
    int edits = 0;
    connect(&dialog, &CountersDialog::inputsChanged, this, [&edits] { ++edits; });
    auto unchanged = [&dialog] {
        const CounterInputs in = dialog.inputs();
        const CounterInputs example = CounterInputs::thesisExample();
        QCOMPARE(in.instructions, example.instructions);
        QCOMPARE(in.suspend.size(), example.suspend.size());
        QCOMPARE(in.suspend[2].multi, 30.0);
        QVERIFY(!in.measured_cpi);
        QCOMPARE(dialog.instructionsEdit()->text(), QStringLiteral("50"));
        QCOMPARE(dialog.suspendTable()->model()->rowCount(), 3);
    };

    const QString error = dialog.importMultiRun(bad);
    QCOMPARE(error, bad + QStringLiteral(":2: field 'value': 'lots' is not a number"));
    QCOMPARE(dialog.importLabel()->text(), error);
    unchanged();

    const QString missing = dialog.importSingleRun(dir.filePath(QStringLiteral("missing.tsv")));
    QVERIFY2(missing.contains(dir.filePath(QStringLiteral("missing.tsv"))), qPrintable(missing));
    unchanged();
    QCOMPARE(edits, 0);
    QCOMPARE(results.count, 0);

    // A run without instructions is read, but p names what it lacks; the thesis' events do not stay.
    QCOMPARE(dialog.importSingleRun(single), QString());
    QCOMPARE(dialog.importMultiRun(noInstructions), QString());
    QVERIFY(dialog.inputs().suspend.empty());
    QVERIFY2(dialog.error().contains(QStringLiteral("Cannot compute p: no event is used as suspend"))
                     && dialog.error().contains(QStringLiteral("no event of ") + noInstructions
                                                + QStringLiteral(" is used as instructions")),
             qPrintable(dialog.error()));
    QVERIFY(dialog.error().contains(QStringLiteral("Cannot compute q")));
    QVERIFY(!dialog.inputs().measured_cpi);
}

void TestCountersDialogImport::theSameRunTwiceIsRefused()
{
    // The same file as both runs gave PEC 0 for every event, p = 0 and CPI 1 for every pair, without a word.
    QStringList files{QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_interval1.tsv")};
    if (QFile::exists(QStringLiteral(CROSSROOF_SHARED_DIR "/data/perf-stat/perf_result.tsv")))
        files << QStringLiteral(CROSSROOF_SHARED_DIR "/data/perf-stat/perf_result.tsv");
    for (const QString &file : files) {
        CountersDialog dialog;
        QCOMPARE(dialog.importMultiRun(file), QString());
        const CounterInputs before = dialog.inputs();
        const QString error = dialog.importSingleRun(file);
        const QString name = QFileInfo(file).fileName();
        QVERIFY2(error.startsWith(name + QStringLiteral(": the same counts as the multi-threaded run ") + name),
                 qPrintable(error));
        QVERIFY(error.contains(QStringLiteral("taskset -c 0")));
        QCOMPARE(dialog.importLabel()->text(), error);
        QVERIFY(dialog.inputs() == before);
        QVERIFY(!dialog.pEstimate());
        QCOMPARE(dialog.eventUsesTable()->item(0, CountersDialog::UseSingle)->text(), QStringLiteral("no run"));
        // And the other way round.
        CountersDialog other;
        QCOMPARE(other.importSingleRun(file), QString());
        QVERIFY(other.importMultiRun(file).contains(QStringLiteral("the same counts as the single-threaded run")));
    }
}

void TestCountersDialogImport::theDialogSaysHowToRecordTheRuns()
{
    CountersDialog dialog;
    // Before any run: the generic events.
    const QString generic = dialog.recordingLabel()->text();
    QVERIFY2(generic.contains(QStringLiteral("perf stat -x, -e cycles,instructions,LLC-load-misses,dTLB-load-misses,"
                                             "branch-misses -o multi.csv PROGRAM")),
             qPrintable(generic));
    QVERIFY(generic.contains(QStringLiteral("perf stat -x, -e cycles,instructions,LLC-load-misses,dTLB-load-misses,"
                                            "branch-misses -o single.csv taskset -c 0 PROGRAM")));
    // With the real run read: the events it maps to a use, in the file's order.
    QCOMPARE(dialog.importMultiRun(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_interval1.tsv")),
             QString());
    const QString mapped = dialog.recordingLabel()->text();
    QVERIFY2(mapped.contains(QStringLiteral("perf stat -x, -e cycles:D,instructions:D,r10d1,r0e85,r0e08,r0e49,r00c5 "
                                            "-o single.csv taskset -c 0 PROGRAM")),
             qPrintable(mapped));
    // Which events need a latency, and where it comes from.
    QVERIFY(dialog.latencyLabel()->isVisibleTo(&dialog));
    const QString latency = dialog.latencyLabel()->text();
    QVERIFY2(latency.contains(QStringLiteral("r10d1: the load-to-use latency of the level that serves the miss")),
             qPrintable(latency));
    QVERIFY(latency.contains(QStringLiteral("r0e85, r0e08, r0e49: the page walk's cycles")));
    QVERIFY(latency.contains(QStringLiteral("r00c5: the pipeline refill")));
    // A stall use without its latency is named as such.
    for (int r = 0; r < dialog.eventUsesTable()->rowCount(); ++r) {
        if (dialog.eventUsesTable()->item(r, CountersDialog::UseEvent)->text() == QStringLiteral("r10d1"))
            dialog.setEventUse(r, core::CounterUse::SuspendAndStall);
    }
    QVERIFY2(dialog.latencyLabel()->text().contains(QStringLiteral("r10d1 (stall, no latency yet): the load-to-use")),
             qPrintable(dialog.latencyLabel()->text()));
}

void TestCountersDialogImport::oneCpuOfAPerCpuRunIsTheSingleRun()
{
    // perf stat -A -a, 64 CPUs, one interval: CPU 0's counts, scaled to the run's instructions, as the
    // single-threaded run.
    const QString file = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_interval1.tsv");
    CountersDialog dialog;
    QCOMPARE(dialog.importMultiRun(file), QString());
    QVERIFY(dialog.cpuBox()->parentWidget()->isVisibleTo(&dialog));
    QCOMPARE(dialog.cpuBox()->count(), 64);
    const core::PerfStat counted = core::readPerfStat(file.toStdString());
    const std::vector<double> perCpu = counted.event("instructions:D").perCpu();
    QCOMPARE(dialog.cpuBox()->itemText(0),
             QStringLiteral("CPU 0: %1 instructions").arg(formatNumber(perCpu[0], 3)));
    // The busiest CPU is offered first: the one that ran a thread.
    const auto busiest = std::max_element(perCpu.begin(), perCpu.end()) - perCpu.begin();
    QCOMPARE(dialog.cpuBox()->currentData().toInt(), counted.cpus[std::size_t(busiest)]);
    QVERIFY(dialog.useCpuAsSingleRun(99).contains(QStringLiteral("has no CPU 99")));
    QCOMPARE(dialog.useCpuAsSingleRun(0), QString());
    QVERIFY2(dialog.importLabel()->text().startsWith(QStringLiteral("CPU 0 of perf_stat_interval1.tsv taken as the "
                                                                    "single-threaded run")),
             qPrintable(dialog.importLabel()->text()));
    // By hand from the file: E_single = E_cpu0 x instructions / instructions on CPU 0.
    const core::PerfStat stat = core::readPerfStat(file.toStdString());
    const auto &instructions = stat.event("instructions:D");
    const double scale = instructions.total / instructions.perCpu()[0];
    const CounterInputs in = dialog.inputs();
    QVERIFY(!in.suspend.empty());
    double p = 0;
    for (const auto &e : in.suspend) {
        QCOMPARE(e.multi, stat.event(e.name).total);
        QCOMPARE(e.single, stat.event(e.name).perCpu()[0] * scale);
        p += std::max(0.0, e.multi - e.single);
    }
    QVERIFY(dialog.pEstimate());
    QVERIFY(std::abs(dialog.pEstimate()->vector.all - p / instructions.total) < 1e-15);
    verifyNoNan(dialog);
}

QTEST_MAIN(TestCountersDialogImport)
#include "tst_counters_dialog_import.moc"
