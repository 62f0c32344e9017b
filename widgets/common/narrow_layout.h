// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

class QBoxLayout;
class QSplitter;
class QTabWidget;
class QWidget;

namespace crossroof::widgets {

// Each arrangement below turns by the width VIEW has: its own, or in a scroll area (a view's tab, a pane of View
// > Side by Side), where a view is never narrower than its minimum, the area's.

/// Side by side while VIEW has at least WIDTH pixels and the least width of LAYOUT's parts side by side, one
/// above the other when it has less (a small window, a pane of View > Side by Side): LAYOUT runs left to right
/// or top to bottom.
void stackWhenNarrow(QWidget *view, QBoxLayout *layout, int width);
/// The same for a splitter: horizontal while VIEW has at least WIDTH pixels, else vertical.
void stackWhenNarrow(QWidget *view, QSplitter *splitter, int width);
/// The other way round, for panes that are stacked in a wide view: once VIEW has less than WIDTH pixels (and a
/// splitter around them has put something else below) SPLITTER turns horizontal, so that they share the
/// height that is left. Below LEAST pixels they cannot share the width either and stack again: the view then
/// scrolls down, not sideways.
void besideWhenNarrow(QWidget *view, QSplitter *splitter, int width, int least);

/// A page of tabWhenNarrow(): the widget, its tab's title and its stretch in the layout.
struct NarrowPage
{
    QWidget *widget = nullptr;
    QString title;
    int stretch = 0;
};

/// PAGES one above the other in LAYOUT (a vertical box, TABS hidden in it after them) while VIEW has at least
/// WIDTH pixels; in TABS, one at a time with the whole height, when it is narrower (a 1024x700 window):
/// several plots that each need some height stay whole without the view scrolling.
void tabWhenNarrow(QWidget *view, QBoxLayout *layout, QTabWidget *tabs, const QList<NarrowPage> &pages, int width);

} // namespace crossroof::widgets
