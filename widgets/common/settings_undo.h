// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/settings_part.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <any>
#include <functional>
#include <vector>

class QUndoStack;

namespace crossroof::widgets {

/// Undo for the analysis' inputs, one mechanism for every part: given how to read and restore a part's settings
/// (a SettingsPart, or an object's settings() and setSettings()) and the signal that says they changed, it keeps
/// a copy of the settings and pushes a command holding the settings before and after each change onto the shared undo stack, so that
/// Edit > Undo walks back view inputs and parameter changes in one history.
///
/// One gesture is one step. Changes merge while a mouse button stays down (a spin box arrow held, a drag) and
/// while the user types into one field, until Enter, until the focus moves or until anything else goes onto
/// the stack; the changes one click makes in several views merge too (the APSP preset fills the TMM inputs
/// and widens the zigzag). A change with no gesture behind it (no mouse button down, no focus: a script, a
/// test) is a step of its own. Undo and redo restore the whole settings with setSettings(); whatever that
/// changes is not recorded again.
class SettingsUndo : public QObject
{
    Q_OBJECT
public:
    explicit SettingsUndo(QUndoStack *stack, QObject *parent = nullptr);
    ~SettingsUndo() override;

    /// Tracks SOURCE's settings: GET reads them, SET restores them, CHANGED says they changed (a change
    /// equal to the last copy is no step). A step names the controls it changed and their values ("Undo
    /// Unroll 4 → 8") where the settings' type has a describeChange(before, after) found by argument-dependent
    /// lookup where track() is called (core/session/settings_changes.h), and "Change WHAT" otherwise or where
    /// that says nothing. SOURCE must live as long as the stack's commands. Returns the handle for resyncOn().
    template <class Source, class Settings>
    int track(Source *source, Settings (Source::*get)() const, void (Source::*set)(const Settings &),
              void (Source::*changed)(), const QString &what)
    {
        const int handle = add<Settings>([source, get] { return (source->*get)(); },
                                         [source, set](const Settings &s) { (source->*set)(s); }, what);
        connect(source, changed, this, [this, handle] { record(handle); });
        return handle;
    }
    /// Tracks a part of the analysis document, as above.
    template <class Settings>
    int track(SettingsPart<Settings> *part, const QString &what)
    {
        const int handle = add<Settings>([part] { return part->settings(); },
                                         [part](const Settings &s) { part->setSettings(s); }, what);
        connect(part, &StatePart::changed, this, [this, handle] { record(handle); });
        return handle;
    }

    /// Takes HANDLE's settings as they are, without a step, whenever SENDER emits SIGNAL: for changes that
    /// are undone with whatever caused them (a profile switch sets the SM count).
    template <class Sender>
    void resyncOn(int handle, Sender *sender, void (Sender::*signal)())
    {
        connect(sender, signal, this, [this, handle] { resync(handle); });
    }

Q_SIGNALS:
    /// An undo or redo set HANDLE's settings from FROM to TO (the tracked settings, as std::any);
    /// DESCRIPTION says what changed, in the words of the step's text.
    void restored(int handle, const std::any &from, const std::any &to, const QString &description);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    friend class SettingsCommand;

    struct Tracked
    {
        std::function<std::any()> get;
        std::function<void(const std::any &)> set;
        std::function<bool(const std::any &, const std::any &)> equal;
        /// What changed from the first to the second, in the controls' words; empty: not said.
        std::function<QString(const std::any &, const std::any &)> describe;
        QString what;
        std::any last; ///< the settings as last recorded, restored or resynced
    };

    template <class Settings>
    int add(std::function<Settings()> get, std::function<void(const Settings &)> set, const QString &what)
    {
        std::function<QString(const std::any &, const std::any &)> describe;
        if constexpr (requires(const Settings &s) { describeChange(s, s); }) {
            describe = [](const std::any &a, const std::any &b) {
                return QString::fromStdString(
                        describeChange(std::any_cast<const Settings &>(a), std::any_cast<const Settings &>(b)));
            };
        }
        return add([get] { return std::any(get()); },
                   [set](const std::any &v) { set(std::any_cast<const Settings &>(v)); },
                   [](const std::any &a, const std::any &b) {
                       return std::any_cast<const Settings &>(a) == std::any_cast<const Settings &>(b);
                   },
                   std::move(describe), what);
    }
    int add(std::function<std::any()> get, std::function<void(const std::any &)> set,
            std::function<bool(const std::any &, const std::any &)> equal,
            std::function<QString(const std::any &, const std::any &)> describe, const QString &what);
    /// The controls and values a step that took HANDLE's settings from BEFORE to AFTER changed; empty where the
    /// settings do not say (no describeChange(), or nothing it names differs).
    QString describe(int handle, const std::any &before, const std::any &after) const;
    /// As describe(), else "Change WHAT".
    QString describeOrName(int handle, const std::any &before, const std::any &after) const;
    void record(int handle);
    void resync(int handle);
    /// Sets HANDLE's settings for an undo or redo; the changes that causes are taken, not recorded. Then says
    /// restored() with DESCRIPTION.
    void restore(int handle, const std::any &settings, const QString &description);
    /// The gesture a change made now belongs to; -1 when there is none (no mouse button down, no focus).
    qint64 currentGesture() const;
    void nextGesture() { ++m_gesture; }

    QPointer<QUndoStack> m_stack;
    std::vector<Tracked> m_tracked;
    qint64 m_gesture = 0;
    bool m_mouseDown = false;
    bool m_pushing = false;
    bool m_restoring = false;
};

} // namespace crossroof::widgets
