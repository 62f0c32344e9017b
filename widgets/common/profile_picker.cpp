// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/profile_picker.h"

#include "common/parameter_state.h"
#include "common/user_profiles.h"
#include "core/profiles/profile_identity.h"
#include "core/profiles/profile_library.h"

#include <QFileInfo>
#include <QSignalBlocker>

#include <algorithm>

namespace crossroof::widgets {

namespace {

/// Whether PROFILE is one of the library's: bundled, or read from the user's profile directory.
bool inLibrary(const core::HardwareProfile &profile)
{
    return profile.origin == "bundled" || profile.user;
}

/// The file a profile brought in came from, for its entry: "study.crossroof" for "session
/// /data/study.crossroof".
QString sourceName(const std::string &origin)
{
    QString path = QString::fromStdString(origin);
    if (path.startsWith(QLatin1String("session ")))
        path = path.mid(int(qstrlen("session ")));
    const QString name = QFileInfo(path).fileName();
    return name.isEmpty() ? path : name;
}

} // namespace

ProfilePicker::ProfilePicker(ParameterState *state, QWidget *parent)
    : QComboBox(parent)
    , m_state(state)
{
    setAccessibleName(tr("Hardware profile"));
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(18);
    rebuild();
    connect(this, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && std::size_t(index) < m_profiles.size())
            m_state->applyProfile(m_profiles[std::size_t(index)]);
    });
    connect(m_state, &ParameterState::profileChanged, this, &ProfilePicker::showCurrent);
    connect(UserProfiles::instance(), &UserProfiles::changed, this, &ProfilePicker::rebuild);
}

QString ProfilePicker::entryKey(const core::HardwareProfile &profile)
{
    const QString id = QString::fromStdString(profile.id);
    return inLibrary(profile) ? id : id + QLatin1Char('\n') + QString::fromStdString(profile.origin);
}

const core::HardwareProfile *ProfilePicker::libraryProfile(const std::string &id) const
{
    if (const core::HardwareProfile *bundled = core::findBundledProfile(id))
        return bundled;
    const auto &user = UserProfiles::instance()->profiles();
    const auto it = std::find_if(user.begin(), user.end(),
                                 [&](const core::HardwareProfile &p) { return p.id == id; });
    return it == user.end() ? nullptr : &*it;
}

void ProfilePicker::rebuild()
{
    const UserProfiles *user = UserProfiles::instance();
    m_profiles = core::bundledProfiles();
    m_profiles.insert(m_profiles.end(), user->profiles().begin(), user->profiles().end());
    m_profiles.insert(m_profiles.end(), m_opened.begin(), m_opened.end());

    const QSignalBlocker block(this);
    clear();
    for (const auto &p : m_profiles) {
        QString label = QString::fromStdString(p.name);
        QString tip = QString::fromStdString(p.description);
        if (p.user) {
            label = tr("%1 (user)").arg(label);
            tip += tr("\nUser profile: %1").arg(QString::fromStdString(p.origin));
        } else if (!inLibrary(p)) {
            const QString source = sourceName(p.origin);
            // Beside the library's profile of its id, the entry says whose it is and what differs.
            if (const core::HardwareProfile *library = libraryProfile(p.id)) {
                label = QString::fromStdString(core::embeddedProfileLabel(
                        p, source.toStdString(), core::profileDifferences(*library, p)));
                tip += tr("\nNot the library's '%1': the values %2 gave")
                               .arg(QString::fromStdString(p.id), source);
            }
            tip += tr("\nFrom %1").arg(QString::fromStdString(p.origin));
        }
        addItem(label, entryKey(p));
        setItemData(count() - 1, tip, Qt::ToolTipRole);
    }
    QString tip = tr("Hardware profile: the machine parameters and a default workload");
    if (!user->problems().isEmpty()) {
        tip += tr("\n\nUser profiles skipped (in %1):\n%2")
                       .arg(user->directory(), user->problems().join(QLatin1Char('\n')));
    }
    m_toolTip = tip;
    showCurrent();
}

void ProfilePicker::showCurrent()
{
    const QSignalBlocker block(this);
    const int index = findData(entryKey(m_state->profile()));
    setCurrentIndex(index);
    // A profile brought in has a long name the box may cut: its tooltip gives it whole.
    const bool own = index >= 0 && !inLibrary(m_profiles[std::size_t(index)]);
    setToolTip(own ? itemText(index) + QStringLiteral("\n\n") + m_toolTip : m_toolTip);
}

core::HardwareProfile ProfilePicker::addProfile(const core::HardwareProfile &profile)
{
    if (inLibrary(profile))
        return profile;
    if (const core::HardwareProfile *library = libraryProfile(profile.id);
        library && core::profileDifferences(*library, profile).empty()) {
        return *library;
    }
    const QString key = entryKey(profile);
    const auto it = std::find_if(m_opened.begin(), m_opened.end(),
                                 [&](const core::HardwareProfile &p) { return entryKey(p) == key; });
    if (it != m_opened.end())
        *it = profile;
    else
        m_opened.push_back(profile);
    rebuild();
    return profile;
}

void ProfilePicker::addAndSelect(const core::HardwareProfile &profile)
{
    m_state->applyProfile(addProfile(profile));
}

bool ProfilePicker::selectId(const QString &id)
{
    const int index = findData(id);
    if (index < 0)
        return false;
    m_state->applyProfile(m_profiles[std::size_t(index)]);
    return true;
}

} // namespace crossroof::widgets
