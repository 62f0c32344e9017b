// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What several commands read and print alike: the model's inputs (--profile, --set), probabilities, numbers.

#include "core/profiles/hardware_profile.h"
#include "core/support/utf8.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::cli {

class Args;

using Json = nlohmann::ordered_json;

/// The path of the first number in J that is not finite ("points[3].R"), or none. nlohmann would print it
/// as null.
template <class Value>
std::optional<std::string> nonFiniteField(const Value &j)
{
    if (j.is_number_float())
        return std::isfinite(j.template get<double>()) ? std::nullopt : std::optional<std::string>(std::string());
    // HERE (a key or "[i]") in front of the path BELOW it.
    const auto joined = [](std::string here, const std::string &below) {
        if (!below.empty() && below.front() != '[')
            here.push_back('.');
        here.append(below);
        return here;
    };
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (auto below = nonFiniteField(it.value()))
                return joined(it.key(), *below);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (auto below = nonFiniteField(j[i])) {
                std::string index(1, '[');
                index.append(std::to_string(i));
                index.push_back(']');
                return joined(std::move(index), *below);
            }
        }
    }
    return std::nullopt;
}

/// J as --json prints it, indented by INDENT (-1: on one line), with every byte of a string or key that is
/// not UTF-8 (a file name in Latin-1) escaped as "\xNN", where dumping it as it is would fail the command.
/// The last line of defence against an overflow that no check caught: a number that is not finite is an
/// internal error (std::logic_error naming the field, exit status 1), never a null with exit status 0.
template <class Value>
std::string jsonOutput(Value j, int indent = 2)
{
    if (const auto field = nonFiniteField(j))
        throw std::logic_error("--json output: field '" + *field + "' is a number that is not finite");
    core::escapeInvalidUtf8InJson(j);
    return j.dump(indent);
}

/// V as printf's SPEC prints it (e.g. "%.4g"). A V that is not finite is an internal error (std::logic_error,
/// exit status 1): the commands say "infinite" themselves where that is a result, and nothing prints "inf" or
/// "nan" with exit status 0.
std::string fmt(double v, const char *spec = "%.4g");
/// GIGA, a quantity in giga-UNIT, with the SI prefix that keeps it between 1 and 1000, four significant digits,
/// with its sign where SIGNED: "16.58 Top/s" for 16580 Gop/s, "+4.144 Top/s", "-127 GB/s", "+350 MB/s"; "0 G"
/// and UNIT for zero.
std::string siQuantity(double giga, const std::string &unit, bool signed_ = false);

/// The machine and workload a command works on: --profile (an id or a file; the default profile without
/// it) with each --set KEY=VALUE applied in order. Throws InputError naming the option.
struct ModelInputs
{
    core::HardwareProfile profile;
    core::XModelParams params;
};
ModelInputs modelInputs(const Args &args);
/// Applies each --set KEY=VALUE of ARGS to PARAMS, in order. Throws InputError naming the option or key.
void applySets(const Args &args, core::XModelParams &params);

/// Every parameter, in the registry's order, and the cache mode.
Json parametersJson(const core::XModelParams &p);

/// How a command whose result is a table prints it: --format text|json|csv; --json is --format json.
enum class OutputFormat { Text, Json, Csv };
/// The format ARGS ask for (their spec must have the flag "json" and the value "format"). Throws InputError
/// naming the option for an unknown format or for --json with --format csv.
OutputFormat outputFormat(const Args &args);

/// CSV output (RFC 4180 quoting, one record per line ending in LF). Fields are encoded by the helpers below
/// and written with writeCsvRow.
/// TEXT as one field: quoted, with its quotes doubled, when it holds a comma, a quote, CR or LF.
std::string csvText(std::string_view text);
/// V with the fewest digits that read back to the same double; an empty field (as JSON's null) when V is
/// not finite: CSV output never holds NaN or inf.
std::string csvNumber(double v);
std::string csvInteger(long long v);
/// A column name with its unit: KEY, or KEY_UNIT with '/' written "_per_" and other characters that are
/// not letters, digits or '_' as '_' ("R", "GB/s" -> "R_GB_per_s").
std::string csvColumn(std::string_view key, std::string_view unit);
/// A numeric parameter key with the unit the parameter registry gives it (csvColumn).
std::string csvParameterColumn(const std::string &key);
/// Writes FIELDS (already encoded) as one record.
void writeCsvRow(std::ostream &out, const std::vector<std::string> &fields);

/// Files in a folder a command reads (calibrate --probe DIR): the option and the names of the files.
struct FolderInputs
{
    const char *option = nullptr;
    std::vector<std::string> names;
};
/// Refuses the file given with OUT_OPTION ("out") where it is one of the files that FILE_OPTIONS (and
/// FOLDER) of ARGS name: the same file by device and inode, so also through a symbolic or hard link or
/// another spelling of its path. Writing it would replace what the command reads with what it wrote from it.
/// Standard output ("-") and a file that does not exist yet pass. Throws InputError "option '--out': 'a.svg'
/// is the file given with '--session'; ...".
void refuseOutputOverInput(const Args &args, const std::string &outOption, std::initializer_list<const char *> fileOptions,
                           const FolderInputs &folder = {});

/// TEXT as a probability in [0, 1]; errors start with WHAT ("option '--p': 'half' is not a number").
double probabilityValue(const std::string &text, const std::string &what);

} // namespace crossroof::cli
