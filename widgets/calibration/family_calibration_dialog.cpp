// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/family_calibration_dialog.h"

#include "common/number_format.h"
#include "common/save_file.h"
#include "common/user_profiles.h"

#include "core/calibration/probe_analysis.h"
#include "common/parameter_state.h"
#include "common/plot_navigator.h"
#include "common/plot_style.h"
#include "core/support/error.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace crossroof::widgets {

namespace {

QString tooltipOf(const QString &key)
{
    const auto *info = core::findParameter(key.toStdString());
    const auto [lo, hi] = core::calibrationBounds(key.toStdString());
    return QString::fromUtf8(info->tooltip.data(), qsizetype(info->tooltip.size()))
           + QObject::tr(" Fitted within [%1, %2] %3.")
                     .arg(formatNumber(lo), formatNumber(hi), QString::fromUtf8(info->unit.data(), qsizetype(info->unit.size())));
}

const std::array<QColor, 6> kColours{plot_style::kBlue,   plot_style::kOrange, plot_style::kGreen,
                                     plot_style::kPurple, plot_style::kSky,    plot_style::kVermillion};

} // namespace

FamilyCalibrationDialog::FamilyCalibrationDialog(ParameterState *state, QWidget *parent)
    : QDialog(parent)
    , m_state(state)
{
    setWindowTitle(tr("Calibrate from Kernel Family"));
    m_path = new QLineEdit(this);
    m_path->setReadOnly(true);
    m_path->setPlaceholderText(tr("a CSV with the columns n, Z, E and gbs (crossroof-probe's family.csv)"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setToolTip(tr("Choose a measured kernel family: n warps per SM, Z warp-instructions per request, "
                          "E independent chains, gbs measured GB/s of the device"));
    connect(browse, &QPushButton::clicked, this, &FamilyCalibrationDialog::browse);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);

    auto *fitRow = new QHBoxLayout;
    for (const std::string &key : core::calibrationKeys()) {
        const QString k = QString::fromStdString(key);
        const auto *info = core::findParameter(key);
        auto *box = new QCheckBox(QStringLiteral("%1 (%2)").arg(k, QString::fromUtf8(info->unit.data(),
                                                                                     qsizetype(info->unit.size()))),
                                  this);
        box->setChecked(true);
        box->setToolTip(tooltipOf(k));
        m_fitBoxes.insert(k, box);
        fitRow->addWidget(box);
    }
    fitRow->addStretch(1);
    m_fit = new QPushButton(tr("&Fit"), this);
    m_fit->setToolTip(tr("Least squares of log(predicted / measured) throughput over the checked parameters, "
                         "from the current values and several spread starting points"));
    m_fit->setEnabled(false);
    connect(m_fit, &QPushButton::clicked, this, [this] { fit(); });
    fitRow->addWidget(m_fit);

    auto *form = new QFormLayout;
    auto *fileLabel = new QLabel(tr("&Kernel family"), this);
    fileLabel->setBuddy(m_path); // Alt+K focuses the path
    form->addRow(fileLabel, fileRow);
    form->addRow(tr("Parameters to fit"), fitRow);

    m_plot = new QCustomPlot(this);
    plot_style::setupAxes(m_plot);
    PlotNavigator::install(m_plot);
    m_plot->setAccessibleName(tr("Predicted against measured throughput"));
    plot_style::setLogScale(m_plot->xAxis, true);
    plot_style::setLogScale(m_plot->yAxis, true);
    m_plot->xAxis->setLabel(tr("measured MS throughput (GB/s)"));
    m_plot->yAxis->setLabel(tr("predicted MS throughput (GB/s)"));
    plot_style::placeLegendBelow(m_plot);

    m_table = new QTableWidget(0, 7, this);
    m_table->setHorizontalHeaderLabels({tr("n (warps)"), tr("Z (inst/req)"), tr("E"), tr("measured (GB/s)"),
                                        tr("predicted (GB/s)"), tr("error (%)"), tr("accuracy")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSortingEnabled(true);
    m_table->setAccessibleName(tr("Every kernel: measured and predicted throughput"));
    m_table->setToolTip(tr("error = (predicted − measured) / measured; accuracy = 1 − |error|"));

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("The device shape (SMs, clock, warp slots) and the parameters that are not fitted "
                          "are the current parameters: choose the GPU's profile first."));

    auto *middle = new QHBoxLayout;
    middle->addWidget(m_plot, 1);
    middle->addWidget(m_table, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("&Apply to Parameters"), QDialogButtonBox::ApplyRole);
    m_apply->setToolTip(tr("Set the fitted parameters (one undo step)"));
    m_apply->setEnabled(false);
    m_save = buttons->addButton(tr("&Save as Profile…"), QDialogButtonBox::ActionRole);
    m_save->setToolTip(tr("Write the current profile with the fitted parameters as a new profile file"));
    m_save->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_apply, &QPushButton::clicked, this, &FamilyCalibrationDialog::apply);
    connect(m_save, &QPushButton::clicked, this, &FamilyCalibrationDialog::saveInteractively);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(middle, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    resize(1100, 680);
}

void FamilyCalibrationDialog::browse()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Kernel Family"), m_familyPath,
                                                      tr("CSV files (*.csv *.tsv *.txt);;All files (*)"));
    if (!path.isEmpty() && !loadFamily(path))
        QMessageBox::warning(this, tr("Calibrate from Kernel Family"), m_error);
}

bool FamilyCalibrationDialog::loadFamily(const QString &path)
{
    try {
        m_family = core::readKernelFamily(path.toStdString());
    } catch (const core::InputError &e) {
        m_error = QString::fromStdString(e.what());
        m_summary->setText(m_error.toHtmlEscaped());
        return false;
    }
    m_familyPath = path;
    m_path->setText(QDir::toNativeSeparators(path));
    m_fit->setEnabled(true);
    return fit();
}

void FamilyCalibrationDialog::setFitted(const QString &key, bool fitted)
{
    if (QCheckBox *box = m_fitBoxes.value(key))
        box->setChecked(fitted);
}

std::vector<std::string> FamilyCalibrationDialog::fittedKeys() const
{
    std::vector<std::string> keys;
    for (const std::string &key : core::calibrationKeys()) {
        if (m_fitBoxes.value(QString::fromStdString(key))->isChecked())
            keys.push_back(key);
    }
    return keys;
}

bool FamilyCalibrationDialog::fit()
{
    m_result.reset();
    m_error.clear();
    if (!m_family)
        m_error = tr("Choose a kernel family file first.");
    else if (fittedKeys().empty())
        m_error = tr("Check at least one parameter to fit.");
    if (m_error.isEmpty()) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        try {
            m_result = core::calibrate(*m_family, m_state->params(), fittedKeys());
        } catch (const core::InputError &e) {
            m_error = QString::fromStdString(e.what());
        }
        QApplication::restoreOverrideCursor();
    }
    showResult();
    return m_result.has_value();
}

void FamilyCalibrationDialog::showResult()
{
    m_apply->setEnabled(m_result.has_value());
    m_save->setEnabled(m_result.has_value());
    m_plot->clearGraphs();
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    if (!m_result) {
        m_summary->setText(m_error.toHtmlEscaped());
        m_plot->replot();
        return;
    }
    const core::FamilyPrediction &p = m_result->prediction;

    // One scatter per E, and the y = x line over the data's range.
    std::map<double, QCPGraph *> byE;
    double lo = INFINITY, hi = 0;
    for (const core::RowPrediction &r : p.rows) {
        QCPGraph *&g = byE[r.row.E];
        if (!g) {
            g = m_plot->addGraph();
            const QColor colour = kColours[(byE.size() - 1) % kColours.size()];
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 6));
            g->setName(tr("E = %1").arg(formatNumber(r.row.E)));
        }
        g->addData(r.row.gbs, r.predicted_gbs);
        lo = std::min({lo, r.row.gbs, r.predicted_gbs});
        hi = std::max({hi, r.row.gbs, r.predicted_gbs});
    }
    QCPGraph *diagonal = m_plot->addGraph();
    diagonal->setPen(QPen(plot_style::kGrey, 1, Qt::DashLine));
    diagonal->setName(tr("predicted = measured"));
    diagonal->setData({lo / 1.2, hi * 1.2}, {lo / 1.2, hi * 1.2});
    m_plot->xAxis->setRange(lo / 1.2, hi * 1.2);
    m_plot->yAxis->setRange(lo / 1.2, hi * 1.2);
    m_plot->replot();

    m_table->setRowCount(int(p.rows.size()));
    for (int i = 0; i < int(p.rows.size()); ++i) {
        const core::RowPrediction &r = p.rows[std::size_t(i)];
        const std::array<double, 7> values{r.row.n,         r.row.Z,       r.row.E,   r.row.gbs,
                                           r.predicted_gbs, 100 * r.error, r.accuracy};
        const std::array<int, 7> precision{6, 6, 4, 6, 6, 3, 3};
        for (int c = 0; c < 7; ++c) {
            auto *item = new QTableWidgetItem;
            item->setData(Qt::DisplayRole, QString::number(values[std::size_t(c)], 'g', precision[std::size_t(c)])
                                                   .toDouble());
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, c, item);
        }
    }
    m_table->setSortingEnabled(true);

    QStringList values;
    for (const std::string &key : m_result->fitted) {
        const auto *info = core::findParameter(key);
        values << QStringLiteral("%1 = %2 %3")
                          .arg(QString::fromStdString(key), formatNumber(m_result->params.*(info->member)),
                               QString::fromUtf8(info->unit.data(), qsizetype(info->unit.size())));
    }
    QString text = tr("<b>%1</b> &nbsp; over %2 kernels: accuracy mean %3, median %4, min %5; RMSE %6 GB/s, "
                      "r² = %7.")
                           .arg(values.join(QStringLiteral(", ")).toHtmlEscaped())
                           .arg(p.rows.size())
                           .arg(formatNumber(p.accuracy_mean, 3), formatNumber(p.accuracy_median, 3), formatNumber(p.accuracy_min, 3),
                                formatNumber(p.rmse_gbs), QString::number(p.r2, 'f', 4));
    if (!m_result->at_bound.empty()) {
        QStringList keys;
        for (const std::string &k : m_result->at_bound)
            keys << QString::fromStdString(k);
        text += tr(" %1 ended on a bound of its range: the family does not pin it down.")
                        .arg(keys.join(QStringLiteral(", ")));
    }
    m_summary->setText(text);
}

void FamilyCalibrationDialog::apply()
{
    if (!m_result)
        return;
    bool differs = false;
    for (const std::string &key : m_result->fitted)
        differs = differs
                  || m_state->value(QString::fromStdString(key))
                             != m_result->params.*(core::findParameter(key)->member);
    if (!differs)
        return;
    m_state->undoStack()->beginMacro(tr("Calibrate to %1").arg(QFileInfo(m_familyPath).fileName()));
    for (const std::string &key : m_result->fitted)
        m_state->applyValue(QString::fromStdString(key), m_result->params.*(core::findParameter(key)->member));
    m_state->undoStack()->endMacro();
    Q_EMIT message(tr("Applied the calibration (Undo restores the previous values)."));
}

QString FamilyCalibrationDialog::saveProfile(const QString &path) const
{
    if (!m_result)
        return tr("There is no calibration to save: %1").arg(m_error);
    core::HardwareProfile start = m_state->profile();
    start.params = m_state->params();
    const std::string id = core::profileIdFrom(QFileInfo(path).completeBaseName().toStdString());
    const core::HardwareProfile prof
            = core::calibratedProfile(start, *m_result, QFileInfo(m_familyPath).fileName().toStdString(), id,
                                      start.name + " (calibrated)");
    const std::string text = core::profileToText(prof);
    try {
        core::parseProfile(text, path.toStdString());
    } catch (const core::InputError &e) {
        return tr("The calibrated profile would not be valid: %1").arg(QString::fromStdString(e.what()));
    }
    if (const QString why = saveFileAtomically(path, text); !why.isEmpty())
        return tr("The profile was not saved to %1: %2").arg(path, why);
    // A profile saved into the user profile folder is listed by the profile picker at once.
    UserProfiles::instance()->reload();
    return {};
}

void FamilyCalibrationDialog::saveInteractively()
{
    const QString dir = UserProfiles::instance()->directory();
    QDir().mkpath(dir);
    const QString id = QString::fromStdString(m_state->profile().id);
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Calibrated Profile"),
                                                      QDir(dir).filePath(id + QStringLiteral("-calibrated.json")),
                                                      tr("Hardware profiles (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = saveProfile(path);
    if (error.isEmpty())
        Q_EMIT message(tr("Saved the calibrated profile to %1.").arg(QDir::toNativeSeparators(path)));
    else
        QMessageBox::warning(this, tr("Save as Profile"), error);
}

} // namespace crossroof::widgets
