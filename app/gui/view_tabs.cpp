// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_tabs.h"

#include <QScrollArea>

#include <utility>

namespace crossroof::app {

ViewTabs::ViewTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
}

void ViewTabs::addScrolled(QWidget *view, const QString &title, std::function<QList<QCustomPlot *>()> plots)
{
    auto *area = new QScrollArea;
    area->setWidget(view);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    addTab(area, title);
    m_plots.push_back(std::move(plots));
}

QStringList ViewTabs::names()
{
    return {QStringLiteral("xgraph"),   QStringLiteral("stability"), QStringLiteral("occupancy"),
            QStringLiteral("zigzag"),   QStringLiteral("markov"),    QStringLiteral("mapping"),
            QStringLiteral("extrapolate"),
            QStringLiteral("bandwidth"), QStringLiteral("roofline"),  QStringLiteral("prediction"),
            QStringLiteral("skeleton")};
}

bool ViewTabs::showView(const QString &name)
{
    const int index = int(names().indexOf(name));
    if (index < 0)
        return false;
    setCurrentIndex(index);
    return true;
}

QString ViewTabs::currentName() const
{
    return names().value(currentIndex());
}

QWidget *ViewTabs::currentView() const
{
    return qobject_cast<QScrollArea *>(currentWidget())->widget();
}

QScrollArea *ViewTabs::scrollArea(const QString &name) const
{
    return qobject_cast<QScrollArea *>(widget(int(names().indexOf(name))));
}

QList<QCustomPlot *> ViewTabs::figurePlots(const QString &name) const
{
    const auto index = std::size_t(names().indexOf(name));
    return index < m_plots.size() ? m_plots[index]() : QList<QCustomPlot *>();
}

} // namespace crossroof::app
