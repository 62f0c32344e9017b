// SPDX-License-Identifier: GPL-3.0-or-later
#include "traces/calibration_dialog.h"

#include "common/error_message.h"
#include "common/file_folders.h"
#include "common/native_path.h"
#include "common/number_format.h"
#include "common/parameter_state.h"
#include "common/save_file.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "core/profiles/hardware_profile.h"
#include "core/support/error.h"
#include "state/trace_state.h"
#include "core/xmodel/xmodel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace crossroof::widgets {

namespace {

/// The wait cursor for as long as it lives.
struct WaitCursor
{
    WaitCursor() { QGuiApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QGuiApplication::restoreOverrideCursor(); }
    WaitCursor(const WaitCursor &) = delete;
    WaitCursor &operator=(const WaitCursor &) = delete;
};

bool fittable(const core::MeasuredTrace &t)
{
    return t.kind == core::TraceKind::BandwidthVsWarps || t.kind == core::TraceKind::KernelPoints;
}

} // namespace

CalibrationDialog::CalibrationDialog(TraceState *traces, ParameterState *state, QWidget *parent)
    : QDialog(parent)
    , m_traces(traces)
    , m_state(state)
{
    setWindowTitle(tr("Calibrate the Memory Model"));
    m_traceBox = new QComboBox(this);
    m_traceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_modelBox = new QComboBox(this);
    m_modelBox->addItem(tr("Roofline MS: y = min(s·k, R), fits R and L"), int(Model::Roofline));
    m_modelBox->addItem(tr("Fixed hit rate cache (Eq. 1, 2): fits L_s and h"), int(Model::FixedCache));
    m_modelBox->addItem(tr("Locality cache (Eq. 3, 5): fits L_s, α and β"), int(Model::LocalityCache));
    m_modelBox->addItem(tr("Two cache levels: fits L_s, L₂, L, R, R_dram, β, S₂, α and γ₂"),
                        int(Model::TwoLevelCache));
    m_holdRow = new QWidget(this);
    m_holdLayout = new QHBoxLayout(m_holdRow);
    m_holdLayout->setContentsMargins(0, 0, 0, 0);
    m_holdRow->setToolTip(tr("Keys the fit keeps at the current parameters' values (e.g. R and L measured "
                             "elsewhere); the others are fitted"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Trace"), m_traceBox);
    form->addRow(tr("&Model"), m_modelBox);
    form->addRow(tr("Hold"), m_holdRow);
    m_togetherList = new QListWidget(this);
    m_togetherList->setMaximumHeight(4 * m_togetherList->fontMetrics().height() + 8);
    m_togetherList->setToolTip(tr("Other traces of this machine to fit together with the chosen one: every "
                                  "parameter shared but β, each trace's own footprint per warp"));
    form->addRow(tr("Fit &with"), m_togetherList);
    connect(m_togetherList, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const QString id = item->data(Qt::UserRole).toString();
        m_together.removeAll(id);
        if (item->checkState() == Qt::Checked)
            m_together << id;
        fit();
    });

    auto makePlot = [this](const QString &yLabel) {
        auto *plot = new QCustomPlot(this);
        plot->setPlottingHint(QCP::phFastPolylines, true);
        plot_style::setupAxes(plot);
        PlotNavigator::install(plot);
        plot->xAxis->setLabel(tr("k: warps per SM"));
        plot->yAxis->setLabel(yLabel);
        // One fixed left margin for both plots, so that their k axes line up.
        const QFontMetrics metrics(plot->yAxis->tickLabelFont());
        plot->axisRect()->setAutoMargins(QCP::msRight | QCP::msTop | QCP::msBottom);
        plot->axisRect()->setMargins(QMargins(
                metrics.horizontalAdvance(QStringLiteral("−00000")) + 2 * metrics.height() + 12, 0, 0, 0));
        return plot;
    };
    m_dataPlot = makePlot(tr("MS throughput (GB/s)"));
    m_dataPlot->setAccessibleName(tr("Measured trace and fitted curve"));
    m_points = m_dataPlot->addGraph();
    m_points->setLineStyle(QCPGraph::lsNone);
    m_points->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(plot_style::kOrange, 1.5), Qt::NoBrush, 7));
    m_curve = m_dataPlot->addGraph();
    m_curve->setPen(QPen(plot_style::kBlue, 2));
    plot_style::placeLegendBelow(m_dataPlot);

    m_residualPlot = makePlot(tr("residual y − fit (GB/s)"));
    m_residualPlot->setAccessibleName(tr("Residuals of the fit"));
    m_zero = m_residualPlot->addGraph();
    m_zero->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
    m_residuals = m_residualPlot->addGraph();
    m_residuals->setPen(QPen(QColor(0xE6, 0x9F, 0x00, 90), 1));
    m_residuals->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(plot_style::kOrange, 1), plot_style::kOrange, 6));

    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setMinimumWidth(260);

    auto *plots = new QVBoxLayout;
    plots->addWidget(m_dataPlot, 3);
    plots->addWidget(m_residualPlot, 2);
    auto *middle = new QHBoxLayout;
    middle->addLayout(plots, 1);
    // The warnings of a degenerate fit can outgrow the dialog: the panel scrolls.
    auto *resultScroll = new QScrollArea(this);
    resultScroll->setWidget(m_result);
    resultScroll->setWidgetResizable(true);
    resultScroll->setFrameShape(QFrame::NoFrame);
    resultScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    resultScroll->setMinimumWidth(300);
    resultScroll->setMaximumWidth(362);
    middle->addWidget(resultScroll);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("&Apply to Parameters"), QDialogButtonBox::ApplyRole);
    m_apply->setToolTip(tr("Set the fitted parameters (one undo step)"));
    m_apply->setDefault(true);
    m_save = buttons->addButton(tr("&Save as Profile…"), QDialogButtonBox::ActionRole);
    m_save->setToolTip(tr("Write the current profile with the fitted parameters as a new profile file"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, &CalibrationDialog::apply);
    connect(m_save, &QPushButton::clicked, this, &CalibrationDialog::saveInteractively);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(middle, 1);
    layout->addWidget(buttons);
    resize(960, 640);

    // Machine changes (and profile switches) change what the fit means; refit once the change settles.
    auto *refit = new QTimer(this);
    refit->setSingleShot(true);
    refit->setInterval(0);
    connect(refit, &QTimer::timeout, this, &CalibrationDialog::fit);
    connect(m_state, &ParameterState::valueChanged, this, [this, refit](const QString &key) {
        const auto *info = core::findParameter(key.toStdString());
        if (!m_applying && info && info->side == core::ParameterSide::Machine)
            refit->start();
        else if (m_error.isEmpty() && (m_roofline || m_cache))
            m_result->setText(describeFit()); // the "(now …)" column follows the parameters
    });
    connect(m_state, &ParameterState::profileChanged, refit, qOverload<>(&QTimer::start));
    connect(m_traceBox, &QComboBox::currentIndexChanged, this, [this] {
        rebuildTogetherList();
        fit();
    });
    connect(m_modelBox, &QComboBox::currentIndexChanged, this, [this] {
        rebuildHoldBoxes();
        rebuildTogetherList();
        fit();
    });
    connect(m_traces, &TraceState::changed, this, &CalibrationDialog::rebuildTraceList);
    rebuildTraceList();
    rebuildHoldBoxes();
    fit();
}

void CalibrationDialog::rebuildHoldBoxes()
{
    qDeleteAll(m_holdBoxes);
    m_holdBoxes.clear();
    const core::CacheMode mode = model() == Model::FixedCache      ? core::CacheMode::Fixed
                                 : model() == Model::LocalityCache ? core::CacheMode::Locality
                                 : model() == Model::TwoLevelCache ? core::CacheMode::TwoLevel
                                                                   : core::CacheMode::None;
    for (const std::string &k : core::cacheFitKeys(mode)) {
        const QString key = QString::fromStdString(k);
        auto *box = new QCheckBox(symbol(key), m_holdRow);
        box->setProperty("key", key);
        box->setChecked(m_hold.contains(key));
        box->setToolTip(tr("Keep %1 at its current value").arg(key));
        connect(box, &QCheckBox::toggled, this, [this, key](bool on) {
            if (on && !m_hold.contains(key))
                m_hold << key;
            else if (!on)
                m_hold.removeAll(key);
            fit();
        });
        m_holdLayout->addWidget(box);
        m_holdBoxes << box;
    }
    m_holdRow->setVisible(!m_holdBoxes.isEmpty());
}

void CalibrationDialog::setHeld(const QStringList &keys)
{
    m_hold = keys;
    for (QCheckBox *box : std::as_const(m_holdBoxes)) {
        const QSignalBlocker block(box);
        box->setChecked(m_hold.contains(box->property("key").toString()));
    }
    fit();
}

void CalibrationDialog::rebuildTraceList()
{
    const QString current = traceId();
    {
        const QSignalBlocker block(m_traceBox);
        m_traceBox->clear();
        for (const auto &t : m_traces->traces()) {
            if (!fittable(t))
                continue;
            m_traceBox->addItem(tr("%1 (%2)").arg(QString::fromStdString(t.name),
                                                  QFileInfo(QString::fromStdString(t.source)).fileName()),
                                QString::fromStdString(t.id));
            m_traceBox->setItemData(m_traceBox->count() - 1, QString::fromStdString(t.source),
                                    Qt::ToolTipRole);
        }
        const int index = m_traceBox->findData(current);
        m_traceBox->setCurrentIndex(index >= 0 ? index : 0);
    }
    rebuildTogetherList();
    if (traceId() != current || (m_roofline || m_cache || !m_error.isEmpty()))
        fit();
}

void CalibrationDialog::rebuildTogetherList()
{
    const QSignalBlocker block(m_togetherList);
    m_togetherList->clear();
    QStringList kept;
    for (int i = 0; i < m_traceBox->count(); ++i) {
        const QString id = m_traceBox->itemData(i).toString();
        if (id == traceId())
            continue;
        auto *item = new QListWidgetItem(m_traceBox->itemText(i), m_togetherList);
        item->setData(Qt::UserRole, id);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(m_together.contains(id) ? Qt::Checked : Qt::Unchecked);
        if (m_together.contains(id))
            kept << id;
    }
    m_together = kept; // removed traces, and the one now chosen to fit, leave the list
    m_togetherList->setVisible(model() != Model::Roofline && m_togetherList->count() > 0);
}

void CalibrationDialog::setTogether(const QStringList &ids)
{
    m_together = ids;
    rebuildTogetherList();
    fit();
}

bool CalibrationDialog::setTrace(const QString &id)
{
    const int index = m_traceBox->findData(id);
    if (index < 0)
        return false;
    if (index == m_traceBox->currentIndex())
        fit();
    else
        m_traceBox->setCurrentIndex(index);
    return true;
}

QString CalibrationDialog::traceId() const
{
    return m_traceBox->currentData().toString();
}

void CalibrationDialog::setModel(Model model)
{
    m_modelBox->setCurrentIndex(m_modelBox->findData(int(model)));
}

CalibrationDialog::Model CalibrationDialog::model() const
{
    return Model(m_modelBox->currentData().toInt());
}

bool CalibrationDialog::fit()
{
    m_roofline.reset();
    m_cache.reset();
    m_error.clear();
    const core::MeasuredTrace *t = m_traces->trace(traceId());
    m_machine = m_state->params();
    if (!t) {
        m_error = tr(
                "Import a trace of throughput against warps per SM first (Import… in the Traces panel).");
    } else {
        // The two-level fit of a long trace takes about a second: say so with the cursor.
        const WaitCursor busy;
        try {
            switch (model()) {
            case Model::Roofline:
                m_roofline = core::fitRoofline(t->x, t->y);
                break;
            case Model::FixedCache:
            case Model::LocalityCache:
            case Model::TwoLevelCache: {
                std::vector<core::FitTrace> traces {{t->x, t->y, t->name}};
                for (const QString &id : std::as_const(m_together)) {
                    if (const core::MeasuredTrace *other = m_traces->trace(id))
                        traces.push_back({other->x, other->y, other->name});
                }
                core::CacheFitOptions options;
                for (const QString &key : std::as_const(m_hold))
                    options.hold.push_back(key.toStdString());
                const core::CacheMode mode = model() == Model::FixedCache      ? core::CacheMode::Fixed
                                             : model() == Model::LocalityCache ? core::CacheMode::Locality
                                                                               : core::CacheMode::TwoLevel;
                m_cache = core::fitCacheModel(traces, m_machine, mode, options);
                break;
            }
            }
        } catch (const core::InputError &e) {
            m_error = QStringLiteral("%1: %2").arg(QString::fromStdString(t->source),
                                                   QString::fromStdString(e.what()));
        }
    }
    draw();
    Q_EMIT fitted();
    return m_error.isEmpty();
}

QList<QPair<QString, double>> CalibrationDialog::fittedValues() const
{
    if (m_roofline) {
        return {{QStringLiteral("R"), m_roofline->R_gbs},
                {QStringLiteral("L"), m_machine.gbsPerRequestRate() / m_roofline->slope_gbs_per_warp}};
    }
    if (!m_cache)
        return {};
    // The keys the fit moved, in the mode's order (core::cacheFitKeys); held keys keep the current values.
    QList<QPair<QString, double>> values;
    for (const auto &f : m_cache->parameters) {
        if (!f.held && f.trace <= 0)
            values.append({QString::fromStdString(f.key), f.value});
    }
    return values;
}

double CalibrationDialog::rmse() const
{
    return m_roofline ? m_roofline->rmse : m_cache ? m_cache->rmse : 0;
}

double CalibrationDialog::r2() const
{
    return m_roofline ? m_roofline->r2 : m_cache ? m_cache->r2 : 0;
}

void CalibrationDialog::draw()
{
    const core::MeasuredTrace *t = m_traces->trace(traceId());
    const bool ok = m_error.isEmpty() && t;
    m_apply->setEnabled(ok);
    m_save->setEnabled(ok);
    if (!ok) {
        for (QCPGraph *g : {m_points, m_curve, m_residuals, m_zero})
            g->data()->clear();
        m_result->setText(QStringLiteral("<p style='color:%1'>%2</p>")
                                  .arg(plot_style::kVermillion.name(), m_error.toHtmlEscaped()));
        m_dataPlot->replot(QCustomPlot::rpQueuedReplot);
        m_residualPlot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_points->setName(tr("measured: %1 (%2)")
                              .arg(QString::fromStdString(t->name),
                                   QFileInfo(QString::fromStdString(t->source)).fileName()));
    m_points->setData(QVector<double>(t->x.begin(), t->x.end()), QVector<double>(t->y.begin(), t->y.end()));

    const double xMax = std::max(1.0, *std::max_element(t->x.begin(), t->x.end()));
    QVector<double> ck, cv;
    const int samples = 400;
    std::optional<core::XModel> cacheModel;
    if (m_cache) {
        try {
            cacheModel.emplace(m_cache->params);
        } catch (const core::InputError &) {
        }
    }
    for (int i = 0; i <= samples; ++i) {
        const double k = xMax * 1.05 * i / samples;
        ck << k;
        if (m_roofline)
            cv << m_roofline->predict(k);
        else if (cacheModel)
            cv << cacheModel->toGbs(cacheModel->msSupply(k));
        else
            cv << std::numeric_limits<double>::quiet_NaN();
    }
    m_curve->setData(ck, cv, true);
    switch (model()) {
    case Model::Roofline:
        m_curve->setName(tr("fit: y = min(s·k, R)"));
        break;
    case Model::FixedCache:
        m_curve->setName(tr("fit: f(k) = k / (h·L_s + (1−h)·Lm(k))"));
        break;
    case Model::LocalityCache:
        m_curve->setName(tr("fit: f(k), locality cache (Eq. 5)"));
        break;
    case Model::TwoLevelCache:
        m_curve->setName(tr("fit: f(k), two cache levels"));
        break;
    }
    double yMax = *std::max_element(t->y.begin(), t->y.end());
    for (double v : std::as_const(cv)) {
        if (std::isfinite(v))
            yMax = std::max(yMax, v);
    }
    m_dataPlot->xAxis->setRange(0, xMax * 1.05);
    m_dataPlot->yAxis->setRange(0, yMax > 0 ? yMax * 1.12 : 1);

    // The chosen trace's residuals: a joint fit's others follow them (core::CacheFit::residuals).
    const std::vector<double> &all = m_roofline ? m_roofline->residuals : m_cache->residuals;
    const std::span<const double> res(all.data(), std::min(all.size(), t->x.size()));
    m_residuals->setData(QVector<double>(t->x.begin(), t->x.end()), QVector<double>(res.begin(), res.end()));
    m_residuals->removeFromLegend();
    m_zero->setData({0, xMax * 1.05}, {0, 0}, true);
    double rMax = 0;
    for (double r : res)
        rMax = std::max(rMax, std::abs(r));
    m_residualPlot->xAxis->setRange(0, xMax * 1.05);
    m_residualPlot->yAxis->setRange(-std::max(rMax, 1e-9) * 1.2, std::max(rMax, 1e-9) * 1.2);

    m_result->setText(describeFit());
    m_dataPlot->replot(QCustomPlot::rpQueuedReplot);
    m_residualPlot->replot(QCustomPlot::rpQueuedReplot);
}

void CalibrationDialog::apply()
{
    const auto values = fittedValues();
    if (values.isEmpty())
        return;
    const core::CacheMode mode = m_cache ? m_cache->mode : core::CacheMode::None;
    bool differs = m_state->params().cache != mode;
    for (const auto &[key, value] : values)
        differs = differs || m_state->value(key) != value;
    if (!differs)
        return;
    const core::MeasuredTrace *t = m_traces->trace(traceId());
    m_applying = true;
    m_state->undoStack()->beginMacro(
            tr("Calibrate to %1").arg(t ? QString::fromStdString(t->name) : tr("a trace")));
    m_state->applyCacheMode(mode);
    for (const auto &[key, value] : values)
        m_state->applyValue(key, value);
    m_state->undoStack()->endMacro();
    m_applying = false;
    m_result->setText(describeFit()); // "(now …)" gives the applied values
    Q_EMIT message(tr("Applied the calibration (Undo restores the previous values)."));
}

QString CalibrationDialog::saveProfile(const QString &path) const
{
    const auto values = fittedValues();
    if (values.isEmpty())
        return tr("There is no fit to save: %1").arg(m_error);
    core::HardwareProfile prof = m_state->profile();
    prof.params = m_state->params();
    prof.params.cache = m_cache ? m_cache->mode : core::CacheMode::None;
    std::vector<std::string> keys;
    for (const auto &[key, value] : values) {
        const auto *info = core::findParameter(key.toStdString());
        prof.params.*(info->member) = std::clamp(value, info->min, info->max);
        keys.push_back(key.toStdString());
    }
    if (m_cache)
        keys.push_back("cache");

    // The file name gives the id; the fitted values get their own source and leave the older ones.
    std::string id;
    for (const QChar c : QFileInfo(path).completeBaseName().toLower()) {
        const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
                        || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('-')
                        || c == QLatin1Char('_') || c == QLatin1Char('.');
        id += ok ? char(c.unicode()) : '-';
    }
    prof.id = id.empty() ? prof.id + "-calibrated" : id;
    const std::string suffix = " (calibrated)";
    if (prof.name.size() < suffix.size()
        || prof.name.compare(prof.name.size() - suffix.size(), suffix.size(), suffix) != 0)
        prof.name += suffix;
    std::vector<core::ProfileSource> sources;
    for (auto s : prof.sources) {
        std::erase_if(s.fields, [&keys](const std::string &f) {
            return std::find(keys.begin(), keys.end(), f) != keys.end();
        });
        if (!s.fields.empty())
            sources.push_back(std::move(s));
    }
    sources.push_back({keys, sourceText()});
    prof.sources = std::move(sources);

    const std::string text = core::profileToText(prof);
    try {
        core::parseProfile(text, nativePath(path));
    } catch (const core::InputError &e) {
        return tr("The calibrated profile would not be valid: %1").arg(QString::fromStdString(e.what()));
    }
    if (const QString why = saveFileAtomically(path, text); !why.isEmpty())
        return tr("The profile was not saved to %1: %2").arg(path, why);
    return {};
}

void CalibrationDialog::saveInteractively()
{
    const QString id = QString::fromStdString(m_state->profile().id);
    const QString path = saveFileName(this, FileKind::Data, tr("Save Calibrated Profile"),
                                      id + QStringLiteral("-calibrated.json"), tr("Hardware profiles (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = saveProfile(path);
    if (error.isEmpty()) {
        Q_EMIT message(tr("Saved the calibrated profile to %1 (File › Open Profile… loads it).").arg(path));
        return;
    }
    showError(this, error);
}

} // namespace crossroof::widgets
