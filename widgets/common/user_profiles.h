// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace crossroof::widgets {

/// The hardware profiles the user saved or calibrated: every *.json file directly in directory(), read
/// with core::loadUserProfiles(). A file that does not load is skipped and named in problems().
class UserProfiles : public QObject
{
    Q_OBJECT
public:
    /// Reads the directory at once.
    explicit UserProfiles(QObject *parent = nullptr);

    /// The one instance of the process, created on first use. Whoever writes a profile into directory()
    /// calls instance()->reload() so that every picker shows it.
    static UserProfiles *instance();

    /// The user's profile directory, core::userProfileDir(): $XDG_DATA_HOME/Crossroof/profiles, or
    /// ~/.local/share/Crossroof/profiles. Empty when neither XDG_DATA_HOME nor HOME is set.
    QString directory() const;
    /// The profiles read by the last reload(), in file-name order, each with user = true.
    const std::vector<core::HardwareProfile> &profiles() const { return m_profiles; }
    /// One line per skipped file of the last reload(), naming the file and saying why.
    const QStringList &problems() const { return m_problems; }

public Q_SLOTS:
    /// Reads directory() again and emits changed().
    void reload();

Q_SIGNALS:
    void changed();

private:
    void read();

    std::vector<core::HardwareProfile> m_profiles;
    QStringList m_problems;
};

} // namespace crossroof::widgets
