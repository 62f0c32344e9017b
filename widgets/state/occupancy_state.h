// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_settings.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

namespace crossroof::widgets {

class ParameterState;

/// The kernel launch configuration of the occupancy and zigzag views, its active blocks per SM (MODEL.md
/// 2.1), and the link to the X-model: with the link on, the X-model's n follows B_a * warps per block
/// (MODEL.md 2.3). The compute capability and the SM count follow the profile.
class OccupancyState : public QObject
{
    Q_OBJECT
public:
    explicit OccupancyState(ParameterState *params, QObject *parent = nullptr);

    const std::string &computeCapability() const { return m_cc; }
    const core::OccupancyInput &input() const { return m_input; }
    core::OccupancyMode mode() const { return m_mode; }
    long long smCount() const { return m_sms; }
    /// The largest B_r the zigzag shows: set by hand, or (0, the default) six full passes of B_a * S blocks.
    long long requestedBlocksMax() const;
    bool requestedBlocksMaxIsAuto() const { return m_brMax == 0; }
    bool linked() const { return m_linked; }
    /// B_a set by hand (the paper's section V forces it down), or nothing to follow the calculator.
    std::optional<int> manualActiveBlocks() const { return m_manualBa; }

    /// The calculator's answer for the current inputs; empty with error() set if the inputs are invalid.
    const std::optional<core::OccupancyResult> &result() const { return m_result; }
    const QString &error() const { return m_error; }
    /// B_a as used by the zigzag and the link: the manual value or the calculator's.
    int activeBlocks() const;
    /// Resident warps per SM that B_a means: B_a * ceil(T_r / 32).
    int residentWarps() const;

    void setComputeCapability(const std::string &cc);
    void setThreadsPerBlock(int threads);
    void setRegistersPerThread(int regs);
    void setSharedMemoryPerBlock(long long bytes);
    /// Shared memory per SM in bytes; nothing for the largest configuration.
    void setSharedMemoryConfig(std::optional<long long> bytes);
    void setMode(core::OccupancyMode mode);
    void setSmCount(long long sms);
    /// 0 for automatic.
    void setRequestedBlocksMax(long long brMax);
    void setManualActiveBlocks(std::optional<int> blocks);
    void setLinked(bool on);

    /// Every input, for sessions.
    core::OccupancySettings settings() const;
    /// Restores every input at once (one changed() signal). Unknown capabilities keep the current one.
    void setSettings(const core::OccupancySettings &settings);

    /// What one undo step of these inputs restores: the inputs, and the X-model's n that linking overwrites.
    struct UndoSnapshot
    {
        core::OccupancySettings settings;
        double n = 0;
        bool operator==(const UndoSnapshot &) const = default;
    };
    UndoSnapshot undoSnapshot() const;
    /// Restores the inputs and, where the link does not set n from them, n.
    void restoreUndoSnapshot(const UndoSnapshot &snapshot);

Q_SIGNALS:
    /// An input changed through a setter or setSettings(), not by following the profile. Emitted before the
    /// link sets n, so that undo sees n as it was.
    void settingsChanged();
    /// Anything changed: an input, the profile's SM count or capability, the result.
    void changed();

private:
    /// After an input changed: the result, settingsChanged() if the change is the user's (EDITED), the link,
    /// changed().
    void recompute(bool edited = true);
    void followProfile();
    void pushToXModel();

    ParameterState *m_params;
    std::string m_cc = "8.0";
    core::OccupancyInput m_input;
    core::OccupancyMode m_mode = core::OccupancyMode::Cuda;
    long long m_sms = 1;
    long long m_brMax = 0;
    bool m_linked = false;
    std::optional<int> m_manualBa;
    std::optional<core::OccupancyResult> m_result;
    QString m_error;
};

} // namespace crossroof::widgets
