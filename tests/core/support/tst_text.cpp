// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/quote.h"
#include "core/support/text.h"
#include "core/support/utf8.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QTest>

#include <limits>
#include <vector>

using namespace crossroof;

class TestText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void numbersAsMessagesShowThem();
    void refusedValuesKeepEveryDigit();
    void ratesUnderTheirPrefix();
    void trimming();
    void briefValues();
    void quotedForAMessage();
    void shortenedForAMessage();
    void linesAreNumberedFromOne();
    void bytesThatAreNotUtf8AreEscaped();
};

void TestText::numbersAsMessagesShowThem()
{
    QCOMPARE(core::formatNumber(0.5), std::string("0.5"));
    QCOMPARE(core::formatNumber(917.8384), std::string("917.838"));
    QCOMPARE(core::formatNumber(1e9), std::string("1e+09"));
    QCOMPARE(core::formatNumber(-5), std::string("-5"));
    QCOMPARE(core::formatNumber(std::numeric_limits<double>::infinity()), std::string("inf"));
}

void TestText::ratesUnderTheirPrefix()
{
    // As the window writes them: the prefix that keeps the number below 1000, so that the advisor's reasons read
    // "+1.036 TB/s" beside its table's "+1.04 TB/s" (they said "+1036 GB/s").
    QCOMPARE(core::formatGigaRate(1036.2, "B/s", 4, true), std::string("+1.036 TB/s"));
    QCOMPARE(core::formatGigaRate(39.01, "B/s", 4, true), std::string("+39.01 GB/s"));
    QCOMPARE(core::formatGigaRate(-12.1, "B/s", 4, true), std::string("-12.1 GB/s"));
    QCOMPARE(core::formatGigaRate(702.7, "op/s", 4), std::string("702.7 Gop/s"));
    QCOMPARE(core::formatGigaRate(25000, "op/s", 4), std::string("25 Top/s"));
    QCOMPARE(core::formatGigaRate(999.99, "B/s", 4), std::string("1 TB/s")); // not "1000 GB/s"
    QCOMPARE(core::formatGigaRate(0.5, "B/s", 3), std::string("500 MB/s"));
    QCOMPARE(core::formatGigaRate(0, "B/s", 4, true), std::string("+0 GB/s"));
}

void TestText::refusedValuesKeepEveryDigit()
{
    // "%g" would show 1 and 1e+06: the digits that broke the rule must be visible.
    QCOMPARE(core::formatExact(1.0000001), std::string("1.0000001"));
    QCOMPARE(core::formatExact(1000001), std::string("1000001"));
    QCOMPARE(core::formatExact(100000), std::string("100000"));
    QCOMPARE(core::formatExact(0.0001), std::string("0.0001"));
    QCOMPARE(core::formatExact(-917.8384), std::string("-917.8384"));
    QCOMPARE(core::formatExact(1e300), std::string("1e+300"));
    QCOMPARE(core::formatExact(0), std::string("0"));
    for (double v : {0.1, 1.0 / 3, 123456.789, 6.02e23, 1e-7}) // reads back exactly
        QCOMPARE(std::stod(core::formatExact(v)), v);
}

void TestText::briefValues()
{
    QCOMPARE(core::brief("short"), std::string("short"));
    QCOMPARE(core::brief(std::string(80, 'a')), std::string(80, 'a'));
    QCOMPARE(core::brief(std::string(5000, 'a')), std::string(77, 'a') + "...");
    // Never inside a UTF-8 sequence: "\xc3\xa9" is cut whole.
    const std::string accents = std::string(76, 'a') + "\xc3\xa9\xc3\xa9\xc3\xa9"; // 82 bytes
    QCOMPARE(core::brief(accents), std::string(76, 'a') + "...");
    QCOMPARE(core::briefList({"a", "b"}), std::string("a, b"));
    const std::string list = core::briefList(std::vector<std::string>(100, std::string(1000, 'x')));
    QVERIFY2(list.size() < 220, list.c_str());
    QVERIFY(list.ends_with(", ... (100 in all)"));
}

void TestText::quotedForAMessage()
{
    using crossroof::core::problemList;
    using crossroof::core::quoteForMessage;
    QCOMPARE(quoteForMessage("Z=1"), std::string("Z=1"));
    QCOMPARE(quoteForMessage("1\n2\r\n3\tx"), std::string(R"(1\n2\r\n3\tx)"));
    QCOMPARE(quoteForMessage(std::string("a\x1b[0m\x7f\0b", 8)), std::string(R"(a\x1b[0m\x7f\x00b)"));
    QCOMPARE(quoteForMessage("é ü"), std::string("é ü")); // UTF-8 as it is
    // Cut to MAX characters, saying how long the whole was; never inside an escape or a UTF-8 sequence.
    QCOMPARE(quoteForMessage(std::string(100'000, 'x')), std::string(80, 'x') + "... (100000 characters)");
    QCOMPARE(quoteForMessage("abcdefghij", 10), std::string("abcdefghij"));
    QCOMPARE(quoteForMessage("abcdefghijk", 10), std::string("abcdefghij... (11 characters)"));
    QCOMPARE(quoteForMessage("abcd\nefgh", 5), std::string("abcd... (9 characters)"));
    QCOMPARE(quoteForMessage("abcé", 4), std::string("abc... (5 characters)"));
    QCOMPARE(quoteForMessage(std::string(1000, '\n'), 10), std::string(R"(\n\n\n\n\n)") + "... (1000 characters)");

    QCOMPARE(problemList({}), std::string());
    QCOMPARE(problemList({"a", "b"}), std::string("a; b"));
    QCOMPARE(problemList({"a", "b\nc", "d", "e", "f"}), std::string(R"(a; b\nc; d; and 2 more)"));
    QCOMPARE(problemList({std::string(500, 'p')}, 3, 10), std::string(10, 'p') + "... (500 characters)");
}

void TestText::shortenedForAMessage()
{
    using crossroof::core::shortMessage;
    // Short: as it is, control characters escaped (one line).
    QCOMPARE(shortMessage("a\nb: no"), std::string(R"(a\nb: no)"));
    // A path of 4,000 characters keeps its start, its file's name and the reason after it.
    const std::string path = "/tmp/" + std::string(3990, 'd') + "/f.csv";
    const std::string cut = shortMessage(path + ": cannot read (File name too long)");
    QVERIFY2(cut.size() <= 300, cut.c_str());
    QVERIFY2(cut.starts_with("/tmp/ddd") && cut.ends_with("ddd/f.csv: cannot read (File name too long)"), cut.c_str());
    QVERIFY(cut.find("...") != std::string::npos);
    // Two long words lose their middles; a word of 100 bytes or fewer (an ordinary path) stays whole.
    const std::string path90 = "/home/" + std::string(76, 'h') + "/f.json";
    const std::string two = shortMessage(std::string(200, 'a') + " and " + path90 + " " + std::string(200, 'b') + " end");
    QVERIFY2(two.size() <= 300 && two.ends_with("b end") && two.find(" and " + path90 + " ") != std::string::npos,
             two.c_str());
    // The file the message is about, its first word, stays whole up to 200 bytes (a build folder a few levels
    // deep), though the other paths after it lose their middles.
    const std::string subject = "/check/work/main/build-sanitize/tests/app/bad_inputs/session/generated/session/"
                                "link-to-fifo.crossroof:";
    const std::string linked = "/check/work/main/build-sanitize/tests/app/bad_inputs/session/links/fifo.csv";
    const std::string aboutAFile = shortMessage("crossroof-cli render: " + subject + " field 'traces[0].link' (" + linked
                                                + "): " + linked + ": a FIFO that no program writes to (nothing came in 5 s)",
                                                298);
    QVERIFY2(aboutAFile.size() <= 298 && aboutAFile.find(" " + subject + " ") != std::string::npos
                     && aboutAFile.ends_with("fifo.csv: a FIFO that no program writes to (nothing came in 5 s)"),
             aboutAFile.c_str());
    const std::string longSubject = "/" + std::string(190, 's') + "/f.json: x " + std::string(250, 'w') + " end";
    const std::string keptWhole = shortMessage(longSubject);
    QVERIFY2(keptWhole.size() <= 300 && keptWhole.starts_with("/" + std::string(190, 's') + "/f.json:")
                     && keptWhole.ends_with("w end"),
             keptWhole.c_str());
    // Several lines: the last go first (what went wrong and what to do stay, an aside goes).
    const std::string lines = shortMessage("f: cannot read\nrun " + std::string(150, 'c') + "\n(or " + std::string(150, 'a') + ")");
    QCOMPARE(lines, "f: cannot read\\nrun " + std::string(150, 'c') + " ...");
    // Many short words (a list of names): its start and its end.
    std::string list = "unknown profile 'x' (bundled:";
    for (int i = 0; i < 300; ++i)
        list += " p" + std::to_string(i) + ",";
    list += " end)";
    const std::string listCut = shortMessage(list);
    QVERIFY2(listCut.size() <= 300 && listCut.starts_with("unknown profile 'x' (bundled: p0,")
                     && listCut.ends_with("p299, end)"),
             listCut.c_str());
    // Never inside a UTF-8 sequence.
    std::string accents;
    for (int i = 0; i < 400; ++i)
        accents += "\xc3\xa9";
    for (std::size_t max : {300, 301, 77}) {
        const std::string u = shortMessage(accents + " " + accents, max);
        QVERIFY(u.size() <= max);
        QCOMPARE(QString::fromUtf8(u).toUtf8().toStdString(), u);
    }
}

void TestText::trimming()
{
    QCOMPARE(core::trimBlanks(" \t a b \r"), std::string_view("a b"));
    QCOMPARE(core::trimBlanks(" \r\t "), std::string_view());
    QCOMPARE(core::trimBlanks("x\r", " \t"), std::string_view("x\r")); // only the blanks given
}

void TestText::linesAreNumberedFromOne()
{
    core::LineReader lines("a\n\nccc");
    std::vector<std::string_view> seen;
    std::vector<int> numbers;
    std::vector<bool> ended;
    while (const auto line = lines.next()) {
        seen.push_back(*line);
        numbers.push_back(lines.number());
        ended.push_back(lines.ended());
    }
    QCOMPARE(seen, (std::vector<std::string_view>{"a", "", "ccc"}));
    QCOMPARE(numbers, (std::vector<int>{1, 2, 3}));
    QCOMPARE(ended, (std::vector<bool>{true, true, false}));
    QCOMPARE(lines.offset(), std::size_t(3));
    // A final '\n' ends the last line; no empty line follows it.
    core::LineReader two("x\ny\n");
    int count = 0;
    while (two.next())
        ++count;
    QCOMPARE(count, 2);
    QVERIFY(!core::LineReader("").next());
}

void TestText::bytesThatAreNotUtf8AreEscaped()
{
    // Valid UTF-8 stays as it is, every other byte becomes "\xNN": a Latin-1 name, a stray continuation
    // byte, a sequence cut short, an overlong form, a surrogate, a code point above U+10FFFF.
    const std::string valid = "r\xc3\xa9sultats \xe2\x82\xac \xf0\x9f\x98\x80";
    QVERIFY(core::isValidUtf8(valid));
    QCOMPARE(core::escapeInvalidUtf8(valid), valid);
    QCOMPARE(core::escapeInvalidUtf8("r\xe9sultats"), std::string("r\\xe9sultats"));
    QCOMPARE(core::escapeInvalidUtf8("a\x80" "b"), std::string("a\\x80b"));
    QCOMPARE(core::escapeInvalidUtf8("cut \xe2\x82"), std::string("cut \\xe2\\x82"));
    QCOMPARE(core::escapeInvalidUtf8("\xc0\xaf"), std::string("\\xc0\\xaf"));
    QCOMPARE(core::escapeInvalidUtf8("\xed\xa0\x80"), std::string("\\xed\\xa0\\x80"));
    QCOMPARE(core::escapeInvalidUtf8("\xf4\x90\x80\x80"), std::string("\\xf4\\x90\\x80\\x80"));
    QVERIFY(!core::isValidUtf8("r\xe9sultats"));
    // In a JSON value, strings and keys alike, so that dumping it cannot fail.
    nlohmann::ordered_json j = {{"path", "/tmp/r\xe9sultats"}, {"list", {"ok", "\xff"}}, {"k\xe9y", 1}};
    core::escapeInvalidUtf8InJson(j);
    QCOMPARE(j.dump(), std::string(R"({"path":"/tmp/r\\xe9sultats","list":["ok","\\xff"],"k\\xe9y":1})"));
}

QTEST_APPLESS_MAIN(TestText)
#include "tst_text.moc"
