// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace crossroof::core {

class CsvTable;

/// The smallest and largest device throughput a measurement may give, GB/s: R's range. Beyond it the fits'
/// squared and relative errors pass a double (a row of 1e300 GB/s printed RMSE inf).
std::pair<double, double> measuredGbsRange();

/// The cell at ROW, COLUMN of TABLE as a measured throughput in measuredGbsRange(); throws InputError
/// "SOURCE:LINE:COLUMN: column 'NAME': must be from 0.001 to 1e+06 GB/s, the range of R (got ...)".
double measuredGbs(const CsvTable &table, std::size_t row, std::size_t column);

/// One measured kernel of a family: the workload (n, Z, E) and the memory throughput it reached.
struct FamilyRow
{
    double n = 0;   ///< warps resident per SM
    double Z = 0;   ///< warp-instructions per memory request
    double E = 0;   ///< independent dependency chains per warp (ILP)
    double gbs = 0; ///< measured memory throughput of the device, GB/s
    int line = 0;   ///< 1-based line of the file the row came from
};

/// A measured kernel family: a CSV with at least the columns n, Z, E and gbs (any others are ignored), as
/// crossroof-probe writes it.
struct KernelFamily
{
    std::string source; ///< the file name used in messages
    std::vector<FamilyRow> rows;

    /// The rows whose E is one of VALUES (for holding some rows out of a fit).
    KernelFamily withE(const std::vector<double> &values) const;
};

/// Parses a kernel-family CSV. Throws InputError "SOURCE:LINE:COLUMN: column 'gbs': ..." for a cell that
/// is not a finite number or is out of range (n, Z, E and gbs must be > 0; n a whole number; gbs within R's
/// range, 1e-3 to 1e6 GB/s), and
/// "SOURCE: no column 'Z' ..." when a required column is missing.
KernelFamily parseKernelFamily(std::string_view text, const std::string &source);

/// Reads and parses a kernel-family file; errors name the file.
KernelFamily readKernelFamily(const std::string &path);

} // namespace crossroof::core
