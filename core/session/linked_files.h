// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a session links to instead of embedding: traces and Extrapolate's training runs read again from their
// files, with paths relative to the session file's folder (core/session only).

#include "core/modeltree/extrapolate_settings.h"
#include "core/support/json_reader.h"
#include "core/traces/trace_set.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace crossroof::core {
class TraceFileCache;
}

namespace crossroof::core::detail {

/// The most points a session's traces hold in all, the linked ones as read from their files: twice a
/// 16.7-million-interval trace. 500 links to a table of 400,000 rows (200 million points, each trace its own
/// copy) took 9.5 GB and two minutes to draw; the traces past the limit are left out, each with a problem.
inline constexpr std::size_t kMaxSessionPoints = std::size_t(1) << 25;

/// The path of a linked file as written in a session (LINK), relative to FOLDER unless absolute, made absolute.
std::filesystem::path resolveLink(const std::string &link, const std::filesystem::path &folder);
/// The path to write for a linked trace read from SOURCE: relative to FOLDER where there is such a path.
std::string linkPath(const std::string &source, const std::filesystem::path &folder);

/// Extrapolate's training runs: embedded ("rows") or linked to their file ("link"), read again from it. Errors
/// in the record throw; a linked file that cannot be read leaves PROBLEM set and gives no training runs.
ExtrapolateSettings readExtrapolate(const JsonReader &r, const json &obj, const std::filesystem::path &folder,
                                    std::string &problem);
/// SETTINGS as the session's "extrapolate" field: the training runs linked (their path relative to FOLDER)
/// when AS_LINK, else embedded row by row.
nlohmann::ordered_json extrapolateToJson(const ExtrapolateSettings &settings, bool asLink,
                                         const std::filesystem::path &folder);

/// One linked trace ("link" and "origin" instead of points), read again from its file through FILES (which
/// reads each file once for the whole session). Errors in the record throw; a file that cannot be read (or no
/// longer holds the trace, or would hold more than ROOM points) leaves PROBLEM set and gives none.
std::optional<MeasuredTrace> readLinkedTrace(const JsonReader &r, const json &obj,
                                             const std::filesystem::path &folder, TraceFileCache &files,
                                             std::size_t room, std::string &problem);

} // namespace crossroof::core::detail
