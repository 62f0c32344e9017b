// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/occupancy/scheduling.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>

namespace crossroof::cli {

namespace {

using core::InputError;
using Json = nlohmann::ordered_json;

long long required(const Args &args, const std::string &name, long long min, long long max)
{
    if (!args.has(name))
        throw InputError("option '--" + name + "' is required");
    return args.integer(name, 0, min, max);
}

/// Parses MIN:MAX into two whole numbers; errors name --br.
std::pair<long long, long long> parseRange(const std::string &text)
{
    const auto colon = text.find(':');
    const std::string_view view(text);
    const std::optional<long long> first = core::parseInteger<long long>(view.substr(0, colon));
    const std::optional<long long> last = core::parseInteger<long long>(view.substr(colon + 1));
    if (colon == std::string::npos || !first || !last)
        throw InputError("option '--br': expected MIN:MAX, two whole numbers (got '" + core::quoteForMessage(text) + "')");
    const long long lo = *first;
    const long long hi = *last;
    if (lo < 1 || hi > core::kMaxRequestedBlocks || hi < lo) {
        throw InputError("option '--br': need 1 <= MIN <= MAX <= " + std::to_string(core::kMaxRequestedBlocks)
                         + " (got '" + text + "')");
    }
    if (hi - lo + 1 > core::kMaxZigzagPoints) {
        throw InputError("option '--br': " + std::to_string(hi - lo + 1) + " values, at most "
                         + std::to_string(core::kMaxZigzagPoints));
    }
    return {lo, hi};
}

void printText(const core::Zigzag &z, long long sms, long long ba, std::ostream &out)
{
    out << "Scheduling factor f_sched(B_r) = ceil(B_r / (B_a*S)) * B_a*S / B_r (Eq. 3)\n"
        << "S = " << sms << " SMs, B_a = " << ba << " per SM: " << z.blocks_per_pass << " blocks per pass\n"
        << "Minima (f_sched = 1) at B_r = ";
    if (z.minima.empty())
        out << "none in range (the first is " << z.blocks_per_pass << ")";
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < z.minima.size() && i < kShown; ++i)
        out << (i ? ", " : "") << z.minima[i];
    if (z.minima.size() > kShown)
        out << ", ... (" << z.minima.size() << " in all)";
    out << "\n\n         B_r  passes   f_sched\n";
    char buf[96];
    for (std::size_t i = 0; i < z.br.size(); ++i) {
        const long long passes = (z.br[i] + z.blocks_per_pass - 1) / z.blocks_per_pass;
        std::snprintf(buf, sizeof buf, "%12lld %7lld %9.4f\n", z.br[i], passes, z.f_sched[i]);
        out << buf;
    }
}

void runZigzag(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"sms", "ba", "br", "format"}, {}});
    const OutputFormat format = outputFormat(args);
    const long long sms = required(args, "sms", 1, core::kMaxSms);
    const long long ba = required(args, "ba", 1, core::kMaxActiveBlocks);
    if (!args.has("br"))
        throw InputError("option '--br' is required");
    const auto [lo, hi] = parseRange(args.value("br"));

    const core::Zigzag z = core::zigzag(sms, ba, lo, hi);
    if (format == OutputFormat::Text) {
        printText(z, sms, ba, out);
        return;
    }
    if (format == OutputFormat::Csv) {
        writeCsvRow(out, {"br_blocks", "passes", "f_sched"});
        for (std::size_t i = 0; i < z.br.size(); ++i) {
            const long long passes = (z.br[i] + z.blocks_per_pass - 1) / z.blocks_per_pass;
            writeCsvRow(out, {csvInteger(z.br[i]), csvInteger(passes), csvNumber(z.f_sched[i])});
        }
        return;
    }
    Json j;
    j["br"] = z.br;
    j["f_sched"] = z.f_sched;
    j["minima"] = z.minima;
    j["blocks_per_pass"] = z.blocks_per_pass;
    j["sms"] = sms;
    j["ba"] = ba;
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp =
    "Usage: crossroof-cli zigzag --sms S --ba B --br MIN:MAX [--format text|json|csv] [--json]\n\n"
    "The scheduling factor f_sched(B_r) = ceil(B_r / (B_a*S)) * B_a*S / B_r (Eq. 3 of the occupancy paper)\n"
    "for every number of requested blocks B_r in MIN..MAX: the zigzag of Fig. 1. It is 1 where B_r is a\n"
    "multiple of B_a*S (every SM busy in every pass) and above 1 elsewhere (the last pass leaves SMs\n"
    "idle).\n\n"
    "  --sms S       streaming multiprocessors (P/Q in the paper)\n"
    "  --ba B        active blocks per SM, B_a (see 'crossroof-cli occupancy')\n"
    "  --br MIN:MAX  requested blocks B_r, inclusive, at most 1000000 values\n"
    "  --format json JSON output {\"br\":[..],\"f_sched\":[..],\"minima\":[..],...}\n"
    "  --format csv  CSV, one row per B_r: br_blocks,passes,f_sched\n"
    "  --json        the same as --format json; without either, a table (--format text)\n";

} // namespace

const Command kZigzagCommand{"zigzag", "scheduling factor f_sched against requested blocks", kHelp,
                             runZigzag};

} // namespace crossroof::cli
