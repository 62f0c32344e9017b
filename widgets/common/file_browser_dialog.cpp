// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/file_browser_dialog.h"

#include "common/long_work.h"
#include "common/native_path.h"

#include <QAbstractTableModel>
#include <QAction>
#include <QCheckBox>
#include <QCollator>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileIconProvider>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>

namespace fs = std::filesystem;

namespace crossroof::widgets {

namespace {

/// One entry of a listed folder, read without opening it (a FIFO or a device is stat()ed, never opened).
struct FolderEntry {
    std::string name; ///< the name's bytes
    QString shown; ///< the name as shown, U+FFFD for a byte that is not UTF-8
    QString path; ///< the whole path, as pathFromNative() gives it
    bool folder = false; ///< a folder, or a link to one
    QString type; ///< "Folder", the file's MIME type's comment, "FIFO", ...
    std::optional<std::uintmax_t> size; ///< regular files only
    QDateTime modified; ///< invalid when it could not be read (a broken link)
};

/// PATH's bytes as it is shown.
QString shown(const std::string &path)
{
    return displayedPath(pathFromNative(path));
}

std::string homeFolder()
{
    return normalFolder(nativePath(QDir::homePath()));
}

/// The entries of FOLDER (bytes), as many as could be read; ERROR says why FOLDER, or the rest of it, could
/// not be.
std::vector<FolderEntry> listEntries(const std::string &folder, std::error_code &error)
{
    std::vector<FolderEntry> entries;
    const QMimeDatabase mimes;
    fs::directory_iterator it(folder, error);
    for (; !error && it != fs::directory_iterator(); it.increment(error)) {
        const fs::directory_entry &item = *it;
        FolderEntry entry;
        entry.name = item.path().filename().string();
        entry.shown = shown(entry.name);
        entry.path = pathFromNative(item.path().string());
        std::error_code ignored; // an entry gone or unreadable meanwhile is listed as what could be read
        const fs::file_status own = item.symlink_status(ignored);
        const fs::file_status target = fs::is_symlink(own) ? item.status(ignored) : own;
        switch (target.type()) {
        case fs::file_type::directory:
            entry.folder = true;
            entry.type = FileBrowserDialog::tr("Folder");
            break;
        case fs::file_type::regular: {
            const QMimeType mime = mimes.mimeTypeForFile(entry.shown, QMimeDatabase::MatchExtension);
            entry.type = mime.isDefault() || mime.comment().isEmpty() ? FileBrowserDialog::tr("File")
                                                                      : mime.comment();
            if (const std::uintmax_t size = item.file_size(ignored); !ignored)
                entry.size = size;
            break;
        }
        case fs::file_type::fifo:
            entry.type = FileBrowserDialog::tr("FIFO");
            break;
        case fs::file_type::socket:
            entry.type = FileBrowserDialog::tr("Socket");
            break;
        case fs::file_type::block:
        case fs::file_type::character:
            entry.type = FileBrowserDialog::tr("Device");
            break;
        case fs::file_type::not_found:
            entry.type = FileBrowserDialog::tr("Broken link");
            break;
        default:
            entry.type = FileBrowserDialog::tr("Unknown");
            break;
        }
        ignored.clear();
        const fs::file_time_type time = item.last_write_time(ignored);
        if (!ignored) {
            const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::file_clock::to_sys(time).time_since_epoch());
            entry.modified = QDateTime::fromMSecsSinceEpoch(since.count());
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

/// The bytes of the entry of FOLDER that shows as SHOWN (a name typed or pasted with U+FFFD where the entry
/// has a byte that is not UTF-8).
std::optional<std::string> entryShownAs(const fs::path &folder, const QString &shownName)
{
    std::error_code error;
    for (fs::directory_iterator it(folder, error); !error && it != fs::directory_iterator();
         it.increment(error)) {
        std::string name = it->path().filename().string();
        if (shown(name) == shownName)
            return name;
    }
    return std::nullopt;
}

/// The filters of FILTER ("Sessions (*.crossroof);;All files (*)"): each one's label and its wildcards (the
/// ones in its last parentheses; a filter without them is its own wildcards). All files when there is none.
QList<std::pair<QString, QStringList>> parseFilters(const QString &filter)
{
    static const QRegularExpression inParentheses(QStringLiteral("\\(([^()]*)\\)\\s*$"));
    QList<std::pair<QString, QStringList>> filters;
    for (const QString &part : filter.split(QStringLiteral(";;"), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch match = inParentheses.match(part);
        const QString wildcards = match.hasMatch() ? match.captured(1) : part;
        filters.append({part.trimmed(), wildcards.split(QLatin1Char(' '), Qt::SkipEmptyParts)});
    }
    if (filters.isEmpty())
        filters.append({FileBrowserDialog::tr("All files (*)"), {QStringLiteral("*")}});
    return filters;
}

int threeWay(const auto &a, const auto &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

/// SUFFIX as the bytes a file name ends in, its dot included; empty for none.
std::string dotted(const QString &suffix)
{
    if (suffix.isEmpty())
        return {};
    std::string out(1, '.');
    out += nativePath(suffix);
    return out;
}

} // namespace

/// The listed folder's entries: folders first, then files, each sorted by the view's column (by name,
/// naturally and case-insensitively, by default and between equals); hidden entries and files that match no
/// wildcard of the filter are left out but kept, so that a change of either needs no new listing.
class FolderModel : public QAbstractTableModel
{
public:
    explicit FolderModel(QObject *parent)
        : QAbstractTableModel(parent)
        , m_folderIcon(QFileIconProvider().icon(QAbstractFileIconProvider::Folder))
        , m_fileIcon(QFileIconProvider().icon(QAbstractFileIconProvider::File))
    {
        m_collator.setNumericMode(true);
        m_collator.setCaseSensitivity(Qt::CaseInsensitive);
    }

    void setEntries(std::vector<FolderEntry> entries)
    {
        beginResetModel();
        m_entries = std::move(entries);
        arrange();
        endResetModel();
    }

    /// Lists hidden entries when HIDDEN; files only when a wildcard of WILDCARDS matches them (all with
    /// none), and none of them when FOLDERS_ONLY.
    void setShown(bool hidden, const QStringList &wildcards, bool foldersOnly)
    {
        beginResetModel();
        m_showHidden = hidden;
        m_foldersOnly = foldersOnly;
        m_wildcards.clear();
        for (const QString &wildcard : wildcards)
            m_wildcards.append(QRegularExpression::fromWildcard(wildcard, Qt::CaseInsensitive));
        arrange();
        endResetModel();
    }

    const FolderEntry &entry(int row) const { return m_entries[m_rows[std::size_t(row)]]; }

    /// The row of the entry named NAME (bytes); -1 when it is not listed.
    int rowOf(const std::string &name) const
    {
        for (std::size_t row = 0; row < m_rows.size(); ++row) {
            if (m_entries[m_rows[row]].name == name)
                return int(row);
        }
        return -1;
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : FileBrowserDialog::ColumnCount;
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || index.row() >= rowCount())
            return {};
        const FolderEntry &e = entry(index.row());
        const int column = index.column();
        switch (role) {
        case FileBrowserDialog::PathRole:
            return e.path;
        case Qt::DisplayRole:
            if (column == FileBrowserDialog::NameColumn)
                return e.shown;
            if (column == FileBrowserDialog::SizeColumn)
                return e.size ? QLocale().formattedDataSize(qint64(*e.size)) : QString();
            if (column == FileBrowserDialog::TypeColumn)
                return e.type;
            return e.modified.isValid() ? QLocale().toString(e.modified, QLocale::ShortFormat) : QString();
        case Qt::DecorationRole:
            if (column == FileBrowserDialog::NameColumn)
                return e.folder ? m_folderIcon : m_fileIcon;
            return {};
        case Qt::TextAlignmentRole:
            if (column == FileBrowserDialog::SizeColumn)
                return (Qt::AlignRight | Qt::AlignVCenter).toInt();
            return {};
        default:
            return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return QAbstractTableModel::headerData(section, orientation, role);
        switch (section) {
        case FileBrowserDialog::NameColumn:
            return FileBrowserDialog::tr("Name");
        case FileBrowserDialog::SizeColumn:
            return FileBrowserDialog::tr("Size");
        case FileBrowserDialog::TypeColumn:
            return FileBrowserDialog::tr("Type");
        default:
            return FileBrowserDialog::tr("Date Modified");
        }
    }

    /// Sorts by COLUMN in ORDER (folders stay first); the selection and the current entry stay on theirs.
    void sort(int column, Qt::SortOrder order) override
    {
        Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        const QModelIndexList before = persistentIndexList();
        std::vector<std::size_t> entriesBefore;
        for (const QModelIndex &index : before)
            entriesBefore.push_back(m_rows[std::size_t(index.row())]);
        m_column = column;
        m_order = order;
        sortRows();
        std::vector<int> rowOfEntry(m_entries.size(), -1);
        for (std::size_t row = 0; row < m_rows.size(); ++row)
            rowOfEntry[m_rows[row]] = int(row);
        QModelIndexList after;
        for (qsizetype i = 0; i < before.size(); ++i)
            after.append(index(rowOfEntry[entriesBefore[std::size_t(i)]], before[i].column()));
        changePersistentIndexList(before, after);
        Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    }

private:
    bool listed(const FolderEntry &e) const
    {
        if (!m_showHidden && e.name.starts_with('.'))
            return false;
        if (e.folder)
            return true;
        if (m_foldersOnly)
            return false;
        return m_wildcards.isEmpty()
               || std::any_of(m_wildcards.begin(), m_wildcards.end(),
                              [&e](const QRegularExpression &w) { return w.match(e.shown).hasMatch(); });
    }

    void arrange()
    {
        m_rows.clear();
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            if (listed(m_entries[i]))
                m_rows.push_back(i);
        }
        sortRows();
    }

    void sortRows()
    {
        std::sort(m_rows.begin(), m_rows.end(), [this](std::size_t a, std::size_t b) {
            const FolderEntry &x = m_entries[a];
            const FolderEntry &y = m_entries[b];
            if (x.folder != y.folder)
                return x.folder;
            int order = 0;
            if (m_column == FileBrowserDialog::SizeColumn)
                order = threeWay(x.size, y.size);
            else if (m_column == FileBrowserDialog::TypeColumn)
                order = m_collator.compare(x.type, y.type);
            else if (m_column == FileBrowserDialog::ModifiedColumn)
                order = threeWay(x.modified, y.modified);
            if (order == 0)
                order = m_collator.compare(x.shown, y.shown);
            if (order == 0)
                order = threeWay(x.name, y.name); // names that show alike, or differ in case only
            return m_order == Qt::AscendingOrder ? order < 0 : order > 0;
        });
    }

    QIcon m_folderIcon;
    QIcon m_fileIcon;
    QCollator m_collator;
    std::vector<FolderEntry> m_entries;
    std::vector<std::size_t> m_rows; ///< the listed entries' indices, in the rows' order
    bool m_showHidden = false;
    bool m_foldersOnly = false;
    QList<QRegularExpression> m_wildcards;
    int m_column = FileBrowserDialog::NameColumn;
    Qt::SortOrder m_order = Qt::AscendingOrder;
};

FileBrowserDialog::FileBrowserDialog(const FileRequest &request, QWidget *parent)
    : QDialog(parent)
    , m_mode(request.mode)
    , m_suffix(dotted(request.suffix))
    , m_model(new FolderModel(this))
{
    switch (m_mode) {
    case FileRequest::Mode::Open:
        setWindowTitle(request.title.isEmpty() ? tr("Open File") : request.title);
        break;
    case FileRequest::Mode::Save:
        setWindowTitle(request.title.isEmpty() ? tr("Save File") : request.title);
        break;
    case FileRequest::Mode::Folder:
        setWindowTitle(request.title.isEmpty() ? tr("Choose Folder") : request.title);
        break;
    }
    // A save proposes a path: its folder is where the dialog opens, its name goes into the name field.
    std::string start = request.start.isEmpty() ? homeFolder() : normalFolder(nativePath(request.start));
    std::string proposed;
    std::error_code error;
    if (m_mode == FileRequest::Mode::Save && !fs::is_directory(start, error)) {
        proposed = fs::path(start).filename().string();
        start = fs::path(start).parent_path().string();
    }
    if (!fs::is_directory(start, error))
        start = homeFolder();
    buildLayout(request);
    addPlace(tr("Home"), pathFromNative(homeFolder()), style()->standardIcon(QStyle::SP_DirHomeIcon));
    addPlace(tr("File System"), QStringLiteral("/"),
             QFileIconProvider().icon(QAbstractFileIconProvider::Drive));
    if (start != homeFolder() && start != "/")
        addPlace(shown(fs::path(start).filename().string()), pathFromNative(start),
                 QFileIconProvider().icon(QAbstractFileIconProvider::Folder));
    visit(start, false);
    if (!proposed.empty()) {
        selectName(proposed);
        setName(proposed);
        const qsizetype dot = m_name->text().lastIndexOf(QLatin1Char('.'));
        m_name->setSelection(0, dot > 0 ? dot : m_name->text().size());
        m_name->setFocus();
    } else {
        m_view->setFocus();
    }
    const int em = fontMetrics().height();
    resize(em * 50, em * 28);
}

QString FileBrowserDialog::choose(QWidget *parent, const FileRequest &request)
{
    FileBrowserDialog dialog(request, parent);
    return dialog.exec() == QDialog::Accepted ? dialog.chosenPath() : QString();
}

void FileBrowserDialog::buildLayout(const FileRequest &request)
{
    m_location = new QLineEdit(this);
    m_location->setAccessibleName(tr("Location"));
    m_location->setToolTip(
            tr("The folder listed: type or paste a path and press Enter to go there (a file's path "
               "selects the file)"));
    connect(m_location, &QLineEdit::returnPressed, this, &FileBrowserDialog::goToLocation);
    auto *lookIn = new QLabel(tr("&Look in:"), this);
    lookIn->setBuddy(m_location);

    auto *top = new QHBoxLayout;
    top->addWidget(lookIn);
    top->addWidget(m_location, 1);
    // Each button's action is the dialog's too, so that its shortcut works wherever the focus is.
    const auto addButton = [this, top](QStyle::StandardPixmap icon, const QString &text,
                                       const QKeySequence &key, const std::function<void()> &slot) {
        auto *action = new QAction(style()->standardIcon(icon), text, this);
        action->setShortcut(key);
        action->setToolTip(tr("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setAutoRaise(true);
        top->addWidget(button);
        return action;
    };
    m_backAction = addButton(QStyle::SP_ArrowBack, tr("Back"), QKeySequence(Qt::ALT | Qt::Key_Left),
                             [this] { goBack(); });
    m_forwardAction = addButton(QStyle::SP_ArrowForward, tr("Forward"), QKeySequence(Qt::ALT | Qt::Key_Right),
                                [this] { goForward(); });
    m_upAction = addButton(QStyle::SP_FileDialogToParent, tr("Up to the parent folder"),
                           QKeySequence(Qt::ALT | Qt::Key_Up), [this] { goUp(); });
    addButton(QStyle::SP_DirHomeIcon, tr("Home folder"), QKeySequence(Qt::ALT | Qt::Key_Home),
              [this] { goHome(); });
    // A file to save, or a folder to choose, may go into a folder not made yet.
    if (m_mode != FileRequest::Mode::Open) {
        addButton(QStyle::SP_FileDialogNewFolder, tr("New folder"),
                  QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N), [this] {
                      bool ok = false;
                      const QString name
                              = QInputDialog::getText(this, tr("New Folder"), tr("Name of the new folder:"),
                                                      QLineEdit::Normal, tr("New Folder"), &ok);
                      if (ok)
                          createFolder(name);
                  });
    }

    m_problem = new QLabel(this);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setWordWrap(true);
    m_problem->setVisible(false);

    // A one-column tree rather than a list: it elides a long name to its width instead of scrolling.
    m_places = new QTreeWidget(this);
    m_places->setAccessibleName(tr("Places"));
    m_places->setToolTip(tr("Places: click one, or select it and press Enter, to go there"));
    m_places->setHeaderHidden(true);
    m_places->setRootIsDecorated(false);
    m_places->setColumnCount(1);
    m_places->setTextElideMode(Qt::ElideMiddle);
    const auto goToPlace = [this](QTreeWidgetItem *item) {
        visit(normalFolder(nativePath(item->data(0, PathRole).toString())), true);
    };
    connect(m_places, &QTreeWidget::itemClicked, this, goToPlace);
    connect(m_places, &QTreeWidget::itemActivated, this, goToPlace);

    m_view = new QTreeView(this);
    m_view->setAccessibleName(m_mode == FileRequest::Mode::Folder ? tr("Folders") : tr("Files"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setItemsExpandable(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(NameColumn, Qt::AscendingOrder);
    const int em = fontMetrics().height();
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    // The size and date columns hold their widest usual text; the name takes what is left.
    const QLocale locale;
    const QFontMetrics metrics = m_view->fontMetrics();
    header->resizeSection(SizeColumn,
                          metrics.horizontalAdvance(locale.formattedDataSize(1023 * 1024 * 1024)) + em);
    header->resizeSection(TypeColumn, em * 8);
    const QDateTime wide(QDate(2000, 12, 28), QTime(23, 59));
    header->resizeSection(ModifiedColumn,
                          metrics.horizontalAdvance(locale.toString(wide, QLocale::ShortFormat)) + em);
    connect(m_view, &QTreeView::activated, this, &FileBrowserDialog::activate);
    // The name follows the selection, not the current entry: the view makes its first entry current (not
    // selected) when it takes the focus, and a folder dialog's Choose would then take that folder.
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &FileBrowserDialog::selectionChanged);
    auto *upFromList = new QShortcut(QKeySequence(Qt::Key_Backspace), m_view);
    upFromList->setContext(Qt::WidgetShortcut);
    connect(upFromList, &QShortcut::activated, this, &FileBrowserDialog::goUp);

    auto *splitter = new QSplitter(this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_places);
    splitter->addWidget(m_view);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({em * 9, em * 41});

    m_name = new QLineEdit(this);
    m_name->setAccessibleName(m_mode == FileRequest::Mode::Folder ? tr("Folder name") : tr("File name"));
    auto *nameLabel
            = new QLabel(m_mode == FileRequest::Mode::Folder ? tr("&Folder:") : tr("File &name:"), this);
    nameLabel->setBuddy(m_name);
    if (m_mode == FileRequest::Mode::Folder)
        m_name->setPlaceholderText(tr("(the folder listed)"));

    m_filter = new QComboBox(this);
    m_filter->setAccessibleName(tr("Files of type"));
    for (const auto &[label, wildcards] : parseFilters(request.filter))
        m_filter->addItem(label, wildcards);
    auto *filterLabel = new QLabel(tr("Files of &type:"), this);
    filterLabel->setBuddy(m_filter);
    connect(m_filter, &QComboBox::currentIndexChanged, this, &FileBrowserDialog::applyFilter);

    auto *fields = new QGridLayout;
    fields->addWidget(nameLabel, 0, 0);
    fields->addWidget(m_name, 0, 1);
    fields->addWidget(filterLabel, 1, 0);
    fields->addWidget(m_filter, 1, 1);
    fields->setColumnStretch(1, 1);
    if (m_mode == FileRequest::Mode::Folder) {
        filterLabel->setVisible(false);
        m_filter->setVisible(false);
    }

    m_hidden = new QCheckBox(tr("Show &hidden files"), this);
    m_hidden->setToolTip(tr("List the files and folders whose names begin with a dot (%1)")
                                 .arg(QKeySequence(Qt::CTRL | Qt::Key_H).toString(QKeySequence::NativeText)));
    connect(m_hidden, &QCheckBox::toggled, this, &FileBrowserDialog::applyFilter);
    auto *toggleHidden = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_H), this);
    connect(toggleHidden, &QShortcut::activated, m_hidden, &QCheckBox::toggle);
    auto *focusLocation = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    connect(focusLocation, &QShortcut::activated, this, [this] {
        m_location->setFocus(Qt::ShortcutFocusReason);
        m_location->selectAll();
    });
    auto *reloadKey = new QShortcut(QKeySequence::Refresh, this);
    connect(reloadKey, &QShortcut::activated, this, &FileBrowserDialog::reload);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *acceptButton = nullptr;
    if (m_mode == FileRequest::Mode::Open)
        acceptButton = buttons->addButton(QDialogButtonBox::Open);
    else if (m_mode == FileRequest::Mode::Save)
        acceptButton = buttons->addButton(QDialogButtonBox::Save);
    else
        acceptButton = buttons->addButton(tr("&Choose"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    acceptButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &FileBrowserDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &FileBrowserDialog::reject);
    const auto enableAccept = [this, acceptButton] {
        acceptButton->setEnabled(m_mode == FileRequest::Mode::Folder || !m_name->text().isEmpty());
    };
    connect(m_name, &QLineEdit::textChanged, this, enableAccept);
    enableAccept();

    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_hidden);
    bottom->addStretch(1);
    bottom->addWidget(buttons);

    // The focus goes round in the order the widgets were made: the location, its buttons, the places, the
    // list, the fields, the hidden files and the buttons.
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_problem);
    layout->addWidget(splitter, 1);
    layout->addLayout(fields);
    layout->addLayout(bottom);
    applyFilter();
}

void FileBrowserDialog::addPlace(const QString &label, const QString &path, const QIcon &icon)
{
    auto *item = new QTreeWidgetItem(m_places, {label});
    item->setIcon(0, icon);
    item->setData(0, PathRole, path);
    item->setToolTip(0, displayedPath(path));
}

QString FileBrowserDialog::folder() const
{
    return pathFromNative(m_folder);
}

QString FileBrowserDialog::problem() const
{
    return m_problem->text();
}

void FileBrowserDialog::visit(const std::string &folder, bool record)
{
    // Listed off the GUI thread: a folder on a network mount that hangs shows a progress dialog with Cancel,
    // and the dialog stays where it was.
    struct Listing
    {
        std::vector<FolderEntry> entries;
        std::error_code error;
    };
    std::optional<Listing> listing
            = runWithProgress<Listing>(this, tr("Reading the folder %1…").arg(shown(folder)), [folder] {
                  Listing l;
                  l.entries = listEntries(folder, l.error);
                  return l;
              });
    if (!listing) {
        setProblem(tr("Reading %1 was cancelled.").arg(shown(folder)));
        return;
    }
    const std::error_code error = listing->error;
    std::vector<FolderEntry> entries = std::move(listing->entries);
    if (record && folder != m_folder) {
        m_back.push_back(m_folder);
        m_forward.clear();
    }
    m_folder = folder;
    m_model->setEntries(std::move(entries));
    m_location->setText(shown(m_folder));
    if (m_mode != FileRequest::Mode::Save)
        m_name->clear();
    setProblem(error ? tr("Cannot read %1: %2").arg(shown(m_folder), QString::fromLocal8Bit(error.message()))
                     : QString());
    {
        const QSignalBlocker block(m_places);
        m_places->setCurrentItem(nullptr);
        m_places->clearSelection();
        for (int row = 0; row < m_places->topLevelItemCount(); ++row) {
            QTreeWidgetItem *place = m_places->topLevelItem(row);
            if (nativePath(place->data(0, PathRole).toString()) == m_folder)
                m_places->setCurrentItem(place);
        }
    }
    updateActions();
}

void FileBrowserDialog::setFolder(const QString &folder)
{
    visit(normalFolder(nativePath(folder)), true);
}

void FileBrowserDialog::goUp()
{
    if (m_folder != "/")
        visit(fs::path(m_folder).parent_path().string(), true);
}

void FileBrowserDialog::goBack()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_folder);
    const std::string folder = m_back.back();
    m_back.pop_back();
    visit(folder, false);
}

void FileBrowserDialog::goForward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_folder);
    const std::string folder = m_forward.back();
    m_forward.pop_back();
    visit(folder, false);
}

void FileBrowserDialog::goHome()
{
    visit(homeFolder(), true);
}

void FileBrowserDialog::reload()
{
    const QModelIndex current = m_view->currentIndex();
    const std::string selected = current.isValid() ? m_model->entry(current.row()).name : std::string();
    const std::string nameBytes = m_nameBytes;
    const QString nameShown = m_nameShown;
    const QString name = m_name->text();
    visit(m_folder, false);
    selectName(selected);
    m_nameBytes = nameBytes;
    m_nameShown = nameShown;
    m_name->setText(name);
}

bool FileBrowserDialog::createFolder(const QString &name)
{
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QStringLiteral(".")
        || name == QStringLiteral("..")) {
        setProblem(tr("“%1” cannot name a folder.").arg(displayedPath(name)));
        return false;
    }
    const std::string bytes = nativePath(name);
    const std::string path = (fs::path(m_folder) / bytes).string();
    std::error_code error;
    const bool made = fs::create_directory(path, error);
    reload();
    if (!made) {
        setProblem(tr("Cannot make the folder %1: %2")
                           .arg(shown(path),
                                error ? QString::fromLocal8Bit(error.message()) : tr("it is there already")));
        return false;
    }
    selectName(bytes);
    return true;
}

void FileBrowserDialog::goToLocation()
{
    const std::string path = typedPath(m_location->text());
    if (path.empty())
        return;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (fs::is_directory(status)) {
        visit(normalFolder(path), true);
    } else if (fs::exists(status)) {
        visit(normalFolder(fs::path(path).parent_path().string()), true);
        const std::string name = fs::path(path).filename().string();
        selectName(name);
        setName(name);
    } else {
        setProblem(tr("There is no %1.").arg(shown(path)));
    }
}

void FileBrowserDialog::activate(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const FolderEntry entry = m_model->entry(index.row());
    if (entry.folder) {
        visit(normalFolder(nativePath(entry.path)), true);
        return;
    }
    setName(entry.name);
    accept();
}

void FileBrowserDialog::selectionChanged()
{
    const QModelIndexList selected = m_view->selectionModel()->selectedRows();
    if (selected.isEmpty()) {
        // Nothing selected in a folder dialog: the folder listed, unless a name was typed.
        if (m_mode == FileRequest::Mode::Folder && m_name->text() == m_nameShown)
            m_name->clear();
        return;
    }
    const FolderEntry &entry = m_model->entry(selected.front().row());
    // A save keeps the name typed when a folder is selected on the way to where it goes.
    if (m_mode == FileRequest::Mode::Save && entry.folder)
        return;
    setName(entry.name);
}

void FileBrowserDialog::setName(const std::string &name)
{
    m_nameBytes = name;
    m_nameShown = shown(name);
    m_name->setText(m_nameShown);
}

void FileBrowserDialog::selectName(const std::string &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex index = m_model->index(row, NameColumn);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

std::string FileBrowserDialog::typedPath(const QString &text) const
{
    if (text.isEmpty())
        return {};
    QString rest = text;
    fs::path path;
    if (rest == QStringLiteral("~") || rest.startsWith(QStringLiteral("~/"))) {
        path = homeFolder();
        rest = rest.mid(1);
    } else if (rest.startsWith(QLatin1Char('/'))) {
        path = "/";
    } else {
        path = m_folder;
    }
    for (const QString &part : rest.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QStringLiteral("."))
            continue;
        if (part == QStringLiteral("..")) {
            path = path.parent_path();
            continue;
        }
        std::string name = nativePath(part);
        std::error_code error;
        if (part.contains(QChar::ReplacementCharacter)
            && !fs::exists(fs::symlink_status(path / name, error))) {
            if (std::optional<std::string> match = entryShownAs(path, part))
                name = std::move(*match);
        }
        path /= name;
    }
    return path.string();
}

std::string FileBrowserDialog::namedPath() const
{
    const QString text = m_name->text();
    if (!m_nameShown.isEmpty() && text == m_nameShown)
        return (fs::path(m_folder) / m_nameBytes).string();
    return typedPath(text);
}

void FileBrowserDialog::accept()
{
    const QString text = m_name->text();
    if (text.isEmpty() && m_mode != FileRequest::Mode::Folder)
        return;
    std::string path = text.isEmpty() ? m_folder : namedPath();
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (fs::is_directory(status)) {
        if (m_mode == FileRequest::Mode::Folder) {
            m_chosen = pathFromNative(normalFolder(path));
            QDialog::accept();
            return;
        }
        visit(normalFolder(path), true);
        m_name->clear();
        return;
    }
    if (m_mode == FileRequest::Mode::Folder) {
        setProblem(tr("There is no folder %1.").arg(shown(path)));
        return;
    }
    if (m_mode == FileRequest::Mode::Open && !fs::exists(status)) {
        setProblem(tr("There is no file %1.").arg(shown(path)));
        return;
    }
    if (m_mode == FileRequest::Mode::Save) {
        // "analysis" saves as analysis.crossroof: the file the question below is about (a folder of the typed
        // name was entered above).
        if (!m_suffix.empty() && !fs::path(path).has_extension())
            path += m_suffix;
        const std::string parent = fs::path(path).parent_path().string();
        if (!fs::is_directory(parent, error)) {
            setProblem(tr("There is no folder %1.").arg(shown(parent)));
            return;
        }
        if (fs::exists(fs::symlink_status(path, error)) && !confirmReplace(pathFromNative(path)))
            return;
    }
    m_chosen = pathFromNative(path);
    QDialog::accept();
}

bool FileBrowserDialog::confirmReplace(const QString &path)
{
    const QString name = displayedPath(path).section(QLatin1Char('/'), -1);
    return QMessageBox::warning(this, windowTitle(),
                                tr("%1 already exists.\nDo you want to replace it?").arg(name),
                                QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
           == QMessageBox::Yes;
}

void FileBrowserDialog::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    const QWidget *focus = focusWidget();
    if (enter && (focus == m_location || focus == m_view || focus == m_places)) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void FileBrowserDialog::applyFilter()
{
    m_model->setShown(m_hidden->isChecked(), m_filter->currentData().toStringList(),
                      m_mode == FileRequest::Mode::Folder);
}

void FileBrowserDialog::setProblem(const QString &problem)
{
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
}

void FileBrowserDialog::updateActions()
{
    m_backAction->setEnabled(!m_back.empty());
    m_forwardAction->setEnabled(!m_forward.empty());
    m_upAction->setEnabled(m_folder != "/");
}

} // namespace crossroof::widgets
