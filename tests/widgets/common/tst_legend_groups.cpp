// SPDX-License-Identifier: GPL-3.0-or-later
// Legends that merge their measured series' entries to leave the plot its share of the height, and split them
// again when there is room.
#include "common/legend_groups.h"
#include "common/plot_style.h"
#include "common/static_text.h"
#include "export/figure_export.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QTest>

using namespace crossroof::widgets;

namespace {

/// A plot with three model curves and, as measured series, six traces of one file and one kernel set of
/// another.
void fill(QCustomPlot &plot)
{
    plot_style::setupAxes(&plot);
    plot_style::placeLegendBelow(&plot);
    for (const char *name : {"f(k): memory supply", "G(n-k): compute demand", "operating point"})
        plot.addGraph()->setName(QString::fromLatin1(name));
    const QStringList traces{QStringLiteral("v100 init"), QStringLiteral("v100 read"), QStringLiteral("v100 scale"),
                             QStringLiteral("v100 triad"), QStringLiteral("v100 3pt"), QStringLiteral("v100 5pt")};
    for (const QString &trace : traces) {
        QCPGraph *g = plot.addGraph();
        g->setName(trace + QStringLiteral(" (gpu_stream_v100.txt)"));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
        legend_groups::setMember(g, QStringLiteral("gpu_stream_v100.txt"), trace, legend_groups::MemberKind::Trace);
    }
    QCPGraph *kernels = plot.addGraph();
    kernels->setName(QStringLiteral("H100 kernels (ncu_raw.csv)"));
    legend_groups::setMember(kernels, QStringLiteral("ncu_raw.csv"), QStringLiteral("H100 kernels"),
                             legend_groups::MemberKind::KernelSet);
}

QStringList entryTexts(const QCPLegend *legend)
{
    QStringList texts;
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractLegendItem *item = legend->item(i);
        if (auto *merged = qobject_cast<legend_groups::GroupLegendItem *>(item))
            texts << merged->text();
        else if (auto *own = qobject_cast<QCPPlottableLegendItem *>(item))
            texts << own->plottable()->name();
    }
    return texts;
}

double axesShare(const QCustomPlot &plot)
{
    return double(plot.axisRect()->outerRect().height()) / double(plot.viewport().height());
}

} // namespace

class TestLegendGroups : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRoomyPlotListsEverySeries()
    {
        QCustomPlot plot;
        fill(plot);
        plot.resize(1400, 1100);
        plot.replot();
        QCOMPARE(legend_groups::level(&plot), 0);
        QCOMPARE(entryTexts(plot.legend).size(), 10);
        QCOMPARE(entryTexts(plot.legend).first(), QStringLiteral("f(k): memory supply"));
    }

    void aShortPlotMergesAndKeepsItsShare()
    {
        QCustomPlot plot;
        fill(plot);
        plot.resize(480, 300);
        plot.show(); // a hidden widget gets its resize events when shown
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        QVERIFY(legend_groups::level(&plot) > 0);
        QVERIFY2(axesShare(plot) >= legend_groups::kPlotShare,
                 qPrintable(QStringLiteral("axes keep %1").arg(axesShare(plot))));
        // The model's entries stay whole and first; the measured series are named in merged entries.
        const QStringList texts = entryTexts(plot.legend);
        QCOMPARE(texts.mid(0, 3), (QStringList{QStringLiteral("f(k): memory supply"),
                                               QStringLiteral("G(n-k): compute demand"),
                                               QStringLiteral("operating point")}));
        QVERIFY(texts.size() < 10);
        QVERIFY2(texts.last().startsWith(QStringLiteral("6 traces, 1 kernel set")), qPrintable(texts.last()));

        // Room again: every series has its own entry, in the plot's order.
        plot.resize(1400, 1100);
        QTRY_COMPARE(plot.viewport().height(), 1100);
        plot.replot();
        QCOMPARE(legend_groups::level(&plot), 0);
        const QStringList again = entryTexts(plot.legend);
        QCOMPARE(again.size(), 10);
        QCOMPARE(again.at(3), QStringLiteral("v100 init (gpu_stream_v100.txt)"));
        QCOMPARE(again.last(), QStringLiteral("H100 kernels (ncu_raw.csv)"));
    }

    void ceilingsKeepAShortEntryEach()
    {
        // The model's ceilings, told apart by their lines alone, are never merged into a count ("7 ceilings"
        // beside seven icons nobody can match to the lines): merged, each keeps an entry with its short name,
        // its own line beside it, and the file's traces still merge.
        QCustomPlot plot;
        plot_style::setupAxes(&plot);
        plot_style::placeLegendBelow(&plot);
        for (const char *name : {"memory and peak", "issue", "FP32 pipe", "FP64 pipe", "DRAM latency",
                                 "L2 latency", "L1 latency"}) {
            QCPGraph *g = plot.addGraph();
            g->setName(QString::fromLatin1(name) + QStringLiteral(" ceiling, with its formula and value"));
            legend_groups::setMember(g, QStringLiteral("Ceilings"), QString::fromLatin1(name),
                                     legend_groups::MemberKind::Ceiling);
        }
        for (const char *name : {"v100 init", "v100 read"}) {
            QCPGraph *g = plot.addGraph();
            g->setName(QString::fromLatin1(name) + QStringLiteral(" (gpu_stream_v100.txt)"));
            legend_groups::setMember(g, QStringLiteral("gpu_stream_v100.txt"), QString::fromLatin1(name),
                                     legend_groups::MemberKind::Trace);
        }
        const QStringList shortNames{QStringLiteral("memory and peak"), QStringLiteral("issue"),
                                     QStringLiteral("FP32 pipe"),       QStringLiteral("FP64 pipe"),
                                     QStringLiteral("DRAM latency"),    QStringLiteral("L2 latency"),
                                     QStringLiteral("L1 latency")};
        legend_groups::apply(&plot, 1);
        QCOMPARE(entryTexts(plot.legend), shortNames + QStringList{QStringLiteral("gpu_stream_v100.txt: init, read")});
        legend_groups::apply(&plot, 3);
        QCOMPARE(entryTexts(plot.legend), shortNames + QStringList{QStringLiteral("2 traces")});
        for (int i = 0; i < 7; ++i) {
            auto *entry = qobject_cast<legend_groups::GroupLegendItem *>(plot.legend->item(i));
            QVERIFY(entry);
            QCOMPARE(entry->members(), QList<QCPAbstractPlottable *>{plot.graph(i)});
        }
    }

    void mergedEntriesNameTheirMembers()
    {
        QCustomPlot plot;
        fill(plot);
        plot.resize(1400, 1100);
        plot.replot();
        legend_groups::setHeld(&plot, true); // as an export holds it
        QCOMPARE(legend_groups::maxLevel(&plot), 3);

        legend_groups::apply(&plot, 1);
        QCOMPARE(entryTexts(plot.legend).mid(3),
                 (QStringList{QStringLiteral("gpu_stream_v100.txt: init, read, scale, triad, 3pt, 5pt"),
                              QStringLiteral("H100 kernels (ncu_raw.csv)")}));
        auto *file = qobject_cast<legend_groups::GroupLegendItem *>(plot.legend->item(3));
        QVERIFY(file);
        QCOMPARE(file->members().size(), 6);
        QCOMPARE(file->members().first(), plot.graph(3));

        legend_groups::apply(&plot, 2);
        QCOMPARE(entryTexts(plot.legend).mid(3),
                 (QStringList{QStringLiteral("6 traces, 1 kernel set from 2 files")}));
        plot.replot(); // held: stays merged
        QCOMPARE(legend_groups::level(&plot), 2);
        legend_groups::apply(&plot, 3);
        QCOMPARE(entryTexts(plot.legend).mid(3), (QStringList{QStringLiteral("6 traces, 1 kernel set")}));

        // A series removed: its merged entry goes with the next fit.
        legend_groups::setHeld(&plot, false);
        plot.removeGraph(plot.graph(9));
        plot.replot();
        QCOMPARE(legend_groups::level(&plot), 0);
        QCOMPARE(entryTexts(plot.legend).size(), 9);
    }

    void aSeriesOwnerKeptOutStaysOut()
    {
        // A member its owner took out of the legend (a highlight ring) gets no entry from any merging.
        QCustomPlot plot;
        fill(plot);
        plot.graph(4)->removeFromLegend();
        plot.resize(1400, 1100);
        plot.replot();
        QCOMPARE(entryTexts(plot.legend).size(), 9);
        legend_groups::setHeld(&plot, true);
        legend_groups::apply(&plot, 1);
        auto *file = qobject_cast<legend_groups::GroupLegendItem *>(plot.legend->item(3));
        QVERIFY(file);
        QCOMPARE(file->members().size(), 5);
        legend_groups::apply(&plot, 0);
        QCOMPARE(entryTexts(plot.legend).size(), 9);
    }

    void underscoresAreDrawnInFigures_data()
    {
        QTest::addColumn<bool>("merged");
        QTest::newRow("own entries") << false;
        QTest::newRow("merged entry") << true;
    }

    void underscoresAreDrawnInFigures()
    {
        // QCustomPlot clips a layerable one unit above its box; a figure's legend entry, as tall as its text,
        // lost its underscores ("ncu_raw.csv" read "ncu raw.csv"). The same figure with a space instead of
        // each underscore must differ.
        QFETCH(bool, merged);
        const auto figure = [merged](const QString &file) {
            QCustomPlot plot;
            plot_style::setupAxes(&plot);
            plot_style::placeLegendBelow(&plot);
            for (const QString &name : {QStringLiteral("a"), QStringLiteral("b")}) {
                QCPGraph *g = plot.addGraph();
                g->setPen(Qt::NoPen);
                g->setName(file + QLatin1Char(' ') + name);
                legend_groups::setMember(g, file, name, legend_groups::MemberKind::Trace);
            }
            plot.resize(800, 600);
            plot.replot();
            legend_groups::setHeld(&plot, true);
            legend_groups::apply(&plot, merged ? 1 : 0);
            FigureOptions options = withPreset({}, *figurePreset(QStringLiteral("single")));
            options.dpi = 300;
            return renderFigure({&plot}, options);
        };
        const QImage with = figure(QStringLiteral("ncu_raw_data"));
        const QImage without = figure(QStringLiteral("ncu raw data"));
        QVERIFY(!with.isNull());
        QVERIFY(with != without);
    }
};

QTEST_MAIN(TestLegendGroups)
#include "tst_legend_groups.moc"
