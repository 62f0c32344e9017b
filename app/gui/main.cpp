// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"
#include "window_layout.h"

#include "common/native_path.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCommandLineParser>
#include <QScreen>

#include <cstdio>

namespace {

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("Crossroof"));
    QCoreApplication::setOrganizationName(QStringLiteral("Crossroof"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CROSSROOF_VERSION));
}

/// The command-line argument that Qt decoded as ARGUMENT, as the path it names: Qt turns each byte that is not
/// UTF-8 (a Latin-1 folder name) into U+FFFD, which names no file; the bytes in ARGV do.
QString argumentPath(int argc, char **argv, const QString &argument)
{
    for (int i = 1; i < argc; ++i) {
        if (QString::fromLocal8Bit(argv[i]) == argument)
            return crossroof::widgets::pathFromNative(argv[i]);
    }
    return argument;
}

} // namespace

int main(int argc, char **argv)
{
    setIdentity();
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Visual analyzer for analytic performance models"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A session (.crossroof), a bundled profile id or a profile JSON file to open."),
                                 QStringLiteral("[file]"));
    const QCommandLineOption viewOption(QStringLiteral("view"),
                                        QStringLiteral("The view to show first: %1.")
                                            .arg(crossroof::app::MainWindow::viewNames().join(QStringLiteral(", "))),
                                        QStringLiteral("name"));
    parser.addOption(viewOption);

    // --help and --version are answered before QApplication exists: QApplication needs a display, and
    // "crossroof --help" should work over ssh and in a build log; QCoreApplication needs none. Anything else,
    // bad options included, is left to parser.process below, once QApplication has taken its own options
    // (-platform, -style, ...). --help-all, which lists those, needs QApplication too.
    {
        QStringList arguments;
        for (int i = 0; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
        QCommandLineParser probe;
        const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help"), QStringLiteral("?")},
                                      QString());
        const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")}, QString());
        probe.addOptions({help, version, viewOption});
        probe.parse(arguments); // errors are reported by parser.process
        if (probe.isSet(help) || probe.isSet(version)) {
            QCoreApplication core(argc, argv);
            if (probe.isSet(help))
                parser.showHelp(0); // exits
            parser.showVersion();   // exits
        }
    }

    QApplication app(argc, argv);
    QApplication::setDesktopFileName(QStringLiteral("crossroof"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/hicolor/256x256/apps/crossroof.png")));
    parser.process(app);

    crossroof::app::MainWindow window;
    if (!parser.positionalArguments().isEmpty()) {
        const QString file = argumentPath(argc, argv, parser.positionalArguments().constFirst());
        if (file.endsWith(QLatin1String(".crossroof")))
            window.openSession(file);
        else
            window.selectProfile(file);
    }
    if (parser.isSet(viewOption) && !window.showView(parser.value(viewOption))) {
        const QString message = QStringLiteral("crossroof: unknown view '%1' (choose from %2)\n")
                                    .arg(parser.value(viewOption),
                                         crossroof::app::MainWindow::viewNames().join(QStringLiteral(", ")));
        std::fputs(message.toLocal8Bit().constData(), stderr);
        return 2;
    }
    crossroof::app::WindowLayout::showAtStart(&window, window.screen()->availableGeometry());
    window.offerRecovery();
    return QApplication::exec();
}
