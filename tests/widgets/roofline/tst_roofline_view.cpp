// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "common/plot_style.h"
#include "export/figure_export.h"
#include "core/profiles/profile_library.h"
#include "roofline/roofline_view.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"
#include "core/traces/trace_import.h"
#include "core/traces/kernel_table.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFontMetrics>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace crossroof;
using widgets::ParameterState;
using widgets::RooflineView;

namespace {

const std::string kRaw = CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_raw.csv";
const std::string kDetails = CROSSROOF_SOURCE_DIR "/tests/data/ncu_h100_details.csv";

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace

class TestRooflineView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void ceilingsFollowTheProfile();
    void kernelsFromTheFile();
    void operatingPointFollowsTheSliders();
    void operatingPointNeverAboveTheCeilings();
    void hoverNamesTheKernel();
    void exports();
    void hiddenViewReplotsWhenShown();
    void namesDoNotOverlap();
    void arrowsPairTheKernels();
    void littleCeilingIsDrawn();
    void ticksAtEveryDecade();
    void ticksBetweenDecadesWhereThereIsRoom();
    void selectedKernelInsideThePlot();
    void csvHasThePlottedData();
    void tenThousandKernelsPan();
    void aMeasuredRooflineWithItsRidge();

private:
    /// The kernels of REPORT drawn, with their predictions.
    void setReport(const core::NcuReport &report);

    ParameterState *m_state = nullptr;
    widgets::KernelState *m_kernels = nullptr;
    RooflineView *m_view = nullptr;
};

void TestRooflineView::setReport(const core::NcuReport &report)
{
    m_kernels->setReport(std::make_shared<const core::NcuReport>(report));
    m_kernels->wait();
}

void TestRooflineView::init()
{
    m_state = new ParameterState;
    m_state->applyProfile(*core::findBundledProfile("h100-pcie"));
    m_kernels = new widgets::KernelState(m_state);
    m_view = new RooflineView(m_kernels);
    m_view->resize(800, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void TestRooflineView::cleanup()
{
    delete m_view;
    delete m_kernels;
    delete m_state;
}

void TestRooflineView::ceilingsFollowTheProfile()
{
    const core::XModelParams &p = m_state->params();
    QCOMPARE(m_view->memoryCeilingGbs(), p.R);
    QCOMPARE(m_view->computeCeilingGops(), p.M * p.warp_size * p.clock_ghz * p.sm_count);
    QVERIFY(m_view->note()->text().contains(QStringLiteral("No kernels")));
    // No kernels: a button asks for an ncu export (the window gives it to the Kernels dock).
    QVERIFY(!m_view->openKernelsButton()->isHidden());
    QSignalSpy asked(m_view, &RooflineView::openKernelsRequested);
    m_view->openKernelsButton()->click();
    QCOMPARE(asked.count(), 1);
    m_state->applyValue(QStringLiteral("R"), 1000);
    QCOMPARE(m_view->memoryCeilingGbs(), 1000.0);
    QCOMPARE(m_view->plot()->graph(0)->data()->at(1)->value, m_view->computeCeilingGops()); // the ridge
}

void TestRooflineView::kernelsFromTheFile()
{
    setReport(core::readNcuCsv(kRaw));
    QCOMPARE(m_view->points().size(), std::size_t(10));
    QVERIFY(m_view->openKernelsButton()->isHidden());
    const auto &p = m_view->points().front();
    // 25,967,573 warp-instructions x 32 in 901,216 ns; DRAM 156.18 GB/s.
    QVERIFY(near(p.gops, 25967573.0 * 32 / 901216));
    QVERIFY(near(p.intensity, 25967573.0 * 32 / 901216 / 156.18023648049));
    QCOMPARE(p.label, QStringLiteral("xkernel<8, 1> [0]"));
    QVERIFY(m_view->note()->text().contains(QStringLiteral("10 kernel")));
    // The details sections hold no instruction counts: nothing to draw, and the note says why.
    setReport(core::readNcuCsv(kDetails));
    QVERIFY(m_view->points().empty());
    QVERIFY(m_view->note()->text().contains(QStringLiteral("0 of 10 kernels drawn")));
}

void TestRooflineView::operatingPointFollowsTheSliders()
{
    m_state->applyValue(QStringLiteral("n"), 4);
    const QPointF few = m_view->operatingPoint();
    m_state->applyValue(QStringLiteral("n"), 48);
    const QPointF many = m_view->operatingPoint();
    const core::XModelParams &p = m_state->params();
    const double h = core::XModel(p).solve().operatingPoint().hit_rate.value_or(0);
    QVERIFY(h < 1);
    QCOMPARE(many.x(), p.Z * p.warp_size / p.request_bytes / (1 - h)); // per DRAM byte
    QVERIFY(many.y() > few.y());
    m_state->applyCacheMode(core::CacheMode::None); // no cache: every request goes to DRAM
    m_state->applyValue(QStringLiteral("Z"), p.Z * 4);
    QCOMPARE(m_view->operatingPoint().x(), p.Z * p.warp_size / p.request_bytes);
}

void TestRooflineView::operatingPointNeverAboveTheCeilings()
{
    // Over every bundled GPU profile and a sweep of n and Z, the cache-thrashing GTX 570 included: hits move no
    // DRAM bytes, so the point sits right of Z*32/128 and under R*I.
    int drawn = 0;
    for (const core::HardwareProfile &profile : core::bundledProfiles()) {
        if (profile.kind != "gpu")
            continue;
        m_state->applyProfile(profile);
        for (const double n : {2.0, 8.0, m_state->params().max_warps}) {
            for (const double z : {0.5, 4.0, 12.0, 60.0}) {
                m_state->applyValue(QStringLiteral("n"), n);
                m_state->applyValue(QStringLiteral("Z"), z);
                const QPointF op = m_view->operatingPoint();
                if (!(op.x() > 0))
                    continue;
                ++drawn;
                const double roof = std::min(m_view->memoryCeilingGbs() * op.x(), m_view->computeCeilingGops());
                QVERIFY2(op.y() <= roof * (1 + 1e-9),
                         qPrintable(QStringLiteral("%1 n=%2 Z=%3: %4 Gop/s above the roof %5 at I=%6")
                                            .arg(QString::fromStdString(profile.id)).arg(n).arg(z)
                                            .arg(op.y()).arg(roof).arg(op.x())));
            }
        }
    }
    QVERIFY(drawn > 50);
}

void TestRooflineView::hoverNamesTheKernel()
{
    setReport(core::readNcuCsv(kRaw));
    m_view->plot()->replot();
    const auto &p = m_view->points()[6];
    const QPointF pixel(m_view->plot()->xAxis->coordToPixel(p.intensity),
                        m_view->plot()->yAxis->coordToPixel(p.gops));
    QCOMPARE(m_view->pointAt(pixel + QPointF(3, -2)), std::optional<std::size_t>(6));
    QVERIFY(!m_view->pointAt(QPointF(-100, -100)));
    const QString text = m_view->pointText(6);
    QVERIFY2(text.startsWith(QStringLiteral("xkernel<32, 4> [6]")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("-bound")), qPrintable(text));
}

void TestRooflineView::exports()
{
    setReport(core::readNcuCsv(kRaw));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("roofline.svg"));
    QCOMPARE(widgets::exportFigure(m_view->figurePlots(), path, widgets::FigureOptions {}), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("<svg"));
}

void TestRooflineView::hiddenViewReplotsWhenShown()
{
    // Hidden (another tab in front), the view neither computes nor draws while the sliders move; it catches
    // up when shown, or when its point or a figure is asked for.
    m_view->hide();
    QCoreApplication::processEvents(); // what the plot queued while it was set up
    int replots = 0;
    connect(m_view->plot(), &QCustomPlot::afterReplot, this, [&replots] { ++replots; });
    const QPointF before = m_view->operatingPoint();
    for (int i = 0; i < 3; ++i)
        m_state->applyValue(QStringLiteral("Z"), m_state->params().Z * 2);
    QCoreApplication::processEvents();
    QCOMPARE(replots, 0); // hidden: nothing drawn
    const double hidden = m_view->operatingPoint().x(); // asked for: computed, still not drawn
    QCOMPARE(hidden, 8 * before.x());
    QCOMPARE(hidden, m_state->params().Z * m_state->params().warp_size / m_state->params().request_bytes);
    QCOMPARE(replots, 0);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
    QTRY_VERIFY(replots >= 1);
    const int shown = replots;
    m_state->applyValue(QStringLiteral("Z"), m_state->params().Z * 2);
    QTRY_VERIFY(replots > shown); // shown: follows the slider
    QCOMPARE(m_view->operatingPoint().x(), 2 * hidden);
}

namespace {

/// The names drawn on PLOT, with their boxes in pixels.
std::vector<std::pair<QString, QRectF>> drawnNames(QCustomPlot *plot)
{
    std::vector<std::pair<QString, QRectF>> names;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            names.emplace_back(text->text(), QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()));
    }
    return names;
}

/// The graph whose legend name starts with PREFIX, or none.
QCPGraph *graphNamed(QCustomPlot *plot, const QString &prefix)
{
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->name().startsWith(prefix))
            return plot->graph(i);
    }
    return nullptr;
}

} // namespace

void TestRooflineView::namesDoNotOverlap()
{
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    for (const QSize size : {QSize(1200, 800), QSize(700, 480)}) {
        m_view->resize(size);
        setReport(core::readNcuCsv(kRaw));
        QCoreApplication::processEvents();
        m_view->plot()->replot();
        const auto names = drawnNames(m_view->plot());
        QVERIFY(names.size() >= 5); // most of the ten kernels are named
        QCOMPARE(int(names.size()) + m_view->hiddenLabels(), int(m_view->points().size()));
        const QRectF rect = m_view->plot()->axisRect()->rect();
        for (std::size_t i = 0; i < names.size(); ++i) {
            QVERIFY2(rect.contains(names[i].second), qPrintable(names[i].first));
            // Short names: no template arguments.
            QVERIFY2(names[i].first.startsWith(QStringLiteral("xkernel [")), qPrintable(names[i].first));
            for (std::size_t j = i + 1; j < names.size(); ++j)
                QVERIFY2(!names[i].second.intersects(names[j].second),
                         qPrintable(names[i].first + QStringLiteral(" over ") + names[j].first));
            // Nor over a kernel's mark.
            for (const auto &p : m_view->points()) {
                const QPointF at(m_view->plot()->xAxis->coordToPixel(p.intensity),
                                 m_view->plot()->yAxis->coordToPixel(p.gops));
                QVERIFY2(!names[i].second.contains(at), qPrintable(names[i].first + QStringLiteral(" over ") + p.label));
            }
        }
    }
    // The toggle takes them away and brings them back.
    m_view->namesBox()->setChecked(false);
    QVERIFY(drawnNames(m_view->plot()).empty());
    m_view->namesBox()->setChecked(true);
    QVERIFY(!drawnNames(m_view->plot()).empty());
}

void TestRooflineView::arrowsPairTheKernels()
{
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    const core::NcuReport report = core::readNcuCsv(kRaw);
    setReport(report);
    const core::KernelTable table = core::compareKernels(report, m_state->params(), *core::findBundledProfile("h100-sxm"));
    int arrows = 0;
    for (int i = 0; i < m_view->plot()->itemCount(); ++i) {
        auto *line = qobject_cast<QCPItemLine *>(m_view->plot()->item(i));
        if (!line || line->head().style() != QCPLineEnding::esSpikeArrow)
            continue;
        ++arrows;
        const auto point = std::find_if(m_view->points().begin(), m_view->points().end(),
                                        [line](const auto &p) { return p.label == line->objectName(); });
        QVERIFY2(point != m_view->points().end(), qPrintable(line->objectName()));
        // From the X-model's prediction for that kernel to its measurement.
        const core::KernelRow &row = table.rows.at(point->kernel);
        QVERIFY(near(line->start->coords().y(), *row.predicted_gops));
        QVERIFY(near(line->start->coords().x(), *row.predicted_gops / *row.predicted_gbs));
        QCOMPARE(line->end->coords(), QPointF(point->intensity, point->gops));
    }
    QCOMPARE(arrows, 10);
    m_view->predictionsBox()->setChecked(false);
    for (int i = 0; i < m_view->plot()->itemCount(); ++i) {
        auto *line = qobject_cast<QCPItemLine *>(m_view->plot()->item(i));
        QVERIFY(!line || line->head().style() != QCPLineEnding::esSpikeArrow);
    }
    QVERIFY(!graphNamed(m_view->plot(), QStringLiteral("X-model prediction")));
}

void TestRooflineView::littleCeilingIsDrawn()
{
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    m_state->applyValue(QStringLiteral("n"), 8);
    m_state->applyValue(QStringLiteral("m"), 2);
    const core::XModelParams &p = m_state->params();
    const double expected = 8 * 2 * p.request_bytes * p.clock_ghz * p.sm_count / p.L;
    QCPGraph *dram = graphNamed(m_view->plot(), QStringLiteral("DRAM latency ceiling"));
    QVERIFY(dram);
    const auto first = dram->data()->at(0);
    QVERIFY(near(first->value / first->key, expected));
    // Up to the compute peak.
    QVERIFY(near(dram->data()->at(1)->value, m_view->computeCeilingGops()));
    // The L1 ceiling (at L_s) comes with the kernels' L1 points.
    QVERIFY(!graphNamed(m_view->plot(), QStringLiteral("L1 latency ceiling")));
    setReport(core::readNcuCsv(kRaw));
    QCPGraph *l1 = graphNamed(m_view->plot(), QStringLiteral("L1 latency ceiling"));
    QVERIFY(l1);
    QVERIFY(near(l1->data()->at(0)->value / l1->data()->at(0)->key, expected * p.L / p.L_s));
    QVERIFY(graphNamed(m_view->plot(), QStringLiteral("Kernels at L1")));
    m_view->levelsBox()->setChecked(false);
    QVERIFY(!graphNamed(m_view->plot(), QStringLiteral("L1 latency ceiling")));
    QVERIFY(!graphNamed(m_view->plot(), QStringLiteral("Kernels at L1")));
}

void TestRooflineView::ticksAtEveryDecade()
{
    setReport(core::readNcuCsv(kRaw));
    m_view->plot()->replot();
    for (QCPAxis *axis : {m_view->plot()->xAxis, m_view->plot()->yAxis}) {
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        QVERIFY(ticks.size() >= 3);
        // The range ends on decades, and every decade between is a labelled tick.
        const double decades = std::log10(axis->range().upper / axis->range().lower);
        QVERIFY(near(decades, std::round(decades)));
        int inside = 0, lastInside = -1;
        for (int i = 0; i < ticks.size(); ++i) {
            // Decades, and where there is room 2 and 5 times each (ticksBetweenDecadesWhereThereIsRoom()).
            const double mantissa = ticks[i] / std::pow(10.0, std::floor(std::log10(ticks[i]) + 1e-9));
            QVERIFY(near(mantissa, 1) || near(mantissa, 2) || near(mantissa, 5));
            if (!near(mantissa, 1))
                continue;
            if (axis->range().contains(ticks[i])) {
                ++inside;
                lastInside = i;
                // All labelled but the vertical axis's first, which would meet the horizontal one's at the corner.
                const bool corner = axis == m_view->plot()->yAxis && inside == 1;
                QCOMPARE(labels[i].isEmpty(), corner);
            }
        }
        QCOMPARE(inside, int(std::round(decades)) + 1);
        // The last one's label fits in the widget (QCustomPlot leaves out a label that the edge would cut).
        if (axis == m_view->plot()->xAxis) {
            const double last = axis->coordToPixel(ticks[lastInside]);
            const QString label = labels[lastInside];
            QVERIFY(last + QFontMetrics(axis->tickLabelFont()).horizontalAdvance(label) / 2.0 < m_view->plot()->width());
        }
    }
}

void TestRooflineView::ticksBetweenDecadesWhereThereIsRoom()
{
    // The H100 kernels' roofline in a tall plot: its throughput axis labels 2 and 5 times each decade too
    // ("2000", "5000"), apart; squeezed to a strip, only the decades; in between, 3 times each.
    setReport(core::readNcuCsv(kRaw));
    m_view->plot()->resize(900, 900);
    m_view->plot()->replot();
    m_view->plot()->replot(); // laid out for the new size first
    QCPAxis *axis = m_view->plot()->yAxis;
    const auto labelled = [axis](double mantissa) {
        int count = 0;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 0; i < ticks.size(); ++i) {
            const double m = ticks[i] / std::pow(10.0, std::floor(std::log10(ticks[i]) + 1e-9));
            count += axis->range().contains(ticks[i]) && near(m, mantissa) && !labels[i].isEmpty();
        }
        return count;
    };
    QVERIFY(labelled(2) >= 2);
    QVERIFY(labelled(5) >= 2);
    const double decades = std::log10(axis->range().upper / axis->range().lower);
    QVERIFY2(axis->axisRect()->height() / decades > 4 * QFontMetrics(axis->tickLabelFont()).height(), "the plot is not tall");
    m_view->plot()->resize(900, 160);
    m_view->plot()->replot();
    m_view->plot()->replot();
    QCOMPARE(labelled(2), 0);
    QCOMPARE(labelled(5), 0);
    QVERIFY(labelled(1) >= 1);
    // Between the two, a height where each decade has room for two labels: 1 and 3 times each, not 2 and 5.
    bool thirds = false;
    for (int height = 160; height <= 900 && !thirds; height += 10) {
        m_view->plot()->resize(900, height);
        m_view->plot()->replot();
        m_view->plot()->replot();
        thirds = labelled(3) >= 2 && labelled(2) == 0;
    }
    QVERIFY(thirds);
}

void TestRooflineView::selectedKernelInsideThePlot()
{
    m_view->resize(620, 420);
    setReport(core::readNcuCsv(kRaw));
    // Every kernel, the ones at the ends of the range included, selected in turn: its whole mark is inside.
    for (const auto &p : m_view->points()) {
        m_view->setHighlighted({p.label});
        m_view->plot()->replot();
        const QPointF at(m_view->plot()->xAxis->coordToPixel(p.intensity), m_view->plot()->yAxis->coordToPixel(p.gops));
        const QRectF mark(at - QPointF(10, 10), QSizeF(20, 20)); // the largest disc
        QVERIFY2(m_view->plot()->axisRect()->rect().contains(mark.toRect()), qPrintable(p.label));
    }
}

void TestRooflineView::csvHasThePlottedData()
{
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    setReport(core::readNcuCsv(kRaw));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("roofline.csv"));
    QCOMPARE(m_view->exportCsv(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), QStringLiteral("series,name,intensity_op_per_byte,gops"));
    // Kernel 0 at DRAM, L1 and its prediction; the name quoted (it holds a comma).
    const auto &p = m_view->points().front();
    const auto row = [&lines](const QString &start) {
        for (const QString &line : lines) {
            if (line.startsWith(start))
                return line;
        }
        return QString();
    };
    const QString dram = row(QStringLiteral("kernel DRAM,\"xkernel<8, 1> [0]\","));
    QVERIFY2(!dram.isEmpty(), qPrintable(lines.join(QLatin1Char('\n'))));
    const QStringList fields = dram.split(QLatin1Char(','));
    QVERIFY(near(fields.at(fields.size() - 2).toDouble(), p.intensity, 1e-11));
    QVERIFY(near(fields.back().toDouble(), p.gops, 1e-11));
    QVERIFY(!row(QStringLiteral("kernel L1,\"xkernel<8, 1> [0]\",")).isEmpty());
    QVERIFY(!row(QStringLiteral("predicted,\"xkernel<8, 1> [0]\",")).isEmpty());
    QCOMPARE(lines.filter(QStringLiteral("kernel DRAM,")).size(), 10);
    QCOMPARE(lines.filter(QStringLiteral("predicted,")).size(), 10);
    // The ceilings: the roof's three vertices, the ridge at the peak.
    const QStringList roof = lines.filter(QStringLiteral("ceiling,memory R·I and compute peak,"));
    QCOMPARE(roof.size(), 3);
    QVERIFY(near(roof[1].split(QLatin1Char(',')).back().toDouble(), m_view->computeCeilingGops(), 1e-11));
    QVERIFY2(lines.filter(QStringLiteral("ceiling,\"DRAM latency (Little's law), n = 64, m = 1\",")).size() == 2,
             qPrintable(lines.join(QLatin1Char('\n'))));
    QCOMPARE(lines.filter(QStringLiteral("operating point,")).size(), 1);
    // The FP32 and FP64 pipes, flat from the memory ceiling to the right edge, both inside the plot.
    for (const auto &[name, gops] : {std::pair{QStringLiteral("FP32 pipe, 128 lanes per SM"), 128 * 1.98 * 132},
                                     std::pair{QStringLiteral("FP64 pipe, 64 lanes per SM"), 64 * 1.98 * 132}}) {
        const QStringList pipe = lines.filter(QStringLiteral("ceiling,\"") + name + QStringLiteral("\","));
        QCOMPARE(pipe.size(), 2);
        const QStringList knee = pipe[0].split(QLatin1Char(','));
        QVERIFY(near(knee.back().toDouble(), gops, 1e-11));
        QVERIFY(near(knee.at(knee.size() - 2).toDouble(), gops / m_view->memoryCeilingGbs(), 1e-11));
        QVERIFY(gops < m_view->plot()->yAxis->range().upper);
    }
    // A folder that is not there: the error names the file, and nothing is written.
    const QString missing = dir.filePath(QStringLiteral("no/such/roofline.csv"));
    const QString error = m_view->exportCsv(missing);
    QVERIFY2(error.startsWith(missing + QStringLiteral(": cannot write")), qPrintable(error));
    QVERIFY(!QFile::exists(missing));
}

void TestRooflineView::tenThousandKernelsPan()
{
    // A whole application's export: the ten real kernels repeated to 10,000 launches, each with its own ID.
    m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
    core::NcuReport report = core::readNcuCsv(kRaw);
    const std::vector<core::NcuKernel> real = report.kernels;
    report.kernels.clear();
    for (int i = 0; i < 10'000; ++i) {
        core::NcuKernel k = real[std::size_t(i) % real.size()];
        k.id = std::to_string(i);
        report.kernels.push_back(k);
    }
    m_view->resize(900, 640);
    // Only the DRAM marks (and the ceilings): what is under a kernel's place is its own mark.
    for (QCheckBox *box : {m_view->namesBox(), m_view->predictionsBox(), m_view->levelsBox()})
        box->setChecked(false);
    setReport(report);
    QCOMPARE(m_view->points().size(), std::size_t(10'000));
    widgets::KernelMarks *marks = m_view->kernelMarks();
    QVERIFY(marks);
    QCOMPARE(marks->marks().size(), std::size_t(10'000));
    int kernelGraphs = 0;
    for (int i = 0; i < m_view->plot()->graphCount(); ++i)
        kernelGraphs += m_view->plot()->graph(i)->name().startsWith(QStringLiteral("Kernels at DRAM"));
    QCOMPARE(kernelGraphs, 1); // one plottable, one legend entry

    // A pan: the ranges move by a fifth of a decade; each kernel is drawn at its new place.
    QCustomPlot *plot = m_view->plot();
    const double factor = std::pow(10.0, 0.2);
    plot->xAxis->setRange(plot->xAxis->range().lower * factor, plot->xAxis->range().upper * factor);
    plot->yAxis->setRange(plot->yAxis->range().lower / factor, plot->yAxis->range().upper / factor);
    const QImage image = plot->toPixmap().toImage();
    // Ten places, ten sizes: the 10,000 marks are drawn as the ten that are seen.
    const QRect rect = plot->axisRect()->rect();
    std::set<std::pair<int, int>> inside;
    for (const auto &p : m_view->points()) {
        const QPoint at(int(std::floor(plot->xAxis->coordToPixel(p.intensity))),
                        int(std::floor(plot->yAxis->coordToPixel(p.gops))));
        if (!rect.contains(at) || !inside.insert({at.x(), at.y()}).second)
            continue;
        // A disc in the marks' colour (QCustomPlot fills a disc with its outline's colour).
        QCOMPARE(image.pixelColor(at), widgets::plot_style::kBlue);
    }
    QVERIFY(!inside.empty());
    QVERIFY2(marks->lastDrawn() >= int(inside.size()) && marks->lastDrawn() <= int(real.size()),
             qPrintable(QString::number(marks->lastDrawn())));

    // With the predictions: the 200 longest kernels get an arrow, and those on the same pixels are drawn once.
    m_view->predictionsBox()->setChecked(true);
    int arrows = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *line = qobject_cast<QCPItemLine *>(plot->item(i));
        arrows += line && line->head().style() == QCPLineEnding::esSpikeArrow;
    }
    QCOMPARE(arrows, 200);
    plot->toPixmap();
    QVERIFY2(m_view->arrowsDrawn() >= 1 && m_view->arrowsDrawn() <= int(real.size()),
             qPrintable(QString::number(m_view->arrowsDrawn())));
}

void TestRooflineView::aMeasuredRooflineWithItsRidge()
{
    // gpu-benches' gpu-roofline of an H200 (tests/data/gpu_benches) imported as a trace: its 14 rows in
    // instructions (two flops per FMA: 470 Gop/s at 0.125 op/B first), its ridge at its peak 18,613.5 Gop/s.
    widgets::TraceState traces;
    m_view->setTraces(&traces);
    const int before = m_view->plot()->graphCount();
    traces.add(core::readTraceFile(CROSSROOF_SOURCE_DIR "/tests/data/gpu_benches/roofline_h200.txt").traces.front());
    QCoreApplication::processEvents();
    QCPGraph *rows = nullptr, *ridge = nullptr;
    for (int i = 0; i < m_view->plot()->graphCount(); ++i) {
        QCPGraph *g = m_view->plot()->graph(i);
        if (g->name().contains(QStringLiteral("h200 roofline")))
            rows = g;
        if (g->name().startsWith(QStringLiteral("its ridge")))
            ridge = g;
    }
    QVERIFY(rows && ridge);
    QCOMPARE(m_view->plot()->graphCount(), before + 2);
    QCOMPARE(rows->dataCount(), 14);
    QCOMPARE(rows->data()->constBegin()->key, 0.125);
    QCOMPARE(rows->data()->constBegin()->value, 470.0);
    QCOMPARE(ridge->data()->constBegin()->value, 37227.0 / 2);
    QVERIFY(near(ridge->data()->constBegin()->key, 37227.0 / 3780.0 / 2, 0.005));
    // Every row inside the axes, and in the CSV.
    QVERIFY(m_view->plot()->xAxis->range().contains(0.125));
    QVERIFY(m_view->plot()->yAxis->range().contains(37227.0 / 2));
    QVERIFY(m_view->csv().contains(QStringLiteral("measured roofline")));
    // Hidden, it goes.
    core::MeasuredTrace hidden = traces.traces().front();
    hidden.visible = false;
    traces.setTraces({hidden});
    QCoreApplication::processEvents();
    QCOMPARE(m_view->plot()->graphCount(), before);
}

QTEST_MAIN(TestRooflineView)
#include "tst_roofline_view.moc"
