// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTabWidget>

#include <functional>
#include <vector>

class QCustomPlot;
class QScrollArea;

namespace crossroof::app {

/// The views, one tab each, by name: what the command line's --view, sessions and figures call them.
class ViewTabs : public QTabWidget
{
    Q_OBJECT
public:
    explicit ViewTabs(QWidget *parent);

    /// Adds VIEW as the next tab, titled TITLE; names() gives the tabs' names in order. A figure of the
    /// view shows its figurePlots(). The view scrolls in its tab instead of forcing the window wider when
    /// the docks leave too little room.
    template<class View>
    View *addView(View *view, const QString &title)
    {
        addScrolled(view, title, [view] { return view->figurePlots(); });
        return view;
    }

    /// The views' names in tab order: xgraph, stability, occupancy, zigzag, markov, mapping, extrapolate,
    /// bandwidth, roofline, prediction, skeleton.
    static QStringList names();
    /// Brings the named view to the front; false for an unknown name.
    bool showView(const QString &name);
    QString currentName() const;
    /// The view in front, without its scroll area.
    QWidget *currentView() const;
    /// The plots a figure of the named view shows (empty for an unknown name).
    QList<QCustomPlot *> figurePlots(const QString &name) const;
    /// The named view's tab, the scroll area that holds the view (nullptr for an unknown name).
    QScrollArea *scrollArea(const QString &name) const;

private:
    void addScrolled(QWidget *view, const QString &title, std::function<QList<QCustomPlot *>()> plots);

    std::vector<std::function<QList<QCustomPlot *>()>> m_plots;
};

} // namespace crossroof::app
