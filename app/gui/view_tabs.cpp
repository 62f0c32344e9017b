// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_tabs.h"

#include "core/session/view_settings_json.h"

#include <QCoreApplication>
#include <QIcon>
#include <QScrollArea>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace crossroof::app {

const std::vector<ViewSpec> &viewSpecs()
{
    using enum Dock;
    static const std::vector<ViewSpec> specs{
            {"xgraph", QT_TRANSLATE_NOOP("ViewTabs", "&X-graph"), "office-chart-line",
             Parameters | Readout | Traces | Kernels, true},
            {"stability", QT_TRANSLATE_NOOP("ViewTabs", "S&tability"), "office-chart-area",
             Parameters | Readout | Traces, true},
            {"occupancy", QT_TRANSLATE_NOOP("ViewTabs", "&Occupancy"), "office-chart-bar", Parameters | Traces, true},
            {"zigzag", QT_TRANSLATE_NOOP("ViewTabs", "Zi&gzag"), "office-chart-line-stacked", Parameters | Traces,
             false},
            {"markov", QT_TRANSLATE_NOOP("ViewTabs", "&Markov CPI"), "office-chart-polar", {}, false},
            {"mapping", QT_TRANSLATE_NOOP("ViewTabs", "Ma&pping"), "view-grid", {}, false},
            {"extrapolate", QT_TRANSLATE_NOOP("ViewTabs", "Extrapo&late"), "office-chart-scatter", {}, false},
            {"bandwidth", QT_TRANSLATE_NOOP("ViewTabs", "&Bandwidth"), "network-transmit-receive", Traces, false},
            {"roofline", QT_TRANSLATE_NOOP("ViewTabs", "&Roofline"), "office-chart-line-percentage",
             Parameters | Readout | Traces | Kernels, false},
            {"prediction", QT_TRANSLATE_NOOP("ViewTabs", "Pre&diction"), "office-chart-scatter",
             Parameters | Readout | Traces | Kernels, false},
            {"levels", QT_TRANSLATE_NOOP("ViewTabs", "Memory Le&vels"), "drive-harddisk", Parameters | Traces,
             false},
            {"skeleton", QT_TRANSLATE_NOOP("ViewTabs", "Code S&keleton"), "text-x-script", Parameters, false},
    };
    // Sessions name the views as core reads them: the same names in the same order, or no window opens.
    static const bool agree = std::equal(specs.begin(), specs.end(), core::detail::kViews.begin(),
                                         core::detail::kViews.end(), [](const ViewSpec &spec, const char *name) {
                                             return std::strcmp(spec.name, name) == 0;
                                         });
    if (!agree)
        throw std::logic_error("viewSpecs() and core::detail::kViews name different views");
    return specs;
}

ViewTabs::ViewTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
}

void ViewTabs::addScrolled(const char *name, QWidget *view, std::function<QList<QCustomPlot *>()> plots,
                           std::function<void()> settle)
{
    const std::size_t index = m_entries.size();
    if (index >= viewSpecs().size() || std::strcmp(viewSpecs()[index].name, name) != 0)
        throw std::logic_error(std::string("ViewTabs: view '") + name + "' added out of the order of viewSpecs()");
    const ViewSpec &spec = viewSpecs()[index];
    auto *area = new QScrollArea;
    area->setWidget(view);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    addTab(area, QIcon::fromTheme(QString::fromLatin1(spec.icon)),
           QCoreApplication::translate("ViewTabs", spec.title));
    m_entries.push_back({std::move(plots), std::move(settle), view});
}

QStringList ViewTabs::names()
{
    QStringList names;
    for (const ViewSpec &spec : viewSpecs())
        names << QString::fromLatin1(spec.name);
    return names;
}

QString ViewTabs::title(const QString &name)
{
    for (const ViewSpec &spec : viewSpecs()) {
        if (name == QLatin1String(spec.name))
            return QCoreApplication::translate("ViewTabs", spec.title).remove(QLatin1Char('&'));
    }
    return name;
}

QStringList ViewTabs::namesWith(Dock dock)
{
    QStringList names;
    for (const ViewSpec &spec : viewSpecs()) {
        if (spec.docks.testFlag(dock))
            names << QString::fromLatin1(spec.name);
    }
    return names;
}

QStringList ViewTabs::sideBySideNames()
{
    QStringList names;
    for (const ViewSpec &spec : viewSpecs()) {
        if (spec.sideBySide)
            names << QString::fromLatin1(spec.name);
    }
    return names;
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
    return index < m_entries.size() ? m_entries[index].plots() : QList<QCustomPlot *>();
}

QString ViewTabs::nameOf(const QWidget *widget) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (widget && m_entries[i].view->isAncestorOf(widget))
            return QString::fromLatin1(viewSpecs()[i].name);
    }
    return {};
}

void ViewTabs::settle(const QString &name) const
{
    const auto index = std::size_t(names().indexOf(name));
    if (index < m_entries.size() && m_entries[index].settle)
        m_entries[index].settle();
}

} // namespace crossroof::app
