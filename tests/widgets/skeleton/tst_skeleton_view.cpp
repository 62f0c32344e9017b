// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "common/plot_style.h"
#include "export/export_guard.h"
#include "export/figure_export.h"
#include "export/figure_text.h"
#include "export/figure_units.h"
#include "skeleton/gantt_boxes.h"
#include "skeleton/graph_links.h"
#include "skeleton/skeleton_evaluation.h"
#include "skeleton/skeleton_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QUndoStack>

#include <map>

using namespace crossroof;
using namespace crossroof::widgets;

class TestSkeletonView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_state = new ParameterState(this);
        // The X-graph on the CPU the skeletons are projected on (a GPU refuses them: useAcrossMachineKinds).
        const core::HardwareProfile &knl = *core::findBundledProfile("xeon-phi-7210");
        m_state->setProfile(knl, knl.params);
        m_view = new SkeletonView(m_state);
    }
    void cleanup()
    {
        delete m_view;
        delete m_state;
    }

    void haccmkIsProjectedAtStart()
    {
        QVERIFY(m_view->projection());
        QCOMPARE(m_view->profileId(), QStringLiteral("xeon-phi-7210"));
        QCOMPARE(m_view->projection()->best_unroll, 6);
        // Cycles against unroll: 16 factors, the best one marked.
        QCOMPARE(m_view->unrollPlot()->graph(0)->dataCount(), 16);
        QCOMPARE(m_view->unrollPlot()->graph(0)->data()->at(0)->value, 5.625);
        QCOMPARE(m_view->unrollPlot()->graph(1)->data()->at(0)->key, 6.0);
        // The graph: one label and one dot per statement and one line per edge, each line from its statement's
        // label to the other's; the Gantt chart: an issue and a latency box per statement of the four copies,
        // those of the critical path in its colour.
        const auto &g = m_view->projection()->graph;
        QCOMPARE(m_view->graphPlot()->itemCount(), int(g.nodeCount()));
        QCOMPARE(linkCount(), std::pair(g.edges.size(), g.nodeCount()));
        QVERIFY(!m_view->graphLinks()[1]->edges().empty()); // the critical path
        for (const GraphLinks::Edge &e : m_view->graphLinks()[0]->edges())
            QVERIFY(e.from != e.to && e.from->parentPlot() == m_view->graphPlot());
        QCOMPARE(ganttBoxCount(), long(4 * g.nodeCount()));
        QVERIFY(!m_view->ganttBoxes()[1]->issues().empty());
        QVERIFY(!m_view->ganttBoxes()[0]->issues().empty());
        QVERIFY(m_view->readout()->text().contains(QLatin1String("Best unroll 6")));
    }

    void bestUnrollIsWhereTheCurveSaysSo()
    {
        // HACCmk on the KNL: "Best unroll 4" sat beside a curve where unroll 8 took 37 % fewer cycles, the
        // reason (52 values live for 32 registers) only in the prose. The curve now counts the spill code,
        // one store and one reload per value beyond 32 (KNL: one store pipeline, issue width 2: one cycle
        // each), and the best factor is the smallest within 5 % of its least.
        const QCPGraph *curve = m_view->unrollPlot()->graph(0);
        const QCPGraph *alone = m_view->unrollPlot()->graph(3);
        QCOMPARE(curve->dataCount(), 16);
        QCOMPARE(alone->data()->at(7)->value, 119 / 128.0);         // unroll 8: 119 cycles, 8 x 16 lanes
        QCOMPARE(curve->data()->at(7)->value, (119 + 54) / 128.0);  // 86 values live: 54 spilled
        QCOMPARE(curve->data()->at(5)->value, (100 + 34) / 96.0);   // unroll 6: 66 live
        QCOMPARE(curve->data()->at(3)->value, (94 + 20) / 64.0);    // unroll 4: 52 live
        double least = curve->data()->at(0)->value;
        for (int i = 0; i < curve->dataCount(); ++i)
            least = std::min(least, curve->data()->at(i)->value);
        QCOMPARE(least, curve->data()->at(7)->value);
        const double bestY = m_view->unrollPlot()->graph(1)->data()->at(0)->value;
        QCOMPARE(bestY, curve->data()->at(5)->value);
        QVERIFY(bestY <= 1.05 * least);
        for (int i = 0; i < 5; ++i)
            QVERIFY(curve->data()->at(i)->value > 1.05 * least);
        // The register limit drawn between unroll 2 (26 values) and 3 (39), and named.
        QCPItemStraightLine *limit = nullptr;
        QStringList texts;
        for (int i = 0; i < m_view->unrollPlot()->itemCount(); ++i) {
            if (auto *line = qobject_cast<QCPItemStraightLine *>(m_view->unrollPlot()->item(i)))
                limit = line;
            if (auto *text = qobject_cast<QCPItemText *>(m_view->unrollPlot()->item(i)))
                texts << text->text();
        }
        QVERIFY(limit);
        QCOMPARE(limit->point1->coords().x(), 2.5);
        QVERIFY2(texts.contains(QStringLiteral("32 registers: spills from unroll 3")), qPrintable(texts.join(u'|')));
        QVERIFY(texts.contains(QStringLiteral("best: 6")));
        QCOMPARE(m_view->unrollPlot()->graph(1)->name(), QStringLiteral("best: 6"));
        QVERIFY(m_view->unrollPlot()->legend->visible());
    }

    void theSampleBoxNamesTheSampleShown()
    {
        // HACCmk at the start, and each sample loaded, is named in the Sample box; an edit makes it the user's own.
        QComboBox *box = nullptr;
        for (QComboBox *b : m_view->findChildren<QComboBox *>()) {
            if (b->itemText(0) == QStringLiteral("(your own)"))
                box = b;
        }
        QVERIFY(box);
        QCOMPARE(box->currentText(), QStringLiteral("haccmk.skel"));
        QVERIFY(m_view->loadSample(QStringLiteral("nekbone-glsc3i.skel")));
        QCOMPARE(box->currentText(), QStringLiteral("nekbone-glsc3i.skel"));
        m_view->setText(m_view->text() + QStringLiteral("\n"));
        QCOMPARE(box->currentIndex(), 0);
    }

    void theScheduleHasALegend()
    {
        const QCPLegend *legend = m_view->ganttPlot()->legend;
        QVERIFY(legend->visible());
        QStringList names;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
                names << item->plottable()->name();
        QCOMPARE(names, (QStringList{QStringLiteral("issue"), QStringLiteral("critical path")}));
        // The paler latency bars are named by the axis, and the legend stands outside the lanes it would cover.
        QCOMPARE(m_view->ganttPlot()->xAxis->label(), QStringLiteral("cycle (paler: latency)"));
        QVERIFY(!m_view->ganttPlot()->axisRect()->insetLayout()->elements(false).contains(m_view->ganttPlot()->legend));
    }

    void useAcrossMachineKinds()
    {
        // An A100 in the X-graph: a Xeon Phi core's Z and E are not written into it, and the view says why.
        const core::HardwareProfile &a100 = *core::findBundledProfile("a100-40");
        m_state->setProfile(a100, a100.params);
        const double z = m_state->params().Z, e = m_state->params().E;
        const int steps = m_state->undoStack()->count();
        m_view->useInXGraph();
        QCOMPARE(m_state->params().Z, z);
        QCOMPARE(m_state->params().E, e);
        QCOMPARE(m_state->undoStack()->count(), steps);
        QVERIFY(m_view->useNote()->isVisibleTo(m_view));
        QVERIFY2(m_view->useNote()->text().startsWith(QLatin1String("Not used: the X-graph shows A100")),
                 qPrintable(m_view->useNote()->text()));
        QVERIFY(m_view->useNote()->text().contains(QLatin1String("GPU")));
        // Another CPU: set, and the note says where from and where to.
        const core::HardwareProfile &epyc = *core::findBundledProfile("epyc-9654");
        m_state->setProfile(epyc, epyc.params);
        m_view->useInXGraph();
        QCOMPARE(m_state->params().Z, *m_view->workload()->Z);
        const QString note = m_view->useNote()->text();
        QVERIFY2(note.startsWith(QLatin1String("Set Z = 7 and E = ")) && note.contains(QLatin1String("at unroll 4"))
                         && note.contains(QLatin1String("another CPU")),
                 qPrintable(note));
    }

    void aSyntaxErrorMarksThePlotsStale()
    {
        QVERIFY(!m_view->isStale());
        m_view->setText(QStringLiteral("def m ()\n{\n  fp x a\n}\n"));
        QVERIFY(m_view->isStale());
        for (QCustomPlot *plot : m_view->figurePlots()) {
            int marks = 0;
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                    marks += text->text().startsWith(QLatin1String("Stale")) ? 1 : 0;
            QCOMPARE(marks, 1);
        }
        QVERIFY(m_view->readout()->text().startsWith(QLatin1String("<b>Stale</b>")));
        QVERIFY(!m_view->useButton()->isEnabled());
        m_view->setText(QStringLiteral("def m ()\n{\n  for i = 0:64 { ld a; fp b: a, c }\n}\n"));
        QVERIFY(!m_view->isStale());
        for (QCustomPlot *plot : m_view->figurePlots())
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                    QVERIFY(!text->text().startsWith(QLatin1String("Stale")));
        QVERIFY(m_view->useButton()->isEnabled());
    }

    void fiveThousandStatementsAreShown()
    {
        // A skeleton of 5,000 statements, each fp or fma on the results before it and a load every fifth: the
        // view projects it and shows every statement in the graph and in the schedule.
        QString text = QStringLiteral("def main ()\n{\n    for i = 0:100\n    {\n        forall j = 0:1000\n        {\n");
        constexpr int kStatements = 5000;
        for (int k = 0; k < kStatements; ++k) {
            if (k % 5 == 0)
                text += QStringLiteral("            ld a%1\n").arg(k);
            else if (k % 5 == 4)
                text += QStringLiteral("            fma a%1: a%2, a%3, a%4\n").arg(k).arg(k - 1).arg(k - 3).arg(k - 4);
            else
                text += QStringLiteral("            fp a%1: a%2\n").arg(k).arg(k - 1);
        }
        text += QStringLiteral("        }\n    }\n}\n");
        m_view->setText(text);
        QCOMPARE(m_view->error(), QString());
        QVERIFY(m_view->projection());
        const auto &g = m_view->projection()->graph;
        QCOMPARE(g.nodeCount(), std::size_t(kStatements));
        QCOMPARE(m_view->graphPlot()->itemCount(), int(g.nodeCount()));
        QCOMPARE(linkCount(), std::pair(g.edges.size(), g.nodeCount()));
        QCOMPARE(ganttBoxCount(), long(m_view->unroll()) * long(g.nodeCount()));
        QVERIFY(m_view->readout()->text().contains(QLatin1String("Critical path")));
        QVERIFY(m_view->useButton()->isEnabled());
        // Drawn, every plot of it.
        m_view->resize(1200, 900);
        QVERIFY(!m_view->grab().isNull());
        // The next edit projects the skeleton again.
        text.replace(QStringLiteral("fp a1: a0"), QStringLiteral("fma a1: a0, a0"));
        m_view->setText(text);
        QCOMPARE(m_view->error(), QString());
        QCOMPARE(m_view->projection()->graph.nodeCount(), std::size_t(kStatements));
    }

    void typingProjectsOnceItPauses()
    {
        // Each keystroke used to project the whole skeleton again (half a second at 5,000 statements): edits in
        // quick succession now wait for a pause of kEditPauseMs and are projected once, from the last text.
        m_view->setText(QStringLiteral("def m ()\n{\n  for i = 0:64 { ld a; fp b: a }\n}\n"));
        QCOMPARE(m_view->projection()->graph.nodeCount(), std::size_t(2)); // a text set whole: at once
        QSignalSpy projected(m_view->evaluation(), &SkeletonEvaluation::updated);
        QTextCursor cursor = m_view->editor()->textCursor();
        cursor.setPosition(int(m_view->text().indexOf(QStringLiteral("fp b: a")) + 7));
        m_view->editor()->setTextCursor(cursor);
        QTest::keyClicks(m_view->editor(), QStringLiteral("; fp c: b; fma d: c, a"));
        QCOMPARE(projected.count(), 0);
        QVERIFY(m_view->editPending());
        QCOMPARE(m_view->projection()->graph.nodeCount(), std::size_t(2));
        QTRY_COMPARE_WITH_TIMEOUT(projected.count(), 1, 5000);
        QTest::qWait(2 * SkeletonView::kEditPauseMs);
        QCOMPARE(projected.count(), 1);
        QVERIFY(!m_view->editPending());
        QCOMPARE(m_view->error(), QString());
        QCOMPARE(m_view->projection()->graph.nodeCount(), std::size_t(4));
        // "Use in X-graph" right after typing uses what was typed: the text is projected first.
        QTest::keyClicks(m_view->editor(), QStringLiteral("; ld e; fp f: e"));
        QVERIFY(m_view->editPending());
        m_view->useInXGraph();
        QCOMPARE(projected.count(), 2);
        QVERIFY(!m_view->editPending());
        QCOMPARE(m_view->projection()->graph.nodeCount(), std::size_t(6));
        QCOMPARE(m_state->params().E, m_view->workload()->E);
        // The profile or the unroll factor changes the projection at once.
        m_view->setUnroll(2);
        QCOMPARE(projected.count(), 3);
    }

    void errorsKeepTheLastGoodResult()
    {
        const double before = m_view->projection()->critical.cycles;
        m_view->setText(QStringLiteral("def m ()\n{\n  fp x a\n}\n"));
        QVERIFY(m_view->error().contains(QLatin1String("line 3, column 8")));
        QVERIFY(m_view->errorLabel()->text().contains(QLatin1String("expected ':'")));
        QCOMPARE(m_view->projection()->critical.cycles, before);
        QCOMPARE(m_view->unrollPlot()->graph(0)->dataCount(), 16);
        m_view->setText(QStringLiteral("def m ()\n{\n  for i = 0:64 { ld a; fp b: a, c }\n}\n"));
        QVERIFY(m_view->error().isEmpty());
        QCOMPARE(m_view->projection()->critical.cycles, 5 + 6.0);
    }

    void useInXGraphIsOneUndoStep()
    {
        const double z = m_state->params().Z;
        const double e = m_state->params().E;
        m_view->setUnroll(1);
        m_view->useInXGraph();
        QCOMPARE(m_state->params().Z, 7.0);
        QCOMPARE(m_state->params().E, (4 * 5 + 24 * 6) / 90.0);
        m_state->undoStack()->undo();
        QCOMPARE(m_state->params().Z, z);
        QCOMPARE(m_state->params().E, e);
    }

    void otherCoreModel()
    {
        QVERIFY(m_view->setProfile(QStringLiteral("epyc-9654")));
        QVERIFY(!m_view->setProfile(QStringLiteral("v100")));
        QCOMPARE(m_view->profileId(), QStringLiteral("epyc-9654"));
        // Zen 4: FP loads 7 cycles, fp 3, fma 4.
        QCOMPARE(m_view->projection()->critical.cycles, 7 + 3 + 3 + 4 * 3 + 4 * 5 + 3 * 4.0);
    }

    void measuredCyclesAgainstTheProjection()
    {
        // Typed into the table: the error is (projected - measured) / measured, the point goes on the chart.
        QTableWidget *table = m_view->measuredTable();
        const double projected = m_view->projection()->point(2).total_cycles;
        QCOMPARE(table->item(1, SkeletonView::ProjectedColumn)->text(), QString::number(projected, 'f', 0));
        table->item(1, SkeletonView::MeasuredColumn)->setText(QString::number(projected * 1.25, 'f', 3));
        QCOMPARE(table->item(1, SkeletonView::ErrorColumn)->text(), QStringLiteral("-20.0 %"));
        QCOMPARE(m_view->unrollPlot()->graph(2)->dataCount(), 1);
        QCOMPARE(m_view->measured().size(), std::size_t(1));
        QCOMPARE(m_view->measured().front().first, 2);

        // Not a number: no error, a tooltip says why, nothing drawn for it.
        table->item(4, SkeletonView::MeasuredColumn)->setText(QStringLiteral("fast"));
        QVERIFY(table->item(4, SkeletonView::ErrorColumn)->text().isEmpty());
        QVERIFY(table->item(4, SkeletonView::MeasuredColumn)->toolTip().contains(QStringLiteral("fast")));
        QCOMPARE(m_view->unrollPlot()->graph(2)->dataCount(), 1);

        // Saved and restored with the view's settings.
        const core::SkeletonSettings saved = m_view->settings();
        QCOMPARE(saved.measured.size(), std::size_t(1));
        SkeletonView other(m_state);
        other.setSettings(saved);
        QCOMPARE(other.measuredTable()->item(1, SkeletonView::ErrorColumn)->text(), QStringLiteral("-20.0 %"));
    }

    void aSingleColumnFigureNamesEveryLane()
    {
        // The EPYC 9654's Zen 4 core (2 FP, 3 load, 2 store and 4 integer pipelines) on Nekbone's glsc3i: the
        // schedule has a lane for each unit of the kinds it uses, and a single-column figure (85 x 60 mm, three
        // plots) names every lane, on the left and the right in turn where a lane is shorter than a line, with
        // no text cut, crossing or off the page.
        QVERIFY(m_view->setProfile(QStringLiteral("epyc-9654")));
        QVERIFY(m_view->loadSample(QStringLiteral("nekbone-glsc3i.skel")));
        QVERIFY(m_view->projection());
        const auto lanes = m_view->ganttPlot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(lanes);
        const QStringList names = lanes->ticks().values();
        QCOMPARE(names, (QStringList{QStringLiteral("fp0"), QStringLiteral("fp1"), QStringLiteral("load0"),
                                     QStringLiteral("load1"), QStringLiteral("load2")}));
        const widgets::FigureOptions single = withPreset({}, *figurePreset(QStringLiteral("single")));
        const QStringList problems = figureLayoutProblems(m_view->figurePlots(), single);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        const QString path = dir.filePath(QStringLiteral("skeleton.svg"));
        QCOMPARE(exportFigure(m_view->figurePlots(), path, single), QString());
        QFile svg(path);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString drawn = QString::fromUtf8(svg.readAll());
        for (const QString &name : names)
            QVERIFY2(drawn.contains(QLatin1Char('>') + name + QLatin1Char('<')), qPrintable(name));
        // On the screen, tall enough for a name a lane: all on the left.
        m_view->ganttPlot()->setViewport(QRect(0, 0, 600, 400)); // the view is not shown: no resize event
        m_view->ganttPlot()->replot();
        m_view->ganttPlot()->replot(); // the ticks are made before the layout: the second sees its height
        QStringList left, right;
        for (const QString &label : m_view->ganttPlot()->yAxis->tickVectorLabels())
            left << label;
        for (const QString &label : m_view->ganttPlot()->yAxis2->tickVectorLabels()) {
            if (!label.isEmpty())
                right << label;
        }
        QCOMPARE(left, names);
        QVERIFY2(right.isEmpty(), qPrintable(right.join(QLatin1Char(' '))));
    }

    void theGraphWrapsAtASingleColumnWithNoEdgeBehindANode()
    {
        // HACCmk's graph has 15 depths. At a single column's width (482 pixels of 85 mm at 0.5 pt a pixel), in
        // 8 pt text (16 pixels) as a figure draws it, side by side its nodes would be squeezed into each other
        // with the edges behind them. Laid out, the statements' names do not fit: the nodes are numbered (the
        // axis title says so), the depths wrap into rows, every node's box is whole in the plot and apart from
        // every other, and no edge runs behind a box it does not end at.
        QCustomPlot *plot = m_view->graphPlot();
        QList<QCPItemText *> labels;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *label = qobject_cast<QCPItemText *>(plot->item(i));
            QVERIFY(label);
            QFont font = label->font();
            font.setPixelSize(16);
            label->setFont(font);
            labels << label;
        }
        QCOMPARE(labels.size(), 28);
        plot->setViewport(QRect(0, 0, 482, 260)); // the view is not shown: no resize event
        plot->replot();
        for (const QCPItemText *label : labels)
            QCOMPARE(label->text(), plot_style::shortText(label));
        QCOMPARE(plot->xAxis->label(), plot_style::shortLabelsTitle(plot->xAxis));
        const QRectF inside = plot->axisRect()->rect();
        QList<QRectF> boxes;
        for (const QCPItemText *label : labels) {
            const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
            QVERIFY2(inside.contains(box), qPrintable(label->text()));
            for (const QRectF &other : boxes)
                QVERIFY2(!box.intersects(other), qPrintable(label->text()));
            boxes << box;
        }
        // Two rows: the first node (ld zz1) above the last (fma zi).
        QVERIFY(boxes.front().bottom() < boxes.back().top());
        const QStringList behind = edgesBehindNodes(plot, labels);
        QVERIFY2(behind.isEmpty(), qPrintable(behind.join(QLatin1Char('\n'))));
    }

    void everyFigureRoutesTheEdgesAroundTheNodes()
    {
        // As the figure draws HACCmk's graph at every preset, in colour and greyscale: every node whole in the
        // plot and apart from the others, and no edge behind a node it does not end at.
        const QList<QCustomPlot *> plots = m_view->figurePlots();
        QCustomPlot *plot = m_view->graphPlot();
        for (const FigurePreset &preset : figurePresets()) {
            for (const FigureStyle style : {FigureStyle::Colour, FigureStyle::Greyscale}) {
                FigureOptions options = withPreset({}, preset);
                options.style = style;
                const figure::ExportGuard guard(plots, options);
                figure::layOutText(plots, figure::canvasWidth(options), figure::canvasHeight(options));
                QList<QCPItemText *> labels;
                for (int i = 0; i < plot->itemCount(); ++i) {
                    if (auto *label = qobject_cast<QCPItemText *>(plot->item(i)); label && label->visible())
                        labels << label;
                }
                QCOMPARE(labels.size(), 28);
                const QRectF inside = plot->axisRect()->rect();
                QList<QRectF> boxes;
                for (const QCPItemText *label : labels) {
                    const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
                    QVERIFY2(inside.contains(box), qPrintable(preset.id + QLatin1Char(' ') + label->text()));
                    for (const QRectF &other : boxes)
                        QVERIFY2(!box.intersects(other), qPrintable(preset.id + QLatin1Char(' ') + label->text()));
                    boxes << box;
                }
                const QStringList behind = edgesBehindNodes(plot, labels);
                QVERIFY2(behind.isEmpty(), qPrintable(preset.id + QLatin1Char(' ') + behind.join(QLatin1Char('\n'))));
            }
        }
    }

    void theGraphTakesTheShareItsRowsNeed()
    {
        // HACCmk's graph, numbered, needs two rows at a single column's width and fits one at a double column's:
        // a figure gives it more of its height at a single column than at a double one (at most what leaves the
        // schedule and the unroll curve room for their text), and at no preset does any text run into other
        // text or off the page.
        std::map<QString, double> share;
        for (const QString &id : {QStringLiteral("single"), QStringLiteral("double"), QStringLiteral("slide")}) {
            const widgets::FigureOptions options = withPreset({}, *figurePreset(id));
            const QStringList problems = figureLayoutProblems(m_view->figurePlots(), options);
            QVERIFY2(problems.isEmpty(), qPrintable(id + QLatin1Char(':') + problems.join(QLatin1Char('\n'))));
            share[id] = plot_style::figureShare(m_view->graphPlot());
        }
        QVERIFY(share[QStringLiteral("single")] > share[QStringLiteral("double")]);
    }

private:
    /// Each edge of the graph, as PLOT draws it now, that runs behind one of LABELS (the nodes) it does not end
    /// at: "from -> to behind node"; none where the graph draws no edge at all.
    QStringList edgesBehindNodes(QCustomPlot *plot, const QList<QCPItemText *> &labels) const
    {
        QStringList behind;
        int pieces = 0;
        for (const GraphLinks *links : m_view->graphLinks()) {
            for (const GraphLinks::Edge &e : links->edges()) {
                for (qsizetype i = 1; i < e.route.size(); ++i) {
                    const QLineF piece(plot->xAxis->coordToPixel(e.route[i - 1].x()),
                                       plot->yAxis->coordToPixel(e.route[i - 1].y()),
                                       plot->xAxis->coordToPixel(e.route[i].x()),
                                       plot->yAxis->coordToPixel(e.route[i].y()));
                    ++pieces;
                    for (const QCPItemText *label : labels) {
                        if (label == e.from || label == e.to)
                            continue;
                        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                                                   .normalized()
                                                   .adjusted(1, 1, -1, -1);
                        // Sampled every half pixel along the piece.
                        const int steps = int(piece.length() * 2) + 1;
                        for (int t = 0; t <= steps; ++t) {
                            if (box.contains(piece.pointAt(double(t) / steps))) {
                                behind << QStringLiteral("%1 -> %2 behind %3").arg(e.from->text(), e.to->text(), label->text());
                                break;
                            }
                        }
                    }
                }
            }
        }
        if (pieces == 0)
            behind << QStringLiteral("no edge drawn");
        return behind;
    }

    /// The graph's edges and dots, off the critical path and on it together.
    std::pair<std::size_t, std::size_t> linkCount() const
    {
        std::size_t edges = 0, dots = 0;
        for (const GraphLinks *links : m_view->graphLinks()) {
            edges += links->edges().size();
            dots += links->dots().size();
        }
        return {edges, dots};
    }

    /// The boxes of the schedule chart, each statement of each copy one issue box and one latency box: their
    /// count, or -1 when the two differ.
    long ganttBoxCount() const
    {
        std::size_t issues = 0, latencies = 0;
        for (const GanttBoxes *boxes : m_view->ganttBoxes()) {
            issues += boxes->issues().size();
            latencies += boxes->latencies().size();
        }
        return issues == latencies ? long(issues) : -1;
    }

    ParameterState *m_state = nullptr;
    SkeletonView *m_view = nullptr;
};

QTEST_MAIN(TestSkeletonView)
#include "tst_skeleton_view.moc"
