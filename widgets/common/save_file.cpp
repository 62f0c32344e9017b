// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/save_file.h"

#include "common/native_path.h"
#include "core/support/atomic_file.h"

#include <string>
#include <string_view>

namespace crossroof::widgets {

QString saveFileAtomically(const QString &path, QByteArrayView data)
{
    // The core's writer rather than QSaveFile: QSaveFile writes through a symbolic link and replaces a FIFO
    // or device node with a file, and Qt 6.4's commit() ignores a failure to flush its buffer.
    const std::string why = core::writeFileAtomically(nativePath(path),
                                                      std::string_view(data.data(), std::size_t(data.size())));
    return QString::fromStdString(why);
}

} // namespace crossroof::widgets
