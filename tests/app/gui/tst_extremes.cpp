// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/xmodel/parameters.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <random>

using namespace crossroof;

namespace {

/// Every plotted number of PLOT is finite (NaN gaps in curves are how QCustomPlot breaks a line, so
/// those are allowed in graphs and curves, never in the axes' ranges).
QString problemIn(QCustomPlot *plot)
{
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        if (!std::isfinite(axis->range().lower) || !std::isfinite(axis->range().upper))
            return QStringLiteral("axis '%1' range not finite").arg(axis->label());
    }
    for (int i = 0; i < plot->graphCount(); ++i) {
        for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it) {
            if (std::isinf(it->key) || std::isinf(it->value))
                return QStringLiteral("graph '%1' has an infinite point").arg(plot->graph(i)->name());
        }
    }
    return {};
}

/// A visible label of WINDOW that prints "nan" or "inf" (the views print "–" and "∞").
QString badLabelIn(QWidget *window)
{
    static const QRegularExpression bad(QStringLiteral("\\b(nan|inf)\\b"),
                                        QRegularExpression::CaseInsensitiveOption);
    for (const QLabel *label : window->findChildren<QLabel *>()) {
        if (label->isVisible() && bad.match(label->text()).hasMatch())
            return label->text().left(120);
    }
    return {};
}

} // namespace

/// Every numeric parameter of every bundled profile at its minimum, its maximum and random values, set
/// through the same state the sliders use: every view's plots stay finite and every view paints.
class TestExtremes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyParameterAtItsLimits();
};

void TestExtremes::everyParameterAtItsLimits()
{
    app::MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    widgets::ParameterState *state = w.state();
    std::mt19937_64 rng(19);
    int checked = 0;
    for (const auto &profile : core::bundledProfiles()) {
        if (profile.kind != "gpu")
            continue;
        state->applyProfile(profile);
        for (const auto &info : core::parameterInfos()) {
            const QString key = QString::fromLatin1(info.key.data(), qsizetype(info.key.size()));
            const double logLo = std::log10(std::max(info.min, 1e-6));
            const double random = info.log_scale
                    ? std::pow(10.0, std::uniform_real_distribution<double>(logLo, std::log10(info.max))(rng))
                    : std::uniform_real_distribution<double>(info.min, info.max)(rng);
            for (double v : {info.min, info.max, random}) {
                if (info.integer)
                    v = std::round(v);
                state->setValue(key, v);
                const auto &p = state->params();
                // The window's own choice where a value breaks a rule with another key (n > max_warps, say)
                // is fine; what it shows must be finite.
                QVERIFY2(std::isfinite(p.*(info.member)), qPrintable(key));
                for (QCustomPlot *plot : w.figurePlots(QStringLiteral("xgraph"))) {
                    plot->replot();
                    const QString problem = problemIn(plot);
                    QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1, %2 = %3: %4")
                                                                   .arg(QString::fromStdString(profile.id), key)
                                                                   .arg(v)
                                                                   .arg(problem)));
                }
                const QString label = badLabelIn(&w);
                QVERIFY2(label.isEmpty(), qPrintable(QStringLiteral("%1, %2 = %3: '%4'")
                                                             .arg(QString::fromStdString(profile.id), key)
                                                             .arg(v)
                                                             .arg(label)));
                ++checked;
            }
            state->applyResetToProfile();
        }
        // Every view paints at two extreme corners: all workload keys at their minimum, then at their maximum.
        for (bool top : {false, true}) {
            for (const auto &info : core::parameterInfos()) {
                if (info.side == core::ParameterSide::Workload)
                    state->setValue(QString::fromLatin1(info.key.data(), qsizetype(info.key.size())),
                                    top ? info.max : info.min);
            }
            for (const QString &view : app::MainWindow::viewNames()) {
                QVERIFY(w.showView(view));
                QCoreApplication::processEvents();
                QVERIFY(!w.grab().isNull());
                for (QCustomPlot *plot : w.figurePlots(view)) {
                    const QString problem = problemIn(plot);
                    QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1, view %2: %3")
                                                                   .arg(QString::fromStdString(profile.id), view,
                                                                        problem)));
                }
            }
            state->applyResetToProfile();
        }
        w.showView(QStringLiteral("xgraph"));
    }
    QVERIFY(checked > 300);
}

QTEST_MAIN(TestExtremes)
#include "tst_extremes.moc"
