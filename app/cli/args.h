// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <string>
#include <vector>

namespace crossroof::cli {

/// Command-line options of one subcommand: `--name value`, `--name=value`, flags, repeatable options.
/// Anything unexpected throws core::InputError naming the argument.
class Args
{
public:
    struct Spec
    {
        std::vector<std::string> flags;      ///< options without a value, e.g. "json"
        std::vector<std::string> values;     ///< options with one value, e.g. "profile"
        std::vector<std::string> repeatable; ///< options with a value that may repeat, e.g. "set"
    };

    Args(const std::vector<std::string> &argv, const Spec &spec);

    bool flag(const std::string &name) const;
    bool has(const std::string &name) const;
    std::string value(const std::string &name, const std::string &fallback = {}) const;
    const std::vector<std::string> &all(const std::string &name) const;
    /// A whole number in [min, max]; throws InputError naming the option otherwise.
    long long integer(const std::string &name, long long fallback, long long min, long long max) const;

private:
    std::map<std::string, std::vector<std::string>> m_values;
};

} // namespace crossroof::cli
