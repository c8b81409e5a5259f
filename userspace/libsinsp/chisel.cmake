# chisel.cmake - links the Lua runtime into libsinsp for the chisel engine
# (chisel*.c).  Included by libsinsp's CMakeLists.txt.  LuaJIT by default;
# -DUSE_PUC_LUA=ON uses PUC Lua 5.1 instead (same C API).
option(USE_PUC_LUA "Build the chisel runtime against PUC Lua 5.1 instead of LuaJIT" OFF)
find_package(PkgConfig REQUIRED)
if(USE_PUC_LUA)
  pkg_check_modules(CHISEL_LUA REQUIRED lua5.1)
else()
  pkg_check_modules(CHISEL_LUA REQUIRED luajit)
endif()
target_include_directories(sinsp PUBLIC ${CHISEL_LUA_INCLUDE_DIRS})
target_link_directories(sinsp PUBLIC ${CHISEL_LUA_LIBRARY_DIRS})
target_link_libraries(sinsp PUBLIC ${CHISEL_LUA_LIBRARIES} ${CMAKE_DL_LIBS})
# Programs find the chisels relative to their own directory (bindir ->
# datadir/sysdig-c/chisels), so an installed tree works wherever it is put
# (DESTDIR, moved prefix) and no build-tree path is compiled in; the build
# tree gets a symbolic link to the source chisels at the same relative place
# next to userspace/sysdig/.  packaging/ installs the chisels there.
set(CHISEL_INSTALL_DIR ${CMAKE_INSTALL_FULL_DATADIR}/sysdig-c/chisels)
file(RELATIVE_PATH CHISEL_DIR_FROM_BIN ${CMAKE_INSTALL_FULL_BINDIR} ${CHISEL_INSTALL_DIR})
set_property(SOURCE
  ${CMAKE_CURRENT_SOURCE_DIR}/chisel.c
  APPEND PROPERTY COMPILE_DEFINITIONS
  CHISEL_INSTALL_DIR="${CHISEL_INSTALL_DIR}"
  CHISEL_DIR_FROM_BIN="${CHISEL_DIR_FROM_BIN}")
get_filename_component(CHISEL_BUILD_LINK
  ${PROJECT_BINARY_DIR}/userspace/sysdig/${CHISEL_DIR_FROM_BIN} ABSOLUTE)
string(FIND "${CHISEL_BUILD_LINK}" "${PROJECT_BINARY_DIR}/" CHISEL_LINK_IN_BUILD)
if(CHISEL_LINK_IN_BUILD EQUAL 0 AND NOT EXISTS ${CHISEL_BUILD_LINK})
  get_filename_component(d ${CHISEL_BUILD_LINK} DIRECTORY)
  file(MAKE_DIRECTORY ${d})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/chisels ${CHISEL_BUILD_LINK} SYMBOLIC)
endif()
