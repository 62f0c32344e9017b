// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/limited_spin_box.h"

#include <QLineEdit>
#include <QToolTip>

#include <optional>

namespace crossroof::widgets {

namespace {

/// INPUT without the box's prefix and suffix, as a whole number, if it is one (12 digits at most).
std::optional<qlonglong> typedNumber(const QSpinBox *box, const QString &input)
{
    const QString digits
            = input.mid(box->prefix().size(), input.size() - box->prefix().size() - box->suffix().size()).trimmed();
    bool ok = false;
    const qlonglong value = digits.toLongLong(&ok);
    return ok && digits.size() <= 12 ? std::optional(value) : std::nullopt;
}

} // namespace

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
    const auto value = typedNumber(this, input);
    return value && *value > maximum() ? QValidator::Intermediate : state;
}

void LimitedSpinBox::fixup(QString &input) const
{
    const auto value = typedNumber(this, input);
    if (value && *value > maximum()) {
        input = prefix() + locale().toString(maximum()) + suffix();
        m_lastMessage = tr("%1 is too large: %2; using %3.").arg(*value).arg(m_why).arg(maximum());
        auto *self = const_cast<LimitedSpinBox *>(this);
        QToolTip::showText(mapToGlobal(QPoint(0, height())), m_lastMessage, self);
        Q_EMIT self->clamped(m_lastMessage);
        return;
    }
    QSpinBox::fixup(input);
}

} // namespace crossroof::widgets
