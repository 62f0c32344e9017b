// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/parameter_state.h"

#include <QObject>

#include <functional>
#include <optional>
#include <utility>

namespace crossroof::widgets {

/// What a view holds still while the user drags (a slider, or a point on the view's own plot): the axes it
/// showed, so that the picture does not jump under the pointer and is not laid out again on every step. What
/// is held counts only while the state's interaction is open; it is let go, and RELEASED called, when the
/// interaction ends (ParameterState::interactionEnded), so that the view can fit its axes again.
template<typename T>
class DragHold
{
public:
    DragHold(ParameterState *state, QObject *context, std::function<void()> released = {})
        : m_state(state)
    {
        QObject::connect(state, &ParameterState::interactionEnded, context,
                         [this, released = std::move(released)] {
                             m_value.reset();
                             if (released)
                                 released();
                         });
    }
    DragHold(const DragHold &) = delete;
    DragHold &operator=(const DragHold &) = delete;

    /// Holds VALUE (what is shown now) until the interaction ends.
    void hold(T value) { m_value = std::move(value); }
    /// What is held while the interaction is open; null when nothing is.
    const T *held() const { return m_value && m_state->interactionOpen() ? &*m_value : nullptr; }

private:
    ParameterState *m_state;
    std::optional<T> m_value;
};

} // namespace crossroof::widgets
