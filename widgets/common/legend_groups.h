// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QList>
#include <QPointer>
#include <QString>

/// Legends that stay short however many measured series a plot carries. A plottable that is one of a set (a
/// trace of a file, the kernels of an export) is marked as a member of its group; when the legend would take
/// more of the plot's height than its share, the members' entries are merged: first one entry per group,
/// "gpu_stream_v100.txt: init, read, scale", then one for them all, "6 traces, 1 kernel set". A merged entry
/// draws its members' icons side by side, in the order its text names them.
namespace crossroof::widgets::legend_groups {

/// What a member stands for, counted in the entry that merges them all. Traces and kernel sets come from
/// files (their group), ceilings from the model; a prediction is the model's marks for a file's kernels, named
/// once however many files have them. Ceilings are never merged into one entry (told apart by their lines
/// alone, they could not be matched to a row of icons): merged, each keeps an entry with its short name.
/// A mark (the roofline's kernels at each level, its operating point) is shortened as a ceiling is, never merged.
enum class MemberKind { Trace, KernelSet, Ceiling, Prediction, Mark };

/// Marks PLOTTABLE as member MEMBER (its own short name) of GROUP (the file it came from).
void setMember(QCPAbstractPlottable *plottable, const QString &group, const QString &member, MemberKind kind);

/// How far PLOT's legend merges its members: 0 an entry each, 1 an entry per group, 2 one entry for all
/// ("6 traces of gpu_stream_v100.txt"), 3 the same without the files ("6 traces").
int level(const QCustomPlot *plot);
/// The most merging PLOT's members allow: 0 (none or one member), else 3.
int maxLevel(QCustomPlot *plot);
/// Gives PLOT's legend LEVEL (at most maxLevel()) of merging: the members' own entries, or merged ones, after
/// the other entries in the members' order.
void apply(QCustomPlot *plot, int level);

/// The least merging (from no merging on) at which PLOT's legend, in as many columns (up to MOST) as WIDTH
/// takes, is at most BUDGET pixels tall, or the most there is; applied, with the columns. Returns the level.
int fit(QCustomPlot *plot, double width, double budget, int most);

/// The pixels of height a legend below a plot HEIGHT tall may take so that the plot's axis rect (its axes,
/// tick labels and titles with it) keeps SHARE of the height.
double legendBudget(double height, double share);

/// The share of a plot's height that its axis rect with its axes keeps, whatever its legend holds.
inline constexpr double kPlotShare = 0.6;
/// The share a figure's legend leaves between the axes, where merging and smaller legend text can give it.
inline constexpr double kDataShare = 0.4;

/// Whether PLOT shows a legend of its own below the plot (placeLegendBelow()), not one drawn over its axes.
bool hasLegendBelow(const QCustomPlot *plot);
/// The heights of PLOT's axis rects as laid out now: with their axes, tick labels and titles, and between the
/// axes alone.
struct AxesHeight
{
    double outer = 0;
    double inner = 0;
};
AxesHeight axesHeight(const QCustomPlot *plot);

/// Before a replot of PLOT, whose legend is below it (plot_style::placeLegendBelow()): fit() within
/// legendBudget() at kPlotShare, worked out again only when the plot's size, legend font or members changed
/// since the last time, and not while held.
void fitBeforeReplot(QCustomPlot *plot, int most);
/// While HELD, fitBeforeReplot() leaves PLOT's legend as it is (a figure's export merges for its own page);
/// after, it works the legend out again.
void setHeld(QCustomPlot *plot, bool held);

/// A legend entry standing for several plottables: their icons side by side, then the text.
class GroupLegendItem : public QCPAbstractLegendItem
{
    Q_OBJECT
public:
    /// ICONS: how many of the members' icons it draws at most (as many as its text names).
    GroupLegendItem(QCPLegend *legend, const QList<QCPAbstractPlottable *> &members, const QString &text, int icons);

    QString text() const { return m_text; }
    /// A figure short of room shortens the text (in the middle, ExportGuard) and puts it back after.
    void setText(const QString &text) { m_text = text; }
    QList<QCPAbstractPlottable *> members() const;

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;
    /// The entry's box and a descent below it, as StaticLegendItem's.
    QRect clipRect() const override;

private:
    /// The icons' box: the legend's icon size, or wider for many members (at most m_icons of them).
    QSize iconArea() const;

    QList<QPointer<QCPAbstractPlottable>> m_members;
    QString m_text;
    int m_icons = 0;
};

} // namespace crossroof::widgets::legend_groups
