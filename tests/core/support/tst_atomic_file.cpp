// SPDX-License-Identifier: GPL-3.0-or-later
// Saving a file: only a regular file is replaced, never through a link or into a FIFO or device, through a
// temporary of a name nobody can plant in advance, and a failure leaves nothing behind.
#include "core/support/atomic_file.h"
#include "support/full_disk.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using crossroof::core::writeFileAtomically;
namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The names in DIR, hidden ones included.
std::set<std::string> names(const fs::path &dir)
{
    std::set<std::string> all;
    for (const auto &entry : fs::directory_iterator(dir))
        all.insert(entry.path().filename().string());
    return all;
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writesAndReplacesARegularFile()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path path = dir / "x.json";
        QCOMPARE(QString::fromStdString(writeFileAtomically(path, "one\n")), QString());
        QCOMPARE(contents(path), std::string("one\n"));
        QVERIFY(::chmod(path.c_str(), 0640) == 0);
        QCOMPARE(QString::fromStdString(writeFileAtomically(path, "two\n")), QString());
        QCOMPARE(contents(path), std::string("two\n"));
        struct stat st{};
        QVERIFY(::stat(path.c_str(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640)); // a replaced file keeps its permissions
        QCOMPARE(names(dir), std::set<std::string>{"x.json"});
        // A path without a folder is in the working folder.
        const fs::path cwd = fs::current_path();
        fs::current_path(dir);
        const std::string why = writeFileAtomically("bare.txt", "b");
        fs::current_path(cwd);
        QCOMPARE(QString::fromStdString(why), QString());
        QCOMPARE(contents(dir / "bare.txt"), std::string("b"));
    }

    void refusesAnythingButARegularFile()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path fifo = dir / "fifo.json";
        QVERIFY(::mkfifo(fifo.c_str(), 0644) == 0);
        QCOMPARE(QString::fromStdString(writeFileAtomically(fifo, "x")),
                 QStringLiteral("it is a FIFO (Crossroof saves only to a regular file)"));
        QVERIFY(fs::is_fifo(fifo));

        const fs::path folder = dir / "folder.json";
        fs::create_directory(folder);
        QCOMPARE(QString::fromStdString(writeFileAtomically(folder, "x")),
                 QStringLiteral("it is a directory (Crossroof saves only to a regular file)"));
        QVERIFY(fs::is_empty(folder));

        const fs::path socketPath = dir / "socket.json";
        const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        QVERIFY(socketPath.string().size() < sizeof address.sun_path);
        std::strcpy(address.sun_path, socketPath.c_str());
        QVERIFY(::bind(sock, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0);
        QCOMPARE(QString::fromStdString(writeFileAtomically(socketPath, "x")),
                 QStringLiteral("it is a socket (Crossroof saves only to a regular file)"));
        ::close(sock);
        QVERIFY(fs::is_socket(socketPath));

        // A link, to a file or to nowhere, is refused and left as it is; what it points to is not written.
        const fs::path victim = dir / "victim.txt";
        std::ofstream(victim) << "precious";
        for (const char *name : {"link.json", "dangling.json"}) {
            const fs::path link = dir / name;
            fs::create_symlink(name == std::string("link.json") ? victim : dir / "nowhere", link);
            QCOMPARE(QString::fromStdString(writeFileAtomically(link, "x")),
                     QStringLiteral("it is a symbolic link (Crossroof saves only to a regular file, never "
                                    "through a link)"));
            QVERIFY(fs::is_symlink(link));
        }
        QCOMPARE(contents(victim), std::string("precious"));
        QVERIFY(!fs::exists(dir / "nowhere"));

        // A device node (made here, never /dev's); making one needs privileges the test may lack.
        const fs::path device = dir / "device.json";
        const bool madeDevice = ::mknod(device.c_str(), S_IFCHR | 0644, makedev(1, 3)) == 0;
        if (madeDevice) {
            QCOMPARE(QString::fromStdString(writeFileAtomically(device, "x")),
                     QStringLiteral("it is a device (Crossroof saves only to a regular file)"));
            struct stat st{};
            QVERIFY(::lstat(device.c_str(), &st) == 0 && S_ISCHR(st.st_mode));
        }
        std::set<std::string> expected {"fifo.json", "folder.json", "socket.json", "victim.txt", "link.json",
                                        "dangling.json"};
        if (madeDevice)
            expected.insert("device.json");
        QCOMPARE(names(dir), expected); // no temporary file left behind
        if (!madeDevice)
            QSKIP("mknod is not permitted here: the device node case was not run");
    }

    void neverWritesThroughAPlantedTemporaryName()
    {
        // Links planted under the names a fixed temporary name would have: saving must not follow them.
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path victim = dir / "victim.txt";
        std::ofstream(victim) << "precious";
        for (const char *planted : {"x.json.part", ".x.json.part", "x.json.tmp", "x.json~"})
            fs::create_symlink(victim, dir / planted);
        QCOMPARE(QString::fromStdString(writeFileAtomically(dir / "x.json", "new")), QString());
        QCOMPARE(contents(dir / "x.json"), std::string("new"));
        QVERIFY(!fs::is_symlink(dir / "x.json"));
        QCOMPARE(contents(victim), std::string("precious"));
        QCOMPARE(names(dir).size(), std::size_t(6));
    }

    void aFailedWriteLeavesTheOldFileAndNothingElse()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const fs::path path = dir / "x.json";
        std::ofstream(path) << "old";
        {
            // A disk that fills after 3 bytes: the system's reason, the old file whole, no temporary left.
            const crossroof::test::FullDisk full(3);
            QVERIFY(full.active());
            const std::string why = writeFileAtomically(path, std::string(100'000, 'n'));
            QCOMPARE(QString::fromStdString(why), QStringLiteral("File too large"));
        }
        QCOMPARE(contents(path), std::string("old"));
        QCOMPARE(names(dir), std::set<std::string>{"x.json"});
        // A folder that does not exist.
        QCOMPARE(QString::fromStdString(writeFileAtomically(dir / "no" / "x.json", "x")),
                 QStringLiteral("No such file or directory"));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
