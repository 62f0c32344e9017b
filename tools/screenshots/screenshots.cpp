// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-screenshots: opens the main window at given sizes, shows each view in turn and saves what the
// window paints as PNG, so that the screenshots in docs/screenshots/ can be made again by anyone
// (scripts/screenshots.sh runs it under xvfb-run with the xcb platform).
#include "main_window.h"
#include "side_by_side.h"

#include "bandwidth/bandwidth_view.h"
#include "export/figure_export.h"
#include "kernels/kernel_table_view.h"
#include "markov/extrapolate_panel.h"
#include "stability/stability_view.h"
#include "state/trace_state.h"
#include "traces/traces_panel.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QLabel>
#include <QMouseEvent>
#include <QPixmap>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>
#include <QWheelEvent>

#include <cstdio>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "crossroof-screenshots: %s\n", qPrintable(message));
    return 2;
}

/// Lets queued replots, layouts and background work land.
void settle()
{
    for (int i = 0; i < 10; ++i) {
        QCoreApplication::processEvents();
        QThread::msleep(5);
    }
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Crossroof"));
    QCoreApplication::setOrganizationName(QStringLiteral("Crossroof"));
    // The user's window layout, recent files and dialogs' choices neither change the pictures nor are changed.
    QStandardPaths::setTestModeEnabled(true);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Saves the main window, one PNG per view and size."));
    parser.addHelpOption();
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for the PNG files."),
                                 QStringLiteral("dir"));
    const QCommandLineOption sizes(QStringLiteral("size"),
                                   QStringLiteral("Window size WxH (repeatable; default 1600x1000 and 1024x700)."),
                                   QStringLiteral("WxH"));
    const QCommandLineOption views(QStringLiteral("views"),
                                   QStringLiteral("Comma-separated views (default: all): %1.")
                                           .arg(crossroof::app::MainWindow::viewNames().join(QStringLiteral(", "))),
                                   QStringLiteral("list"));
    // Not --session: QApplication takes -session (X11 session management) for itself.
    const QCommandLineOption session(QStringLiteral("open"), QStringLiteral("A session to open."),
                                     QStringLiteral("file"));
    const QCommandLineOption newSession(QStringLiteral("new-session"),
                                        QStringLiteral("After --open, File > New Session, as a user starting again "
                                                       "does: nothing of the session may stay."));
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("A profile id or file to select."),
                                     QStringLiteral("id"));
    const QCommandLineOption ncu(QStringLiteral("ncu"), QStringLiteral("An Nsight Compute CSV for the Kernels dock."),
                                 QStringLiteral("file"));
    const QCommandLineOption bandwidth(QStringLiteral("bandwidth"),
                                       QStringLiteral("Memory-controller counts for the Bandwidth view."),
                                       QStringLiteral("file"));
    const QCommandLineOption training(QStringLiteral("training"),
                                      QStringLiteral("A model-tree training CSV for the Extrapolate view."),
                                      QStringLiteral("file"));
    const QCommandLineOption trace(QStringLiteral("trace"), QStringLiteral("A trace to import (repeatable)."),
                                   QStringLiteral("file"));
    const QCommandLineOption prefix(QStringLiteral("prefix"),
                                    QStringLiteral("Text before each file name (default: none)."),
                                    QStringLiteral("text"));
    const QCommandLineOption figures(QStringLiteral("figures"),
                                     QStringLiteral("Also export each view as a figure at every preset (single and "
                                                    "double column, slide) into this folder, as File > Export "
                                                    "Figure does: <view>-<preset>.png."),
                                     QStringLiteral("dir"));
    const QCommandLineOption zoomPan(QStringLiteral("zoom-pan"),
                                     QStringLiteral("Also grab each view after a wheel zoom into its main plot and "
                                                    "a drag of it, as a hand does: <view>-zoomed-WxH.png."));
    const QCommandLineOption sideBySide(QStringLiteral("side-by-side"),
                                        QStringLiteral("Also grab View > Side by Side at each size: "
                                                       "side-by-side-WxH.png."));
    parser.addOptions(
            {out, sizes, views, session, newSession, profile, ncu, bandwidth, training, trace, prefix, figures, zoomPan, sideBySide});
    parser.process(app);
    if (!parser.isSet(out))
        return fail(QStringLiteral("--out DIR is required"));
    const QDir dir(parser.value(out));
    if (!QDir().mkpath(dir.path()))
        return fail(QStringLiteral("cannot create %1").arg(dir.path()));

    QList<QSize> windowSizes;
    for (const QString &text : parser.values(sizes)) {
        const auto match = QRegularExpression(QStringLiteral("^(\\d{3,4})x(\\d{3,4})$")).match(text);
        if (!match.hasMatch())
            return fail(QStringLiteral("--size: '%1' is not WxH, e.g. 1600x1000").arg(text));
        windowSizes << QSize(match.captured(1).toInt(), match.captured(2).toInt());
    }
    if (windowSizes.isEmpty())
        windowSizes = {QSize(1600, 1000), QSize(1024, 700)};
    QStringList wanted = crossroof::app::MainWindow::viewNames();
    if (parser.isSet(views))
        wanted = parser.value(views).split(QLatin1Char(','), Qt::SkipEmptyParts);

    crossroof::app::MainWindow window;
    if (parser.isSet(session) && !window.openSession(parser.value(session)))
        return fail(QStringLiteral("the session %1 did not open").arg(parser.value(session)));
    if (parser.isSet(newSession) && !window.newSession())
        return fail(QStringLiteral("File > New Session was cancelled"));
    if (parser.isSet(profile) && !window.selectProfile(parser.value(profile)))
        return fail(QStringLiteral("the profile %1 was not selected").arg(parser.value(profile)));
    auto loaded = [](const QString &error) { return error.isEmpty() ? 0 : fail(error); };
    if (parser.isSet(ncu)) {
        if (const int status = loaded(window.kernelTable()->loadFile(parser.value(ncu))))
            return status;
    }
    if (parser.isSet(bandwidth)) {
        if (const int status = loaded(window.bandwidthView()->loadFile(parser.value(bandwidth))))
            return status;
    }
    if (parser.isSet(training)) {
        if (!window.extrapolatePanel()->loadTrainingFile(parser.value(training)))
            return fail(QStringLiteral("the training set %1 did not load").arg(parser.value(training)));
        window.extrapolatePanel()->waitForResult(); // trained in the background: shown once it arrives
        if (!window.extrapolatePanel()->model())
            return fail(QStringLiteral("the training set %1 was refused: %2")
                                .arg(parser.value(training), window.extrapolatePanel()->infoLabel()->text()));
    }
    for (const QString &file : parser.values(trace)) {
        const std::size_t before = window.traceState()->traces().size();
        if (const int status = loaded(window.tracesPanel()->importFile(file)))
            return status;
        // A plain CSV waits in the column-mapping dialog, which this tool does not fill in.
        if (window.traceState()->traces().size() == before)
            return fail(QStringLiteral("%1 gave no trace without its column mapping (import it in the window)")
                                .arg(file));
    }

    window.show();
    for (const QSize &size : std::as_const(windowSizes)) {
        window.resize(size);
        settle();
        for (const QString &view : std::as_const(wanted)) {
            if (!window.showView(view))
                return fail(QStringLiteral("unknown view '%1'").arg(view));
            settle();
            if (view == QLatin1String("stability"))
                window.stabilityView()->waitForMap();
            settle();
            const QString file = dir.filePath(QStringLiteral("%1%2-%3x%4.png")
                                                      .arg(parser.value(prefix), view)
                                                      .arg(size.width())
                                                      .arg(size.height()));
            if (!window.grab().save(file))
                return fail(QStringLiteral("cannot write %1").arg(file));
            std::printf("%s\n", qPrintable(file));
            const QList<QCustomPlot *> plots = window.figurePlots(view);
            if (!parser.isSet(zoomPan) || plots.isEmpty())
                continue;
            // Two wheel steps in at the plot's middle, then a drag of a tenth of its width, through the plot's
            // own event handling.
            QCustomPlot *plot = plots.first();
            const QPointF middle = plot->axisRect()->center();
            const QPointF global = plot->mapToGlobal(middle.toPoint());
            for (int step = 0; step < 2; ++step) {
                QWheelEvent wheel(middle, global, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                                  Qt::NoScrollPhase, false);
                QCoreApplication::sendEvent(plot, &wheel);
                settle();
            }
            const QPointF to = middle + QPointF(plot->axisRect()->width() / 10.0, 0);
            QMouseEvent press(QEvent::MouseButtonPress, middle, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(plot, &press);
            QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to.toPoint()), Qt::NoButton, Qt::LeftButton,
                             Qt::NoModifier);
            QCoreApplication::sendEvent(plot, &move);
            QMouseEvent release(QEvent::MouseButtonRelease, to, plot->mapToGlobal(to.toPoint()), Qt::LeftButton,
                                Qt::NoButton, Qt::NoModifier);
            QCoreApplication::sendEvent(plot, &release);
            settle();
            const QString zoomed = dir.filePath(QStringLiteral("%1%2-zoomed-%3x%4.png")
                                                        .arg(parser.value(prefix), view)
                                                        .arg(size.width())
                                                        .arg(size.height()));
            if (!window.grab().save(zoomed))
                return fail(QStringLiteral("cannot write %1").arg(zoomed));
            std::printf("%s\n", qPrintable(zoomed));
        }
        if (parser.isSet(sideBySide)) {
            window.sideBySide()->setActive(true);
            settle();
            window.stabilityView()->waitForMap();
            settle();
            const QString file = dir.filePath(QStringLiteral("%1side-by-side-%2x%3.png")
                                                      .arg(parser.value(prefix))
                                                      .arg(size.width())
                                                      .arg(size.height()));
            if (!window.grab().save(file))
                return fail(QStringLiteral("cannot write %1").arg(file));
            std::printf("%s\n", qPrintable(file));
            window.sideBySide()->setActive(false);
            settle();
        }
    }
    if (parser.isSet(figures)) {
        const QDir figureDir(parser.value(figures));
        if (!QDir().mkpath(figureDir.path()))
            return fail(QStringLiteral("cannot create %1").arg(figureDir.path()));
        for (const QString &view : std::as_const(wanted)) {
            window.showView(view);
            settle();
            for (const crossroof::widgets::FigurePreset &preset : crossroof::widgets::figurePresets()) {
                crossroof::widgets::FigureOptions options = crossroof::widgets::withPreset({}, preset);
                options.dpi = 110; // previews for the documentation; PDF and SVG are vector
                const QString file = figureDir.filePath(QStringLiteral("%1-%2.png").arg(view, preset.id));
                const QString error = crossroof::widgets::exportFigure(window.figurePlots(view), file, options);
                if (!error.isEmpty())
                    return fail(error);
                std::printf("%s\n", qPrintable(file));
            }
        }
    }
    return 0;
}
