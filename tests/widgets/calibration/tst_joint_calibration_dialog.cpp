// SPDX-License-Identifier: GPL-3.0-or-later
// The "Calibrate from Measurements" dialog on the measured H100 SXM files (tests/data/h100_sxm): the family
// alone as before, and jointly with the stream curve, the pointer chases and two Nsight Compute exports.
#include "calibration/calibration_views.h"
#include "calibration/joint_calibration_dialog.h"
#include "common/user_profiles.h"

#include "common/parameter_state.h"
#include "core/calibration/calibration.h"
#include "core/calibration/joint_calibration.h"
#include "core/profiles/hardware_profile.h"
#include "core/profiles/profile_library.h"
#include "support/full_disk.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

using namespace crossroof;
using core::SourceKind;
using widgets::JointCalibrationDialog;
using widgets::SourcesTable;

namespace {
const QString kData = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/");
const QString kH100 = kData + QStringLiteral("h100_sxm/");
const QString kFamily = kH100 + QStringLiteral("family.csv");
const QString kStream = kH100 + QStringLiteral("stream.csv");
const QString kLatency = kH100 + QStringLiteral("latency.csv");
const QString kTorch = kH100 + QStringLiteral("torch_raw.csv");
const QString kNcu = kData + QStringLiteral("ncu_h100_raw.csv");

/// The five H100 SXM sources as core reads them, each weighted as given (1 by default).
core::CalibrationSources coreSources(double torchWeight = 1)
{
    core::CalibrationSources s;
    s.family = core::readKernelFamily(kFamily.toStdString());
    s.stream = core::readStreamCurve(kStream.toStdString());
    s.latency = core::readLatencyFile(kLatency.toStdString());
    s.kernels.push_back(core::readKernelSet(kTorch.toStdString(), 32));
    s.kernels.push_back(core::readKernelSet(kNcu.toStdString(), 32));
    if (torchWeight != 1)
        s.weights.emplace_back(kTorch.toStdString(), torchWeight);
    return s;
}

QString threeDecimals(double v)
{
    return QString::number(v, 'f', 3);
}
} // namespace

class TestJointCalibrationDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_state = new widgets::ParameterState(this);
        m_state->applyProfile(*core::findBundledProfile("h100-sxm"));
        // Start away from the fit, so that applying it changes something.
        m_state->setValue(QStringLiteral("L"), 688);
        m_state->setValue(QStringLiteral("L_c"), 1);
        m_state->setValue(QStringLiteral("L_s"), 30);
        m_state->undoStack()->clear();
        m_dialog = new JointCalibrationDialog(m_state);
    }

    void cleanup()
    {
        delete m_dialog;
        delete m_state;
    }

    // The family alone, R and M held: a quicker fit of the two latencies, as the family dialog did.

    void fitsAFamilyAndShowsEveryKernel()
    {
        holdRAndM();
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY2(m_dialog->addSource(SourceKind::Family, kFamily), qPrintable(m_dialog->error()));
        QVERIFY2(m_dialog->waitForFit(), qPrintable(m_dialog->error()));
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTableWidget *table = m_dialog->table();
        QCOMPARE(table->rowCount(), 312);
        QCOMPARE(table->columnCount(), 8);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("measured"));
        const core::JointCalibration &result = *m_dialog->result();
        QCOMPARE(result.fitted, (std::vector<std::string> {"L", "L_c"}));
        QCOMPARE(result.sources.size(), std::size_t(1));
        QVERIFY(result.sources[0].accuracy_mean > 0.9);
        // Rows can be sorted; find the first kernel (line 2: n = 1, Z = 17, E = 1) and check its cells.
        bool found = false;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 2)->data(Qt::DisplayRole).toDouble() == 42.73) {
                found = true;
                QCOMPARE(table->item(r, 1)->data(Qt::DisplayRole).toInt(), 2);
                QCOMPARE(table->item(r, 4)->text(), QStringLiteral("GB/s"));
                QCOMPARE(table->item(r, 7)->text(), QStringLiteral("n=1 Z=17 E=1"));
                const double predicted = table->item(r, 3)->data(Qt::DisplayRole).toDouble();
                QCOMPARE(predicted,
                         QString::number(result.sources[0].rows.front().predicted, 'g', 6).toDouble());
                QVERIFY(std::abs(table->item(r, 6)->data(Qt::DisplayRole).toDouble()
                                 - (1 - std::abs(predicted - 42.73) / 42.73))
                        < 1e-3);
            }
        }
        QVERIFY(found);
        // One scatter for the source and the y = x line; log axes.
        QCOMPARE(m_dialog->plot()->graphCount(), 2);
        QCOMPARE(m_dialog->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(m_dialog->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("L_c = ")));
        // The family's RMSE and r², as predictFamily() gives them for the fitted machine.
        const core::FamilyPrediction family
                = core::predictFamily(core::readKernelFamily(kFamily.toStdString()), result.params);
        QVERIFY2(m_dialog->summaryLabel()->text().contains(
                         QStringLiteral("r² = %1").arg(QString::number(family.r2, 'f', 4))),
                 qPrintable(m_dialog->summaryLabel()->text()));
        SourcesTable *sources = m_dialog->sourcesTable();
        QCOMPARE(sources->rowCount(), 1);
        QCOMPARE(sources->item(0, SourcesTable::Mean)->text(),
                 threeDecimals(result.sources[0].accuracy_mean));
    }

    void applyIsOneUndoStep()
    {
        holdRAndM();
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->waitForFit());
        const double L = m_state->params().L, R = m_state->params().R;
        m_dialog->apply();
        QCOMPARE(m_state->undoStack()->count(), 1);
        QCOMPARE(m_state->params().L_c, m_dialog->result()->params.L_c);
        QVERIFY(m_state->params().L_c > 3 && m_state->params().L_c < 5);
        QVERIFY(m_state->params().L != L);
        QCOMPARE(m_state->params().R, R);
        m_state->undoStack()->undo();
        QCOMPARE(m_state->params().L, L);
        QCOMPARE(m_state->params().L_c, 1.0);
        // Applying the same values again is no new step.
        m_state->undoStack()->redo();
        m_dialog->apply();
        QCOMPARE(m_state->undoStack()->count(), 1);
    }

    void savesAProfile()
    {
        holdRAndM();
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->waitForFit());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("my-h100.json"));
        QCOMPARE(m_dialog->saveProfile(path), QString());
        const core::HardwareProfile prof = core::loadProfileFile(path.toStdString());
        QCOMPARE(prof.id, std::string("my-h100"));
        QCOMPARE(prof.params.L_c, m_dialog->result()->params.L_c);
        QCOMPARE(prof.sources.back().fields, (std::vector<std::string> {"L", "L_c"}));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files) == QStringList {QStringLiteral("my-h100.json")});
    }

    void aProfileSavedToTheUserFolderIsListedAtOnce()
    {
        holdRAndM();
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->waitForFit());
        QTemporaryDir data;
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        auto *user = widgets::UserProfiles::instance();
        QVERIFY(QDir().mkpath(user->directory()));
        QSignalSpy changed(user, &widgets::UserProfiles::changed);
        QCOMPARE(m_dialog->saveProfile(QDir(user->directory()).filePath(QStringLiteral("my-h100.json"))),
                 QString());
        qunsetenv("XDG_DATA_HOME");
        QCOMPARE(changed.count(), 1);
        QCOMPARE(user->profiles().size(), std::size_t(1));
        QCOMPARE(user->profiles().front().id, std::string("my-h100"));
        QVERIFY(user->profiles().front().user);
    }

    void badFileNamesTheLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        std::ofstream(path.toStdString()) << "n,Z,E,gbs\n1,17,1,42\n2,17,1,fast\n";
        QVERIFY(!m_dialog->addSource(SourceKind::Family, path));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("bad.csv:3:")), qPrintable(m_dialog->error()));
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("not a number")));
        QVERIFY(m_dialog->sources().empty());
    }

    void nothingToFit()
    {
        holdRAndM();
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        for (const char *key : {"L", "L_c"})
            m_dialog->fitBox(QString::fromLatin1(key))->setChecked(false);
        QVERIFY(!m_dialog->waitForFit());
        QVERIFY(!m_dialog->saveButton()->isEnabled());
        QVERIFY(m_dialog->error().contains(QStringLiteral("at least one")));
    }

    // Every H100 SXM source at once.

    void jointFitShowsWhatCoreComputes()
    {
        addAllSources();
        QVERIFY2(m_dialog->waitForFit(), qPrintable(m_dialog->error()));
        // The keys are the CLI's defaults for these sources: with kernels R_dram, with L2 traffic L_2.
        const core::CalibrationSources sources = coreSources();
        const std::vector<std::string> keys = core::defaultJointKeys(sources);
        QCOMPARE(keys, (std::vector<std::string> {"R", "R_dram", "L", "M", "L_c", "L_2"}));
        for (const std::string &key : core::jointCalibrationKeys())
            QCOMPARE(m_dialog->fitBox(QString::fromStdString(key))->isChecked(),
                     std::find(keys.begin(), keys.end(), key) != keys.end());
        const core::JointCalibration expected = core::calibrateJointly(sources, m_state->params(), keys);
        const core::JointCalibration &shown = *m_dialog->result();
        for (const std::string &key : keys) {
            const auto member = core::findParameter(key)->member;
            QCOMPARE(shown.params.*member, expected.params.*member);
        }

        // Per source, in core's order: the accuracy shown and the share of each fitted key.
        SourcesTable *table = m_dialog->sourcesTable();
        QCOMPARE(table->rowCount(), 5);
        QCOMPARE(expected.sources.size(), std::size_t(5));
        for (int r = 0; r < 5; ++r) {
            const core::SourceReport &report = expected.sources[std::size_t(r)];
            QCOMPARE(table->item(r, SourcesTable::File)->text(),
                     QFileInfo(QString::fromStdString(report.source)).fileName());
            QCOMPARE(table->item(r, SourcesTable::Values)
                             ->text()
                             .section(QLatin1Char(' '), 0, 0)
                             .toULongLong(),
                     report.rows.size()
                             + (report.kind == SourceKind::Latency ? 1 : 0)); // L_s is set, not fitted
            QCOMPARE(table->item(r, SourcesTable::Mean)->text(), threeDecimals(report.accuracy_mean));
            QCOMPARE(table->item(r, SourcesTable::Median)->text(), threeDecimals(report.accuracy_median));
            QCOMPARE(table->item(r, SourcesTable::Min)->text(), threeDecimals(report.accuracy_min));
            const QString determines = table->item(r, SourcesTable::Determines)->text();
            for (const core::KeyOrigin &o : expected.origins) {
                for (const auto &[index, share] : o.shares) {
                    if (index == std::size_t(r)) {
                        const QString part = QStringLiteral("%1 %2").arg(QString::fromStdString(o.key),
                                                                         widgets::shareText(share));
                        QVERIFY2(determines.contains(part), qPrintable(determines + " lacks " + part));
                    }
                }
            }
        }
        // The latency file also sets L_s (its L1 chase); the stream curve gives R a large share.
        QVERIFY(table->item(2, SourcesTable::Determines)->text().contains(QStringLiteral("sets L_s")));
        QVERIFY(table->item(1, SourcesTable::Determines)->text().contains(QStringLiteral("R ")));

        // One scatter per source (its file and unit in the legend) and y = x; every value in the table.
        QCOMPARE(m_dialog->plot()->graphCount(), 6);
        std::size_t values = 0;
        for (int g = 0; g < 5; ++g) {
            const core::SourceReport &report = expected.sources[std::size_t(g)];
            QCOMPARE(m_dialog->plot()->graph(g)->dataCount(), int(report.rows.size()));
            QVERIFY(m_dialog->plot()->graph(g)->name().startsWith(
                    QFileInfo(QString::fromStdString(report.source)).fileName()));
            QVERIFY(m_dialog->plot()->graph(g)->scatterStyle().shape()
                    != m_dialog->plot()->graph((g + 1) % 5)->scatterStyle().shape());
            values += report.rows.size();
        }
        QVERIFY(m_dialog->plot()->graph(2)->name().contains(QStringLiteral("cycles")));
        QCOMPARE(m_dialog->table()->rowCount(), int(values));
        // The parameters: six fitted, L_s set by the latency file.
        QTableWidget *params = m_dialog->parametersTable();
        QCOMPARE(params->rowCount(), int(keys.size() + expected.settings.size()));
        const int last = params->rowCount() - 1;
        QCOMPARE(params->item(last, 0)->text(), QStringLiteral("L_s"));
        QCOMPARE(params->item(last, 2)->text(), QStringLiteral("40.4"));
        QCOMPARE(params->item(last, 3)->text(), QStringLiteral("cycles"));
    }

    void fitsInTheBackground()
    {
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->addSource(SourceKind::Stream, kStream));
        // addSource() returned before the fit: nothing to apply yet, and the result comes through the event
        // loop.
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("Fitting")));
        QTRY_VERIFY_WITH_TIMEOUT(m_dialog->applyButton()->isEnabled(), 60000);
        QCOMPARE(m_dialog->result()->sources.size(), std::size_t(2));
    }

    void weightsChangeTheFit()
    {
        addAllSources();
        QVERIFY(m_dialog->waitForFit());
        const core::JointCalibration withTorch = *m_dialog->result();
        // Weight 0 on the PyTorch kernels from the keyboard, as a user sets it: F2 on its row, 0, Enter.
        m_dialog->show();
        QVERIFY(QTest::qWaitForWindowActive(m_dialog));
        SourcesTable *table = m_dialog->sourcesTable();
        table->setFocus();
        table->selectRow(3);
        QTest::keyClick(table, Qt::Key_F2);
        QVERIFY(table->weightBox(3)->hasFocus());
        QTest::keyClicks(table->weightBox(3), QStringLiteral("0"));
        QTest::keyClick(table->weightBox(3), Qt::Key_Return);
        QCOMPARE(table->weightBox(3)->value(), 0.0);
        QVERIFY(m_dialog->waitForFit());
        QCOMPARE(m_dialog->sources().entries()[3].weight, 0.0);
        const core::CalibrationSources sources = coreSources(0);
        const core::JointCalibration expected
                = core::calibrateJointly(sources, m_state->params(), core::defaultJointKeys(sources));
        QCOMPARE(m_dialog->result()->params.R_dram, expected.params.R_dram);
        QCOMPARE(m_dialog->result()->sources[3].weight, 0.0);
        // With the kernels R_dram comes from them; at weight 0 no source moves it, so it is reported as not
        // determined and kept at its start value instead of wherever the fit's starts left it.
        const auto rdram = [](const core::JointCalibration &fit) {
            return *std::find_if(fit.origins.begin(), fit.origins.end(),
                                 [](const core::KeyOrigin &o) { return o.key == "R_dram"; });
        };
        QVERIFY(!rdram(withTorch).undetermined);
        QVERIFY(withTorch.sources[rdram(withTorch).shares.front().first].source.ends_with("torch_raw.csv"));
        QVERIFY(rdram(*m_dialog->result()).undetermined);
        QCOMPARE(m_dialog->result()->params.R_dram, m_state->params().R_dram);
        // The dialog's parameter table says so on R_dram's row.
        QTableWidget *parameters = m_dialog->parametersTable();
        bool said = false;
        for (int r = 0; r < parameters->rowCount(); ++r) {
            if (parameters->item(r, 0)->text() == QStringLiteral("R_dram"))
                said = parameters->item(r, 4)->text().startsWith(QStringLiteral("not determined"));
        }
        QVERIFY(said);
    }

    void applySetsFittedAndMeasuredKeysInOneStep()
    {
        addAllSources();
        QVERIFY(m_dialog->waitForFit());
        const core::XModelParams before = m_state->params();
        const core::JointCalibration &fit = *m_dialog->result();
        m_dialog->apply();
        QCOMPARE(m_state->undoStack()->count(), 1);
        QCOMPARE(m_state->params().R_dram, fit.params.R_dram);
        QCOMPARE(m_state->params().L_2, fit.params.L_2);
        QCOMPARE(m_state->params().L_s, 40.4); // the ld chase over 8 KiB, set directly
        QVERIFY(m_state->undoStack()->text(0).contains(QStringLiteral("torch_raw.csv")));
        m_state->undoStack()->undo();
        for (const char *key : {"R", "R_dram", "L", "M", "L_c", "L_2", "L_s"}) {
            const auto member = core::findParameter(key)->member;
            QCOMPARE(m_state->params().*member, before.*member);
        }
    }

    void badSourceKeepsTheOthers()
    {
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->addSource(SourceKind::Latency, kLatency));
        QVERIFY(m_dialog->waitForFit());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("my_stream.csv"));
        std::ofstream(path.toStdString()) << "warps_per_sm,read_gbs\n1,42.8\n2,fast\n";
        QVERIFY(!m_dialog->addSource(SourceKind::Stream, path));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("my_stream.csv:3")),
                 qPrintable(m_dialog->error()));
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("my_stream.csv:3")));
        QCOMPARE(m_dialog->sources().entries().size(), std::size_t(2));
        QCOMPARE(m_dialog->sourcesTable()->rowCount(), 2);
        QVERIFY(m_dialog->result().has_value());
        QVERIFY(m_dialog->applyButton()->isEnabled());
        // An export without usable kernels names the file; the same export twice is refused.
        QVERIFY(!m_dialog->addSource(SourceKind::Kernels, kStream));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("stream.csv")), qPrintable(m_dialog->error()));
        QVERIFY(m_dialog->addSource(SourceKind::Kernels, kNcu));
        QVERIFY(!m_dialog->addSource(SourceKind::Kernels, kNcu));
        QVERIFY(m_dialog->error().contains(QStringLiteral("ncu_h100_raw.csv")));
        QCOMPARE(m_dialog->sources().entries().size(), std::size_t(3));
    }

    void removingASourceRefitsWithItsDefaults()
    {
        QVERIFY(m_dialog->addSource(SourceKind::Family, kFamily));
        QVERIFY(m_dialog->addSource(SourceKind::Kernels, kTorch));
        QVERIFY(m_dialog->fitBox(QStringLiteral("R_dram"))->isChecked());
        QVERIFY(m_dialog->waitForFit());
        // Delete in the table removes the selected source; without kernels R_dram and L_2 are not fitted.
        SourcesTable *table = m_dialog->sourcesTable();
        table->setFocus();
        table->selectRow(1);
        QTest::keyClick(table, Qt::Key_Delete);
        QCOMPARE(m_dialog->sources().entries().size(), std::size_t(1));
        QVERIFY(!m_dialog->fitBox(QStringLiteral("R_dram"))->isChecked());
        QVERIFY(!m_dialog->fitBox(QStringLiteral("L_2"))->isChecked());
        QVERIFY(m_dialog->waitForFit());
        QCOMPARE(m_dialog->result()->fitted, (std::vector<std::string> {"R", "L", "M", "L_c"}));
    }

    void probeFolderAddsItsThreeFiles()
    {
        QVERIFY2(m_dialog->addProbeFolder(kH100), qPrintable(m_dialog->error()));
        const auto &entries = m_dialog->sources().entries();
        QCOMPARE(entries.size(), std::size_t(3));
        QCOMPARE(entries[0].kind, SourceKind::Family);
        QCOMPARE(entries[1].kind, SourceKind::Stream);
        QCOMPARE(entries[2].kind, SourceKind::Latency);
        QVERIFY(m_dialog->waitForFit());
        QVERIFY(!m_dialog->summaryLabel()->text().contains(QStringLiteral("device.csv")));
        // On another machine's parameters the dialog says that the fit keeps them.
        m_state->applyProfile(*core::findBundledProfile("v100"));
        m_dialog->removeSource(0);
        QVERIFY(m_dialog->addProbeFolder(kH100));
        QCOMPARE(m_dialog->sources().entries().size(), std::size_t(3));
        QVERIFY2(m_dialog->summaryLabel()->text().contains(
                         QStringLiteral("device.csv: file: NVIDIA H100 80GB HBM3; profile: Tesla V100 (Volta): "
                                        "another GPU (H100, not V100); 132 SMs, not 80; CC 9.0, not 7.0; peak DRAM "
                                        "bandwidth 3352 GB/s, the profile's 895 GB/s; SM clock: file 1.98 GHz, "
                                        "profile 1.38 GHz (43 % higher); the fit keeps the current SM count, clock "
                                        "and warps per SM: choose that GPU's profile first.")),
                 qPrintable(m_dialog->summaryLabel()->text()));
        // ... and names the bundled profile of the probed device: by its name and bandwidth the H100 SXM alone
        // (the H200 has the same SMs and CC).
        QVERIFY2(m_dialog->summaryLabel()->text().contains(
                         QStringLiteral("Bundled profiles of that device: H100 SXM 80GB (Hopper) (h100-sxm).")),
                 qPrintable(m_dialog->summaryLabel()->text()));
        QVERIFY(!m_dialog->addProbeFolder(kData));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("device.csv")), qPrintable(m_dialog->error()));
    }

    void probeFolderWithParallelReadsAddsThemToo()
    {
        // A probe folder of the current crossroof-probe: the H100's files with the parallel reads beside them.
        QTemporaryDir dir;
        for (const char *name : {"device.csv", "family.csv", "stream.csv", "latency.csv"})
            QVERIFY(QFile::copy(kH100 + QLatin1String(name), dir.filePath(QLatin1String(name))));
        QVERIFY(QFile::copy(kData + QStringLiteral("probe_parallel/parallel.csv"), dir.filePath("parallel.csv")));
        QVERIFY2(m_dialog->addProbeFolder(dir.path()), qPrintable(m_dialog->error()));
        const auto &entries = m_dialog->sources().entries();
        QCOMPARE(entries.size(), std::size_t(4));
        QCOMPARE(entries[3].kind, SourceKind::Parallel);
        QVERIFY(entries[3].values() > 100);
        // The parallel reads bring the byte bandwidth into the fit, as on the command line.
        QVERIFY(m_dialog->fitBox(QStringLiteral("R_dram"))->isChecked());
        QVERIFY(m_dialog->waitForFit());
        const auto &fit = *m_dialog->result();
        QCOMPARE(fit.sources.size(), std::size_t(4));
        QCOMPARE(fit.sources[3].kind, SourceKind::Parallel);
        QVERIFY2(fit.sources[3].accuracy_mean > 0.9, qPrintable(QString::number(fit.sources[3].accuracy_mean)));
        QVERIFY(std::abs(fit.params.R_dram - 2964) < 0.03 * 2964); // the file was made with R_dram = 2964
        QCOMPARE(m_dialog->sourcesTable()->item(3, SourcesTable::Kind)->text(), QStringLiteral("parallel reads"));
    }

    void savesAJointProfileThatLoads()
    {
        addAllSources();
        QVERIFY(m_dialog->waitForFit());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("h100-joint.json"));
        QCOMPARE(m_dialog->saveProfile(path), QString());
        const core::HardwareProfile prof = core::loadProfileFile(path.toStdString());
        QCOMPARE(prof.id, std::string("h100-joint"));
        QCOMPARE(prof.params.R_dram, m_dialog->result()->params.R_dram);
        QCOMPARE(prof.params.L_s, 40.4);
        // One source entry names every file for the fitted keys; one names the latency file for L_s.
        bool fitted = false, ls = false;
        for (const core::ProfileSource &s : prof.sources) {
            if (s.fields == m_dialog->result()->fitted) {
                fitted = true;
                for (const char *file :
                     {"family.csv", "stream.csv", "latency.csv", "torch_raw.csv", "ncu_h100_raw.csv"})
                    QVERIFY2(s.text.find(file) != std::string::npos, file);
            }
            if (s.fields == std::vector<std::string> {"L_s"})
                ls = s.text.find("latency.csv") != std::string::npos;
        }
        QVERIFY(fitted);
        QVERIFY(ls);
        // A path that cannot be written leaves nothing and says why.
        const QString bad = dir.filePath(QStringLiteral("missing/h100.json"));
        QVERIFY(m_dialog->saveProfile(bad).contains(QStringLiteral("missing")));
        QVERIFY(!QFileInfo::exists(bad));
        // Saving over an older profile on a full disk keeps the old one whole and says why.
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        const QByteArray yesterday = old.readAll().left(old.size() / 2);
        old.close();
        QVERIFY(old.resize(yesterday.size()));
        QString full;
        {
            const test::FullDisk disk(rlim_t(yesterday.size()));
            QVERIFY(disk.active());
            full = m_dialog->saveProfile(path);
        }
        QVERIFY2(full.contains(path), qPrintable(full));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), yesterday);
    }

    void gpuBenchesFilesAsTheyAre()
    {
        // A GPU the library lacks (MI100) from one gpu-benches run, the files as the benchmarks wrote them: the
        // same as `crossroof-cli calibrate --latency ... --stream ...` (tst_cli_gpu_benches).
        const QString dir = kData + QStringLiteral("gpu_benches/");
        QVERIFY2(m_dialog->addSource(SourceKind::Latency, dir + QStringLiteral("latency_mi100.txt")),
                 qPrintable(m_dialog->error()));
        QVERIFY2(m_dialog->addSource(SourceKind::Stream, dir + QStringLiteral("stream_mi100.txt")),
                 qPrintable(m_dialog->error()));
        for (const char *key : {"R", "L", "M", "L_c", "L_2", "R_dram"})
            m_dialog->setFitted(QString::fromLatin1(key), std::string_view(key) == "R");
        QVERIFY2(m_dialog->waitForFit(), qPrintable(m_dialog->error()));
        // In core's order: the stream's 35 rows of whole warps per SM, then the latency file's DRAM, L2 and L1
        // plateaus and its clock.
        QCOMPARE(m_dialog->sourcesTable()->item(0, SourcesTable::Values)->text(), QStringLiteral("35"));
        QCOMPARE(m_dialog->sourcesTable()->item(1, SourcesTable::Values)->text(), QStringLiteral("4"));
        std::map<std::string, double> set;
        for (const core::KeySetting &k : m_dialog->result()->settings)
            set[k.key] = k.value;
        QCOMPARE(set["L"], 634.3);
        QCOMPARE(set["L_s"], 135.0);
        QCOMPARE(set["clock_ghz"], 1.43);
        QVERIFY(set["L_2"] > 261 && set["L_2"] < 268);
        const double R = m_dialog->result()->params.R;
        QVERIFY2(R > 800 && R < 960, qPrintable(QString::number(R)));
    }

    void gpuBenchesLevelsAsTheyAre()
    {
        // The same run's gpu-cache and gpu-l2-stream files, alone: nothing is fitted, the levels are set as
        // `crossroof-cli calibrate --cache ... --l2-stream ...` sets them (tst_cli_gpu_benches). The H100 SXM's
        // 132 SMs share the 3839 kB the L2 level holds.
        const QString dir = kData + QStringLiteral("gpu_benches/");
        QVERIFY(m_dialog->addSource(SourceKind::L2Stream, dir + QStringLiteral("l2-stream_mi100_footprints.txt")));
        QVERIFY(m_dialog->addSource(SourceKind::Cache, dir + QStringLiteral("cache_mi100.txt")));
        QVERIFY2(m_dialog->waitForFit() && m_dialog->result()->fitted.empty(), qPrintable(m_dialog->error()));
        std::map<std::string, std::pair<double, std::string>> set; // value and file
        for (const core::KeySetting &k : m_dialog->result()->settings)
            set[k.key] = {k.value, std::filesystem::path(k.source).filename().string()};
        const auto check = [&](const char *key, double value, const char *file) {
            QCOMPARE(set[key].first, value);
            QCOMPARE(set[key].second, std::string(file));
        };
        const char *cache = "cache_mi100.txt", *stream = "l2-stream_mi100_footprints.txt";
        check("R_l1", 9098.8, cache);
        check("S_s", 16.0, cache);
        check("R_l2", 2515.85, cache); // the cache file comes first, as in the CLI
        check("S_2", 3839.0 / 132, stream);
        check("R_dram", 810.0, stream);
        // The table says which file sets which level; the summary what a file leaves out.
        QCOMPARE(m_dialog->sourcesTable()->item(0, SourcesTable::Determines)->text(), QStringLiteral("sets R_l1, S_s, R_l2"));
        QCOMPARE(m_dialog->sourcesTable()->item(1, SourcesTable::Determines)->text(), QStringLiteral("sets S_2, R_dram"));
        QVERIFY2(m_dialog->summaryLabel()->text().contains(QStringLiteral("stay in the L2")),
                 qPrintable(m_dialog->summaryLabel()->text()));
        m_dialog->applyButton()->click(); // one undo step
        QCOMPARE(m_state->params().R_l1, 9098.8);
        QCOMPARE(m_state->params().R_dram, 810.0);
        QCOMPARE(m_state->undoStack()->count(), 1);
        // A gpu-l2-cache output is not a gpu-cache output: refused by name, the others kept.
        QVERIFY(!m_dialog->addSource(SourceKind::Cache, dir + QStringLiteral("l2-cache_mi100.txt")));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("a gpu-benches l2-cache output, not a gpu-benches cache output")),
                 qPrintable(m_dialog->error()));
        QCOMPARE(m_dialog->sourcesTable()->rowCount(), 2);
    }

private:
    void holdRAndM()
    {
        m_dialog->setFitted(QStringLiteral("R"), false);
        m_dialog->setFitted(QStringLiteral("M"), false);
    }

    void addAllSources()
    {
        for (const auto &[kind, path] : {std::pair {SourceKind::Family, kFamily},
                                         {SourceKind::Stream, kStream},
                                         {SourceKind::Latency, kLatency},
                                         {SourceKind::Kernels, kTorch},
                                         {SourceKind::Kernels, kNcu}})
            QVERIFY2(m_dialog->addSource(kind, path), qPrintable(m_dialog->error()));
    }

    widgets::ParameterState *m_state = nullptr;
    JointCalibrationDialog *m_dialog = nullptr;
};

QTEST_MAIN(TestJointCalibrationDialog)
#include "tst_joint_calibration_dialog.moc"
