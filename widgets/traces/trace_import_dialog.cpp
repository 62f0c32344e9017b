// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/trace_import_dialog.h"

#include "common/plot_style.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace crossroof::widgets {

namespace {

using core::TraceKind;

QString settingsKey(const QString &signature)
{
    return QStringLiteral("traceImport/") + signature;
}

QString columnName(const std::string &s)
{
    return QString::fromStdString(s);
}

/// The first column whose lower-case name contains one of NEEDLES, or an empty string.
QString findColumn(const std::vector<std::string> &header, std::initializer_list<const char *> needles,
                   const QString &except = {})
{
    for (const char *needle : needles) {
        for (const auto &h : header) {
            const QString name = columnName(h);
            if (name != except && name.toLower().contains(QLatin1String(needle)))
                return name;
        }
    }
    return {};
}

/// The column named exactly one of NAMES (ignoring case), or an empty string.
QString exactColumn(const std::vector<std::string> &header, std::initializer_list<const char *> names)
{
    for (const auto &h : header) {
        for (const char *name : names) {
            if (columnName(h).compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
                return columnName(h);
        }
    }
    return {};
}

} // namespace

TraceImportDialog::TraceImportDialog(core::CsvTable table, QWidget *parent)
    : QDialog(parent)
    , m_table(std::move(table))
{
    setWindowTitle(tr("Import Measurements: %1")
                           .arg(QFileInfo(QString::fromStdString(m_table.source())).fileName()));
    auto *intro = new QLabel(
            tr("<b>%1</b>: %2 rows, %3 columns. Choose what the columns mean; Crossroof remembers "
               "the choice for files with the same columns.")
                    .arg(QString::fromStdString(m_table.source()).toHtmlEscaped())
                    .arg(m_table.rowCount())
                    .arg(m_table.columnCount()),
            this);
    intro->setWordWrap(true);

    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Bandwidth against warps: an f(k) trace for the X-graph"),
                    int(TraceKind::BandwidthVsWarps));
    m_kind->addItem(tr("Kernel operating points: warps, GB/s and Z per kernel"),
                    int(TraceKind::KernelPoints));
    m_kind->addItem(tr("Runtimes against requested blocks B_r, for the zigzag"), int(TraceKind::Runtimes));
    m_kind->addItem(tr("Bytes per time interval, for the bandwidth curves"),
                    int(TraceKind::BytesPerInterval));

    auto columnBox = [this] {
        auto *box = new QComboBox(this);
        box->addItem(tr("(none)"), QString());
        for (const auto &h : m_table.header())
            box->addItem(columnName(h), columnName(h));
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        return box;
    };
    m_x = columnBox();
    m_y = columnBox();
    m_extra = columnBox();
    m_label = columnBox();
    m_filterColumn = columnBox();
    m_filterValue = new QComboBox(this);
    m_filterValue->setEditable(true);
    m_filterValue->setMinimumContentsLength(12);

    auto *form = new QFormLayout;
    form->addRow(tr("&Kind"), m_kind);
    m_xLabel = new QLabel(this);
    m_yLabel = new QLabel(this);
    m_extraLabel = new QLabel(this);
    m_labelLabel = new QLabel(this);
    m_xLabel->setBuddy(m_x);
    m_yLabel->setBuddy(m_y);
    m_extraLabel->setBuddy(m_extra);
    m_labelLabel->setBuddy(m_label);
    form->addRow(m_xLabel, m_x);
    form->addRow(m_yLabel, m_y);
    form->addRow(m_extraLabel, m_extra);
    form->addRow(m_labelLabel, m_label);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filterColumn);
    filterRow->addWidget(new QLabel(QStringLiteral("="), this));
    filterRow->addWidget(m_filterValue, 1);
    auto *filterLabel = new QLabel(tr("Only rows &where"), this);
    filterLabel->setBuddy(m_filterColumn);
    form->addRow(filterLabel, filterRow);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    m_preview = new QTableWidget(this);
    const int rows = int(std::min<std::size_t>(kPreviewRows, m_table.rowCount()));
    m_preview->setRowCount(rows);
    m_preview->setColumnCount(int(m_table.columnCount()));
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setSelectionMode(QAbstractItemView::NoSelection);
    m_preview->verticalHeader()->setDefaultSectionSize(m_preview->fontMetrics().height() + 6);
    QStringList lines;
    for (int r = 0; r < rows; ++r) {
        lines << tr("line %1").arg(m_table.line(std::size_t(r)));
        for (int c = 0; c < int(m_table.columnCount()); ++c) {
            const auto cell = m_table.cell(std::size_t(r), std::size_t(c));
            m_preview->setItem(r, c,
                               new QTableWidgetItem(QString::fromUtf8(cell.data(), qsizetype(cell.size()))));
        }
    }
    m_preview->setVerticalHeaderLabels(lines);

    m_errorLabel = new QLabel(this);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setStyleSheet(QStringLiteral("color: %1").arg(plot_style::kVermillion.name()));
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &TraceImportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &TraceImportDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_hint);
    layout->addWidget(new QLabel(tr("First rows of the file (the chosen columns are marked):"), this));
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_errorLabel);
    layout->addWidget(m_buttons);
    resize(760, 560);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &TraceImportDialog::updateForKind);
    connect(m_filterColumn, &QComboBox::currentIndexChanged, this, &TraceImportDialog::updateFilterValues);
    for (QComboBox *box : {m_x, m_y, m_extra, m_label, m_filterColumn})
        connect(box, &QComboBox::currentIndexChanged, this, &TraceImportDialog::markPreview);

    setMapping(rememberedMapping(m_table.header()).value_or(guessMapping(m_table.header())));
}

QString TraceImportDialog::columnChoice(const QComboBox *box)
{
    return box->isEnabled() ? box->currentData().toString() : QString();
}

void TraceImportDialog::selectColumn(QComboBox *box, const QString &name)
{
    const int index = box->findData(name);
    box->setCurrentIndex(index < 0 ? 0 : index);
}

TraceMapping TraceImportDialog::mapping() const
{
    TraceMapping m;
    m.kind = TraceKind(m_kind->currentData().toInt());
    m.x = columnChoice(m_x).toStdString();
    m.y = columnChoice(m_y).toStdString();
    m.extra = columnChoice(m_extra).toStdString();
    m.label = columnChoice(m_label).toStdString();
    m.filter_column = columnChoice(m_filterColumn).toStdString();
    if (!m.filter_column.empty())
        m.filter_value = m_filterValue->currentText().trimmed().toStdString();
    return m;
}

void TraceImportDialog::setMapping(const TraceMapping &m)
{
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(int(m.kind))));
    selectColumn(m_x, QString::fromStdString(m.x));
    selectColumn(m_y, QString::fromStdString(m.y));
    selectColumn(m_extra, QString::fromStdString(m.extra));
    selectColumn(m_label, QString::fromStdString(m.label));
    selectColumn(m_filterColumn, QString::fromStdString(m.filter_column));
    updateForKind();
    updateFilterValues();
    if (!m.filter_value.empty())
        m_filterValue->setCurrentText(QString::fromStdString(m.filter_value));
    markPreview();
}

void TraceImportDialog::updateForKind()
{
    const auto kind = TraceKind(m_kind->currentData().toInt());
    switch (kind) {
    case TraceKind::BandwidthVsWarps:
        m_xLabel->setText(tr("&x: warps per SM"));
        m_yLabel->setText(tr("&y: throughput (GB/s)"));
        m_extraLabel->setText(tr("&Extra: not used"));
        m_labelLabel->setText(tr("&Labels: not used"));
        m_hint->setText(tr("Points are drawn on the X-graph as hollow markers and can be fitted (Fit…)."));
        break;
    case TraceKind::KernelPoints:
        m_xLabel->setText(tr("&x: achieved warps per SM"));
        m_yLabel->setText(tr("&y: DRAM throughput (GB/s)"));
        m_extraLabel->setText(tr("&Extra: Z, inst/request (optional)"));
        m_labelLabel->setText(tr("&Labels: kernel name (optional)"));
        m_hint->setText(
                tr("Kernels are drawn as stars with the model's prediction at their warps and Z; an empty Z "
                   "cell uses the current Z."));
        break;
    case TraceKind::Runtimes:
        m_xLabel->setText(tr("&x: requested blocks B_r"));
        m_yLabel->setText(tr("&y: runtime (s)"));
        m_extraLabel->setText(tr("&Extra: threads per core T (optional)"));
        m_labelLabel->setText(tr("&Labels: run name (optional)"));
        m_hint->setText(tr("Runtimes are drawn on the zigzag with the Eq. 15 fit time = a1·√B_r/T + a0."));
        break;
    case TraceKind::BytesPerInterval:
        m_xLabel->setText(tr("&x: interval end time, s (optional)"));
        m_yLabel->setText(tr("&y: bytes per interval"));
        m_extraLabel->setText(tr("&Extra: a second connection, bytes (optional)"));
        m_labelLabel->setText(tr("&Labels: not used"));
        m_hint->setText(tr("Without a time column each row is a one-second interval."));
        break;
    case TraceKind::LatencyVsFootprint: // read from gpu-benches outputs only, never mapped from a table
    case TraceKind::BandwidthVsFootprint:
    case TraceKind::PerformanceVsIntensity:
    case TraceKind::CyclesVsStride:
        break;
    }
    const bool extra = kind != TraceKind::BandwidthVsWarps;
    const bool labels = kind == TraceKind::KernelPoints || kind == TraceKind::Runtimes;
    m_extra->setEnabled(extra);
    m_label->setEnabled(labels);
    markPreview();
}

void TraceImportDialog::updateFilterValues()
{
    const QString keep = m_filterValue->currentText();
    m_filterValue->clear();
    const auto column = m_table.findColumn(m_filterColumn->currentData().toString().toStdString());
    m_filterValue->setEnabled(column.has_value());
    if (!column)
        return;
    QStringList values;
    for (std::size_t r = 0; r < m_table.rowCount() && values.size() < 200; ++r) {
        const auto cell = m_table.cell(r, *column);
        const QString v = QString::fromUtf8(cell.data(), qsizetype(cell.size())).trimmed();
        if (!values.contains(v))
            values << v;
    }
    m_filterValue->addItems(values);
    if (values.contains(keep))
        m_filterValue->setCurrentText(keep);
}

void TraceImportDialog::markPreview()
{
    const TraceMapping m = mapping();
    const QColor tint = plot_style::kSky.lighter(150);
    for (int c = 0; c < m_preview->columnCount(); ++c) {
        const std::string &column = m_table.header()[std::size_t(c)];
        const QString name = columnName(column);
        QString role;
        if (column == m.x)
            role = QStringLiteral("x");
        else if (column == m.y)
            role = QStringLiteral("y");
        else if (column == m.extra)
            role = tr("extra");
        else if (column == m.label)
            role = tr("label");
        else if (column == m.filter_column)
            role = tr("filter");
        auto *header = new QTableWidgetItem(role.isEmpty() ? name : QStringLiteral("%1: %2").arg(role, name));
        m_preview->setHorizontalHeaderItem(c, header);
        for (int r = 0; r < m_preview->rowCount(); ++r) {
            if (QTableWidgetItem *item = m_preview->item(r, c))
                item->setBackground(role.isEmpty() ? QBrush() : QBrush(tint));
        }
    }
    m_preview->resizeColumnsToContents();
}

void TraceImportDialog::accept()
{
    const TraceMapping m = mapping();
    TraceLoad load = tracesFromTable(m_table, m);
    m_error = load.error;
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
    if (!load.ok())
        return;
    m_traces = std::move(load.traces);
    QVariantMap saved;
    saved[QStringLiteral("kind")] = QString::fromLatin1(core::traceKindName(m.kind).data());
    saved[QStringLiteral("x")] = QString::fromStdString(m.x);
    saved[QStringLiteral("y")] = QString::fromStdString(m.y);
    saved[QStringLiteral("extra")] = QString::fromStdString(m.extra);
    saved[QStringLiteral("label")] = QString::fromStdString(m.label);
    saved[QStringLiteral("filterColumn")] = QString::fromStdString(m.filter_column);
    saved[QStringLiteral("filterValue")] = QString::fromStdString(m.filter_value);
    QSettings().setValue(settingsKey(headerSignature(m_table.header())), saved);
    QDialog::accept();
}

QString TraceImportDialog::headerSignature(const std::vector<std::string> &header)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    for (const auto &h : header) {
        hash.addData(QByteArrayView(h.data(), qsizetype(h.size())));
        hash.addData(QByteArrayView("\n", 1));
    }
    return QString::fromLatin1(hash.result().toHex().left(20));
}

std::optional<TraceMapping> TraceImportDialog::rememberedMapping(const std::vector<std::string> &header)
{
    const QVariantMap saved = QSettings().value(settingsKey(headerSignature(header))).toMap();
    const auto kind = core::traceKindFromName(saved.value(QStringLiteral("kind")).toString().toStdString());
    if (!kind)
        return std::nullopt;
    TraceMapping m;
    m.kind = *kind;
    m.x = saved.value(QStringLiteral("x")).toString().toStdString();
    m.y = saved.value(QStringLiteral("y")).toString().toStdString();
    m.extra = saved.value(QStringLiteral("extra")).toString().toStdString();
    m.label = saved.value(QStringLiteral("label")).toString().toStdString();
    m.filter_column = saved.value(QStringLiteral("filterColumn")).toString().toStdString();
    m.filter_value = saved.value(QStringLiteral("filterValue")).toString().toStdString();
    return m;
}

TraceMapping TraceImportDialog::guessMapping(const std::vector<std::string> &header)
{
    TraceMapping m;
    const QString first = header.empty() ? QString() : columnName(header.front());
    const QString time = findColumn(header, {"time", "runtime", "seconds"});
    const QString blocks = findColumn(header, {"b_r", "blocks", "grid"});
    // A count of bytes moved in each interval; "bytes_per_warp" and the like are sizes, not traffic.
    QString bytes;
    for (const auto &h : header) {
        const QString name = columnName(h).toLower();
        if (bytes.isEmpty() && name.contains(QLatin1String("bytes")) && !name.contains(QLatin1String("per")))
            bytes = columnName(h);
    }
    if (!blocks.isEmpty() && !time.isEmpty()) {
        m.kind = TraceKind::Runtimes;
        m.x = blocks.toStdString();
        m.y = time.toStdString();
        m.extra = findColumn(header, {"threads", "t_"}, blocks).toStdString();
        return m;
    }
    if (!bytes.isEmpty()) {
        m.kind = TraceKind::BytesPerInterval;
        m.x = time.toStdString();
        m.y = bytes.toStdString();
        return m;
    }
    QString x = findColumn(header, {"warps", "warp"});
    if (x.isEmpty())
        x = exactColumn(header, {"k", "n"});
    if (x.isEmpty())
        x = first;
    QString y = findColumn(header, {"gb/s", "gbs", "gb_s", "bandwidth", "throughput"}, x);
    if (y.isEmpty() && header.size() > 1)
        y = columnName(header[1] == x.toStdString() ? header.front() : header[1]);
    m.x = x.toStdString();
    m.y = y.toStdString();
    QString z = findColumn(header, {"intensity"}, x);
    if (z.isEmpty())
        z = exactColumn(header, {"z"});
    if (!z.isEmpty() && z != y) {
        m.kind = TraceKind::KernelPoints;
        m.extra = z.toStdString();
        m.label = findColumn(header, {"kernel", "name"}).toStdString();
    }
    return m;
}

} // namespace crossroof::widgets
