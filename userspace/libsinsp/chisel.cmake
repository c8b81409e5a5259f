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
set(CHISEL_INSTALL_DIR ${CMAKE_INSTALL_FULL_DATADIR}/sysdig-c/chisels)
set_property(SOURCE
  ${CMAKE_CURRENT_SOURCE_DIR}/chisel.c
  APPEND PROPERTY COMPILE_DEFINITIONS
  CHISEL_INSTALL_DIR="${CHISEL_INSTALL_DIR}"
  CHISEL_SOURCE_DIR="${PROJECT_SOURCE_DIR}/chisels")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/chisels/ DESTINATION ${CMAKE_INSTALL_DATADIR}/sysdig-c/chisels
  FILES_MATCHING PATTERN "*.lua")
