// SPDX-License-Identifier: GPL-3.0-or-later
#include "markov/training_columns_dialog.h"

#include "common/qt_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cctype>

namespace crossroof::widgets {

namespace {

std::string simplified(const std::string &name)
{
    std::string out;
    for (const char c : name) {
        if (c != ' ' && c != '_' && c != '-' && c != '\t')
            out += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

/// The default column name of every key the dialog offers, with its label.
struct Field {
    const char *key;
    std::string core::TrainingColumns::*member;
    const char *label;
};

const Field kFields[] = {
        {"size", &core::TrainingColumns::size,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Application size")},
        {"iteration", &core::TrainingColumns::iteration,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Iteration")},
        {"num_l2", &core::TrainingColumns::num_l2,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Cache groups (L2)")},
        {"threads_per_l2", &core::TrainingColumns::threads_per_l2,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Threads per group")},
        {"strategy", &core::TrainingColumns::strategy,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Mapping strategy")},
        {"states", &core::TrainingColumns::states,
         QT_TRANSLATE_NOOP("TrainingColumnsDialog", "Markov states")},
        {"p", &core::TrainingColumns::p, QT_TRANSLATE_NOOP("TrainingColumnsDialog", "p")},
        {"q", &core::TrainingColumns::q, QT_TRANSLATE_NOOP("TrainingColumnsDialog", "q")},
};

} // namespace

std::optional<std::string> TrainingColumnsDialog::guessColumn(const std::vector<std::string> &header,
                                                              const std::string &name)
{
    if (std::find(header.begin(), header.end(), name) != header.end())
        return name;
    const std::string wanted = simplified(name);
    for (const std::string &column : header) {
        if (simplified(column) == wanted)
            return column;
    }
    return std::nullopt;
}

TrainingColumnsDialog::TrainingColumnsDialog(const std::vector<std::string> &header, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Training Columns"));
    auto *form = new QFormLayout;
    const core::TrainingColumns defaults;
    for (const Field &f : kFields) {
        auto *box = new QComboBox(this);
        for (const std::string &column : header)
            box->addItem(qs(column));
        const std::optional<std::string> guess = guessColumn(header, defaults.*(f.member));
        box->setCurrentIndex(guess ? box->findText(qs(*guess)) : -1);
        form->addRow(tr(f.label), box);
        m_boxes.emplace_back(f.key, box);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Which column holds each field of the training runs?"), this);
    layout->addWidget(hint);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QComboBox *TrainingColumnsDialog::box(const std::string &key) const
{
    for (const auto &[k, box] : m_boxes) {
        if (k == key)
            return box;
    }
    return nullptr;
}

core::TrainingColumns TrainingColumnsDialog::columns() const
{
    core::TrainingColumns c;
    for (const auto &[key, box] : m_boxes) {
        if (box->currentIndex() >= 0)
            c.set(key, box->currentText().toStdString());
    }
    return c;
}

} // namespace crossroof::widgets
