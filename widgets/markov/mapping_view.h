// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/markov/cpu_topology.h"
#include "core/profiles/hardware_profile.h"
#include "core/markov/markov_settings.h"

#include <QWidget>

class QComboBox;
class QCPBars;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace crossroof::widgets {

/// The thread-to-core mapping strategies of a CPU profile side by side (Mitra's thesis, Tables 5.8,
/// 5.9 and 5.17): what each occupies (threads, cores, shared caches, sockets), its Markov model (one group per
/// used cache) and the CPI the model predicts, at a common (p, q) or at the (p, q) measured for the strategy.
class MappingView : public QWidget
{
    Q_OBJECT
public:
    /// Table columns.
    /// The result first: in a narrow view the CPI stays in sight, the binding's description scrolls.
    enum Column { Strategy, Cpi, P, Q, Model, Threads, Cores, Caches, Sockets, Binding, ColumnCount };

    explicit MappingView(QWidget *parent = nullptr);

    /// The CPU profiles to choose from (those with mapping strategies).
    void setCpuProfiles(const std::vector<core::HardwareProfile> &profiles);

    QComboBox *profileBox() const { return m_profile; }
    QDoubleSpinBox *pBox() const { return m_p; }
    QDoubleSpinBox *qBox() const { return m_q; }
    /// What the numbers say, or why there are none.
    QLabel *infoLabel() const { return m_info; }
    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot() const { return m_plot; }
    /// The bars of each thread count, in ascending order of threads.
    const QList<QCPBars *> &bars() const { return m_bars; }
    QList<QCustomPlot *> figurePlots() const { return {m_plot}; }
    /// What the table shows, one row per strategy (empty without a CPU profile).
    const std::vector<core::MappingPrediction> &predictions() const { return m_rows; }

    /// Sets (p, q) measured for one strategy; nullopt goes back to the common point.
    void setStrategyPoint(const std::string &strategy, std::optional<std::pair<double, double>> point);

    /// Adds the user's strategy ID with thread t on CORES[t] (text such as "0, 0, 8, 8") to the present profile's;
    /// returns why not where it cannot be (an id in use, a core the topology lacks), naming the problem.
    QString addOwnStrategy(const QString &id, const QString &cores);
    /// Removes the user's strategy ID (the profile's own cannot be removed).
    void removeOwnStrategy(const std::string &id);
    /// Asks for a strategy's name and cores and adds it (the Add Strategy button).
    void askForStrategy();
    QPushButton *addStrategyButton() const { return m_addStrategy; }
    QPushButton *removeStrategyButton() const { return m_removeStrategy; }

    core::MappingSettings settings() const;
    void setSettings(const core::MappingSettings &settings);

Q_SIGNALS:
    void settingsChanged();

private:
    void recompute();
    void cellEdited(int row, int column);
    const core::HardwareProfile *profile() const;
    /// The present profile's topology with the user's strategies after its own.
    core::CpuTopology topology(const core::HardwareProfile &profile) const;
    bool isOwn(const std::string &id) const;
    /// Why OWN cannot join PROFILE's strategies (its topology's check, without the field), or empty.
    QString refusal(const core::HardwareProfile &profile, const core::MappingSettings::OwnStrategy &own) const;

    QComboBox *m_profile;
    QDoubleSpinBox *m_p;
    QDoubleSpinBox *m_q;
    QLabel *m_info;
    QTableWidget *m_table;
    QCustomPlot *m_plot;
    QList<QCPBars *> m_bars;
    std::vector<core::HardwareProfile> m_profiles;
    QPushButton *m_addStrategy;
    QPushButton *m_removeStrategy;
    std::vector<core::MappingSettings::Point> m_points; ///< strategies with their own (p, q)
    std::vector<core::MappingSettings::OwnStrategy> m_own; ///< the user's strategies for the present profile
    core::CpuTopology m_topology; ///< what the rows show: the profile's topology and the user's strategies
    std::vector<core::MappingPrediction> m_rows;
    bool m_filling = false; ///< the table is being filled: its edits are not the user's
};

} // namespace crossroof::widgets
