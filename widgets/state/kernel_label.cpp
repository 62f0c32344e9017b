// SPDX-License-Identifier: GPL-3.0-or-later
#include "state/kernel_label.h"

namespace crossroof::widgets {

QString kernelLabel(const core::NcuKernel &kernel)
{
    const QString name = QString::fromStdString(kernel.short_name);
    return kernel.id == kernel.name ? name
                                    : name + QStringLiteral(" [%1]").arg(QString::fromStdString(kernel.id));
}

QString shortKernelLabel(const std::string &shortName, const std::string &id)
{
    QString name = QString::fromStdString(core::baseKernelName(shortName));
    if (name.size() > 28)
        name = name.left(27) + QStringLiteral("…");
    return name + QStringLiteral(" [%1]").arg(QString::fromStdString(id));
}

} // namespace crossroof::widgets
