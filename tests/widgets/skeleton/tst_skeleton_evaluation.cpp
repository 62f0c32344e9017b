// SPDX-License-Identifier: GPL-3.0-or-later
// SkeletonEvaluation without a view: a skeleton's projection, schedule and workload are core's for the same
// text, core model and unroll factor; a text that does not parse keeps the last good projection and says why.
#include "core/profiles/profile_library.h"
#include "core/skeleton/bundled_skeletons.h"
#include "skeleton/skeleton_evaluation.h"

#include <QSignalSpy>
#include <QTest>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

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
    void projectionIsCoresProjection();
    void theUnrollFactorSchedulesCopies();
    void aBadTextKeepsTheLastProjection();
};

void TestSkeletonEvaluation::projectionIsCoresProjection()
{
    SkeletonEvaluation eval;
    QSignalSpy updated(&eval, &SkeletonEvaluation::updated);
    eval.setInputs(sample(), knl(), 4);
    QCOMPARE(updated.count(), 1);
    QVERIFY(eval.error().isEmpty());
    QVERIFY(eval.projection().has_value());
    const core::Skeleton skeleton = core::parseSkeleton(sample().toStdString(), "skeleton");
    const core::SkeletonProjection expected = core::projectSkeleton(skeleton, knl());
    QCOMPARE(eval.projection()->best_unroll, expected.best_unroll);
    QCOMPARE(eval.projection()->unroll.size(), expected.unroll.size());
    QCOMPARE(eval.schedule()->makespan, core::scheduleCopies(expected.graph, 4, knl()).makespan);
    const core::SkeletonWorkload workload = core::deriveWorkload(expected, skeleton, knl(), 4);
    QCOMPARE(eval.workload()->E, workload.E);
    QCOMPARE(eval.workload()->Z, workload.Z);
    QCOMPARE(eval.workload()->factor, 4);
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
