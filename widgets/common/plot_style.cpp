// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/plot_style.h"
#include "common/curve_thinning.h"
#include "common/legend_groups.h"
#include "common/steady_plot.h"
#include "common/symbol_text.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QEvent>
#include <QHash>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <vector>

namespace crossroof::widgets::plot_style {

namespace {

/// The two colours a plot is drawn with: lines and text (ink) on a background (paper).
struct Ink
{
    QColor ink;
    QColor paper;
};

const Ink kLightInk{QColor(0, 0, 0), QColor(255, 255, 255)};

/// C in the ink TO where it was FROM's ink or paper (alpha kept); any other colour as it is.
QColor recolour(const QColor &c, const Ink &from, const Ink &to)
{
    const auto same = [&c](const QColor &a) { return c.rgb() == a.rgb(); }; // rgb() ignores alpha
    QColor out = same(from.ink) ? to.ink : same(from.paper) ? to.paper : c;
    out.setAlpha(c.alpha());
    return out;
}

QPen recolour(QPen pen, const Ink &from, const Ink &to)
{
    pen.setColor(recolour(pen.color(), from, to));
    return pen;
}

QBrush recolour(QBrush brush, const Ink &from, const Ink &to)
{
    if (brush.style() != Qt::NoBrush)
        brush.setColor(recolour(brush.color(), from, to));
    return brush;
}

QCPScatterStyle recolour(QCPScatterStyle style, const Ink &from, const Ink &to)
{
    style.setPen(recolour(style.pen(), from, to));
    style.setBrush(recolour(style.brush(), from, to));
    return style;
}

void recolourAxis(QCPAxis *axis, const Ink &from, const Ink &to)
{
    axis->setBasePen(recolour(axis->basePen(), from, to));
    axis->setTickPen(recolour(axis->tickPen(), from, to));
    axis->setSubTickPen(recolour(axis->subTickPen(), from, to));
    axis->setLabelColor(recolour(axis->labelColor(), from, to));
    axis->setTickLabelColor(recolour(axis->tickLabelColor(), from, to));
    axis->grid()->setPen(recolour(axis->grid()->pen(), from, to));
    axis->grid()->setSubGridPen(recolour(axis->grid()->subGridPen(), from, to));
    axis->grid()->setZeroLinePen(recolour(axis->grid()->zeroLinePen(), from, to));
}

/// Every black or white of PLOT in FROM's ink and paper redrawn in TO's.
void recolourPlot(QCustomPlot *plot, const Ink &from, const Ink &to)
{
    plot->setBackground(QBrush(to.paper));
    for (QCPAxisRect *rect : plot->axisRects()) {
        rect->setBackground(recolour(rect->backgroundBrush(), from, to));
        for (QCPAxis *axis : rect->axes())
            recolourAxis(axis, from, to);
    }
    for (QCPColorScale *scale : plot->findChildren<QCPColorScale *>()) {
        for (QCPAxis *axis : scale->axis()->axisRect()->axes())
            recolourAxis(axis, from, to);
    }
    for (QCPTextElement *title : plot->findChildren<QCPTextElement *>())
        title->setTextColor(recolour(title->textColor(), from, to));
    for (QCPLegend *legend : plot->findChildren<QCPLegend *>()) {
        legend->setTextColor(recolour(legend->textColor(), from, to));
        legend->setBrush(recolour(legend->brush(), from, to));
        legend->setBorderPen(recolour(legend->borderPen(), from, to));
    }
    // Every entry, also those a view keeps out of its legend while what they name is not drawn (arrangeLegend()).
    for (QCPAbstractLegendItem *item : plot->findChildren<QCPAbstractLegendItem *>())
        item->setTextColor(recolour(item->textColor(), from, to));
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable *p = plot->plottable(i);
        p->setPen(recolour(p->pen(), from, to));
        p->setBrush(recolour(p->brush(), from, to));
        if (auto *graph = qobject_cast<QCPGraph *>(p))
            graph->setScatterStyle(recolour(graph->scatterStyle(), from, to));
        else if (auto *curve = qobject_cast<QCPCurve *>(p))
            curve->setScatterStyle(recolour(curve->scatterStyle(), from, to));
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem *item = plot->item(i);
        if (auto *text = qobject_cast<QCPItemText *>(item)) {
            text->setColor(recolour(text->color(), from, to));
            text->setPen(recolour(text->pen(), from, to));
            text->setBrush(recolour(text->brush(), from, to));
        } else if (auto *line = qobject_cast<QCPItemLine *>(item)) {
            line->setPen(recolour(line->pen(), from, to));
        } else if (auto *straight = qobject_cast<QCPItemStraightLine *>(item)) {
            straight->setPen(recolour(straight->pen(), from, to));
        } else if (auto *rect = qobject_cast<QCPItemRect *>(item)) {
            rect->setPen(recolour(rect->pen(), from, to));
            rect->setBrush(recolour(rect->brush(), from, to));
        } else if (auto *ellipse = qobject_cast<QCPItemEllipse *>(item)) {
            ellipse->setPen(recolour(ellipse->pen(), from, to));
            ellipse->setBrush(recolour(ellipse->brush(), from, to));
        } else if (auto *tracer = qobject_cast<QCPItemTracer *>(item)) {
            tracer->setPen(recolour(tracer->pen(), from, to));
            tracer->setBrush(recolour(tracer->brush(), from, to));
        } else if (auto *curve = qobject_cast<QCPItemCurve *>(item)) {
            curve->setPen(recolour(curve->pen(), from, to));
        } else if (auto *bracket = qobject_cast<QCPItemBracket *>(item)) {
            bracket->setPen(recolour(bracket->pen(), from, to));
        }
    }
}

/// Keeps one plot in the palette's ink: on a palette change and before every replot.
class PaletteFollower : public QObject
{
public:
    static constexpr const char *kName = "crossroof-palette-follower";

    explicit PaletteFollower(QCustomPlot *plot)
        : QObject(plot)
        , m_plot(plot)
    {
        setObjectName(QString::fromLatin1(kName));
        plot->installEventFilter(this);
        QObject::connect(plot, &QCustomPlot::beforeReplot, this, [this] { apply(); });
        apply();
    }

    void setForceLight(bool light)
    {
        m_forceLight = light;
        apply();
    }
    QColor paper() const { return m_applied.paper; }

    /// Recolours the plot from the ink it has to the one it should have; in a dark palette also whatever was
    /// set black or white since the last time.
    void apply()
    {
        const auto same = [](const Ink &a, const Ink &b) { return a.ink == b.ink && a.paper == b.paper; };
        const Ink wanted = wantedInk();
        if (!same(m_applied, wanted) && !same(m_applied, kLightInk))
            recolourPlot(m_plot, m_applied, kLightInk); // back to the colours as designed
        if (!same(wanted, kLightInk))
            recolourPlot(m_plot, kLightInk, wanted); // also what a view has set black or white meanwhile
        m_applied = wanted;
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_plot && event->type() == QEvent::PaletteChange) {
            apply();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    Ink wantedInk() const
    {
        const QPalette &palette = m_plot->palette();
        if (m_forceLight || !isDark(palette))
            return kLightInk;
        return {palette.color(QPalette::WindowText), palette.color(QPalette::Base)};
    }

    QCustomPlot *m_plot;
    Ink m_applied = kLightInk;
    bool m_forceLight = false;
};

PaletteFollower *followerOf(QCustomPlot *plot)
{
    // By name: the class has no meta-object of its own for findChild() to tell it by.
    return static_cast<PaletteFollower *>(
            plot->findChild<QObject *>(QString::fromLatin1(PaletteFollower::kName), Qt::FindDirectChildrenOnly));
}

} // namespace

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

void followPalette(QCustomPlot *plot)
{
    if (!followerOf(plot))
        new PaletteFollower(plot);
}

void forceLight(QCustomPlot *plot, bool light)
{
    if (PaletteFollower *follower = followerOf(plot))
        follower->setForceLight(light);
}

QColor paper(const QCustomPlot *plot)
{
    const PaletteFollower *follower = followerOf(const_cast<QCustomPlot *>(plot));
    return follower ? follower->paper() : kLightInk.paper;
}

QColor tintOnPaper(const QCustomPlot *plot, const QColor &tint)
{
    const QColor under = paper(plot);
    const double a = tint.alphaF();
    auto mix = [a](double top, double bottom) { return top * a + bottom * (1 - a); };
    const QColor mixed = QColor::fromRgbF(float(mix(tint.redF(), under.redF())),
                                          float(mix(tint.greenF(), under.greenF())),
                                          float(mix(tint.blueF(), under.blueF())));
    return isGreyscale(plot) ? toGrey(mixed) : mixed;
}

namespace {

constexpr char kGreyscaleProperty[] = "crossroofGreyscale";

} // namespace

void setGreyscale(QCustomPlot *plot, bool grey)
{
    plot->setProperty(kGreyscaleProperty, grey);
}

bool isGreyscale(const QCustomPlot *plot)
{
    return plot->property(kGreyscaleProperty).toBool();
}

QColor toGrey(const QColor &c)
{
    const int g = qGray(c.rgb());
    return QColor(g, g, g, c.alpha());
}

QFont annotationFont()
{
    QFont f = QApplication::font();
    f.setPointSizeF(f.pointSizeF() * 0.95);
    return f;
}

namespace {

/// Decades as QCustomPlot's log ticker places them where the range spans two or more; over less, where that
/// ticker falls back to linear steps (12.5, 15, 17.5 crowding the top of a log axis), ticks at 1, 2 and 5 times
/// the powers of ten, without minor ticks.
class LogTicker : public QCPAxisTickerLog
{
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        if (range.lower <= 0 || range.upper / range.lower >= 100)
            return QCPAxisTickerLog::createTickVector(tickStep, range);
        QVector<double> ticks;
        for (double decade = std::pow(10.0, std::floor(std::log10(range.lower))); decade <= range.upper; decade *= 10) {
            for (double m : {1.0, 2.0, 5.0}) {
                if (m * decade >= range.lower * (1 - 1e-9) && m * decade <= range.upper * (1 + 1e-9))
                    ticks << m * decade;
            }
        }
        return ticks.size() >= 2 ? ticks : QCPAxisTickerLog::createTickVector(tickStep, range);
    }
    QVector<double> createSubTickVector(int subTickCount, const QVector<double> &ticks) override
    {
        if (ticks.size() >= 2 && ticks.last() / ticks.first() < 100)
            return {};
        return QCPAxisTickerLog::createSubTickVector(subTickCount, ticks);
    }
};

} // namespace

void setLogScale(QCPAxis *axis, bool log)
{
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log == !axis->ticker().dynamicCast<QCPAxisTickerLog>().isNull())
        return; // the ticker already fits
    if (log)
        axis->setTicker(QSharedPointer<LogTicker>::create()); // minor ticks at 2, 3, ... 9 between decades
    else
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

void setupAxes(QCustomPlot *plot)
{
    // An explicit minimum: QCustomPlot's own size hint grows with every legend entry, and a long legend
    // would otherwise push the main window wider than the screen.
    plot->setMinimumSize(300, 200);
    QFont labelFont = QApplication::font();
    QFont tickFont = QApplication::font();
    tickFont.setPointSizeF(tickFont.pointSizeF() * 0.9);
    const QPen gridPen(QColor(0, 0, 0, 28), 1, Qt::SolidLine);
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        axis->setLabelFont(labelFont);
        axis->setTickLabelFont(tickFont);
        axis->grid()->setPen(gridPen);
        axis->grid()->setSubGridVisible(false);
        axis->setPadding(4);
    }
    plot->xAxis2->grid()->setVisible(false);
    plot->yAxis2->grid()->setVisible(false);
    // QCustomPlot gives its "overlay" layer a paint buffer of its own, for the selection rectangle, which no
    // view uses: an empty buffer cleared at every replot and laid over the plot at every paint. Drawn into the
    // layers' shared buffer instead (the crosshair has its own layer, see PlotNavigator).
    if (QCPLayer *overlay = plot->layer(QStringLiteral("overlay")))
        overlay->setMode(QCPLayer::lmLogical);
    followPalette(plot);
    // Model symbols with real subscripts in titles and legend entries, also those a view adds later.
    symbol_text::useSymbolText(plot);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { symbol_text::useSymbolText(plot); });
}

bool drawsPixelsAsTheyAre(const QCPPainter *painter)
{
    return !painter->modes().testFlag(QCPPainter::pmVectorized)
           && painter->transform().type() <= QTransform::TxTranslate;
}

QSize legendEntrySize(const QCPAbstractLegendItem *item)
{
    // QCPPlottableLegendItem::plottable() is not const; asking for it changes nothing.
    auto *entry = qobject_cast<QCPPlottableLegendItem *>(const_cast<QCPAbstractLegendItem *>(item));
    if (!entry || !entry->plottable() || !entry->parentLegend())
        return item->minimumOuterSizeHint();
    // What QCustomPlot measures an entry by: its text, font, margins and the legend's icon and padding.
    struct Measured
    {
        QString name;
        QFont font;
        QMargins margins;
        QSize icon;
        int padding = 0;
        QSize size;
    };
    static QHash<const QCPAbstractLegendItem *, Measured> measured;
    const QFont font = entry->selected() ? entry->selectedFont() : entry->font();
    const QCPLegend *legend = entry->parentLegend();
    if (const auto it = measured.constFind(item); it != measured.constEnd()) {
        if (it->name == entry->plottable()->name() && it->font == font && it->margins == entry->margins()
            && it->icon == legend->iconSize() && it->padding == legend->iconTextPadding()) {
            return it->size;
        }
    }
    if (measured.size() >= 256) // entries of plots long gone
        measured.clear();
    const QSize size = item->minimumOuterSizeHint();
    measured.insert(item, {entry->plottable()->name(), font, entry->margins(), legend->iconSize(),
                           legend->iconTextPadding(), size});
    return size;
}

int legendColumns(const QCPLegend *legend, double width, int most)
{
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem *item = legend->item(i)) // cells of a wrapped grid can be empty
            widths.push_back(legendEntrySize(item).width());
    }
    if (widths.empty())
        return 0;
    // Filled row by row (QCPLayoutGrid::foColumnsFirst): each column as wide as its widest entry.
    const int count = int(widths.size());
    const int spacing = legend->columnSpacing();
    for (int columns = std::min(most, count); columns > 1; --columns) {
        double total = -spacing;
        for (int column = 0; column < columns; ++column) {
            int widest = 0;
            for (int i = column; i < count; i += columns)
                widest = std::max(widest, widths[std::size_t(i)]);
            total += widest + spacing;
        }
        if (total <= width)
            return columns;
    }
    return 1;
}

void placeLegendBelow(QCustomPlot *plot)
{
    plot->legend->setVisible(true);
    plot->legend->setFont(annotationFont());
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setWrap(3); // before the fill order, which rearranges the items by it
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setColumnSpacing(14);
    plot->legend->setIconSize(32, 22);
    auto *row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    row->addElement(0, 0, plot->legend); // takes it out of the axis rect's inset layout
    row->setMargins(QMargins(0, 0, 0, 4));
    // A grid column is no wider than its narrowest element allows: without an explicit maximum the legend's
    // natural width (a few pixels when it is empty) would squeeze the axis rect above it to the same width.
    row->setMaximumSize(QWIDGETSIZE_MAX - 1, QWIDGETSIZE_MAX);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    // As many columns (up to three) as the widest entry allows at the plot's width, so that entries are not
    // cut when the plot is narrow (a small window, a single-column figure).
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        // Measured series merge their entries where the legend would take the plot's share of the height.
        legend_groups::fitBeforeReplot(plot, 3);
        QCPLegend *legend = plot->legend;
        const int columns = legendColumns(legend, plot->viewport().width() - 8, 3);
        if (columns != 0 && columns != legend->wrap()) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
    });
}

namespace {

constexpr char kFigureShareProperty[] = "crossroof_figureShare";

} // namespace

void setFigureShare(QCustomPlot *plot, double share)
{
    plot->setProperty(kFigureShareProperty, share);
}

double figureShare(const QCustomPlot *plot)
{
    const QVariant share = plot->property(kFigureShareProperty);
    return share.isValid() && share.toDouble() > 0 ? share.toDouble() : 1.0;
}

namespace {

constexpr char kShortLabelProperty[] = "crossroof_shortLabel";
constexpr char kFullLabelProperty[] = "crossroof_fullLabel";

/// The width of TEXT in FONT, remembered (a plot asks for the same titles before every replot).
int textWidth(const QFont &font, const QString &text)
{
    static QFont measuredIn;
    static QHash<QString, int> widths;
    if (font != measuredIn || widths.size() >= 256) {
        widths.clear();
        measuredIn = font;
    }
    if (const auto it = widths.constFind(text); it != widths.constEnd())
        return *it;
    const int width = QFontMetrics(font).horizontalAdvance(text);
    widths.insert(text, width);
    return width;
}

/// Shows AXIS's full title when it fits along the axis rect (as last laid out), else its short one. Figures
/// choose for themselves (the export marks the plot with kFullDetailProperty while it draws).
void fitLabelOnScreen(QCPAxis *axis)
{
    if (axis->parentPlot()->property(kFullDetailProperty).toBool())
        return;
    const QString full = fullLabel(axis);
    axis->setProperty(kFullLabelProperty, full);
    const QRect r = axis->axisRect()->rect();
    const int room = (axis->orientation() == Qt::Horizontal ? r.width() : r.height()) - 4;
    const bool fits = room <= 0
                      || (symbol_text::hasMarkup(full) ? symbol_text::width(full, axis->labelFont())
                                                       : textWidth(axis->labelFont(), full))
                                 <= room;
    const QString wanted = fits ? full : shortLabel(axis);
    if (axis->label() != wanted)
        axis->setLabel(wanted);
}

} // namespace

void setShortLabel(QCPAxis *axis, const QString &label)
{
    const bool first = !axis->property(kShortLabelProperty).isValid();
    axis->setProperty(kShortLabelProperty, label);
    if (first) {
        QObject::connect(axis->parentPlot(), &QCustomPlot::beforeReplot, axis,
                         [axis] { fitLabelOnScreen(axis); });
        // The choice before a replot goes by the layout before it: a replot after a resize may have made room
        // for the full title (or taken it). Chosen again in the new layout, and drawn once more if it changed;
        // the title's length does not change the axis rect's length along it, so this ends there.
        QObject::connect(axis->parentPlot(), &QCustomPlot::afterReplot, axis, [axis] {
            const QString before = axis->label();
            fitLabelOnScreen(axis);
            if (axis->label() != before)
                redrawSoon(axis->parentPlot());
        });
    }
}

QString shortLabel(const QCPAxis *axis)
{
    return axis->property(kShortLabelProperty).toString();
}

QString fullLabel(const QCPAxis *axis)
{
    const QString label = axis->label();
    const QString remembered = axis->property(kFullLabelProperty).toString();
    return label == shortLabel(axis) && !remembered.isEmpty() ? remembered : label;
}

namespace {
constexpr const char *kPinnedProperty = "crossroofPinnedLabel";
constexpr const char *kShortTextProperty = "crossroofShortText";
constexpr const char *kShortTitleProperty = "crossroofShortLabelsTitle";
constexpr const char *kShortPositionProperty = "crossroofShortPosition";
} // namespace

void setPinnedLabel(QCPItemText *label)
{
    label->setProperty(kPinnedProperty, true);
}

bool isPinnedLabel(const QCPItemText *label)
{
    return label->property(kPinnedProperty).toBool();
}

void setShortText(QCPItemText *label, const QString &text)
{
    label->setProperty(kShortTextProperty, text);
}

QString shortText(const QCPItemText *label)
{
    return label->property(kShortTextProperty).toString();
}

void setShortPosition(QCPItemText *label, const QPointF &coords)
{
    label->setProperty(kShortPositionProperty, coords);
}

std::optional<QPointF> shortPosition(const QCPItemText *label)
{
    const QVariant v = label->property(kShortPositionProperty);
    return v.isValid() ? std::optional<QPointF>(v.toPointF()) : std::nullopt;
}

void setShortLabelsTitle(QCPAxis *axis, const QString &title)
{
    axis->setProperty(kShortTitleProperty, title);
}

QString shortLabelsTitle(const QCPAxis *axis)
{
    return axis->property(kShortTitleProperty).toString();
}

QPainterPath starPath()
{
    QPainterPath path;
    for (int i = 0; i < 10; ++i) {
        const double r = i % 2 == 0 ? 3.0 : 1.2;
        const double a = -M_PI / 2 + i * M_PI / 5;
        const QPointF p(r * std::cos(a), r * std::sin(a));
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}

} // namespace crossroof::widgets::plot_style
