// SPDX-License-Identifier: GPL-3.0-or-later
// The application's file dialog. Qt's QFileDialog and the QFileSystemModel under it decode every file name as
// UTF-8 and turn other bytes into U+FFFD, so a folder named in Latin-1 ("r\xe9sultats") could be neither
// listed nor entered, and a file chosen in one came back as a path that does not exist. This dialog lists
// folders through std::filesystem, byte for byte, and hands back paths as pathFromNative() makes them.
#pragma once

#include "common/file_folders.h"

#include <QDialog>
#include <QString>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QAction;
class QIcon;
class QKeyEvent;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTreeView;
class QTreeWidget;

namespace crossroof::widgets {

class FolderModel;

/// Asks for a file to open, a file name to save to or a folder, as a FileRequest says: a location field,
/// Back, Forward, Up and Home, a few places, the folder's entries (folders first, by name; hidden files on
/// request; files through the request's name filter), a file name field and the filter. Every path it lists
/// or returns goes from bytes to pathFromNative() and back through nativePath(), never through QDir or
/// QFileInfo.
class FileBrowserDialog : public QDialog
{
    Q_OBJECT
public:
    /// The role of the view's entries that holds the entry's whole path as pathFromNative() gives it (the
    /// display role shows a byte that is not UTF-8 as U+FFFD).
    static constexpr int PathRole = Qt::UserRole;
    /// The columns of the view.
    enum Column { NameColumn, SizeColumn, TypeColumn, ModifiedColumn, ColumnCount };

    /// A dialog for REQUEST: it opens in REQUEST's start folder (for Save, the proposed path's folder, with
    /// the proposed name in the name field), or in the home folder when that folder is not there.
    explicit FileBrowserDialog(const FileRequest &request, QWidget *parent = nullptr);

    /// Asks REQUEST in a modal dialog over PARENT: the chosen path, or an empty string for Cancel.
    static QString choose(QWidget *parent, const FileRequest &request);

    /// The path chosen when the dialog was accepted (absolute, as pathFromNative() gives it); empty before.
    QString chosenPath() const { return m_chosen; }
    /// The folder listed, as pathFromNative() gives it.
    QString folder() const;
    /// What went wrong last (a folder that cannot be read, a typed name that is not there); empty when
    /// nothing did. It shows above the list.
    QString problem() const;

    /// Goes to FOLDER (as pathFromNative() gives it) and lists it; the folder left is kept for Back. A
    /// folder that cannot be read is still gone to, with its problem shown.
    void setFolder(const QString &folder);
    /// Goes to the folder above the listed one.
    void goUp();
    /// Goes back to the folder listed before (Forward comes back).
    void goBack();
    /// Goes to the folder Back left.
    void goForward();
    /// Goes to the home folder.
    void goHome();
    /// Lists the folder again (entries made or removed outside meanwhile).
    void reload();
    /// Makes the folder NAME in the listed folder and selects it; false (with the problem shown) when it
    /// cannot be made.
    bool createFolder(const QString &name);

    /// Takes the name field's file (Open, Save) or folder (Folder mode), or goes into it when it names a
    /// folder (Open, Save); a name that is not there is shown as the problem. Save asks before replacing a
    /// file (confirmReplace()).
    void accept() override;

    // Its parts, for the tests to drive as a user would.
    QTreeView *view() const { return m_view; }
    QLineEdit *locationEdit() const { return m_location; }
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *filterBox() const { return m_filter; }
    QCheckBox *hiddenBox() const { return m_hidden; }

protected:
    /// Whether to replace the existing file PATH (Save): asks the user. Tests answer it without a box.
    virtual bool confirmReplace(const QString &path);
    /// Enter in the location field, the list or the places was answered there: it does not press the
    /// default button too.
    void keyPressEvent(QKeyEvent *event) override;

private:
    void buildLayout(const FileRequest &request);
    void addPlace(const QString &label, const QString &path, const QIcon &icon);
    /// Lists FOLDER (bytes) and makes it the listed folder; RECORD keeps the folder left for Back.
    void visit(const std::string &folder, bool record);
    /// Goes to what the location field says: a folder is listed, a file's folder is listed with it
    /// selected.
    void goToLocation();
    void activate(const QModelIndex &index);
    /// Puts the selected entry's name into the name field (in a save a file's only: a folder selected on
    /// the way keeps the name typed); with nothing selected, a folder dialog's field goes back to the
    /// folder listed.
    void selectionChanged();
    /// Puts NAME (bytes) into the name field, remembering its bytes for when the field is left as shown.
    void setName(const std::string &name);
    /// The bytes of TEXT typed as a path: relative to the listed folder, "~" the home folder, a component
    /// shown with U+FFFD matched to the entry it shows.
    std::string typedPath(const QString &text) const;
    /// The bytes the name field stands for, as an absolute path.
    std::string namedPath() const;
    void selectName(const std::string &name);
    void applyFilter();
    void setProblem(const QString &problem);
    void updateActions();

    FileRequest::Mode m_mode;
    std::string m_suffix; ///< FileRequest::suffix, with its dot; empty for none
    FolderModel *m_model = nullptr;
    std::string m_folder; ///< the listed folder's bytes, absolute
    std::vector<std::string> m_back; ///< folders left, the latest last
    std::vector<std::string> m_forward; ///< folders Back left, the latest last
    std::string m_nameBytes; ///< what the name field shows when set from an entry or the request
    QString m_nameShown; ///< ... and the text it showed for it
    QString m_chosen;

    QLineEdit *m_location = nullptr;
    QTreeWidget *m_places = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_problem = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_filter = nullptr;
    QCheckBox *m_hidden = nullptr;
    QAction *m_backAction = nullptr;
    QAction *m_forwardAction = nullptr;
    QAction *m_upAction = nullptr;
};

} // namespace crossroof::widgets
