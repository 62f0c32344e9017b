// SPDX-License-Identifier: GPL-3.0-or-later
// Every view's figure at every preset, laid out as the export draws it (the same code as crossroof-cli render):
// no piece of text leaves the page or overlaps another.
#include "main_window.h"

#include "common/icon_legend_item.h"
#include "common/label_placement.h"
#include "common/legend_groups.h"
#include "common/plot_style.h"
#include "common/symbol_text.h"
#include "export/export_guard.h"
#include "export/figure_export.h"
#include "export/figure_text.h"
#include "export/figure_units.h"
#include "kernels/kernel_table_view.h"
#include "state/trace_state.h"
#include "traces/trace_import_dialog.h"
#include "traces/traces_panel.h"
#include "core/session/session.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace crossroof;

namespace {

/// What papers show: the six V100 stream traces, the H100 kernel family (its 312 kernels as points) and the
/// H100 kernels of a real Nsight Compute export, on the H100 SXM.
void loadPaperData(app::MainWindow &window)
{
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
}

/// A window with DATA: a docs/samples session by name, "v100-eight" (the V100 sample's two traces and the six
/// gpu-benches stream traces), "h100-torch" (the H100 sample with the PyTorch kernels measured on it),
/// "h100-stream-torch" (that and gpu-benches' six H100 stream traces) or "paper" (loadPaperData()).
void loadData(app::MainWindow &window, const QString &data)
{
    if (data == QLatin1String("paper")) {
        loadPaperData(window);
        return;
    }
    const QString session = data == QLatin1String("v100-eight") ? QStringLiteral("v100-measured")
                            : data.startsWith(QLatin1String("h100-")) ? QStringLiteral("h100-thrashing")
                                                                       : data;
    window.applySession(
            core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/" + session.toStdString() + ".crossroof"));
    if (data == QLatin1String("h100-stream-torch")) {
        QCOMPARE(window.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_benches/h100_pcie.txt")),
                 QString());
        QCOMPARE(window.traceState()->traces().size(), std::size_t(7));
    }
    if (data.endsWith(QLatin1String("-torch"))) {
        const QString kernels = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/torch_raw.csv");
        QCOMPARE(window.kernelTable()->loadFile(kernels), QString());
    }
    if (data == QLatin1String("v100-eight")) {
        QCOMPARE(window.tracesPanel()->importFile(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt")),
                 QString());
        QCOMPARE(window.traceState()->traces().size(), std::size_t(8));
    }
}

/// The text an SVG draws, every text element's in document order, without white space: a label drawn in
/// pieces (a subscript apart) reads as one.
QString svgText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression element(QStringLiteral("<text[^>]*>([^<]*)</text>"));
    QString text;
    for (auto m = element.globalMatch(QString::fromUtf8(file.readAll())); m.hasNext();)
        text += m.next().captured(1);
    text.replace(QStringLiteral("&amp;"), QStringLiteral("&")).replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    text.replace(QStringLiteral("&gt;"), QStringLiteral(">")).replace(QStringLiteral("&quot;"), QStringLiteral("\""));
    return text.remove(QRegularExpression(QStringLiteral("\\s")));
}

/// A label's text as it reads, its subscripts in line.
/// MARKUP as drawn, its subscripts in line: "L_{c}" reads "Lc".
QString drawnText(const QString &markup)
{
    QString text;
    for (const widgets::symbol_text::Run &run : widgets::symbol_text::runs(markup))
        text += run.text;
    return text;
}

QString plainText(const QCPItemText *item)
{
    return drawnText(item->text());
}

/// Columns data, view and preset, and a row for each of FIGURES (its data, its view) at every preset.
void addFigureRows(const QList<std::pair<QString, QString>> &figures)
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("preset");
    for (const auto &[data, view] : figures) {
        for (const widgets::FigurePreset &preset : widgets::figurePresets())
            QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3").arg(view, data, preset.id))) << data << view << preset.id;
    }
}

} // namespace

class TestFigureLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void textStaysOnThePageApart_data();
    void textStaysOnThePageApart();
    void measuredDataLeavesThePlotItsShare_data();
    void measuredDataLeavesThePlotItsShare();
    void everyFormatDrawsTheSameLabels_data();
    void everyFormatDrawsTheSameLabels();
    void plotsKeepMostOfTheHeightBetweenTheirAxes_data();
    void plotsKeepMostOfTheHeightBetweenTheirAxes();
    void noLineStrikesThroughALabel_data();
    void noLineStrikesThroughALabel();
    void legendEntriesAreWholeAndNameEachTrace_data();
    void legendEntriesAreWholeAndNameEachTrace();
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
    loadPaperData(window);
    if (QTest::currentTestFailed())
        return;
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

void TestFigureLayout::everyFormatDrawsTheSameLabels_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("preset");
    for (const QString &data : {QStringLiteral("paper"), QStringLiteral("v100-eight")}) {
        for (const QString &view : app::MainWindow::viewNames()) {
            for (const widgets::FigurePreset &preset : widgets::figurePresets())
                QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3").arg(data, view, preset.id))) << data << view << preset.id;
        }
    }
    // The H100 sample with its PyTorch kernels: the X-graph's stars and names leave π's and the plateau's labels
    // no room along their lines at any preset.
    for (const QString &view : {QStringLiteral("xgraph"), QStringLiteral("roofline")}) {
        for (const widgets::FigurePreset &preset : widgets::figurePresets())
            QTest::newRow(qPrintable(QStringLiteral("h100-torch %1 %2").arg(view, preset.id)))
                    << QStringLiteral("h100-torch") << view << preset.id;
    }
}

void TestFigureLayout::everyFormatDrawsTheSameLabels()
{
    // One layout, three writers: the labels in the plot (the X-graph's "π = M·L_c/E = …" among them) that the
    // layout keeps are the ones the SVG draws, read back from the file, and those it leaves out the SVG leaves
    // out too; the PNG and PDF draw that same layout (figureLabels()). With the paper's data, and with eight
    // V100 traces (the sample's two and the six gpu-benches stream traces), where the PNG once lost π's label.
    QFETCH(QString, data);
    QFETCH(QString, view);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    loadData(window, data);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(window.showView(view));
    if (const QString nothing = window.nothingToDraw(view); !nothing.isEmpty())
        QSKIP(qPrintable(QStringLiteral("its figure is refused: ") + nothing));
    const QList<QCustomPlot *> plots = window.figurePlots(view);
    const widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
    QTemporaryDir dir;
    for (const char *suffix : {"svg", "pdf", "png"})
        QCOMPARE(widgets::exportFigure(plots, dir.filePath(QStringLiteral("f.") + suffix), options), QString());
    const QString drawn = svgText(dir.filePath(QStringLiteral("f.svg")));
    QVERIFY(!drawn.isEmpty());
    const QStringList kept = widgets::figureLabels(plots, options);
    const auto bare = [](QString text) { return text.remove(QRegularExpression(QStringLiteral("\\s"))); };
    for (const QString &label : kept)
        QVERIFY2(drawn.contains(bare(label)), qPrintable(QStringLiteral("the layout keeps '%1', the SVG lacks it").arg(label)));
    // The PNG draws each label the layout keeps: without it (and any other of its text), the image is another.
    widgets::FigureOptions png = options;
    png.dpi = 100;
    const QImage whole = widgets::renderFigure(plots, png);
    QVERIFY(!whole.isNull());
    for (const QString &label : QSet<QString>(kept.cbegin(), kept.cend())) {
        QList<QCPItemText *> named;
        for (QCustomPlot *plot : plots) {
            for (int i = 0; i < plot->itemCount(); ++i) {
                auto *item = qobject_cast<QCPItemText *>(plot->item(i));
                if (item && item->visible() && plainText(item) == label)
                    named << item;
            }
        }
        for (QCPItemText *item : named)
            item->setVisible(false);
        const QImage without = widgets::renderFigure(plots, png);
        for (QCPItemText *item : named)
            item->setVisible(true);
        QVERIFY2(named.isEmpty() || without != whole,
                 qPrintable(QStringLiteral("the layout keeps '%1', the PNG lacks it").arg(label)));
    }
    // Every line a label names (π, the plateau, δ) is named in every figure: by its label, whole or short, or
    // where neither has room, by an entry of the legend in the line's pen.
    for (QCustomPlot *plot : plots) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *item = qobject_cast<QCPItemText *>(plot->item(i));
            const QCPItemStraightLine *line = item ? widgets::namedLine(item) : nullptr;
            if (!line || !line->visible() || !item->visible())
                continue;
            const QString brief = drawnText(widgets::plot_style::shortText(item));
            QVERIFY2(drawn.contains(bare(plainText(item))) || (!brief.isEmpty() && drawn.contains(bare(brief))),
                     qPrintable(QStringLiteral("the SVG does not name the line of '%1'").arg(plainText(item))));
        }
    }
    // Every label of the plots the layout leaves out, the SVG leaves out (unless its text is part of another's,
    // or its line's legend entry).
    QStringList legends;
    {
        const widgets::figure::ExportGuard guard(plots, options);
        for (QCustomPlot *plot : plots) {
            for (const QString &entry : widgets::legendTexts(plot->legend))
                legends << drawnText(entry);
        }
    }
    for (QCustomPlot *plot : plots) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto *item = qobject_cast<QCPItemText *>(plot->item(i));
            if (!item || item->text().trimmed().isEmpty())
                continue;
            const QString text = bare(plainText(item));
            const auto holds = [&](const QString &k) { return bare(k).contains(text); };
            if (text.size() < 4 || std::any_of(kept.cbegin(), kept.cend(), holds)
                || (widgets::namedLine(item) && std::any_of(legends.cbegin(), legends.cend(), holds)))
                continue;
            QVERIFY2(!drawn.contains(text), qPrintable(QStringLiteral("the SVG draws '%1', the layout leaves it out").arg(text)));
        }
    }
}

void TestFigureLayout::plotsKeepMostOfTheHeightBetweenTheirAxes_data()
{
    addFigureRows({
            {QStringLiteral("v100-measured"), QStringLiteral("xgraph")},
            {QStringLiteral("v100-eight"), QStringLiteral("xgraph")},
            {QStringLiteral("h100-thrashing"), QStringLiteral("xgraph")},
            {QStringLiteral("paper"), QStringLiteral("xgraph")},
            {QStringLiteral("gtx570-thrashing"), QStringLiteral("stability")},
            {QStringLiteral("paper"), QStringLiteral("stability")},
            {QStringLiteral("h100-thrashing"), QStringLiteral("levels")},
            {QStringLiteral("paper"), QStringLiteral("levels")},
            {QStringLiteral("paper"), QStringLiteral("roofline")},
    });
}

void TestFigureLayout::plotsKeepMostOfTheHeightBetweenTheirAxes()
{
    // As a journal figure: its plots keep at least kFigurePlotShare (55 %) of the page's height between their
    // axes at every preset, however many traces they carry (the legend goes beside the plot where the page is
    // wide enough, else merges), and the roofline's ceilings are never merged into a count ("5 ceilings"): each
    // keeps an entry of its own, its short name beside its own line.
    QFETCH(QString, data);
    QFETCH(QString, view);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    loadData(window, data);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(window.showView(view));
    if (const QString nothing = window.nothingToDraw(view); !nothing.isEmpty())
        QSKIP(qPrintable(QStringLiteral("its figure is refused: ") + nothing));
    const QList<QCustomPlot *> plots = window.figurePlots(view);
    for (const widgets::FigureStyle style : {widgets::FigureStyle::Colour, widgets::FigureStyle::Greyscale}) {
        widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
        options.style = style;
        {
            const widgets::figure::ExportGuard guard(plots, options);
            for (QCustomPlot *plot : plots) {
                for (int i = 0; i < plot->legend->itemCount(); ++i) {
                    const auto *merged = qobject_cast<widgets::legend_groups::GroupLegendItem *>(plot->legend->item(i));
                    QVERIFY2(!merged || !merged->text().contains(QStringLiteral("ceiling")),
                             qPrintable(QStringLiteral("the legend says '%1'").arg(merged ? merged->text() : QString())));
                }
            }
        }
        const double share = widgets::figurePlotShare(plots, options);
        if (qEnvironmentVariableIsSet("CROSSROOF_FIGURE_DIR")) {
            widgets::exportFigure(plots,
                                  qEnvironmentVariable("CROSSROOF_FIGURE_DIR")
                                          + QStringLiteral("/share-%1-%2-%3-%4.png").arg(view, data, preset).arg(int(style)),
                                  options);
        }
        QVERIFY2(share >= widgets::kFigurePlotShare,
                 qPrintable(QStringLiteral("the plots keep %1 % of the height between their axes").arg(100 * share, 0, 'f', 1)));
    }
}

void TestFigureLayout::noLineStrikesThroughALabel_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("preset");
    for (const QString &data : {QStringLiteral("gtx570-thrashing"), QStringLiteral("v100-measured"),
                                QStringLiteral("h100-thrashing"), QStringLiteral("v100-eight"), QStringLiteral("paper")}) {
        for (const widgets::FigurePreset &preset : widgets::figurePresets())
            QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(data, preset.id))) << data << preset.id;
    }
}

void TestFigureLayout::noLineStrikesThroughALabel()
{
    // The X-graph's landmark lines (δ, π, the plateau) run across the whole plot: in every figure, colour and
    // greyscale, no label sits on one of them ("δ = R·L = 46.3" struck through by the π line).
    QFETCH(QString, data);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    loadData(window, data);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(window.showView(QStringLiteral("xgraph")));
    const QList<QCustomPlot *> plots = window.figurePlots(QStringLiteral("xgraph"));
    for (const widgets::FigureStyle style : {widgets::FigureStyle::Colour, widgets::FigureStyle::Greyscale}) {
        widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
        options.style = style;
        QStringList struck;
        {
            const widgets::figure::ExportGuard guard(plots, options);
            widgets::figure::layOutText(plots, widgets::figure::canvasWidth(options),
                                        widgets::figure::canvasHeight(options));
            for (QCustomPlot *plot : plots) {
                for (int i = 0; i < plot->itemCount(); ++i) {
                    auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(i));
                    if (!line || !line->visible())
                        continue;
                    const QPointF a = line->point1->pixelPosition();
                    const QPointF b = line->point2->pixelPosition();
                    const QRectF rect = plot->axisRect()->rect();
                    for (int j = 0; j < plot->itemCount(); ++j) {
                        auto *text = qobject_cast<QCPItemText *>(plot->item(j));
                        if (!text || !text->visible() || text->text().isEmpty())
                            continue;
                        const QRectF glyphs = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                                                      .normalized()
                                                      .marginsRemoved(QMarginsF(text->padding()))
                                                      .intersected(rect);
                        if (glyphs.isEmpty())
                            continue;
                        // The line's side of each of the box's corners: a line through the box has corners on both.
                        int above = 0, below = 0;
                        for (const QPointF &c : {glyphs.topLeft(), glyphs.topRight(), glyphs.bottomLeft(), glyphs.bottomRight()}) {
                            const double side = (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
                            above += side > 1e-6;
                            below += side < -1e-6;
                        }
                        if (above > 0 && below > 0)
                            struck << plainText(text);
                    }
                }
            }
        }
        for (QCustomPlot *plot : plots)
            plot->replot(QCustomPlot::rpQueuedReplot);
        QVERIFY2(struck.isEmpty(), qPrintable(QStringLiteral("%1: a line strikes through '%2'")
                                                      .arg(style == widgets::FigureStyle::Greyscale ? QStringLiteral("greyscale") : QStringLiteral("colour"),
                                                           struck.join(QStringLiteral("', '")))));
    }
}

void TestFigureLayout::legendEntriesAreWholeAndNameEachTrace_data()
{
    addFigureRows({
            {QStringLiteral("h100-thrashing"), QStringLiteral("xgraph")},
            {QStringLiteral("v100-eight"), QStringLiteral("xgraph")},
            {QStringLiteral("h100-stream-torch"), QStringLiteral("xgraph")},
            {QStringLiteral("paper"), QStringLiteral("xgraph")},
            {QStringLiteral("paper"), QStringLiteral("levels")},
    });
}

void TestFigureLayout::legendEntriesAreWholeAndNameEachTrace()
{
    // A legend entry is never cut: the H100 sample's "H100 SXM cache thrashing, 16 KiB per warp (cache.csv
    // (bytes_per_warp = 163" ran off a single column's right edge. Each entry lies within the page and has the
    // width its text needs (a long name shortened in the middle where the page is narrow). And a double column's
    // or a slide's legend names every trace, in colour and in greyscale, where the eight V100 traces once merged
    // into "8 traces from 2 files".
    QFETCH(QString, data);
    QFETCH(QString, view);
    QFETCH(QString, preset);
    app::MainWindow window;
    window.resize(1280, 800);
    loadData(window, data);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(window.showView(view));
    const QList<QCustomPlot *> plots = window.figurePlots(view);
    static const QRegularExpression counted(QStringLiteral("\\b\\d+ traces?\\b"));
    for (const widgets::FigureStyle style : {widgets::FigureStyle::Colour, widgets::FigureStyle::Greyscale}) {
        widgets::FigureOptions options = widgets::withPreset({}, *widgets::figurePreset(preset));
        options.style = style;
        const QString styleName = style == widgets::FigureStyle::Greyscale ? QStringLiteral("greyscale") : QStringLiteral("colour");
        QStringList problems;
        {
            const widgets::figure::ExportGuard guard(plots, options);
            const double width = widgets::figure::canvasWidth(options);
            widgets::figure::layOutText(plots, width, widgets::figure::canvasHeight(options));
            for (QCustomPlot *plot : plots) {
                if (!plot->legend->visible())
                    continue;
                const QStringList texts = widgets::legendTexts(plot->legend);
                for (int i = 0; i < plot->legend->itemCount(); ++i) {
                    QCPAbstractLegendItem *item = plot->legend->item(i);
                    if (!item)
                        continue;
                    const QRect rect = item->outerRect();
                    const QString text = i < texts.size() ? texts[i] : QString();
                    if (rect.right() > width + 0.5 || rect.left() < -0.5)
                        problems << QStringLiteral("'%1' leaves the page (%2 to %3 of %4)").arg(text).arg(rect.left()).arg(rect.right()).arg(width);
                    if (widgets::plot_style::legendEntrySize(item).width() > rect.width() + 1)
                        problems << QStringLiteral("'%1' is cut by its place in the legend").arg(text);
                }
                if (options.width_mm > 100) {
                    for (const QString &text : texts) {
                        if (counted.match(text).hasMatch())
                            problems << QStringLiteral("'%1' counts traces instead of naming them").arg(text);
                    }
                }
            }
        }
        for (QCustomPlot *plot : plots)
            plot->replot(QCustomPlot::rpQueuedReplot);
        if (qEnvironmentVariableIsSet("CROSSROOF_FIGURE_DIR")) {
            widgets::exportFigure(plots,
                                  qEnvironmentVariable("CROSSROOF_FIGURE_DIR")
                                          + QStringLiteral("/legend-%1-%2-%3-%4.png").arg(view, data, preset, styleName),
                                  options);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(styleName + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
    }
}

QTEST_MAIN(TestFigureLayout)
#include "tst_figure_layout.moc"
