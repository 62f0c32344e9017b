// SPDX-License-Identifier: GPL-3.0-or-later
// The X-graph's axes and fit: the top axis is x = n - k of the bottom one and the right axis Z times the left
// after every zoom, pan, key, resize and change of n; Home (and opening data) fits every measured point, the
// H100 kernels beyond n included, whole markers and all.
#include "common/label_placement.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "core/traces/trace_set.h"
#include "core/traces/trace_import.h"
#include "state/trace_state.h"
#include "traces/trace_overlay.h"
#include "xgraph/xgraph_hover.h"
#include "xgraph_window.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include <qcustomplot.h>

#include <QDir>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

const QString kNcuRaw = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv");
const QString kStreamV100 = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt");

} // namespace

class TestXGraphView : public test::XGraphTest
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void wheelZoomKeepsTopAxisNMinusK();
    void panKeepsTheCoupling();
    void keysResizeAndHomeKeepTheCoupling();
    void nChangesWhileZoomed();
    void draggingNDownShrinksTheAxes();
    void homeShowsH100KernelsBeyondN();
    void selectedKernelIsWhole();
    void homeShowsTheStreamTrace();
    void landmarkLabelsStayInside();
    void landmarkLabelsKeepOffTheData();
    void aPannedAwayPeakTakesItsLabel();
    void hoverReadsThroughputsWithPrefixes();

private:
    void setProfile(const char *id, double n);
    void wheel(QPoint at, int notches);
    /// Fails unless the top axis is x = n - k and the right axis Z (in GB/s to Gop/s) times the left, in ranges
    /// and in where the ticks are drawn.
    void verifyCoupled(const char *when);
    /// Loads PATH's traces the way the main window does (the overlay first, then the view fits).
    void load(const QString &path);
    /// Fails unless every point of the overlay's graphs lies inside the axis rect with its whole marker.
    void verifyAllInside(const char *when);
};

void TestXGraphView::init()
{
    QVERIFY(open());
}

void TestXGraphView::cleanup()
{
    close();
}

void TestXGraphView::setProfile(const char *id, double n)
{
    QVERIFY(m_window->setProfile(id, n));
}

void TestXGraphView::wheel(QPoint at, int notches)
{
    QWheelEvent event(QPointF(at), m_plot->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(m_plot, &event);
}

void TestXGraphView::verifyCoupled(const char *when)
{
    m_plot->replot();
    const auto &p = m_state->params();
    const double n = p.n;
    const double gopsPerGbs = p.Z * p.warp_size / p.request_bytes;
    const QCPRange k = m_plot->xAxis->range();
    const QCPRange x = m_plot->xAxis2->range();
    const QCPRange gbs = m_plot->yAxis->range();
    const QCPRange gops = m_plot->yAxis2->range();
    const double tolK = 1e-9 * k.size();
    QVERIFY2(std::abs(x.lower - (n - k.upper)) <= tolK && std::abs(x.upper - (n - k.lower)) <= tolK,
             qPrintable(QStringLiteral("%1: k [%2, %3], n %4, top [%5, %6]")
                                .arg(QLatin1String(when))
                                .arg(k.lower).arg(k.upper).arg(n).arg(x.lower).arg(x.upper)));
    const double tolG = 1e-9 * gops.size();
    QVERIFY2(std::abs(gops.lower - gbs.lower * gopsPerGbs) <= tolG
                     && std::abs(gops.upper - gbs.upper * gopsPerGbs) <= tolG,
             qPrintable(QStringLiteral("%1: GB/s [%2, %3], Gop/s [%4, %5], factor %6")
                                .arg(QLatin1String(when))
                                .arg(gbs.lower).arg(gbs.upper).arg(gops.lower).arg(gops.upper).arg(gopsPerGbs)));
    // What a reader sees: each top tick x drawn over k = n - x, each right tick over its GB/s.
    const QVector<double> topTicks = m_plot->xAxis2->tickVector();
    QVERIFY2(topTicks.size() >= 2, when);
    for (double t : topTicks) {
        const double drawn = m_plot->xAxis2->coordToPixel(t);
        QVERIFY2(std::abs(drawn - m_plot->xAxis->coordToPixel(n - t)) < 0.01,
                 qPrintable(QStringLiteral("%1: top tick %2").arg(QLatin1String(when)).arg(t)));
    }
    const QVector<double> rightTicks = m_plot->yAxis2->tickVector();
    QVERIFY2(rightTicks.size() >= 2, when);
    for (double t : rightTicks) {
        const double drawn = m_plot->yAxis2->coordToPixel(t);
        QVERIFY2(std::abs(drawn - m_plot->yAxis->coordToPixel(t / gopsPerGbs)) < 0.01,
                 qPrintable(QStringLiteral("%1: right tick %2").arg(QLatin1String(when)).arg(t)));
    }
}

void TestXGraphView::wheelZoomKeepsTopAxisNMinusK()
{
    setProfile("v100", 48);
    verifyCoupled("as opened");
    // The report: zoomed with the wheel near the left, k = 4.02 read about 28 on the top axis for n = 48.
    const QRect rect = m_plot->axisRect()->rect();
    const QPoint at(rect.left() + rect.width() / 10, rect.center().y() + 40);
    wheel(at, 3);
    QVERIFY(PlotNavigator::of(m_plot)->isZoomed());
    verifyCoupled("after a wheel zoom near the left");
    const double kAt = 4.02;
    const double px = m_plot->xAxis->coordToPixel(kAt);
    QVERIFY(px > rect.left() && px < rect.right()); // in view
    QVERIFY(std::abs(m_plot->xAxis2->pixelToCoord(px) - 43.98) < 1e-6);
    wheel(QPoint(rect.right() - 30, rect.top() + 30), 2);
    verifyCoupled("after a second wheel zoom near the top right");
    wheel(QPoint(rect.right() - 30, rect.top() + 30), -4);
    verifyCoupled("after zooming out with the wheel");
}

void TestXGraphView::panKeepsTheCoupling()
{
    setProfile("v100", 48);
    const QPoint a = m_plot->axisRect()->rect().center();
    for (const QPoint d : {QPoint(120, 0), QPoint(-300, 0), QPoint(40, -90)}) {
        const QPoint b = a + d;
        const QCPRange before = m_plot->xAxis->range();
        QTest::mousePress(m_plot, Qt::LeftButton, {}, a);
        QMouseEvent move(QEvent::MouseMove, QPointF(b), m_plot->mapToGlobal(QPointF(b)), Qt::LeftButton,
                         Qt::LeftButton, {});
        QCoreApplication::sendEvent(m_plot, &move);
        QTest::mouseRelease(m_plot, Qt::LeftButton, {}, b);
        QVERIFY(m_plot->xAxis->range() != before); // it did pan
        verifyCoupled("after a drag pan");
    }
    // Panned to where k runs past n: x = n - k below zero there.
    QVERIFY(m_plot->xAxis2->range().lower < 0);
}

void TestXGraphView::keysResizeAndHomeKeepTheCoupling()
{
    setProfile("v100", 48);
    m_plot->setFocus();
    QTest::keyClick(m_plot, Qt::Key_Plus);
    verifyCoupled("after +");
    wheel(m_plot->axisRect()->rect().topLeft() + QPoint(50, 50), 1);
    QTest::keyClick(m_plot, Qt::Key_Minus);
    verifyCoupled("after the wheel and -");
    m_view->resize(640, 420);
    QCoreApplication::processEvents();
    verifyCoupled("after a resize, zoomed");
    QTest::keyClick(m_plot, Qt::Key_Home);
    QVERIFY(!PlotNavigator::of(m_plot)->isZoomed());
    verifyCoupled("after Home");
    QCOMPARE(m_plot->xAxis->range().upper, 48.0);
    m_view->resize(1000, 700);
    QCoreApplication::processEvents();
    verifyCoupled("after a resize");
}

void TestXGraphView::nChangesWhileZoomed()
{
    setProfile("v100", 48);
    const QRect rect = m_plot->axisRect()->rect();
    wheel(QPoint(rect.left() + 60, rect.center().y()), 2);
    const QCPRange zoomed = m_plot->xAxis->range();
    m_state->setValue(QStringLiteral("n"), 40);
    verifyCoupled("n = 40 while zoomed");
    QCOMPARE(m_plot->xAxis->range(), zoomed); // the user's zoom stays
    m_state->setValue(QStringLiteral("Z"), 2 * m_state->params().Z);
    verifyCoupled("Z doubled while zoomed");
    QTest::mouseDClick(m_plot, Qt::LeftButton, {}, rect.center());
    verifyCoupled("fitted by a double click");
    QCOMPARE(m_plot->xAxis->range().upper, 40.0);
}

void TestXGraphView::draggingNDownShrinksTheAxes()
{
    setProfile("v100", 48);
    m_state->beginInteraction();
    for (double n = 47; n >= 4; --n) {
        m_state->setValue(QStringLiteral("n"), n);
        verifyCoupled(qPrintable(QStringLiteral("n dragged to %1").arg(n)));
        // The axes hold still while the graph fills at least half of them, then follow it down: never the
        // old 0-48 with the top axis running to -44.
        QVERIFY2(m_plot->xAxis->range().upper <= 2 * n,
                 qPrintable(QStringLiteral("n = %1, k axis to %2").arg(n).arg(m_plot->xAxis->range().upper)));
        QVERIFY(m_plot->xAxis->range().upper >= n);
    }
    QVERIFY(m_plot->xAxis2->range().lower >= -4); // x = n - k runs at most n below zero
    m_state->endInteraction();
    verifyCoupled("let go");
    QCOMPARE(m_plot->xAxis->range().upper, 4.0);
}

void TestXGraphView::load(const QString &path)
{
    core::TraceFile file = core::readTraceFile(path.toStdString());
    QVERIFY(!file.traces.empty());
    m_traces->add(std::move(file.traces));
    QVERIFY(!m_overlay->graphs().isEmpty());
    m_plot->replot();
}

void TestXGraphView::verifyAllInside(const char *when)
{
    m_plot->replot();
    const QRect rect = m_plot->axisRect()->rect();
    int points = 0;
    for (QCPGraph *g : m_overlay->graphs()) {
        if (!g->visible())
            continue;
        const double half = g->scatterStyle().isNone() ? 0 : g->scatterStyle().size() / 2;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            if (!std::isfinite(it->key) || !std::isfinite(it->value))
                continue;
            ++points;
            const double px = m_plot->xAxis->coordToPixel(it->key);
            const double py = m_plot->yAxis->coordToPixel(it->value);
            QVERIFY2(m_plot->xAxis->range().contains(it->key) && m_plot->yAxis->range().contains(it->value),
                     qPrintable(QStringLiteral("%1: %2 at (%3, %4) outside the axes")
                                        .arg(QLatin1String(when), g->name()).arg(it->key).arg(it->value)));
            QVERIFY2(px - half >= rect.left() - 0.5 && px + half <= rect.right() + 1.5
                             && py - half >= rect.top() - 0.5 && py + half <= rect.bottom() + 1.5,
                     qPrintable(QStringLiteral("%1: the marker of %2 at (%3, %4) is cut: pixel (%5, %6) in %7-%8, %9-%10")
                                        .arg(QLatin1String(when), g->name())
                                        .arg(it->key).arg(it->value).arg(px).arg(py)
                                        .arg(rect.left()).arg(rect.right()).arg(rect.top()).arg(rect.bottom())));
        }
    }
    QVERIFY2(points > 0, when);
}

void TestXGraphView::homeShowsH100KernelsBeyondN()
{
    setProfile("h100-sxm", 53);
    load(kNcuRaw);
    const core::MeasuredTrace *kernels = nullptr;
    for (const auto &t : m_traces->traces()) {
        if (t.kind == core::TraceKind::KernelPoints)
            kernels = &t;
    }
    QVERIFY(kernels);
    int beyond = 0;
    for (double w : kernels->x)
        beyond += w > 53 ? 1 : 0;
    QVERIFY2(beyond > 0, "the H100 file has kernels at more warps per SM than n = 53");
    verifyAllInside("opened");
    verifyCoupled("opened");
    QVERIFY(m_plot->xAxis->range().upper > 53);
    const QString notice = m_view->dataNotice();
    QVERIFY2(notice.startsWith(beyond == 1 ? QStringLiteral("1 kernel lies beyond n = 53 warps")
                                           : QStringLiteral("%1 kernels lie beyond n = 53 warps").arg(beyond)),
             qPrintable(notice));

    // Zoomed in to a corner, then Home: all of them again.
    const QRect rect = m_plot->axisRect()->rect();
    wheel(rect.topLeft() + QPoint(40, 40), 4);
    m_plot->setFocus();
    QTest::keyClick(m_plot, Qt::Key_Home);
    verifyAllInside("after Home");
    verifyCoupled("after Home");

    if (const QByteArray dir = qgetenv("CROSSROOF_TEST_SHOTS"); !dir.isEmpty())
        m_view->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("xgraph_h100_kernels.png")));

    // n raised past every kernel: nothing to say, and the k axis back to n.
    m_state->setValue(QStringLiteral("n"), 64);
    QVERIFY(m_view->dataNotice().isEmpty());
    verifyAllInside("n = 64");
    // Hidden, they no longer count.
    m_state->setValue(QStringLiteral("n"), 40);
    QVERIFY(!m_view->dataNotice().isEmpty());
    for (const auto &t : m_traces->traces())
        m_traces->setVisible(QString::fromStdString(t.id), false);
    QVERIFY(m_view->dataNotice().isEmpty());
    QCOMPARE(m_plot->xAxis->range().upper, 40.0);
}

void TestXGraphView::selectedKernelIsWhole()
{
    setProfile("h100-sxm", 53);
    load(kNcuRaw);
    const core::MeasuredTrace *kernels = nullptr;
    for (const auto &t : m_traces->traces()) {
        if (t.kind == core::TraceKind::KernelPoints)
            kernels = &t;
    }
    QVERIFY(kernels && !kernels->labels.empty());
    // The kernel furthest right, ringed as the kernel table's selection rings it.
    std::size_t last = 0;
    for (std::size_t i = 0; i < kernels->x.size(); ++i) {
        if (kernels->x[i] > kernels->x[last])
            last = i;
    }
    m_overlay->setHighlighted({QString::fromStdString(kernels->labels[last])});
    m_view->refresh(); // as the main window does on a selection
    bool ringed = false;
    for (QCPGraph *g : m_overlay->graphs())
        ringed = ringed || (g->scatterStyle().shape() == QCPScatterStyle::ssCircle && g->scatterStyle().size() > 20);
    QVERIFY(ringed);
    verifyAllInside("a kernel selected");
}

void TestXGraphView::homeShowsTheStreamTrace()
{
    setProfile("v100", 16); // n well below the trace's warps
    load(kStreamV100);
    verifyAllInside("opened");
    verifyCoupled("opened");
    QVERIFY2(m_view->dataNotice().contains(QStringLiteral("measured points lie beyond n = 16 warps")),
             qPrintable(m_view->dataNotice()));
    m_state->setValue(QStringLiteral("n"), 64);
    wheel(m_plot->axisRect()->rect().center(), 3);
    QTest::mouseDClick(m_plot, Qt::LeftButton, {}, m_plot->axisRect()->rect().center());
    verifyAllInside("n = 64, after a double click");
    verifyCoupled("n = 64, after a double click");
}

void TestXGraphView::landmarkLabelsStayInside()
{
    // delta = R·L sits near the right edge when n is a little above it (the H100 SXM: 47.1 warps): its label
    // goes left of its line instead of being cut by the axis rect, and so does every other label.
    setProfile("h100-sxm", 64);
    for (double n = 40; n <= 64; n += 2) {
        m_state->setValue(QStringLiteral("n"), n);
        m_plot->replot();
        const QRectF area = QRectF(m_plot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
        for (int i = 0; i < m_plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(m_plot->item(i));
            if (!label || !label->visible() || label->text().isEmpty() || !label->clipToAxisRect())
                continue;
            const QRectF glyphs = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                                          .normalized()
                                          .marginsRemoved(QMarginsF(label->padding()));
            QVERIFY2(area.contains(glyphs), qPrintable(QStringLiteral("n = %1: '%2' is cut").arg(n).arg(label->text())));
        }
    }
}

void TestXGraphView::aPannedAwayPeakTakesItsLabel()
{
    // The GTX 570's cache-thrashing workload has a cache peak ψ. Panned so that the peak is just left of the plot,
    // its label goes with it, out of view, rather than staying in the plot's corner away from its marker; panned
    // back, it is by its peak again.
    setProfile("gtx570-sp", 48);
    QCPItemText *psi = nullptr;
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        auto *label = qobject_cast<QCPItemText *>(m_plot->item(i));
        if (label && label->visible() && label->text().startsWith(QStringLiteral("ψ")))
            psi = label;
    }
    QVERIFY2(psi, "no cache peak label");
    const QPointF peak = psi->position->coords();
    const QCPRange home = m_plot->xAxis->range();
    const QCPRange values = m_plot->yAxis->range();
    const QRectF area = m_plot->axisRect()->rect();
    const auto glyphs = [psi] {
        return QRectF(psi->topLeft->pixelPosition(), psi->bottomRight->pixelPosition()).normalized();
    };
    m_plot->xAxis->setRange(peak.x() + home.size() / 20, peak.x() + home.size() * 1.05);
    m_plot->replot();
    QVERIFY2(!glyphs().intersects(area), "the label stays in view without its peak");
    m_plot->yAxis->setRange(peak.y() + m_plot->yAxis->range().size() / 20, peak.y() + m_plot->yAxis->range().size());
    m_plot->xAxis->setRange(home);
    m_plot->replot();
    QVERIFY2(!glyphs().intersects(area), "the label stays in view without its peak (below)");
    m_plot->yAxis->setRange(values);
    m_plot->replot();
    QVERIFY(glyphs().intersects(area));
    QCOMPARE(psi->position->coords(), peak);
}

void TestXGraphView::landmarkLabelsKeepOffTheData()
{
    // The GTX 570's bistable workload with the six V100 stream traces over it, as the measured sample shows it:
    // every landmark label is drawn where it crosses no curve and covers no marker, near what it names.
    setProfile("gtx570-sp", 48);
    core::TraceFile file = core::readTraceFile(kStreamV100.toStdString());
    m_traces->add(std::move(file.traces));
    // At its size, and after the model changed in a tiny window that was then made larger (a layout with no
    // change of the model: the labels were once left where the tiny layout had put them, off the plot).
    for (const QSize size : {QSize(900, 600), QSize(1500, 950)}) {
        if (size.width() > 1000) {
            m_view->resize(320, 240);
            QCoreApplication::processEvents();
            m_state->setValue(QStringLiteral("n"), 47);
            m_state->setValue(QStringLiteral("n"), 48);
            QCoreApplication::processEvents();
            m_plot->replot();
        }
        m_view->resize(size);
        QCoreApplication::processEvents();
        m_plot->replot(); // lays out; the labels are placed after each layout
        const std::vector<DataShape> shapes = dataShapes(m_plot);
        const QRectF area = QRectF(m_plot->axisRect()->rect()).adjusted(-1, -1, 1, 1);
        QStringList shown;
        for (int i = 0; i < m_plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(m_plot->item(i));
            if (!label || !label->visible() || label->text().isEmpty() || !label->clipToAxisRect())
                continue;
            shown << label->text();
            QVERIFY2(area.contains(glyphBox(label)), qPrintable(label->text() + QStringLiteral(" is outside the plot")));
            for (const DataShape &shape : shapes)
                QVERIFY2(!crosses(glyphBox(label), shape), qPrintable(label->text() + QStringLiteral(" crosses ") + shape.name));
        }
        QVERIFY2(shown.size() >= 4, qPrintable(shown.join(QStringLiteral(" | "))));
        QVERIFY2(std::any_of(shown.begin(), shown.end(),
                             [](const QString &t) { return t.startsWith(QStringLiteral("plateau R")); }),
                 qPrintable(shown.join(QStringLiteral(" | "))));
    }
}


void TestXGraphView::hoverReadsThroughputsWithPrefixes()
{
    // The H100's compute side runs to tens of thousands of Gop/s: the hover over an equilibrium and over G reads
    // them under their prefix ("25.1 Top/s"), never as "2.51e+04 Gop/s".
    setProfile("h100-sxm", 64);
    const core::XModel model(m_state->params());
    const core::XGraphResult r = model.solve();
    QVERIFY(!r.equilibria.empty());
    const auto &e = r.equilibria.front();
    const QString equilibrium = describeXGraphAt(model, r, e.k, e.ms_gbs, 0.01, 0.01);
    QVERIFY2(equilibrium.startsWith(QStringLiteral("Equilibrium")) && equilibrium.contains(QStringLiteral("op/s"))
                     && !equilibrium.contains(QStringLiteral("e+")),
             qPrintable(equilibrium));
    const double k = 2;
    const double g = model.toGbs(model.csDemand(model.params().n - k));
    const QString demand = describeXGraphAt(model, r, k, g, 0.01, 0.01);
    QVERIFY2(demand.startsWith(QStringLiteral("G(x)")) && demand.contains(QStringLiteral("Top/s"))
                     && !demand.contains(QStringLiteral("e+")),
             qPrintable(demand));
}

QTEST_MAIN(TestXGraphView)
#include "tst_xgraph_view.moc"
