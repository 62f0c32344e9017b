// SPDX-License-Identifier: GPL-3.0-or-later
// The folder each kind of file dialog opens in is remembered byte for byte: a folder named in Latin-1
// ("r\xe9sultats" as bytes) is the folder the next dialog opens in, in this run and after a restart.
#include "common/file_folders.h"
#include "common/native_path.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace crossroof::widgets;
namespace fs = std::filesystem;

class TestFileFolders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void latin1FolderIsRememberedAsItsBytes();
    void latin1FolderOutlivesARestart();
    void requestsOpenInTheRememberedFolder();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string m_latin1; ///< a folder named r\xe9sultats in the temporary one
};

void TestFileFolders::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings too: the user's own folders stay untouched
}

void TestFileFolders::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_latin1 = nativePath(m_dir->path()) + "/r\xe9sultats";
    QVERIFY(fs::create_directory(m_latin1));
    std::ofstream(m_latin1 + "/run.crossroof") << "{}\n";
}

void TestFileFolders::cleanup()
{
    // QTemporaryDir removes through QDir, which cannot name the Latin-1 folder.
    std::error_code error;
    fs::remove_all(m_latin1, error);
    setFileChooser({});
}

void TestFileFolders::latin1FolderIsRememberedAsItsBytes()
{
    // A file chosen in it: its folder.
    rememberFileFolder(FileKind::Sessions, pathFromNative(m_latin1 + "/run.crossroof"));
    QCOMPARE(nativePath(fileFolder(FileKind::Sessions)), m_latin1);
    // The folder itself chosen (a folder dialog): that folder, not the one above it.
    rememberFileFolder(FileKind::Export, pathFromNative(m_latin1));
    QCOMPARE(nativePath(fileFolder(FileKind::Export)), m_latin1);
    // Gone: the home folder.
    fs::remove_all(m_latin1);
    QCOMPARE(fileFolder(FileKind::Export), QDir::homePath());
}

void TestFileFolders::latin1FolderOutlivesARestart()
{
    // QSettings writes a lone surrogate as U+FFFD, and a QSettings of this run reads its own cache, not the
    // file: the file is copied to a folder no QSettings has read and the settings read from there.
    rememberFileFolder(FileKind::Traces, pathFromNative(m_latin1 + "/run.crossroof"));
    const QString written = QSettings().fileName();
    QSettings().sync();
    const QString root = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    QVERIFY2(written.startsWith(root + QLatin1Char('/')),
             qPrintable(written + QStringLiteral(" in ") + root));
    QTemporaryDir restarted;
    const QString copy = restarted.filePath(QDir(root).relativeFilePath(written));
    QVERIFY(QDir().mkpath(QFileInfo(copy).path()));
    QVERIFY(QFile::copy(written, copy));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, restarted.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, restarted.path());
    QCOMPARE(QSettings().fileName(), copy);
    const std::string remembered = nativePath(fileFolder(FileKind::Traces));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, root);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, root);
    QCOMPARE(remembered, m_latin1);
}

void TestFileFolders::requestsOpenInTheRememberedFolder()
{
    // The chooser answers a file in the Latin-1 folder; the next request of that kind starts there, and a
    // save proposes its name in it.
    FileRequest asked;
    setFileChooser([&](const FileRequest &request) {
        asked = request;
        return request.mode == FileRequest::Mode::Save ? QString()
                                                       : pathFromNative(m_latin1 + "/run.crossroof");
    });
    QCOMPARE(nativePath(openFileName(nullptr, FileKind::Kernels, QStringLiteral("Open"), QString())),
             m_latin1 + "/run.crossroof");
    openFileName(nullptr, FileKind::Kernels, QStringLiteral("Open"), QString());
    QCOMPARE(nativePath(asked.start), m_latin1);
    QVERIFY(saveFileName(nullptr, FileKind::Kernels, QStringLiteral("Save"), QStringLiteral("new.csv"),
                         QString())
                    .isEmpty());
    QCOMPARE(asked.mode, FileRequest::Mode::Save);
    QCOMPARE(nativePath(asked.start), m_latin1 + "/new.csv");
    // Cancel (an empty answer) keeps the folder.
    QCOMPARE(nativePath(fileFolder(FileKind::Kernels)), m_latin1);
}

QTEST_MAIN(TestFileFolders)
#include "tst_file_folders.moc"
