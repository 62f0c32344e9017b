// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every gpu-benches reader shares: splitting an output line into tokens, numbers refused with the file,
// line and column, the GPU named by the file name, and which benchmark wrote a text (gpuBenchesFormat()).

#include "core/traces/trace_set.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core::detail {

struct BenchToken
{
    std::string_view text;
    std::size_t offset = 0; ///< within the line
};

/// The blank-separated tokens of LINE[FROM, TO).
std::vector<BenchToken> benchTokens(std::string_view line, std::size_t from, std::size_t to);
inline std::vector<BenchToken> benchTokens(std::string_view line)
{
    return benchTokens(line, 0, line.size());
}

/// Errors of one gpu-benches file: "SOURCE:LINE:COLUMN: problem".
class BenchText
{
public:
    BenchText(std::string source, std::string_view what)
        : m_source(std::move(source))
        , m_what(what)
    {
    }

    const std::string &source() const { return m_source; }
    [[noreturn]] void fail(int line, std::string_view text, std::size_t offset, const std::string &problem) const;
    /// T as a finite number >= 0 (a trailing UNIT such as "kB", "ms", "%" or "GB/s" glued to it is taken
    /// off); NAME names the field in the message.
    double number(int line, std::string_view text, const BenchToken &t, const std::string &name,
                  std::string_view unit = {}) const;
    /// Refuses TEXT over kGpuBenchesMaxBytes or holding binary data.
    void checkSize(std::string_view text) const;

private:
    std::string m_source;
    std::string_view m_what;
};

/// T shortened for a message.
std::string shownToken(std::string_view t);

/// The GPU a gpu-benches file names by its file name: the stem without the benchmark's name in front
/// ("stream_mi100.txt", "gpu-latency_a100_40.txt", "l2-cache-h200.txt" -> "mi100", "a100_40", "h200").
std::string benchGpuName(const std::string &path);

/// Which gpu-benches output TEXT (a file's beginning) is, from its content: gpu-stream (either header),
/// gpu-latency, gpu-cache, gpu-l2-cache, gpu-l2-stream, gpu-roofline or gpu-strides; none for anything else.
std::optional<TraceFormat> gpuBenchesFormat(std::string_view text);

} // namespace crossroof::core::detail
