// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibration/calibration_rows.h"

#include "core/support/error.h"
#include "core/support/statistics.h"
#include "core/support/text.h"
#include "core/xmodel/xmodel.h"

#include <algorithm>
#include <cmath>

namespace crossroof::core::detail {

namespace {

std::string at(const std::string &source, int line)
{
    return source + ":" + std::to_string(line) + ": ";
}

} // namespace

XModelParams familyWorkload(const XModelParams &machine, const FamilyRow &row)
{
    XModelParams p = machine;
    p.n = row.n;
    p.Z = row.Z;
    p.E = row.E;
    return p;
}

XModelParams streamWorkload(const XModelParams &machine, double warps)
{
    XModelParams p = machine;
    p.n = warps;
    p.m = 1;
    p.req_bytes = 0;
    p.dram_bytes = 0;
    p.cache = CacheMode::None;
    p.h = 0;
    p.h_2 = 0;
    p.bypass = 0;
    return p;
}

double streamGbs(const XModelParams &machine, double warps)
{
    const XModel model(streamWorkload(machine, warps));
    return model.toGbs(model.msSupply(warps));
}

XModelParams parallelWorkload(const XModelParams &machine, const ParallelRow &row)
{
    XModelParams p = streamWorkload(machine, row.warps);
    p.m = row.loads_in_flight;
    p.req_bytes = row.requestBytes();
    if (row.level == ReadLevel::L2) {
        p.cache = CacheMode::Fixed;
        p.h_2 = 1;
    }
    return p;
}

double parallelGbs(const XModelParams &machine, const ParallelRow &row)
{
    const XModel model(parallelWorkload(machine, row));
    return model.toGbs(model.msSupply(row.warps));
}

std::pair<std::vector<ParallelRow>, std::vector<std::string>>
selectParallelRows(const ParallelReads &reads, const XModelParams &machine, bool l2Latency)
{
    std::vector<ParallelRow> parallelRows;
    std::vector<std::string> parallelSkipped;
    const double l2Peak = levelPeakGbs(reads, ReadLevel::L2);
    std::size_t fast = 0, unpredictable = 0;
    for (const ParallelRow &row : reads.rows) {
        if (row.level == ReadLevel::L2 && !l2Latency) {
            ++unpredictable;
            continue;
        }
        if (row.level == ReadLevel::L2 && !isLatencyBound(reads, row)) {
            ++fast;
            continue;
        }
        if (row.warps > machine.max_warps)
            throw InputError(at(reads.source, row.line) + "warps_per_sm = " + formatNumber(row.warps)
                             + " is more than the machine's max_warps = "
                             + formatNumber(machine.max_warps));
        try {
            validate(parallelWorkload(machine, row));
        } catch (const InputError &e) {
            throw InputError(at(reads.source, row.line) + e.what());
        }
        parallelRows.push_back(row);
    }
    if (fast > 0) {
        parallelSkipped.push_back(reads.source + ": " + std::to_string(fast) + " l2 "
                                  + (fast == 1 ? "row" : "rows") + " above half the highest l2 read_gbs ("
                                  + formatNumber(l2Peak)
                                  + " GB/s): the X-model has no L2 bandwidth, so only the "
                                    "latency-bound l2 rows are predicted");
    }
    if (unpredictable > 0) {
        parallelSkipped.push_back(reads.source + ": " + std::to_string(unpredictable)
                                  + " l2 rows: the machine has no L2 latency L_2 to predict them "
                                    "with (fit L_2 or give a latency file with an L2 chase)");
    }
    if (parallelRows.empty())
        throw InputError(
                reads.source + ": no parallel-read row to fit"
                + (parallelSkipped.empty() ? std::string() : " (" + parallelSkipped.front() + ")"));
    return {parallelRows, parallelSkipped};
}

void summarise(SourceReport &report, const std::vector<double> &logs)
{
    std::vector<double> accuracies;
    double sq = 0;
    for (const SourceRow &row : report.rows)
        accuracies.push_back(row.accuracy);
    for (double l : logs)
        sq += l * l;
    report.accuracy_median = median(accuracies);
    report.accuracy_min = *std::min_element(accuracies.begin(), accuracies.end());
    for (double a : accuracies)
        report.accuracy_mean += a / double(accuracies.size());
    report.cost = report.weight * sq / double(logs.size());
}

SourceRow makeRow(std::string label, int line, double measured, double predicted)
{
    SourceRow row;
    row.label = std::move(label);
    row.line = line;
    row.measured = measured;
    row.predicted = predicted;
    row.error = (predicted - measured) / measured;
    row.accuracy = predictionAccuracy(predicted, measured);
    return row;
}

} // namespace crossroof::core::detail
