// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/traces/csv_table.h"
#include "core/support/error.h"
#include "import_fixtures.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace crossroof;
using test::inputErrorOf;

namespace {

QString parseError(const std::string &text, const core::CsvOptions &options = {})
{
    return inputErrorOf([&] { core::parseCsv(text, "t.csv", options); });
}

std::string repeat(const std::string &s, std::size_t n)
{
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

} // namespace

class TestCsvTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void delimiters_data();
    void delimiters();
    void quoting();
    void commentsBlankLinesAndLineEndings();
    void trailingEmptyFields();
    void shortRows();
    void numbers_data();
    void numbers();
    void numericErrorsNameLineAndColumn_data();
    void numericErrorsNameLineAndColumn();
    void columnLookup();
    void rejects_data();
    void rejects();
    void columnLimits();
    void lineLimit();
    void oversizedFileRefusedBeforeReading();
    void missingFile();
    void gpuBenchesTidyCsv();
};

void TestCsvTable::delimiters_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<char>("delimiter");
    QTest::addColumn<char>("decimal");
    QTest::addColumn<double>("lastNumber");
    QTest::newRow("comma") << "k,gbs\n2,153\n4,306.5\n" << ',' << '.' << 306.5;
    QTest::newRow("tab") << "k\tgbs\n2\t153\n4\t306.5\n" << '\t' << '.' << 306.5;
    QTest::newRow("semicolon, decimal comma") << "k;gbs\n2;153\n4;306,5\n" << ';' << ',' << 306.5;
    QTest::newRow("semicolon, decimal point") << "k;gbs\n2;153\n4;306.5\n" << ';' << '.' << 306.5;
    QTest::newRow("tab, decimal comma") << "k\tgbs\n2\t1,5\n4\t306,25\n" << '\t' << ',' << 306.25;
    QTest::newRow("whitespace aligned") << "    k      gbs\n    2      153\n    4    306.5\n"
                                        << ' ' << '.' << 306.5;
    QTest::newRow("whitespace with tabs") << "k \t gbs\n2\t\t153\n4  306.5\n" << ' ' << '.' << 306.5;
    QTest::newRow("comma beats decimal commas") << "a,b\n\"1,5\",2\n3,306.5\n" << ',' << '.' << 306.5;
    QTest::newRow("German thousands") << "k;gbs\n2;1.234,5\n4;306,5\n" << ';' << ',' << 306.5;
}

void TestCsvTable::delimiters()
{
    QFETCH(QString, text);
    QFETCH(char, delimiter);
    QFETCH(char, decimal);
    QFETCH(double, lastNumber);
    const core::CsvTable t = core::parseCsv(text.toStdString(), "t.csv");
    QCOMPARE(t.delimiter(), delimiter);
    QCOMPARE(t.decimalSeparator(), decimal);
    QCOMPARE(t.columnCount(), std::size_t(2));
    QCOMPARE(t.rowCount(), std::size_t(2));
    QCOMPARE(t.numbers(1).back(), lastNumber);
    QCOMPARE(t.line(0), 2);
    QCOMPARE(t.line(1), 3);
}

void TestCsvTable::quoting()
{
    const std::string text = "name,\"value, GB/s\",note\n"
                             "\"a, b\",\"1,234.5\",\"she said \"\"hi\"\"\"\n"
                             "  \"spaced\"  , 7 ,\"two\nlines\"\n"
                             "plain,\"12,345,678\",\"\"\n";
    const core::CsvTable t = core::parseCsv(text, "t.csv");
    QCOMPARE(t.header(), (std::vector<std::string> {"name", "value, GB/s", "note"}));
    QCOMPARE(t.rowCount(), std::size_t(3));
    QCOMPARE(t.cell(0, 0), std::string_view("a, b"));
    QCOMPARE(t.cell(0, 2), std::string_view("she said \"hi\""));
    QCOMPARE(t.number(0, 1), 1234.5);
    QCOMPARE(t.cell(1, 0), std::string_view("spaced"));
    QCOMPARE(t.number(1, 1), 7.0);
    QCOMPARE(t.cell(1, 2), std::string_view("two\nlines"));
    QCOMPARE(t.line(1), 3);
    QCOMPARE(t.line(2), 5); // after the quoted line break
    QCOMPARE(t.number(2, t.column("value, GB/s")), 12345678.0);
    QCOMPARE(t.cell(2, 2), std::string_view(""));
    QCOMPARE(t.textColumn(0, 1), 8);
    QCOMPARE(t.textColumn(1, 0), 3);
}

void TestCsvTable::commentsBlankLinesAndLineEndings()
{
    const std::string text = "\xef\xbb\xbf# measured on a V100\r\n"
                             "\r\n"
                             "k,gbs\r\n"
                             "   # a comment between rows\r\n"
                             "2,153\r\n"
                             "\r\n"
                             "4,306\r\n"
                             "# the end";
    const core::CsvTable t = core::parseCsv(text, "t.csv");
    QCOMPARE(t.header(), (std::vector<std::string> {"k", "gbs"}));
    QCOMPARE(t.numbers("gbs"), (std::vector<double> {153, 306}));
    QCOMPARE(t.line(0), 5);
    QCOMPARE(t.line(1), 7);
}

void TestCsvTable::trailingEmptyFields()
{
    // A header and rows ending with a delimiter, and a row with extra empty fields.
    const core::CsvTable t = core::parseCsv("k,gbs,\n2,153,\n4,306,,,\n6,400\n", "t.csv");
    QCOMPARE(t.columnCount(), std::size_t(2));
    QCOMPARE(t.numbers("gbs"), (std::vector<double> {153, 306, 400}));
    QVERIFY(parseError("k,gbs\n2,153,9\n").contains("t.csv:2:7: more fields than the 2 columns"));
}

void TestCsvTable::shortRows()
{
    const std::string text = "a,b,c\n1,2\n";
    QCOMPARE(parseError(text), QStringLiteral("t.csv:2: 2 fields, but the header (line 1) has 3 columns"));
    core::CsvOptions pad;
    pad.pad_short_rows = true;
    const core::CsvTable t = core::parseCsv(text, "t.csv", pad);
    QCOMPARE(t.cell(0, 2), std::string_view(""));
    QCOMPARE(inputErrorOf([&] { t.number(0, 2); }),
             QStringLiteral("t.csv:2:3: column 'c': is empty, expected a number"));
}

void TestCsvTable::numbers_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<char>("decimal");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("value");
    QTest::newRow("integer") << "42" << '.' << true << 42.0;
    QTest::newRow("signs") << "-1.5e3" << '.' << true << -1500.0;
    QTest::newRow("plus") << "+.5" << '.' << true << 0.5;
    QTest::newRow("trailing point") << "5." << '.' << true << 5.0;
    QTest::newRow("grouped") << "1,234,567.25" << '.' << true << 1234567.25;
    QTest::newRow("decimal comma") << "1,5" << ',' << true << 1.5;
    QTest::newRow("decimal comma grouped") << "1.234,5" << ',' << true << 1234.5;
    QTest::newRow("bad group") << "1,23" << '.' << false << 0.0;
    QTest::newRow("bad group 2") << "1234,567" << '.' << false << 0.0;
    QTest::newRow("group after point") << "1.234,5" << '.' << false << 0.0;
    QTest::newRow("empty exponent") << "1e" << '.' << false << 0.0;
    QTest::newRow("junk") << "12abc" << '.' << false << 0.0;
    QTest::newRow("lone point") << "." << '.' << false << 0.0;
    QTest::newRow("hex") << "0x10" << '.' << false << 0.0;
    QTest::newRow("underflow") << "1e-400" << '.' << true << 0.0;
    QTest::newRow("blanks") << "  3.25 " << '.' << true << 3.25;
    // Plain digits with at most one point take a shorter path: the same values, the same refusals.
    QTest::newRow("plain fraction") << "0.1" << '.' << true << 0.1;
    QTest::newRow("plain zeros") << "00012.50" << '.' << true << 12.5;
    QTest::newRow("plain leading point") << ".5" << '.' << true << 0.5;
    QTest::newRow("plain two points") << "1.2.3" << '.' << false << 0.0;
    QTest::newRow("plain beyond a double") << QString(QStringLiteral("1") + QString(320, QLatin1Char('0'))) << '.'
                                           << true << std::numeric_limits<double>::infinity();
    QTest::newRow("plain below a double") << QString(QStringLiteral("0.") + QString(340, QLatin1Char('0')) + "1")
                                          << '.' << true << 0.0;
    QTest::newRow("plain with decimal comma") << "2.5" << ',' << false << 0.0;
}

void TestCsvTable::numbers()
{
    QFETCH(QString, text);
    QFETCH(char, decimal);
    QFETCH(bool, valid);
    QFETCH(double, value);
    const auto v = core::parseTableNumber(text.toStdString(), decimal);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(*v, value);
    QVERIFY(std::isnan(*core::parseTableNumber("NaN")));
    QCOMPARE(*core::parseTableNumber("-inf"), -std::numeric_limits<double>::infinity());
    QCOMPARE(*core::parseTableNumber("1e999"), std::numeric_limits<double>::infinity());
}

void TestCsvTable::numericErrorsNameLineAndColumn_data()
{
    QTest::addColumn<QString>("cell");
    QTest::addColumn<QString>("message");
    QTest::newRow("junk") << "abc"
                          << "t.csv:3:3: column 'gbs': 'abc' is not a number";
    QTest::newRow("empty") << ""
                           << "t.csv:3:3: column 'gbs': is empty, expected a number";
    QTest::newRow("nan") << "nan"
                         << "t.csv:3:3: column 'gbs': 'nan' is not a finite number";
    QTest::newRow("NaN") << "NaN"
                         << "t.csv:3:3: column 'gbs': 'NaN' is not a finite number";
    QTest::newRow("inf") << "inf"
                         << "t.csv:3:3: column 'gbs': 'inf' is not a finite number";
    QTest::newRow("-Infinity") << "-Infinity"
                               << "t.csv:3:3: column 'gbs': '-Infinity' is not a finite number";
    QTest::newRow("overflow") << "1e999"
                              << "t.csv:3:3: column 'gbs': '1e999' is not a finite number";
}

void TestCsvTable::numericErrorsNameLineAndColumn()
{
    QFETCH(QString, cell);
    QFETCH(QString, message);
    const core::CsvTable t = core::parseCsv("k,gbs\n2,153\n4," + cell.toStdString() + "\n6,400\n", "t.csv");
    QCOMPARE(inputErrorOf([&] { t.numbers("gbs"); }), message);
    QCOMPARE(t.numbers("k"), (std::vector<double> {2, 4, 6}));
    // Columns count characters, not bytes.
    const core::CsvTable u = core::parseCsv("n\xc3\xa4me,gbs\n\xc3\xa4\xc3\xa4,x\n", "u.csv");
    QCOMPARE(inputErrorOf([&] { u.numbers("gbs"); }),
             QStringLiteral("u.csv:2:4: column 'gbs': 'x' is not a number"));
}

void TestCsvTable::columnLookup()
{
    const core::CsvTable t = core::parseCsv("a,b, c ,b\n1,2,3,4\n", "t.csv");
    QCOMPARE(t.column("c"), std::size_t(2));
    QCOMPARE(*t.findColumn(" a "), std::size_t(0));
    QVERIFY(!t.findColumn("z"));
    QCOMPARE(inputErrorOf([&] { t.column("z"); }),
             QStringLiteral("t.csv:1: no column 'z' in the header (columns: a, b, c, b)"));
    QCOMPARE(inputErrorOf([&] { t.column("b"); }),
             QStringLiteral("t.csv:1: column name 'b' is ambiguous (columns 2 and 4)"));
    // The header's own line after comments; long names and long lists cut short (issue 19: the bad-input
    // corpus echoed a 10,000-character header name whole).
    const core::CsvTable c = core::parseCsv("# comment\n" + std::string(5000, 'x') + ",b\n1,2\n", "c.csv");
    const QString message = inputErrorOf([&] { c.column(std::string(300, 'z')); });
    QVERIFY2(message.startsWith("c.csv:2: no column 'zzz"), qPrintable(message));
    QVERIFY2(message.size() < 200, qPrintable(message));
}

void TestCsvTable::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray() << "t.csv: empty file, no CSV header";
    QTest::newRow("blank lines") << QByteArray("\n  \n\t\r\n") << "t.csv: empty file, no CSV header";
    QTest::newRow("BOM only") << QByteArray("\xef\xbb\xbf") << "t.csv: empty file, no CSV header";
    QTest::newRow("comments only") << QByteArray("# nothing\n# here\n")
                                   << "t.csv: no CSV header, only comment lines";
    QTest::newRow("header only") << QByteArray("k,gbs\n") << "t.csv:1: a header but no data rows";
    QTest::newRow("header, comments")
            << QByteArray("# c\nk,gbs\n# c\n\n") << "t.csv:2: a header but no data rows";
    QTest::newRow("NUL byte") << QByteArray("k,gbs\n2,1\0"
                                            "5\n",
                                            11)
                              << "t.csv:2:4: binary data (byte 0x00); not CSV files text";
    QTest::newRow("invalid UTF-8")
            << QByteArray("k,gbs\n2,\xff\xfe\n")
            << "t.csv:2:3: binary data (byte 0xff is not valid UTF-8); not CSV files text";
    QTest::newRow("truncated UTF-8") << QByteArray(
            "k,gbs\n2,\xc3") << "t.csv:2:3: binary data (byte 0xc3 is not valid UTF-8); not CSV files text";
    QTest::newRow("overlong UTF-8") << QByteArray(
            "k,\xc0\xaf\n") << "t.csv:1:3: binary data (byte 0xc0 is not valid UTF-8); not CSV files text";
    QTest::newRow("control byte") << QByteArray("k,gbs\n2,\x1b[0m\n")
                                  << "t.csv:2:3: binary data (byte 0x1b); not CSV files text";
    QTest::newRow("unterminated quote")
            << QByteArray("k,gbs\n2,\"153\n4,5\n") << "t.csv:2:3: the quote opened here is not closed";
    QTest::newRow("text after quote")
            << QByteArray("k,gbs\n2,\"15\"3\n")
            << "t.csv:2:7: text after a closing quote (a quote inside a quoted field is "
               "written \"\")";
    QTest::newRow("header without names")
            << QByteArray(",,,\n1,2,3\n") << "t.csv:1: the header has no column names";
}

void TestCsvTable::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QCOMPARE(parseError(text.toStdString()), message);
}

void TestCsvTable::columnLimits()
{
    // 10^6 columns: refused with a message, without a crash. Two bytes a column make the line too long before
    // the columns are counted; with a longer line limit the column limit would refuse it.
    const std::string wide = repeat("c,", 999999) + "c\n" + repeat("1,", 999999) + "1\n";
    QCOMPARE(parseError(wide),
             QStringLiteral("t.csv:1:1: line longer than 1048576 bytes (the limit for CSV files)"));
    // 10^6 columns split over short lines by quoted line breaks: the column limit.
    const QString quoted = parseError(repeat("\"\n\",", 999999) + "c\n1\n");
    QVERIFY2(quoted.endsWith(QStringLiteral(": more than 10000 columns (the limit for CSV files)")),
             qPrintable(quoted));
    // Just over the column limit, on a short line.
    const QString over = parseError(repeat("a,", core::kCsvMaxColumns) + "a\n1\n");
    QCOMPARE(over, QStringLiteral("t.csv:1:20001: more than 10000 columns (the limit for CSV files)"));
    // At the limit: accepted.
    const core::CsvTable t = core::parseCsv(repeat("a,", core::kCsvMaxColumns - 1) + "a\n"
                                                    + repeat("1,", core::kCsvMaxColumns - 1) + "7\n",
                                            "t.csv");
    QCOMPARE(t.columnCount(), core::kCsvMaxColumns);
    QCOMPARE(t.number(0, core::kCsvMaxColumns - 1), 7.0);
}

void TestCsvTable::lineLimit()
{
    const std::string text = "k,note\n1," + std::string(core::kCsvMaxLineBytes, 'x') + "\n";
    QCOMPARE(parseError(text),
             QStringLiteral("t.csv:2:1: line longer than 1048576 bytes (the limit for CSV files)"));
}

void TestCsvTable::oversizedFileRefusedBeforeReading()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = (dir.path() + QStringLiteral("/huge.csv")).toStdString();
    // 100 GB (sparse: no disk is used): reading it would take minutes, or all memory.
    test::makeSparseFile(path, 100ull * 1000 * 1000 * 1000, "k,gbs\n2,153\n");
    QElapsedTimer timer;
    timer.start();
    const QString message = inputErrorOf([&] { core::readCsv(path); });
    QCOMPARE(message,
             QString::fromStdString(path + ": 100000000000 bytes, over the 64 MiB limit for CSV files"));
    QVERIFY2(timer.elapsed() < 10'000, qPrintable(QString::number(timer.elapsed()))); // refused by its size, not read
    // The limit applies to text already in memory too.
    const std::string big(core::kCsvMaxBytes + 1, '\n');
    QCOMPARE(parseError(big), QStringLiteral("t.csv: 67108865 bytes, over the 64 MiB limit for CSV files"));
}

void TestCsvTable::missingFile()
{
    const QString message = inputErrorOf([] { core::readCsv("/nonexistent/trace.csv"); });
    QVERIFY2(message.startsWith(QStringLiteral("/nonexistent/trace.csv: cannot read (")),
             qPrintable(message));
    QTemporaryDir dir;
    QCOMPARE(inputErrorOf([&] { core::readCsv(dir.path().toStdString()); }),
             QString::fromStdString(dir.path().toStdString() + ": is a directory, not a file"));
}

void TestCsvTable::gpuBenchesTidyCsv()
{
    const std::string path
            = std::string(CROSSROOF_SHARED_DIR) + "/data/gpu-benches/stream_vs_warps_per_sm.csv";
    if (!QFile::exists(QString::fromStdString(path)))
        QSKIP("../shared/data/gpu-benches is not here");
    const core::CsvTable t = core::readCsv(path);
    QCOMPARE(t.delimiter(), ',');
    QCOMPARE(t.rowCount(), std::size_t(128));
    QCOMPARE(t.columnCount(), std::size_t(12));
    QCOMPARE(t.numbers("warps_per_sm").back(), 64.0);
    QCOMPARE(t.cell(0, 0), std::string_view("a100_40"));
    QCOMPARE(t.number(0, t.column("init_GBs")), 159.0);
}

QTEST_APPLESS_MAIN(TestCsvTable)
#include "tst_csv_table.moc"
