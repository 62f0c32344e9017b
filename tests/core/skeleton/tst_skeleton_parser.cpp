// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/skeleton/bundled_skeletons.h"
#include "core/skeleton/skeleton.h"
#include "core/support/error.h"

#include <QTest>

using namespace crossroof;

class TestSkeletonParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parsesLoopsVariablesAndStatements();
    void commentsBlankLinesAndBracesOnOneLine();
    void errorsNameLineColumnAndWhatWasExpected_data();
    void errorsNameLineColumnAndWhatWasExpected();
    void refusesTooLargeInput();
    void everySampleParses();
};

void TestSkeletonParser::parsesLoopsVariablesAndStatements()
{
    const core::Skeleton s = core::parseSkeleton("def main ()\n"
                                                 "{\n"
                                                 "  :n = 40\n"
                                                 "  :m = n\n"
                                                 "  for i = 2:m\n"
                                                 "  {\n"
                                                 "    forall j = 0:8\n"
                                                 "    {\n"
                                                 "      ld a\n"
                                                 "      fp b: a, c\n"
                                                 "      fma d: d, b, a\n"
                                                 "      xp k: k\n"
                                                 "      st d\n"
                                                 "    }\n"
                                                 "  }\n"
                                                 "}\n",
                                                 "t.skel");
    QCOMPARE(s.name, std::string("main"));
    QCOMPARE(s.loops.size(), std::size_t(2));
    QCOMPARE(s.loops[0].variable, std::string("i"));
    QCOMPARE(s.loops[0].trips(), 38LL);
    QVERIFY(!s.loops[0].parallel);
    QVERIFY(s.loops[1].parallel);
    QCOMPARE(s.loops[1].trips(), 8LL);
    QCOMPARE(s.outerIterations(), 38.0);
    QCOMPARE(s.body.size(), std::size_t(5));
    QCOMPARE(s.body[0].kind, core::StatementKind::Load);
    QCOMPARE(s.body[0].target, std::string("a"));
    QVERIFY(s.body[0].sources.empty());
    QCOMPARE(s.body[1].kind, core::StatementKind::Fp);
    QCOMPARE(s.body[1].sources, (std::vector<std::string>{"a", "c"}));
    QCOMPARE(s.body[2].kind, core::StatementKind::Fma);
    QCOMPARE(s.body[2].sources.size(), std::size_t(3));
    QCOMPARE(s.body[3].kind, core::StatementKind::Xp);
    QCOMPARE(s.body[4].kind, core::StatementKind::Store);
    QVERIFY(s.body[4].target.empty());
    QCOMPARE(s.body[4].sources, (std::vector<std::string>{"d"}));
    QCOMPARE(s.body[1].line, 10);
    QCOMPARE(s.body[1].column, 7);
}

void TestSkeletonParser::commentsBlankLinesAndBracesOnOneLine()
{
    const core::Skeleton s = core::parseSkeleton("// a comment first\n\n"
                                                 "def k() { // trailing\n"
                                                 "  for i = 0:3 { ld x; fp y: x // 1/x\n"
                                                 "  }\n"
                                                 "}",
                                                 "t.skel");
    QCOMPARE(s.body.size(), std::size_t(2));
    QCOMPARE(s.body[1].sources, (std::vector<std::string>{"x"}));
    // No loop at all: the body runs once.
    const core::Skeleton flat = core::parseSkeleton("def k ()\n{\n  ld x\n}\n", "t.skel");
    QVERIFY(flat.loops.empty());
    QCOMPARE(flat.outerIterations(), 1.0);
}

void TestSkeletonParser::errorsNameLineColumnAndWhatWasExpected_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("no def") << "main ()" << "t.skel: line 1, column 1: expected 'def NAME ()' to start the skeleton, got 'main'";
    QTest::newRow("missing colon") << "def m ()\n{\n  fp x a, b\n}"
                                   << "t.skel: line 3, column 8: expected ':' and the variables 'fp x' reads, got 'a'";
    QTest::newRow("missing source") << "def m ()\n{\n  fma x: a,\n}"
                                    << "t.skel: line 3, column 12: expected a variable name, got the end of the line";
    QTest::newRow("unknown keyword") << "def m ()\n{\n  mul x: a\n}"
                                     << "t.skel: line 3, column 3: expected a statement (ld, st, fp, fma, xp), a loop "
                                        "(for, forall) or ':name = value', got 'mul'";
    QTest::newRow("unknown variable") << "def m ()\n{\n  for i = 0:count\n  {\n    ld a\n  }\n}"
                                      << "t.skel: line 3, column 13: unknown variable 'count' (define it first with "
                                         "':count = VALUE')";
    QTest::newRow("empty range") << "def m ()\n{\n  :n = 0\n  for i = 0:n\n  {\n    ld a\n  }\n}"
                                 << "t.skel: line 4, column 13: empty loop: 'i' runs from 0 to 0, no iterations";
    QTest::newRow("empty body") << "def m ()\n{\n  for i = 0:4\n  {\n  }\n}"
                                << "t.skel: line 3, column 3: empty loop: the body of loop 'i' has no statements";
    QTest::newRow("huge value") << "def m ()\n{\n  :n = 99999999999999999999\n}"
                                << "t.skel: line 3, column 8: the value of ':n' 99999999999999999999 is too large (at "
                                   "most 10^15)";
    QTest::newRow("value just over the limit") << "def m ()\n{\n  :n = 1000000000000001\n}"
                                               << "t.skel: line 3, column 8: the value of ':n' 1000000000000001 is "
                                                  "too large (at most 10^15)";
    QTest::newRow("nest just over the limit")
            << "def m ()\n{\n  :n = 1000000\n  for i = 0:n\n  {\n    for j = 0:1000000001\n    {\n      ld a\n    }\n  }\n}"
            << "t.skel: line 4, column 1: the loop nest runs too many iterations (the product of the trip counts is "
               "above 10^15)";
    QTest::newRow("overflowing nest")
            << "def m ()\n{\n  :n = 1000000000\n  for i = 0:n\n  {\n    for j = 0:n\n    {\n      ld a\n    }\n  }\n}"
            << "t.skel: line 4, column 1: the loop nest runs too many iterations (the product of the trip counts is "
               "above 10^15)";
    QTest::newRow("two loops") << "def m ()\n{\n  for i = 0:2 { ld a }\n  for j = 0:2 { ld b }\n}"
                               << "t.skel: line 4, column 3: a second loop at the same level: a skeleton is one "
                                  "perfect loop nest";
    QTest::newRow("statement beside a loop") << "def m ()\n{\n  for i = 0:2 { ld a }\n  ld b\n}"
                                             << "t.skel: line 4, column 3: a statement after a loop: statements "
                                                "belong in the innermost loop only";
    QTest::newRow("loop variable as bound") << "def m ()\n{\n  for i = 0:4 {\n    for j = 0:i { ld a }\n  }\n}"
                                            << "t.skel: line 4, column 15: the loop variable 'i' cannot be a bound: "
                                               "the nest must be rectangular";
    QTest::newRow("unclosed") << "def m ()\n{\n  ld a\n"
                              << "t.skel: line 4, column 1: expected '}' to close 'm', got the end of the file";
    QTest::newRow("junk after") << "def m () { ld a }\nld b"
                                << "t.skel: line 2, column 1: expected the end of the file after the closing '}', "
                                   "got 'ld'";
    QTest::newRow("bad character") << "def m () { ld a$ }"
                                   << "t.skel: line 1, column 16: unexpected character '$'";
    QTest::newRow("binary") << QString::fromLatin1("def m () { ld \x01 }")
                            << "t.skel: line 1, column 15: unexpected byte 1 (a skeleton is plain ASCII text)";
    QTest::newRow("two statements on a line") << "def m () {\n ld a ld b\n}"
                                              << "t.skel: line 2, column 7: expected the end of the line, got 'ld'";
    QTest::newRow("no statements") << "def m ()\n{\n  :n = 3\n}"
                                   << "t.skel: line 2, column 1: the skeleton has no statements";
}

void TestSkeletonParser::errorsNameLineColumnAndWhatWasExpected()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
        core::parseSkeleton(text.toStdString(), "t.skel");
        QFAIL("the skeleton must be refused");
    } catch (const core::InputError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

void TestSkeletonParser::refusesTooLargeInput()
{
    const std::string big(core::kMaxSkeletonBytes + 1, ' ');
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::parseSkeleton(big, "big.skel"));
    std::string many = "def m ()\n{\n";
    for (std::size_t i = 0; i <= core::kMaxSkeletonStatements; ++i)
        many += "ld a\n";
    many += "}\n";
    try {
        core::parseSkeleton(many, "many.skel");
        QFAIL("too many statements");
    } catch (const core::InputError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("too many statements")), e.what());
    }
}

void TestSkeletonParser::everySampleParses()
{
    QCOMPARE(core::bundledSkeletons().size(), std::size_t(3));
    for (const core::BundledSkeleton &b : core::bundledSkeletons()) {
        const core::Skeleton s = core::parseSkeleton(b.text, std::string(b.name));
        QVERIFY(!s.body.empty());
        QVERIFY(!s.loops.empty());
        QVERIFY(s.loops.back().parallel);
    }
    const core::Skeleton hacc = core::parseSkeleton(core::bundledSkeletons()[0].text, "haccmk.skel");
    QCOMPARE(hacc.body.size(), std::size_t(28)); // Listing 2: four loads and 24 floating-point statements
    QCOMPARE(hacc.loops[0].trips(), 327LL);
}

QTEST_APPLESS_MAIN(TestSkeletonParser)
#include "tst_skeleton_parser.moc"
