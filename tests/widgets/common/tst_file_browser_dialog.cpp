// SPDX-License-Identifier: GPL-3.0-or-later
// The file dialog lists, enters and returns folders named in Latin-1 ("r\xe9sultats" as bytes), which Qt's
// QFileDialog cannot. Every folder here is made from bytes with std::filesystem, and the dialog is driven
// without exec(): constructed, navigated, its view's entries selected or activated, accept() called.
#include "common/file_browser_dialog.h"
#include "common/native_path.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace crossroof::widgets;
namespace fs = std::filesystem;

namespace {

const QString kSessions = QStringLiteral("Sessions (*.crossroof);;All files (*)");
/// A file name in Latin-1: "données" with the é as the single byte 0xE9.
const std::string kDonnees = std::string("donn\xe9") + "es.crossroof";

void touch(const std::string &path)
{
    std::ofstream(path) << "x\n";
}

/// The names the dialog lists, in its rows' order, as they are shown.
QStringList listed(const FileBrowserDialog &dialog)
{
    const QAbstractItemModel *model = dialog.view()->model();
    QStringList names;
    for (int row = 0; row < model->rowCount(); ++row)
        names.append(model->index(row, FileBrowserDialog::NameColumn).data().toString());
    return names;
}

/// The index of the entry whose path's bytes end in NAME; invalid when it is not listed.
QModelIndex entry(const FileBrowserDialog &dialog, const std::string &name)
{
    const QAbstractItemModel *model = dialog.view()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, FileBrowserDialog::NameColumn);
        if (fs::path(nativePath(index.data(FileBrowserDialog::PathRole).toString())).filename() == name)
            return index;
    }
    return {};
}

/// Makes NAME the view's current entry and presses Enter on it, as a user would.
void enter(FileBrowserDialog &dialog, const std::string &name)
{
    const QModelIndex index = entry(dialog, name);
    QVERIFY2(index.isValid(), name.c_str());
    dialog.view()->setCurrentIndex(index);
    dialog.view()->setFocus();
    QTest::keyClick(dialog.view(), Qt::Key_Return);
}

/// A dialog whose Save asks for a replace through ANSWER instead of a box.
class AnsweringDialog : public FileBrowserDialog
{
public:
    AnsweringDialog(const FileRequest &request, bool answer)
        : FileBrowserDialog(request)
        , m_answer(answer)
    {
    }
    QStringList asked;

protected:
    bool confirmReplace(const QString &path) override
    {
        asked.append(path);
        return m_answer;
    }

private:
    bool m_answer;
};

} // namespace

class TestFileBrowserDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void latin1FolderIsListedAndEntered();
    void fileInALatin1FolderComesBackAsItsBytes();
    void typedPathsReachTheEntriesTheyShow();
    void filterHidesFilesButNotFolders();
    void sortsFoldersFirstByNameAndByColumn();
    void saveNamesANewFileInALatin1Folder();
    void saveAsksBeforeReplacing();
    void saveAsksWithABoxByDefault();
    void saveAddsTheSuffixBeforeAsking();
    void enterOnAFolderInSaveEntersIt();
    void folderModeReturnsTheFolder();
    void unreadableFolderShowsWhy();
    void upBackAndForward();
    void keysGoUpAndBack();
    void createFolderMakesAndSelectsIt();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string m_base; ///< the temporary folder's bytes
    std::string m_latin1; ///< m_base + "/r\xe9sultats"
};

void TestFileBrowserDialog::init()
{
    // base/: alpha/, r\xe9sultats/, .dotfolder/, apple.crossroof, Beta.crossroof, UPPER.CROSSROOF, gamma.txt,
    // .hidden.crossroof and a FIFO; r\xe9sultats/: sub/, run.crossroof, notes.txt and donn\xe9es.crossroof.
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_base = nativePath(m_dir->path());
    m_latin1 = m_base + "/r\xe9sultats";
    QVERIFY(fs::create_directory(m_latin1));
    QVERIFY(fs::create_directory(m_latin1 + "/sub"));
    QVERIFY(fs::create_directory(m_base + "/alpha"));
    QVERIFY(fs::create_directory(m_base + "/.dotfolder"));
    for (const char *name :
         {"apple.crossroof", "Beta.crossroof", "UPPER.CROSSROOF", "gamma.txt", ".hidden.crossroof"})
        touch(m_base + "/" + name);
    for (const std::string &name : {std::string("run.crossroof"), std::string("notes.txt"), kDonnees})
        touch(m_latin1 + "/" + name);
    QCOMPARE(::mkfifo((m_base + "/pipe").c_str(), 0600), 0);
}

void TestFileBrowserDialog::cleanup()
{
    // QTemporaryDir removes through QDir, which cannot name the Latin-1 entries.
    std::error_code error;
    fs::remove_all(m_base, error);
}

void TestFileBrowserDialog::latin1FolderIsListedAndEntered()
{
    FileBrowserDialog dialog({FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_base), {}});
    QCOMPARE(nativePath(dialog.folder()), m_base);
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    // Shown with the replacement character; its path keeps the byte.
    QVERIFY2(listed(dialog).contains(QStringLiteral("r\uFFFDsultats")), qPrintable(listed(dialog).join(',')));
    const QModelIndex latin1 = entry(dialog, "r\xe9sultats");
    QVERIFY(latin1.isValid());
    QCOMPARE(nativePath(latin1.data(FileBrowserDialog::PathRole).toString()), m_latin1);
    // The FIFO is listed (stat()ed, not opened: listing it did not block).
    const QModelIndex pipe = entry(dialog, "pipe");
    QVERIFY(pipe.isValid());
    QCOMPARE(pipe.siblingAtColumn(FileBrowserDialog::TypeColumn).data().toString(), QStringLiteral("FIFO"));

    enter(dialog, "r\xe9sultats");
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    QCOMPARE(listed(dialog), QStringList({QStringLiteral("sub"), QStringLiteral("donn\uFFFDes.crossroof"),
                                          QStringLiteral("notes.txt"), QStringLiteral("run.crossroof")}));
    QCOMPARE(dialog.locationEdit()->text(), displayedPath(pathFromNative(m_latin1)));
    QVERIFY(dialog.result() != QDialog::Accepted);
}

void TestFileBrowserDialog::fileInALatin1FolderComesBackAsItsBytes()
{
    // Chosen by Enter on it in the list.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_latin1), kSessions});
        enter(dialog, "run.crossroof");
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/run.crossroof");
        QVERIFY(fs::exists(nativePath(dialog.chosenPath())));
    }
    // A file named in Latin-1 too, selected: the name field shows U+FFFD, and Open takes the file's bytes.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_latin1), kSessions});
        dialog.view()->setCurrentIndex(entry(dialog, kDonnees));
        QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("donn\uFFFDes.crossroof"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/" + kDonnees);
        QVERIFY(fs::is_regular_file(nativePath(dialog.chosenPath())));
    }
    // A name that is not there is said, and nothing is chosen.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_latin1), kSessions});
        dialog.nameEdit()->setText(QStringLiteral("missing.crossroof"));
        dialog.accept();
        QVERIFY(dialog.result() != QDialog::Accepted);
        QVERIFY(dialog.chosenPath().isEmpty());
        QVERIFY2(dialog.problem().contains(QStringLiteral("missing.crossroof")),
                 qPrintable(dialog.problem()));
    }
}

void TestFileBrowserDialog::typedPathsReachTheEntriesTheyShow()
{
    FileBrowserDialog dialog(
            {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_base), kSessions});
    dialog.show(); // Enter presses a visible default button only
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // The location as shown (U+FFFD for the byte) and Enter: the Latin-1 folder.
    const QString shownFolder = displayedPath(pathFromNative(m_latin1));
    QVERIFY(shownFolder.contains(QChar::ReplacementCharacter));
    dialog.locationEdit()->setText(shownFolder);
    dialog.locationEdit()->setFocus();
    QTest::keyClick(dialog.locationEdit(), Qt::Key_Return);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QVERIFY(dialog.result() != QDialog::Accepted); // Enter there went to the folder, it did not press Open
    // A file's path: its folder, with the file selected and named.
    dialog.setFolder(pathFromNative(m_base));
    dialog.locationEdit()->setText(shownFolder + QStringLiteral("/donn\uFFFDes.crossroof"));
    QTest::keyClick(dialog.locationEdit(), Qt::Key_Return);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QCOMPARE(dialog.view()->currentIndex(), entry(dialog, kDonnees));
    QVERIFY(dialog.result() != QDialog::Accepted); // selected, not yet opened
    QVERIFY(dialog.isVisible());
    dialog.accept();
    QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/" + kDonnees);
    // A path that is not there: said, and the folder stays.
    FileBrowserDialog other(
            {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_base), kSessions});
    other.locationEdit()->setText(pathFromNative(m_base + "/nowhere"));
    QTest::keyClick(other.locationEdit(), Qt::Key_Return);
    QCOMPARE(nativePath(other.folder()), m_base);
    QVERIFY2(other.problem().contains(QStringLiteral("nowhere")), qPrintable(other.problem()));
}

void TestFileBrowserDialog::filterHidesFilesButNotFolders()
{
    FileBrowserDialog dialog(
            {FileRequest::Mode::Open, FileKind::Sessions, {}, pathFromNative(m_base), kSessions});
    QCOMPARE(dialog.filterBox()->count(), 2);
    QCOMPARE(dialog.filterBox()->currentText(), QStringLiteral("Sessions (*.crossroof)"));
    // Sessions only (the wildcard is case-insensitive), every folder, nothing hidden.
    QCOMPARE(listed(dialog), QStringList({QStringLiteral("alpha"), QStringLiteral("r\uFFFDsultats"),
                                          QStringLiteral("apple.crossroof"), QStringLiteral("Beta.crossroof"),
                                          QStringLiteral("UPPER.CROSSROOF")}));
    dialog.hiddenBox()->setChecked(true);
    QVERIFY(listed(dialog).contains(QStringLiteral(".dotfolder")));
    QVERIFY(listed(dialog).contains(QStringLiteral(".hidden.crossroof")));
    dialog.hiddenBox()->setChecked(false);
    dialog.filterBox()->setCurrentIndex(1);
    QVERIFY(listed(dialog).contains(QStringLiteral("gamma.txt")));
    QVERIFY(listed(dialog).contains(QStringLiteral("pipe")));
    QVERIFY(!listed(dialog).contains(QStringLiteral(".hidden.crossroof")));
}

void TestFileBrowserDialog::sortsFoldersFirstByNameAndByColumn()
{
    FileBrowserDialog dialog(
            {FileRequest::Mode::Open, FileKind::Sessions, {}, pathFromNative(m_base), kSessions});
    dialog.view()->setCurrentIndex(entry(dialog, "Beta.crossroof"));
    dialog.view()->sortByColumn(FileBrowserDialog::NameColumn, Qt::DescendingOrder);
    QCOMPARE(listed(dialog), QStringList({QStringLiteral("r\uFFFDsultats"), QStringLiteral("alpha"),
                                          QStringLiteral("UPPER.CROSSROOF"), QStringLiteral("Beta.crossroof"),
                                          QStringLiteral("apple.crossroof")}));
    // The current entry moved with its row.
    QCOMPARE(dialog.view()->currentIndex(), entry(dialog, "Beta.crossroof"));
    // By size: the files differ in size only where one was written longer.
    std::ofstream(m_base + "/apple.crossroof") << std::string(5000, 'x');
    dialog.reload();
    dialog.view()->sortByColumn(FileBrowserDialog::SizeColumn, Qt::DescendingOrder);
    QCOMPARE(listed(dialog).mid(2, 1), QStringList({QStringLiteral("apple.crossroof")}));
    dialog.view()->sortByColumn(FileBrowserDialog::SizeColumn, Qt::AscendingOrder);
    QCOMPARE(listed(dialog).last(), QStringLiteral("apple.crossroof"));
    QCOMPARE(listed(dialog).first(), QStringLiteral("alpha"));
}

void TestFileBrowserDialog::saveNamesANewFileInALatin1Folder()
{
    const QString proposed = pathFromNative(m_latin1 + "/new.crossroof");
    AnsweringDialog dialog({FileRequest::Mode::Save, FileKind::Sessions, {}, proposed, kSessions}, false);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("new.crossroof"));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(dialog.asked.isEmpty());
    QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/new.crossroof");
    QVERIFY(fs::is_directory(fs::path(nativePath(dialog.chosenPath())).parent_path()));

    // A proposed name in Latin-1 that is not there yet: the name field shows U+FFFD, Save keeps its bytes.
    AnsweringDialog latin1({FileRequest::Mode::Save,
                            FileKind::Sessions,
                            {},
                            pathFromNative(m_latin1 + "/r\xe9sum\xe9.crossroof"),
                            kSessions},
                           false);
    QCOMPARE(latin1.nameEdit()->text(), QStringLiteral("r\uFFFDsum\uFFFD.crossroof"));
    latin1.accept();
    QCOMPARE(nativePath(latin1.chosenPath()), m_latin1 + "/r\xe9sum\xe9.crossroof");

    // A name typed, with no suffix: none is added (as QFileDialog::getSaveFileName()).
    AnsweringDialog typed({FileRequest::Mode::Save, FileKind::Sessions, {}, proposed, kSessions}, false);
    typed.nameEdit()->setText(QStringLiteral("plain"));
    typed.accept();
    QCOMPARE(nativePath(typed.chosenPath()), m_latin1 + "/plain");
}

void TestFileBrowserDialog::saveAsksBeforeReplacing()
{
    const QString existing = pathFromNative(m_latin1 + "/" + kDonnees);
    {
        AnsweringDialog dialog({FileRequest::Mode::Save, FileKind::Sessions, {}, existing, kSessions}, false);
        QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("donn\uFFFDes.crossroof"));
        dialog.accept();
        QCOMPARE(dialog.asked, QStringList({existing}));
        QVERIFY(dialog.result() != QDialog::Accepted);
        QVERIFY(dialog.chosenPath().isEmpty());
    }
    {
        AnsweringDialog dialog({FileRequest::Mode::Save, FileKind::Sessions, {}, existing, kSessions}, true);
        dialog.accept();
        QCOMPARE(dialog.asked, QStringList({existing}));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/" + kDonnees);
    }
    // Selecting another file names it, and replacing that one is asked too.
    AnsweringDialog dialog({FileRequest::Mode::Save, FileKind::Sessions, {}, existing, kSessions}, true);
    dialog.view()->setCurrentIndex(entry(dialog, "run.crossroof"));
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("run.crossroof"));
    dialog.accept();
    QCOMPARE(dialog.asked, QStringList({pathFromNative(m_latin1 + "/run.crossroof")}));
}

// "run" typed in a session's Save dialog is run.crossroof: the question is about that file, not about a "run"
// that does not exist (the caller added the suffix after the dialog, and replaced run.crossroof unasked).
void TestFileBrowserDialog::saveAddsTheSuffixBeforeAsking()
{
    const QString start = pathFromNative(m_latin1 + "/new.crossroof");
    FileRequest save {FileRequest::Mode::Save, FileKind::Sessions, {}, start, kSessions};
    save.suffix = QStringLiteral("crossroof");
    AnsweringDialog dialog(save, true);
    dialog.nameEdit()->setText(QStringLiteral("run"));
    dialog.accept();
    QCOMPARE(dialog.asked, QStringList({pathFromNative(m_latin1 + "/run.crossroof")}));
    QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/run.crossroof");
    // A name with a suffix of its own keeps it; a folder of the typed name is entered, not saved to.
    AnsweringDialog other(save, true);
    other.nameEdit()->setText(QStringLiteral("notes.txt"));
    other.accept();
    QCOMPARE(nativePath(other.chosenPath()), m_latin1 + "/notes.txt");
    AnsweringDialog folder(save, true);
    folder.nameEdit()->setText(QStringLiteral("sub"));
    folder.accept();
    QVERIFY(folder.chosenPath().isEmpty());
    QCOMPARE(nativePath(folder.folder()), m_latin1 + "/sub");
}

void TestFileBrowserDialog::saveAsksWithABoxByDefault()
{
    // The dialog's own question is a message box: answered No from a timer, the file is not chosen. The timer
    // keeps looking until it has answered, and stops after 10 s so that nothing is left waiting.
    FileBrowserDialog dialog({FileRequest::Mode::Save,
                              FileKind::Sessions,
                              {},
                              pathFromNative(m_latin1 + "/run.crossroof"),
                              kSessions});
    dialog.show();
    QString question;
    QTimer answer;
    QElapsedTimer waited;
    waited.start();
    connect(&answer, &QTimer::timeout, this, [&] {
        for (QWidget *widget : QApplication::topLevelWidgets()) {
            auto *box = qobject_cast<QMessageBox *>(widget);
            if (box && box->isVisible()) {
                question = box->text();
                box->button(QMessageBox::No)->click();
                answer.stop();
                return;
            }
        }
        if (waited.elapsed() > 10000)
            answer.stop();
    });
    answer.start(20);
    dialog.accept();
    answer.stop();
    QVERIFY2(question.contains(QStringLiteral("run.crossroof")), qPrintable(question));
    QVERIFY(dialog.result() != QDialog::Accepted);
    QVERIFY(dialog.chosenPath().isEmpty());
}

void TestFileBrowserDialog::enterOnAFolderInSaveEntersIt()
{
    // Enter on a folder in the list goes into it; it does not press Save (which would take the proposed name
    // in the folder left).
    AnsweringDialog dialog({FileRequest::Mode::Save,
                            FileKind::Sessions,
                            {},
                            pathFromNative(m_base + "/new.crossroof"),
                            kSessions},
                           true);
    dialog.show(); // Enter presses a visible default button only
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    enter(dialog, "r\xe9sultats");
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QVERIFY(dialog.result() != QDialog::Accepted);
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("new.crossroof"));
    // A folder's name typed and Save: into that folder too.
    dialog.nameEdit()->setText(QStringLiteral("sub"));
    dialog.accept();
    QCOMPARE(nativePath(dialog.folder()), m_latin1 + "/sub");
    QVERIFY(dialog.result() != QDialog::Accepted);
}

void TestFileBrowserDialog::folderModeReturnsTheFolder()
{
    // Folders only; the one selected is chosen.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Folder, FileKind::Export, {}, pathFromNative(m_base), {}});
        QCOMPARE(listed(dialog), QStringList({QStringLiteral("alpha"), QStringLiteral("r\uFFFDsultats")}));
        QVERIFY(!dialog.filterBox()->isVisibleTo(&dialog));
        dialog.view()->setCurrentIndex(entry(dialog, "r\xe9sultats"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(nativePath(dialog.chosenPath()), m_latin1);
    }
    // Shown, with the list in focus (which makes its first folder current, not selected): the folder listed.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Folder, FileKind::Export, {}, pathFromNative(m_base), {}});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QCOMPARE(QApplication::focusWidget(), dialog.view());
        QVERIFY(dialog.nameEdit()->text().isEmpty());
        dialog.accept();
        QCOMPARE(nativePath(dialog.chosenPath()), m_base);
    }
    // Entered, with nothing selected: the folder listed.
    {
        FileBrowserDialog dialog(
                {FileRequest::Mode::Folder, FileKind::Export, {}, pathFromNative(m_base), {}});
        enter(dialog, "r\xe9sultats");
        QVERIFY(dialog.result() != QDialog::Accepted);
        QVERIFY(dialog.nameEdit()->text().isEmpty());
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(nativePath(dialog.chosenPath()), m_latin1);
    }
}

void TestFileBrowserDialog::unreadableFolderShowsWhy()
{
    // A folder gone since it was left: Back to it says so (and lists nothing).
    const std::string gone = m_base + "/gone";
    QVERIFY(fs::create_directory(gone));
    FileBrowserDialog dialog({FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(gone), {}});
    dialog.setFolder(pathFromNative(m_base));
    QVERIFY(fs::remove(gone));
    dialog.goBack();
    QCOMPARE(nativePath(dialog.folder()), gone);
    QVERIFY2(dialog.problem().startsWith(QStringLiteral("Cannot read ")), qPrintable(dialog.problem()));
    QVERIFY2(dialog.problem().contains(QString::fromLocal8Bit(std::strerror(ENOENT))),
             qPrintable(dialog.problem()));
    QCOMPARE(dialog.view()->model()->rowCount(), 0);
    dialog.goUp();
    QVERIFY(dialog.problem().isEmpty());

    // A folder without permissions. Root reads it anyway.
    const std::string locked = m_latin1 + "/locked";
    QVERIFY(fs::create_directory(locked));
    touch(locked + "/inside.crossroof");
    QCOMPARE(::chmod(locked.c_str(), 0), 0);
    dialog.setFolder(pathFromNative(locked));
    QCOMPARE(nativePath(dialog.folder()), locked);
    const bool root = ::geteuid() == 0;
    QCOMPARE(::chmod(locked.c_str(), 0700), 0); // QTemporaryDir can remove it
    if (root)
        QSKIP("root reads a folder without permissions");
    QVERIFY2(dialog.problem().contains(QStringLiteral("r\uFFFDsultats/locked")),
             qPrintable(dialog.problem()));
    QVERIFY2(dialog.problem().contains(QString::fromLocal8Bit(std::strerror(EACCES))),
             qPrintable(dialog.problem()));
    QCOMPARE(dialog.view()->model()->rowCount(), 0);
}

void TestFileBrowserDialog::upBackAndForward()
{
    FileBrowserDialog dialog(
            {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_latin1 + "/sub"), {}});
    dialog.goUp();
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    dialog.goUp();
    QCOMPARE(nativePath(dialog.folder()), m_base);
    dialog.goBack();
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    dialog.goBack();
    QCOMPARE(nativePath(dialog.folder()), m_latin1 + "/sub");
    dialog.goBack(); // nothing before the start
    QCOMPARE(nativePath(dialog.folder()), m_latin1 + "/sub");
    dialog.goForward();
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    // A new folder gone to forgets the way forward.
    dialog.setFolder(pathFromNative(m_base + "/alpha"));
    dialog.goForward();
    QCOMPARE(nativePath(dialog.folder()), m_base + "/alpha");
    dialog.goBack();
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    // Up stops at the root.
    dialog.setFolder(QStringLiteral("/"));
    dialog.goUp();
    QCOMPARE(dialog.folder(), QStringLiteral("/"));
}

void TestFileBrowserDialog::keysGoUpAndBack()
{
    FileBrowserDialog dialog(
            {FileRequest::Mode::Open, FileKind::Traces, {}, pathFromNative(m_latin1 + "/sub"), {}});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    dialog.view()->setFocus();
    QTest::keyClick(dialog.view(), Qt::Key_Backspace);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QTest::keyClick(dialog.view(), Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(nativePath(dialog.folder()), m_base);
    QTest::keyClick(dialog.view(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QTest::keyClick(dialog.nameEdit(), Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(nativePath(dialog.folder()), m_base);
    // Type-ahead: "r" goes to the Latin-1 folder, Enter enters it.
    dialog.view()->setFocus();
    QTest::keyClicks(dialog.view(), QStringLiteral("r"));
    QCOMPARE(dialog.view()->currentIndex(), entry(dialog, "r\xe9sultats"));
    QTest::keyClick(dialog.view(), Qt::Key_Return);
    QCOMPARE(nativePath(dialog.folder()), m_latin1);
    QVERIFY(dialog.isVisible());
}

void TestFileBrowserDialog::createFolderMakesAndSelectsIt()
{
    FileBrowserDialog dialog({FileRequest::Mode::Folder, FileKind::Export, {}, pathFromNative(m_latin1), {}});
    QVERIFY(dialog.createFolder(QStringLiteral("nouveau")));
    QVERIFY(fs::is_directory(m_latin1 + "/nouveau"));
    QCOMPARE(dialog.view()->currentIndex(), entry(dialog, "nouveau"));
    QVERIFY(!dialog.createFolder(QStringLiteral("nouveau")));
    QVERIFY2(dialog.problem().contains(QStringLiteral("nouveau")), qPrintable(dialog.problem()));
    QVERIFY(!dialog.createFolder(QStringLiteral("a/b")));
    dialog.accept();
    QCOMPARE(nativePath(dialog.chosenPath()), m_latin1 + "/nouveau");
}

QTEST_MAIN(TestFileBrowserDialog)
#include "tst_file_browser_dialog.moc"
