# cpack.cmake - Debian packages of the components of packaging/CMakeLists.txt:
# "cpack -G DEB" in the build directory writes sysdig-c_<v>_amd64.deb,
# sysdig-c-dev_<v>_amd64.deb and sysdigc-dkms_<v>_all.deb.
set(CPACK_PACKAGE_NAME sysdig-c)
set(CPACK_PACKAGE_VENDOR "sysdig-c")
set(CPACK_PACKAGE_CONTACT "sysdig-c developers <sysdig-c@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "system call tracer compatible with sysdig 0.29.3")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL runtime dev dkms)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME sysdig-c)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# the eBPF driver is built in; the module is optional
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "${KMOD_NAME}-dkms (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "system call tracer compatible with sysdig 0.29.3
Captures system calls live with an eBPF driver or the sysdigc kernel module,
reads and writes .scap capture files, and runs sysdig's filters, output
formats and Lua chisels. Installed as ${SYSDIG_PROGRAM}, beside Debian's sysdig.")
if(PROGRAM_SUFFIX STREQUAL "")
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONFLICTS sysdig)
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_REPLACES sysdig)
endif()

set(CPACK_DEBIAN_DEV_PACKAGE_NAME sysdig-c-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "zlib1g-dev, libluajit-5.1-dev, libbpf-dev, libelf-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION "sysdig-c libraries: read .scap captures and evaluate filters
libsysdigc-scap (capture files, live engines) and libsysdigc-sinsp (thread and
fd state, fields, filters, formatter, chisels), headers and pkg-config files.")

set(CPACK_DEBIAN_DKMS_PACKAGE_NAME ${KMOD_NAME}-dkms)
set(CPACK_DEBIAN_DKMS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_DKMS_PACKAGE_SECTION kernel)
set(CPACK_DEBIAN_DKMS_PACKAGE_DEPENDS "dkms (>= 2.1), make")
set(CPACK_DEBIAN_DKMS_PACKAGE_RECOMMENDS "linux-headers-amd64")
set(CPACK_DEBIAN_DKMS_DESCRIPTION "sysdig-c kernel module (DKMS source)
The ${KMOD_NAME} capture driver of sysdig-c (/dev/${KMOD_NAME}*), built by DKMS for
every installed kernel with headers.")
set(DKMS_MODULE ${KMOD_NAME})
set(DKMS_VERSION ${PROJECT_VERSION})
foreach(script postinst prerm)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/deb/dkms.${script}.in
    ${CMAKE_CURRENT_BINARY_DIR}/deb/${script} @ONLY FILE_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(CPACK_DEBIAN_DKMS_PACKAGE_CONTROL_EXTRA
  ${CMAKE_CURRENT_BINARY_DIR}/deb/postinst ${CMAKE_CURRENT_BINARY_DIR}/deb/prerm)
set(CPACK_DEBIAN_DKMS_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
