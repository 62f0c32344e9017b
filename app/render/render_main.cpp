// SPDX-License-Identifier: GPL-3.0-or-later
// crossroof-render: "crossroof-cli render" with the GUI's drawing code. crossroof-cli runs it (from
// ../libexec/crossroof/ when installed) with the arguments that followed "render".
#include "cli.h"
#include "core/support/quote.h"
#include "render_command.h"

#include <exception>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    try {
        std::vector<std::string> args{"render"};
        args.insert(args.end(), argv + 1, argv + argc);
        const crossroof::cli::Command *extra[] = {&crossroof::cli::kRenderCommand};
        return crossroof::cli::run(args, std::cout, std::cerr, extra);
    } catch (const std::exception &e) {
        std::cerr << crossroof::core::shortMessage(std::string("crossroof-cli render: internal error: ") + e.what()) << '\n';
        return 1;
    }
}
