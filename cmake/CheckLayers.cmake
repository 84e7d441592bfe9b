cmake_minimum_required(VERSION 3.22)
# cmake -DCORE_DIR=<repo>/core -P CheckLayers.cmake
# The `layers.check` test: fails, naming each file and include, when core/
# breaks the layer table in TrainscopeLayers.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/TrainscopeLayers.cmake)
if(NOT CORE_DIR)
  message(FATAL_ERROR "CheckLayers.cmake: pass -DCORE_DIR=<repository>/core")
endif()
trainscope_check_layers(${CORE_DIR} violations)
if(EXISTS ${CORE_DIR}/../widgets)
  trainscope_check_widgets(${CORE_DIR}/../widgets ${CORE_DIR} violations)
endif()
list(LENGTH violations count)
if(count GREATER 0)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "${count} layer violation(s):\n  ${text}")
endif()
list(LENGTH TRAINSCOPE_LAYERS layers)
message(STATUS "layers: ${layers} layers of core/ checked, no include runs upward; widgets/ includes no LibTorch")
