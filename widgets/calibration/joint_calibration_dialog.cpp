// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/joint_calibration_dialog.h"

#include "calibration/calibration_views.h"
#include "common/file_folders.h"
#include "common/native_path.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/save_file.h"
#include "common/scrolling_body.h"
#include "common/user_profiles.h"

#include "core/traces/kernel_table.h"
#include "core/profiles/profile_library.h"
#include "core/calibration/calibration.h"
#include "core/calibration/probe_analysis.h"
#include "core/support/error.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>

namespace crossroof::widgets {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString keyTooltip(const std::string &key)
{
    const auto *info = core::findParameter(key);
    const auto [lo, hi] = core::calibrationBounds(key);
    QString tip = text(info->tooltip)
                  + QObject::tr(" Fitted within [%1, %2] %3.")
                            .arg(formatNumber(lo), formatNumber(hi), text(info->unit));
    if (key == "R_dram")
        tip += QObject::tr(" Checked by default when an Nsight Compute export is a source.");
    else if (key == "L_2")
        tip += QObject::tr(" Checked by default when a kernel of an export sends requests to the L2.");
    return tip;
}

QString kindTitle(core::SourceKind kind)
{
    switch (kind) {
    case core::SourceKind::Family:
        return QObject::tr("Open Kernel Family");
    case core::SourceKind::Stream:
        return QObject::tr("Open Stream Curve");
    case core::SourceKind::Latency:
        return QObject::tr("Open Latency File");
    case core::SourceKind::Kernels:
        return QObject::tr("Open Nsight Compute Export");
    case core::SourceKind::Parallel:
        return QObject::tr("Open Parallel Reads");
    case core::SourceKind::Cache:
        return QObject::tr("Open gpu-cache Output");
    case core::SourceKind::L2Stream:
        return QObject::tr("Open gpu-l2-stream Output");
    }
    return {};
}

} // namespace

JointCalibrationDialog::JointCalibrationDialog(ParameterState *state, QWidget *parent)
    : QDialog(parent)
    , m_state(state)
    , m_job(std::make_unique<LatestJob<Outcome>>(this, [this](Outcome o) { showOutcome(std::move(o)); }))
{
    setWindowTitle(tr("Calibrate from Measurements"));

    // The sources, with the buttons that add and remove them.
    m_sourcesTable = new SourcesTable(this);
    auto *sourcesLabel = new QLabel(tr("Measure&ments"), this);
    sourcesLabel->setBuddy(m_sourcesTable); // Alt+M focuses the table
    auto *add = new QPushButton(tr("A&dd Source"), this);
    add->setToolTip(tr("Add a measurement file or a crossroof-probe folder"));
    auto *menu = new QMenu(add);
    const auto addKind = [&](const QString &label, const QString &tip, core::SourceKind kind) {
        QAction *action = menu->addAction(label, this, [this, kind] { browse(kind); });
        action->setToolTip(tip);
    };
    addKind(tr("&Kernel Family…"),
            tr("CSV with the columns n (warps per SM), Z (warp-instructions per request), "
               "E (independent chains) and gbs (the device's GB/s): crossroof-probe's family.csv"),
            core::SourceKind::Family);
    addKind(tr("&Stream Curve…"),
            tr("CSV with the columns warps_per_sm and read_gbs (one request in flight per "
               "warp), predicted as f(k) at k = warps_per_sm: crossroof-probe's stream.csv; or a gpu-benches "
               "gpu-stream output as it is (its read kernel)"),
            core::SourceKind::Stream);
    addKind(tr("&Latency File…"),
            tr("CSV with the columns footprint_bytes, load (ld.cg, ld, fma) and "
               "cycles_per_hop: the DRAM and L2 chases are fitted as L and L_2, or set "
               "them; the L1 chase sets L_s, an fma chain L_c: crossroof-probe's latency.csv; or a gpu-benches "
               "gpu-latency output as it is (its DRAM, L2 and L1 plateaus and its clock)"),
            core::SourceKind::Latency);
    addKind(tr("&Nsight Compute Export…"),
            tr("ncu --csv export of real kernels with the counters of the Kernels "
               "dock: each kernel's DRAM GB/s against its prediction"),
            core::SourceKind::Kernels);
    addKind(tr("Parallel &Reads…"),
            tr("CSV with the columns level (dram or l2), bytes_per_thread, loads_in_flight, warps_per_sm, "
               "footprint_bytes and read_gbs: each row predicted as f(k) with m = loads_in_flight and "
               "32 × bytes_per_thread per request; crossroof-probe's parallel.csv"),
            core::SourceKind::Parallel);
    addKind(tr("gpu-&cache Output…"),
            tr("A gpu-benches gpu-cache output as it is (bandwidth against the data set): its L1 level sets "
               "R_l1 and, where it runs out, S_s; its L2 level R_l2; a DRAM level, where reached, R_dram and S_2"),
            core::SourceKind::Cache);
    addKind(tr("gpu-l2-s&tream Output…"),
            tr("A gpu-benches gpu-l2-stream output as it is (occupancy × footprint): the fastest kernel's L2 "
               "level sets R_l2 and, where it runs out, S_2; the highest DRAM level R_dram"),
            core::SourceKind::L2Stream);
    menu->addSeparator();
    QAction *probe = menu->addAction(tr("&Probe Folder…"), this, &JointCalibrationDialog::browseProbe);
    probe->setToolTip(tr("A crossroof-probe output folder: its family.csv, stream.csv, latency.csv and, where the probe "
                         "wrote one, parallel.csv"));
    menu->setToolTipsVisible(true);
    add->setMenu(menu);
    m_remove = new QPushButton(tr("&Remove"), this);
    m_remove->setToolTip(tr("Remove the selected source (Delete in the table)"));
    m_remove->setEnabled(false);
    connect(m_remove, &QPushButton::clicked, this,
            [this] { removeSource(m_sourcesTable->selectedSource()); });
    connect(m_sourcesTable, &SourcesTable::removeRequested, this, &JointCalibrationDialog::removeSource);
    connect(m_sourcesTable, &SourcesTable::weightChanged, this, &JointCalibrationDialog::setWeight);
    auto *sourceButtons = new QVBoxLayout;
    sourceButtons->addWidget(add);
    sourceButtons->addWidget(m_remove);
    sourceButtons->addStretch(1);
    auto *sourcesRow = new QHBoxLayout;
    sourcesRow->addWidget(m_sourcesTable, 1);
    sourcesRow->addLayout(sourceButtons);

    // The parameters to fit.
    auto *fitRow = new QHBoxLayout;
    fitRow->addWidget(new QLabel(tr("Parameters to fit:"), this));
    for (const std::string &key : core::jointCalibrationKeys()) {
        const QString k = QString::fromStdString(key);
        auto *box
                = new QCheckBox(QStringLiteral("%1 (%2)").arg(k, text(core::findParameter(key)->unit)), this);
        box->setToolTip(keyTooltip(key));
        m_fitBoxes.insert(k, box);
        fitRow->addWidget(box);
        connect(box, &QCheckBox::toggled, this, [this] {
            m_keysChosen = true;
            fit();
        });
    }
    const core::CalibrationSources none;
    const std::vector<std::string> defaults = core::defaultJointKeys(none);
    for (const std::string &key : defaults) {
        QCheckBox *box = m_fitBoxes.value(QString::fromStdString(key));
        const QSignalBlocker block(box);
        box->setChecked(true);
    }
    fitRow->addStretch(1);
    m_fit = new QPushButton(tr("Re&fit"), this);
    m_fit->setToolTip(
            tr("Fit again from the current parameters (after changing the profile or parameters in the "
               "main window): least squares of log(predicted / measured) over the checked parameters, "
               "from the current values and several spread starting points"));
    connect(m_fit, &QPushButton::clicked, this, &JointCalibrationDialog::fit);
    fitRow->addWidget(m_fit);

    m_plot = new QCustomPlot(this);
    setupCalibrationPlot(m_plot);
    m_parameters = new QTableWidget(0, 5, this);
    setupParametersTable(m_parameters);
    m_table = new QTableWidget(0, 8, this);
    setupValuesTable(m_table);
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_parameters);
    right->addWidget(m_table);
    right->setStretchFactor(1, 2);
    right->setSizes({250, 330});
    auto *middle = new QSplitter(Qt::Horizontal, this);
    middle->addWidget(m_plot);
    middle->addWidget(right);
    middle->setStretchFactor(0, 1);
    middle->setStretchFactor(1, 1);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(sourcesLabel);
    topLayout->addLayout(sourcesRow);
    topLayout->addLayout(fitRow);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(middle);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("&Apply to Parameters"), QDialogButtonBox::ApplyRole);
    m_apply->setToolTip(tr("Set the fitted parameters and those the latency file measures directly (one undo "
                           "step)"));
    m_save = buttons->addButton(tr("&Save as Profile…"), QDialogButtonBox::ActionRole);
    m_save->setToolTip(
            tr("Write the current profile with the calibrated parameters and their sources as a new "
               "profile file"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, &JointCalibrationDialog::apply);
    connect(m_save, &QPushButton::clicked, this, &JointCalibrationDialog::saveInteractively);

    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(new ScrollingBody(body, this), 1);
    outer->addWidget(buttons);
    resize(1280, 820);
    split->setSizes({220, 600});
    setBusy(false);
    showResult();
}

JointCalibrationDialog::~JointCalibrationDialog()
{
    m_job.reset(); // waits for a fit that runs, before the widgets it reports to go
}

void JointCalibrationDialog::browse(core::SourceKind kind)
{
    const QString filter = kind == core::SourceKind::Kernels
                                   ? tr("Nsight Compute CSV (*.csv);;All files (*)")
                                   : tr("CSV files (*.csv *.tsv *.txt);;All files (*)");
    const QString path = openFileName(this, FileKind::Data, kindTitle(kind), filter);
    if (path.isEmpty())
        return;
    if (!addSource(kind, path))
        QMessageBox::warning(this, windowTitle(), m_error);
}

void JointCalibrationDialog::browseProbe()
{
    const QString dir = existingFolder(this, FileKind::Data, tr("Open crossroof-probe Folder"));
    if (dir.isEmpty())
        return;
    if (!addProbeFolder(dir))
        QMessageBox::warning(this, windowTitle(), m_error);
}

bool JointCalibrationDialog::addSource(core::SourceKind kind, const QString &path)
{
    std::size_t index = 0;
    try {
        index = m_sources.add(kind, path, m_state->params().warp_size);
    } catch (const core::InputError &e) {
        m_error = QString::fromStdString(e.what());
        showResult();
        return false;
    }
    if (kind != core::SourceKind::Kernels)
        m_deviceNote.clear(); // a probe's file was replaced
    sourcesChanged();
    m_sourcesTable->selectRow(int(index));
    return true;
}

bool JointCalibrationDialog::addProbeFolder(const QString &directory)
{
    core::ProbeMeasurements probe;
    try {
        probe = m_sources.addProbe(directory);
    } catch (const core::InputError &e) {
        m_error = QString::fromStdString(e.what());
        showResult();
        return false;
    }
    // The fit keeps the machine's shape: say so when the probe measured another one (the device check every
    // import makes, core::checkDevice(), or another shape of the parameters in use).
    const core::XModelParams &p = m_state->params();
    core::HardwareProfile inUse = m_state->profile();
    inUse.params = p;
    const core::DeviceFacts device = core::deviceFacts(probe);
    const core::DeviceCheck check = core::checkDevice(device, inUse, core::bundledProfiles());
    m_deviceNote.clear();
    if (check.mismatch) {
        m_deviceNote = tr("device.csv: %1; the fit keeps the current SM count, clock and warps per SM: choose that "
                          "GPU's profile first.")
                               .arg(QString::fromStdString(*check.mismatch
                                                           + (check.clock_gap ? "; " + *check.clock_gap : "")));
    } else if (probe.sm_count != p.sm_count || probe.max_warps != p.max_warps
               || std::abs(probe.clock_ghz / p.clock_ghz - 1) > 0.02) {
        m_deviceNote = tr("device.csv measured %1 with %2 SMs at %3 GHz and %4 warps per SM, but the current "
                          "parameters have %5 SMs at %6 GHz and %7 warps per SM, which the fit keeps: choose "
                          "that GPU's profile first.")
                               .arg(QString::fromStdString(probe.device_name), formatNumber(probe.sm_count),
                                    formatNumber(probe.clock_ghz), formatNumber(probe.max_warps),
                                    formatNumber(p.sm_count), formatNumber(p.clock_ghz),
                                    formatNumber(p.max_warps));
    }
    if (!m_deviceNote.isEmpty()) {
        QStringList names;
        for (const core::HardwareProfile *match :
             check.mismatch ? check.matches : core::matchingProfiles(device, core::bundledProfiles()))
            names << QStringLiteral("%1 (%2)").arg(QString::fromStdString(match->name), QString::fromStdString(match->id));
        if (!names.isEmpty())
            m_deviceNote += tr(" Bundled profiles of that device: %1.").arg(names.join(QStringLiteral(", ")));
    }
    sourcesChanged();
    return true;
}

void JointCalibrationDialog::removeSource(int index)
{
    if (index < 0 || index >= int(m_sources.entries().size()))
        return;
    m_sources.remove(std::size_t(index));
    m_deviceNote.clear();
    sourcesChanged();
    if (!m_sources.empty())
        m_sourcesTable->selectRow(std::min(index, int(m_sources.entries().size()) - 1));
}

void JointCalibrationDialog::setWeight(int index, double weight)
{
    if (index < 0 || index >= int(m_sources.entries().size()))
        return;
    m_sources.setWeight(std::size_t(index), weight);
    if (QDoubleSpinBox *box = m_sourcesTable->weightBox(index); box && box->value() != weight) {
        const QSignalBlocker block(box);
        box->setValue(weight);
    }
    fit();
}

void JointCalibrationDialog::sourcesChanged()
{
    m_sourcesTable->setSources(m_sources);
    m_remove->setEnabled(!m_sources.empty());
    if (!m_keysChosen) {
        const std::vector<std::string> defaults = core::defaultJointKeys(m_sources.sources());
        for (auto it = m_fitBoxes.begin(); it != m_fitBoxes.end(); ++it) {
            const QSignalBlocker block(it.value());
            it.value()->setChecked(std::find(defaults.begin(), defaults.end(), it.key().toStdString())
                                   != defaults.end());
        }
    }
    fit();
}

void JointCalibrationDialog::setFitted(const QString &key, bool fitted)
{
    if (QCheckBox *box = m_fitBoxes.value(key)) {
        m_keysChosen = true;
        box->setChecked(fitted);
    }
}

std::vector<std::string> JointCalibrationDialog::fittedKeys() const
{
    std::vector<std::string> keys;
    for (const std::string &key : core::jointCalibrationKeys()) {
        if (m_fitBoxes.value(QString::fromStdString(key))->isChecked())
            keys.push_back(key);
    }
    return keys;
}

void JointCalibrationDialog::fit()
{
    ++m_serial;
    m_error.clear();
    const std::vector<std::string> keys = fittedKeys();
    if (m_sources.empty())
        m_error = tr("Add a measurement first (Add Source): a kernel family, a stream curve, a latency file, "
                     "an Nsight Compute export or a crossroof-probe folder.");
    else if (keys.empty() && !core::defaultJointKeys(m_sources.sources()).empty())
        m_error = tr("Check at least one parameter to fit.");
    if (!m_error.isEmpty()) {
        m_result.reset();
        m_family.reset();
        setBusy(false); // a fit still running is of older sources or keys: it will not be shown
        showResult();
        return;
    }
    setBusy(true);
    showResult();
    m_job->request([sources = m_sources.sources(), start = m_state->params(), keys,
                    serial = m_serial](std::stop_token) {
        Outcome o;
        o.start = start;
        o.serial = serial;
        try {
            o.result = core::calibrateJointly(sources, start, keys);
            if (sources.family)
                o.family = core::predictFamily(*sources.family, o.result->params);
        } catch (const core::InputError &e) {
            o.error = QString::fromStdString(e.what());
        } catch (const std::exception &e) {
            o.error = QObject::tr("The fit failed: %1").arg(QString::fromStdString(e.what()));
        }
        return o;
    });
}

void JointCalibrationDialog::showOutcome(Outcome outcome)
{
    // Only the latest request is shown: an older one fitted sources or keys that have changed since.
    if (outcome.serial == m_serial) {
        m_result = std::move(outcome.result);
        m_start = outcome.start;
        m_family = std::move(outcome.family);
        m_error = outcome.error;
    }
    setBusy(m_job->busy());
    showResult();
}

bool JointCalibrationDialog::waitForFit()
{
    m_job->wait();
    return m_result.has_value();
}

void JointCalibrationDialog::setBusy(bool busy)
{
    m_busy = busy;
    if (busy)
        setCursor(Qt::BusyCursor);
    else
        unsetCursor();
    m_apply->setEnabled(!busy && m_result.has_value());
    m_save->setEnabled(!busy && m_result.has_value());
}

void JointCalibrationDialog::showResult()
{
    const core::JointCalibration *fit = m_busy || !m_result ? nullptr : &*m_result;
    if (fit)
        m_sourcesTable->showFit(m_sources, *fit);
    else
        m_sourcesTable->clearFit();
    drawCalibration(m_plot, fit);
    fillValuesTable(m_table, fit);
    fillParametersTable(m_parameters, fit, m_start);

    QStringList parts;
    if (!m_error.isEmpty())
        parts << QStringLiteral("<span style='color:#D55E00'>%1</span>").arg(m_error.toHtmlEscaped());
    if (!m_deviceNote.isEmpty())
        parts << m_deviceNote.toHtmlEscaped();
    if (m_busy) {
        parts << tr("Fitting %1 …").arg(m_sources.fileNames().toHtmlEscaped());
    } else if (fit) {
        QStringList values;
        for (const std::string &key : fit->fitted) {
            const auto *info = core::findParameter(key);
            values << QStringLiteral("%1 = %2 %3")
                              .arg(QString::fromStdString(key), formatNumber(fit->params.*(info->member)),
                                   text(info->unit));
        }
        QString line = fit->fitted.empty()
                ? tr("Nothing fitted: %1 set what they measure.").arg(m_sources.fileNames().toHtmlEscaped())
                : tr("<b>%1</b> &nbsp; fitted to %2 (objective Σ weight · mean log² = %3, %4 starts).")
                          .arg(values.join(QStringLiteral(", ")).toHtmlEscaped(),
                               m_sources.fileNames().toHtmlEscaped(), formatNumber(fit->cost))
                          .arg(fit->starts);
        for (const std::string &note : fit->notes)
            line += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
        if (!fit->at_bound.empty()) {
            QStringList keys;
            for (const std::string &k : fit->at_bound)
                keys << QString::fromStdString(k);
            line += tr(" %1 ended on a bound of its range: no source pins it down.")
                            .arg(keys.join(QStringLiteral(", ")));
        }
        if (m_family) {
            line += tr(" On the family: RMSE %1 GB/s, r² = %2.")
                            .arg(formatNumber(m_family->rmse_gbs), QString::number(m_family->r2, 'f', 4));
        }
        parts << line;
    }
    if (parts.isEmpty() || (!m_busy && !fit && m_error.isEmpty()))
        parts << tr(
                "The device shape (SMs, clock, warp slots) and the parameters that are not fitted are the "
                "current parameters: choose the GPU's profile first.");
    m_summary->setText(parts.join(QStringLiteral("<br>")));
}

void JointCalibrationDialog::apply()
{
    if (!m_result || m_busy)
        return;
    std::vector<std::pair<std::string, double>> values;
    for (const std::string &key : m_result->fitted)
        values.emplace_back(key, m_result->params.*(core::findParameter(key)->member));
    for (const core::KeySetting &s : m_result->settings)
        values.emplace_back(s.key, s.value);
    const bool differs = std::any_of(values.begin(), values.end(), [this](const auto &kv) {
        return m_state->value(QString::fromStdString(kv.first)) != kv.second;
    });
    if (!differs)
        return;
    m_state->undoStack()->beginMacro(tr("Calibrate to %1").arg(m_sources.fileNames()));
    for (const auto &[key, value] : values)
        m_state->applyValue(QString::fromStdString(key), value);
    m_state->undoStack()->endMacro();
    Q_EMIT message(tr("Applied the calibration (Undo restores the previous values)."));
}

QString JointCalibrationDialog::saveProfile(const QString &path) const
{
    if (!m_result || m_busy)
        return tr("There is no calibration to save: %1")
                .arg(m_error.isEmpty() ? tr("the fit runs") : m_error);
    core::HardwareProfile start = m_state->profile();
    start.params = m_start;
    const std::string id = core::profileIdFrom(QFileInfo(path).completeBaseName().toStdString());
    core::HardwareProfile prof
            = core::jointCalibratedProfile(start, *m_result, id, start.name + " (calibrated)",
                                           "Crossroof's Calibrate from Measurements dialog");
    prof.description = "Calibrated jointly in Crossroof (File > Calibrate from Measurements) to "
                       + m_sources.fileNames().toStdString() + ", starting from " + start.name + " ("
                       + start.id + ").";
    const std::string text = core::profileToText(prof);
    try {
        core::parseProfile(text, nativePath(path)); // never write a profile that would not load
    } catch (const core::InputError &e) {
        return tr("The calibrated profile would not be valid: %1").arg(QString::fromStdString(e.what()));
    }
    if (const QString why = saveFileAtomically(path, text); !why.isEmpty())
        return tr("The profile was not saved to %1: %2").arg(path, why);
    // A profile saved into the user profile folder is listed by the profile picker at once.
    UserProfiles::instance()->reload();
    return {};
}

void JointCalibrationDialog::saveInteractively()
{
    const QString dir = UserProfiles::instance()->directory();
    QDir().mkpath(dir);
    const QString id = QString::fromStdString(m_state->profile().id);
    const QString path = saveFileName(this, FileKind::Data, tr("Save Calibrated Profile"),
                                      QDir(dir).filePath(id + QStringLiteral("-calibrated.json")),
                                      tr("Hardware profiles (*.json)"), QStringLiteral("json"));
    if (path.isEmpty())
        return;
    const QString error = saveProfile(path);
    if (error.isEmpty())
        Q_EMIT message(tr("Saved the calibrated profile to %1.").arg(QDir::toNativeSeparators(path)));
    else
        QMessageBox::warning(this, tr("Save as Profile"), error);
}

} // namespace crossroof::widgets
