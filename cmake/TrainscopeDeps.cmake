# Locates the third-party dependencies. Header-only ones (nlohmann_json, CLI11)
# may also come from a folder named by TRAINSCOPE_DEPS_DIR, which is how they are
# carried to machines without Debian packages (the CUDA build machine).
set(TRAINSCOPE_DEPS_DIR "" CACHE PATH "Extra prefix holding header-only dependencies")
if(TRAINSCOPE_DEPS_DIR)
  list(PREPEND CMAKE_PREFIX_PATH ${TRAINSCOPE_DEPS_DIR})
  include_directories(SYSTEM ${TRAINSCOPE_DEPS_DIR}/include)
endif()

# The fuzz build has no Torch layers (cmake/TrainscopeFuzz.cmake).
if(NOT TRAINSCOPE_FUZZ)
  find_package(Torch REQUIRED)
  # PyTorch 2.14's headers and later refuse anything before C++20 ("C++20 or
  # later compatible compiler is required to use ATen"); Debian's 1.13 is built
  # and tested as C++17. Only what links a Torch layer needs it (core/CMakeLists.txt):
  # the layers without LibTorch stay C++17, so that their objects are the same
  # in both builds and the LibTorch 2.x build of CI takes them from ccache.
  set(TRAINSCOPE_TORCH_CXX_STANDARD 17)
  if(Torch_VERSION VERSION_GREATER_EQUAL 2.14)
    set(TRAINSCOPE_TORCH_CXX_STANDARD 20)
  endif()
  message(STATUS "LibTorch ${Torch_VERSION}: C++${TRAINSCOPE_TORCH_CXX_STANDARD} for what links it")
endif()
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
# SQL over traces (core/query): Debian's libsqlite3-dev, 3.38 or newer
# (sqlite3_vtab_in, sqlite3_error_offset).
find_package(SQLite3 3.38 REQUIRED)
find_package(nlohmann_json 3.9 QUIET)
if(NOT nlohmann_json_FOUND)
  find_path(NLOHMANN_JSON_INCLUDE nlohmann/json.hpp REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${NLOHMANN_JSON_INCLUDE})
endif()
# simdjson parses large traces on all cores (core/trace/FastTraceReader.h).
# Without it (the CUDA build machine has no Debian packages) every trace is
# read by the nlohmann stream, which is slower but gives the same traces.
option(TRAINSCOPE_WITH_SIMDJSON "Read large traces in parallel with simdjson" ON)
if(TRAINSCOPE_WITH_SIMDJSON)
  find_package(simdjson CONFIG QUIET)
  if(NOT TARGET simdjson::simdjson)
    message(STATUS "simdjson not found (libsimdjson-dev): traces are read sequentially")
    set(TRAINSCOPE_WITH_SIMDJSON OFF)
  endif()
endif()
find_package(CLI11 QUIET CONFIG)
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE})
endif()

# TorchConfig puts its own flags into TORCH_CXX_FLAGS (the C++ ABI define).
separate_arguments(TRAINSCOPE_TORCH_FLAGS UNIX_COMMAND "${TORCH_CXX_FLAGS}")
