// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace crossroof::cli {

struct Command;

/// Runs crossroof-cli with ARGS (without the program name), writing results to OUT and the one-line errors
/// to ERR. Returns the exit status: 0 on success, 2 on bad usage or bad input (docs/CLI.md).
/// EXTRA adds commands that need more than the core (render, which draws with the GUI's code).
int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err,
        std::span<const Command *const> extra = {});

} // namespace crossroof::cli
