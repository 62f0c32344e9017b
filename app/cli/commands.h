// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace crossroof::cli {

/// One subcommand: its name, a one-line summary, its --help text and its body (which throws
/// core::InputError on bad input).
struct Command
{
    const char *name;
    const char *summary;
    const char *help;
    void (*run)(const std::vector<std::string> &args, std::ostream &out);
    /// Used instead of run when set: a body that also reports what it skipped on ERR (warnings, exit 0).
    void (*run_with_warnings)(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
            = nullptr;
};

extern const Command kXGraphCommand;
extern const Command kProfilesCommand;
extern const Command kMarkovCommand;
extern const Command kMarkovSurfaceCommand;
extern const Command kMappingsCommand;
extern const Command kOccupancyCommand;
extern const Command kZigzagCommand;
extern const Command kStabilityMapCommand;
extern const Command kHysteresisCommand;
extern const Command kAdviseCommand;
extern const Command kFitTraceCommand;
extern const Command kBandwidthCurveCommand;
extern const Command kKernelsCommand;
extern const Command kCalibrateCommand;
extern const Command kSkeletonCommand;
extern const Command kExtrapolateCommand;

/// Draws a view of a session to a file with the GUI's drawing code (built with the GUI only).
extern const Command kRenderCommand;

} // namespace crossroof::cli
