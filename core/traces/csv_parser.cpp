// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a table from text: the encoding check, the tokenizer and the sniffing of delimiter and decimal.
#include "core/traces/csv_table.h"

#include "core/support/error.h"
#include "core/support/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace crossroof::core {

namespace {

constexpr std::string_view kWhat = "CSV files";

std::string hexByte(unsigned char c)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", unsigned(c));
    return buf;
}

/// Length of the UTF-8 sequence starting at TEXT[I], or 0 if it is not valid UTF-8 (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    std::size_t len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    if (i + len > text.size())
        return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi)
        return 0;
    for (std::size_t k = 2; k < len; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
            return 0;
    }
    return len;
}

/// One pass over the text: encoding, control bytes and line lengths.
void scanText(std::string_view text, const std::string &source, std::string_view what, std::size_t maxLine)
{
    int line = 1;
    std::size_t lineStart = 0;
    int column = 1;
    const auto fail = [&](const std::string &problem) {
        throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + problem);
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            if (i - lineStart > maxLine) {
                column = 1;
                fail("line longer than " + std::to_string(maxLine) + " bytes (the limit for "
                     + std::string(what) + ")");
            }
            ++line;
            column = 1;
            lineStart = ++i;
            continue;
        }
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
                fail("binary data (byte " + hexByte(c) + "); not " + std::string(what) + " text");
            ++i;
            ++column;
            continue;
        }
        const std::size_t len = utf8Length(text, i);
        if (len == 0)
            fail("binary data (byte " + hexByte(c) + " is not valid UTF-8); not " + std::string(what)
                 + " text");
        i += len;
        ++column;
    }
    if (text.size() - lineStart > maxLine) {
        column = 1;
        fail("line longer than " + std::to_string(maxLine) + " bytes (the limit for " + std::string(what)
             + ")");
    }
}

/// A field as found in the text: [begin, end) between the quotes when quoted.
struct Field
{
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t start = 0;     ///< where the field starts in the text (its quote, if quoted)
    std::size_t lineStart = 0; ///< offset of the line the field starts on
    int line = 0;
    bool escaped = false; ///< holds "" pairs
};

} // namespace

/// Splits text into records for one delimiter (' ' = runs of blanks) and fills a CsvTable.
class CsvParser
{
public:
    CsvParser(std::string_view text, const std::string &source)
        : m_text(text)
        , m_source(source)
    {
    }

    [[noreturn]] void fail(int line, const std::string &problem) const
    {
        throw InputError(m_source + ":" + std::to_string(line) + ": " + problem);
    }

    [[noreturn]] void failAt(int line, std::size_t lineStart, std::size_t pos,
                             const std::string &problem) const
    {
        throw InputError(m_source + ":" + std::to_string(line) + ":"
                         + std::to_string(columnOf(lineStart, pos)) + ": " + problem);
    }

    /// Character column (1-based) of POS on the line that starts at LINESTART. Incremental within a line, so
    /// that a line of many fields costs linear time.
    int columnOf(std::size_t lineStart, std::size_t pos) const
    {
        if (lineStart != m_colLineStart || pos < m_colPos) {
            m_colLineStart = lineStart;
            m_colPos = lineStart;
            m_colValue = 1;
        }
        for (; m_colPos < pos; ++m_colPos) {
            if ((static_cast<unsigned char>(m_text[m_colPos]) & 0xc0) != 0x80)
                ++m_colValue;
        }
        return m_colValue;
    }

    void rewind()
    {
        m_pos = 0;
        m_line = 1;
        m_lineStart = 0;
        // A UTF-8 byte-order mark (as spreadsheets write it) is not part of the first column's name.
        if (m_text.substr(0, 3) == "\xef\xbb\xbf")
            m_pos = 3;
    }

    /// Reads the next record (skipping blank and comment lines) into FIELDS; false at the end of the text.
    bool next(char delim, std::vector<Field> &fields, int &recordLine)
    {
        fields.clear();
        const std::size_t n = m_text.size();
        const bool ws = delim == ' ';
        const auto blank
                = [&](char c) { return c == ' ' || c == '\r' || (c == '\t' && (ws || delim != '\t')); };
        while (true) {
            std::size_t p = m_pos;
            while (p < n && (m_text[p] == ' ' || m_text[p] == '\t' || m_text[p] == '\r'))
                ++p;
            if (p >= n) {
                m_pos = n;
                return false;
            }
            if (m_text[p] == '\n') {
                newline(p + 1);
                continue;
            }
            if (m_text[p] == '#') {
                const auto end = m_text.find('\n', p);
                if (end == std::string_view::npos) {
                    m_pos = n;
                    return false;
                }
                newline(end + 1);
                continue;
            }
            break;
        }
        recordLine = m_line;
        std::size_t p = m_pos;
        while (true) {
            while (p < n && blank(m_text[p]))
                ++p;
            if (ws && (p >= n || m_text[p] == '\n'))
                break;
            Field f;
            f.start = p;
            f.line = m_line;
            f.lineStart = m_lineStart;
            if (p < n && m_text[p] == '"') {
                std::size_t q = p + 1;
                f.begin = q;
                while (true) {
                    if (q >= n)
                        failAt(f.line, f.lineStart, f.start, "the quote opened here is not closed");
                    const char c = m_text[q];
                    if (c == '"') {
                        if (q + 1 < n && m_text[q + 1] == '"') {
                            f.escaped = true;
                            q += 2;
                            continue;
                        }
                        break;
                    }
                    if (c == '\n') {
                        ++m_line;
                        m_lineStart = q + 1;
                    }
                    ++q;
                }
                f.end = q;
                p = q + 1;
                const std::size_t afterQuote = p;
                while (p < n && blank(m_text[p]))
                    ++p;
                const bool atEnd = p >= n || m_text[p] == '\n';
                const bool ok = atEnd || (ws ? p > afterQuote : m_text[p] == delim);
                if (!ok) {
                    failAt(m_line, m_lineStart, p,
                           "text after a closing quote (a quote inside a quoted field is written \"\")");
                }
            } else {
                std::size_t q = p;
                while (q < n && m_text[q] != '\n' && (ws ? !blank(m_text[q]) : m_text[q] != delim))
                    ++q;
                f.begin = p;
                f.end = q;
                while (f.end > f.begin && blank(m_text[f.end - 1]))
                    --f.end;
                p = q;
            }
            fields.push_back(f);
            if (fields.size() > kCsvMaxColumns) {
                failAt(f.line, f.lineStart, f.start,
                       "more than " + std::to_string(kCsvMaxColumns) + " columns (the limit for CSV files)");
            }
            if (p >= n || m_text[p] == '\n')
                break;
            if (!ws)
                ++p; // the delimiter
        }
        if (p < n)
            newline(p + 1);
        else
            m_pos = n;
        return true;
    }

    std::string fieldText(const Field &f) const
    {
        std::string_view raw = m_text.substr(f.begin, f.end - f.begin);
        if (!f.escaped)
            return std::string(raw);
        std::string out;
        out.reserve(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            out.push_back(raw[i]);
            if (raw[i] == '"' && i + 1 < raw.size() && raw[i + 1] == '"')
                ++i;
        }
        return out;
    }

    static bool isEmpty(const Field &f) { return f.end == f.begin; }

    static std::size_t withoutTrailingEmpty(const std::vector<Field> &fields)
    {
        std::size_t count = fields.size();
        while (count > 0 && isEmpty(fields[count - 1]))
            --count;
        return count;
    }

    /// How well DELIM splits the first records: (fields in the header, rows consistent with it, rows read).
    struct Score
    {
        std::size_t header = 0;
        std::size_t consistent = 0;
        std::size_t rows = 0;
        bool valid = false;
    };

    Score score(char delim)
    {
        constexpr std::size_t kSampleRows = 20;
        Score s;
        rewind();
        std::vector<Field> fields;
        int line = 0;
        try {
            if (!next(delim, fields, line))
                return s;
            s.header = withoutTrailingEmpty(fields);
            while (s.rows < kSampleRows && next(delim, fields, line)) {
                ++s.rows;
                if (fields.size() >= s.header && withoutTrailingEmpty(fields) <= s.header)
                    ++s.consistent;
            }
        } catch (const InputError &) {
            return s;
        }
        s.valid = true;
        return s;
    }

    char detectDelimiter()
    {
        char best = 0;
        Score bestScore;
        for (const char delim : {'\t', ';', ','}) {
            const Score s = score(delim);
            if (!s.valid || s.header < 2)
                continue;
            const bool better = !best || s.consistent > bestScore.consistent
                                || (s.consistent == bestScore.consistent && s.header > bestScore.header);
            if (better) {
                best = delim;
                bestScore = s;
            }
        }
        if (best && bestScore.consistent == bestScore.rows)
            return best;
        const Score ws = score(' ');
        if (ws.valid && ws.header >= 2 && 2 * ws.consistent >= ws.rows
            && ws.consistent > bestScore.consistent)
            return ' ';
        // A single column (no delimiter splits the header) reads the same with any delimiter.
        return best ? best : ',';
    }

    CsvTable parse(const CsvOptions &options)
    {
        CsvTable table;
        table.m_source = m_source;
        if (m_text.size() > kCsvMaxBytes) {
            throw InputError(m_source + ": " + std::to_string(m_text.size()) + " bytes, over the "
                             + std::to_string(kCsvMaxBytes / (1024 * 1024)) + " MiB limit for CSV files");
        }
        if (options.delimiter != 0 && options.delimiter != ',' && options.delimiter != '\t'
            && options.delimiter != ';' && options.delimiter != ' ') {
            throw InputError(m_source + ": unsupported delimiter '" + std::string(1, options.delimiter)
                             + "'");
        }
        if (options.decimal != 0 && options.decimal != '.' && options.decimal != ',')
            throw InputError(m_source + ": unsupported decimal separator '" + std::string(1, options.decimal)
                             + "'");
        scanText(m_text, m_source, kWhat, kCsvMaxLineBytes);
        if (m_text.find_first_not_of(" \t\r\n", m_text.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0)
            == std::string_view::npos)
            throw InputError(m_source + ": empty file, no CSV header");

        const char delim = options.delimiter ? options.delimiter : detectDelimiter();
        table.m_delimiter = delim;
        rewind();
        std::vector<Field> fields;
        int line = 0;
        if (!next(delim, fields, line))
            throw InputError(m_source + ": no CSV header, only comment lines");
        const int headerLine = line;
        table.m_headerLine = headerLine;
        const std::size_t columns = withoutTrailingEmpty(fields);
        if (columns == 0)
            fail(line, "the header has no column names");
        for (std::size_t c = 0; c < columns; ++c)
            table.m_header.push_back(std::string(trimBlanks(fieldText(fields[c]))));

        while (next(delim, fields, line)) {
            if (fields.size() < columns && !options.pad_short_rows) {
                fail(line, std::to_string(fields.size()) + (fields.size() == 1 ? " field" : " fields")
                                   + ", but the header (line " + std::to_string(headerLine) + ") has "
                                   + std::to_string(columns) + " columns");
            }
            for (std::size_t c = columns; c < fields.size(); ++c) {
                if (!isEmpty(fields[c])) {
                    failAt(fields[c].line, fields[c].lineStart, fields[c].start,
                           "more fields than the " + std::to_string(columns) + " columns of the header (line "
                                   + std::to_string(headerLine) + ")");
                }
            }
            if (table.m_cells.size() + columns > kCsvMaxCells) {
                fail(line, "more than " + std::to_string(kCsvMaxCells) + " cells (the limit for CSV files)");
            }
            table.m_rowLines.push_back(line);
            for (std::size_t c = 0; c < columns; ++c) {
                CsvTable::Cell cell;
                if (c >= fields.size()) {
                    cell.offset = std::uint32_t(table.m_text.size());
                    cell.text_column = std::uint32_t(columnOf(fields.back().lineStart, fields.back().start));
                    table.m_cells.push_back(cell);
                    continue;
                }
                const Field &f = fields[c];
                cell.offset = std::uint32_t(table.m_text.size());
                if (f.escaped)
                    table.m_text += fieldText(f);
                else
                    table.m_text.append(m_text.substr(f.begin, f.end - f.begin));
                cell.size = std::uint32_t(table.m_text.size() - cell.offset);
                cell.text_column = std::uint32_t(columnOf(f.lineStart, f.start));
                table.m_cells.push_back(cell);
            }
        }
        if (table.m_rowLines.empty())
            fail(headerLine, "a header but no data rows");
        table.m_decimal = options.decimal ? options.decimal : detectDecimal(table);
        return table;
    }

private:
    void newline(std::size_t next)
    {
        m_pos = next;
        ++m_line;
        m_lineStart = next;
    }

    /// A decimal comma needs evidence: cells that read as numbers only with ',' as the decimal separator
    /// ("1,5"), and none that read only with '.' ("1.5"). Ambiguous cells ("1,234") decide nothing.
    static char detectDecimal(const CsvTable &table)
    {
        if (table.m_delimiter == ',')
            return '.';
        constexpr std::size_t kSampleCells = 20000;
        std::size_t comma = 0;
        std::size_t point = 0;
        const std::size_t count = std::min(table.m_cells.size(), kSampleCells);
        for (std::size_t i = 0; i < count; ++i) {
            const auto &c = table.m_cells[i];
            const std::string_view text(table.m_text.data() + c.offset, c.size);
            if (text.find_first_of(",.") == std::string_view::npos)
                continue;
            const bool asComma = parseTableNumber(text, ',').has_value();
            const bool asPoint = parseTableNumber(text, '.').has_value();
            comma += asComma && !asPoint;
            point += asPoint && !asComma;
        }
        return comma > 0 && point == 0 ? ',' : '.';
    }

    std::string_view m_text;
    const std::string &m_source;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::size_t m_lineStart = 0;
    mutable std::size_t m_colLineStart = std::numeric_limits<std::size_t>::max();
    mutable std::size_t m_colPos = 0;
    mutable int m_colValue = 1;
};

CsvTable parseCsv(std::string_view text, const std::string &source, const CsvOptions &options)
{
    return CsvParser(text, source).parse(options);
}

CsvTable readCsv(const std::string &path, const CsvOptions &options)
{
    return parseCsv(readTextFile(path, kCsvMaxBytes, kWhat), path, options);
}

void checkText(std::string_view text, const std::string &source, std::string_view what)
{
    scanText(text, source, what, std::numeric_limits<std::size_t>::max());
}

} // namespace crossroof::core
