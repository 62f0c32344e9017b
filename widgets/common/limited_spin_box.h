// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSpinBox>

namespace crossroof::widgets {

/// A spin box that lets a value above its maximum be typed and then says why it takes the maximum, instead
/// of silently refusing the keystroke (typing 2000 into a box limited to 1024 would otherwise leave 200).
class LimitedSpinBox : public QSpinBox
{
    Q_OBJECT
public:
    /// WHY is shown when a typed value is cut to the maximum, e.g. "CUDA allows at most 1024 threads per block".
    explicit LimitedSpinBox(const QString &why, QWidget *parent = nullptr);

    /// The last message shown for a value out of range (empty if none yet).
    QString lastMessage() const { return m_lastMessage; }

Q_SIGNALS:
    /// A typed value was out of range and became the nearest limit; TEXT says so.
    void clamped(const QString &text);

protected:
    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;

private:
    QString m_why;
    mutable QString m_lastMessage;
};

} // namespace crossroof::widgets
