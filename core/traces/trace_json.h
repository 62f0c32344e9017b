// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A trace read from a JSON value already parsed (a session's traces), without writing it out and parsing it
// again as traceFromJson() would.

#include "core/support/json_reader.h"
#include "core/traces/trace_set.h"

#include <string>

namespace crossroof::core::detail {

/// traceFromJson() of DOC, a value of a document parsed with parseJsonText().
MeasuredTrace traceFromJsonValue(const json &doc, const std::string &label, const std::string &prefix = {});

} // namespace crossroof::core::detail
