// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "command_support.h"
#include "commands.h"
#include "core/occupancy/compute_capability.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/occupancy/occupancy.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ostream>

namespace crossroof::cli {

namespace {

using core::InputError;

/// A whole number as a JSON integer, anything else as a double.
Json number(double v)
{
    return v == std::floor(v) && std::abs(v) < 9e15 ? Json(static_cast<long long>(v)) : Json(v);
}

Json optional(const std::optional<int> &v)
{
    return v ? Json(*v) : Json(nullptr);
}

Json limiterNames(const core::LimiterSet &set)
{
    Json list = Json::array();
    for (core::Limiter l : set.list())
        list.push_back(core::limiterName(l));
    return list;
}

long long required(const Args &args, const std::string &name, long long min, long long max)
{
    if (!args.has(name))
        throw InputError("option '--" + name + "' is required");
    return args.integer(name, 0, min, max);
}

const core::ComputeCapability &computeCapabilityOption(const Args &args)
{
    if (!args.has("cc"))
        throw InputError("option '--cc' is required");
    try {
        return core::computeCapability(args.value("cc"));
    } catch (const InputError &e) {
        throw InputError(std::string("option '--cc': ") + e.what());
    }
}

void printText(const core::ComputeCapability &cc, const core::OccupancyInput &in,
               const core::OccupancyResult &r, std::ostream &out)
{
    out << "CC " << cc.name << ", " << core::occupancyModeName(r.mode) << " rule"
        << (r.mode == core::OccupancyMode::Paper ? " (Eq. 4 as printed)" : "") << '\n'
        << "Block     " << in.threads_per_block << " threads (" << r.warps_per_block << " warps), "
        << in.regs_per_thread << " registers/thread, " << in.smem_per_block << " B shared memory\n"
        << "SM        " << cc.max_warps_sm << " warps, " << cc.max_blocks_sm << " blocks, " << cc.regs_per_sm
        << " registers, " << r.smem_config << " B shared memory configured\n\n"
        << "Active blocks per SM  " << r.blocks << '\n'
        << "Resident warps per SM " << fmt(r.warps_per_sm) << " of " << cc.max_warps_sm << '\n'
        << "Occupancy             " << fmt(100 * r.occupancy, "%.1f") << " %\n"
        << "Limited by            ";
    const auto limiters = r.limiters.list();
    for (std::size_t i = 0; i < limiters.size(); ++i)
        out << (i ? ", " : "") << core::limiterName(limiters[i]);
    out << "\n\nBlocks per SM each resource allows:\n";
    for (core::Limiter l : core::kLimiters) {
        const std::string name(core::limiterName(l));
        const auto v = r.by.get(l);
        out << "  " << name << std::string(15 - name.size(), ' ') << (v ? std::to_string(*v) : "no limit")
            << (r.limiters.contains(l) ? "  <- limiter" : "") << '\n';
    }
}

void printSweep(const core::OccupancySweep &s, std::ostream &out)
{
    const std::string name(core::sweepVariableName(s.variable));
    out << "\nSweep over " << name << ", the rest held:\n"
        << "  " << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ')
        << "blocks  warps  occupancy  limited by\n";
    for (std::size_t i = 0; i < s.x.size(); ++i) {
        out << "  " << fmt(double(s.x[i]), "%-13.0f") << ' ' << fmt(s.blocks[i], "%6.0f") << ' '
            << fmt(s.warps_per_sm[i], "%6.4g") << "  " << fmt(100 * s.occupancy[i], "%7.1f %%") << "  ";
        const auto limiters = s.limiters[i].list();
        for (std::size_t k = 0; k < limiters.size(); ++k)
            out << (k ? ", " : "") << core::limiterName(limiters[k]);
        out << '\n';
    }
}

void runOccupancy(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"json"}, {"cc", "threads", "regs", "smem", "smem-config", "mode", "sweep"}, {}});
    const core::ComputeCapability &cc = computeCapabilityOption(args);
    core::OccupancyInput in;
    in.threads_per_block = int(required(args, "threads", 1, core::kMaxThreadsPerBlock));
    in.regs_per_thread = int(required(args, "regs", 0, core::kMaxRegistersInput));
    in.smem_per_block = required(args, "smem", 0, core::kMaxSharedMemoryInput);
    if (args.has("smem-config")) {
        const long long config = args.integer("smem-config", 0, 0, core::kMaxSharedMemoryInput);
        if (!cc.isSmemConfig(config)) {
            std::string known;
            for (long long bytes : cc.smemConfigsBytes())
                known += (known.empty() ? "" : ", ") + std::to_string(bytes);
            throw InputError("option '--smem-config': " + std::to_string(config)
                             + " bytes is not a configuration of CC " + cc.name + " (choose one of " + known
                             + ")");
        }
        in.smem_config = config;
    }
    const std::string modeName = args.value("mode", "cuda");
    const auto mode = core::occupancyModeFromName(modeName);
    if (!mode)
        throw InputError("option '--mode': must be cuda or paper (got '" + modeName + "')");
    std::optional<core::SweepVariable> sweep;
    if (args.has("sweep")) {
        const std::string name = args.value("sweep");
        for (auto v : {core::SweepVariable::ThreadsPerBlock, core::SweepVariable::RegistersPerThread,
                       core::SweepVariable::SharedMemoryPerBlock}) {
            if (name == core::sweepVariableName(v))
                sweep = v;
        }
        if (!sweep) {
            throw InputError("option '--sweep': must be threads, registers or shared_memory (got '" + core::quoteForMessage(name)
                             + "')");
        }
    }

    const core::OccupancyResult r = core::activeBlocks(cc, in, *mode);
    std::optional<core::OccupancySweep> s;
    if (sweep)
        s = core::sweepOccupancy(cc, in, *mode, *sweep);
    if (!args.flag("json")) {
        printText(cc, in, r, out);
        if (s)
            printSweep(*s, out);
        return;
    }
    Json j;
    j["blocks"] = r.blocks;
    j["warps_per_sm"] = number(r.warps_per_sm);
    j["occupancy"] = r.occupancy;
    j["limiters"] = limiterNames(r.limiters);
    j["by"] = {{"warps", r.by.warps},
               {"blocks", r.by.blocks},
               {"registers", optional(r.by.registers)},
               {"shared_memory", optional(r.by.shared_memory)}};
    j["mode"] = core::occupancyModeName(r.mode);
    j["cc"] = cc.name;
    j["threads"] = in.threads_per_block;
    j["regs"] = in.regs_per_thread;
    j["smem"] = in.smem_per_block;
    j["smem_config"] = r.smem_config;
    j["warps_per_block"] = r.warps_per_block;
    j["max_warps_sm"] = cc.max_warps_sm;
    if (s) {
        Json warps = Json::array();
        Json limiters = Json::array();
        for (std::size_t i = 0; i < s->x.size(); ++i) {
            warps.push_back(number(s->warps_per_sm[i]));
            limiters.push_back(limiterNames(s->limiters[i]));
        }
        j["sweep"] = {{"variable", core::sweepVariableName(s->variable)},
                      {"x", s->x},
                      {"blocks", s->blocks},
                      {"warps_per_sm", warps},
                      {"occupancy", s->occupancy},
                      {"limiters", limiters}};
    }
    out << jsonOutput(j) << '\n';
}

constexpr const char *kHelp =
    "Usage: crossroof-cli occupancy --cc X.Y --threads T --regs R --smem BYTES [--smem-config BYTES]\n"
    "                               [--mode cuda|paper] [--sweep VARIABLE] [--json]\n\n"
    "Active thread blocks per SM (B_a), resident warps and occupancy of one kernel configuration, with the\n"
    "blocks each resource allows and every resource that limits them (docs/MODEL.md 2.1).\n\n"
    "  --cc X.Y             compute capability, e.g. 8.0 (an unknown one is answered with the list)\n"
    "  --threads T          threads per block, 1..1024\n"
    "  --regs R             registers per thread (0: no register limit)\n"
    "  --smem BYTES         shared memory per block, bytes (0: none; from CC 8.0 CUDA's 1 KiB reserved\n"
    "                       per block still counts)\n"
    "  --smem-config BYTES  shared memory per SM: one of the CC's carveouts, in bytes; default the largest\n"
    "  --mode cuda|paper    cuda (default): the hardware's allocation rules, as NVIDIA's occupancy\n"
    "                       calculator; paper: Eq. 4 of the occupancy paper as printed, no granularity\n"
    "  --sweep VARIABLE     also sweep threads (32..1024 step 32), registers (1..max per thread) or\n"
    "                       shared_memory (0..max per block, in allocation units), the others held\n"
    "  --json               JSON output (keys as in docs/CLI.md); without it, a readable summary\n";

} // namespace

const Command kOccupancyCommand{"occupancy", "active blocks, warps and occupancy per SM (B_a)", kHelp,
                                runOccupancy};

} // namespace crossroof::cli
