# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the two .deb packages into a scratch directory and checks what a user installing them relies on:
# crossroof-cli (the CLI, its man page and completion; Depends on no Qt) and crossroof (the GUI, the render
# helper, desktop entry, MIME type, icon and metainfo; Depends on crossroof-cli of the same version, the Qt
# libraries, QCustomPlot and the platform plugins). docs/PACKAGING.md.
# Run by ctest as: cmake -DBUILD_DIR=... -DOUT_DIR=... -DVERSION=... -P check_package.cmake
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
execute_process(COMMAND cpack --config "${BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${OUT_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack failed:\n${out}")
endif()

function(expect_one pattern var)
    file(GLOB found "${OUT_DIR}/${pattern}")
    list(LENGTH found count)
    if(NOT count EQUAL 1)
        message(FATAL_ERROR "expected one ${pattern} in ${OUT_DIR}, found ${count}")
    endif()
    set(${var} "${found}" PARENT_SCOPE)
endfunction()
expect_one("crossroof_*.deb" gui)
expect_one("crossroof-cli_*.deb" cli)

function(expect_depends deb)
    execute_process(COMMAND dpkg-deb -f "${deb}" Depends OUTPUT_VARIABLE depends)
    foreach(dep IN LISTS ARGN)
        string(FIND "${depends}" "${dep}" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "${deb}: Depends lacks ${dep}: ${depends}")
        endif()
    endforeach()
    set(depends "${depends}" PARENT_SCOPE)
endfunction()
function(expect_files deb)
    execute_process(COMMAND dpkg-deb -c "${deb}" OUTPUT_VARIABLE contents)
    foreach(path IN LISTS ARGN)
        string(FIND "${contents}" "${path}\n" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "${deb} lacks ${path}")
        endif()
    endforeach()
    set(contents "${contents}" PARENT_SCOPE)
endfunction()

expect_depends("${gui}" "crossroof-cli (= ${VERSION})" libqt6widgets6 libqt6printsupport6 libqt6svg6
               libqcustomplot2.1-qt6 qt6-qpa-plugins)
expect_files("${gui}" ./usr/bin/crossroof ./usr/libexec/crossroof/crossroof-render
             ./usr/share/applications/crossroof.desktop ./usr/share/icons/hicolor/256x256/apps/crossroof.png
             ./usr/share/metainfo/io.crossroof.Crossroof.metainfo.xml ./usr/share/mime/packages/crossroof.xml
             ./usr/share/man/man1/crossroof.1.gz ./usr/share/doc/crossroof/copyright)
string(FIND "${contents}" "./usr/bin/crossroof-cli\n" at)
if(NOT at EQUAL -1)
    message(FATAL_ERROR "${gui} holds crossroof-cli, which is in the crossroof-cli package")
endif()

expect_depends("${cli}" libc6 libstdc++6)
string(REGEX MATCH "qt|qcustomplot" qt "${depends}")
if(qt)
    message(FATAL_ERROR "${cli}: Depends names Qt: ${depends}")
endif()
expect_files("${cli}" ./usr/bin/crossroof-cli ./usr/share/man/man1/crossroof-cli.1.gz
             ./usr/share/bash-completion/completions/crossroof-cli ./usr/share/zsh/vendor-completions/_crossroof-cli
             ./usr/share/doc/crossroof-cli/copyright ./usr/share/doc/crossroof-cli/changelog.gz)
foreach(gui_file ./usr/bin/crossroof\n ./usr/share/applications/)
    string(FIND "${contents}" "${gui_file}" at)
    if(NOT at EQUAL -1)
        message(FATAL_ERROR "${cli} holds ${gui_file}, which belongs to the crossroof package")
    endif()
endforeach()
file(REMOVE_RECURSE "${OUT_DIR}")
message(STATUS "packages ok: ${gui} ${cli}")
