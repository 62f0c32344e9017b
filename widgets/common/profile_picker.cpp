// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/profile_picker.h"

#include "common/parameter_state.h"
#include "common/user_profiles.h"
#include "core/profiles/profile_library.h"

#include <QSignalBlocker>

#include <algorithm>

namespace crossroof::widgets {

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

void ProfilePicker::rebuild()
{
    const UserProfiles *user = UserProfiles::instance();
    m_profiles = core::bundledProfiles();
    m_profiles.insert(m_profiles.end(), user->profiles().begin(), user->profiles().end());
    for (const auto &profile : m_opened) {
        const auto it = std::find_if(m_profiles.begin(), m_profiles.end(),
                                     [&](const core::HardwareProfile &p) { return p.id == profile.id; });
        if (it != m_profiles.end())
            *it = profile;
        else
            m_profiles.push_back(profile);
    }

    const QSignalBlocker block(this);
    clear();
    for (const auto &p : m_profiles) {
        const QString name = QString::fromStdString(p.name);
        addItem(p.user ? tr("%1 (user)").arg(name) : name, QString::fromStdString(p.id));
        QString tip = QString::fromStdString(p.description);
        if (p.user)
            tip += tr("\nUser profile: %1").arg(QString::fromStdString(p.origin));
        else if (p.origin != "bundled")
            tip += tr("\nFrom %1").arg(QString::fromStdString(p.origin));
        setItemData(count() - 1, tip, Qt::ToolTipRole);
    }
    QString tip = tr("Hardware profile: the machine parameters and a default workload");
    if (!user->problems().isEmpty()) {
        tip += tr("\n\nUser profiles skipped (in %1):\n%2")
                       .arg(user->directory(), user->problems().join(QLatin1Char('\n')));
    }
    setToolTip(tip);
    showCurrent();
}

void ProfilePicker::showCurrent()
{
    const QSignalBlocker block(this);
    setCurrentIndex(findData(QString::fromStdString(m_state->profile().id)));
}

void ProfilePicker::addProfile(const core::HardwareProfile &profile)
{
    const auto it = std::find_if(m_opened.begin(), m_opened.end(),
                                 [&](const core::HardwareProfile &p) { return p.id == profile.id; });
    if (it != m_opened.end())
        *it = profile;
    else
        m_opened.push_back(profile);
    rebuild();
}

void ProfilePicker::addAndSelect(const core::HardwareProfile &profile)
{
    addProfile(profile);
    m_state->applyProfile(profile);
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
