# SPDX-License-Identifier: GPL-3.0-or-later
# Files embedded in a core library as C++ string literals, the one way the bundled profiles, the sample
# skeletons and the compute-capability limits get into the build.
#
# Included: crossroof_embed_files(OUTPUT TEMPLATE FILES... COMMENT) generates OUTPUT from TEMPLATE at build
# time, again whenever a file, the template or this script changes.
# Run with cmake -P (by that command): fills TEMPLATE's @EMBED_COUNT@ (the number of files), @EMBED_ENTRIES@
# (one line `    {"NAME", R"...(TEXT)..."},` per file, NAME without its folder) and @EMBED_TEXT@ (the raw
# string literal of the first file) and writes OUTPUT, touching it only when its text changed.

if(NOT CMAKE_SCRIPT_MODE_FILE)
    function(crossroof_embed_files)
        cmake_parse_arguments(ARG "" "OUTPUT;TEMPLATE;COMMENT" "FILES" ${ARGN})
        string(REPLACE ";" "|" inputs "${ARG_FILES}")
        add_custom_command(
            OUTPUT "${ARG_OUTPUT}"
            COMMAND "${CMAKE_COMMAND}" "-DOUTPUT=${ARG_OUTPUT}" "-DTEMPLATE=${ARG_TEMPLATE}" "-DINPUTS=${inputs}"
                    -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
            DEPENDS ${ARG_FILES} "${ARG_TEMPLATE}" "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
            COMMENT "${ARG_COMMENT}"
            VERBATIM)
    endfunction()
    return()
endif()

set(embed_delimiter "crossroof_embed")
string(REPLACE "|" ";" INPUTS "${INPUTS}")
list(LENGTH INPUTS EMBED_COUNT)
set(EMBED_ENTRIES "")
set(EMBED_TEXT "")
foreach(file IN LISTS INPUTS)
    get_filename_component(name "${file}" NAME)
    file(READ "${file}" content)
    string(FIND "${content}" ")${embed_delimiter}\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "${file} contains the raw-string delimiter")
    endif()
    set(literal "R\"${embed_delimiter}(${content})${embed_delimiter}\"")
    if(EMBED_TEXT STREQUAL "")
        set(EMBED_TEXT "${literal}")
    endif()
    string(APPEND EMBED_ENTRIES "    {\"${name}\", ${literal}},\n")
endforeach()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
