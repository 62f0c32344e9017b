// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs crossroof-cli in process for the CLI tests: exit status, standard output and standard error.

#include "cli.h"

#include <nlohmann/json.hpp>

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QtGlobal>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace crossroof::test {

struct CliRun
{
    int status;
    std::string out;
    std::string err;
};

inline CliRun run(const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    const int status = cli::run(args, out, err);
    return {status, out.str(), err.str()};
}

/// The JSON a successful run prints (a failure's message goes to the test log).
inline nlohmann::json runJson(const std::vector<std::string> &args)
{
    const CliRun r = run(args);
    if (r.status != 0)
        qWarning("%s", r.err.c_str());
    return nlohmann::json::parse(r.out);
}

/// Writes TEXT to the file NAME in DIR (as it is, bytes and all) and returns its path.
inline std::string writeFile(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const std::string path = (dir.path() + QLatin1Char('/') + QLatin1String(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// Bad usage or input: exit status 2, one line on stderr that contains MESSAGE, nothing on stdout.
inline void expectUsageError(const QStringList &args, const QString &message)
{
    std::vector<std::string> argv;
    for (const QString &a : args)
        argv.push_back(a.toStdString());
    const CliRun r = run(argv);
    QCOMPARE(r.status, 2);
    const QString e = QString::fromStdString(r.err);
    QVERIFY2(e.contains(message), qPrintable(e));
    QCOMPARE(e.count(QLatin1Char('\n')), 1); // one line
    QVERIFY(r.out.empty());
}

} // namespace crossroof::test
