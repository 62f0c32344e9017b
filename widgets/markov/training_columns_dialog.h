// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/modeltree/training_set.h"

#include <QDialog>

#include <optional>
#include <string>
#include <vector>

class QComboBox;

namespace crossroof::widgets {

/// Which column of a training table holds each field of the model-tree step (MODEL.md 9): one choice per key
/// (size, iteration, groups, threads per group, strategy, states, p, q), each preset to the column of the
/// default name, or else to one whose name matches it ignoring case and separators.
class TrainingColumnsDialog : public QDialog
{
    Q_OBJECT
public:
    TrainingColumnsDialog(const std::vector<std::string> &header, QWidget *parent = nullptr);

    /// The columns chosen, for readTrainingSet().
    core::TrainingColumns columns() const;
    /// The choice box of KEY (one of TrainingColumns::keys() but "cpi"), or nullptr.
    QComboBox *box(const std::string &key) const;

    /// The column of HEADER for the default name NAME: the exact name, else the first whose name is equal
    /// ignoring case, blanks, '_' and '-', else none.
    static std::optional<std::string> guessColumn(const std::vector<std::string> &header,
                                                  const std::string &name);

private:
    std::vector<std::pair<std::string, QComboBox *>> m_boxes;
};

} // namespace crossroof::widgets
