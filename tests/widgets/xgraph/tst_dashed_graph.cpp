// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/dashed_graph.h"
#include "support/image_compare.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof::widgets;

class TestDashedGraph : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theDashesAreQtsDashes();
};

void TestDashedGraph::theDashesAreQtsDashes()
{
    // At a device pixel ratio of 2 (QT_SCALE_FACTOR, main()), a curved line in two pieces (a NaN between), dashed
    // and dash-dotted, with square and flat caps and an offset: drawn dash by dash it shows the pixels Qt's
    // dasher draws, within a level of rounding where an antialiased edge is cut.
    QCustomPlot plot;
    plot.resize(640, 420);
    plot.xAxis->setRange(0, 10);
    plot.yAxis->setRange(-1.5, 1.5);
    QVector<double> x;
    QVector<double> y;
    for (int i = 0; i <= 60; ++i) {
        x << i / 6.0;
        y << (i == 31 ? std::numeric_limits<double>::quiet_NaN() : std::sin(i / 6.0) * (1 + 0.3 * std::cos(i / 2.0)));
    }
    auto *dashed = new DashedGraph(plot.xAxis, plot.yAxis);
    dashed->setData(x, y);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QVERIFY(plot.devicePixelRatioF() > 1.5);
    for (const QPen &pen : {QPen(Qt::blue, 2, Qt::DashLine), QPen(Qt::red, 1.5, Qt::DashDotLine, Qt::FlatCap),
                            QPen(Qt::darkGreen, 3, Qt::DotLine, Qt::SquareCap, Qt::RoundJoin)}) {
        for (const double offset : {0.0, 2.5}) {
            QPen p = pen;
            p.setDashOffset(offset);
            dashed->setPen(p);
            plot.replot(QCustomPlot::rpImmediateRefresh);
            const QImage ours = plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
            auto *plain = new QCPGraph(plot.xAxis, plot.yAxis);
            plain->setData(x, y);
            plain->setPen(p);
            dashed->setVisible(false);
            plot.replot(QCustomPlot::rpImmediateRefresh);
            const QImage qts = plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
            plot.removeGraph(plain);
            dashed->setVisible(true);
            QCOMPARE(ours.size(), qts.size());

            int ink = 0;
            for (int row = 0; row < ours.height(); ++row) {
                for (int column = 0; column < ours.width(); ++column)
                    ink += qGray(qts.pixel(column, row)) < 200 ? 1 : 0;
            }
            QVERIFY(ink > 1000); // the line is there
            const int worst = crossroof::test::largestChannelDifference(ours, qts);
            QVERIFY2(worst <= 1, qPrintable(QStringLiteral("%1, width %2, offset %3: %4 levels")
                                                    .arg(int(pen.style())).arg(pen.widthF()).arg(offset).arg(worst)));
        }
    }
}

int main(int argc, char **argv)
{
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    TestDashedGraph test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_dashed_graph.moc"
