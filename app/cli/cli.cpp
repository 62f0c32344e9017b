// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "commands.h"
#include "core/support/error.h"
#include "core/support/quote.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ostream>
#include <sstream>
#include <string_view>

#ifndef CROSSROOF_VERSION
#define CROSSROOF_VERSION "unknown"
#endif

namespace crossroof::cli {

namespace {

const std::array<const Command *, 19> kCommands{&kXGraphCommand,   &kProfilesCommand,      &kOccupancyCommand,
                                               &kZigzagCommand,   &kTmmCommand,           &kMarkovCommand,
                                               &kMarkovSurfaceCommand, &kMappingsCommand, &kCountersCommand,
                                               &kFitTraceCommand, &kBandwidthCurveCommand, &kStabilityMapCommand,
                                               &kHysteresisCommand, &kAdviseCommand, &kKernelsCommand, &kRooflineCommand,
                                               &kCalibrateCommand, &kSkeletonCommand, &kExtrapolateCommand};

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

/// The most a refusal's line may be, in bytes, with its "crossroof-cli COMMAND: " (core::shortMessage()): with
/// its line feed, under 300.
constexpr std::size_t kMaxMessage = 298;

/// The most a warning line may be: one may list what to do in full (the ncu metrics to profile again with).
constexpr std::size_t kMaxWarning = 1000;

/// TEXT, the lines a command wrote to standard error (its warnings), each line at most kMaxWarning bytes.
void writeMessages(std::string_view text, std::ostream &err)
{
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        err << core::shortMessage(text.substr(0, end), kMaxWarning) << '\n';
        text.remove_prefix(std::min(end + 1, text.size()));
    }
}

/// Writes TEXT, a command's whole output, to OUT: exit status 0 once it has reached its file; 2 with a message
/// naming the reason when it has not (a full disk, a closed file). The output is written at once, after the
/// command finished, so the reason is the first failed write's (nothing wrote before it and failed unseen).
int finish(std::string_view text, std::ostream &out, std::ostream &err, std::string_view what)
{
    errno = 0;
    out.write(text.data(), std::streamsize(text.size()));
    int code = errno;
    if (out) {
        out.flush();
        code = errno;
    }
    if (out)
        return 0;
    err << "crossroof-cli " << what << ": cannot write the output"
        << (code != 0 ? std::string(" (") + std::strerror(code) + ")" : std::string()) << '\n';
    return 2;
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
        // "help COMMAND" is COMMAND's help.
        if (name == "help" && args.size() >= 2) {
            for (const Command *c : allCommands(extra)) {
                if (args[1] == c->name)
                    return finish(c->help, out, err, "help");
            }
            err << "crossroof-cli: unknown command '" << core::quoteForMessage(args[1]) << "' (try crossroof-cli --help)\n";
            return 2;
        }
        std::ostringstream usage;
        printUsage(usage, extra);
        return finish(usage.view(), out, err, "help");
    }
    if (name == "--version") {
        if (args.size() > 1) { // as every command refuses what it does not take
            err << "crossroof-cli: unexpected argument '" << core::quoteForMessage(args[1])
                << "' after '--version' (it takes none)\n";
            return 2;
        }
        return finish("crossroof-cli " CROSSROOF_VERSION "\n", out, err, "--version");
    }
    for (const Command *c : allCommands(extra)) {
        if (name != c->name)
            continue;
        std::vector<std::string> rest(args.begin() + 1, args.end());
        // "--" ends the options; no command takes operands, so anything after it is refused by name.
        const auto end = std::find(rest.begin(), rest.end(), std::string("--"));
        for (auto a = rest.begin(); a != end; ++a) {
            if (*a == "--help" || *a == "-h")
                return finish(c->help, out, err, c->name);
        }
        if (end != rest.end()) {
            if (end + 1 != rest.end()) {
                err << "crossroof-cli " << c->name << ": unexpected argument '" << core::quoteForMessage(*(end + 1))
                    << "' after '--' (the command takes options only)\n";
                return 2;
            }
            rest.erase(end);
        }
        try {
            // The output is kept until the command has finished: a refusal, or an internal error, found after
            // part of a report was ready prints nothing of it (a script never reads half a result).
            // Warnings, too, wait, and each becomes one short line.
            std::ostringstream output;
            std::ostringstream warnings;
            try {
                if (c->run_with_warnings)
                    c->run_with_warnings(rest, output, warnings);
                else
                    c->run(rest, output);
            } catch (...) {
                writeMessages(warnings.view(), err);
                throw;
            }
            writeMessages(warnings.view(), err);
            return finish(output.view(), out, err, c->name);
        } catch (const core::InputError &e) {
            // One line whatever it echoes (a file name with a line break in it, say), and never a long one:
            // a long path or list loses its middle, the reason stays.
            err << core::shortMessage("crossroof-cli " + std::string(c->name) + ": " + e.what(), kMaxMessage) << '\n';
            return 2;
        }
    }
    err << "crossroof-cli: unknown command '" << core::quoteForMessage(name) << "' (try crossroof-cli --help)\n";
    return 2;
}

} // namespace crossroof::cli
