// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-cli render without Qt: crossroof-cli hands the command to the crossroof-render helper, which links
// the GUI's drawing code, so that crossroof-cli itself needs no Qt (the crossroof-cli package does not depend
// on the GUI's libraries; the helper comes with the crossroof package).
#include "commands.h"
#include "core/support/error.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <system_error>

namespace crossroof::cli {

const char *const kRenderSummary = "draw a view of a session to PDF, SVG or PNG";

const char *const kRenderHelp =
    "Usage: crossroof-cli render --session FILE --view VIEW --out FILE.(pdf|svg|png)\n"
    "                            [--preset single|double|slide] [--width-mm W --height-mm H] [--dpi D]\n"
    "                            [--font FAMILY] [--font-pt P] [--min-font-pt P] [--line-pt L]\n"
    "                            [--greyscale]\n\n"
    "Draws one view of a saved session to a figure with exactly the GUI's drawing code, so figures for papers\n"
    "can be made again from scripts. PDF and SVG are vector and clipped to each plot; PNG uses --dpi.\n\n"
    "  --session FILE   a session saved by Crossroof (File > Save Session)\n"
    "  --view VIEW      the view to draw: xgraph, stability, occupancy, zigzag, markov, mapping, extrapolate,\n"
    "                   bandwidth, roofline, prediction, levels or skeleton; one with nothing to draw\n"
    "                   (extrapolate without training runs) is refused\n"
    "  --out FILE       the figure; the format follows the extension\n"
    "  --preset NAME    the Export dialog's sizes with their text and line widths: single (85 x 60 mm,\n"
    "                   8 pt, 0.5 pt lines), double (175 x 90 mm, 9 pt, 0.75 pt lines) or slide\n"
    "                   (254 x 142.9 mm, 18 pt, never below 16 pt, 1 pt lines); the options below change it\n"
    "  --width-mm W     figure width in mm (default 85, a single journal column)\n"
    "  --height-mm H    figure height in mm (default 60)\n"
    "  --dpi D          resolution of PNG output (default 300)\n"
    "  --font FAMILY    font family of all text (default: the application's); the SVG names it\n"
    "  --font-pt P      font size in points (default 8)\n"
    "  --min-font-pt P  no text smaller, not even a crowded legend (default 7)\n"
    "  --line-pt L      width of a thin line in points; markers and ticks scale with it (default 0.5)\n"
    "  --greyscale      greys, dashes and markers instead of colour; every fill grey\n";

namespace {

/// The helper: beside this executable (a build tree), or in ../libexec/crossroof/ (an installation).
std::filesystem::path renderHelper()
{
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    const std::filesystem::path dir = self.parent_path();
    for (const std::filesystem::path &candidate :
         {dir / "crossroof-render", dir.parent_path() / "libexec" / "crossroof" / "crossroof-render"}) {
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

void runRenderProxy(const std::vector<std::string> &args, std::ostream &out)
{
    const std::filesystem::path helper = renderHelper();
    if (helper.empty()) {
        throw core::InputError("the render command draws with the GUI's code, which is not installed "
                               "(install the crossroof package; it has the crossroof-render helper)");
    }
    std::vector<std::string> strings{helper.string()};
    strings.insert(strings.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &s : strings)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    out.flush();
    std::cerr.flush();
    // The helper draws offscreen whatever platform the environment names (one that cannot load aborts Qt).
    ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ::execv(helper.c_str(), argv.data());
    throw core::InputError("cannot run " + helper.string() + " (" + std::strerror(errno) + ")");
}

} // namespace

const Command kRenderProxyCommand{"render", kRenderSummary, kRenderHelp, runRenderProxy};

} // namespace crossroof::cli
