# cmake -DBUILD_DIR=... -DPREFIX=... -DWITH_GUI=ON|OFF -P CheckInstall.cmake
# The `app.install` test: installs into a scratch prefix and checks that what a
# desktop needs is there.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${result})")
endif()
set(expected bin/trainscope-cli libexec/trainscope/trainscope-cli-torch)
if(WITH_GUI)
  list(APPEND expected bin/trainscope share/applications/trainscope.desktop
       share/icons/hicolor/scalable/apps/trainscope.svg
       share/icons/hicolor/48x48/apps/trainscope.png
       share/icons/hicolor/256x256/apps/trainscope.png)
endif()
foreach(file IN LISTS expected)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()
# The installed front end finds the installed torch binary (bin/ ->
# libexec/trainscope/) and hands a training command to it.
execute_process(COMMAND ${PREFIX}/bin/trainscope-cli env --json RESULT_VARIABLE result
                OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT result EQUAL 0 OR NOT output MATCHES "torch_version")
  message(FATAL_ERROR "installed trainscope-cli env failed (${result}): ${errors}${output}")
endif()
# The GUI's LibTorch module (one per LibTorch built: build/torch2 installs its
# own beside this one), loaded at run time from ../lib/trainscope with the
# .json that describes it: every library it needs resolves.
file(GLOB modules ${PREFIX}/lib/trainscope/libtrainscope_torch_backend-*.so)
if(NOT modules)
  message(FATAL_ERROR "cmake --install did not install lib/trainscope/libtrainscope_torch_backend-*.so")
endif()
foreach(module IN LISTS modules)
  string(REGEX REPLACE "\\.so$" ".json" description ${module})
  if(NOT EXISTS ${description})
    message(FATAL_ERROR "cmake --install did not install ${description}")
  endif()
  execute_process(COMMAND ldd ${module} OUTPUT_VARIABLE libraries RESULT_VARIABLE result)
  if(NOT result EQUAL 0 OR libraries MATCHES "not found")
    message(FATAL_ERROR "the installed TorchBackend module does not load (${result}):\n${libraries}")
  endif()
endforeach()
message(STATUS "installed: ${expected} ${modules}")
