// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer: the model tree's training CSV and measured-CPI file from arbitrary bytes, and whatever parses
// trained, cross-validated and predicted. Only core::InputError may leave; anything else is a bug.
#include "core/modeltree/extrapolation.h"
#include "core/support/error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace crossroof::core;

/// Larger tables parse but are not trained on, to keep every input fast.
constexpr std::size_t kMaxTrainedRows = 400;

void learn(const TrainingSet &set, std::string_view text)
{
    if (set.rows.size() > kMaxTrainedRows)
        return;
    M5Options options;
    options.min_leaf = 1 + int(text.size() % 5);
    const ExtrapolationModel model = trainExtrapolation(set, options);
    (void)crossValidateExtrapolation(set, options, 2 + int(text.size() % 3));
    for (double size : {set.rows.front().size, model.max_size * 4, -1e300, 1e300})
        (void)predictAll(model, size);
    try {
        (void)predictStrategy(model, "no such strategy", 1);
    } catch (const InputError &) {
    }
    try {
        (void)checkCpi(model, parseCpiMeasurements(text, "fuzz.csv", set.columns));
    } catch (const InputError &) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        learn(parseTrainingSet(text, "fuzz.csv"), text);
    } catch (const InputError &) {
    }
    try {
        (void)parseCpiMeasurements(text, "fuzz.csv");
    } catch (const InputError &) {
    }
    return 0;
}
