// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/support/text_file.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crossroof::core {

/// Largest file parseCsv()/readCsv() accept; readCsv() refuses larger files before reading them.
inline constexpr std::uintmax_t kCsvMaxBytes = 64ull * 1024 * 1024;
/// Most columns a table may have (header or row).
inline constexpr std::size_t kCsvMaxColumns = 10000;
/// Longest physical line, in bytes.
inline constexpr std::size_t kCsvMaxLineBytes = 1024 * 1024;
/// Most cells a table may hold (rows times columns), so that a pathological file cannot exhaust memory.
inline constexpr std::size_t kCsvMaxCells = 16 * 1024 * 1024;

/// How to split and read a delimited text table. Zero means "detect".
struct CsvOptions
{
    /// ',', '\t', ';', or ' ' for whitespace-aligned columns (runs of blanks separate fields); 0: detect.
    char delimiter = 0;
    /// '.' or ','; 0: detect (a decimal comma only where the delimiter is not a comma).
    char decimal = 0;
    /// Rows with fewer fields than the header read the missing trailing cells as empty (ncu writes its metric
    /// rows without the rule columns); otherwise such a row is an error.
    bool pad_short_rows = false;
};

/// A delimited text table with a header line: CSV, TSV, semicolon CSV with decimal commas, or
/// whitespace-aligned columns. Cells are kept as text (quotes removed, blanks around fields trimmed);
/// numeric access converts on demand and names the file, line and column of anything that is not a
/// finite number.
///
/// Rules: lines whose first non-blank character is '#' are comments; blank lines are skipped; a UTF-8
/// byte-order mark is skipped; "..." quotes a field (a doubled "" inside is one quote, and a quoted field
/// may span lines); rows may end with extra empty fields (dropped) but not with extra non-empty ones, nor
/// with fewer fields than the header unless CsvOptions::pad_short_rows.
class CsvTable
{
public:
    const std::string &source() const { return m_source; }
    char delimiter() const { return m_delimiter; }
    char decimalSeparator() const { return m_decimal; }
    const std::vector<std::string> &header() const { return m_header; }
    std::size_t rowCount() const { return m_rowLines.size(); }
    std::size_t columnCount() const { return m_header.size(); }

    /// Index of the column named NAME (exact match after trimming), or none.
    std::optional<std::size_t> findColumn(std::string_view name) const;
    /// Like findColumn(); throws InputError "SOURCE:HEADERLINE: no column ..." listing the columns (each
    /// and the list cut short) when there is none, or when two columns have that name.
    std::size_t column(std::string_view name) const;

    /// The text of one cell (quotes removed).
    std::string_view cell(std::size_t row, std::size_t column) const;
    /// 1-based line of the file where the header starts.
    int headerLine() const { return m_headerLine; }
    /// 1-based line of the file where ROW starts.
    int line(std::size_t row) const { return m_rowLines[row]; }
    /// 1-based character column of the file where the cell starts (its opening quote if quoted).
    int textColumn(std::size_t row, std::size_t column) const;

    /// The cell as a finite number. Accepts the table's decimal separator and, in a quoted cell or where the
    /// delimiter cannot be confused with it, thousands separators in groups of three ("1,234.5").
    /// Throws InputError "SOURCE:LINE:COLUMN: column 'NAME': 'TEXT' is not a number" (or "is empty",
    /// "is not a finite number").
    double number(std::size_t row, std::size_t column) const;
    /// Every cell of a column as numbers (same errors as number()).
    std::vector<double> numbers(std::size_t column) const;
    std::vector<double> numbers(std::string_view columnName) const { return numbers(column(columnName)); }

    /// Prefix for messages about a cell: "SOURCE:LINE:COLUMN: column 'NAME'".
    std::string where(std::size_t row, std::size_t column) const;

private:
    friend class CsvParser;
    struct Cell
    {
        std::uint32_t offset = 0; ///< into m_text
        std::uint32_t size = 0;
        std::uint32_t text_column = 0;
    };

    std::string m_source;
    char m_delimiter = ',';
    char m_decimal = '.';
    std::vector<std::string> m_header;
    std::string m_text;        ///< every cell's text, back to back
    std::vector<Cell> m_cells; ///< row-major, columnCount() per row
    std::vector<int> m_rowLines;
    int m_headerLine = 1;
};

/// Parses a delimited text table. Throws InputError "SOURCE:LINE:COLUMN: problem" (or "SOURCE: problem"
/// for the whole file) on: text over kCsvMaxBytes, binary data (NUL and other control bytes, invalid
/// UTF-8), an empty file, a header without data rows, a line over kCsvMaxLineBytes, more than
/// kCsvMaxColumns columns or kCsvMaxCells cells, an unterminated quote, text after a closing quote, or a
/// row with a different number of fields than the header.
CsvTable parseCsv(std::string_view text, const std::string &source = "<input>",
                  const CsvOptions &options = {});

/// Reads and parses a file; refuses files over kCsvMaxBytes before reading them.
CsvTable readCsv(const std::string &path, const CsvOptions &options = {});

/// A number as written in a table cell: trimmed, DECIMAL ('.' or ',') as the decimal separator and, when
/// GROUPING, the other one of ",." as a thousands separator in groups of three. Returns none for text that
/// is not a number; NaN and infinities are returned as such (callers reject them with their own message).
std::optional<double> parseTableNumber(std::string_view text, char decimal = '.', bool grouping = true);

/// Checks that TEXT is UTF-8 without NUL or control bytes other than tab, CR and LF; throws InputError
/// "SOURCE:LINE:COLUMN: binary data (...)" naming WHAT the file should have been ("not CSV text").
void checkText(std::string_view text, const std::string &source, std::string_view what);

} // namespace crossroof::core
