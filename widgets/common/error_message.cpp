// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/error_message.h"

#include <QMessageBox>

namespace crossroof::widgets {

void showError(QWidget *parent, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Warning, QMessageBox::tr("Crossroof"), message, QMessageBox::Ok,
                                parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("ErrorMessage"));
    box->open();
}

} // namespace crossroof::widgets
