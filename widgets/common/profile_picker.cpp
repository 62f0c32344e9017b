// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/profile_picker.h"

#include "common/parameter_state.h"
#include "profiles/profile_library.h"

#include <QSignalBlocker>

#include <algorithm>

namespace crossroof::widgets {

ProfilePicker::ProfilePicker(ParameterState *state, QWidget *parent)
    : QComboBox(parent)
    , m_state(state)
    , m_profiles(core::bundledProfiles())
{
    setToolTip(tr("Hardware profile: the machine parameters and a default workload"));
    setAccessibleName(tr("Hardware profile"));
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(18);
    rebuild();
    connect(this, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && std::size_t(index) < m_profiles.size())
            m_state->applyProfile(m_profiles[std::size_t(index)]);
    });
    connect(m_state, &ParameterState::profileChanged, this, &ProfilePicker::showCurrent);
}

void ProfilePicker::rebuild()
{
    const QSignalBlocker block(this);
    clear();
    for (const auto &p : m_profiles) {
        addItem(QString::fromStdString(p.name), QString::fromStdString(p.id));
        QString tip = QString::fromStdString(p.description);
        if (p.origin != "bundled")
            tip += tr("\nFrom %1").arg(QString::fromStdString(p.origin));
        setItemData(count() - 1, tip, Qt::ToolTipRole);
    }
    showCurrent();
}

void ProfilePicker::showCurrent()
{
    const QSignalBlocker block(this);
    setCurrentIndex(findData(QString::fromStdString(m_state->profile().id)));
}

void ProfilePicker::addProfile(const core::HardwareProfile &profile)
{
    const auto it = std::find_if(m_profiles.begin(), m_profiles.end(),
                                 [&](const core::HardwareProfile &p) { return p.id == profile.id; });
    if (it != m_profiles.end())
        *it = profile;
    else
        m_profiles.push_back(profile);
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
