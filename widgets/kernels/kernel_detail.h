// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/traces/kernel_table.h"

#include <QString>

namespace crossroof::widgets {

/// TEXT with a zero-width break opportunity after each '_', '.', '/', ',' and '<' of its long words (ncu
/// metric names, demangled kernel names): a word-wrapped label would otherwise be as wide as the longest name
/// and widen its dock.
QString breakLongWords(const QString &text);

/// The text of ROW's Limit column: the level or pipe that bounds its prediction (core::kernelLimitName(): L1,
/// L2, DRAM, requests, latency, issue, tensor, FMA), or for a kernel without a prediction "no prediction: " and
/// why.
QString kernelLimitText(const core::KernelRow &row);

/// The model's diagnosis of ROW as `crossroof-cli kernels` gives it (KernelRow::limit and ::diagnosis, the
/// same numbers): "Bound by DRAM. The model's best changes: half the DRAM bytes (…): +100 %; …", the gains as
/// kernel time before / after − 1 in whole percent; for a kernel without a prediction, why it has none.
QString kernelDiagnosisText(const core::KernelRow &row);

/// What the Kernels dock's detail pane says of ROW: its full name, launch ID, measured and predicted DRAM
/// throughput and error, then kernelDiagnosisText().
QString kernelDetailText(const core::KernelRow &row);

} // namespace crossroof::widgets
