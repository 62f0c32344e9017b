// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Crossroof"));
    QApplication::setOrganizationName(QStringLiteral("Crossroof"));
    QApplication::setApplicationVersion(QStringLiteral(CROSSROOF_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("crossroof"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/hicolor/256x256/apps/crossroof.png")));

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
    parser.process(app);

    crossroof::app::MainWindow window;
    if (!parser.positionalArguments().isEmpty()) {
        const QString file = parser.positionalArguments().constFirst();
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
    window.show();
    window.offerRecovery();
    return QApplication::exec();
}
