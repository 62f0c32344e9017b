// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"

#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/numbers.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>

namespace crossroof::cli {

using core::InputError;

namespace {
bool contains(const std::vector<std::string> &list, const std::string &s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}
} // namespace

Args::Args(const std::vector<std::string> &argv, const Spec &spec)
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string &arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg.size() == 2)
            throw InputError("unexpected argument '" + core::quoteForMessage(arg) + "'");
        std::string name = arg.substr(2);
        std::string value;
        bool inlineValue = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        if (contains(spec.flags, name)) {
            if (inlineValue)
                throw InputError("option '--" + core::quoteForMessage(name) + "' takes no value");
            m_values[name].push_back({});
            continue;
        }
        const bool repeatable = contains(spec.repeatable, name);
        if (!repeatable && !contains(spec.values, name))
            throw InputError("unknown option '--" + core::quoteForMessage(name) + "'");
        if (!inlineValue) {
            if (i + 1 >= argv.size())
                throw InputError("option '--" + name + "' needs a value");
            value = argv[++i];
        }
        auto &slot = m_values[name];
        if (!repeatable && !slot.empty())
            throw InputError("option '--" + name + "' is given twice");
        slot.push_back(value);
    }
}

bool Args::flag(const std::string &name) const
{
    return m_values.count(name) > 0;
}

bool Args::has(const std::string &name) const
{
    return m_values.count(name) > 0;
}

std::string Args::value(const std::string &name, const std::string &fallback) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second.front();
}

const std::vector<std::string> &Args::all(const std::string &name) const
{
    static const std::vector<std::string> none;
    const auto it = m_values.find(name);
    return it == m_values.end() ? none : it->second;
}

long long Args::integer(const std::string &name, long long fallback, long long min, long long max) const
{
    if (!has(name))
        return fallback;
    const std::string text = value(name);
    const std::optional<long long> parsed = core::parseInteger<long long>(text);
    if (!parsed)
        throw InputError("option '--" + name + "': '" + core::quoteForMessage(text) + "' is not a whole number");
    const long long v = *parsed;
    if (v < min || v > max) {
        throw InputError("option '--" + name + "': must be between " + std::to_string(min) + " and "
                         + std::to_string(max) + " (got " + core::quoteForMessage(text) + ")");
    }
    return v;
}

double Args::number(const std::string &name, double fallback, double min, double max) const
{
    return has(name) ? decimalValue(value(name), "option '--" + name + "'", min, max) : fallback;
}

double decimalValue(std::string_view text, const std::string &what, double min, double max)
{
    const std::optional<double> v = core::parseNumber(text);
    if (!v)
        throw InputError(what + ": '" + core::quoteForMessage(text) + "' is not a number");
    if (!std::isfinite(*v))
        throw InputError(what + ": must be a finite number (got " + core::quoteForMessage(text) + ")");
    if (*v < min || *v > max) {
        throw InputError(what + ": must be between " + core::formatExact(min) + " and "
                         + core::formatExact(max) + " (got " + core::quoteForMessage(text) + ")");
    }
    return *v;
}

} // namespace crossroof::cli
