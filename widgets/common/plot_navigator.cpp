// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/plot_navigator.h"

#include "common/number_format.h"
#include "common/plot_style.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace crossroof::widgets {

namespace {

const QString kOverlayLayer = QStringLiteral("crossroof-overlay");
constexpr double kWheelZoom = 0.85; // range factor per wheel notch (120 eighths of a degree)
constexpr double kKeyZoom = 0.8;
constexpr int kPanThreshold = 3; // pixels before a press becomes a pan

/// Position along the axis in its own scale: log10 on a log axis.
double toScale(const QCPAxis *axis, double v)
{
    return axis->scaleType() == QCPAxis::stLogarithmic ? std::log10(v) : v;
}

double fromScale(const QCPAxis *axis, double s)
{
    return axis->scaleType() == QCPAxis::stLogarithmic ? std::pow(10.0, s) : s;
}

/// RANGE as it maps onto TO, given that FROM_AUTO maps onto TO_AUTO (the view's own coupling of the two
/// axes), linearly in each axis's scale. The coupling is by position on screen: where one axis runs the other
/// way (the X-graph's x = n - k over k), FROM_AUTO's lower end lies against TO_AUTO's upper end.
QCPRange mapThrough(const QCPAxis *from, const QCPRange &fromAuto, const QCPAxis *to, const QCPRange &toAuto,
                    const QCPRange &range)
{
    const double a0 = toScale(from, fromAuto.lower);
    const double a1 = toScale(from, fromAuto.upper);
    if (!(std::abs(a1 - a0) > 0) || !std::isfinite(a1 - a0))
        return toAuto;
    const bool opposite = from->rangeReversed() != to->rangeReversed();
    const double b0 = toScale(to, opposite ? toAuto.upper : toAuto.lower);
    const double b1 = toScale(to, opposite ? toAuto.lower : toAuto.upper);
    auto map = [&](double v) { return fromScale(to, b0 + (toScale(from, v) - a0) / (a1 - a0) * (b1 - b0)); };
    return QCPRange(map(range.lower), map(range.upper));
}

/// RANGE moved by PIXELS along an axis LENGTH pixels long (positive: the content follows the pointer right
/// or down).
QCPRange shifted(const QCPAxis *axis, const QCPRange &range, double pixels, double length)
{
    const double s0 = toScale(axis, range.lower);
    const double s1 = toScale(axis, range.upper);
    double d = (s1 - s0) * pixels / std::max(length, 1.0);
    if (axis->orientation() == Qt::Vertical)
        d = -d;
    if (axis->rangeReversed())
        d = -d;
    return QCPRange(fromScale(axis, s0 - d), fromScale(axis, s1 - d));
}

} // namespace

PlotNavigator *PlotNavigator::install(QCustomPlot *plot)
{
    if (PlotNavigator *existing = of(plot))
        return existing;
    return new PlotNavigator(plot);
}

PlotNavigator *PlotNavigator::of(QCustomPlot *plot)
{
    return plot->findChild<PlotNavigator *>(QString(), Qt::FindDirectChildrenOnly);
}

PlotNavigator::PlotNavigator(QCustomPlot *plot)
    : QObject(plot)
    , m_plot(plot)
{
    m_plot->setMouseTracking(true);
    if (m_plot->focusPolicy() == Qt::NoFocus)
        m_plot->setFocusPolicy(Qt::ClickFocus);
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::beforeReplot, this, &PlotNavigator::beforeReplot);
    connect(m_plot, &QCustomPlot::afterReplot, this, &PlotNavigator::updateCrosshair);
    connect(m_plot, &QCustomPlot::mousePress, this, &PlotNavigator::press);
    connect(m_plot, &QCustomPlot::mouseMove, this, &PlotNavigator::move);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &PlotNavigator::release);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *event) {
        if (m_plot->axisRect()->rect().contains(event->position().toPoint()))
            resetRanges();
    });
    connect(m_plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent *event) {
        const QPointF at = event->position();
        if (!m_plot->axisRect()->rect().contains(at.toPoint()))
            return;
        const double notches = event->angleDelta().y() / 120.0;
        if (notches != 0)
            zoom(std::pow(kWheelZoom, notches), at);
        event->accept();
    });
    const QString help = tr("Wheel: zoom; drag: pan; double-click or Home: fit");
    m_plot->setWhatsThis(m_plot->whatsThis().isEmpty() ? help : m_plot->whatsThis() + QLatin1Char('\n') + help);
}

std::array<QCPAxis *, 4> PlotNavigator::axes() const
{
    QCPAxisRect *rect = m_plot->axisRect();
    return {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atTop),
            rect->axis(QCPAxis::atRight)};
}

void PlotNavigator::beforeReplot()
{
    const auto ax = axes();
    if (!m_manual) {
        for (std::size_t i = 0; i < ax.size(); ++i)
            m_auto[i] = ax[i]->range();
        return;
    }
    // Whatever differs from what the navigator put there last time is the view's new choice.
    for (std::size_t i = 0; i < ax.size(); ++i) {
        if (ax[i]->range() != m_applied[i])
            m_auto[i] = ax[i]->range();
    }
    applyUserRanges();
}

void PlotNavigator::takeOver()
{
    if (m_manual)
        return;
    const auto ax = axes();
    for (std::size_t i = 0; i < ax.size(); ++i)
        m_auto[i] = ax[i]->range();
    m_user = {ax[0]->range(), ax[1]->range()};
    m_manual = true;
}

void PlotNavigator::applyUserRanges()
{
    const auto ax = axes();
    // The secondary axes first: a view that couples them itself (on the primary axis' rangeChanged) has the
    // last word.
    ax[2]->setRange(mapThrough(ax[0], m_auto[0], ax[2], m_auto[2], m_user[0]));
    ax[3]->setRange(mapThrough(ax[1], m_auto[1], ax[3], m_auto[3], m_user[1]));
    ax[0]->setRange(m_user[0]);
    ax[1]->setRange(m_user[1]);
    for (std::size_t i = 0; i < ax.size(); ++i)
        m_applied[i] = ax[i]->range();
}

void PlotNavigator::zoom(double factor, QPointF at)
{
    takeOver();
    const auto ax = axes();
    for (std::size_t i = 0; i < 2; ++i) {
        QCPAxis *axis = ax[i];
        axis->setRange(m_user[i]);
        const double centre = axis->pixelToCoord(i == 0 ? at.x() : at.y());
        axis->scaleRange(factor, centre);
        m_user[i] = axis->range();
    }
    applyUserRanges();
    m_plot->replot();
}

void PlotNavigator::resetRanges()
{
    if (!m_manual)
        return;
    m_manual = false;
    const auto ax = axes();
    for (std::size_t i : {2, 3, 0, 1}) // the secondary axes first, as applyUserRanges() sets them
        ax[i]->setRange(m_auto[i]);
    m_plot->replot();
}

void PlotNavigator::setUserRanges(const QCPRange &x, const QCPRange &y)
{
    takeOver();
    m_user = {x, y};
    applyUserRanges();
    m_plot->replot();
}

void PlotNavigator::press(QMouseEvent *event)
{
    const bool button = event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && !m_leftTaken);
    if (!button || !m_plot->axisRect()->rect().contains(event->position().toPoint()))
        return;
    m_panning = true;
    m_panStart = event->position();
    const auto ax = axes();
    m_panFrom = {m_manual ? m_user[0] : ax[0]->range(), m_manual ? m_user[1] : ax[1]->range()};
}

void PlotNavigator::move(QMouseEvent *event)
{
    if (m_panning && (event->buttons() & (Qt::LeftButton | Qt::MiddleButton))) {
        const QPointF d = event->position() - m_panStart;
        if (!m_manual && std::abs(d.x()) + std::abs(d.y()) < kPanThreshold)
            return;
        takeOver();
        const auto ax = axes();
        const QRect rect = m_plot->axisRect()->rect();
        m_user[0] = shifted(ax[0], m_panFrom[0], d.x(), rect.width());
        m_user[1] = shifted(ax[1], m_panFrom[1], d.y(), rect.height());
        applyUserRanges();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    showCrosshair(event->position());
}

void PlotNavigator::release(QMouseEvent *)
{
    m_panning = false;
}

QString PlotNavigator::readoutAt(QPointF at) const
{
    if (!m_plot->axisRect()->rect().contains(at.toPoint()))
        return {};
    const auto ax = axes();
    QStringList lines;
    auto line = [&](const QCPAxis *axis, double pixel) {
        const QString label = axis->label().isEmpty() ? (axis->orientation() == Qt::Horizontal ? tr("x") : tr("y"))
                                                       : axis->label();
        lines << formatReading(label, axis->pixelToCoord(pixel)); // "CS throughput = 13.87 Top/s"
    };
    line(ax[0], at.x());
    line(ax[1], at.y());
    if (ax[3]->visible() && ax[3]->tickLabels() && !ax[3]->label().isEmpty())
        line(ax[3], at.y());
    return lines.join(QLatin1Char('\n'));
}

void PlotNavigator::showCrosshair(QPointF at)
{
    const QRect rect = m_plot->axisRect()->rect();
    if (!rect.contains(at.toPoint())) {
        hideCrosshair();
        return;
    }
    bool created = false;
    if (!m_overlay) {
        if (!m_plot->layer(kOverlayLayer))
            m_plot->addLayer(kOverlayLayer, m_plot->layer(m_plot->layerCount() - 1), QCustomPlot::limAbove);
        m_overlay = m_plot->layer(kOverlayLayer);
        m_overlay->setMode(QCPLayer::lmBuffered);
    }
    const QPen pen(QColor(0, 0, 0, 110), 1, Qt::DashLine);
    for (QPointer<QCPItemLine> *line : {&m_vLine, &m_hLine}) {
        if (!*line) { // a view may clear the plot's items
            *line = new QCPItemLine(m_plot);
            (*line)->setLayer(m_overlay);
            (*line)->setPen(pen);
            (*line)->setSelectable(false);
            (*line)->start->setType(QCPItemPosition::ptAbsolute);
            (*line)->end->setType(QCPItemPosition::ptAbsolute);
            created = true;
        }
    }
    if (!m_text) {
        m_text = new QCPItemText(m_plot);
        m_text->setLayer(m_overlay);
        m_text->setSelectable(false);
        m_text->position->setType(QCPItemPosition::ptAbsolute);
        m_text->setFont(plot_style::annotationFont());
        m_text->setBrush(QColor(255, 255, 255, 225));
        m_text->setPen(QPen(QColor(0, 0, 0, 60)));
        m_text->setPadding(QMargins(4, 2, 4, 2));
        m_text->setTextAlignment(Qt::AlignLeft);
        created = true;
    }
    m_pointer = at;
    m_vLine->start->setCoords(at.x(), rect.top());
    m_vLine->end->setCoords(at.x(), rect.bottom());
    m_hLine->start->setCoords(rect.left(), at.y());
    m_hLine->end->setCoords(rect.right(), at.y());
    m_text->setText(readoutAt(at));
    // Beside the pointer, on the side with room.
    const bool right = at.x() < rect.center().x();
    const bool below = at.y() < rect.center().y();
    m_text->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) | (below ? Qt::AlignTop : Qt::AlignBottom));
    m_text->position->setCoords(at.x() + (right ? 12 : -12), at.y() + (below ? 12 : -12));
    for (QCPAbstractItem *item : {static_cast<QCPAbstractItem *>(m_vLine), static_cast<QCPAbstractItem *>(m_hLine),
                                  static_cast<QCPAbstractItem *>(m_text)}) {
        item->setVisible(true);
    }
    if (created)
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    else
        m_overlay->replot();
}

QString PlotNavigator::crosshairText() const
{
    return m_text && m_text->visible() ? m_text->text() : QString();
}

void PlotNavigator::updateCrosshair()
{
    if (!m_text || !m_text->visible())
        return;
    const QString text = readoutAt(m_pointer);
    if (text.isEmpty()) { // the axis rect moved away from the pointer
        hideCrosshair();
        return;
    }
    if (text == m_text->text())
        return;
    m_text->setText(text);
    m_overlay->replot();
}

void PlotNavigator::hideCrosshair()
{
    if (!m_vLine || !m_vLine->visible())
        return;
    for (QCPAbstractItem *item : {static_cast<QCPAbstractItem *>(m_vLine), static_cast<QCPAbstractItem *>(m_hLine),
                                  static_cast<QCPAbstractItem *>(m_text)}) {
        if (item)
            item->setVisible(false);
    }
    m_overlay->replot();
}

bool PlotNavigator::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot) {
        if (event->type() == QEvent::Leave) {
            hideCrosshair();
        } else if (event->type() == QEvent::KeyPress) {
            const auto *key = static_cast<QKeyEvent *>(event);
            const QPointF centre = QRectF(m_plot->axisRect()->rect()).center();
            switch (key->key()) {
            case Qt::Key_Home:
                resetRanges();
                return true;
            case Qt::Key_Plus:
            case Qt::Key_Equal:
                zoom(kKeyZoom, centre);
                return true;
            case Qt::Key_Minus:
                zoom(1 / kKeyZoom, centre);
                return true;
            default:
                break;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace crossroof::widgets
