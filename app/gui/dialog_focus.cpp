// SPDX-License-Identifier: GPL-3.0-or-later
#include "dialog_focus.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressDialog>
#include <QTextEdit>
#include <QTimer>

namespace crossroof::app {

namespace {

/// A widget a user types or chooses a value in.
bool isField(const QWidget *w)
{
    if (const auto *edit = qobject_cast<const QLineEdit *>(w))
        return !edit->isReadOnly();
    if (const auto *text = qobject_cast<const QPlainTextEdit *>(w))
        return !text->isReadOnly();
    if (const auto *text = qobject_cast<const QTextEdit *>(w))
        return !text->isReadOnly();
    return qobject_cast<const QAbstractSpinBox *>(w) || qobject_cast<const QComboBox *>(w);
}

bool takesFocus(const QWidget *w)
{
    return w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy();
}

class FirstFieldFocus : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Show)
            return false;
        auto *dialog = qobject_cast<QDialog *>(watched);
        if (!dialog || qobject_cast<QMessageBox *>(dialog) || qobject_cast<QFileDialog *>(dialog)
            || qobject_cast<QProgressDialog *>(dialog) || qobject_cast<QInputDialog *>(dialog))
            return false;
        // After Qt has chosen its focus for the dialog (on showing it, and on activating it).
        QTimer::singleShot(0, dialog, [d = QPointer<QDialog>(dialog)] {
            if (d && d->isVisible())
                focusFirstField(d);
        });
        return false;
    }

private:
    static void focusFirstField(QDialog *dialog)
    {
        if (const QWidget *focus = dialog->focusWidget(); focus && isField(focus))
            return;
        for (QWidget *w = dialog->nextInFocusChain(); w && w != dialog; w = w->nextInFocusChain()) {
            if (dialog->isAncestorOf(w) && isField(w) && takesFocus(w)) {
                w->setFocus(Qt::TabFocusReason);
                return;
            }
        }
    }
};

} // namespace

void focusFirstFieldOfDialogs(QObject *owner)
{
    qApp->installEventFilter(new FirstFieldFocus(owner));
}

} // namespace crossroof::app
