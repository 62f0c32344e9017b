// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFlags>
#include <QTabWidget>

#include <functional>
#include <vector>

class QCustomPlot;
class QScrollArea;

namespace crossroof::app {

/// The docks of the main window; each view is shown with some of them (WindowLayout::setDockViews()).
enum class Dock { Parameters = 1, Readout = 2, Traces = 4, Kernels = 8 };
Q_DECLARE_FLAGS(Docks, Dock)
Q_DECLARE_OPERATORS_FOR_FLAGS(Docks)

/// One view, registered once: everything the window, sessions, figures and the command line know of it.
struct ViewSpec
{
    const char *name;  ///< what --view, sessions and figures call it
    const char *title; ///< the tab's title, with its mnemonic (translated in the "ViewTabs" context)
    const char *icon;  ///< a freedesktop icon name; the tab shows it where the platform's theme has it
    Docks docks;       ///< the docks it is shown with: the inputs and readouts that mean something to it
    bool sideBySide;   ///< one of the views View > Side by Side shows at once
};

/// Every view, in tab order. Adding a view is a line here and its construction in MainWindow.
const std::vector<ViewSpec> &viewSpecs();

/// The views, one tab each, by name; the registry viewSpecs() says what each is.
class ViewTabs : public QTabWidget
{
    Q_OBJECT
public:
    explicit ViewTabs(QWidget *parent);

    /// Adds VIEW as the tab of the view named NAME, the next of viewSpecs() (adding them out of order is a
    /// programming error). A figure of the view shows its figurePlots(); SETTLE waits for its background work
    /// (a map being refined, model trees training), so that a figure shows the finished view. The view scrolls
    /// in its tab instead of forcing the window wider when the docks leave too little room.
    template <class View>
    View *addView(const char *name, View *view, std::function<void()> settle = {})
    {
        addScrolled(name, view, [view] { return view->figurePlots(); }, std::move(settle));
        return view;
    }

    /// The views' names in tab order (viewSpecs()).
    static QStringList names();
    /// The named view's title as its tab shows it, without the mnemonic ("Code Skeleton"); NAME if unknown.
    static QString title(const QString &name);
    /// The names of the views shown with DOCK, or (Side by Side) those shown at once.
    static QStringList namesWith(Dock dock);
    static QStringList sideBySideNames();
    /// Brings the named view to the front; false for an unknown name.
    bool showView(const QString &name);
    QString currentName() const;
    /// The view in front, without its scroll area.
    QWidget *currentView() const;
    /// The plots a figure of the named view shows (empty for an unknown name).
    QList<QCustomPlot *> figurePlots(const QString &name) const;
    /// Waits until the named view has finished its background work (nothing for an unknown name).
    void settle(const QString &name) const;
    /// The name of the view that holds WIDGET (empty if none does), wherever the view is shown.
    QString nameOf(const QWidget *widget) const;
    /// The named view's tab, the scroll area that holds the view (nullptr for an unknown name).
    QScrollArea *scrollArea(const QString &name) const;

private:
    struct Entry
    {
        std::function<QList<QCustomPlot *>()> plots;
        std::function<void()> settle;
        QWidget *view;
    };
    void addScrolled(const char *name, QWidget *view, std::function<QList<QCustomPlot *>()> plots,
                     std::function<void()> settle);

    std::vector<Entry> m_entries;
};

} // namespace crossroof::app
