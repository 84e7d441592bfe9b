# Compiles through ccache when it is installed (Debian's `ccache`), so that a
# second build of the same sources, in this checkout or in a fresh clone such
# as CI's, reuses the objects of the first. The cache lives outside the clone
# (ccache's default, ~/.cache/ccache). -DTRAINSCOPE_CCACHE=OFF turns it off.
#
# Why the settings:
# - base_dir = the source tree and no hashing of the build directory: a clone
#   in another folder hits the same entries (line tables then name the first
#   clone's paths, which only a debugger notices).
# - sloppiness pch_defines,time_macros: the shared precompiled headers
#   (trainscope_torch_pch, the Qt one) are otherwise never cached.
option(TRAINSCOPE_CCACHE "Compile through ccache when it is installed" ON)
if(NOT TRAINSCOPE_CCACHE OR CMAKE_CXX_COMPILER_LAUNCHER)
  return()
endif()
find_program(TRAINSCOPE_CCACHE_PROGRAM ccache)
if(NOT TRAINSCOPE_CCACHE_PROGRAM)
  return()
endif()
set(CMAKE_CXX_COMPILER_LAUNCHER
    ${CMAKE_COMMAND} -E env
    CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}
    CCACHE_NOHASHDIR=1
    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    ${TRAINSCOPE_CCACHE_PROGRAM})
message(STATUS "Compiling through ccache: ${TRAINSCOPE_CCACHE_PROGRAM}")
