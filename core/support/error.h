// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace crossroof::core {

/// Bad input from a user: a profile, a parameter value, a command-line argument or a file.
/// The message is complete and meant to be shown as is ("file.json: field 'parameters.L': ...").
class InputError : public std::runtime_error
{
public:
    explicit InputError(const std::string &message)
        : std::runtime_error(message)
    {
    }
};

} // namespace crossroof::core
