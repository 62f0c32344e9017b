# SPDX-License-Identifier: GPL-3.0-or-later
# Read by cpack for every generator (CPACK_PROJECT_CONFIG_FILE). The source package (TGZ, from
# CPackSourceConfig.cmake) keeps the repository's layout under crossroof-VERSION/, not under usr/.
if(CPACK_GENERATOR MATCHES "^(TGZ|TXZ|TBZ2|ZIP)$")
    set(CPACK_PACKAGING_INSTALL_PREFIX "")
    set(CPACK_SET_DESTDIR OFF)
endif()
# CPackDeb puts CPACK_PACKAGE_DESCRIPTION_SUMMARY in front of CPACK_DEBIAN_<COMPONENT>_DESCRIPTION unless it
# is CPack's default; each component's description starts with its own synopsis (installer/CMakeLists.txt).
if(CPACK_GENERATOR STREQUAL "DEB")
    set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CPACK_DEFAULT_PACKAGE_DESCRIPTION_SUMMARY}")
endif()
