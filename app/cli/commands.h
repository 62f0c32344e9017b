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
extern const Command kCountersCommand;
extern const Command kTmmCommand;
extern const Command kOccupancyCommand;
extern const Command kZigzagCommand;
extern const Command kStabilityMapCommand;
extern const Command kHysteresisCommand;
extern const Command kAdviseCommand;
extern const Command kFitTraceCommand;
extern const Command kBandwidthCurveCommand;
extern const Command kKernelsCommand;
extern const Command kRooflineCommand;
extern const Command kCalibrateCommand;
extern const Command kSkeletonCommand;
extern const Command kExtrapolateCommand;

/// The render command's summary and help, shared by crossroof-cli and the crossroof-render helper
/// (app/render/, which holds the command itself: it draws with the GUI's code).
extern const char *const kRenderSummary;
extern const char *const kRenderHelp;
/// What crossroof-cli runs for "render": the crossroof-render helper (next to crossroof-cli in a build, in
/// ../libexec/crossroof/ when installed), with the same arguments. Without it, exit 2 saying which package
/// has it.
extern const Command kRenderProxyCommand;

} // namespace crossroof::cli
