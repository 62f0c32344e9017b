// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QBoxLayout>
#include <QLabel>

namespace crossroof::widgets {

/// Adds "TEXT [field]" to a row of controls; the label is the field's buddy, so its mnemonic focuses it.
inline void addLabelled(QBoxLayout *row, const QString &text, QWidget *field)
{
    auto *label = new QLabel(text, field->parentWidget());
    label->setBuddy(field);
    row->addWidget(label);
    row->addWidget(field);
}

} // namespace crossroof::widgets
