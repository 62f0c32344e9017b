// SPDX-License-Identifier: GPL-3.0-or-later
// The "Calibrate from Kernel Family" dialog on the measured H100 SXM family (tests/data/h100_sxm).
#include "calibration/family_calibration_dialog.h"
#include "common/user_profiles.h"

#include "common/parameter_state.h"
#include "core/profiles/hardware_profile.h"
#include "core/profiles/profile_library.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <fstream>

using namespace crossroof;
using widgets::FamilyCalibrationDialog;

namespace {
const QString kFamily = QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/h100_sxm/family.csv");
}

class TestFamilyCalibrationDialog : public QObject
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
        m_state->undoStack()->clear();
        m_dialog = new FamilyCalibrationDialog(m_state);
        // R and M held: a quicker fit of the two latencies.
        m_dialog->setFitted(QStringLiteral("R"), false);
        m_dialog->setFitted(QStringLiteral("M"), false);
    }

    void cleanup()
    {
        delete m_dialog;
        delete m_state;
    }

    void fitsAndShowsEveryKernel()
    {
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY2(m_dialog->loadFamily(kFamily), qPrintable(m_dialog->error()));
        QVERIFY(m_dialog->applyButton()->isEnabled());
        QTableWidget *table = m_dialog->table();
        QCOMPARE(table->rowCount(), 312);
        QCOMPARE(table->columnCount(), 7);
        QCOMPARE(table->horizontalHeaderItem(3)->text(), QStringLiteral("measured (GB/s)"));
        const auto &result = *m_dialog->result();
        QCOMPARE(result.fitted, (std::vector<std::string>{"L", "L_c"}));
        QVERIFY(result.prediction.accuracy_mean > 0.9);
        // Rows can be sorted; find the first kernel (n = 1, Z = 17, E = 1) and check its cells.
        bool found = false;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 3)->data(Qt::DisplayRole).toDouble() == 42.73) {
                found = true;
                const double predicted = table->item(r, 4)->data(Qt::DisplayRole).toDouble();
                QCOMPARE(predicted, QString::number(result.prediction.rows.front().predicted_gbs, 'g', 6).toDouble());
                QVERIFY(std::abs(table->item(r, 6)->data(Qt::DisplayRole).toDouble()
                                 - (1 - std::abs(predicted - 42.73) / 42.73))
                        < 1e-3);
            }
        }
        QVERIFY(found);
        // One scatter per E (1, 2, 4) and the y = x line; log axes.
        QCOMPARE(m_dialog->plot()->graphCount(), 4);
        QCOMPARE(m_dialog->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("accuracy mean")));
    }

    void applyIsOneUndoStep()
    {
        QVERIFY(m_dialog->loadFamily(kFamily));
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
        QVERIFY(m_dialog->loadFamily(kFamily));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("my-h100.json"));
        QCOMPARE(m_dialog->saveProfile(path), QString());
        const core::HardwareProfile prof = core::loadProfileFile(path.toStdString());
        QCOMPARE(prof.id, std::string("my-h100"));
        QCOMPARE(prof.params.L_c, m_dialog->result()->params.L_c);
        QCOMPARE(prof.sources.back().fields, (std::vector<std::string>{"L", "L_c"}));
    }

    void aProfileSavedToTheUserFolderIsListedAtOnce()
    {
        QVERIFY(m_dialog->loadFamily(kFamily));
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
        QVERIFY(!m_dialog->loadFamily(path));
        QVERIFY2(m_dialog->error().contains(QStringLiteral("bad.csv:3:")), qPrintable(m_dialog->error()));
        QVERIFY(!m_dialog->applyButton()->isEnabled());
        QVERIFY(m_dialog->summaryLabel()->text().contains(QStringLiteral("not a number")));
    }

    void nothingToFit()
    {
        QVERIFY(m_dialog->loadFamily(kFamily));
        for (const char *key : {"L", "L_c"})
            m_dialog->fitBox(QString::fromLatin1(key))->setChecked(false);
        QVERIFY(!m_dialog->fit());
        QVERIFY(!m_dialog->saveButton()->isEnabled());
        QVERIFY(m_dialog->error().contains(QStringLiteral("at least one")));
    }

private:
    widgets::ParameterState *m_state = nullptr;
    FamilyCalibrationDialog *m_dialog = nullptr;
};

QTEST_MAIN(TestFamilyCalibrationDialog)
#include "tst_family_calibration_dialog.moc"
