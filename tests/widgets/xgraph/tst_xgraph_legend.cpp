// SPDX-License-Identifier: GPL-3.0-or-later
// The X-graph's legend: it names what is drawn and nothing else (the basins, the unstable stretch, a measured
// f(k)), no entry is drawn over another while a slider is held, and a long name is shortened, never cut at the
// plot's edge.
#include "common/icon_legend_item.h"
#include "core/session/session.h"
#include "export/figure_export.h"
#include "xgraph_window.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace crossroof;
using namespace crossroof::widgets;

class TestXGraphLegend : public test::XGraphTest
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void legendNamesTheBasinsAndTheUnstableStretchOnlyWhenDrawn();
    void aHeldSliderDrawsNoEntryOverAnother();
    void aMeasuredSupplyIsNamedAsMeasured();
    void aLongNameIsShortenedNotCut();
    void aZoomNamesOnlyWhatItShows();

private:
    void setProfile(const char *id, double n) { QVERIFY(m_window->setProfile(id, n)); }
};

void TestXGraphLegend::init()
{
    QVERIFY(open());
}

void TestXGraphLegend::cleanup()
{
    close();
}

void TestXGraphLegend::legendNamesTheBasinsAndTheUnstableStretchOnlyWhenDrawn()
{
    const auto joined = [](const QStringList &texts) { return qPrintable(texts.join(QStringLiteral(" | "))); };
    // The H100 SXM's bundled workload has one equilibrium, stable: no basins, no dashed stretch, no unstable
    // marks, and the legend names none of them.
    setProfile("h100-sxm", 64);
    QCOMPARE(m_eval->result().stableCount(), 1);
    QVERIFY(m_view->basins().isEmpty());
    QStringList texts = legendTexts(m_plot->legend);
    QCOMPARE(texts, (QStringList{QStringLiteral("f(k): memory supply"), QStringLiteral("stable"),
                                 QStringLiteral("G(n−k): compute demand"), m_view->operatingGraph()->name()}));

    // The GTX 570's cache-thrashing workload (the paper's three equilibria: stable, unstable, stable) shades two
    // basins and dashes f where it falls faster than G: the legend names the basins (the operating point's
    // swatch first), the dashed stretch in f's entry and the unstable equilibrium.
    setProfile("gtx570-sp", 48);
    QCOMPARE(m_eval->result().stableCount(), 2);
    QCOMPARE(m_view->basins().size(), 2);
    const auto dashed = m_view->unstableSupplyGraph()->data();
    QVERIFY(std::any_of(dashed->constBegin(), dashed->constEnd(), [](const QCPGraphData &d) {
        return std::isfinite(d.value);
    }));
    texts = legendTexts(m_plot->legend);
    QCOMPARE(texts, (QStringList{QStringLiteral("f(k), dashed where unstable"), QStringLiteral("stable"),
                                 QStringLiteral("G(n−k): compute demand"), QStringLiteral("unstable"),
                                 m_view->operatingGraph()->name(), QStringLiteral("basins of attraction")}));

    // The figure draws the same entries: the SVG export's text.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("xgraph.svg"));
    QCOMPARE(exportFigure({m_plot}, path, withPreset({}, *figurePreset(QStringLiteral("single")))), QString());
    QFile svg(path);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString drawn = QString::fromUtf8(svg.readAll());
    for (const QString &text : {QStringLiteral("basins of attraction"), QStringLiteral("dashed where unstable")})
        QVERIFY2(drawn.contains(text), qPrintable(text));
    QCOMPARE(legendTexts(m_plot->legend), texts); // the screen's legend as it was

    // Back to one stable state: the entries go again.
    setProfile("h100-sxm", 64);
    texts = legendTexts(m_plot->legend);
    QVERIFY2(texts.filter(QStringLiteral("basin")).isEmpty(), joined(texts));
    QVERIFY2(texts.filter(QStringLiteral("dashed")).isEmpty(), joined(texts));
    QVERIFY2(!texts.contains(QStringLiteral("unstable")), joined(texts));
    // Nor does the figure draw them: an entry out of the legend is drawn nowhere.
    const QString again = dir.filePath(QStringLiteral("h100.svg"));
    QCOMPARE(exportFigure({m_plot}, again, withPreset({}, *figurePreset(QStringLiteral("single")))), QString());
    QFile h100(again);
    QVERIFY(h100.open(QIODevice::ReadOnly));
    const QString h100Drawn = QString::fromUtf8(h100.readAll());
    for (const QString &text : {QStringLiteral("basins of attraction"), QStringLiteral("dashed where unstable"),
                                QStringLiteral(">unstable<"), QStringLiteral("neutral equilibria")})
        QVERIFY2(!h100Drawn.contains(text), qPrintable(text));
    QVERIFY(h100Drawn.contains(QStringLiteral("f(k): memory supply")));
}


void TestXGraphLegend::aHeldSliderDrawsNoEntryOverAnother()
{
    // The H100 SXM's f has no unstable stretch: the legend holds "f(k): memory supply", and the dashed entry is
    // out of it. Mid-drag, that entry was shown where it was last laid out, its text over another entry's.
    setProfile("h100-sxm", 64);
    m_state->beginInteraction();
    for (double n = 63; n >= 56; --n) {
        m_state->setValue(QStringLiteral("n"), n);
        m_plot->replot(QCustomPlot::rpImmediateRefresh);
        QList<QRect> drawn;
        for (int i = 0; i < m_plot->layerCount(); ++i) {
            for (QCPLayerable *layerable : m_plot->layer(i)->children()) {
                auto *item = qobject_cast<QCPAbstractLegendItem *>(layerable);
                if (!item || !item->realVisibility())
                    continue;
                QVERIFY2(m_plot->legend->hasItem(item), "an entry out of the legend is drawn");
                for (const QRect &other : std::as_const(drawn))
                    QVERIFY(!other.intersects(item->outerRect()));
                drawn << item->outerRect();
            }
        }
        QVERIFY(drawn.size() >= 4);
    }
    m_state->endInteraction();
}

void TestXGraphLegend::aMeasuredSupplyIsNamedAsMeasured()
{
    // The H100 sample, whose 16 KiB trace is f(k): the legend names the trace, not "memory supply", and the
    // plateau and delta say they are the parameters' (the measured curve need not reach or turn at them).
    const core::Session session = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    QVERIFY(session.params.measured_f); // the sample's f(k); first the analytic one
    core::XModelParams analyticParams = session.params;
    analyticParams.measured_f.reset();
    m_state->setProfile(session.profile, analyticParams);
    m_traces->setTraces(session.traces);
    m_view->setTraceNames([this](const QString &id) {
        const core::MeasuredTrace *t = m_traces->trace(id);
        return t ? QString::fromStdString(t->name) : QString();
    });
    const auto labels = [this] {
        QStringList shown;
        for (int i = 0; i < m_plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(m_plot->item(i));
            if (label && label->visible() && !label->text().isEmpty())
                shown << label->text();
        }
        return shown;
    };
    m_plot->replot();
    const auto analytic = [this] {
        const QStringList texts = legendTexts(m_plot->legend);
        return texts.contains(QStringLiteral("f(k): memory supply"))
               || texts.contains(QStringLiteral("f(k), dashed where unstable"));
    };
    QVERIFY2(analytic(), qPrintable(legendTexts(m_plot->legend).join(QStringLiteral(" | "))));
    QVERIFY(labels().filter(QStringLiteral("(parameters)")).isEmpty());

    const QString id = QString::fromStdString(session.supply_trace);
    m_state->applySupplyCurve(core::measuredCurveFromTrace(*m_traces->trace(id)), id);
    m_plot->replot();
    const QStringList texts = legendTexts(m_plot->legend);
    const QString measured = QStringLiteral("f(k): measured, H100 SXM cache thrashing, 16 KiB per warp");
    QVERIFY2(texts.contains(measured) || texts.contains(measured + QStringLiteral(", dashed where unstable")),
             qPrintable(texts.join(QStringLiteral(" | "))));
    QVERIFY2(texts.filter(QStringLiteral("memory supply")).isEmpty(), qPrintable(texts.join(QStringLiteral(" | "))));
    const QStringList shown = labels();
    QVERIFY2(shown.filter(QRegularExpression(QStringLiteral("^plateau R = .* \\(parameters\\)$"))).size() == 1,
             qPrintable(shown.join(QStringLiteral(" | "))));
    for (const QString &text : shown) {
        if (text.startsWith(QStringLiteral("δ")) || text.startsWith(QStringLiteral("plateau")))
            QVERIFY2(text.endsWith(QStringLiteral("(parameters)")), qPrintable(text));
    }

    m_state->undoStack()->undo(); // the analytic f(k) again
    m_plot->replot();
    QVERIFY2(analytic(), qPrintable(legendTexts(m_plot->legend).join(QStringLiteral(" | "))));
    QVERIFY(labels().filter(QStringLiteral("(parameters)")).isEmpty());
}

void TestXGraphLegend::aLongNameIsShortenedNotCut()
{
    // The H100 sample's measured f(k) in a pane of Side by Side: "f(k): measured, H100 SXM cache thrashing,
    // 16 KiB per warp, dashed where unstable" and the trace's entry ran past the plot's right edge, cut there.
    const core::Session session = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    m_state->setProfile(session.profile, session.params);
    m_traces->setTraces(session.traces);
    m_view->resize(430, 860);
    QCoreApplication::processEvents();
    m_plot->replot();
    const QStringList texts = legendTexts(m_plot->legend);
    QVERIFY2(std::any_of(texts.cbegin(), texts.cend(),
                         [](const QString &t) { return t.startsWith(QStringLiteral("f(k): measured")) && t.size() > 70; }),
             qPrintable(texts.join(QStringLiteral(" | "))));
    // Each entry's name ends inside the entry, short of its right edge, where a cut name ran on into it.
    const QImage drawn = m_plot->toPixmap().toImage();
    const QColor background = drawn.pixelColor(m_plot->width() - 1, m_plot->legend->outerRect().top());
    int entries = 0;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        const QCPAbstractLegendItem *item = m_plot->legend->item(i);
        if (!item || !item->realVisibility())
            continue;
        ++entries;
        for (int x = item->outerRect().right() - 1; x <= item->outerRect().right(); ++x) {
            for (int y = item->rect().top(); y <= item->rect().bottom(); ++y)
                QVERIFY2(drawn.pixelColor(x, y) == background,
                         qPrintable(QStringLiteral("%1 runs to x = %2").arg(texts.value(i)).arg(x)));
        }
    }
    QCOMPARE(entries, texts.size());
}

void TestXGraphLegend::aZoomNamesOnlyWhatItShows()
{
    // Zoomed into the first warps of the H100's f(k), the operating point (k of about 59) and G (from n - pi on)
    // are off the plot: the legend names neither. Zoomed back out, both again.
    setProfile("h100-sxm", 64);
    const QStringList whole = legendTexts(m_plot->legend);
    const QString operating = m_view->operatingGraph()->name();
    QVERIFY(whole.contains(operating));
    QVERIFY(whole.contains(QStringLiteral("G(n−k): compute demand")));
    const QCPRange x = m_plot->xAxis->range();
    const QCPRange y = m_plot->yAxis->range();
    m_plot->xAxis->setRange(0, 8);
    m_plot->yAxis->setRange(0, y.upper / 4);
    m_plot->replot();
    const QStringList zoomed = legendTexts(m_plot->legend);
    QVERIFY2(!zoomed.contains(operating), qPrintable(zoomed.join(QStringLiteral(" | "))));
    QVERIFY2(!zoomed.contains(QStringLiteral("G(n−k): compute demand")),
             qPrintable(zoomed.join(QStringLiteral(" | "))));
    QVERIFY(zoomed.contains(QStringLiteral("f(k): memory supply")));
    // A zoom across G's line with none of its corners in view still names it: the line is drawn there.
    m_plot->xAxis->setRange(x.upper - 3, x.upper - 1);
    m_plot->yAxis->setRange(y);
    m_plot->replot();
    QVERIFY(legendTexts(m_plot->legend).contains(QStringLiteral("G(n−k): compute demand")));
    m_plot->xAxis->setRange(x);
    m_plot->yAxis->setRange(y);
    m_plot->replot();
    QCOMPARE(legendTexts(m_plot->legend), whole);
}

QTEST_MAIN(TestXGraphLegend)
#include "tst_xgraph_legend.moc"
