// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs crossroof-cli in process for the CLI tests: exit status, standard output and standard error.

#include "cli.h"

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <sstream>
#include <string>
#include <vector>

namespace crossroof::test {

struct CliRun
{
    int status;
    std::string out;
    std::string err;
};

inline CliRun run(const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    const int status = cli::run(args, out, err);
    return {status, out.str(), err.str()};
}

/// The JSON a successful run prints (a failure's message goes to the test log).
inline nlohmann::json runJson(const std::vector<std::string> &args)
{
    const CliRun r = run(args);
    if (r.status != 0)
        qWarning("%s", r.err.c_str());
    return nlohmann::json::parse(r.out);
}

} // namespace crossroof::test
