// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/user_profiles.h"

#include "core/profiles/profile_library.h"

#include <string>

namespace crossroof::widgets {

UserProfiles::UserProfiles(QObject *parent)
    : QObject(parent)
{
    read();
}

UserProfiles *UserProfiles::instance()
{
    static UserProfiles profiles;
    return &profiles;
}

QString UserProfiles::directory() const
{
    // Core's directory, not QStandardPaths::AppDataLocation: with the organisation and application both
    // named "Crossroof" (app/gui/main.cpp) that is .../Crossroof/Crossroof, and the CLI would not see it.
    return QString::fromStdString(core::userProfileDir().string());
}

void UserProfiles::reload()
{
    read();
    Q_EMIT changed();
}

void UserProfiles::read()
{
    std::vector<std::string> problems;
    m_profiles = core::loadUserProfiles(core::userProfileDir(), problems);
    m_problems.clear();
    for (const auto &problem : problems)
        m_problems << QString::fromStdString(problem);
}

} // namespace crossroof::widgets
