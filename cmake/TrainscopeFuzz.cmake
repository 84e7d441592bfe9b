# TRAINSCOPE_FUZZ: every library of this build is instrumented for libFuzzer's
# coverage (fuzzer-no-link) and checked by ASan and UBSan; only the fuzz
# targets link libFuzzer itself (fuzz/CMakeLists.txt). UBSan does not recover,
# so undefined behaviour stops the run like a crash and libFuzzer keeps the
# input.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TRAINSCOPE_FUZZ needs clang (libFuzzer): configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ or the `fuzz` preset")
endif()
set(TRAINSCOPE_BUILD_GUI OFF CACHE BOOL "" FORCE)
set(TRAINSCOPE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(TRAINSCOPE_BUILD_BENCH OFF CACHE BOOL "" FORCE)
set(TRAINSCOPE_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                              -fno-omit-frame-pointer)
# Line tables only: sanitizer reports name file and line, and the build of
# every layer takes less time in CI than with full debug information. -O1
# (libFuzzer's own advice) compiles in about three quarters of -O2's time.
add_compile_options(-fsanitize=fuzzer-no-link ${TRAINSCOPE_SANITIZE_FLAGS} -gline-tables-only -O1)
add_link_options(${TRAINSCOPE_SANITIZE_FLAGS})
