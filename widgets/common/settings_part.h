// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QScopedValueRollback>

#include <memory>

#include <utility>

namespace crossroof::widgets {

/// One part of the analysis document (AnalysisDocument): says when its value changed. SettingsPart<T> holds the
/// value; this base exists because a class template cannot declare signals.
class StatePart : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

Q_SIGNALS:
    /// The value changed (an edit in its view, an undo, a session opened).
    void changed();
};

/// The inputs of one view as a part of the document: a view edits and draws them (bindView()), the session
/// writes and reads them, and undo restores them, without anyone reaching into the view.
template <class Settings>
class SettingsPart : public StatePart
{
public:
    explicit SettingsPart(QObject *parent = nullptr)
        : StatePart(parent)
    {
    }

    Settings settings() const { return m_settings; }
    /// Takes SETTINGS; changed() when they differ from the present ones.
    void setSettings(const Settings &settings)
    {
        if (settings == m_settings)
            return;
        m_settings = settings;
        Q_EMIT changed();
    }

private:
    Settings m_settings{};
};

/// Makes VIEW the editor of PART: the part starts with what the view shows (the view knows its defaults and
/// what its controls accept), the view's edits go into the part, and a change of the part from elsewhere
/// (undo, a session, another part's action) is shown by the view. What the view makes of a value it is given
/// (a profile it does not offer, a size it clamps) goes back into the part, so the two never disagree.
/// View needs settings(), setSettings() and the signal settingsChanged().
template <class View, class Settings>
void bindView(SettingsPart<Settings> *part, View *view)
{
    part->setSettings(view->settings());
    auto showing = std::make_shared<bool>(false);
    QObject::connect(view, &View::settingsChanged, part, [part, view] { part->setSettings(view->settings()); });
    QObject::connect(part, &StatePart::changed, view, [part, view, showing] {
        if (*showing || part->settings() == view->settings())
            return;
        const QScopedValueRollback guard(*showing, true);
        view->setSettings(part->settings());
    });
}

} // namespace crossroof::widgets
