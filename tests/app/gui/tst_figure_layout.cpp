// SPDX-License-Identifier: GPL-3.0-or-later
// Every view's figure at every preset, laid out as the export draws it (the same code as crossroof-cli render):
// no piece of text leaves the page or overlaps another.
#include "main_window.h"

#include "export/figure_export.h"
#include "kernels/kernel_table_view.h"
#include "state/trace_state.h"
#include "traces/trace_import_dialog.h"
#include "traces/traces_panel.h"
#include "core/session/session.h"

#include <QApplication>
#include <QTest>

#include <algorithm>

using namespace crossroof;

class TestFigureLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void textStaysOnThePageApart_data();
    void textStaysOnThePageApart();
    void measuredDataLeavesThePlotItsShare_data();
    void measuredDataLeavesThePlotItsShare();
};

void TestFigureLayout::textStaysOnThePageApart_data()
{
    QTest::addColumn<QString>("session");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("preset");
    // The flagship sample for the X-model's views, the V100 sample for measured traces on the X-graph, the
    // Clovertown sample for the Markov views; the other views show what a new window shows.
    const QStringList sessions{QStringLiteral("gtx570-thrashing"), QStringLiteral("v100-measured"),
                               QStringLiteral("clovertown-mapping")};
    const QList<widgets::FigurePreset> presets = widgets::figurePresets();
    for (const QString &view : app::MainWindow::viewNames()) {
        for (const QString &session : sessions) {
            const bool fits = session == QLatin1String("gtx570-thrashing")
                || (session == QLatin1String("v100-measured") && view == QLatin1String("xgraph"))
                || (session == QLatin1String("clovertown-mapping")
                    && (view == QLatin1String("markov") || view == QLatin1String("mapping")));
            if (!fits)
                continue;
            for (const widgets::FigurePreset &preset : presets) {
                QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3").arg(view, session, preset.id)))
                        << session << view << preset.id;
            }
        }
    }
}

void TestFigureLayout::textStaysOnThePageApart()
{
    QFETCH(QString, session);
    QFETCH(QString, view);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    window.applySession(
            core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/" + session.toStdString() + ".crossroof"));
    QVERIFY(window.showView(view));
    // The preset's size with its text and line sizes, as the Export dialog and render --preset give it.
    const widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
    const QStringList problems = widgets::figureLayoutProblems(window.figurePlots(view), options);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 8).join(QStringLiteral("\n      "))
                                             + (problems.size() > 8 ? QStringLiteral("\n      ...") : QString())));
}

void TestFigureLayout::measuredDataLeavesThePlotItsShare_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("preset");
    for (const QString &view : app::MainWindow::viewNames()) {
        for (const widgets::FigurePreset &preset : widgets::figurePresets())
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(view, preset.id))) << view << preset.id;
    }
}

void TestFigureLayout::measuredDataLeavesThePlotItsShare()
{
    // What papers show: the six V100 stream traces, the H100 kernel family (its 312 kernels as points) and the
    // H100 kernels of a real Nsight Compute export, on the H100 SXM, in every view. Every figure keeps its
    // plot's share of the height (figureLayoutProblems() checks it) with its text apart, on the page and off
    // the curves and markers.
    QFETCH(QString, view);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    QVERIFY(window.selectProfile(QStringLiteral("h100-sxm")));
    QCOMPARE(window.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")),
             QString());
    QCOMPARE(window.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/family.csv")),
             QString());
    // A plain CSV opens the column mapping: the family's kernels as points, n against GB/s with Z.
    widgets::TraceImportDialog *mapping = window.tracesPanel()->importDialog();
    QVERIFY(mapping);
    mapping->setMapping({core::TraceKind::KernelPoints, "n", "gbs", "Z", "", "", ""});
    mapping->accept();
    QCOMPARE(window.kernelTable()->loadFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv")),
             QString());
    QCOMPARE(window.traceState()->traces().size(), std::size_t(7));
    QVERIFY(window.showView(view));
    if (const QString nothing = window.nothingToDraw(view); !nothing.isEmpty())
        QSKIP(qPrintable(QStringLiteral("its figure is refused: ") + nothing));
    // The window is never shown, as for File > Export All Views of a tab not visited: the figure still holds the
    // data (the ten kernels, against the model's prediction).
    if (view == QLatin1String("prediction")) {
        const QList<QCustomPlot *> plots = window.figurePlots(view);
        int points = 0;
        for (int i = 0; i < plots.front()->graphCount(); ++i)
            points = std::max(points, plots.front()->graph(i)->dataCount());
        QCOMPARE(points, 10);
    }
    const widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
    const QStringList problems = widgets::figureLayoutProblems(window.figurePlots(view), options);
    // With CROSSROOF_FIGURE_DIR set, every figure is written there too, to be looked at.
    if (qEnvironmentVariableIsSet("CROSSROOF_FIGURE_DIR")) {
        widgets::exportFigure(window.figurePlots(view),
                              qEnvironmentVariable("CROSSROOF_FIGURE_DIR") + QStringLiteral("/%1-%2.png").arg(view, preset),
                              options);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 8).join(QStringLiteral("\n      "))));
}

QTEST_MAIN(TestFigureLayout)
#include "tst_figure_layout.moc"
