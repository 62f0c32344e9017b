// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/support/error.h"
#include "core/support/text_file.h"
#include "core/traces/csv_table.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/perf_stat.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

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
    void fifoWithoutWriterIsRefusedInTime();
    void fifoIsReadAsItsWriterSends();

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

void TestTextFile::fifoWithoutWriterIsRefusedInTime()
{
    // A FIFO no program writes to blocked every reader for ever; now it is refused after the wait, by name.
    const std::string fifo = m_dir.filePath(QStringLiteral("nobody.csv")).toStdString();
    QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
    QElapsedTimer clock;
    clock.start();
    try {
        core::readTextFile(fifo, 1024, "tests");
        QFAIL("a FIFO without a writer must be refused");
    } catch (const core::InputError &e) {
        QVERIFY2(std::string(e.what()) == fifo + ": a FIFO that no program writes to (nothing came in 5 s)", e.what());
    }
    QVERIFY2(clock.elapsed() >= core::kStreamWaitSeconds * 1000 - 100 && clock.elapsed() < core::kStreamWaitSeconds * 1000 + 3000,
             qPrintable(QString::number(clock.elapsed())));
    // Through a reader too (the table reader, as a session's linked table is read).
    const std::string other = m_dir.filePath(QStringLiteral("nobody-either.csv")).toStdString();
    QVERIFY(::mkfifo(other.c_str(), 0600) == 0);
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::readCsv(other));
}

void TestTextFile::fifoIsReadAsItsWriterSends()
{
    // A writer that opens the FIFO late and sends in pieces: the whole text, once (the second read gets it
    // again without a writer); one that comes and goes without writing: an empty file, at once.
    const std::string fifo = m_dir.filePath(QStringLiteral("pieces.csv")).toStdString();
    QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
    std::thread writer([&fifo] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        for (const char *piece : {"a,b\n", "1,2\n", "3,4\n"}) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            (void)!::write(fd, piece, std::strlen(piece));
        }
        ::close(fd);
    });
    const std::string text = core::readTextFile(fifo, 1024, "tests");
    writer.join();
    QCOMPARE(text, std::string("a,b\n1,2\n3,4\n"));
    QCOMPARE(core::readTextFile(fifo, 1024, "tests"), text);

    const std::string empty = m_dir.filePath(QStringLiteral("empty.csv")).toStdString();
    QVERIFY(::mkfifo(empty.c_str(), 0600) == 0);
    std::thread silent([&empty] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ::close(::open(empty.c_str(), O_WRONLY));
    });
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(core::readTextFile(empty, 1024, "tests"), std::string());
    silent.join();
    // Ended by the writer's close, not by the wait for data.
    QVERIFY2(clock.elapsed() < core::kStreamWaitSeconds * 1000 - 500, qPrintable(QString::number(clock.elapsed())));
}

QTEST_APPLESS_MAIN(TestTextFile)
#include "tst_text_file.moc"
