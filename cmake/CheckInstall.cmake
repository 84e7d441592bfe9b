# cmake -DBUILD_DIR=... -DPREFIX=... -DWITH_GUI=ON|OFF -P CheckInstall.cmake
# The `app.install` test: installs into a scratch prefix and checks that what a
# desktop needs is there.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${result})")
endif()
set(expected bin/trainscope-cli)
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
message(STATUS "installed: ${expected}")
