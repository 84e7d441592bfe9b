# The Qt targets' precompiled header (widgets/pch/QtPch.h) holds QCustomPlot,
# whose header brings nearly all of Qt's widgets: ~11 s of a chart file's
# ~12 s. Loading the 300 MB header costs ~3 s a file, more than a file that
# does not use QCustomPlot takes to compile whole (0.5-5 s). So only the
# files that reach <qcustomplot.h>, directly or through the project's own
# headers, use it; the rest compile as before.

include(TrainscopeLayers) # TRAINSCOPE_INCLUDE_LINE
set(TRAINSCOPE_QCP_INCLUDE "#[ \t]*include[ \t]*<qcustomplot.h>")
set(TRAINSCOPE_QUOTED_INCLUDE "#[ \t]*include[ \t]*\"([A-Za-z0-9_/]+\\.h)\"")

# Sets `out` to those of the C++ `sources` that reach <qcustomplot.h>. A
# quoted include is looked up beside the including file, then in `dirs`.
function(trainscope_qcp_sources out dirs)
  set(result "")
  foreach(source IN LISTS ARGN)
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    set(queue ${source})
    set(seen ${source})
    set(uses FALSE)
    while(queue AND NOT uses)
      list(POP_FRONT queue file)
      get_filename_component(here ${file} DIRECTORY)
      file(STRINGS ${file} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
      foreach(line IN LISTS lines)
        if(line MATCHES "${TRAINSCOPE_QCP_INCLUDE}")
          set(uses TRUE)
          break()
        elseif(line MATCHES "${TRAINSCOPE_QUOTED_INCLUDE}")
          set(name ${CMAKE_MATCH_1})
          foreach(dir IN ITEMS ${here} ${dirs})
            if(EXISTS ${dir}/${name})
              if(NOT ${dir}/${name} IN_LIST seen)
                list(APPEND queue ${dir}/${name})
                list(APPEND seen ${dir}/${name})
              endif()
              break()
            endif()
          endforeach()
        endif()
      endforeach()
    endwhile()
    if(uses)
      list(APPEND result ${source})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Gives `target` the Qt precompiled header: its own when `owner` is itself,
# else the one of `owner` (same flags). Its files that do not reach QCustomPlot
# skip it.
function(trainscope_qt_pch target owner)
  trainscope_target_cpp(${target} cpp)
  trainscope_qcp_sources(qcp "${PROJECT_SOURCE_DIR}/widgets;${PROJECT_SOURCE_DIR}/core" ${cpp})
  set(others ${cpp})
  if(qcp)
    list(REMOVE_ITEM others ${qcp})
  endif()
  # The generated sources of targets whose moc output is empty (tests include
  # their own .moc) or holds no chart, and the resource file, skip it too.
  if(NOT target STREQUAL "trainscope_widgets")
    get_target_property(binary_dir ${target} BINARY_DIR)
    list(APPEND others ${binary_dir}/${target}_autogen/mocs_compilation.cpp)
  endif()
  if(others)
    set_source_files_properties(${others} TARGET_DIRECTORY ${target}
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
  # Batched by kind, as the Torch files are (cmake/TrainscopeUnity.cmake).
  if(TRAINSCOPE_UNITY)
    set(plain ${others})
    list(FILTER plain EXCLUDE REGEX "_autogen/")
    trainscope_unity_groups(${target} PCH ${qcp} PCH_BATCH ${TRAINSCOPE_UNITY_BATCH} OTHERS ${plain})
  endif()
  list(LENGTH cpp all_count)
  list(LENGTH qcp qcp_count)
  message(STATUS "${target}: ${qcp_count} of ${all_count} files use the Qt precompiled header")
  if(target STREQUAL owner)
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/widgets/pch/QtPch.h)
  else()
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
