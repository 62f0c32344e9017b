// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/legend_groups.h"

#include "common/plot_style.h"
#include "common/static_text.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace crossroof::widgets::legend_groups {

namespace {

constexpr char kGroupProperty[] = "crossroof_legendGroup";
constexpr char kMemberProperty[] = "crossroof_legendMember";
constexpr char kKindProperty[] = "crossroof_legendKind";
/// Set on a member whose own entry a merged one stands in for: it still wants a place in the legend.
constexpr char kMergedProperty[] = "crossroof_legendMerged";
constexpr char kLevelProperty[] = "crossroof_legendLevel";
/// What the last fitBeforeReplot() worked from; empty: work it out again.
constexpr char kFittedProperty[] = "crossroof_legendFitted";
constexpr char kHeldProperty[] = "crossroof_legendHeld";
/// Icons a merged entry that counts its members draws at most; one that names them draws one per name, up
/// to kMostNamed.
constexpr int kMostIcons = 4;
constexpr int kMostNamed = 8;
/// A member list longer than this is given as a count instead.
constexpr int kLongestList = 48;

struct Member
{
    QCPAbstractPlottable *plottable = nullptr;
    QString group;
    QString name;
    MemberKind kind = MemberKind::Trace;
};

/// PLOT's members that want an entry (their own or a merged one), in the plot's order.
QList<Member> membersOf(QCustomPlot *plot)
{
    QList<Member> members;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        const QVariant group = p->property(kGroupProperty);
        if (!group.isValid())
            continue;
        if (!p->property(kMergedProperty).toBool() && !plot->legend->hasItemWithPlottable(p))
            continue; // its owner keeps it out of the legend
        members.append({p, group.toString(), p->property(kMemberProperty).toString(),
                        MemberKind(p->property(kKindProperty).toInt())});
    }
    return members;
}

/// NAMES without the words they all begin with ("v100 init", "v100 read": "init", "read").
QStringList withoutCommonStart(QStringList names)
{
    if (names.size() < 2)
        return names;
    qsizetype common = names.first().size();
    for (const QString &name : std::as_const(names)) {
        qsizetype i = 0;
        while (i < common && i < name.size() && name[i] == names.first()[i])
            ++i;
        common = i;
    }
    // Back to the end of a word, and only where every name goes on after it.
    const QString &first = names.first();
    while (common > 0 && first[common - 1] != QLatin1Char(' ') && first[common - 1] != QLatin1Char('_'))
        --common;
    for (const QString &name : std::as_const(names)) {
        if (name.size() <= common)
            return names;
    }
    for (QString &name : names)
        name.remove(0, common);
    return names;
}

/// "6 traces", "6 traces, 1 kernel set", "6 traces, 2 kernel sets, the model's predictions".
QString countText(const QList<Member> &members)
{
    const auto count = [&members](MemberKind kind) {
        return int(std::count_if(members.begin(), members.end(), [kind](const Member &m) { return m.kind == kind; }));
    };
    QStringList parts;
    if (const int traces = count(MemberKind::Trace))
        parts << (traces == 1 ? QObject::tr("1 trace") : QObject::tr("%1 traces").arg(traces));
    if (const int sets = count(MemberKind::KernelSet))
        parts << (sets == 1 ? QObject::tr("1 kernel set") : QObject::tr("%1 kernel sets").arg(sets));
    if (count(MemberKind::Prediction) > 0)
        parts << QObject::tr("the model's predictions");
    return parts.join(QStringLiteral(", "));
}

/// PLOTTABLE's mark in BOX, as its own legend entry draws it but no larger than the box: a graph's line and
/// scatter shape, anything else a swatch of its brush.
void drawIcon(QCPPainter *painter, QCPAbstractPlottable *plottable, const QRectF &box)
{
    const auto *graph = qobject_cast<const QCPGraph *>(plottable);
    if (!graph) {
        painter->setBrush(plottable->brush());
        painter->setPen(plottable->pen());
        painter->drawRect(box.adjusted(2, box.height() / 4, -2, -box.height() / 4));
        return;
    }
    const double y = box.center().y();
    if (graph->lineStyle() != QCPGraph::lsNone) {
        painter->setPen(graph->pen());
        painter->drawLine(QLineF(box.left(), y, box.right(), y));
    }
    QCPScatterStyle scatter = graph->scatterStyle();
    if (scatter.isNone())
        return;
    scatter.setSize(std::min(scatter.size(), std::min(box.width(), box.height()) - 2));
    scatter.applyTo(painter, graph->pen());
    scatter.drawShape(painter, box.center());
}

void removeMergedEntries(QCPLegend *legend)
{
    for (int i = legend->itemCount() - 1; i >= 0; --i) {
        if (auto *merged = qobject_cast<GroupLegendItem *>(legend->item(i))) {
            legend->take(merged);
            delete merged;
        }
    }
}

} // namespace

void setMember(QCPAbstractPlottable *plottable, const QString &group, const QString &member, MemberKind kind)
{
    plottable->setProperty(kGroupProperty, group);
    plottable->setProperty(kMemberProperty, member);
    plottable->setProperty(kKindProperty, int(kind));
}

int level(const QCustomPlot *plot)
{
    return plot->property(kLevelProperty).toInt();
}

int maxLevel(QCustomPlot *plot)
{
    // Two members or more: each group merged, then all together, then without the files' names.
    return membersOf(plot).size() < 2 ? 0 : 3;
}

void apply(QCustomPlot *plot, int wanted)
{
    QCPLegend *legend = plot->legend;
    const QList<Member> members = membersOf(plot);
    const int to = std::clamp(wanted, 0, members.size() < 2 ? 0 : 3); // maxLevel() of these members
    // Every member's entry out, merged or not, and back in the members' order.
    removeMergedEntries(legend);
    for (const Member &m : members) {
        if (QCPPlottableLegendItem *own = legend->itemWithPlottable(m.plottable)) {
            legend->take(own);
            delete own;
        }
        m.plottable->setProperty(kMergedProperty, false);
    }
    const auto merge = [legend](const QList<Member> &set, const QString &text, int icons) {
        QList<QCPAbstractPlottable *> plottables;
        for (const Member &m : set) {
            plottables << m.plottable;
            m.plottable->setProperty(kMergedProperty, true);
        }
        legend->addItem(new GroupLegendItem(legend, plottables, text, icons));
    };
    // The model's ceilings are told apart by their lines only: merged, each keeps an entry of its own with its
    // short name ("FP32 pipe"), never a count whose icons nobody can match to the lines.
    const auto isCeiling = [](const Member &m) { return m.kind == MemberKind::Ceiling || m.kind == MemberKind::Mark; };
    if (to >= 1) {
        for (const Member &m : members) {
            if (isCeiling(m))
                merge({m}, m.name, 1);
        }
    }
    QList<Member> measured;
    std::copy_if(members.begin(), members.end(), std::back_inserter(measured),
                 [&isCeiling](const Member &m) { return !isCeiling(m); });
    if (to >= 2 && !measured.isEmpty()) {
        QStringList groups;
        for (const Member &m : measured) {
            if (!groups.contains(m.group))
                groups << m.group;
        }
        QString text = countText(measured); // level 3: the count alone
        if (to == 2) {
            text = groups.size() > 1 ? QObject::tr("%1 from %2 files").arg(text).arg(groups.size())
                                     : QObject::tr("%1 of %2").arg(text, groups.first());
        }
        merge(measured, text, kMostIcons);
    } else if (to < 2) {
        QStringList done;
        for (const Member &m : members) {
            if (to == 1 && isCeiling(m))
                continue; // its short entry above
            if (to == 1) {
                if (done.contains(m.group))
                    continue;
                QList<Member> set;
                QStringList names;
                for (const Member &other : members) {
                    if (other.group == m.group && !isCeiling(other)) {
                        set << other;
                        names << other.name;
                    }
                }
                done << m.group;
                if (set.size() > 1) {
                    const QString list = withoutCommonStart(names).join(QStringLiteral(", "));
                    if (list.size() <= kLongestList && set.size() <= kMostNamed)
                        merge(set, QObject::tr("%1: %2").arg(m.group, list), int(set.size()));
                    else
                        merge(set, QObject::tr("%1 of %2").arg(countText(set), m.group), kMostIcons);
                    continue;
                }
            }
            addLegendEntry(m.plottable);
        }
    }
    legend->setFillOrder(legend->fillOrder(), true); // no empty cells where entries went
    plot->setProperty(kLevelProperty, to);
}

int fit(QCustomPlot *plot, double width, double budget, int most)
{
    QCPLegend *legend = plot->legend;
    const int top = maxLevel(plot);
    int to = 0;
    for (; to <= top; ++to) {
        apply(plot, to);
        const int columns = plot_style::legendColumns(legend, width, most);
        if (columns != 0 && columns != legend->wrap()) {
            legend->setWrap(columns);
            legend->setFillOrder(legend->fillOrder(), true);
        }
        if (legend->minimumOuterSizeHint().height() <= budget)
            break;
    }
    return std::min(to, top);
}

double legendBudget(double height, double share)
{
    return height * (1 - share) - 4; // 4: the legend row's own margin
}

bool hasLegendBelow(const QCustomPlot *plot)
{
    return plot->legend->visible() && plot->legend->layout() != plot->axisRect()->insetLayout();
}

AxesHeight axesHeight(const QCustomPlot *plot)
{
    AxesHeight h;
    for (const QCPAxisRect *rect : plot->axisRects()) {
        h.outer += rect->outerRect().height();
        h.inner += rect->rect().height();
    }
    return h;
}

void fitBeforeReplot(QCustomPlot *plot, int most)
{
    if (plot->property(kHeldProperty).toBool())
        return;
    const QRect view = plot->viewport();
    // What the last fit saw, the legend as it left it included: a view that draws again adds its plottables'
    // own entries back, and new plottables may take the addresses of the ones they replace.
    const auto fitKey = [plot, view, most] {
        QString key = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8")
                              .arg(view.width())
                              .arg(view.height())
                              .arg(plot->legend->font().key())
                              .arg(plot->legend->iconSize().width())
                              .arg(plot->legend->iconSize().height())
                              .arg(most)
                              .arg(level(plot))
                              .arg(plot->legend->itemCount());
        for (const Member &m : membersOf(plot))
            key += QStringLiteral(" %1").arg(quintptr(m.plottable));
        return key;
    };
    if (plot->property(kFittedProperty).toString() == fitKey())
        return;
    fit(plot, view.width() - 8, legendBudget(view.height(), kPlotShare), most);
    plot->setProperty(kFittedProperty, fitKey());
}

void setHeld(QCustomPlot *plot, bool held)
{
    plot->setProperty(kHeldProperty, held);
    plot->setProperty(kFittedProperty, QString());
}

GroupLegendItem::GroupLegendItem(QCPLegend *legend, const QList<QCPAbstractPlottable *> &members,
                                 const QString &text, int icons)
    : QCPAbstractLegendItem(legend)
    , m_text(text)
    , m_icons(std::max(1, icons))
{
    for (QCPAbstractPlottable *p : members)
        m_members.append(p);
}

QList<QCPAbstractPlottable *> GroupLegendItem::members() const
{
    QList<QCPAbstractPlottable *> out;
    for (const QPointer<QCPAbstractPlottable> &p : m_members) {
        if (p)
            out << p.data();
    }
    return out;
}

QSize GroupLegendItem::iconArea() const
{
    const QSize icon = mParentLegend->iconSize();
    const int slot = std::max(5, int(std::lround(icon.height() * 0.5)));
    const int shown = std::min(int(m_members.size()), m_icons);
    return {std::max(icon.width(), shown * slot), icon.height()};
}

void GroupLegendItem::draw(QCPPainter *painter)
{
    if (!mParentLegend)
        return;
    painter->setFont(mSelected ? mSelectedFont : mFont);
    painter->setPen(QPen(mSelected ? mSelectedTextColor : mTextColor));
    const QSize area = iconArea();
    const QString text = fittedLegendText(m_text, painter->font(),
                                          mRect.width() - area.width() - mParentLegend->iconTextPadding(), true);
    const QRect textBox = painter->fontMetrics().boundingRect(0, 0, 0, area.height(), Qt::TextDontClip, text);
    const int height = std::max(textBox.height(), area.height());
    const int textX = mRect.x() + area.width() + mParentLegend->iconTextPadding();
    painter->drawText(textX, mRect.y(), textBox.width(), height, Qt::TextDontClip, text);
    const QList<QCPAbstractPlottable *> shown = members().mid(0, m_icons);
    if (shown.isEmpty())
        return;
    const double slot = double(area.width()) / double(shown.size());
    const double top = mRect.y() + (height - area.height()) / 2.0;
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const QRectF box(mRect.x() + slot * double(i), top, slot, area.height());
        painter->save();
        painter->setClipRect(box, Qt::IntersectClip);
        drawIcon(painter, shown[i], box);
        painter->restore();
    }
}

QSize GroupLegendItem::minimumOuterSizeHint() const
{
    if (!mParentLegend)
        return {};
    const QFont &font = mSelected ? mSelectedFont : mFont;
    return limitLegendEntry(legendEntrySize(*mParentLegend, font, m_text, iconArea(), mMargins), *mParentLegend, font,
                            mMargins);
}

QRect GroupLegendItem::clipRect() const
{
    return legendClipRect(mOuterRect, mSelected ? mSelectedFont : mFont);
}

} // namespace crossroof::widgets::legend_groups
