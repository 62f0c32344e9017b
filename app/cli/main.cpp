// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "core/support/quote.h"
#include "commands.h"

#include <exception>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    try {
        // "render" runs the crossroof-render helper (commands.h): crossroof-cli links no Qt.
        const crossroof::cli::Command *extra[] = {&crossroof::cli::kRenderProxyCommand};
        return crossroof::cli::run({argv + 1, argv + argc}, std::cout, std::cerr, extra);
    } catch (const std::exception &e) {
        // Bundled data that fails to load is a packaging defect; say so rather than abort.
        std::cerr << crossroof::core::shortMessage(std::string("crossroof-cli: internal error: ") + e.what()) << '\n';
        return 1;
    }
}
