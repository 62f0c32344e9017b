// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <QComboBox>

#include <vector>

namespace crossroof::widgets {

class ParameterState;

/// Chooses the hardware profile: the bundled ones, then the user's (UserProfiles, marked "(user)" and
/// refreshed when it changes), then any opened from files this session. User profile files that were
/// skipped are named in the picker's tooltip.
class ProfilePicker : public QComboBox
{
    Q_OBJECT
public:
    explicit ProfilePicker(ParameterState *state, QWidget *parent = nullptr);

    /// Adds (or replaces, by id) a profile read from a file and selects it (undoable).
    void addAndSelect(const core::HardwareProfile &profile);
    /// Adds (or replaces, by id) a profile without selecting it (the state already holds it).
    void addProfile(const core::HardwareProfile &profile);
    /// Selects the profile with this id (undoable). Returns false for an unknown id.
    bool selectId(const QString &id);

private:
    void rebuild();
    void showCurrent();

    ParameterState *m_state;
    /// Opened from files this session; one with the id of a listed profile takes its place.
    std::vector<core::HardwareProfile> m_opened;
    /// The listed profiles, in the order of the items.
    std::vector<core::HardwareProfile> m_profiles;
};

} // namespace crossroof::widgets
