// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernels/kernel_table_view.h"
#include "common/file_folders.h"
#include "common/narrow_layout.h"

#include "common/number_format.h"
#include "kernels/kernel_detail.h"

#include "common/parameter_state.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/support/text.h"
#include "core/traces/csv_table.h"
#include "state/kernel_label.h"
#include "state/kernel_state.h"

#include <QColor>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace crossroof::widgets {

namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kKernelRole = Qt::UserRole + 1;
constexpr int kFilterRole = Qt::UserRole + 2; ///< the full name, which the filter searches
constexpr int kNameWidth
        = 190; ///< the most the Name column takes at first (px): the full name is in its tooltip
constexpr int kLimitWidth
        = 150; ///< the most the Limit column takes at first (px): why a kernel is skipped is long

QString number(const std::optional<double> &v)
{
    return v ? formatNumber(*v) : QStringLiteral("–");
}

QStandardItem *numberItem(const std::optional<double> &v, const QString &text)
{
    auto *item = new QStandardItem(text);
    item->setData(v ? *v : -std::numeric_limits<double>::infinity(), kSortRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem *textItem(const std::string &text)
{
    auto *item = new QStandardItem(QString::fromStdString(text));
    item->setData(item->text(), kSortRole);
    return item;
}

/// What the prediction of R used, or why there is none: the row's tooltip.
QString basis(const core::KernelTable &table, const core::KernelRow &r)
{
    if (!r.skipped.empty())
        return KernelTableView::tr("No prediction: %1").arg(QString::fromStdString(r.skipped));
    const std::optional<core::XModelParams> params = table.paramsOf(r);
    if (!params)
        return {};
    const core::XModelParams &p = *params;
    return KernelTableView::tr("Predicted with n = %1, Z = %2, %3 B per request (%4 to DRAM), m = %5, E = %6 "
                               "(from the parameters: no counter gives ILP), at %7 GHz (L = %8 cycles)")
            .arg(formatNumber(p.n), formatNumber(p.Z), formatNumber(p.req_bytes), formatNumber(p.dram_bytes),
                 formatNumber(p.m), formatNumber(p.E), formatNumber(p.clock_ghz), formatNumber(p.L));
}

} // namespace

KernelTableView::KernelTableView(KernelState *kernels, QWidget *parent)
    : QWidget(parent)
    , m_kernels(kernels)
    , m_state(kernels->parameters())
    , m_model(new QStandardItemModel(0, ColumnCount, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_warning(new QLabel(this))
    , m_accuracy(new QLabel(this))
    , m_detail(new QLabel(this))
    , m_open(new QPushButton(tr("Open &ncu CSV…"), this))
    , m_use(new QPushButton(tr("Use &kernel"), this))
    , m_switch(new QPushButton(this))
    , m_makeProfile(new QPushButton(tr("Make profile from fi&le"), this))
{
    QStringList headers(ColumnCount), tips(ColumnCount);
    const auto column = [&](Column c, const QString &header, const QString &tip) {
        headers[c] = header;
        tips[c] = tip;
    };
    column(Name, tr("Name"),
           tr("The kernel's own name, without namespaces, template arguments and parameters (hover for the "
              "full "
              "demangled name and what the prediction used; the pane below gives it for the selected "
              "kernel)"));
    column(Id, tr("ID"), tr("Launch ID in the ncu file"));
    column(Gbs, tr("DRAM GB/s"),
           tr("Measured DRAM throughput, 10^9 bytes/s (dram__bytes.sum.per_second); * = DRAM Throughput % × "
              "the profile's peak (no prediction then)"));
    column(Predicted, tr("Predicted"),
           tr("The X-model's DRAM throughput in GB/s at the operating point, with the kernel's own n, Z, "
              "request "
              "bytes, DRAM bytes, m and clock, and the current E and machine: f(k) × DRAM B/req × clock × "
              "SMs"));
    column(Error, tr("Error %"), tr("(predicted − measured) / measured × 100 %"));
    column(Limit, tr("Limit"),
           tr("What bounds the prediction: a memory level (L1, L2, DRAM), the request rate (requests), too "
              "few "
              "requests in flight (latency), the issue rate (issue) or the tensor pipe (tensor); for a "
              "kernel "
              "without a prediction, why (hover for all of it)"));
    column(Warps, tr("Warps/SM"),
           tr("Achieved active warps per SM (sm__warps_active.avg.per_cycle_active): the X-model's n"));
    column(Duration, tr("Duration (µs)"), tr("Kernel duration, gpu__time_duration.sum, in microseconds"));
    column(Z, tr("Z"),
           tr("Z = warp-instructions / memory requests (smsp__inst_executed.sum / l1tex global load and "
              "store "
              "requests)"));
    column(ReqBytes, tr("B/req"),
           tr("Bytes per request: l1tex global sectors × 32 / requests (128 for a coalesced 4-byte access, "
              "512 "
              "for 16-byte vectors)"));
    column(DramBytes, tr("DRAM B/req"),
           tr("DRAM bytes per request: DRAM GB/s × duration / requests (what reaches memory after the "
              "caches)"));
    column(InFlight, tr("m"),
           tr("Requests in flight per waiting warp: requests / load requests (a warp waits only for its "
              "loads); "
              "'stores' = no loads, the warps never wait"));
    column(L1Hit, tr("L1 hit"),
           tr("L1/TEX hit rate (L1/TEX Hit Rate, l1tex__t_sector_hit_rate.pct), where the export has it"));
    column(L2Hit, tr("L2 hit"),
           tr("L2 hit rate (L2 Hit Rate, lts__t_sector_hit_rate.pct), where the export has it"));
    column(Clock, tr("Clock (GHz)"),
           tr("SM clock while the kernel ran (sm__cycles_elapsed.avg.per_second): the prediction runs at it, "
              "with "
              "L scaled (a DRAM latency is a time)"));
    column(MeasuredGops, tr("Gop/s"),
           tr("Measured instruction throughput: instructions × warp size / duration, 10^9/s"));
    column(PredictedGops, tr("Predicted (Gop/s)"),
           tr("The X-model's CS throughput g(x) at the operating point, 10^9 instructions/s"));
    column(Bound, tr("Bound"),
           tr("What limits the operating point: compute (x ≥ π), memory (k ≥ δ), capacity (both), thread "
              "(neither: too few warps), cache-thrashing"));
    column(Grid, tr("Grid"), tr("Grid size (blocks)"));
    column(Block, tr("Block"), tr("Block size (threads)"));
    m_model->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < ColumnCount; ++c)
        m_model->horizontalHeaderItem(c)->setToolTip(tips[c]);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(Name);
    m_proxy->setFilterRole(kFilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Id, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setObjectName(QStringLiteral("KernelTable"));
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setWordWrap(false);
    // Widths are set once a table is filled (the Name and Limit columns capped, so that Predicted, Error and
    // the limit fit a 690-pixel dock); the user may widen any of them.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setToolTip(tr("Kernels of the ncu export; select rows to highlight them, Enter or Use kernel "
                           "sets the parameters to the kernel"));

    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only kernels whose name contains this text (case-insensitive)"));
    m_warning->setWordWrap(true);
    m_warning->setObjectName(QStringLiteral("KernelWarning"));
    m_warning->setStyleSheet(QStringLiteral("color: #b35900"));
    m_warning->hide();
    m_open->setToolTip(tr("Read an Nsight Compute CSV export (ncu --csv, any page)"));
    m_use->setToolTip(tr("Set every parameter the prediction of the selected kernel used (n, Z, request and "
                         "DRAM bytes, m, hit rates, its clock and L at that clock) as one undo step; a kernel "
                         "without a prediction sets n and Z where known"));
    m_detail->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("KernelDetail"));
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setToolTip(
            tr("The selected kernel: its full name, its measured and predicted DRAM throughput, what "
               "bounds it and the changes the model ranks best for it (as crossroof-cli kernels gives "
               "them)"));
    m_detail->hide();
    m_accuracy->setWordWrap(true);
    m_accuracy->setObjectName(QStringLiteral("KernelAccuracy"));
    m_accuracy->hide();
    m_switch->setToolTip(tr("Load the bundled profile of the file's device (its name, SM count, compute capability "
                          "and memory bandwidth)"));
    m_makeProfile->setToolTip(tr("Load a profile made from the file's device: SM count, clock, warps per SM "
                                 "and R = 2 × memory clock × bus width / 8; other parameters from the current "
                                 "profile"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_use);
    buttons->addStretch();
    auto *profileButtons = new QHBoxLayout;
    profileButtons->addWidget(m_switch);
    profileButtons->addWidget(m_makeProfile);
    profileButtons->addStretch();
    stackWhenNarrow(this, profileButtons, 420); // one above the other in a narrow dock
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_warning);
    layout->addLayout(profileButtons);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_detail);
    layout->addWidget(m_accuracy);
    layout->addLayout(buttons);

    // A sort keeps the selected kernel in view, its name too.
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows(Name);
        m_table->scrollTo(rows.isEmpty() ? m_proxy->index(0, Name) : rows.front());
    });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_open, &QPushButton::clicked, this, &KernelTableView::openInteractively);
    connect(m_use, &QPushButton::clicked, this, [this] {
        const auto selected = selectedKernels();
        if (!selected.empty())
            useKernel(selected.front());
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        useKernel(m_proxy->data(index, kKernelRole).toULongLong());
    });
    connect(m_switch, &QPushButton::clicked, this, [this] {
        if (!m_matches.empty())
            m_state->applyProfile(*m_matches.front());
    });
    connect(m_makeProfile, &QPushButton::clicked, this, [this] {
        if (const core::NcuReport *report = m_kernels->report())
            m_state->applyProfile(core::profileFromDevice(report->device, m_state->profile(), report->source));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        QStringList labels;
        for (const std::size_t k : selectedKernels())
            labels << kernelLabel(m_kernels->report()->kernels[k]);
        updateButtons();
        updateDetail();
        Q_EMIT selectionChanged(labels);
    });
    // The rows are the state's predictions, filled in again only while the table shows (it is a tab behind the
    // Readout most of the time); a hidden table is brought up to date when shown. A drag of n or Z computes no
    // new table (each kernel's own n and Z replace them): the table stays as it is, its sorting, scrolling and
    // selection too.
    connect(m_kernels, &KernelState::reportChanged, this, [this] {
        m_filter->clear();
        Q_EMIT reportChanged();
    });
    // A new report's rows (or none) come at once, shown or not; new predictions for the same rows wait.
    connect(m_kernels, &KernelState::tableChanged, this, [this] {
        if (isVisible() || m_model->rowCount() != int(m_kernels->table().rows.size()))
            refresh();
        else
            m_stale = true;
    });
    refresh();
}

void KernelTableView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

QString KernelTableView::loadFile(const QString &path)
{
    bool cancelled = false;
    if (const QString error = m_kernels->loadFile(path, this, &cancelled); !error.isEmpty())
        return error;
    if (cancelled) {
        Q_EMIT message(tr("Reading %1 was cancelled; the kernels are as they were").arg(QFileInfo(path).fileName()));
        return {};
    }
    Q_EMIT message(tr("Read %n kernel(s) from %1", nullptr, int(m_kernels->report()->kernels.size()))
                           .arg(QFileInfo(path).fileName()));
    return {};
}

void KernelTableView::clear()
{
    m_kernels->clear();
}

const core::NcuReport *KernelTableView::report() const
{
    return m_kernels->report();
}

std::vector<std::size_t> KernelTableView::selectedKernels() const
{
    std::vector<std::size_t> out;
    if (!m_kernels->report())
        return out;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows(Name))
        out.push_back(m_proxy->data(index, kKernelRole).toULongLong());
    return out;
}

void KernelTableView::useKernel(std::size_t index)
{
    const core::NcuReport *report = m_kernels->report();
    if (!report || index >= report->kernels.size())
        return;
    const core::NcuKernel k = report->kernels[index];
    if (!k.warps_per_sm)
        return;
    QUndoStack *undo = m_state->undoStack();
    // The prediction for the parameters of now (a profile just chosen may still be computing), copied: each
    // change below asks the state for new predictions.
    m_kernels->wait();
    const core::KernelTable &rows = m_kernels->table();
    const std::optional<core::XModelParams> predicted
            = index < rows.rows.size() ? rows.paramsOf(rows.rows[index]) : std::nullopt;
    const QString skipped = index < rows.rows.size() ? QString::fromStdString(rows.rows[index].skipped) : QString();
    undo->beginMacro(tr("Use kernel %1").arg(kernelLabel(k)));
    if (predicted) {
        // Every key the prediction set: the X-graph then shows that kernel's operating point.
        for (const char *key : {"clock_ghz", "L", "n", "Z", "m", "E", "req_bytes", "dram_bytes", "l2_bytes", "R_l1",
                                 "R_l2", "h", "h_2"})
            m_state->applyValue(QString::fromLatin1(key), (*predicted).*(core::findParameter(key)->member));
        m_state->applyCacheMode(predicted->cache);
        undo->endMacro();
        Q_EMIT message(tr("Parameters from kernel %1: n, Z, request and DRAM bytes, m, hit rates and its clock")
                               .arg(kernelLabel(k)));
        return;
    }
    const double n = std::clamp(std::round(*k.warps_per_sm), 1.0, std::max(1.0, m_state->params().max_warps));
    m_state->applyValue(QStringLiteral("n"), n);
    if (const auto z = k.intensity(); z && *z > 0)
        m_state->applyValue(QStringLiteral("Z"), *z);
    undo->endMacro();
    Q_EMIT message(tr("n and Z from kernel %1 (it has no prediction: %2)").arg(kernelLabel(k), skipped));
}

void KernelTableView::refresh()
{
    m_stale = false;
    ++m_refreshes;
    const std::vector<std::size_t> selected = selectedKernels();
    m_model->removeRows(0, m_model->rowCount());
    m_matches.clear();
    const core::NcuReport *report = m_kernels->report();
    if (!report) {
        m_warning->hide();
        m_accuracy->hide();
        updateButtons();
        updateDetail();
        return;
    }
    const core::HardwareProfile &profile = m_state->profile();
    const core::XModelParams &params = m_state->params();
    const core::KernelTable &table = m_kernels->table();
    m_table->setSortingEnabled(false);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const core::KernelRow &r = table.rows[i];
        QList<QStandardItem *> items;
        for (int c = 0; c < ColumnCount; ++c)
            items << nullptr;
        const auto set = [&items](Column c, QStandardItem *item) { items[c] = item; };
        set(Name, textItem(core::baseKernelName(r.name)));
        items[Name]->setToolTip(QString::fromStdString(r.name) + QStringLiteral("\n") + basis(table, r));
        items[Name]->setData(QString::fromStdString(r.name), kFilterRole);
        const auto id = core::parseTableNumber(r.id);
        set(Id, numberItem(id, QString::fromStdString(r.id)));
        if (!id)
            items[Id]->setData(QString::fromStdString(r.id), kSortRole);
        set(Gbs, numberItem(r.dram_gbs,
                            number(r.dram_gbs) + (r.dram_gbs_derived ? QStringLiteral("*") : QString())));
        set(Predicted, numberItem(r.predicted_gbs, number(r.predicted_gbs)));
        const auto percent = r.error ? std::optional(*r.error * 100) : std::nullopt;
        set(Error, numberItem(percent, percent ? QString::asprintf("%+.1f", *percent) : QStringLiteral("–")));
        set(Limit, new QStandardItem(kernelLimitText(r)));
        items[Limit]->setData(r.limit ? int(*r.limit) : -1, kSortRole);
        if (!r.skipped.empty())
            items[Limit]->setToolTip(breakLongWords(QString::fromStdString(r.skipped)));
        set(Warps, numberItem(r.warps_per_sm, number(r.warps_per_sm)));
        const auto us = r.duration_ns ? std::optional(*r.duration_ns / 1e3) : std::nullopt;
        set(Duration, numberItem(us, number(us)));
        set(Z, numberItem(r.Z, number(r.Z)));
        const auto workload = [&r](double core::KernelWorkload::*member) {
            return r.workload ? std::optional(*r.workload.*member) : std::nullopt;
        };
        set(ReqBytes, numberItem(workload(&core::KernelWorkload::req_bytes),
                                 number(workload(&core::KernelWorkload::req_bytes))));
        set(DramBytes, numberItem(workload(&core::KernelWorkload::dram_bytes),
                                  number(workload(&core::KernelWorkload::dram_bytes))));
        const bool storesOnly = r.workload && r.workload->stores_only;
        set(InFlight, numberItem(workload(&core::KernelWorkload::m),
                                 storesOnly ? tr("stores") : number(workload(&core::KernelWorkload::m))));
        const auto l1 = r.workload ? r.workload->l1_hit : std::nullopt;
        const auto l2 = r.workload ? r.workload->l2_hit : std::nullopt;
        set(L1Hit, numberItem(l1, number(l1)));
        set(L2Hit, numberItem(l2, number(l2)));
        const std::optional<core::XModelParams> predicted = table.paramsOf(r);
        const auto clock = predicted ? std::optional(predicted->clock_ghz) : std::nullopt;
        set(Clock, numberItem(clock, number(clock)));
        set(MeasuredGops, numberItem(workload(&core::KernelWorkload::measured_gops),
                                     number(workload(&core::KernelWorkload::measured_gops))));
        set(PredictedGops, numberItem(r.predicted_gops, number(r.predicted_gops)));
        set(Bound, textItem(r.bound ? std::string(core::boundClassName(*r.bound)) : std::string("–")));
        set(Grid, textItem(r.grid));
        set(Block, textItem(r.block));
        for (QStandardItem *item : items) {
            item->setData(qulonglong(i), kKernelRole);
            if (!r.skipped.empty())
                item->setForeground(QColor(128, 128, 128));
        }
        m_model->appendRow(items);
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    for (const auto &[c, most] : {std::pair(Name, kNameWidth), std::pair(Limit, kLimitWidth)})
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), most));
    for (const std::size_t k : selected) {
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            const QModelIndex index = m_proxy->index(row, Name);
            if (m_proxy->data(index, kKernelRole).toULongLong() == k)
                m_table->selectionModel()->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }

    // The warnings say what the device check found (core::checkDevice(), as crossroof-cli kernels says it);
    // the button offers the profile it finds for the file's device.
    core::HardwareProfile inUse = profile;
    inUse.params = params;
    const core::DeviceCheck device = core::checkDevice(core::deviceFacts(*report), inUse, core::bundledProfiles());
    const bool mismatch = device.mismatch.has_value();
    m_matches = device.matches;
    QStringList lines;
    for (const std::string &w : table.warnings)
        lines << QString::fromStdString(w);
    if (const auto &accuracy = m_kernels->accuracy()) {
        // The X-graph's legend says the same mean as "model off": 1 − the mean accuracy.
        m_accuracy->setText(tr("Mean accuracy %1 over %n kernel(s) (1 − |predicted − measured| / measured: the "
                               "model off %4 %); a memory roofline: %2, the roofline min(peak, M/Z): %3",
                               nullptr, int(accuracy->kernels))
                                    .arg(accuracy->model, 0, 'f', 3)
                                    .arg(accuracy->naive, 0, 'f', 3)
                                    .arg(accuracy->roofline, 0, 'f', 3)
                                    .arg(modelOffPercent(*accuracy)));
        m_accuracy->show();
    } else {
        m_accuracy->hide();
    }
    m_warning->setText(breakLongWords(lines.join(QLatin1Char('\n'))));
    m_warning->setVisible(!lines.isEmpty());
    m_switch->setVisible(!m_matches.empty());
    if (!m_matches.empty())
        m_switch->setText(tr("S&witch to %1").arg(QString::fromStdString(m_matches.front()->name)));
    m_makeProfile->setVisible(mismatch && report->device.sm_count.has_value());
    updateButtons();
    updateDetail();
}

void KernelTableView::updateDetail()
{
    const std::vector<std::size_t> selected = selectedKernels();
    const core::KernelTable &table = m_kernels->table();
    if (selected.empty() || selected.front() >= table.rows.size()) {
        m_detail->hide();
        return;
    }
    m_detail->setText(breakLongWords(kernelDetailText(table.rows[selected.front()])));
    m_detail->show();
}

void KernelTableView::updateButtons()
{
    const auto selected = selectedKernels();
    const core::NcuReport *report = m_kernels->report();
    m_use->setEnabled(!selected.empty() && report->kernels[selected.front()].warps_per_sm.has_value());
    if (!report) {
        m_switch->hide();
        m_makeProfile->hide();
    }
}

void KernelTableView::openInteractively()
{
    const QString path = openFileName(this, FileKind::Data, tr("Open Nsight Compute CSV"),
                                      tr("Nsight Compute exports (*.csv *.txt *.ncu-rep);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString error = loadFile(path);
    if (!error.isEmpty()) {
        m_warning->setText(error);
        m_warning->show();
        Q_EMIT message(error);
    }
}

} // namespace crossroof::widgets
