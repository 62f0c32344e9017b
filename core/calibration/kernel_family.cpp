// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/kernel_family.h"

#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "core/xmodel/parameters.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core {

namespace {

KernelFamily familyFromTable(const CsvTable &table)
{
    const std::size_t nColumn = table.column("n");
    const std::size_t zColumn = table.column("Z");
    const std::size_t eColumn = table.column("E");
    const std::size_t gbsColumn = table.column("gbs");
    const auto positive = [&](std::size_t row, std::size_t column) {
        const double v = table.number(row, column);
        if (v <= 0)
            throw InputError(table.where(row, column) + ": must be > 0 (got " + quoteForMessage(table.cell(row, column))
                             + ")");
        return v;
    };

    KernelFamily family;
    family.source = table.source();
    family.rows.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        FamilyRow row;
        row.n = positive(r, nColumn);
        if (row.n != std::floor(row.n))
            throw InputError(table.where(r, nColumn) + ": must be a whole number of warps (got "
                             + std::string(table.cell(r, nColumn)) + ")");
        row.Z = positive(r, zColumn);
        row.E = positive(r, eColumn);
        row.gbs = measuredGbs(table, r, gbsColumn);
        row.line = table.line(r);
        family.rows.push_back(row);
    }
    return family;
}

} // namespace

std::pair<double, double> measuredGbsRange()
{
    const ParameterInfo &r = *findParameter("R");
    return {r.min, r.max};
}

double measuredGbs(const CsvTable &table, std::size_t row, std::size_t column)
{
    // A device's throughput lies in R's range: beyond it, squared and relative errors pass a double (a row of
    // 1e300 GB/s printed RMSE inf, one of 1e-300 GB/s an accuracy of -1.9e61).
    const double v = table.number(row, column);
    const auto [min, max] = measuredGbsRange();
    if (!(v > 0))
        throw InputError(table.where(row, column) + ": must be > 0 (got " + quoteForMessage(table.cell(row, column)) + ")");
    if (v < min || v > max) {
        throw InputError(table.where(row, column) + ": must be from " + formatNumber(min) + " to "
                         + formatNumber(max) + " GB/s, the range of R (got "
                         + quoteForMessage(table.cell(row, column)) + ")");
    }
    return v;
}

KernelFamily KernelFamily::withE(const std::vector<double> &values) const
{
    KernelFamily subset;
    subset.source = source;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(subset.rows), [&](const FamilyRow &row) {
        return std::find(values.begin(), values.end(), row.E) != values.end();
    });
    return subset;
}

KernelFamily parseKernelFamily(std::string_view text, const std::string &source)
{
    return familyFromTable(parseCsv(text, source));
}

KernelFamily readKernelFamily(const std::string &path)
{
    return familyFromTable(readCsv(path));
}

} // namespace crossroof::core
