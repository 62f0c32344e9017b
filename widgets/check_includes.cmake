# SPDX-License-Identifier: GPL-3.0-or-later
# Refuses a widgets library whose files include a widgets folder it does not link: run by
# crossroof_widgets_library() with FOLDERS (every widgets folder), ALLOWED (the library's own folder and the
# widgets libraries it links), FILES (its sources) and STAMP (touched when every include is allowed).

cmake_minimum_required(VERSION 3.25)

set(refused "")
foreach(file IN LISTS FILES)
    file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(line IN LISTS includes)
        if(line MATCHES "include[ \t]*[\"<]([^/\">]+)/")
            set(folder "${CMAKE_MATCH_1}")
            if(folder IN_LIST FOLDERS AND NOT folder IN_LIST ALLOWED)
                string(APPEND refused "\n  ${file}: ${line}")
            endif()
        endif()
    endforeach()
endforeach()
if(refused)
    message(FATAL_ERROR "These files include a widgets folder their library does not link "
                        "(allowed: ${ALLOWED}; shared state belongs in state/):${refused}")
endif()
file(TOUCH "${STAMP}")
