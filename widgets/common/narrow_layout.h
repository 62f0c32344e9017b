// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QBoxLayout;
class QSplitter;
class QWidget;

namespace crossroof::widgets {

/// Side by side while VIEW is at least WIDTH pixels wide, one above the other when it is narrower (a small
/// window, a pane of View > Side by Side): LAYOUT runs left to right or top to bottom. Choose WIDTH above
/// what the side-by-side arrangement needs, so that the turn (which changes VIEW's minimum width) cannot
/// turn it back.
void stackWhenNarrow(QWidget *view, QBoxLayout *layout, int width);
/// The same for a splitter: horizontal while VIEW is at least WIDTH pixels wide, else vertical.
void stackWhenNarrow(QWidget *view, QSplitter *splitter, int width);
/// The other way round, for panes that are stacked in a wide view: once VIEW is narrower than WIDTH (and a
/// splitter around them has put something else below) SPLITTER turns horizontal, so that they share the
/// height that is left.
void besideWhenNarrow(QWidget *view, QSplitter *splitter, int width);

} // namespace crossroof::widgets
