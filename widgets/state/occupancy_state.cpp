// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/occupancy_state.h"

#include "core/support/error.h"
#include "common/parameter_state.h"

#include <algorithm>

namespace crossroof::widgets {

OccupancyState::OccupancyState(ParameterState *params, QObject *parent)
    : QObject(parent)
    , m_params(params)
{
    connect(m_params, &ParameterState::profileChanged, this, &OccupancyState::followProfile);
    followProfile();
}

int OccupancyState::activeBlocks() const
{
    if (m_manualBa)
        return *m_manualBa;
    return m_result ? m_result->blocks : 0;
}

long long OccupancyState::requestedBlocksMax() const
{
    if (m_brMax > 0)
        return m_brMax;
    return std::max<long long>(1, 6LL * std::max(1, activeBlocks()) * m_sms);
}

int OccupancyState::residentWarps() const
{
    return activeBlocks() * ((m_input.threads_per_block + core::kWarpSize - 1) / core::kWarpSize);
}

void OccupancyState::followProfile()
{
    const auto &prof = m_params->profile();
    m_sms = std::max<long long>(1, static_cast<long long>(prof.params.sm_count));
    if (!prof.compute_capability.empty() && core::findComputeCapability(prof.compute_capability)
        && prof.compute_capability != m_cc) {
        m_cc = prof.compute_capability;
        m_input.smem_config.reset(); // carveouts differ between capabilities
    }
    recompute(false);
}

void OccupancyState::recompute(bool edited)
{
    try {
        m_result = core::activeBlocks(core::computeCapability(m_cc), m_input, m_mode);
        m_error.clear();
    } catch (const core::InputError &e) {
        m_result.reset();
        m_error = QString::fromStdString(e.what());
    }
    if (edited)
        Q_EMIT settingsChanged();
    pushToXModel();
    Q_EMIT changed();
}

void OccupancyState::pushToXModel()
{
    if (m_linked && residentWarps() > 0)
        m_params->setValue(QStringLiteral("n"), residentWarps());
}

core::OccupancySettings OccupancyState::settings() const
{
    core::OccupancySettings s;
    s.cc = m_cc;
    s.threads_per_block = m_input.threads_per_block;
    s.regs_per_thread = m_input.regs_per_thread;
    s.smem_per_block = m_input.smem_per_block;
    s.smem_config = m_input.smem_config;
    s.mode = std::string(core::occupancyModeName(m_mode));
    s.linked = m_linked;
    s.manual_active_blocks = m_manualBa;
    s.sm_count = m_sms;
    s.requested_blocks_max = m_brMax;
    return s;
}

void OccupancyState::setSettings(const core::OccupancySettings &s)
{
    // A session without its own capability or SM count (one that leaves the occupancy out) takes the
    // profile's: an H100 session opened at the default 8.0 and its 164 KiB carveouts.
    const core::HardwareProfile &prof = m_params->profile();
    if (core::findComputeCapability(s.cc))
        m_cc = s.cc;
    else if (core::findComputeCapability(prof.compute_capability))
        m_cc = prof.compute_capability;
    m_input.threads_per_block = s.threads_per_block;
    m_input.regs_per_thread = s.regs_per_thread;
    m_input.smem_per_block = s.smem_per_block;
    m_input.smem_config = s.smem_config;
    m_mode = core::occupancyModeFromName(s.mode).value_or(core::OccupancyMode::Cuda);
    m_linked = s.linked;
    m_manualBa = s.manual_active_blocks;
    m_sms = std::max<long long>(1, s.sm_count > 0 ? s.sm_count : static_cast<long long>(prof.params.sm_count));
    m_brMax = std::max<long long>(0, s.requested_blocks_max);
    recompute();
}

OccupancyState::UndoSnapshot OccupancyState::undoSnapshot() const
{
    return {settings(), m_params->value(QStringLiteral("n"))};
}

void OccupancyState::restoreUndoSnapshot(const UndoSnapshot &snapshot)
{
    setSettings(snapshot.settings);
    if (!m_linked)
        m_params->setValue(QStringLiteral("n"), snapshot.n);
}

void OccupancyState::setComputeCapability(const std::string &cc)
{
    if (cc == m_cc || !core::findComputeCapability(cc))
        return;
    m_cc = cc;
    m_input.smem_config.reset();
    recompute();
}

void OccupancyState::setThreadsPerBlock(int threads)
{
    if (threads == m_input.threads_per_block)
        return;
    m_input.threads_per_block = threads;
    recompute();
}

void OccupancyState::setRegistersPerThread(int regs)
{
    if (regs == m_input.regs_per_thread)
        return;
    m_input.regs_per_thread = regs;
    recompute();
}

void OccupancyState::setSharedMemoryPerBlock(long long bytes)
{
    if (bytes == m_input.smem_per_block)
        return;
    m_input.smem_per_block = bytes;
    recompute();
}

void OccupancyState::setSharedMemoryConfig(std::optional<long long> bytes)
{
    if (bytes == m_input.smem_config)
        return;
    m_input.smem_config = bytes;
    recompute();
}

void OccupancyState::setMode(core::OccupancyMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    recompute();
}

void OccupancyState::setSmCount(long long sms)
{
    if (sms == m_sms || sms < 1)
        return;
    m_sms = sms;
    recompute();
}

void OccupancyState::setRequestedBlocksMax(long long brMax)
{
    if (brMax == m_brMax || brMax < 0)
        return;
    m_brMax = brMax;
    recompute();
}

void OccupancyState::setManualActiveBlocks(std::optional<int> blocks)
{
    if (blocks == m_manualBa)
        return;
    m_manualBa = blocks;
    recompute();
}

void OccupancyState::setLinked(bool on)
{
    if (on == m_linked)
        return;
    m_linked = on;
    recompute();
}

} // namespace crossroof::widgets
