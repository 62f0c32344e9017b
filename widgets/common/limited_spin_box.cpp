// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/limited_spin_box.h"

#include <QLineEdit>
#include <QToolTip>

namespace crossroof::widgets {

LimitedSpinBox::LimitedSpinBox(const QString &why, QWidget *parent)
    : QSpinBox(parent)
    , m_why(why)
{
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

QValidator::State LimitedSpinBox::validate(QString &input, int &pos) const
{
    const QValidator::State state = QSpinBox::validate(input, pos);
    if (state != QValidator::Invalid)
        return state;
    // A whole number that is only too large may still be typed: fixup() then brings it back and says why.
    bool ok = false;
    const QString digits = input.mid(prefix().size(), input.size() - prefix().size() - suffix().size()).trimmed();
    const qlonglong value = digits.toLongLong(&ok);
    return ok && value > maximum() && digits.size() <= 12 ? QValidator::Intermediate : state;
}

void LimitedSpinBox::fixup(QString &input) const
{
    const QString digits = input.mid(prefix().size(), input.size() - prefix().size() - suffix().size()).trimmed();
    bool ok = false;
    const qlonglong value = digits.toLongLong(&ok);
    if (ok && value > maximum()) {
        input = prefix() + locale().toString(maximum()) + suffix();
        m_lastMessage = tr("%1 is too large: %2; using %3.").arg(digits, m_why).arg(maximum());
        auto *self = const_cast<LimitedSpinBox *>(this);
        QToolTip::showText(mapToGlobal(QPoint(0, height())), m_lastMessage, self);
        Q_EMIT self->clamped(m_lastMessage);
        return;
    }
    QSpinBox::fixup(input);
}

} // namespace crossroof::widgets
