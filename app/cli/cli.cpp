// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "commands.h"
#include "support/error.h"

#include <array>
#include <ostream>

#ifndef CROSSROOF_VERSION
#define CROSSROOF_VERSION "unknown"
#endif

namespace crossroof::cli {

namespace {

const std::array<const Command *, 15> kCommands{&kXGraphCommand,   &kProfilesCommand,      &kOccupancyCommand,
                                               &kZigzagCommand,   &kMarkovCommand,        &kMarkovSurfaceCommand,
                                               &kMappingsCommand, &kFitTraceCommand, &kBandwidthCurveCommand, &kStabilityMapCommand,
                                               &kHysteresisCommand, &kAdviseCommand, &kKernelsCommand,
                                               &kCalibrateCommand, &kExtrapolateCommand};

std::vector<const Command *> allCommands(std::span<const Command *const> extra)
{
    std::vector<const Command *> all(kCommands.begin(), kCommands.end());
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
}

void printUsage(std::ostream &out, std::span<const Command *const> extra)
{
    out << "Usage: crossroof-cli COMMAND [OPTIONS]\n"
           "       crossroof-cli COMMAND --help\n"
           "       crossroof-cli --version\n\n"
           "Analytic performance models of parallel machines, headless (the same core as the Crossroof GUI).\n\n"
           "Commands:\n";
    for (const Command *c : allCommands(extra)) {
        const std::size_t width = std::string(c->name).size();
        out << "  " << c->name << std::string(width < 16 ? 16 - width : 1, ' ') << c->summary << '\n';
    }
    out << "\nExit status: 0 on success, 2 on bad usage or bad input.\n";
}

} // namespace

int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err,
        std::span<const Command *const> extra)
{
    if (args.empty()) {
        printUsage(err, extra);
        return 2;
    }
    const std::string &name = args.front();
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(out, extra);
        return 0;
    }
    if (name == "--version") {
        out << "crossroof-cli " << CROSSROOF_VERSION << '\n';
        return 0;
    }
    for (const Command *c : allCommands(extra)) {
        if (name != c->name)
            continue;
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        for (const auto &a : rest) {
            if (a == "--help" || a == "-h") {
                out << c->help;
                return 0;
            }
        }
        try {
            if (c->run_with_warnings)
                c->run_with_warnings(rest, out, err);
            else
                c->run(rest, out);
            return 0;
        } catch (const core::InputError &e) {
            err << "crossroof-cli " << c->name << ": " << e.what() << '\n';
            return 2;
        }
    }
    err << "crossroof-cli: unknown command '" << name << "' (try crossroof-cli --help)\n";
    return 2;
}

} // namespace crossroof::cli
