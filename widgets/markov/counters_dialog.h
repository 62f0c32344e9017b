// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "markov/counter_events_model.h"
#include "markov/counter_runs.h"
#include "markov/counter_tables.h"
#include "core/markov/markov_counters.h"

#include <QDialog>

#include <cstddef>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTableWidget;

namespace crossroof::widgets {

using core::CounterInputs;

/// p and q of the Markov CPI model from event counters (Mitra's thesis, 4.2.6, 4.2.7, 4.3;
/// MODEL.md 3): the suspend events of a single- and a multi-threaded run give p and its PEC vector
/// (Table 4.4), the stall events with their latencies give q, M and its PEC vector (Table 4.5), and the nine
/// starting pairs are listed with their predicted CPI for the Markov view's topology; with a measured CPI
/// the nearest one is highlighted (4.3.1). Counts can be imported from `perf stat -x` files. Every edit
/// recomputes at once; invalid input shows the core's message instead of results. Non-modal. The events of
/// each kind are a CounterEventsModel, shown and edited in a QTableView: editing, adding, removing and
/// importing change the models, and the views follow.
class CountersDialog : public QDialog
{
    Q_OBJECT
public:
    using SuspendColumn = widgets::SuspendColumn;
    using enum widgets::SuspendColumn;
    using StallColumn = widgets::StallColumn;
    using enum widgets::StallColumn;
    enum PairColumn {
        PairPKind = StartingPairsTable::PKind,
        PairQKind = StartingPairsTable::QKind,
        PairP = StartingPairsTable::P,
        PairQ = StartingPairsTable::Q,
        PairCpi = StartingPairsTable::Cpi,
        PairError = StartingPairsTable::Error
    };

    /// The columns of the table of the perf files' events and their uses.
    enum UseColumn { UseEvent, UseMeaning, UseMulti, UseSingle, UseUse, UseLatency, UseColumns };

    explicit CountersDialog(QWidget *parent = nullptr);
    ~CountersDialog() override;

    /// The current inputs (the last valid value of a field that is being edited).
    CounterInputs inputs() const;
    /// Shows INPUTS and recomputes; forgets imported runs. Emits resultsChanged() but not inputsChanged(),
    /// so that restoring a session does not count as an edit.
    void setInputs(const CounterInputs &inputs);

    /// The Markov view's threads per cache group; the pairs' CPIs are predicted for it (steady state).
    void setTopology(const std::vector<int> &threadsPerGroup);
    const std::vector<int> &topology() const { return m_threads; }

    /// Reads a `perf stat -x` file of the single-threaded (or multi-threaded) run. Once the multi-threaded
    /// run is read, its events (and the single-threaded run's) are listed in eventUsesTable() with their uses,
    /// mapped by name (core::mapPerfEvents()): cycles and instructions give the measured CPI (refused below 1,
    /// with the reason) and the instructions retired, the suspend events p (with both runs), the stall events
    /// q (with the latency the user enters). The inputs become what the uses give and nothing else: what is
    /// missing is named in error(), no earlier event stays. Returns an empty string on success, else the
    /// error (naming the file and the line), and then leaves the inputs as they were.
    QString importSingleRun(const QString &path);
    QString importMultiRun(const QString &path);
    /// Takes CPU's counts in the per-CPU (perf stat -A) multi-threaded run as the single-threaded run, scaled
    /// to the run's instructions (CounterRuns::singleFromCpu()); what the CPU offer's button does. Returns the
    /// error, or an empty string.
    QString useCpuAsSingleRun(int cpu);

    /// Results of the last recompute; empty or none where the input does not allow them.
    const std::optional<core::PEstimate> &pEstimate() const { return m_p; }
    const std::optional<core::QEstimate> &qEstimate() const { return m_q; }
    /// The nine starting pairs in the thesis' order (a-i), with their predicted CPIs.
    const std::vector<core::StartingPair> &pairs() const { return m_pairs; }
    const std::vector<double> &pairCpi() const { return m_cpi; }
    /// The pair nearest the measured CPI, when one is given.
    std::optional<std::size_t> nearest() const { return m_nearest; }
    /// Why there are no (or only partial) results; empty when everything was computed.
    const QString &error() const { return m_error; }

    QLineEdit *instructionsEdit() const { return m_instructions; }
    QLineEdit *measuredCpiEdit() const { return m_measured; }
    QTableView *suspendTable() const { return m_suspendTable; }
    QTableView *stallTable() const { return m_stallTable; }
    CounterEventsModel *suspendModel() const { return m_suspendModel; }
    CounterEventsModel *stallModel() const { return m_stallModel; }
    QTableWidget *pairsTable() const { return m_pairsTable; }
    QPushButton *addSuspendButton() const { return m_addSuspend; }
    QPushButton *removeSuspendButton() const { return m_removeSuspend; }
    QPushButton *addStallButton() const { return m_addStall; }
    QPushButton *removeStallButton() const { return m_removeStall; }
    QPushButton *selectButton() const { return m_select; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *messageLabel() const { return m_message; }
    QLabel *importLabel() const { return m_importStatus; }
    /// The perf stat command lines that record the two runs, with the events the runs should count.
    QLabel *recordingLabel() const { return m_recording; }
    /// With a per-CPU multi-threaded run: the CPU to take as the single-threaded run, and the button.
    QComboBox *cpuBox() const { return m_cpuBox; }
    QPushButton *useCpuButton() const { return m_useCpu; }
    /// Which events need a latency for q, and how to get one.
    QLabel *latencyLabel() const { return m_latencyHelp; }
    /// The perf files' events: name, meaning, counts, use (a QComboBox, "unused" allowed) and latency
    /// (cycles, for a stall use); hidden until the multi-threaded run is read.
    QTableWidget *eventUsesTable() const { return m_usesTable; }
    /// Sets the use of event ROW of eventUsesTable() as its combo box does; LATENCY is the latency cell's text.
    void setEventUse(int row, core::CounterUse use, const QString &latency = QString());

Q_SIGNALS:
    /// After every recompute: the nine pairs (empty when the input is invalid, see error()), the index of
    /// the one nearest the measured CPI and that CPI (none without one), for drawing on the surface.
    void resultsChanged(const std::vector<core::StartingPair> &pairs, std::optional<std::size_t> nearest,
                        std::optional<double> measuredCpi);
    /// The user chose a starting pair (double click, or "Select on Surface" for the current row).
    void pairChosen(double p, double q);
    /// The user changed an input (edit, add, remove, import).
    void inputsChanged();

private:
    using Run = CounterRuns::Run;

    /// The colour of an error and of a warning (the Traces dock's for a file of another device).
    static QString errorStyle();
    static QString warningStyle();
    QString importRun(const QString &path, Run run);
    void importInteractively(Run run);
    void showEventUses();
    /// The recording commands, the CPU offer and the latency help, as the runs and uses are now.
    void updateRunsHelp();
    /// The widgets of updateRunsHelp(), in one for the dialog's layout.
    QWidget *makeRunsHelp();
    void useEdited(int row);
    void applyInputs(const CounterInputs &inputs);
    void fillFields();
    void numberEdited(QLineEdit *edit);
    void numberFinished(QLineEdit *edit);
    /// A new event at the end of TABLE's model, its name being edited.
    void addEvent(QTableView *table);
    /// Removes the selected events of TABLE's model (else its current one).
    void removeEvents(QTableView *table);
    void updateButtons();
    void recompute();
    void showSummary();
    void showPairs();
    void chooseRow(int row);
    void edited();

    QPushButton *m_importSingle;
    QPushButton *m_importMulti;
    QLabel *m_importStatus;
    QLabel *m_recording = nullptr;
    QWidget *m_cpuRow = nullptr;
    QComboBox *m_cpuBox = nullptr;
    QPushButton *m_useCpu = nullptr;
    QLabel *m_latencyHelp = nullptr;
    QLabel *m_usesLabel;
    QTableWidget *m_usesTable;
    QLineEdit *m_instructions;
    QLineEdit *m_measured;
    CounterEventsModel *m_suspendModel;
    CounterEventsModel *m_stallModel;
    QTableView *m_suspendTable;
    QPushButton *m_addSuspend;
    QPushButton *m_removeSuspend;
    QTableView *m_stallTable;
    QPushButton *m_addStall;
    QPushButton *m_removeStall;
    QLabel *m_summary;
    QLabel *m_pairsLabel;
    StartingPairsTable *m_pairsTable;
    QLabel *m_nearestLabel;
    QPushButton *m_select;
    QLabel *m_message;

    CounterInputs m_inputs; ///< the instructions and the measured CPI; the events are the models'
    std::vector<int> m_threads{2, 2, 2, 2}; ///< Clovertown, the thesis' machine: 4 L2 caches, 2 threads each
    CounterRuns m_runs;
    QString m_instructionsError; ///< the text in the field is no number
    QString m_measuredError;

    std::optional<core::PEstimate> m_p;
    std::optional<core::QEstimate> m_q;
    std::vector<core::StartingPair> m_pairs;
    std::vector<double> m_cpi;
    std::optional<std::size_t> m_nearest;
    QString m_error;
};

} // namespace crossroof::widgets
