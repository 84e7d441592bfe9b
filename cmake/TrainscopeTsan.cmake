# TRAINSCOPE_TSAN: every library of this build is compiled with
# ThreadSanitizer, and only tests/tsan/ is added (scripts/tsan.sh builds the
# targets it runs, so only the layers those link are compiled). LibTorch and
# Qt are not instrumented: their own memory accesses are not checked, their
# pthread calls are (tests/tsan/README.md says what that covers).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "TRAINSCOPE_TSAN is set up for GCC's ThreadSanitizer (the `tsan` preset)")
endif()
set(TRAINSCOPE_BUILD_GUI OFF CACHE BOOL "" FORCE)
set(TRAINSCOPE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
# -O1 as ThreadSanitizer's documentation advises, line tables for its reports.
add_compile_options(-fsanitize=thread -O1 -g1)
add_link_options(-fsanitize=thread)
