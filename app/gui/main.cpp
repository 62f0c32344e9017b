// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>

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
    parser.addPositionalArgument(QStringLiteral("profile"),
                                 QStringLiteral("A bundled profile id or a profile JSON file to open."), QStringLiteral("[profile]"));
    parser.process(app);

    crossroof::app::MainWindow window;
    if (!parser.positionalArguments().isEmpty())
        window.selectProfile(parser.positionalArguments().constFirst());
    window.show();
    return QApplication::exec();
}
