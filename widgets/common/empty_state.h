// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace crossroof::widgets {

/// What a view that has nothing to show yet says, and the buttons that fill it: a small panel centred over the
/// widget it covers (usually the plot), shown while the view is empty.
class EmptyState : public QFrame
{
    Q_OBJECT
public:
    /// A panel over COVERED saying TEXT (rich text allowed); hidden until setEmpty(true).
    EmptyState(QWidget *covered, const QString &text);

    /// A button under the text; connect to its clicked() signal.
    QPushButton *addButton(const QString &text);
    /// Shows the panel while EMPTY, hides it otherwise.
    void setEmpty(bool empty);

    QLabel *label() const { return m_label; }
    QList<QPushButton *> buttons() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QWidget *m_covered;
    QLabel *m_label;
    QWidget *m_buttonRow;
};

} // namespace crossroof::widgets
