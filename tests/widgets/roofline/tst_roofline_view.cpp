// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/parameter_state.h"
#include "export/figure_export.h"
#include "core/profiles/profile_library.h"
#include "roofline/roofline_view.h"
#include "core/traces/ncu_csv.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

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

private:
    ParameterState *m_state = nullptr;
    RooflineView *m_view = nullptr;
};

void TestRooflineView::init()
{
    m_state = new ParameterState;
    m_state->applyProfile(*core::findBundledProfile("h100-pcie"));
    m_view = new RooflineView(m_state);
    m_view->resize(800, 600);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view));
}

void TestRooflineView::cleanup()
{
    delete m_view;
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
    m_view->setReport(core::readNcuCsv(kRaw));
    QCOMPARE(m_view->points().size(), std::size_t(10));
    QVERIFY(m_view->openKernelsButton()->isHidden());
    const auto &p = m_view->points().front();
    // 25,967,573 warp-instructions x 32 in 901,216 ns; DRAM 156.18 GB/s.
    QVERIFY(near(p.gops, 25967573.0 * 32 / 901216));
    QVERIFY(near(p.intensity, 25967573.0 * 32 / 901216 / 156.18023648049));
    QCOMPARE(p.label, QStringLiteral("xkernel<8, 1> [0]"));
    QVERIFY(m_view->note()->text().contains(QStringLiteral("10 kernel")));
    // The details sections hold no instruction counts: nothing to draw, and the note says why.
    m_view->setReport(core::readNcuCsv(kDetails));
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
    m_view->setReport(core::readNcuCsv(kRaw));
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
    m_view->setReport(core::readNcuCsv(kRaw));
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

QTEST_MAIN(TestRooflineView)
#include "tst_roofline_view.moc"
