// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/occupancy/scheduling.h"
#include "core/occupancy/occupancy_settings.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

namespace crossroof::widgets {

class OccupancyState;

/// The number in TEXT (C locale, so "1e9" and "2.5" read the same everywhere); core::InputError naming WHAT
/// if it is not one. Range checks are the core's.
double parseTmmNumber(const QString &text, const std::string &what);
/// A whole count in TEXT, such as B_r; out-of-range counts go to the core, which names the limits.
long long parseTmmCount(const QString &text, const std::string &what);

/// What the zigzag view draws (the occupancy/TMM paper, Eq. 1-3, 6-8): the scheduling factor f_sched against
/// the requested blocks B_r for the occupancy state's SMs and active blocks B_a, and the TMM time model of
/// the view's inputs at those B_a and SMs. Computed on the GUI thread when asked; zigzagUpdated() and
/// tmmUpdated() follow.
class ZigzagEvaluation : public QObject
{
    Q_OBJECT
public:
    explicit ZigzagEvaluation(OccupancyState *state, QObject *parent = nullptr);

    /// Recomputes the zigzag over the state's plotted range of B_r; emits zigzagUpdated().
    void recomputeZigzag();
    /// The zigzag; none when no block fits an SM (B_a = 0) or core refuses the inputs (zigzagError()).
    const std::optional<core::Zigzag> &zigzag() const { return m_zigzag; }
    const QString &zigzagError() const { return m_zigzagError; }

    /// Evaluates the TMM for SETTINGS' texts (T1, T_inf, M, L, T, P and B_r) with the state's B_a and SMs;
    /// emits tmmUpdated().
    void setTmmSettings(const core::TmmSettings &settings);
    /// Forgets the TMM result without a signal (the APSP preset's inputs were refused: the view says why).
    void clearTmm() { m_tmm.reset(); }
    /// The TMM result; none when an input is refused (tmmError() says why).
    const std::optional<core::TmmResult> &tmm() const { return m_tmm; }
    const QString &tmmError() const { return m_tmmError; }
    /// The B_r the TMM was evaluated at.
    long long requestedBlocks() const { return m_requestedBlocks; }

Q_SIGNALS:
    void zigzagUpdated();
    void tmmUpdated();

private:
    OccupancyState *m_state;
    std::optional<core::Zigzag> m_zigzag;
    QString m_zigzagError;
    std::optional<core::TmmResult> m_tmm;
    QString m_tmmError;
    long long m_requestedBlocks = 0;
};

} // namespace crossroof::widgets
