// SPDX-License-Identifier: GPL-3.0-or-later
// Files are chosen in Qt's QFileDialog (its widget dialog here: the tests ask for it, as the offscreen
// platform has no dialog of its own), driven as a user would: the name typed into its field, Open or Save
// pressed, its questions answered. Every data file's dialog opens in one remembered folder; a name Qt cannot
// pass (bytes that are not UTF-8, which it shows as U+FFFD) is refused with a message naming the folder.
#include "common/file_folders.h"
#include "common/native_path.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

using namespace crossroof::widgets;
namespace fs = std::filesystem;

namespace {

/// One answer to a modal window: acts on the window in front and returns true, or returns false when that is
/// not the window it answers (yet).
using Answer = std::function<bool(QWidget *)>;

/// Answers the modal windows opened while it lives, one answer after another, from a timer (nothing is
/// answered from inside a dialog's own event loop in the timer's slot: accept() is posted). What is left in
/// front after 20 s is rejected, so that a test fails rather than waits.
class Answerer
{
public:
    explicit Answerer(std::vector<Answer> answers)
        : m_answers(std::move(answers))
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] { step(); });
        m_timer.start(20);
        m_clock.start();
    }
    /// Whether every answer was given.
    bool done() const { return m_next == m_answers.size(); }

private:
    void step()
    {
        QWidget *front = QApplication::activeModalWidget();
        if (!front)
            return;
        if (m_clock.hasExpired(20000)) {
            if (auto *dialog = qobject_cast<QDialog *>(front))
                dialog->reject();
            return;
        }
        if (m_next < m_answers.size() && m_answers[m_next](front))
            ++m_next;
    }

    std::vector<Answer> m_answers;
    std::size_t m_next = 0;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

/// Types NAME into a QFileDialog's name field and presses its Open or Save; SEEN gets the folder it shows and
/// the name it proposed.
Answer typeInto(const QString &name, QStringList *seen = nullptr)
{
    return [name, seen](QWidget *front) {
        auto *dialog = qobject_cast<QFileDialog *>(front);
        auto *edit = dialog ? dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit")) : nullptr;
        if (!edit)
            return false;
        if (seen)
            *seen << dialog->directory().absolutePath() << edit->text();
        edit->setText(name);
        QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection); // as Open or Save pressed
        return true;
    };
}

/// Answers a question box with BUTTON; TEXT gets what it asked.
Answer answerBox(QMessageBox::StandardButton button, QString *text)
{
    return [button, text](QWidget *front) {
        auto *box = qobject_cast<QMessageBox *>(front);
        if (!box || !box->button(button))
            return false;
        *text = box->text();
        QMetaObject::invokeMethod(box->button(button), &QPushButton::click, Qt::QueuedConnection);
        return true;
    };
}

} // namespace

class TestFileFolders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void dataFilesShareOneRememberedFolder();
    void openChoosesAFileInTheRememberedFolder();
    void saveAddsTheSuffixBeforeAskingToReplace();
    void folderDialogReturnsTheFolder();
    void aNameQtCannotPassIsExplained();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_data; ///< a folder "data" in the temporary one, the remembered data folder
    std::string m_latin1; ///< a folder named r\xe9sultats (bytes) in the temporary one
    QWidget m_parent; ///< what the dialogs and message boxes open over
};

void TestFileFolders::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings too: the user's own folders stay untouched
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs); // Qt's widget dialog, which a test can drive
}

void TestFileFolders::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_data = m_dir->filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(m_data + QStringLiteral("/sub")));
    std::ofstream(nativePath(m_data) + "/run.csv") << "k,GB/s\n1,10\n";
    std::ofstream(nativePath(m_data) + "/analysis.crossroof") << "{}\n";
    rememberFileFolder(FileKind::Data, m_data + QStringLiteral("/run.csv"));
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
    for (QMessageBox *box : m_parent.findChildren<QMessageBox *>())
        delete box;
}

void TestFileFolders::dataFilesShareOneRememberedFolder()
{
    // A trace chosen in one folder: the session, kernels and folder dialogs open there next, in this run and
    // the next (QSettings); exports keep a folder of their own.
    QList<FileRequest> asked;
    const QString other = m_dir->filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    setFileChooser([&](const FileRequest &request) {
        asked << request;
        return request.mode == FileRequest::Mode::Open ? other + QStringLiteral("/trace.csv") : QString();
    });
    QCOMPARE(fileFolder(FileKind::Data), m_data);
    QCOMPARE(fileFolder(FileKind::Export), QDir::homePath());
    QCOMPARE(openFileName(&m_parent, FileKind::Data, QStringLiteral("Import Measurements"), QString()),
             other + QStringLiteral("/trace.csv"));
    QCOMPARE(asked.constLast().start, m_data);
    QVERIFY(saveFileName(&m_parent, FileKind::Data, QStringLiteral("Save Session"),
                         QStringLiteral("analysis.crossroof"), QString(), QStringLiteral("crossroof"))
                    .isEmpty());
    QCOMPARE(asked.constLast().start, other + QStringLiteral("/analysis.crossroof"));
    QCOMPARE(asked.constLast().suffix, QStringLiteral("crossroof"));
    existingFolder(&m_parent, FileKind::Data, QStringLiteral("Open crossroof-probe Folder"));
    QCOMPARE(asked.constLast().start, other); // Cancel (an empty answer) kept the folder
    QCOMPARE(QSettings().value(QStringLiteral("files/directory")).toString(), other);
    QCOMPARE(fileFolder(FileKind::Export), QDir::homePath());
    // An export's folder does not move the data files'.
    rememberFileFolder(FileKind::Export, m_data);
    QCOMPARE(fileFolder(FileKind::Export), m_data);
    QCOMPARE(fileFolder(FileKind::Data), other);
    // Gone: the home folder.
    QVERIFY(QDir(other).removeRecursively());
    QCOMPARE(fileFolder(FileKind::Data), QDir::homePath());
}

void TestFileFolders::openChoosesAFileInTheRememberedFolder()
{
    QStringList seen;
    Answerer answerer({typeInto(QStringLiteral("run.csv"), &seen)});
    const QString path = openFileName(&m_parent, FileKind::Data, QStringLiteral("Import Measurements"),
                                      QStringLiteral("Tables (*.csv);;All files (*)"));
    QVERIFY(answerer.done());
    QCOMPARE(seen.value(0), m_data);
    QCOMPARE(path, m_data + QStringLiteral("/run.csv"));
    // A file chosen in a sub-folder moves the folder there.
    std::ofstream(nativePath(m_data) + "/sub/more.csv") << "k,GB/s\n";
    Answerer again({typeInto(QStringLiteral("sub/more.csv"))});
    QCOMPARE(openFileName(&m_parent, FileKind::Data, QString(), QString()),
             m_data + QStringLiteral("/sub/more.csv"));
    QCOMPARE(fileFolder(FileKind::Data), m_data + QStringLiteral("/sub"));
}

void TestFileFolders::saveAddsTheSuffixBeforeAskingToReplace()
{
    // "analysis" typed in Save Session is analysis.crossroof, which is there: the dialog asks about that
    // file. No keeps the dialog open; Yes takes the file.
    QStringList seen;
    QString firstQuestion;
    QString secondQuestion;
    Answerer answerer({typeInto(QStringLiteral("analysis"), &seen),
                       answerBox(QMessageBox::No, &firstQuestion), typeInto(QStringLiteral("analysis")),
                       answerBox(QMessageBox::Yes, &secondQuestion)});
    const QString path = saveFileName(
            &m_parent, FileKind::Data, QStringLiteral("Save Session"), QStringLiteral("new.crossroof"),
            QStringLiteral("Crossroof sessions (*.crossroof)"), QStringLiteral("crossroof"));
    QVERIFY(answerer.done());
    QCOMPARE(seen, (QStringList {m_data, QStringLiteral("new.crossroof")}));
    QVERIFY2(firstQuestion.contains(QStringLiteral("analysis.crossroof already exists")),
             qPrintable(firstQuestion));
    QCOMPARE(secondQuestion, firstQuestion);
    QCOMPARE(path, m_data + QStringLiteral("/analysis.crossroof"));
    // A new name is taken without a question, with the suffix; one with a suffix of its own keeps it.
    Answerer fresh({typeInto(QStringLiteral("fresh"))});
    QCOMPARE(saveFileName(&m_parent, FileKind::Data, QString(), QStringLiteral("new.crossroof"), QString(),
                          QStringLiteral("crossroof")),
             m_data + QStringLiteral("/fresh.crossroof"));
    Answerer named({typeInto(QStringLiteral("fresh.json"))});
    QCOMPARE(saveFileName(&m_parent, FileKind::Data, QString(), QStringLiteral("new.crossroof"), QString(),
                          QStringLiteral("crossroof")),
             m_data + QStringLiteral("/fresh.json"));
}

void TestFileFolders::folderDialogReturnsTheFolder()
{
    QStringList seen;
    Answerer answerer({typeInto(QStringLiteral("sub"), &seen)});
    QCOMPARE(existingFolder(&m_parent, FileKind::Data, QStringLiteral("Open crossroof-probe Folder")),
             m_data + QStringLiteral("/sub"));
    QVERIFY(answerer.done());
    QCOMPARE(seen.value(0), m_data);
    QCOMPARE(fileFolder(FileKind::Data),
             m_data + QStringLiteral("/sub")); // the folder itself, not its parent
}

void TestFileFolders::aNameQtCannotPassIsExplained()
{
    // Qt shows the folder r\xe9sultats as "r\uFFFDsultats", a name no folder has. Saving into it through the
    // dialog is refused with a message that names it; nothing is written and the folder stays where it was.
    const QString shown = m_dir->path() + QStringLiteral("/r\uFFFDsultats");
    QVERIFY(!QFileInfo::exists(shown));
    Answerer answerer({typeInto(shown + QStringLiteral("/study.crossroof"))});
    QVERIFY(saveFileName(&m_parent, FileKind::Data, QStringLiteral("Save Session"),
                         QStringLiteral("new.crossroof"), QString(), QStringLiteral("crossroof"))
                    .isEmpty());
    QVERIFY(answerer.done());
    auto *box = m_parent.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().startsWith(QStringLiteral("The folder %1 cannot be reached").arg(shown)),
             qPrintable(box->text()));
    QVERIFY2(box->text().contains(QStringLiteral("not UTF-8")), qPrintable(box->text()));
    QVERIFY(!fs::exists(m_latin1 + "/study.crossroof"));
    QCOMPARE(fileFolder(FileKind::Data), m_data);
    delete box;

    // The platform's dialog (a portal hands back a URL, which Qt decodes as UTF-8) answers a file in it: the
    // message names the folder and points to the command line.
    setFileChooser([&](const FileRequest &) { return shown + QStringLiteral("/run.crossroof"); });
    QVERIFY(openFileName(&m_parent, FileKind::Data, QStringLiteral("Open Session"), QString()).isEmpty());
    box = m_parent.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().startsWith(QStringLiteral("The folder %1 cannot be reached").arg(shown)),
             qPrintable(box->text()));
    QVERIFY2(box->text().contains(QStringLiteral("command line")), qPrintable(box->text()));
    delete box;

    // A file of such a name in a folder Qt can name: the message names the file.
    std::ofstream(nativePath(m_data) + "/caf\xe9.csv") << "k,GB/s\n";
    setFileChooser([&](const FileRequest &) { return m_data + QStringLiteral("/caf\uFFFD.csv"); });
    QVERIFY(openFileName(&m_parent, FileKind::Data, QStringLiteral("Import Measurements"), QString())
                    .isEmpty());
    box = m_parent.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().startsWith(QStringLiteral("The file %1/caf\uFFFD.csv cannot be opened").arg(m_data)),
             qPrintable(box->text()));
    delete box;
    fs::remove(nativePath(m_data) + "/caf\xe9.csv");

    // A name that really has U+FFFD in it (UTF-8) is a name like any other.
    std::ofstream(nativePath(m_data) + "/odd\xef\xbf\xbd.csv") << "k,GB/s\n";
    setFileChooser([&](const FileRequest &) { return m_data + QStringLiteral("/odd\uFFFD.csv"); });
    QCOMPARE(openFileName(&m_parent, FileKind::Data, QString(), QString()),
             m_data + QStringLiteral("/odd\uFFFD.csv"));
    QVERIFY(!m_parent.findChild<QMessageBox *>(QStringLiteral("ErrorMessage")));
    QCOMPARE(unreachablePathProblem(m_data + QStringLiteral("/missing.csv"), FileRequest::Mode::Open),
             QString());
}

QTEST_MAIN(TestFileFolders)
#include "tst_file_folders.moc"
