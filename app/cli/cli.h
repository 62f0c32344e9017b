// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace crossroof::cli {

/// Runs crossroof-cli with ARGS (without the program name), writing results to OUT and the one-line errors
/// to ERR. Returns the exit status: 0 on success, 2 on bad usage or bad input (../shared/design/CLI.md).
int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace crossroof::cli
