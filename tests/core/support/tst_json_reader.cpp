// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiles/hardware_profile.h"
#include "core/support/error.h"
#include "core/support/json_reader.h"
#include "core/support/text_file.h"
#include "core/error_of.h"

#include <QElapsedTimer>
#include <QTest>

#include <string>

using namespace crossroof;
using core::InputError;
using core::detail::parseJsonText;

class TestJsonReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wellFormedDocumentsParse();
    void refusals_data();
    void refusals();
    void deepNestingIsRefusedBeforeAnythingRecurses();
    void profileErrorsNeverEchoAWholeValue();
    void megabyteProfilesOfManyKeysOrObjectsAreReadQuickly();
    void manyEmptyObjectsAreRefusedQuickly();
    void checkKeysRefusesUnknownKeys_data();
    void checkKeysRefusesUnknownKeys();
    void validateNamesTheFieldOfTheModelsError();
};

namespace {

QString errorOf(const std::string &text)
{
    try {
        parseJsonText(text, "doc.json");
    } catch (const InputError &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

void TestJsonReader::wellFormedDocumentsParse()
{
    const auto j = parseJsonText(R"({"a": {"b": [1, 2, {"c": 1e308}]}, "d": "x", "e": [{"k": 1}, {"k": 2}]})",
                                 "doc.json");
    QCOMPARE(j["a"]["b"][2]["c"].get<double>(), 1e308);
    QCOMPARE(j["e"][1]["k"].get<int>(), 2); // the same key in two sibling objects is fine
    // Tabs and line breaks, which XML allows, are text like any other.
    QCOMPARE(parseJsonText(R"({"notes": "a\tb\nc\r"})", "doc.json")["notes"].get<std::string>(), std::string("a\tb\nc\r"));
}

void TestJsonReader::refusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("duplicate key") << R"({"a": 1, "b": 2, "a": 3})" << "doc.json: field 'a': appears twice";
    QTest::newRow("duplicate nested key")
        << "{\"parameters\": {\"R\": 1,\n \"R\": 2}}" << "doc.json: field 'parameters.R': appears twice";
    QTest::newRow("duplicate key in an array element")
        << R"({"list": [{"x": 1, "x": 1}]})" << "doc.json: field 'list[].x': appears twice";
    QTest::newRow("1e309") << "{\n  \"R\": 1e309\n}"
                           << "doc.json: line 2, column 8: number 1e309 is out of range (a double holds "
                              "magnitudes up to about 1.8e308)";
    QTest::newRow("-1e309") << R"({"R": -1e309})"
                            << "doc.json: line 1, column 7: number -1e309 is out of range (a double holds "
                               "magnitudes up to about 1.8e308)";
    // The whole file to its length: nlohmann took a NUL byte for the end of the input.
    QTest::newRow("NUL after the document") << QString::fromLatin1("{\"a\": 1}\n\0\0garbage", 18)
                                           << "doc.json: line 2, column 1: invalid JSON: a NUL byte (is this a JSON file?)";
    // A NUL in a string cuts a path short where the system reads it; other control characters are not XML.
    QTest::newRow("NUL in a path") << R"({"traces": [{"path": "stream.csv\u0000.txt"}]})"
                                   << "doc.json: field 'traces[].path': holds the control character U+0000 (NUL), "
                                      "which no text in this file may";
    QTest::newRow("control character in a name") << R"({"name": "a\u0001b"})"
                                                 << "doc.json: field 'name': holds the control character U+0001, "
                                                    "which no text in this file may";
    QTest::newRow("control character in a key") << R"({"a\u001fb": 1})"
                                                << "doc.json: field 'a\\x1f" "b': holds the control character U+001F, "
                                                   "which no text in this file may";
    QTest::newRow("syntax") << "{\n\"a\": }" << "doc.json: line 2, column 6: invalid JSON: syntax error while "
                                                  "parsing value - unexpected '}'; expected '[', '{', or a literal";
}

void TestJsonReader::refusals()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QCOMPARE(errorOf(text.toStdString()), message);
}

void TestJsonReader::deepNestingIsRefusedBeforeAnythingRecurses()
{
    // 100,000 levels overflow the stack of anything recursive (printing the value in a message, for one).
    for (const char *open : {"[", "{\"a\":"}) {
        std::string text = "{\"parameters\": ";
        for (int i = 0; i < 100000; ++i)
            text += open;
        const QString message = errorOf(text);
        QVERIFY2(message.startsWith(QStringLiteral("doc.json: field 'parameters")), qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral("nested more than 64 levels deep")), qPrintable(message));
        QVERIFY(message.size() < 400);
    }
    std::string ok;
    for (int i = 0; i < core::detail::kMaxJsonDepth; ++i)
        ok += '[';
    ok += std::string(core::detail::kMaxJsonDepth, ']');
    QCOMPARE(errorOf(ok), QString());
}

void TestJsonReader::profileErrorsNeverEchoAWholeValue()
{
    const std::string big(5'000'000, '7');
    const std::string profile = R"({"format_version": [")" + big + R"("], "id": "x"})";
    try {
        core::parseProfile(profile, "big.json");
        QFAIL("a profile with a 5 MB format_version was accepted");
    } catch (const InputError &e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.startsWith(QStringLiteral("big.json: field 'format_version': must be 1 (got [\"7777")),
                 qPrintable(message.left(200)));
        QVERIFY2(message.size() < 200, qPrintable(message.left(300)));
    }
    // Long strings and keys (tests/data/bad/profile/kind-long.json, long-key.json): cut too.
    const std::string longText(3000, 'v');
    for (const std::string &doc :
         {R"({"format_version": 1, "id": "x", "name": "x", "kind": ")" + longText + R"("})",
          R"({")" + longText + R"(": 1, ")" + longText + R"(": 2})"}) {
        try {
            core::parseProfile(doc, "long.json");
            QFAIL("a profile with a 3000-character kind or key was accepted");
        } catch (const InputError &e) {
            const QString message = QString::fromStdString(e.what());
            QVERIFY2(message.startsWith(QStringLiteral("long.json: field '")), qPrintable(message.left(300)));
            QVERIFY2(message.size() < 260, qPrintable(message.left(400)));
        }
    }
}

void TestJsonReader::megabyteProfilesOfManyKeysOrObjectsAreReadQuickly()
{
    // A profile file may be 1 MiB. Reading one of 110,000 keys or 100,000 empty objects took 20 to 30 seconds
    // when every key was looked for among those already seen and a per-token callback made the parser revisit
    // the parent array; now it takes milliseconds. The bound below only catches that kind of slowness.
    const auto many = [](int n, const auto &item) {
        std::string text;
        for (int i = 0; i < n; ++i)
            text += (i ? "," : "") + item(i);
        return text;
    };
    const auto key = [](int i) { // "0000":0 to "2cjz":0, 4 base-36 digits: 110,000 of them fill 1 MiB
        std::string k = "\"0000\":0";
        for (int d = 4; d >= 1; --d, i /= 36)
            k[d] = "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36];
        return k;
    };
    const auto empty = [](int) { return std::string("{}"); };
    const std::string keys = "{" + many(110'000, key) + "}";
    const std::string objects = "[" + many(100'000, empty) + "]";
    const std::string profileOfKeys = R"({"format_version": 1, "id": "x", "name": "x", "kind": "gpu", "parameters": )" + keys + "}";
    // A shipped profile whose sources are 100,000 empty objects.
    auto shipped = core::detail::parseJsonText(core::readTextFile(CROSSROOF_SOURCE_DIR "/hardware_profiles/a100-40.json",
                                                                  core::kMaxProfileBytes, "profile files"),
                                               "a100-40.json");
    shipped["sources"] = nullptr;
    std::string profileOfObjects = shipped.dump();
    const std::string slot = "\"sources\":null";
    profileOfObjects.replace(profileOfObjects.find(slot), slot.size(), "\"sources\":" + objects);
    QVERIFY(profileOfKeys.size() > 950'000 && profileOfKeys.size() <= core::kMaxProfileBytes);
    QVERIFY(profileOfObjects.size() > 200'000 && profileOfObjects.size() <= core::kMaxProfileBytes);

    QElapsedTimer timer;
    timer.start();
    // Well-formed JSON: read whole.
    QCOMPARE(parseJsonText(keys, "doc.json").size(), std::size_t(110'000));
    QCOMPARE(parseJsonText(objects, "doc.json").size(), std::size_t(100'000));
    // As profiles: refused for what they say, not for their size.
    QCOMPARE(test::errorOf([&] { core::parseProfile(profileOfKeys, "keys.json"); }),
             QStringLiteral("keys.json: field 'parameters.0000': is not a known parameter"));
    QCOMPARE(test::errorOf([&] { core::parseProfile(profileOfObjects, "objects.json"); }),
             QStringLiteral("objects.json: field 'sources[0].text': is missing"));
    // The same key twice, the second time at the very end, still refused by its path.
    const std::string twice = "{\"parameters\": {" + many(110'000, key) + ", \"0000\": 1}}";
    QCOMPARE(errorOf(twice), QStringLiteral("doc.json: field 'parameters.0000': appears twice"));
    const std::string twiceInLast = "[" + many(100'000, empty) + R"(, {"a": 1, "a": 2}])";
    QCOMPARE(errorOf(twiceInLast), QStringLiteral("doc.json: field '[].a': appears twice"));
    QVERIFY2(timer.elapsed() < 10'000, qPrintable(QString::number(timer.elapsed()) + " ms"));
}

void TestJsonReader::manyEmptyObjectsAreRefusedQuickly()
{
    // A session of 64 MiB of empty objects took 20 s and 2 GB before it was refused: refused by its count of
    // objects and arrays as it is read. Read as it comes, one object over the count is refused before the
    // rest of the file: the syntax error after it is never reached (a reader that built the document first
    // would report that instead).
    std::string text = R"({"format": "crossroof-session", "traces": [)";
    for (std::size_t i = 0; i < core::detail::kMaxJsonContainers; ++i)
        text += "{},";
    text += "{} @ this is not JSON";
    QCOMPARE(errorOf(text), QStringLiteral("doc.json: field 'traces[]': more than 1000000 objects and arrays in one "
                                           "file (Crossroof's own files hold far fewer)"));
    // As many as a file may hold are read.
    std::string flat = "[";
    for (std::size_t i = 1; i < core::detail::kMaxJsonContainers; ++i)
        flat += i > 1 ? ",{}" : "{}";
    flat += "]";
    QCOMPARE(errorOf(flat), QString());
}

void TestJsonReader::checkKeysRefusesUnknownKeys_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("known keys") << R"({"a": 1, "b": 2})" << "" << "" << "";
    QTest::newRow("no keys") << "{}" << "markov." << "" << "";
    QTest::newRow("unknown key at the root")
        << R"({"a": 1, "c": 2})" << "" << "" << "doc.json: field 'c': is not a test field (misspelt?)";
    QTest::newRow("unknown key, named by the prefix")
        << R"({"c": 2})" << "markov." << "" << "doc.json: field 'markov.c': is not a test field (misspelt?)";
    QTest::newRow("unknown key, named by the path")
        << R"({"b": 1, "x": 2})" << "" << "topology.caches[1]"
        << "doc.json: field 'topology.caches[1].x': is not a test field (misspelt?)";
    QTest::newRow("not an object, named by the prefix")
        << "[1]" << "mapping.points[0]." << ""
        << "doc.json: field 'mapping.points[0]': must be an object (got array)";
    QTest::newRow("not an object, named by the path")
        << "7" << "profile." << "core_model"
        << "doc.json: field 'profile.core_model': must be an object (got number)";
}

void TestJsonReader::checkKeysRefusesUnknownKeys()
{
    QFETCH(QString, text);
    QFETCH(QString, prefix);
    QFETCH(QString, path);
    QFETCH(QString, message);
    const core::detail::json doc = parseJsonText(text.toStdString(), "doc.json");
    const core::detail::JsonReader reader("doc.json", prefix.toStdString());
    QCOMPARE(test::errorOf([&] { reader.checkKeys(doc, path.toStdString(), {"a", "b"}, "a test field"); }),
             message);
}

void TestJsonReader::validateNamesTheFieldOfTheModelsError()
{
    const core::detail::JsonReader reader("doc.json", "profile.");
    QCOMPARE(test::errorOf([&] { reader.validate([] {}); }), QString());
    QCOMPARE(test::errorOf([&] {
                 reader.validate([] { throw InputError("topology.caches[0].cores: must not be empty"); });
             }),
             QStringLiteral("doc.json: field 'profile.topology.caches[0].cores': must not be empty"));
    // An error without a field is passed on with the file's name.
    QCOMPARE(test::errorOf([&] { reader.validate([] { throw InputError("too many threads"); }); }),
             QStringLiteral("doc.json: too many threads"));
}

QTEST_APPLESS_MAIN(TestJsonReader)
#include "tst_json_reader.moc"
