// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

class QWidget;

namespace crossroof::widgets {

/// How long work runs before its progress dialog shows (ms): a file read in less shows none.
inline constexpr int kProgressDelayMs = 400;

namespace detail {
/// Runs WORK on a thread of its own and waits for it with the event loop running, user input held back, so
/// that the window keeps painting. Once it has run for kProgressDelayMs, a window-modal progress dialog over
/// PARENT says LABEL, with a busy bar and Cancel. Returns false when the user cancelled: WORK then goes on to
/// its end unseen, on its thread (it must own what it reads), and the thread is joined when the application
/// ends (endAbandonedWork()). An exception WORK throws is thrown again here.
bool waitForWork(QWidget *parent, const QString &label, std::function<void()> work);
/// Joins the cancelled work that has ended or ends within WAIT, and leaves the rest (a read from a network
/// mount that hangs) running on its own; returns how many were left. The application calls it with ten
/// seconds as it ends, so that such work cannot hang the application's end.
int endAbandonedWork(std::chrono::milliseconds wait);
} // namespace detail

/// Long work the user waits for, such as reading a file of millions of rows, with its progress shown and a way
/// out: WORK's result, or nothing when the user cancelled (see detail::waitForWork()).
template<typename Result>
std::optional<Result> runWithProgress(QWidget *parent, const QString &label, std::function<Result()> work)
{
    // Shared with the work's thread, which may outlive this call when the user cancels.
    auto result = std::make_shared<std::optional<Result>>();
    if (!detail::waitForWork(parent, label, [result, work = std::move(work)] { result->emplace(work()); }))
        return std::nullopt;
    return std::move(*result);
}

} // namespace crossroof::widgets
