# The GUI's TorchBackend module (app/gui/TorchBackendModule.cpp), built in
# every build that has LibTorch: Debian's 1.13 in the default build, the
# pinned wheel's 2.x in build/torch2 (scripts/torch2.sh), which has no GUI of
# its own. The GUI, built once, loads one of them at run time
# (widgets/backend/BackendModules.h). Each module is named by its LibTorch,
# libtrainscope_torch_backend-<major.minor>.so, beside a .json that says
# what it was built with (and against which interface:
# cmake/TorchBackendInterface.cmake), so that the GUI can list and order the modules
# without loading them: two LibTorch in one process share library names
# (libc10.so), so only the one chosen is ever loaded.
set(TRAINSCOPE_TORCH_SERIES "${Torch_VERSION_MAJOR}.${Torch_VERSION_MINOR}")
set(module_name trainscope_torch_backend-${TRAINSCOPE_TORCH_SERIES})

add_library(trainscope_torch_backend MODULE ${PROJECT_SOURCE_DIR}/app/gui/TorchBackendModule.cpp
                                            ${PROJECT_SOURCE_DIR}/app/gui/CudaDriver.cpp)
target_include_directories(trainscope_torch_backend PRIVATE ${PROJECT_SOURCE_DIR}/widgets
                                                            ${PROJECT_SOURCE_DIR}/app)
target_link_libraries(trainscope_torch_backend PRIVATE trainscope_core)
# It keeps its copy of the core to itself (-Bsymbolic, no exported symbols
# but the entry points).
target_link_options(trainscope_torch_backend PRIVATE -Wl,-Bsymbolic -Wl,--exclude-libs,ALL)
set_target_properties(trainscope_torch_backend PROPERTIES
  PREFIX "lib" OUTPUT_NAME ${module_name}
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/app
  INSTALL_RPATH_USE_LINK_PATH TRUE)

# Kineto: what KinetoRecorder checks at run time (libkineto exported by
# libtorch_cpu), read here from the library itself.
set(kineto false)
if(TORCH_LIBRARY)
  get_filename_component(torch_lib_dir "${TORCH_LIBRARY}" DIRECTORY)
else()
  set(torch_lib_dir "${TORCH_INSTALL_PREFIX}/lib")
endif()
find_program(TRAINSCOPE_NM nm)
if(TRAINSCOPE_NM AND EXISTS ${torch_lib_dir}/libtorch_cpu.so)
  execute_process(COMMAND ${TRAINSCOPE_NM} -D --defined-only ${torch_lib_dir}/libtorch_cpu.so
                  OUTPUT_VARIABLE symbols ERROR_QUIET)
  if(symbols MATCHES "_ZN9libkineto3apiEv")
    set(kineto true)
  endif()
endif()
# CUDA: the one LibTorch was built with. A wheel says it in torch/version.py
# (13.2 for 2.15.0+cu132), which the toolkit that compiles our CUDA code
# (CUDA_VERSION, /usr/local/cuda's 13.0) need not match.
set(cuda "")
if(TARGET torch_cuda OR TORCH_CUDA_LIBRARIES)
  set(cuda "${CUDA_VERSION}")
  if(EXISTS ${torch_lib_dir}/../version.py)
    file(STRINGS ${torch_lib_dir}/../version.py cuda_line REGEX "^cuda[^=]*= *'[0-9.]+'")
    if(cuda_line MATCHES "'([0-9.]+)'")
      set(cuda "${CMAKE_MATCH_1}")
    endif()
  endif()
endif()
set(TRAINSCOPE_TORCH_MODULE_JSON ${PROJECT_BINARY_DIR}/app/lib${module_name}.json)
# Written through configure_file so that an unchanged description keeps its time stamp.
file(WRITE ${PROJECT_BINARY_DIR}/CMakeFiles/lib${module_name}.json.in
     "{\"torch_version\": \"${Torch_VERSION}\", \"cuda_version\": \"${cuda}\", \"kineto\": ${kineto}, "
     "\"interface\": \"${TRAINSCOPE_BACKEND_INTERFACE}\"}\n")
configure_file(${PROJECT_BINARY_DIR}/CMakeFiles/lib${module_name}.json.in
               ${TRAINSCOPE_TORCH_MODULE_JSON} COPYONLY)
message(STATUS "GUI module lib${module_name}.so: LibTorch ${Torch_VERSION}, CUDA '${cuda}', Kineto ${kineto}")

# lib/, not CMAKE_INSTALL_LIBDIR: Debian's multiarch lib/x86_64-linux-gnu
# under /usr would move it from where the GUI looks (bin/../lib/trainscope).
# Both builds installed into one prefix leave both modules there.
install(TARGETS trainscope_torch_backend LIBRARY DESTINATION lib/trainscope)
install(FILES ${TRAINSCOPE_TORCH_MODULE_JSON} DESTINATION lib/trainscope)
