// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/perf_stat.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <string>

using namespace crossroof;

namespace {

std::string contentsOf(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

} // namespace

class TestTextFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void byteOrderMarkIsDropped();
    void bareCarriageReturnsEndLines();
    void everyReaderTakesBothForms_data();
    void everyReaderTakesBothForms();
    void refusals();

private:
    QString write(const QString &name, const std::string &text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(text.data(), qint64(text.size()));
        return path;
    }
    QTemporaryDir m_dir;
};

void TestTextFile::byteOrderMarkIsDropped()
{
    const QString path = write(QStringLiteral("bom.txt"), "\xef\xbb\xbf" "a,b\n1,2\n");
    QCOMPARE(core::readTextFile(path.toStdString(), 1024, "tests"), std::string("a,b\n1,2\n"));
}

void TestTextFile::bareCarriageReturnsEndLines()
{
    QCOMPARE(core::readTextFile(write(QStringLiteral("cr.txt"), "a,b\r1,2\r").toStdString(), 1024, "tests"),
             std::string("a,b\n1,2\n"));
    // Windows line ends are left to the readers, which take them as they are.
    QCOMPARE(core::readTextFile(write(QStringLiteral("crlf.txt"), "a\r\nb\r\n").toStdString(), 1024, "tests"),
             std::string("a\r\nb\r\n"));
}

void TestTextFile::everyReaderTakesBothForms_data()
{
    QTest::addColumn<QString>("sample");
    QTest::newRow("perf stat") << QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/perf_stat_excerpt.tsv");
    QTest::newRow("gpu-stream") << QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/gpu_stream_v100.txt");
    QTest::newRow("CSV table") << QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/stream.csv");
}

void TestTextFile::everyReaderTakesBothForms()
{
    // A file saved with a byte-order mark, or with bare '\r' line ends, reads as the original does.
    QFETCH(QString, sample);
    const std::string original = contentsOf(sample);
    QVERIFY(!original.empty());
    std::string mac = original;
    for (char &c : mac) {
        if (c == '\n')
            c = '\r';
    }
    const QString bom = write(QStringLiteral("bom-") + QFileInfo(sample).fileName(), "\xef\xbb\xbf" + original);
    const QString cr = write(QStringLiteral("cr-") + QFileInfo(sample).fileName(), mac);
    if (sample.endsWith(QStringLiteral(".tsv"))) {
        const core::PerfStat expected = core::readPerfStat(sample.toStdString());
        for (const QString &variant : {bom, cr}) {
            const core::PerfStat read = core::readPerfStat(variant.toStdString());
            QCOMPARE(read.records.size(), expected.records.size());
            QCOMPARE(read.events.size(), expected.events.size());
        }
    } else if (sample.endsWith(QStringLiteral(".txt"))) {
        const auto expected = core::readGpuStream(sample.toStdString());
        for (const QString &variant : {bom, cr}) {
            const auto read = core::readGpuStream(variant.toStdString());
            QCOMPARE(read.size(), expected.size());
            QCOMPARE(read.front().gbs, expected.front().gbs);
        }
    } else {
        const core::CsvTable expected = core::readCsv(sample.toStdString());
        for (const QString &variant : {bom, cr}) {
            const core::CsvTable read = core::readCsv(variant.toStdString());
            QCOMPARE(read.header(), expected.header());
            QCOMPARE(read.rowCount(), expected.rowCount());
        }
    }
}

void TestTextFile::refusals()
{
    const std::string dir = m_dir.path().toStdString();
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::readTextFile(dir, 1024, "tests"));
    try {
        core::readTextFile(write(QStringLiteral("big.txt"), std::string(2048, 'x')).toStdString(), 1024,
                           "tests");
        QFAIL("a file over the limit must be refused");
    } catch (const core::InputError &e) {
        QVERIFY2(std::string(e.what()).find("2048 bytes, over the 1 KiB limit for tests") != std::string::npos,
                 e.what());
    }
}

QTEST_APPLESS_MAIN(TestTextFile)
#include "tst_text_file.moc"
