// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/settings_undo.h"

#include <QApplication>
#include <QWidget>
#include <QKeyEvent>
#include <QScopedValueRollback>
#include <QStringList>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace crossroof::widgets {

/// The settings of one or more tracked views before and after one gesture.
class SettingsCommand : public QUndoCommand
{
public:
    /// Unlike every other command's, so that only these merge with each other.
    static constexpr int kId = 0x5e7;

    SettingsCommand(SettingsUndo *owner, int handle, std::any before, std::any after, qint64 gesture)
        : m_owner(owner)
        , m_gesture(gesture)
    {
        m_changes.push_back({handle, std::move(before), std::move(after)});
        describe();
    }

    int id() const override { return kId; }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = static_cast<const SettingsCommand *>(other);
        if (m_gesture < 0 || o->m_gesture != m_gesture || o->m_owner != m_owner || !m_owner)
            return false;
        for (const Change &c : o->m_changes) {
            const auto it = std::find_if(m_changes.begin(), m_changes.end(),
                                         [&c](const Change &mine) { return mine.handle == c.handle; });
            if (it != m_changes.end())
                it->after = c.after;
            else
                m_changes.push_back(c);
        }
        describe();
        // Back where the gesture started (a value typed and deleted again): no step at all.
        setObsolete(std::all_of(m_changes.begin(), m_changes.end(), [this](const Change &c) {
            return m_owner->m_tracked[std::size_t(c.handle)].equal(c.before, c.after);
        }));
        return true;
    }

    void undo() override
    {
        if (!m_owner)
            return;
        for (auto it = m_changes.rbegin(); it != m_changes.rend(); ++it)
            m_owner->restore(it->handle, it->before, m_owner->describeOrName(it->handle, it->after, it->before));
    }

    void redo() override
    {
        // The first redo comes from push(), when the view already shows the new settings.
        if (m_pushed) {
            m_pushed = false;
            return;
        }
        if (!m_owner)
            return;
        for (const Change &c : m_changes)
            m_owner->restore(c.handle, c.after, m_owner->describeOrName(c.handle, c.before, c.after));
    }

private:
    struct Change
    {
        int handle;
        std::any before;
        std::any after;
    };

    void describe()
    {
        if (!m_owner)
            return;
        // Each part's controls and values where its settings say them, the others by the part's name.
        QStringList said;
        QStringList unsaid;
        for (const Change &c : m_changes) {
            const QString text = m_owner->describe(c.handle, c.before, c.after);
            if (text.isEmpty())
                unsaid << m_owner->m_tracked[std::size_t(c.handle)].what;
            else
                said << text;
        }
        if (!unsaid.isEmpty())
            said << QObject::tr("Change %1").arg(unsaid.join(QStringLiteral(", ")));
        setText(said.join(QStringLiteral("; ")));
    }

    QPointer<SettingsUndo> m_owner;
    qint64 m_gesture;
    std::vector<Change> m_changes;
    bool m_pushed = true;
};

SettingsUndo::SettingsUndo(QUndoStack *stack, QObject *parent)
    : QObject(parent)
    , m_stack(stack)
{
    // Anything else going onto the stack, and any undo or redo, ends the gesture.
    connect(stack, &QUndoStack::indexChanged, this, [this] {
        if (!m_pushing)
            nextGesture();
    });
    if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance())) {
        connect(app, &QApplication::focusChanged, this, [this] { nextGesture(); });
        app->installEventFilter(this);
    }
}

SettingsUndo::~SettingsUndo()
{
    if (QCoreApplication::instance())
        QCoreApplication::instance()->removeEventFilter(this);
}

bool SettingsUndo::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        nextGesture();
        m_mouseDown = true;
        break;
    case QEvent::MouseButtonRelease:
        m_mouseDown = false;
        break;
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter)
            nextGesture();
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

qint64 SettingsUndo::currentGesture() const
{
    return m_mouseDown || QApplication::focusWidget() ? m_gesture : -1;
}

int SettingsUndo::add(std::function<std::any()> get, std::function<void(const std::any &)> set,
                      std::function<bool(const std::any &, const std::any &)> equal,
                      std::function<QString(const std::any &, const std::any &)> describe, const QString &what)
{
    Tracked t{std::move(get), std::move(set), std::move(equal), std::move(describe), what, {}};
    t.last = t.get();
    m_tracked.push_back(std::move(t));
    return int(m_tracked.size()) - 1;
}

void SettingsUndo::record(int handle)
{
    Tracked &t = m_tracked[std::size_t(handle)];
    std::any now = t.get();
    if (m_restoring || !m_stack) {
        t.last = std::move(now);
        return;
    }
    if (t.equal(now, t.last))
        return;
    std::any before = std::exchange(t.last, now);
    const QScopedValueRollback pushing(m_pushing, true);
    m_stack->push(new SettingsCommand(this, handle, std::move(before), std::move(now), currentGesture()));
}

void SettingsUndo::resync(int handle)
{
    Tracked &t = m_tracked[std::size_t(handle)];
    t.last = t.get();
}

QString SettingsUndo::describe(int handle, const std::any &before, const std::any &after) const
{
    const Tracked &t = m_tracked[std::size_t(handle)];
    return t.describe ? t.describe(before, after) : QString();
}

QString SettingsUndo::describeOrName(int handle, const std::any &before, const std::any &after) const
{
    const QString said = describe(handle, before, after);
    return said.isEmpty() ? tr("Change %1").arg(m_tracked[std::size_t(handle)].what) : said;
}

void SettingsUndo::restore(int handle, const std::any &settings, const QString &description)
{
    const std::any from = m_tracked[std::size_t(handle)].last;
    {
        const QScopedValueRollback restoring(m_restoring, true);
        m_tracked[std::size_t(handle)].set(settings);
    }
    resync(handle);
    Q_EMIT restored(handle, from, settings, description);
}

} // namespace crossroof::widgets
