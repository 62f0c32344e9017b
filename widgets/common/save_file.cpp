// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/save_file.h"

#include <QSaveFile>

namespace crossroof::widgets {

QString saveFileAtomically(const QString &path, QByteArrayView data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    // The buffer is flushed and checked here: Qt 6.4's QSaveFile::commit() ignores a failure to flush its
    // buffer when it closes the file, and would rename a file cut short over the old one (seen with a full
    // disk's last partial write).
    if (file.write(data.data(), data.size()) != data.size() || !file.flush()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return why;
    }
    if (!file.commit())
        return file.errorString();
    return {};
}

} // namespace crossroof::widgets
