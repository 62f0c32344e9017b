// SPDX-License-Identifier: GPL-3.0-or-later
// The analysis document: every input of the analysis as a part; a session is the document written and read, a
// view edits and shows its part, and undo is registered per part.
#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/session/session.h"
#include "markov/markov_view.h"
#include "roofline/roofline_view.h"
#include "state/analysis_document.h"
#include "state/occupancy_state.h"
#include "state/kernel_state.h"
#include "state/trace_state.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace crossroof;
using namespace crossroof::widgets;

namespace {

/// A session whose every part differs from a new window's.
core::Session changedSession()
{
    core::Session s;
    s.profile = core::resolveProfile("h100-sxm");
    s.params = s.profile.params;
    s.params.n = 17;
    s.occupancy.threads_per_block = 96;
    s.tmm.work = "2e9";
    s.markov.groups = 2;
    s.markov.threads_per_group = 4;
    s.markov.p_index = 3;
    s.mapping.points.push_back({"8T_1", 0.25, 0.5});
    s.stability.y_key = "E";
    s.stability.resolution = 64;
    s.roofline.names = false;
    s.skeleton.unroll = 8;
    s.skeleton.text = "for i in 0..4:\n  load 8\n  flop 4\n";
    s.extrapolate.smoothing = false;
    core::MeasuredTrace trace;
    trace.id = "t1";
    trace.name = "stream";
    trace.x = {1, 2, 3};
    trace.y = {10, 20, 30};
    s.traces.push_back(trace);
    return s;
}

} // namespace

class TestAnalysisDocument : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aSessionIsTheDocumentWrittenAndRead();
    void openingASessionReplacesEveryPart();
    void aSessionWithoutOccupancyTakesTheProfiles();
    void aBoundViewShowsAndEditsItsPart();
    void undoIsRegisteredPerPart();
};

void TestAnalysisDocument::aSessionIsTheDocumentWrittenAndRead()
{
    AnalysisDocument document;
    const core::Session in = changedSession();
    QVERIFY(document.fromSession(in).isEmpty());
    const core::Session out = document.toSession();
    QCOMPARE(out.profile.id, in.profile.id);
    QCOMPARE(out.params.n, 17.0);
    QCOMPARE(out.occupancy.threads_per_block, 96);
    QVERIFY(out.tmm == in.tmm);
    QVERIFY(out.markov == in.markov);
    QVERIFY(out.mapping == in.mapping);
    QVERIFY(out.stability == in.stability);
    QVERIFY(out.roofline == in.roofline);
    QVERIFY(out.skeleton == in.skeleton);
    QVERIFY(out.extrapolate == in.extrapolate);
    QCOMPARE(out.traces.size(), std::size_t(1));
    QCOMPARE(out.traces[0].y, in.traces[0].y);
    // Without the traces: the same parts, no points (what the modified check compares).
    QVERIFY(document.toSession(AnalysisDocument::Traces::Without).traces.empty());
}

void TestAnalysisDocument::openingASessionReplacesEveryPart()
{
    AnalysisDocument document;
    const core::Session fresh = document.toSession();
    QVERIFY(document.fromSession(changedSession()).isEmpty());
    QVERIFY(!(document.toSession().markov == fresh.markov));
    // The document a new window starts with, opened again: nothing of the changed one survives.
    QSignalSpy changed(&document, &AnalysisDocument::changed);
    QVERIFY(document.fromSession(fresh).isEmpty());
    QVERIFY(!changed.isEmpty());
    const core::Session again = document.toSession();
    QCOMPARE(again.profile.id, fresh.profile.id);
    QCOMPARE(again.params.n, fresh.params.n);
    QVERIFY(again.occupancy == fresh.occupancy);
    QVERIFY(again.tmm == fresh.tmm);
    QVERIFY(again.markov == fresh.markov);
    QVERIFY(again.mapping == fresh.mapping);
    QVERIFY(again.stability == fresh.stability);
    QVERIFY(again.roofline == fresh.roofline);
    QVERIFY(again.skeleton == fresh.skeleton);
    QVERIFY(again.extrapolate == fresh.extrapolate);
    QVERIFY(again.traces.empty());
    QVERIFY(document.traces()->traces().empty());
    QVERIFY(document.parameters()->undoStack()->count() == 0);
}

void TestAnalysisDocument::aSessionWithoutOccupancyTakesTheProfiles()
{
    // The H100 sample leaves its occupancy out: the calculator takes the H100's compute capability and SM
    // count, not the defaults' 8.0 (and its 164 KiB carveouts) and one SM.
    const core::Session h100 = core::loadSessionFile(CROSSROOF_SOURCE_DIR "/docs/samples/h100-thrashing.crossroof");
    AnalysisDocument document;
    QVERIFY(document.fromSession(h100).isEmpty());
    QCOMPARE(document.occupancy()->computeCapability(), std::string("9.0"));
    QCOMPARE(document.occupancy()->settings().sm_count, 132LL);
    // Written again, the capability is the session's own from then on.
    QCOMPARE(document.toSession().occupancy.cc, std::string("9.0"));
}

void TestAnalysisDocument::aBoundViewShowsAndEditsItsPart()
{
    AnalysisDocument document;
    MarkovView markov;
    bindView(document.markov(), &markov);
    // The part starts with what the view shows.
    QVERIFY(document.markov()->settings() == markov.settings());

    // A change of the part (a session, an undo, Extrapolate's Send to Markov) shows in the view.
    core::MarkovSettings s = document.markov()->settings();
    s.groups = 2;
    s.threads_per_group = 4;
    s.q_index = 5;
    document.markov()->setSettings(s);
    QCOMPARE(markov.settings().groups, 2);
    QCOMPARE(markov.settings().threads_per_group, 4);
    QCOMPARE(markov.settings().q_index, 5);

    // An edit in the view goes into the part, once.
    QSignalSpy changed(document.markov(), &StatePart::changed);
    s.p_index = 7;
    markov.setSettings(s);
    QCOMPARE(document.markov()->settings().p_index, 7);
    QCOMPARE(changed.size(), 1);

    // Roofline options likewise, through the view's own check boxes.
    RooflineView roofline(document.kernels());
    bindView(document.roofline(), &roofline);
    core::RooflineSettings r = roofline.settings();
    r.names = !r.names;
    roofline.setSettings(r);
    QCOMPARE(document.roofline()->settings().names, r.names);
}

void TestAnalysisDocument::undoIsRegisteredPerPart()
{
    AnalysisDocument document;
    document.trackUndo();
    QUndoStack *stack = document.parameters()->undoStack();
    const core::Session before = document.toSession();

    core::RooflineSettings r = before.roofline;
    r.levels = !r.levels;
    document.roofline()->setSettings(r);
    core::SkeletonSettings k = before.skeleton;
    k.unroll = 2;
    document.skeleton()->setSettings(k);
    core::ExtrapolateSettings e = before.extrapolate;
    e.smoothing = !e.smoothing;
    document.extrapolate()->setSettings(e);
    core::StabilitySettings st = before.stability;
    st.x_key = "L";
    document.stability()->setSettings(st);
    QCOMPARE(stack->count(), 4);
    QCOMPARE(stack->undoText(), QStringLiteral("Map x %1 → L").arg(QString::fromStdString(before.stability.x_key)));

    // Each undo says whose inputs it restored and what, so that the window can bring that view forward.
    QSignalSpy restored(&document, &AnalysisDocument::inputsRestored);
    stack->undo();
    QVERIFY(document.stability()->settings() == before.stability);
    QCOMPARE(restored.size(), 1);
    QCOMPARE(restored.at(0).at(0).toString(), QStringLiteral("stability"));
    QCOMPARE(restored.at(0).at(1).toString(),
             QStringLiteral("Map x L → %1").arg(QString::fromStdString(before.stability.x_key)));
    QCOMPARE(stack->undoText(), QStringLiteral("Smoothing %1 → %2").arg(before.extrapolate.smoothing ? QStringLiteral("on") : QStringLiteral("off"), e.smoothing ? QStringLiteral("on") : QStringLiteral("off")));
    stack->undo();
    QVERIFY(document.extrapolate()->settings() == before.extrapolate);
    QCOMPARE(stack->undoText(), QStringLiteral("Unroll %1 → 2").arg(before.skeleton.unroll));
    stack->undo();
    QVERIFY(document.skeleton()->settings() == before.skeleton);
    QCOMPARE(stack->undoText(), QStringLiteral("L1/L2 %1 → %2").arg(before.roofline.levels ? QStringLiteral("on") : QStringLiteral("off"), r.levels ? QStringLiteral("on") : QStringLiteral("off")));
    stack->undo();
    QVERIFY(document.roofline()->settings() == before.roofline);
    // Redo walks forward again, and an undo is no new step.
    stack->redo();
    QCOMPARE(document.roofline()->settings().levels, r.levels);
    QCOMPARE(stack->count(), 4);
}

QTEST_MAIN(TestAnalysisDocument)
#include "tst_analysis_document.moc"
