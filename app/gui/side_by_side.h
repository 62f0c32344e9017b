// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

#include <vector>

class QAction;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class QWidget;

namespace crossroof::app {

class ViewTabs;

/// View > Side by Side: the X-graph, the stability map and the occupancy view at once, in a split layout in
/// place of the tabs, so that one slider move shows in all of them. The views themselves move between their
/// tabs and the split (each in its own scroll area) and back; nothing else changes. The choice is remembered
/// (QSettings "view/sideBySide").
class SideBySide : public QObject
{
    Q_OBJECT
public:
    /// CENTRE shows TABS; the split becomes its second page. NAMES are the views shown side by side, in the
    /// order of the split (first on the left, the others stacked on the right).
    SideBySide(ViewTabs *tabs, QStackedWidget *centre, QStringList names, QObject *parent);

    /// Checkable, Ctrl+Shift+B; toggling it switches the layout.
    QAction *action() const { return m_action; }
    bool isActive() const;
    /// Switches to the split (true) or back to the tabs, and remembers the choice.
    void setActive(bool active);
    /// The views shown side by side, by name.
    const QStringList &names() const { return m_names; }
    /// The split page (the stacked widget's second page).
    QWidget *page() const { return m_page; }
    /// The remembered choice.
    static bool remembered();

Q_SIGNALS:
    void activeChanged(bool active);

private:
    void moveViews(bool intoSplit);

    ViewTabs *m_tabs;
    QStackedWidget *m_centre;
    QStringList m_names;
    QWidget *m_page;
    std::vector<QScrollArea *> m_panes; ///< one per name, in the split
    QAction *m_action;
};

} // namespace crossroof::app
