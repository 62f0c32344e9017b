// SPDX-License-Identifier: GPL-3.0-or-later
#include "side_by_side.h"

#include "view_tabs.h"

#include <QAction>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>

namespace crossroof::app {

namespace {

const QString kSettingsKey = QStringLiteral("view/sideBySide");

QScrollArea *makePane()
{
    auto *area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

SideBySide::SideBySide(ViewTabs *tabs, QStackedWidget *centre, QStringList names, QObject *parent)
    : QObject(parent)
    , m_tabs(tabs)
    , m_centre(centre)
    , m_names(std::move(names))
    , m_page(new QWidget)
    , m_action(new QAction(tr("&Side by Side"), this))
{
    // The first view takes the left half; the others share the right half, one above the other.
    auto *layout = new QHBoxLayout(m_page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *columns = new QSplitter(Qt::Horizontal, m_page);
    columns->setChildrenCollapsible(false);
    auto *right = new QSplitter(Qt::Vertical, columns);
    right->setChildrenCollapsible(false);
    for (int i = 0; i < m_names.size(); ++i) {
        QScrollArea *pane = makePane();
        pane->setObjectName(QStringLiteral("sideBySide_") + m_names[i]);
        if (i == 0)
            columns->insertWidget(0, pane);
        else
            right->addWidget(pane);
        m_panes.push_back(pane);
    }
    columns->setStretchFactor(0, 1);
    columns->setStretchFactor(1, 1);
    layout->addWidget(columns);
    m_centre->addWidget(m_page);

    m_action->setObjectName(QStringLiteral("sideBySideAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    m_action->setStatusTip(tr("Show the %1 views at once, linked to the same parameters").arg(m_names.size()));
    connect(m_action, &QAction::toggled, this, &SideBySide::setActive);
}

bool SideBySide::isActive() const
{
    return m_centre->currentWidget() == m_page;
}

bool SideBySide::remembered()
{
    return QSettings().value(kSettingsKey, false).toBool();
}

void SideBySide::setActive(bool active)
{
    if (active != m_action->isChecked()) {
        m_action->setChecked(active); // comes back here through toggled()
        return;
    }
    if (active == isActive())
        return;
    QSettings().setValue(kSettingsKey, active);
    if (active) {
        moveViews(true);
        m_centre->setCurrentWidget(m_page);
    } else {
        m_centre->setCurrentWidget(m_tabs);
        moveViews(false);
    }
    Q_EMIT activeChanged(active);
}

void SideBySide::moveViews(bool intoSplit)
{
    for (std::size_t i = 0; i < m_panes.size(); ++i) {
        QScrollArea *tab = m_tabs->scrollArea(m_names[qsizetype(i)]);
        QScrollArea *from = intoSplit ? tab : m_panes[i];
        QScrollArea *to = intoSplit ? m_panes[i] : tab;
        if (QWidget *view = from->takeWidget())
            to->setWidget(view);
    }
}

} // namespace crossroof::app
