// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/support/error.h"

#include <limits>
#include <map>
#include <string>
#include <string_view>
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
    /// A decimal number in [min, max], read as decimalValue() reads one; FALLBACK without the option.
    double number(const std::string &name, double fallback,
                  double min = std::numeric_limits<double>::lowest(),
                  double max = std::numeric_limits<double>::max()) const;

private:
    std::map<std::string, std::vector<std::string>> m_values;
};

/// BODY's result; an InputError from it (a model's check of what the option gave) gets "option '--NAME': "
/// in front, so that the refusal names the option.
template<class Fn>
auto withOption(const std::string &name, Fn &&body)
{
    try {
        return body();
    } catch (const core::InputError &e) {
        throw core::InputError("option '--" + name + "': " + e.what());
    }
}

/// TEXT, all of it, as a decimal number (core::parseNumber: no blanks, no '+') in [min, max], the one way the
/// commands read one, whole or as part of a value. Throws InputError starting with WHAT ("option '--p'"):
/// "'half' is not a number", "must be a finite number (got nan)", "must be between 0 and 1 (got 1.5)".
double decimalValue(std::string_view text, const std::string &what,
                    double min = std::numeric_limits<double>::lowest(),
                    double max = std::numeric_limits<double>::max());

} // namespace crossroof::cli
