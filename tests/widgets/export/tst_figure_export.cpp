// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/export_guard.h"
#include "export/figure_export.h"
#include "export/plot_data_csv.h"
#include "export/export_dialog.h"
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "common/static_text.h"
#include "common/symbol_text.h"
#include "xgraph/xgraph_view.h"
#include "xgraph/xmodel_evaluation.h"

#include "support/full_disk.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QComboBox>
#include <QImageReader>
#include <QSpinBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

/// Every number in the drawing coordinates of an SVG (polyline points and path data).
QList<QPointF> svgPoints(const QByteArray &svg)
{
    QList<QPointF> points;
    const QString text = QString::fromUtf8(svg);
    static const QRegularExpression attr(QStringLiteral("(?:points|d)=\"([^\"]*)\""));
    static const QRegularExpression number(QStringLiteral("-?\\d+(?:\\.\\d+)?(?:e-?\\d+)?"));
    for (auto m = attr.globalMatch(text); m.hasNext();) {
        QList<double> values;
        for (auto n = number.globalMatch(m.next().captured(1)); n.hasNext();)
            values << n.next().captured(0).toDouble();
        for (int i = 0; i + 1 < values.size(); i += 2)
            points << QPointF(values[i], values[i + 1]);
    }
    return points;
}

} // namespace

class TestFigureExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void pdfHasTheRequestedPageSize();
    void svgHasTheRequestedSizeAndIsClipped();
    void pngHasTheRequestedPixels();
    void greyscaleAndFontsAreRestored();
    void badRequestsSayWhy();
    void plotDataAsCsv();
    void fullDiskKeepsTheOldFile_data();
    void dialogLabelsShowTheirShortcuts();
    void layoutProblemsAreFoundAndFitted();
    void presetsScaleTextAndLines();
    void symbolMarkupAndLiteralNames();
    void svgHasSubscriptsTheNamesAndTheFont();
    void greyscaleGreysEveryFill();
    void greyscaleMapsKeepTheirShades();
    void denseMarkersAreSmallerInFigures();
    void dialogPreviewFollowsThePreset();
    void fullDiskKeepsTheOldFile();

private:
    QTemporaryDir *m_dir = nullptr;
    ParameterState *m_state = nullptr;
    XModelEvaluation *m_eval = nullptr;
    XGraphView *m_view = nullptr;
};

void TestFigureExport::init()
{
    m_dir = new QTemporaryDir;
    m_state = new ParameterState;
    // Compute demand far above the memory supply: G(n-k) leaves the top of the plot, so an unclipped vector
    // export would draw it outside the axis rectangle.
    m_state->setValue(QStringLiteral("Z"), 0.05);
    m_eval = new XModelEvaluation(m_state, m_state);
    m_view = new XGraphView(m_eval);
    m_view->resize(900, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QVERIFY(m_view->plot()->yAxis->range().upper < m_view->demandGraph()->data()->constBegin()->value);
}

void TestFigureExport::cleanup()
{
    delete m_view;
    delete m_state;
    delete m_dir;
}

void TestFigureExport::pdfHasTheRequestedPageSize()
{
    const QString path = m_dir->filePath(QStringLiteral("x.pdf"));
    FigureOptions o;
    o.width_mm = 85;
    o.height_mm = 60;
    QCOMPARE(exportFigure(m_view->figurePlots(), path, o), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    static const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([\\d.]+) ([\\d.]+)\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    QVERIFY2(m.hasMatch(), "no media box");
    QVERIFY(std::abs(m.captured(1).toDouble() - 85 / 25.4 * 72) < 0.5);
    QVERIFY(std::abs(m.captured(2).toDouble() - 60 / 25.4 * 72) < 0.5);
    QVERIFY2(!pdf.contains("/Subtype /Image"), "curves must be vector, not an embedded image");
}

void TestFigureExport::svgHasTheRequestedSizeAndIsClipped()
{
    const QString path = m_dir->filePath(QStringLiteral("x.svg"));
    FigureOptions o;
    o.width_mm = 175;
    o.height_mm = 90;
    m_state->setCacheMode(core::CacheMode::Locality); // f bends: many samples, few of them drawn on screen
    QCoreApplication::processEvents();
    m_view->plot()->replot();
    const int onScreen = m_view->demandGraph()->dataCount(); // thinned for the screen
    QCOMPARE(exportFigure(m_view->figurePlots(), path, o), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    QVERIFY2(svg.contains("width=\"175mm\""), svg.left(400).constData());
    QVERIFY(svg.contains("height=\"90mm\""));
    QVERIFY(!svg.contains("<image"));
    // Drawing coordinates are in the view box: two units per point.
    const double w = 175 / 25.4 * 72 * 2, h = 90 / 25.4 * 72 * 2;
    const QList<QPointF> points = svgPoints(svg);
    // The curves are there, as vectors, with every sample: f and G each drawn through all of them.
    const auto samples = qsizetype(m_eval->curves().k.size());
    QVERIFY2(points.size() >= 2 * samples, qPrintable(QStringLiteral("%1 points, %2 samples").arg(points.size()).arg(samples)));
    for (const QPointF &p : points)
        QVERIFY2(p.x() >= -1 && p.x() <= w + 1 && p.y() >= -1 && p.y() <= h + 1,
                 qPrintable(QStringLiteral("point (%1, %2) outside the figure").arg(p.x()).arg(p.y())));
    // The plot on screen has its data back, thinned again.
    QCOMPARE(m_view->demandGraph()->dataCount(), onScreen);
    QVERIFY2(onScreen < samples, qPrintable(QStringLiteral("%1 on screen, %2 samples").arg(onScreen).arg(samples)));
}

void TestFigureExport::pngHasTheRequestedPixels()
{
    const QString path = m_dir->filePath(QStringLiteral("x.png"));
    FigureOptions o;
    o.width_mm = 85;
    o.height_mm = 60;
    o.dpi = 300;
    QCOMPARE(exportFigure(m_view->figurePlots(), path, o), QString());
    QImageReader reader(path);
    QCOMPARE(reader.size(), QSize(1004, 709)); // 85 mm and 60 mm at 300 dpi
    const QImage image = reader.read();
    QVERIFY(std::abs(image.dotsPerMeterX() - 300 / 0.0254) < 1);
}

void TestFigureExport::greyscaleAndFontsAreRestored()
{
    const QPen pen = m_view->supplyGraph()->pen();
    const QFont font = m_view->plot()->xAxis->labelFont();
    FigureOptions o;
    o.style = FigureStyle::Greyscale;
    o.font_pt = 11;
    const QImage image = renderFigure(m_view->figurePlots(), o);
    QVERIFY(!image.isNull());
    // Greyscale: no saturated pixel anywhere.
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) {
            const QColor c = image.pixelColor(x, y);
            if (c.hsvSaturation() > 40 && c.value() > 40)
                ++coloured;
        }
    }
    QCOMPARE(coloured, 0);
    QCOMPARE(m_view->supplyGraph()->pen(), pen);
    QCOMPARE(m_view->plot()->xAxis->labelFont(), font);
}

void TestFigureExport::badRequestsSayWhy()
{
    FigureOptions o;
    QVERIFY(exportFigure(m_view->figurePlots(), m_dir->filePath(QStringLiteral("x.jpeg")), o).contains(QStringLiteral(".pdf, .svg or .png")));
    o.width_mm = 2;
    QVERIFY(exportFigure(m_view->figurePlots(), m_dir->filePath(QStringLiteral("x.pdf")), o).contains(QStringLiteral("size")));
    o = {};
    QVERIFY(!exportFigure({}, m_dir->filePath(QStringLiteral("x.pdf")), o).isEmpty());
    const QString unwritable = QStringLiteral("/proc/crossroof-cannot/x.pdf");
    QVERIFY(exportFigure(m_view->figurePlots(), unwritable, o).contains(unwritable));
}

void TestFigureExport::plotDataAsCsv()
{
    const QString path = m_dir->filePath(QStringLiteral("x.csv"));
    QCOMPARE(exportPlotData(m_view->figurePlots(), path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.first(), QByteArray("plot,series,x,y"));
    int supply = 0;
    for (const QByteArray &line : lines)
        supply += line.contains("f(k): memory supply") ? 1 : 0;
    int finite = 0;
    for (auto it = m_view->supplyGraph()->data()->constBegin(); it != m_view->supplyGraph()->data()->constEnd(); ++it)
        finite += std::isfinite(it->value) ? 1 : 0;
    QCOMPARE(supply, finite);
}

void TestFigureExport::fullDiskKeepsTheOldFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("pdf") << "figure.pdf";
    QTest::newRow("svg") << "figure.svg";
    QTest::newRow("png") << "figure.png";
    QTest::newRow("plot data") << "figure.csv";
}

void TestFigureExport::fullDiskKeepsTheOldFile()
{
    QFETCH(QString, name);
    const QString path = m_dir->filePath(name);
    const QByteArray old = "the figure of yesterday";
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(old);
    f.close();
    QString error;
    {
        const test::FullDisk full(rlim_t(old.size()));
        QVERIFY(full.active());
        error = name.endsWith(QStringLiteral(".csv")) ? exportPlotData(m_view->figurePlots(), path)
                                                      : exportFigure(m_view->figurePlots(), path, FigureOptions{});
    }
    QVERIFY2(error.contains(path) && error.contains(QStringLiteral("cannot write")), qPrintable(error));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), old);
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden), QStringList{name}); // no leftovers
}

void TestFigureExport::dialogLabelsShowTheirShortcuts()
{
    // A label with a mnemonic and no buddy prints its '&' ("&File" on screen) and its shortcut does nothing.
    ExportDialog dialog(m_dir->filePath(QStringLiteral("figure.pdf")));
    int labels = 0;
    for (const QLabel *label : dialog.findChildren<QLabel *>()) {
        if (!label->text().contains(QLatin1Char('&')))
            continue;
        ++labels;
        QVERIFY2(label->buddy(), qPrintable(label->text()));
    }
    QVERIFY(labels >= 8);
}

void TestFigureExport::layoutProblemsAreFoundAndFitted()
{
    FigureOptions single; // 85 x 60 mm
    QCustomPlot *plot = m_view->plot();
    QStringList problems = figureLayoutProblems({plot}, single);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));

    // Two labels on top of each other: the figure moves one off the other, and the window keeps both where
    // they were.
    auto *a = new QCPItemText(plot);
    auto *b = new QCPItemText(plot);
    for (QCPItemText *t : {a, b}) {
        t->position->setType(QCPItemPosition::ptAxisRectRatio);
        t->position->setCoords(0.5, 0.5);
        t->setText(QStringLiteral("a label in the middle"));
    }
    problems = figureLayoutProblems({plot}, single);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QCOMPARE(b->position->coords(), QPointF(0.5, 0.5));

    // A legend of thirty long entries cannot be fitted: it is reported, with its share of the page.
    for (int i = 0; i < 30; ++i)
        plot->addGraph()->setName(QStringLiteral("a series with a rather long name, number %1").arg(i));
    problems = figureLayoutProblems({plot}, single);
    QVERIFY2(!problems.filter(QStringLiteral("the legend takes")).isEmpty(), qPrintable(problems.join('\n')));
}

namespace {

/// Sizes in an SVG figure, in points on paper: every font size but those of scripts, and every stroke width.
struct SvgSizes
{
    QList<double> fonts;
    QList<double> strokes;
};

SvgSizes svgSizes(const QByteArray &svg, double widthMm)
{
    const QString text = QString::fromUtf8(svg);
    static const QRegularExpression viewBox(QStringLiteral("viewBox=\"0 0 ([\\d.]+) [\\d.]+\""));
    const double unitsPerPt = viewBox.match(text).captured(1).toDouble() / (widthMm / 25.4 * 72);
    SvgSizes sizes;
    // Scripts (a subscript, at seven tenths of its text, or the exponent of a power of ten, at three quarters)
    // are left out: they are set smaller than the text they belong to on purpose.
    static const QRegularExpression font(QStringLiteral("<text [^>]*font-size=\"([\\d.]+)(pt)?\""));
    double previous = 0;
    for (auto m = font.globalMatch(text); m.hasNext();) {
        const auto match = m.next();
        const double size = match.captured(1).toDouble() / (match.captured(2).isEmpty() ? unitsPerPt : 1);
        if (size < 0.8 * previous)
            continue;
        sizes.fonts << size;
        previous = size;
    }
    static const QRegularExpression stroke(QStringLiteral("stroke-width=\"([\\d.]+)\""));
    for (auto m = stroke.globalMatch(text); m.hasNext();)
        sizes.strokes << m.next().captured(1).toDouble() / unitsPerPt;
    return sizes;
}

} // namespace

void TestFigureExport::presetsScaleTextAndLines()
{
    // Each preset as the SVG draws it: no text below the preset's least size, the body text at its size, and
    // lines in proportion to the preset's thin line (the heaviest curve is so many screen pixels wide).
    QList<double> heaviest;
    for (const FigurePreset &preset : figurePresets()) {
        const QString path = m_dir->filePath(preset.id + QStringLiteral(".svg"));
        const FigureOptions o = withPreset(FigureOptions{}, preset);
        QCOMPARE(exportFigure(m_view->figurePlots(), path, o), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const SvgSizes sizes = svgSizes(f.readAll(), preset.width_mm);
        QVERIFY2(sizes.fonts.size() > 5 && sizes.strokes.size() > 5, qPrintable(preset.id));
        const double smallest = *std::min_element(sizes.fonts.cbegin(), sizes.fonts.cend());
        const double largest = *std::max_element(sizes.fonts.cbegin(), sizes.fonts.cend());
        QVERIFY2(smallest >= preset.min_font_pt - 0.01,
                 qPrintable(QStringLiteral("%1: %2 pt text").arg(preset.id).arg(smallest)));
        QVERIFY2(std::abs(largest - preset.font_pt) < 0.01,
                 qPrintable(QStringLiteral("%1: %2 pt text").arg(preset.id).arg(largest)));
        const double heavy = *std::max_element(sizes.strokes.cbegin(), sizes.strokes.cend());
        if (!heaviest.isEmpty()) {
            const double pixels = heaviest.first() / figurePresets().first().line_pt;
            QVERIFY2(std::abs(heavy / preset.line_pt - pixels) < 0.01 * pixels,
                     qPrintable(QStringLiteral("%1: %2 pt lines").arg(preset.id).arg(heavy)));
        }
        heaviest << heavy;
    }
    // Slide text at least 16 pt and a column's at least 7; lines grow with the figure.
    QCOMPARE(figurePreset(QStringLiteral("slide"))->min_font_pt, 16);
    QCOMPARE(figurePreset(QStringLiteral("single"))->min_font_pt, 7);
    QVERIFY(heaviest[0] < heaviest[1] && heaviest[1] < heaviest[2]);
}

void TestFigureExport::dialogPreviewFollowsThePreset()
{
    ExportDialog dialog(m_dir->filePath(QStringLiteral("figure.pdf")));
    dialog.setOptions(FigureOptions{}); // single column, whatever an earlier run saved
    dialog.setPreviewPlots(m_view->figurePlots());
    const QImage single = dialog.previewImage();
    QVERIFY(!single.isNull());
    QVERIFY2(std::abs(double(single.width()) / single.height() - 85.0 / 60) < 0.02,
             qPrintable(QStringLiteral("%1 x %2").arg(single.width()).arg(single.height())));

    // The slide preset chosen from the list: its sizes fill the form, and the preview follows a moment later.
    auto *presets = dialog.findChild<QComboBox *>();
    QVERIFY(presets);
    const int slide = presets->findData(QStringLiteral("slide"));
    QVERIFY(slide > 0);
    presets->setCurrentIndex(slide);
    Q_EMIT presets->activated(slide);
    const FigureOptions o = dialog.options();
    QCOMPARE(o.width_mm, 254.0);
    QCOMPARE(o.font_pt, 18);
    QCOMPARE(o.min_font_pt, 16);
    QCOMPARE(o.line_pt, 1.0);
    QTRY_VERIFY(dialog.previewImage().cacheKey() != single.cacheKey());
    const QImage wide = dialog.previewImage();
    QVERIFY2(std::abs(double(wide.width()) / wide.height() - 16.0 / 9) < 0.02,
             qPrintable(QStringLiteral("%1 x %2").arg(wide.width()).arg(wide.height())));

    // A font size of its own makes the choice "Custom" and draws the preview again.
    auto *fontSize = dialog.findChildren<QSpinBox *>().at(1);
    QCOMPARE(fontSize->value(), 18);
    fontSize->setValue(20);
    QCOMPARE(presets->currentData().toString(), QString());
    QTRY_VERIFY(dialog.previewImage().cacheKey() != wide.cacheKey());
}

void TestFigureExport::symbolMarkupAndLiteralNames()
{
    const QList<symbol_text::Run> runs = symbol_text::runs(QStringLiteral("f_{sched}(B_{r})"));
    QCOMPARE(runs.size(), 5);
    QCOMPARE(runs[0].text, QStringLiteral("f"));
    QCOMPARE(runs[1].text, QStringLiteral("sched"));
    QCOMPARE(runs[2].text, QStringLiteral("(B"));
    QCOMPARE(runs[4].text, QStringLiteral(")"));
    QVERIFY(!runs[0].subscript && runs[1].subscript && !runs[2].subscript && runs[3].subscript && !runs[4].subscript);
    QCOMPARE(symbol_text::plain(QStringLiteral("f_{sched}(B_{r})")), QStringLiteral("f_sched(B_r)"));
    // A name is drawn as it is, whatever it holds: an underscore stays, and so does a brace or a backslash.
    QVERIFY(!symbol_text::hasMarkup(QStringLiteral("ncu_raw.csv")));
    for (const QString &name : {QStringLiteral("ncu_raw.csv"), QStringLiteral("a_{b}\\c_{.csv"),
                                QStringLiteral("trailing\\")}) {
        const QList<symbol_text::Run> drawn = symbol_text::runs(symbol_text::literal(name));
        QCOMPARE(drawn.size(), 1);
        QCOMPARE(drawn[0].text, name);
        QVERIFY(!drawn[0].subscript);
        QCOMPARE(symbol_text::plain(symbol_text::literal(name)), name);
    }
}

void TestFigureExport::svgHasSubscriptsTheNamesAndTheFont()
{
    // A measured trace from a file with an underscore in its name, and a model symbol with a subscript, in
    // the legend; a font chosen for the figure.
    QCustomPlot *plot = m_view->plot();
    QCPGraph *trace = plot->addGraph();
    trace->setName(symbol_text::literal(QStringLiteral("ncu_raw.csv")));
    trace->setData({1, 2, 3}, {10, 20, 30});
    trace->addToLegend();
    QCPGraph *symbol = plot->addGraph();
    symbol->setName(QStringLiteral("B_{r} fit"));
    symbol->setData({1, 2, 3}, {30, 20, 10});
    symbol->addToLegend();
    plot->replot();
    FigureOptions o;
    o.font_family = QStringLiteral("DejaVu Serif");
    const QString path = m_dir->filePath(QStringLiteral("names.svg"));
    QCOMPARE(exportFigure(m_view->figurePlots(), path, o), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());

    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QSet<QString> families;
    for (auto m = family.globalMatch(svg); m.hasNext();)
        families << m.next().captured(1);
    QCOMPARE(families, QSet<QString>{QStringLiteral("DejaVu Serif")});

    static const QRegularExpression text(
            QStringLiteral("<text [^>]*font-size=\"([\\d.]+)\"[^>]*>([^<]*)</text>"));
    QStringList texts;
    QList<double> sizes;
    for (auto m = text.globalMatch(svg); m.hasNext();) {
        const auto match = m.next();
        sizes << match.captured(1).toDouble();
        texts << match.captured(2);
    }
    QVERIFY2(texts.contains(QStringLiteral("ncu_raw.csv")), qPrintable(texts.join(QLatin1Char('|'))));
    // B with a smaller r after it, never the markup itself.
    const qsizetype b = texts.indexOf(QStringLiteral("B"));
    QVERIFY2(b >= 0 && b + 2 < texts.size(), qPrintable(texts.join(QLatin1Char('|'))));
    QCOMPARE(texts[b + 1], QStringLiteral("r"));
    QCOMPARE(texts[b + 2], QStringLiteral(" fit"));
    QVERIFY(sizes[b + 1] < 0.8 * sizes[b]);
    for (const QString &t : std::as_const(texts))
        QVERIFY2(!t.contains(QLatin1String("_{")) && !t.contains(QLatin1Char('\\')), qPrintable(t));
    // The window's legend draws the same way, and the plotted data names the symbol plainly.
    QVERIFY(dynamic_cast<StaticLegendItem *>(plot->legend->itemWithPlottable(symbol)));
    const QString csv = m_dir->filePath(QStringLiteral("names.csv"));
    QCOMPARE(exportPlotData(m_view->figurePlots(), csv), QString());
    QFile data(csv);
    QVERIFY(data.open(QIODevice::ReadOnly));
    const QByteArray rows = data.readAll();
    QVERIFY(rows.contains("\"B_r fit\"") && rows.contains("\"ncu_raw.csv\""));
}

namespace {
/// A graph that remembers the size of the markers it last drew.
struct RecordingGraph : QCPGraph
{
    using QCPGraph::QCPGraph;
    double drawnSize = 0;
    void draw(QCPPainter *painter) override
    {
        drawnSize = scatterStyle().size();
        QCPGraph::draw(painter);
    }
};
} // namespace

void TestFigureExport::denseMarkersAreSmallerInFigures()
{
    // Three hundred markers in view (a kernel family) are drawn at six tenths of their size and outline in a
    // figure, where at the screen's size they would cover each other; fifty keep theirs; the screen's come back.
    QCustomPlot plot;
    plot.resize(600, 400);
    plot.xAxis->setRange(0, 300);
    plot.yAxis->setRange(0, 10);
    auto *dense = new RecordingGraph(plot.xAxis, plot.yAxis);
    auto *sparse = new RecordingGraph(plot.xAxis, plot.yAxis);
    QVector<double> x, y;
    for (int i = 0; i < 300; ++i) {
        x << i;
        y << i % 10;
    }
    dense->setData(x, y);
    sparse->setData(x.mid(0, 50), y.mid(0, 50));
    for (RecordingGraph *g : {dense, sparse}) {
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::black, 2), Qt::red, 15));
    }
    FigureOptions o;
    o.dpi = 100;
    QVERIFY(!renderFigure({&plot}, o).isNull());
    QCOMPARE(dense->drawnSize, 9.0);
    QCOMPARE(sparse->drawnSize, 15.0);
    QCOMPARE(dense->scatterStyle().size(), 15.0); // the screen's again
    QCOMPARE(dense->scatterStyle().pen().widthF(), 2.0);
    // Only the markers in view count: zoomed to fifty of the three hundred, they keep their size.
    plot.xAxis->setRange(0, 49);
    QVERIFY(!renderFigure({&plot}, o).isNull());
    QCOMPARE(dense->drawnSize, 15.0);
}

void TestFigureExport::greyscaleGreysEveryFill()
{
    // The basins of attraction are shaded in light tints: in colour they are there (so the test can see
    // them), in greyscale no pixel has any colour at all.
    const auto tinted = [this](FigureStyle style) {
        FigureOptions o;
        o.style = style;
        o.dpi = 150;
        const QImage image = renderFigure(m_view->figurePlots(), o);
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                count += image.pixelColor(x, y).hsvSaturation() > 4 ? 1 : 0;
        }
        return count;
    };
    const int colour = tinted(FigureStyle::Colour);
    QVERIFY2(colour > 1000, qPrintable(QString::number(colour)));
    QCOMPARE(tinted(FigureStyle::Greyscale), 0);
    // On screen the basins are in colour again.
    QVERIFY(!plot_style::isGreyscale(m_view->plot()));
}

void TestFigureExport::greyscaleMapsKeepTheirShades()
{
    // A colour map shaded light blue to dark blue is, in greyscale, light grey to dark grey: each value at its
    // colour's lightness, not black to white over the range.
    QCustomPlot plot;
    auto *map = new QCPColorMap(plot.xAxis, plot.yAxis);
    map->data()->setSize(2, 1);
    map->data()->setRange(QCPRange(0, 1), QCPRange(0, 1));
    map->setDataRange(QCPRange(0, 1));
    QCPColorGradient blues;
    blues.clearColorStops();
    blues.setColorStopAt(0, QColor(0xde, 0xeb, 0xf7));
    blues.setColorStopAt(1, QColor(0x08, 0x51, 0x9c));
    map->setGradient(blues);
    FigureOptions o;
    o.style = FigureStyle::Greyscale;
    {
        const figure::ExportGuard guard({&plot}, o);
        for (const double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
            const QColor grey = QColor::fromRgba(map->gradient().color(t, QCPRange(0, 1)));
            QCOMPARE(grey.hsvSaturation(), 0);
            QVERIFY2(std::abs(qGray(grey.rgb()) - qGray(blues.color(t, QCPRange(0, 1)))) <= 3, qPrintable(QString::number(t)));
        }
    }
    QCOMPARE(QColor::fromRgba(map->gradient().color(0, QCPRange(0, 1))), QColor(0xde, 0xeb, 0xf7)); // as before
}

QTEST_MAIN(TestFigureExport)
#include "tst_figure_export.moc"
