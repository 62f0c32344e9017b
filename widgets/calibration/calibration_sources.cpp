// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/calibration_sources.h"

#include "calibration/calibration_views.h"
#include "common/native_path.h"
#include "core/calibration/kernel_family.h"
#include "core/support/error.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QKeyEvent>

#include <algorithm>
#include <filesystem>

namespace crossroof::widgets {

namespace {

template<typename... Fs>
struct Overload : Fs... {
    using Fs::operator()...;
};
// Written out: clang 14 does not deduce an aggregate's template arguments by itself.
template<typename... Fs>
Overload(Fs...) -> Overload<Fs...>;

QString kindText(core::SourceKind kind)
{
    switch (kind) {
    case core::SourceKind::Family:
        return QObject::tr("kernel family");
    case core::SourceKind::Stream:
        return QObject::tr("stream curve");
    case core::SourceKind::Latency:
        return QObject::tr("latencies");
    case core::SourceKind::Kernels:
        return QObject::tr("ncu kernels");
    case core::SourceKind::Parallel:
        return QObject::tr("parallel reads");
    case core::SourceKind::Cache:
        return QObject::tr("cache levels");
    case core::SourceKind::L2Stream:
        return QObject::tr("L2 stream levels");
    }
    return {};
}

QString fileName(const std::string &path)
{
    return QString::fromStdString(std::filesystem::path(path).filename().string());
}

QTableWidgetItem *textItem(const QString &text, const QString &tip = {})
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

QTableWidgetItem *numberItem(double value, const QString &tip)
{
    QTableWidgetItem *item = textItem(QString::number(value, 'f', 3), tip);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

const std::string &CalibrationSourceList::Entry::source() const
{
    return std::visit([](const auto &d) -> const std::string & { return d.source; }, data);
}

std::size_t CalibrationSourceList::Entry::values() const
{
    return std::visit(Overload {[](const core::KernelFamily &f) { return f.rows.size(); },
                                [](const core::StreamCurve &s) { return s.rows.size(); },
                                [](const core::LatencyMeasurements &l) {
                                    return std::size_t(2) + (l.l2_cycles ? 1 : 0)
                                           + (l.dependent_issue ? 1 : 0) + (l.clock_mhz ? 1 : 0);
                                },
                                [](const core::KernelSet &k) { return k.kernels.size(); },
                                [](const core::ParallelReads &r) { return r.rows.size(); },
                                [](const core::LevelMeasurements &m) { return m.settings.size(); }},
                      data);
}

const std::vector<std::string> &CalibrationSourceList::Entry::skipped() const
{
    static const std::vector<std::string> none;
    const auto *set = std::get_if<core::KernelSet>(&data);
    return set ? set->skipped : none;
}

std::size_t CalibrationSourceList::add(core::SourceKind kind, const QString &path, double warpSize)
{
    const std::string file = nativePath(path);
    Entry entry;
    entry.kind = kind;
    entry.path = path;
    switch (kind) {
    case core::SourceKind::Family:
        entry.data = core::readKernelFamily(file);
        break;
    case core::SourceKind::Stream:
        entry.data = core::readStreamCurve(file);
        break;
    case core::SourceKind::Latency:
        entry.data = core::readLatencyFile(file);
        break;
    case core::SourceKind::Kernels:
        for (const Entry &e : m_entries) {
            std::error_code error; // by the files' bytes: Qt cannot resolve a path that is not UTF-8
            if (e.kind == kind && std::filesystem::equivalent(nativePath(e.path), file, error))
                throw core::InputError(file + ": this Nsight Compute export is a source already");
        }
        entry.data = core::readKernelSet(file, warpSize);
        break;
    case core::SourceKind::Parallel:
        entry.data = core::readParallelFile(file);
        break;
    case core::SourceKind::Cache:
        entry.data = core::readCacheLevels(file);
        break;
    case core::SourceKind::L2Stream:
        entry.data = core::readL2StreamLevels(file);
        break;
    }
    return insert(std::move(entry));
}

core::ProbeMeasurements CalibrationSourceList::addProbe(const QString &directory)
{
    // readProbe() checks every file of the directory; the sources are then read as --probe reads them.
    const core::ProbeMeasurements probe = core::readProbe(nativePath(directory));
    const QDir dir(directory);
    Entry family {core::SourceKind::Family, dir.filePath(QStringLiteral("family.csv")), 1, probe.family};
    Entry stream {core::SourceKind::Stream, dir.filePath(QStringLiteral("stream.csv")), 1,
                  core::readStreamCurve(nativePath(dir.filePath(QStringLiteral("stream.csv"))))};
    Entry latency {core::SourceKind::Latency, dir.filePath(QStringLiteral("latency.csv")), 1,
                   core::readLatencyFile(nativePath(dir.filePath(QStringLiteral("latency.csv"))))};
    insert(std::move(family));
    insert(std::move(stream));
    insert(std::move(latency));
    if (probe.parallel) // older probes wrote no parallel.csv
        insert({core::SourceKind::Parallel, dir.filePath(QStringLiteral("parallel.csv")), 1, *probe.parallel});
    return probe;
}

std::size_t CalibrationSourceList::insert(Entry entry)
{
    // One family, stream curve and latency file: a new one takes the old one's place.
    if (entry.kind != core::SourceKind::Kernels) {
        const auto same = std::find_if(m_entries.begin(), m_entries.end(),
                                       [&](const Entry &e) { return e.kind == entry.kind; });
        if (same != m_entries.end()) {
            *same = std::move(entry);
            return std::size_t(same - m_entries.begin());
        }
    }
    const auto after = std::find_if(m_entries.begin(), m_entries.end(),
                                    [&](const Entry &e) { return int(e.kind) > int(entry.kind); });
    return std::size_t(m_entries.insert(after, std::move(entry)) - m_entries.begin());
}

void CalibrationSourceList::remove(std::size_t index)
{
    if (index < m_entries.size())
        m_entries.erase(m_entries.begin() + std::ptrdiff_t(index));
}

void CalibrationSourceList::setWeight(std::size_t index, double weight)
{
    if (index < m_entries.size())
        m_entries[index].weight = weight;
}

int CalibrationSourceList::indexOf(const std::string &source) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].source() == source)
            return int(i);
    }
    return -1;
}

core::CalibrationSources CalibrationSourceList::sources() const
{
    core::CalibrationSources s;
    for (const Entry &e : m_entries) {
        std::visit(Overload {[&](const core::KernelFamily &f) { s.family = f; },
                             [&](const core::StreamCurve &c) { s.stream = c; },
                             [&](const core::LatencyMeasurements &l) { s.latency = l; },
                             [&](const core::KernelSet &k) { s.kernels.push_back(k); },
                             [&](const core::ParallelReads &r) { s.parallel = r; },
                             [&](const core::LevelMeasurements &m) { s.levels.push_back(m); }},
                   e.data);
        s.weights.emplace_back(e.source(), e.weight);
    }
    return s;
}

QString CalibrationSourceList::fileNames() const
{
    QStringList names;
    for (const Entry &e : m_entries)
        names << fileName(e.source());
    return names.join(QStringLiteral(", "));
}

SourcesTable::SourcesTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    const QStringList headers {tr("kind"),          tr("file"),
                               tr("values"),        tr("weight (×)"),
                               tr("accuracy mean"), tr("median"),
                               tr("lowest"),        tr("determines (share of each fitted parameter)")};
    const QString accuracy
            = tr("Accuracy of each measured value, 1 − |predicted − measured| / measured (floored "
                 "at 0, dimensionless), over the source's values: ");
    const QStringList tips {
            tr("What the file measures: a kernel family (n, Z, E, GB/s), a stream curve (warps per SM, "
               "GB/s), "
               "pointer-chase latencies (cycles) or the kernels of an Nsight Compute export (DRAM GB/s)"),
            tr("The measurement file; the tooltip gives its path and the kernels left out"),
            tr("Measured values the file gives: family kernels, stream points, latencies (DRAM, L2 and L1 "
               "chases, FMA chain) or usable kernels"),
            tr("Each of the source's w values counts weight / w in the least squares of log(predicted / "
               "measured): every source counts as its weight, whatever its number of values"),
            accuracy + tr("the mean"),
            accuracy + tr("the median"),
            accuracy + tr("the lowest"),
            tr("For each fitted parameter p, this source's share of Σ (∂rᵢ/∂ log p)² over every source's "
               "values, rᵢ = √(weight / w) · log(predicted / measured); 'sets' names the parameters the file "
               "measures directly")};
    for (int c = 0; c < ColumnCount; ++c) {
        auto *header = new QTableWidgetItem(headers[c]);
        header->setToolTip(tips[c]);
        setHorizontalHeaderItem(c, header);
    }
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setAccessibleName(tr("Calibration sources"));
    setToolTip(tr("The measurements fitted together: F2 edits the selected one's weight, Delete removes it"));
}

void SourcesTable::setSources(const CalibrationSourceList &list)
{
    setRowCount(0);
    setRowCount(int(list.entries().size()));
    for (int r = 0; r < rowCount(); ++r) {
        const CalibrationSourceList::Entry &e = list.entries()[std::size_t(r)];
        setItem(r, Kind, textItem(kindText(e.kind)));
        QString tip = QDir::toNativeSeparators(e.path);
        for (const std::string &why : e.skipped())
            tip += QStringLiteral("\n") + tr("left out: %1").arg(QString::fromStdString(why));
        setItem(r, File, textItem(fileName(e.source()), tip));
        QString values = QString::number(e.values());
        if (!e.skipped().empty())
            values += tr(" (%1 left out)").arg(e.skipped().size());
        QTableWidgetItem *count = textItem(values, tip);
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(r, Values, count);

        auto *weight = new QDoubleSpinBox(this);
        weight->setRange(0, 1000);
        weight->setDecimals(2);
        weight->setSingleStep(0.5);
        weight->setValue(e.weight);
        weight->setKeyboardTracking(false);
        weight->setToolTip(horizontalHeaderItem(Weight)->toolTip());
        weight->setAccessibleName(tr("Weight of %1").arg(fileName(e.source())));
        connect(weight, &QDoubleSpinBox::valueChanged, this, [this, weight](double w) {
            for (int row = 0; row < rowCount(); ++row) {
                if (cellWidget(row, Weight) == weight)
                    Q_EMIT weightChanged(row, w);
            }
        });
        setCellWidget(r, Weight, weight);
    }
    clearFit();
}

void SourcesTable::clearFit()
{
    for (int r = 0; r < rowCount(); ++r) {
        for (int c : {Mean, Median, Min, Determines})
            setItem(r, c, textItem(QString()));
    }
}

void SourcesTable::showFit(const CalibrationSourceList &list, const core::JointCalibration &fit)
{
    clearFit();
    const QString accuracy = tr("1 − |predicted − measured| / measured over the source's values: ");
    for (std::size_t s = 0; s < fit.sources.size(); ++s) {
        const core::SourceReport &report = fit.sources[s];
        const int r = list.indexOf(report.source);
        if (r < 0 || r >= rowCount())
            continue;
        setItem(r, Mean, numberItem(report.accuracy_mean, accuracy + tr("mean")));
        setItem(r, Median, numberItem(report.accuracy_median, accuracy + tr("median")));
        setItem(r, Min, numberItem(report.accuracy_min, accuracy + tr("lowest")));
        // The keys this source has a share of, largest first.
        std::vector<std::pair<double, std::string>> shares;
        for (const core::KeyOrigin &o : fit.origins) {
            for (const auto &[index, share] : o.shares) {
                if (index == s)
                    shares.emplace_back(share, o.key);
            }
        }
        std::sort(shares.rbegin(), shares.rend());
        QStringList parts;
        for (const auto &[share, key] : shares)
            parts << QStringLiteral("%1 %2").arg(QString::fromStdString(key), shareText(share));
        setItem(r, Determines, textItem(parts.join(QStringLiteral(", "))));
    }
    // Keys a file sets directly (the latency file's L_s, and L, L_2 or L_c where they are not fitted).
    for (int r = 0; r < rowCount(); ++r) {
        const std::string &source = list.entries()[std::size_t(r)].source();
        QStringList set;
        for (const core::KeySetting &k : fit.settings) {
            if (k.source == source)
                set << QString::fromStdString(k.key);
        }
        if (set.isEmpty())
            continue;
        QTableWidgetItem *item = this->item(r, Determines);
        const QString text = item->text().isEmpty() ? QString() : item->text() + QStringLiteral("; ");
        item->setText(text + tr("sets %1").arg(set.join(QStringLiteral(", "))));
        if (this->item(r, Mean)->text().isEmpty()) {
            for (int c : {Mean, Median, Min}) {
                this->item(r, c)->setText(QStringLiteral("–"));
                this->item(r, c)->setToolTip(tr("No value of this file is fitted: it sets %1 directly")
                                                     .arg(set.join(QStringLiteral(", "))));
            }
        }
    }
}

QDoubleSpinBox *SourcesTable::weightBox(int row) const
{
    return qobject_cast<QDoubleSpinBox *>(cellWidget(row, Weight));
}

int SourcesTable::selectedSource() const
{
    const QList<QTableWidgetSelectionRange> ranges = selectedRanges();
    return ranges.isEmpty() ? currentRow() : ranges.front().topRow();
}

void SourcesTable::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && selectedSource() >= 0) {
        Q_EMIT removeRequested(selectedSource());
        return;
    }
    // F2 or Enter edits the selected source's weight: the spin box takes the focus, its text selected.
    const bool edit
            = event->key() == Qt::Key_F2 || event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (QDoubleSpinBox *box = weightBox(selectedSource()); edit && box) {
        box->setFocus(Qt::OtherFocusReason);
        box->selectAll();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

} // namespace crossroof::widgets
