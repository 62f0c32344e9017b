// SPDX-License-Identifier: GPL-3.0-or-later
// The bad-input corpus (tests/data/bad/) through the GUI's own loaders: File > Open Profile, File > Open
// Session, the traces panel's Import Trace and the extrapolation panel's training import. Each refusal must
// say so, naming the file, and leave the analysis as it was. (tests/app/cli/bad_inputs.sh runs every file
// through crossroof-cli; this runs a sample, every STRIDE-th file of each format.)
#include "main_window.h"
#include "common/parameter_state.h"
#include "markov/extrapolate_panel.h"
#include "state/trace_state.h"
#include "traces/trace_import_dialog.h"
#include "traces/traces_panel.h"

#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QTest>

using namespace crossroof;

class TestBadFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusedWithTheFileNamed_data();
    void refusedWithTheFileNamed();
};

namespace {

/// Every STRIDE-th file of tests/data/bad/FORMAT, in name order (enough to cover each kind of damage once
/// or twice while keeping the test to a few seconds).
QStringList sample(const QString &format, int stride)
{
    const QDir dir(QStringLiteral(CROSSROOF_SOURCE_DIR "/tests/data/bad/") + format);
    const QStringList names = dir.entryList(QDir::Files, QDir::Name);
    QStringList picked;
    for (int i = 0; i < names.size(); i += stride)
        picked << dir.filePath(names[i]);
    return picked;
}

/// The text of the error box, closed afterwards; empty when there is none.
QString takeErrorBox(QWidget &w)
{
    auto *box = w.findChild<QMessageBox *>(QStringLiteral("ErrorMessage"));
    if (!box)
        return {};
    const QString text = box->text();
    box->close();
    box->deleteLater();
    return text;
}

} // namespace

void TestBadFiles::refusedWithTheFileNamed_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("path");
    const std::pair<const char *, int> formats[] = {{"profile", 6}, {"session", 6}, {"gpu_benches", 4},
                                                    {"ncu", 4},     {"perf_stat", 4}, {"training", 4}};
    for (const auto &[format, stride] : formats) {
        for (const QString &path : sample(QString::fromLatin1(format), stride)) {
            QTest::newRow(qPrintable(QString::fromLatin1(format) + '/' + QFileInfo(path).fileName()))
                    << QString::fromLatin1(format) << path;
        }
    }
}

void TestBadFiles::refusedWithTheFileNamed()
{
    QFETCH(QString, format);
    QFETCH(QString, path);
    app::MainWindow w;
    w.state()->applyValue(QStringLiteral("Z"), 9.5);
    const core::Session before = w.captureSession();
    const std::size_t traces = w.traceState()->traces().size();

    QString message;
    if (format == QLatin1String("profile")) {
        QVERIFY(!w.openProfileFile(path));
        message = takeErrorBox(w);
    } else if (format == QLatin1String("session")) {
        QVERIFY(!w.openSession(path));
        message = takeErrorBox(w);
    } else if (format == QLatin1String("training")) {
        QVERIFY(!w.extrapolatePanel()->loadTrainingFile(path));
        message = w.extrapolatePanel()->infoLabel()->text();
    } else {
        // A trace: refused at once, with the message returned and shown, never passed on to the column
        // mapping dialog as if it were a table (a perf stat file with a word for its first time stamp was).
        message = w.tracesPanel()->importFile(path);
        QVERIFY2(!w.tracesPanel()->importDialog(), "read as a table: the column mapping dialog opened");
        const QString shown = takeErrorBox(w);
        QVERIFY2(shown.contains(message), qPrintable(shown.left(300)));
    }
    QVERIFY2(!message.isEmpty(), "no message");
    QVERIFY2(message.contains(path), qPrintable(message.left(300)));
    QVERIFY2(message.size() < path.size() + 400, qPrintable(message.left(500)));

    // Nothing changed: parameters, profile, view, traces.
    const core::Session after = w.captureSession();
    QVERIFY(after.params == before.params);
    QCOMPARE(after.profile.id, before.profile.id);
    QCOMPARE(after.current_view, before.current_view);
    QCOMPARE(w.traceState()->traces().size(), traces);
}

QTEST_MAIN(TestBadFiles)
#include "tst_bad_files.moc"
