# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the .deb into a scratch directory and checks what a user installing it relies on: both executables,
# the desktop entry and icon, and Depends naming the Qt libraries, QCustomPlot and the platform plugins.
# Run by ctest as: cmake -DBUILD_DIR=... -DOUT_DIR=... -P check_package.cmake
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
execute_process(COMMAND cpack --config "${BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${OUT_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack failed:\n${out}")
endif()
file(GLOB debs "${OUT_DIR}/crossroof_*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one crossroof_*.deb in ${OUT_DIR}, found ${count}")
endif()
execute_process(COMMAND dpkg-deb -f "${debs}" Depends OUTPUT_VARIABLE depends)
foreach(dep libqt6widgets6 libqt6printsupport6 libqt6svg6 libqcustomplot2.1-qt6 qt6-qpa-plugins)
    string(FIND "${depends}" "${dep}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "Depends lacks ${dep}: ${depends}")
    endif()
endforeach()
execute_process(COMMAND dpkg-deb -c "${debs}" OUTPUT_VARIABLE contents)
foreach(path ./usr/bin/crossroof ./usr/bin/crossroof-cli ./usr/share/applications/crossroof.desktop
             ./usr/share/icons/hicolor/256x256/apps/crossroof.png ./usr/share/metainfo/io.crossroof.Crossroof.metainfo.xml)
    string(FIND "${contents}" "${path}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the package lacks ${path}")
    endif()
endforeach()
file(REMOVE_RECURSE "${OUT_DIR}")
message(STATUS "package ok: ${debs}")
