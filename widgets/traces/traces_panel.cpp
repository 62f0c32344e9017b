// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/traces_panel.h"

#include "traces/calibration_dialog.h"
#include "common/parameter_state.h"
#include "traces/trace_import_dialog.h"
#include "state/trace_state.h"
#include "common/error_message.h"
#include "common/file_folders.h"
#include "common/native_path.h"
#include "common/number_format.h"
#include "core/support/error.h"
#include "core/profiles/profile_library.h"
#include "core/traces/gpu_benches.h"
#include "core/traces/kernel_table.h"

#include <QFileInfo>
#include <QFont>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

namespace crossroof::widgets {

namespace {

/// A trace's row. While the trace stands in for f(k) (SupplyRole true) the row says so after the name and in
/// its tool tip, in bold; editing the row edits the name alone (Qt::EditRole).
class TraceItem : public QListWidgetItem
{
public:
    static constexpr int SupplyRole = Qt::UserRole + 1;
    using QListWidgetItem::QListWidgetItem;

    QVariant data(int role) const override
    {
        const QVariant value = QListWidgetItem::data(role);
        if (!QListWidgetItem::data(SupplyRole).toBool())
            return value;
        if (role == Qt::DisplayRole)
            return TracesPanel::tr("%1 — used as f(k)").arg(value.toString());
        if (role == Qt::ToolTipRole)
            return TracesPanel::tr("Used as f(k): the X-model's memory supply is this trace.\n%1").arg(value.toString());
        if (role == Qt::FontRole) {
            QFont bold = value.isValid() ? value.value<QFont>() : QFont();
            bold.setBold(true);
            return bold;
        }
        return value;
    }
};

QString whereShown(core::TraceKind kind)
{
    switch (kind) {
    case core::TraceKind::BandwidthVsWarps:
        return TracesPanel::tr(
                "bandwidth against warps per SM, drawn on the X-graph; Fit… calibrates the model");
    case core::TraceKind::KernelPoints:
        return TracesPanel::tr("kernel operating points, drawn on the X-graph with the model's prediction");
    case core::TraceKind::Runtimes:
        return TracesPanel::tr("runtimes against B_r, drawn on the zigzag with the Eq. 15 fit");
    case core::TraceKind::BytesPerInterval:
        return TracesPanel::tr("bytes per interval, shown in the Bandwidth view");
    case core::TraceKind::LatencyVsFootprint:
        return TracesPanel::tr("cycles per load against footprint (gpu-latency); calibrates L, L_2 and L_s");
    case core::TraceKind::BandwidthVsFootprint:
        return TracesPanel::tr("bandwidth against footprint (gpu-cache): the cache levels, listed here");
    case core::TraceKind::PerformanceVsIntensity:
        return TracesPanel::tr("GF/s against Fl/B (gpu-roofline): a measured roofline, listed here");
    case core::TraceKind::CyclesVsStride:
        return TracesPanel::tr("cycles per load against the stride (gpu-strides), listed here");
    }
    return {};
}

} // namespace

TracesPanel::TracesPanel(TraceState *traces, ParameterState *state, QWidget *parent)
    : QWidget(parent)
    , m_traces(traces)
    , m_state(state)
{
    m_list = new QListWidget(this);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_list->setAccessibleName(tr("Measured traces"));
    m_import = new QPushButton(tr("&Import…"), this);
    m_import->setToolTip(
            tr("Read measurements: gpu-benches stream output, ncu --csv, perf stat -x, or any CSV/TSV "
               "table (you choose the columns)"));
    m_remove = new QPushButton(tr("&Remove"), this);
    m_remove->setToolTip(tr("Remove the selected trace from the analysis (the file stays)"));
    m_fit = new QPushButton(tr("&Fit…"), this);
    m_fit->setToolTip(tr("Fit the memory model to the selected trace by least squares"));
    m_useAsSupply = new QPushButton(tr("Use as &f(k)"), this);
    m_useAsSupply->setCheckable(true);
    m_useAsSupply->setToolTip(tr("Let the selected trace be the memory supply f(k): the X-model interpolates its "
                                 "points (rising and falling as they do) and joins the analytic curve beyond the "
                                 "last; equilibria, stability, hysteresis and the advisor use it. Again: back to "
                                 "the analytic f(k). Undoable."));
    m_hint = new QLabel(
            tr("No measurements yet. Import… reads gpu-benches stream output, ncu --csv, perf stat -x "
               "or any CSV/TSV table."),
            this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    // Two rows of two: four buttons side by side would widen the dock beyond what a 1024-pixel window spares.
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_import, 0, 0);
    buttons->addWidget(m_remove, 0, 1);
    buttons->addWidget(m_fit, 1, 0);
    buttons->addWidget(m_useAsSupply, 1, 1);
    buttons->setColumnStretch(2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(buttons);
    layout->addWidget(m_hint);
    m_deviceWarning = new QLabel(this);
    m_deviceWarning->setObjectName(QStringLiteral("DeviceWarning"));
    m_deviceWarning->setWordWrap(true);
    m_deviceWarning->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_deviceWarning->hide();
    layout->addWidget(m_deviceWarning);
    m_switchBox = new QWidget(this);
    auto *switchLayout = new QHBoxLayout(m_switchBox);
    switchLayout->setContentsMargins(0, 0, 0, 0);
    m_keepProfile = new QPushButton(this);
    m_keepProfile->setToolTip(tr("Keep the current profile; this device is not offered again"));
    m_switchBox->hide();
    m_keepProfile->hide();
    layout->addWidget(m_switchBox);
    layout->addWidget(m_keepProfile);
    layout->addWidget(m_list, 1);

    connect(m_import, &QPushButton::clicked, this, &TracesPanel::importInteractively);
    connect(m_remove, &QPushButton::clicked, this, [this] { m_traces->remove(selectedId()); });
    connect(m_fit, &QPushButton::clicked, this, [this] { openCalibration(); });
    connect(m_useAsSupply, &QPushButton::clicked, this, [this](bool on) { useAsSupply(on ? selectedId() : QString()); });
    connect(m_state, &ParameterState::changed, this, &TracesPanel::updateButtons);
    connect(m_list, &QListWidget::itemChanged, this, &TracesPanel::onItemChanged);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &TracesPanel::updateButtons);
    connect(m_traces, &TraceState::changed, this, &TracesPanel::rebuild);
    connect(m_state, &ParameterState::profileChanged, this, &TracesPanel::checkDevice);
    connect(m_traces, &TraceState::changed, this, [this] {
        if (m_device)
            checkDevice();
    });
    connect(m_keepProfile, &QPushButton::clicked, this, [this] {
        if (m_device)
            m_kept.insert(QString::fromStdString(m_device->describe()));
        checkDevice();
    });
    rebuild();
}

void TracesPanel::fitWarning()
{
    const QMargins panel = layout()->contentsMargins();
    const QMargins label = m_deviceWarning->contentsMargins();
    const int width = this->width() - panel.left() - panel.right() - label.left() - label.right()
                      - 2 * m_deviceWarning->margin();
    if (width <= 0)
        return;
    const QRect text = m_deviceWarning->fontMetrics().boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap,
                                                                   m_deviceWarning->text());
    const int needed = text.height() + label.top() + label.bottom() + 2 * m_deviceWarning->margin();
    if (needed != m_deviceWarning->height())
        m_deviceWarning->setFixedHeight(needed);
}

void TracesPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitWarning();
}

void TracesPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitWarning();
}

QList<QPushButton *> TracesPanel::switchButtons() const
{
    return m_switchBox->findChildren<QPushButton *>(Qt::FindDirectChildrenOnly);
}

void TracesPanel::checkDevice()
{
    qDeleteAll(switchButtons());
    // The file's traces are gone (removed, or another session opened): so is the warning about them.
    const auto &traces = m_traces->traces();
    if (m_device && std::none_of(traces.begin(), traces.end(), [this](const core::MeasuredTrace &t) {
            return QString::fromStdString(t.source) == m_deviceFile;
        })) {
        m_device.reset();
    }
    const core::HardwareProfile &profile = m_state->profile();
    const core::DeviceCheck check = m_device ? core::checkDevice(core::deviceFacts(*m_device), profile,
                                                                 core::bundledProfiles())
                                             : core::DeviceCheck{};
    m_deviceWarning->setVisible(check.mismatch.has_value());
    if (!check.mismatch) {
        m_switchBox->hide();
        m_keepProfile->hide();
        return;
    }
    const QString file = QFileInfo(m_deviceFile).fileName();
    m_deviceWarning->setText(tr("%1: %2; fits and comparisons use the profile's clock and SM count.")
                                     .arg(file, QString::fromStdString(*check.mismatch)));
    fitWarning();
    const bool offer = !check.matches.empty() && !m_kept.contains(QString::fromStdString(m_device->describe()));
    if (offer) {
        for (const core::HardwareProfile *match : check.matches) {
            auto *button = new QPushButton(tr("Switch to %1").arg(QString::fromStdString(match->name)), m_switchBox);
            button->setToolTip(tr("Load the bundled profile '%1', the device the file was measured on")
                                       .arg(QString::fromStdString(match->id)));
            const std::string id = match->id;
            connect(button, &QPushButton::clicked, this, [this, id] {
                for (const core::HardwareProfile &p : core::bundledProfiles()) {
                    if (p.id == id)
                        m_state->applyProfile(p);
                }
            });
            m_switchBox->layout()->addWidget(button);
        }
        m_keepProfile->setText(tr("Keep %1").arg(QString::fromStdString(profile.id)));
    }
    m_switchBox->setVisible(offer);
    m_keepProfile->setVisible(offer);
}

void TracesPanel::rebuild()
{
    const QString selected = selectedId();
    const auto &traces = m_traces->traces();
    // Edits (visibility, name) update the items in place: an edit arrives from inside the item's own
    // setData().
    bool sameTraces = m_list->count() == int(traces.size());
    for (int i = 0; sameTraces && i < m_list->count(); ++i)
        sameTraces = m_list->item(i)->data(Qt::UserRole).toString()
                     == QString::fromStdString(traces[std::size_t(i)].id);
    {
        const QSignalBlocker block(m_list);
        if (!sameTraces)
            m_list->clear();
        for (std::size_t i = 0; i < traces.size(); ++i) {
            const auto &t = traces[i];
            QListWidgetItem *item = sameTraces ? m_list->item(int(i)) : new TraceItem(m_list);
            item->setText(QString::fromStdString(t.name));
            item->setData(Qt::UserRole, QString::fromStdString(t.id));
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable
                           | Qt::ItemIsEditable);
            item->setCheckState(t.visible ? Qt::Checked : Qt::Unchecked);
            const std::size_t points = core::pointCount(t);
            item->setToolTip(
                    tr("%1\n%2 %3; %4")
                            .arg(QString::fromStdString(t.source))
                            .arg(points)
                            .arg(t.kind == core::TraceKind::BytesPerInterval ? tr("intervals") : tr("points"),
                                 whereShown(t.kind)));
            if (!sameTraces && QString::fromStdString(t.id) == selected)
                item->setSelected(true);
        }
    }
    m_hint->setVisible(traces.empty());
    updateButtons();
}

void TracesPanel::updateButtons()
{
    const core::MeasuredTrace *t = m_traces->trace(selectedId());
    m_remove->setEnabled(t != nullptr);
    m_fit->setEnabled(
            t && (t->kind == core::TraceKind::BandwidthVsWarps || t->kind == core::TraceKind::KernelPoints));
    m_useAsSupply->setEnabled(m_fit->isEnabled());
    const QSignalBlocker block(m_useAsSupply);
    m_useAsSupply->setChecked(t && !selectedId().isEmpty() && m_state->supplyTrace() == selectedId());
    // Which trace is f(k) changes with the parameters (Use as f(k), undo, a session): mark its row.
    const QSignalBlocker blockList(m_list);
    const QString supply = m_state->supplyTrace();
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        const bool isSupply = !supply.isEmpty() && item->data(Qt::UserRole).toString() == supply;
        if (item->data(TraceItem::SupplyRole).toBool() != isSupply)
            item->setData(TraceItem::SupplyRole, isSupply);
    }
}

QString TracesPanel::useAsSupply(const QString &id)
{
    if (id.isEmpty()) {
        m_state->applySupplyCurve(nullptr, {});
        Q_EMIT message(tr("f(k) is the analytic curve again"));
        return {};
    }
    const core::MeasuredTrace *t = m_traces->trace(id);
    if (!t)
        return tr("no trace %1").arg(id);
    try {
        m_state->applySupplyCurve(core::measuredCurveFromTrace(*t), id);
    } catch (const core::InputError &e) {
        const QString error = QString::fromUtf8(e.what());
        showError(this, tr("The trace cannot be f(k):\n%1").arg(error));
        updateButtons();
        return error;
    }
    Q_EMIT message(tr("f(k) is now the trace %1").arg(QString::fromStdString(t->name)));
    return {};
}

QString TracesPanel::selectedId() const
{
    const auto items = m_list->selectedItems();
    return items.isEmpty() ? QString() : items.front()->data(Qt::UserRole).toString();
}

void TracesPanel::select(const QString &id)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (item->data(Qt::UserRole).toString() == id) {
            m_list->setCurrentItem(item);
            item->setSelected(true);
        }
    }
}

void TracesPanel::onItemChanged(QListWidgetItem *item)
{
    const QString id = item->data(Qt::UserRole).toString();
    const bool visible = item->checkState() == Qt::Checked;
    const QString name = item->data(Qt::EditRole).toString(); // the name, without the f(k) mark
    // Both calls return early when nothing changed, so one edit makes one change.
    m_traces->setVisible(id, visible);
    m_traces->rename(id, name);
    const core::MeasuredTrace *t = m_traces->trace(id);
    if (t && QString::fromStdString(t->name) != name)
        rebuild(); // a blank name was refused: show the old one again
}

void TracesPanel::importInteractively()
{
    const QString path = openFileName(this, FileKind::Data, tr("Import Measurements"),
                                      tr("Measurements (*.txt *.csv *.tsv *.dat);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

QString TracesPanel::importFile(const QString &path)
{
    // Only a regular file is looked into here: opening a FIFO blocks until a program writes to it, and the
    // importers read one (with a time limit) just once.
    // By its bytes: Qt's own file classes cannot open a path that is not UTF-8 (nativePath()).
    const std::string native = nativePath(path);
    if (std::error_code error; std::filesystem::is_regular_file(native, error)) {
        std::ifstream head(native, std::ios::binary);
        std::string start(4096, '\0');
        head.read(start.data(), std::streamsize(start.size()));
        start.resize(std::size_t(std::max<std::streamsize>(head.gcount(), 0)));
        // A pointer chase offers its plateaus as L, L_s and L_2, and is a trace too: the Memory Levels view
        // draws it over the model's levels.
        if (core::looksLikeGpuLatency(start)) {
            if (const QString error = offerLatencies(path); !error.isEmpty())
                return error;
        }
    }
    TraceLoad load = loadTraceFile(path, QString::fromStdString(m_state->profile().id), this);
    if (load.cancelled) {
        Q_EMIT message(tr("Reading %1 was cancelled; nothing was imported").arg(QFileInfo(path).fileName()));
        return {};
    }
    if (!load.ok()) {
        showError(this, tr("The measurements were not imported:\n%1").arg(load.error));
        return load.error;
    }
    const QString file = QFileInfo(path).fileName();
    if (load.needsMapping()) {
        if (m_importDialog)
            m_importDialog->close();
        auto *dialog = new TraceImportDialog(std::move(*load.table), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog, file] {
            const QStringList ids = m_traces->add(dialog->traces());
            if (ids.isEmpty())
                return;
            select(ids.front());
            Q_EMIT message(tr("Imported %1 from %2")
                                   .arg(QString::fromStdString(m_traces->trace(ids.front())->name), file));
        });
        m_importDialog = dialog;
        dialog->open();
        return {};
    }
    const qsizetype count = qsizetype(load.traces.size());
    const QString source = load.traces.empty() ? QString() : QString::fromStdString(load.traces.front().source);
    if (load.kernels)
        Q_EMIT kernelsRead(std::move(load.kernels));
    const QStringList ids = m_traces->add(std::move(load.traces));
    if (!ids.isEmpty())
        select(ids.front());
    Q_EMIT message(count == 1 ? tr("Imported 1 trace from %1 (%2)").arg(file, traceFormatName(load.format))
                              : tr("Imported %1 traces from %2 (%3); untick a trace to hide it")
                                        .arg(count)
                                        .arg(file, traceFormatName(load.format)));
    // ncu files are checked by the Kernels dock, which shows their device with the kernels.
    if (load.device && load.format != core::TraceFormat::NcuCsv) {
        m_device = load.device;
        m_deviceFile = source;
        checkDevice();
        if (m_deviceWarning->isVisible())
            Q_EMIT message(m_deviceWarning->text()); // after the import's own note, so that it shows
    }
    return {};
}

CalibrationDialog *TracesPanel::openCalibration(const QString &id)
{
    if (!m_calibration) {
        m_calibration = new CalibrationDialog(m_traces, m_state, this);
        connect(m_calibration, &CalibrationDialog::message, this, &TracesPanel::message);
    }
    const QString which = id.isEmpty() ? selectedId() : id;
    if (!which.isEmpty())
        m_calibration->setTrace(which);
    m_calibration->show();
    m_calibration->raise();
    m_calibration->activateWindow();
    return m_calibration;
}

QString TracesPanel::offerLatencies(const QString &path)
{
    // The plateaus `crossroof-cli calibrate --latency` takes (core::latencyPlateaus()), so that both agree.
    core::LatencyPlateaus levels;
    double clockMhz = 0;
    QString gpu;
    try {
        const core::GpuLatency latency = core::readGpuLatency(nativePath(path));
        levels = core::latencyPlateaus(latency);
        clockMhz = latency.clock_mhz;
        gpu = QString::fromStdString(latency.gpu);
    } catch (const core::InputError &e) {
        const QString error = QString::fromStdString(e.what());
        showError(this, tr("The latencies were not read:\n%1").arg(error));
        return error;
    }
    const double profileMhz = m_state->params().clock_ghz * 1000;
    const auto size = [](double kb) { return formatQuantity(kb, QStringLiteral("B"), si::kilo); };
    QString text = tr("%1 is gpu-latency output: a pointer chase at %2 MHz, %3 cycles per load at the "
                      "largest footprints (%4, DRAM) and %5 at the smallest (%6, L1).")
                           .arg(QFileInfo(path).fileName(), formatNumber(clockMhz), formatNumber(levels.dram.cycles),
                                size(levels.dram.to_kb), formatNumber(levels.l1.cycles), size(levels.l1.from_kb));
    if (levels.l2)
        text += tr(" Its L2 plateau (%1 to %2) takes %3.")
                        .arg(size(levels.l2->from_kb), size(levels.l2->to_kb), formatNumber(levels.l2->cycles));
    text += levels.l2 ? tr("\n\nSet the X-model's memory latency L = %1 cycles, shared-cache latency L_s = %2 cycles "
                          "and L2 latency L_2 = %3 cycles?")
                                .arg(formatNumber(levels.dram.cycles), formatNumber(levels.l1.cycles),
                                     formatNumber(levels.l2->cycles))
                      : tr("\n\nSet the X-model's memory latency L = %1 cycles and shared-cache latency L_s = %2 "
                           "cycles?")
                                .arg(formatNumber(levels.dram.cycles), formatNumber(levels.l1.cycles));
    if (std::abs(profileMhz - clockMhz) > 0.01 * profileMhz) {
        text += tr("\n\nThe profile's clock is %1 MHz: cycles counted at another clock are a different "
                   "time.").arg(formatNumber(profileMhz));
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Latencies from %1").arg(QFileInfo(path).fileName()),
                                text, QMessageBox::Apply | QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("LatencyQuestion"));
    connect(box->button(QMessageBox::Apply), &QPushButton::clicked, this,
            [this, levels, gpu] { applyLatencies(levels, gpu); });
    box->open();
    return {};
}

void TracesPanel::applyLatencies(const core::LatencyPlateaus &levels, const QString &gpu)
{
    m_state->undoStack()->beginMacro(tr("Latencies from %1").arg(gpu));
    m_state->applyValue(QStringLiteral("L"), levels.dram.cycles);
    m_state->applyValue(QStringLiteral("L_s"), levels.l1.cycles);
    if (levels.l2)
        m_state->applyValue(QStringLiteral("L_2"), levels.l2->cycles);
    m_state->undoStack()->endMacro();
    Q_EMIT message(tr("L = %1 cycles and L_s = %2 cycles from %3")
                           .arg(formatNumber(levels.dram.cycles), formatNumber(levels.l1.cycles), gpu));
}

} // namespace crossroof::widgets
