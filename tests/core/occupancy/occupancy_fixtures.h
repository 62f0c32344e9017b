// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the occupancy tests share: an input of three numbers, a result's limiters and limits as they compare.

#include "core/occupancy/occupancy.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace crossroof::occupancy_test {

using core::Limiter;
using core::OccupancyInput;

inline QString limiterList(const core::LimiterSet &set)
{
    QStringList names;
    for (Limiter l : set.list())
        names << QString::fromLatin1(core::limiterName(l).data());
    return names.join(QLatin1Char(','));
}

inline int orNone(const std::optional<int> &v)
{
    return v ? *v : -1;
}

inline OccupancyInput input(int threads, int regs, long long smem, std::optional<long long> config = std::nullopt)
{
    OccupancyInput in;
    in.threads_per_block = threads;
    in.regs_per_thread = regs;
    in.smem_per_block = smem;
    in.smem_config = config;
    return in;
}

} // namespace crossroof::occupancy_test
