// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: CSV tables from arbitrary bytes, with detected and with forced delimiters. Only core::InputError
// may leave the parser; anything else (a crash, another exception, a sanitizer report) is a bug.
#include "core/traces/csv_table.h"
#include "core/support/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

void readEveryCell(const crossroof::core::CsvTable &table)
{
    for (std::size_t c = 0; c < table.columnCount(); ++c) {
        (void)table.findColumn(table.header()[c]);
        for (std::size_t r = 0; r < table.rowCount(); ++r) {
            (void)table.cell(r, c);
            (void)table.textColumn(r, c);
            try {
                (void)table.number(r, c);
            } catch (const crossroof::core::InputError &) {
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace crossroof::core;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        readEveryCell(parseCsv(text, "fuzz.csv"));
    } catch (const InputError &) {
    }
    if (size > 0) {
        // The first byte picks forced options for the rest.
        constexpr char kDelimiters[] = {',', '\t', ';', ' '};
        CsvOptions options;
        options.delimiter = kDelimiters[data[0] & 3];
        options.decimal = (data[0] & 4) ? ',' : '.';
        options.pad_short_rows = (data[0] & 8) != 0;
        try {
            readEveryCell(parseCsv(text.substr(1), "fuzz.csv", options));
        } catch (const InputError &) {
        }
    }
    (void)parseTableNumber(text.substr(0, 64), ',');
    return 0;
}
