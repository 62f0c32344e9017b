// SPDX-License-Identifier: GPL-3.0-or-later
// SkeletonEvaluation without a view: a skeleton's projection, schedule and workload, worked by hand for a dot
// product on a Knights Landing core (loads 5 cycles, FMA 6, two issues a cycle); a text that does not parse
// keeps the last good projection and says why.
#include "core/profiles/profile_library.h"
#include "core/skeleton/bundled_skeletons.h"
#include "skeleton/skeleton_evaluation.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

/// A dot product: two loads and a multiply-add into a carried sum, 1,000 times.
const QString kDot = QStringLiteral("def dot () {\n  for i = 0:1000 {\n    ld a\n    ld b\n    fma s: s, a, b\n  }\n}\n");

QString sample()
{
    const std::string_view text = core::bundledSkeletons().front().text;
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

const core::CoreModel &knl()
{
    return *core::findBundledProfile("xeon-phi-7210")->core_model;
}

} // namespace

class TestSkeletonEvaluation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void projectionIsTheWorkedProjection();
    void theUnrollFactorSchedulesCopies();
    void aBadTextKeepsTheLastProjection();
};

void TestSkeletonEvaluation::projectionIsTheWorkedProjection()
{
    SkeletonEvaluation eval;
    QSignalSpy updated(&eval, &SkeletonEvaluation::updated);
    eval.setInputs(kDot, knl(), 4);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().isEmpty());
    QVERIFY(eval.projection().has_value());
    const core::SkeletonProjection &p = *eval.projection();
    // As written: both loads issue in cycle 0, the FMA 5 cycles later, its result 6 after: 11 cycles, 4 of
    // them stalled; 1,000 of them plus MCDRAM's 200 cycles once for the first touch.
    QCOMPARE(p.schedule.makespan, 11.0);
    QCOMPARE(p.schedule.stall_cycles, 4);
    QCOMPARE(p.point(1).total_cycles, 11200.0);
    // u copies: the loads issue two a cycle, each FMA 5 cycles after its loads, so the body is u + 10 cycles
    // while the issue width keeps up (ceil(3u / 2) + 5 <= u + 10, to u = 10); each copy then costs the one
    // cycle per added copy that the best factor allows, and u = 11 needs 22.
    QCOMPARE(eval.schedule()->makespan, 14.0); // u = 4
    QCOMPARE(p.best_unroll, 10);
    QCOMPARE(p.point(10).body_cycles, 20.0);
    QCOMPARE(p.point(11).body_cycles, 22.0);
    // The workload at u = 4: 12 statements per 8 loads of 4-byte elements in 64-byte lines (Z = 12 / 0.5),
    // and the ILP: 8 loads of 5 cycles and 4 FMAs of 6 over 14 cycles.
    QCOMPARE(eval.workload()->factor, 4);
    QCOMPARE(*eval.workload()->Z, 24.0);
    QCOMPARE(eval.workload()->E, 64.0 / 14.0);
}

void TestSkeletonEvaluation::theUnrollFactorSchedulesCopies()
{
    SkeletonEvaluation eval;
    eval.setInputs(sample(), knl(), 1);
    const double one = eval.schedule()->makespan;
    eval.setInputs(sample(), knl(), 8);
    QVERIFY(eval.schedule()->makespan > one);
    QCOMPARE(eval.workload()->factor, 8);
}

void TestSkeletonEvaluation::aBadTextKeepsTheLastProjection()
{
    SkeletonEvaluation eval;
    eval.setInputs(QStringLiteral("this is no skeleton {"), knl(), 2);
    QVERIFY(!eval.error().isEmpty());
    QVERIFY(!eval.projection());
    QVERIFY(!eval.workload());
    eval.setInputs(sample(), knl(), 2);
    const std::size_t nodes = eval.projection()->graph.body.size();
    QSignalSpy updated(&eval, &SkeletonEvaluation::updated);
    eval.setInputs(sample() + QStringLiteral("\n}}}"), knl(), 2);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().startsWith(QLatin1String("skeleton:")));
    QCOMPARE(eval.projection()->graph.body.size(), nodes);
}

QTEST_MAIN(TestSkeletonEvaluation)
#include "tst_skeleton_evaluation.moc"
