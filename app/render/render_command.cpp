// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli render: the GUI's drawing code, headless, so figures are reproducible from scripts.
#include "args.h"
#include "command_support.h"
#include "render_command.h"
#include "common/native_path.h"
#include "core/profiles/profile_identity.h"
#include "core/profiles/profile_library.h"
#include "core/support/error.h"
#include "core/support/quote.h"
#include "core/support/utf8.h"
#include "common/parameter_state.h"
#include "export/figure_export.h"
#include "core/session/session.h"
#include "main_window.h"

#include <QApplication>
#include <QFontDatabase>

#include <filesystem>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <ostream>

namespace crossroof::cli {

namespace {

/// Qt's messages, less the offscreen platform's notices: that XDG_RUNTIME_DIR is unset ("defaulting to
/// '/tmp/runtime-root'", under cron, in a container or over ssh) and that it does not pass on a shown window's
/// size hints. Nothing a user of a figure acts on, and they made every refusal two lines instead of one.
void withoutPlatformNotices(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg
        && (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))
            || message == QLatin1String("This plugin does not support propagateSizeHints()")))
        return;
    std::cerr << core::shortMessage(qFormatLogMessage(type, context, message).toStdString()) << '\n';
}

using core::InputError;

/// The most pixels a PNG may have: 8000 x 8000, a slide (254 x 142.9 mm) at 800 dpi.
constexpr long long kMaxPngPixels = 64'000'000;
/// The most visible traces a figure draws (each with its legend entry).
constexpr long kMaxVisibleTraces = 500;

void runRender(const std::vector<std::string> &argv, std::ostream &out)
{
    const Args args(argv, {{"greyscale"}, {"session", "view", "out", "preset", "width-mm", "height-mm", "dpi", "font", "font-pt", "min-font-pt", "line-pt"}, {}});
    for (const char *required : {"session", "view", "out"}) {
        if (!args.has(required))
            throw InputError(std::string("option '--") + required + "' is required");
    }
    const QString view = QString::fromStdString(args.value("view"));
    if (!app::MainWindow::viewNames().contains(view)) {
        throw InputError("option '--view': unknown view '" + args.value("view") + "' (choose from "
                         + app::MainWindow::viewNames().join(QStringLiteral(", ")).toStdString() + ")");
    }
    // The path's bytes as the system takes them: QString::fromStdString() would turn a Latin-1 byte into U+FFFD
    // and write to another name (or fail with "No such file" in a Latin-1 named folder).
    const QString outPath = widgets::pathFromNative(args.value("out"));
    if (!widgets::figureFormatForPath(outPath))
        throw InputError("option '--out': " + args.value("out") + ": choose a file name ending in .pdf, .svg or .png");
    widgets::FigureOptions options;
    if (args.has("preset")) {
        // The presets of the Export dialog; options given beside one change it.
        const QString id = QString::fromStdString(args.value("preset"));
        const std::optional<widgets::FigurePreset> preset = widgets::figurePreset(id);
        if (!preset) {
            QStringList ids;
            for (const widgets::FigurePreset &p : widgets::figurePresets())
                ids << p.id;
            throw InputError("option '--preset': unknown preset '" + core::quoteForMessage(args.value("preset"))
                             + "' (choose from " + ids.join(QStringLiteral(", ")).toStdString() + ")");
        }
        options = widgets::withPreset(options, *preset);
    }
    options.width_mm = args.number("width-mm", options.width_mm, 10, 1000);
    options.height_mm = args.number("height-mm", options.height_mm, 10, 1000);
    options.dpi = int(args.number("dpi", options.dpi, 30, 2400));
    options.font_family = QString::fromStdString(args.value("font"));
    options.font_pt = int(args.number("font-pt", options.font_pt, 4, 48));
    options.min_font_pt = int(args.integer("min-font-pt", options.min_font_pt, 0, 48));
    options.line_pt = args.number("line-pt", options.line_pt, 0.1, 4);
    if (args.flag("greyscale"))
        options.style = widgets::FigureStyle::Greyscale;
    // A PNG is drawn whole in memory: bounded before drawing (1000 x 1000 mm at 355 dpi took 20 s).
    const auto pixels = [&options](double mm) { return std::llround(mm / 25.4 * options.dpi); };
    if (*widgets::figureFormatForPath(outPath) == widgets::FigureFormat::Png
        && pixels(options.width_mm) * pixels(options.height_mm) > kMaxPngPixels) {
        throw InputError("option '--dpi': " + std::to_string(pixels(options.width_mm)) + " x "
                         + std::to_string(pixels(options.height_mm)) + " pixels at " + std::to_string(options.dpi)
                         + " dpi, more than a PNG may have (" + std::to_string(kMaxPngPixels / 1'000'000)
                         + " megapixels); lower --dpi or the size, or choose .pdf or .svg");
    }

    refuseOutputOverInput(args, "out", {"session"});
    core::Session session = core::loadSessionFile(args.value("session"));
    // A figure without a trace the session links to would be wrong without saying so.
    if (!session.trace_problems.empty())
        throw InputError(session.trace_problems.front());
    // No legend shows thousands of traces, and each costs its layout (5,000 took 93 s).
    const auto visible = std::count_if(session.traces.begin(), session.traces.end(),
                                       [](const core::MeasuredTrace &t) { return t.visible; });
    if (visible > kMaxVisibleTraces) {
        throw InputError(args.value("session") + ": " + std::to_string(visible) + " visible traces, more than a figure "
                         + "draws (" + std::to_string(kMaxVisibleTraces) + "); hide some in Crossroof and save again");
    }
    // A QApplication for drawing, always offscreen: a figure needs no display, and a platform named in
    // QT_QPA_PLATFORM that cannot load here (xcb without DISPLAY, over ssh or in a container, or a misspelt
    // name) would abort the process. It outlives the window.
    static int argc = 1;
    static char name[] = "crossroof-cli";
    static char *appArgv[] = {name, nullptr};
    std::optional<QApplication> application;
    if (!QCoreApplication::instance()) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        qInstallMessageHandler(withoutPlatformNotices);
        application.emplace(argc, appArgv);
    }
    // The family as named: a font that is not installed would silently become another.
    if (!options.font_family.isEmpty() && !QFontDatabase::hasFamily(options.font_family)) {
        throw InputError("option '--font': no font family '" + core::quoteForMessage(args.value("font"))
                         + "' is installed (fc-list : family lists them)");
    }
    // Laid out as on a screen (on the offscreen platform: nothing is drawn to a display). A window never shown
    // keeps its views at their default sizes, and the roofline placed its kernels' names for a plot too small
    // to hold any: a rendered roofline named no kernel where Export Figure names several.
    app::MainWindow window;
    window.resize(1280, 800);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.show();
    const QStringList problems = window.applySession(std::move(session)); // its traces are not copied
    if (!problems.isEmpty())
        throw InputError(args.value("session") + ": " + problems.front().toStdString());
    window.showView(view);
    window.settleView(view); // a view's background work (a map refined, model trees trained) is done
    if (const QString nothing = window.nothingToDraw(view); !nothing.isEmpty()) {
        throw InputError("option '--view': the " + view.toStdString() + " view of " + args.value("session")
                         + " has nothing to draw (" + nothing.toStdString() + "); nothing was written");
    }
    const QString error = widgets::exportFigure(window.figurePlots(view), outPath, options);
    if (!error.isEmpty())
        throw InputError(error.toStdString());
    out << "wrote " << core::escapeInvalidUtf8(args.value("out")) << " (" << options.width_mm << " x " << options.height_mm << " mm)\n";
    // As in the GUI, a profile the session embeds that differs from the library's of its id is the session's own,
    // and said to be.
    const core::HardwareProfile &profile = window.state()->profile();
    if (profile.origin.starts_with("session ")) {
        try {
            const std::vector<std::string> differences
                    = core::profileDifferences(core::resolveProfile(profile.id), profile);
            if (!differences.empty()) {
                const std::string file = std::filesystem::path(args.value("session")).filename().string();
                out << "profile: " << core::escapeInvalidUtf8(core::embeddedProfileLabel(profile, file, differences))
                    << " (the session's own values, not the library's)\n";
            }
        } catch (const InputError &) {
            // No library profile has its id: the session's is the only one.
        }
    }
}

} // namespace

const Command kRenderCommand{"render", kRenderSummary, kRenderHelp, runRender};

} // namespace crossroof::cli
