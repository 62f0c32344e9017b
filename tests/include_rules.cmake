# SPDX-License-Identifier: GPL-3.0-or-later
# The layers' include rules (docs/ARCHITECTURE.md), checked on every source file: run by ctest as the test
# include_rules (tests/CMakeLists.txt) with
#   SOURCE_DIR  the repository root
#   LIBRARIES   the core libraries, as folder names (support|xmodel|...)
#   LINKS_<lib> the crossroof_* targets core library <lib> links, PUBLIC and PRIVATE ('|' between them): its
#               target's LINK_LIBRARIES, so the allowed graph is the one CMake links.
# It fails, naming every file and line, where
#   - a file in core/ includes a Qt header (or QCustomPlot), or anything of widgets/ or app/;
#   - a file in core/<lib>/ includes core/<other>/ while crossroof_<lib> does not link crossroof_<other>;
#   - a file in widgets/ outside state/ includes core/session/session.h: a view includes the settings type it
#     edits from that model's folder (core/markov/markov_settings.h, ...); only the state that several views
#     share may gather a whole session.

cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" LIBRARIES "${LIBRARIES}")
set(refused "")
set(include_regex "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]")

foreach(lib IN LISTS LIBRARIES)
    string(REPLACE "|" ";" links "${LINKS_${lib}}")
    set(allowed ${lib})
    foreach(link IN LISTS links)
        if(link MATCHES "^crossroof_([a-z]+)$" AND CMAKE_MATCH_1 IN_LIST LIBRARIES)
            list(APPEND allowed ${CMAKE_MATCH_1})
        endif()
    endforeach()
    file(GLOB_RECURSE files "${SOURCE_DIR}/core/${lib}/*.h" "${SOURCE_DIR}/core/${lib}/*.cpp"
         "${SOURCE_DIR}/core/${lib}/*.in")
    foreach(file IN LISTS files)
        file(STRINGS "${file}" lines REGEX "${include_regex}")
        file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
        foreach(line IN LISTS lines)
            if(NOT line MATCHES "${include_regex}")
                continue()
            endif()
            set(header "${CMAKE_MATCH_1}")
            if(header MATCHES "^(Q[A-Za-z0-9_]*|Qt[A-Za-z]*/.*|qcustomplot\\.h)$")
                string(APPEND refused "\n  ${name}: ${line}   (core/ includes no Qt)")
            elseif(header MATCHES "^(widgets|app)/")
                string(APPEND refused "\n  ${name}: ${line}   (core/ includes nothing above it)")
            elseif(header MATCHES "^core/([a-z_]+)/" AND NOT CMAKE_MATCH_1 IN_LIST allowed)
                list(JOIN allowed ", " may)
                string(APPEND refused "\n  ${name}: ${line}   (crossroof_${lib} links no crossroof_${CMAKE_MATCH_1}; "
                                      "it may include core/ ${may})")
            endif()
        endforeach()
    endforeach()
endforeach()

file(GLOB_RECURSE files "${SOURCE_DIR}/widgets/*.h" "${SOURCE_DIR}/widgets/*.cpp")
foreach(file IN LISTS files)
    file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
    if(name MATCHES "^widgets/state/")
        continue()
    endif()
    file(STRINGS "${file}" lines REGEX "${include_regex}")
    foreach(line IN LISTS lines)
        if(line MATCHES "[\"<]core/session/session\\.h[\">]")
            string(APPEND refused "\n  ${name}: ${line}   (a view includes its settings from its model's folder)")
        endif()
    endforeach()
endforeach()

if(refused)
    message(FATAL_ERROR "Includes against the layers' rules (docs/ARCHITECTURE.md):${refused}")
endif()
list(LENGTH LIBRARIES count)
message(STATUS "The include rules hold for ${count} core libraries and the widgets.")
