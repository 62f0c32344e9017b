// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A code skeleton (docs/MODEL.md, "Code skeletons"): a perfect loop nest whose innermost body is a list of
// statements that read and write named variables.

#include "core/skeleton/core_model.h"

#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// One statement of the loop body. `ld X` writes X; `st X` reads X; `fp X: A, B` writes X and reads A, B.
struct SkeletonStatement
{
    StatementKind kind = StatementKind::Fp;
    std::string target;               ///< the variable written (none for st)
    std::vector<std::string> sources; ///< the variables read, in order
    int line = 0;                     ///< 1-based, where the statement starts
    int column = 0;

    bool operator==(const SkeletonStatement &) const = default;
};

/// One loop of the nest: `for i = lower:upper` (sequential) or `forall` (vectorised: vector_lanes
/// iterations per statement). It runs upper - lower times.
struct SkeletonLoop
{
    std::string variable;
    long long lower = 0;
    long long upper = 0;
    bool parallel = false; ///< forall
    int line = 0;

    long long trips() const { return upper - lower; }
    bool operator==(const SkeletonLoop &) const = default;
};

/// A whole skeleton: `def NAME () { ... }` with its loops, outermost first, and the innermost body.
struct Skeleton
{
    std::string name;
    std::vector<SkeletonLoop> loops;
    std::vector<SkeletonStatement> body;

    /// Iterations of every loop but the innermost, multiplied (1 without loops).
    double outerIterations() const;
    bool operator==(const Skeleton &) const = default;
};

/// Limits of the parser: larger inputs are refused with a message.
inline constexpr std::size_t kMaxSkeletonBytes = 1 << 20;
inline constexpr std::size_t kMaxSkeletonStatements = 5000;
inline constexpr std::size_t kMaxLoopDepth = 16;
inline constexpr std::size_t kMaxStatementSources = 16;
/// The largest value of a `:var`, a loop bound and the number of innermost iterations of the whole nest.
inline constexpr long long kMaxSkeletonCount = 1'000'000'000'000'000LL;
/// kMaxSkeletonCount as messages write it.
inline constexpr const char *kMaxSkeletonCountText = "10^15";

/// Parses the skeleton language. Throws InputError "LABEL: line L, column C: WHAT" naming what was
/// expected; an unknown variable, an empty loop, a count beyond kMaxSkeletonCount and a too-large input
/// are errors too.
Skeleton parseSkeleton(std::string_view text, const std::string &label);

} // namespace crossroof::core
