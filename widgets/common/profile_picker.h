// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiles/hardware_profile.h"

#include <QComboBox>

#include <vector>

namespace crossroof::widgets {

class ParameterState;

/// Chooses the hardware profile: the library (the bundled profiles, then the user's from UserProfiles, marked
/// "(user)" and refreshed when it changes), then profiles that sessions and profile files brought this run.
/// A profile brought in never takes the place of a library profile: where the library's profile of its id is
/// the same machine, that one is chosen; where it differs, it is an entry of its own named for what differs
/// ("H100 SXM 80GB (Hopper), from study.crossroof: R, L, M, R_dram differ"). User profile files that were
/// skipped are named in the picker's tooltip.
class ProfilePicker : public QComboBox
{
    Q_OBJECT
public:
    explicit ProfilePicker(ParameterState *state, QWidget *parent = nullptr);

    /// Adds PROFILE, as a session or profile file gave it (its origin names that file, "session PATH" for a
    /// session), and returns the profile the state should hold: the library's where it is the same machine
    /// (core::profileDifferences() empty), else PROFILE, listed as its own entry (one from the same file
    /// with the same id replaced).
    core::HardwareProfile addProfile(const core::HardwareProfile &profile);
    /// addProfile() and selects the result (undoable).
    void addAndSelect(const core::HardwareProfile &profile);
    /// Selects the library profile with this id (undoable). Returns false for an unknown id.
    bool selectId(const QString &id);

    /// The item data of PROFILE's entry: its id for a library profile, its id and origin for one brought in.
    static QString entryKey(const core::HardwareProfile &profile);

private:
    void rebuild();
    void showCurrent();
    /// The library's profile with PROFILE's id, or nullptr.
    const core::HardwareProfile *libraryProfile(const std::string &id) const;

    ParameterState *m_state;
    /// Brought in by sessions and files this run, in the order they came.
    std::vector<core::HardwareProfile> m_opened;
    /// The listed profiles, in the order of the items.
    std::vector<core::HardwareProfile> m_profiles;
    /// What the box is for, and the user profile files that were skipped.
    QString m_toolTip;
};

} // namespace crossroof::widgets
