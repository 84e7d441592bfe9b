# The layers of core/, lowest first, and the layers each one builds on
# directly. A layer may include and link only what it builds on, directly or
# through those (never a layer above it, never a sibling it does not name).
# The configure step and the `layers.check` test both enforce this table, and
# each layer is a static library that links only the layers named here.
#
# Torch layers link LibTorch; the others (the run records, the trace model,
# the trace analysis and the reports) do not, so the GUI's trace views and the
# trace commands cannot reach LibTorch by accident.
set(TRAINSCOPE_LAYERS
    util ondemand config records env distributed datasets data pickle snapshot models trace profiling analysis
    engine
    report query experiments sources scriptrun
    inspect
    runners commands)

set(TRAINSCOPE_LAYER_util_DEPS "")
# Kineto's on-demand daemon: the IPC fabric's datagrams, the socket libkineto
# polls, the live PyTorch processes and the traces asked of them; no LibTorch.
set(TRAINSCOPE_LAYER_ondemand_DEPS util)
set(TRAINSCOPE_LAYER_config_DEPS util)
set(TRAINSCOPE_LAYER_records_DEPS config)
set(TRAINSCOPE_LAYER_env_DEPS records)
# Data-parallel training: the rendezvous, c10d's collectives, gradient buckets.
set(TRAINSCOPE_LAYER_distributed_DEPS env)
# The dataset files read into memory (no LibTorch), and the batches made of them.
set(TRAINSCOPE_LAYER_datasets_DEPS config)
set(TRAINSCOPE_LAYER_data_DEPS datasets)
# The pickle machine of torch.save files (no LibTorch), and the models and
# weights built on it.
set(TRAINSCOPE_LAYER_pickle_DEPS util)
set(TRAINSCOPE_LAYER_models_DEPS config pickle env)
# PyTorch's CUDA allocator snapshots: a streaming reader of their pickles
# (never running one) and what they say (no LibTorch).
set(TRAINSCOPE_LAYER_snapshot_DEPS pickle)
set(TRAINSCOPE_LAYER_trace_DEPS util)
set(TRAINSCOPE_LAYER_profiling_DEPS trace env)
set(TRAINSCOPE_LAYER_analysis_DEPS trace records)
set(TRAINSCOPE_LAYER_engine_DEPS analysis profiling data models distributed)
set(TRAINSCOPE_LAYER_report_DEPS analysis snapshot)
# SQL over a trace (SQLite virtual tables over the event store) and its
# export to a database file; no LibTorch.
set(TRAINSCOPE_LAYER_query_DEPS analysis)
# Every kind of document (runs, traces, rank folders, allocator snapshots,
# memory timelines, studies' directories, runs in progress): how each is recognised by its
# content and opened, and what of it the views are shown from; no LibTorch.
set(TRAINSCOPE_LAYER_sources_DEPS experiments)
# The commands that read traces and records without training (trace-stats,
# trace-diff, presets): the front end trainscope-cli runs them without loading
# LibTorch, and hands every other command to trainscope-cli-torch.
# The user's own Python script run under Trainscope's probe: the process,
# the probe's socket and lines, the run directory it records; no LibTorch.
set(TRAINSCOPE_LAYER_scriptrun_DEPS report)
set(TRAINSCOPE_LAYER_inspect_DEPS query sources ondemand scriptrun)
# Sweeps, the ladder and pruning studies as plans, results and reports: their
# points run through a PointRunner, so the GUI shows and drives them without
# LibTorch.
set(TRAINSCOPE_LAYER_experiments_DEPS report)
# What runs them on LibTorch: the Trainer's point runner, the pruning study,
# the peak benchmark, the machine probe of the ladder.
set(TRAINSCOPE_LAYER_runners_DEPS engine experiments)
set(TRAINSCOPE_LAYER_commands_DEPS runners inspect)

set(TRAINSCOPE_TORCH_LAYERS env distributed data models profiling engine runners commands)

# trainscope_unity_groups (by path: cmake/CheckLayers.cmake includes this file in script mode)
include(${CMAKE_CURRENT_LIST_DIR}/TrainscopeUnity.cmake)

# The include patterns every check below reads sources with.
set(TRAINSCOPE_INCLUDE_LINE "^[ \t]*#[ \t]*include")
set(TRAINSCOPE_TORCH_INCLUDE "#[ \t]*include[ \t]*<(torch|ATen|c10|caffe2)/")
set(TRAINSCOPE_CORE_HEADER_INCLUDE "#[ \t]*include[ \t]*\"([a-z]+/[A-Za-z0-9_]+\\.h)\"")

# Sets `out` to `layer` and every layer below it that it may use.
function(trainscope_layer_closure layer out)
  set(result ${layer})
  foreach(dep IN LISTS TRAINSCOPE_LAYER_${layer}_DEPS)
    trainscope_layer_closure(${dep} below)
    list(APPEND result ${below})
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Appends to `problems` one line for each include in `file` (of `layer`) that
# the table does not allow: a core layer outside the layer's closure, Qt or
# widgets in core, LibTorch in a layer that does not link it.
function(trainscope_check_file layer file problems)
  trainscope_layer_closure(${layer} allowed)
  list(JOIN allowed ", " allowed_text)
  set(found ${${problems}})
  get_filename_component(repo ${file} DIRECTORY)
  get_filename_component(repo ${repo}/../.. ABSOLUTE)
  file(RELATIVE_PATH name ${repo} ${file})
  file(STRINGS ${file} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
  list(FIND TRAINSCOPE_TORCH_LAYERS ${layer} torch_index)
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*([\"<])([a-z]+)/")
      # Quoted includes must name a core layer; angle-bracket ones are
      # system headers (<nlohmann/...>, <sys/...>) unless they name one.
      set(quoted FALSE)
      if(CMAKE_MATCH_1 STREQUAL "\"")
        set(quoted TRUE)
      endif()
      set(target ${CMAKE_MATCH_2})
      list(FIND TRAINSCOPE_LAYERS ${target} target_index)
      list(FIND allowed ${target} allowed_index)
      if(target_index GREATER -1 AND allowed_index EQUAL -1)
        list(APPEND found "${name}: `${line}`: layer '${layer}' may not use layer '${target}' (it may use: ${allowed_text})")
      elseif(target_index EQUAL -1 AND quoted)
        list(APPEND found "${name}: `${line}`: '${target}/' is not a core layer; core includes core only")
      endif()
    elseif(line MATCHES "#[ \t]*include[ \t]*<(Q[A-Za-z]*|qcustomplot)")
      list(APPEND found "${name}: `${line}`: core has no Qt; it belongs in widgets/")
    elseif(torch_index EQUAL -1 AND line MATCHES "${TRAINSCOPE_TORCH_INCLUDE}")
      list(APPEND found "${name}: `${line}`: layer '${layer}' does not link LibTorch")
    endif()
  endforeach()
  set(${problems} ${found} PARENT_SCOPE)
endfunction()

# Checks every header and source under core/<layer>/ for every layer, and
# that no layer builds on a Torch layer without being one.
function(trainscope_check_layers core_dir problems)
  set(found "")
  foreach(layer IN LISTS TRAINSCOPE_LAYERS)
    if(NOT IS_DIRECTORY ${core_dir}/${layer})
      list(APPEND found "core/${layer}/: the layer's folder is missing")
      continue()
    endif()
    list(FIND TRAINSCOPE_TORCH_LAYERS ${layer} torch_index)
    trainscope_layer_closure(${layer} closure)
    foreach(dep IN LISTS closure)
      list(FIND TRAINSCOPE_TORCH_LAYERS ${dep} dep_torch)
      if(torch_index EQUAL -1 AND dep_torch GREATER -1)
        list(APPEND found "layer '${layer}' does not link LibTorch but builds on '${dep}', which does")
      endif()
    endforeach()
    file(GLOB files ${core_dir}/${layer}/*.h ${core_dir}/${layer}/*.cpp)
    foreach(file IN LISTS files)
      trainscope_check_file(${layer} ${file} found)
    endforeach()
  endforeach()
  file(GLOB dirs LIST_DIRECTORIES true ${core_dir}/*)
  foreach(dir IN LISTS dirs)
    get_filename_component(name ${dir} NAME)
    if(IS_DIRECTORY ${dir} AND NOT name IN_LIST TRAINSCOPE_LAYERS)
      list(APPEND found "core/${name}/ is not in the layer table (cmake/TrainscopeLayers.cmake)")
    endif()
  endforeach()
  set(${problems} ${found} PARENT_SCOPE)
endfunction()

# Sets `out` to the core headers (as "layer/Name.h") that include a LibTorch
# header, directly or through other core headers.
function(trainscope_torch_headers core_dir out)
  file(GLOB_RECURSE headers RELATIVE ${core_dir} ${core_dir}/*.h)
  set(torchy "")
  foreach(header IN LISTS headers)
    file(STRINGS ${core_dir}/${header} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
    set(includes_${header} "")
    foreach(line IN LISTS lines)
      if(line MATCHES "${TRAINSCOPE_TORCH_INCLUDE}")
        list(APPEND torchy ${header})
      elseif(line MATCHES "${TRAINSCOPE_CORE_HEADER_INCLUDE}")
        list(APPEND includes_${header} ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endforeach()
  # Propagate until nothing changes: a header is torchy when it includes one.
  set(changed TRUE)
  while(changed)
    set(changed FALSE)
    foreach(header IN LISTS headers)
      if(header IN_LIST torchy)
        continue()
      endif()
      foreach(included IN LISTS includes_${header})
        if(included IN_LIST torchy)
          list(APPEND torchy ${header})
          set(changed TRUE)
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES torchy)
  set(${out} ${torchy} PARENT_SCOPE)
endfunction()

# Sets `out` to those of the given source files that include LibTorch:
# directly, through a core header that does (trainscope_torch_headers), or
# through a header beside them (a test's support header). Only these get the
# Torch precompiled header: forcing it on a file that needs no LibTorch costs
# ~25 s a file in GCC's instantiation and code generation of what the headers
# define inline, against ~10 s for the whole file without it.
function(trainscope_torch_sources out)
  get_property(torchy_known GLOBAL PROPERTY TRAINSCOPE_TORCH_HEADERS_KNOWN)
  if(NOT torchy_known)
    trainscope_torch_headers(${PROJECT_SOURCE_DIR}/core torchy)
    set_property(GLOBAL PROPERTY TRAINSCOPE_TORCH_HEADERS "${torchy}")
    set_property(GLOBAL PROPERTY TRAINSCOPE_TORCH_HEADERS_KNOWN TRUE)
  endif()
  get_property(torchy GLOBAL PROPERTY TRAINSCOPE_TORCH_HEADERS)
  set(result "")
  foreach(source IN LISTS ARGN)
    set(queue ${source})
    set(seen ${source})
    set(uses FALSE)
    while(queue AND NOT uses)
      list(POP_FRONT queue file)
      get_filename_component(dir ${file} DIRECTORY)
      file(STRINGS ${file} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
      foreach(line IN LISTS lines)
        if(line MATCHES "${TRAINSCOPE_TORCH_INCLUDE}")
          set(uses TRUE)
        elseif(line MATCHES "${TRAINSCOPE_CORE_HEADER_INCLUDE}")
          if(CMAKE_MATCH_1 IN_LIST torchy)
            set(uses TRUE)
          endif()
        elseif(line MATCHES "#[ \t]*include[ \t]*\"([A-Za-z0-9_]+\\.h)\"")
          set(beside ${dir}/${CMAKE_MATCH_1})
          if(EXISTS ${beside} AND NOT beside IN_LIST seen)
            list(APPEND queue ${beside})
            list(APPEND seen ${beside})
          endif()
        endif()
      endforeach()
    endwhile()
    if(uses)
      list(APPEND result ${source})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Sets `out` to the C++ sources (.cpp) of `target`, as absolute paths.
function(trainscope_target_cpp target out)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(cpp "")
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cpp$")
      if(NOT IS_ABSOLUTE ${source})
        set(source ${source_dir}/${source})
      endif()
      list(APPEND cpp ${source})
    endif()
  endforeach()
  set(${out} ${cpp} PARENT_SCOPE)
endfunction()

# Gives `target` the Torch precompiled header (its own, or `REUSE_FROM other`)
# for those of its C++ sources that include LibTorch, and none for the rest.
function(trainscope_torch_pch target)
  trainscope_target_cpp(${target} cpp)
  trainscope_torch_sources(torch_cpp ${cpp})
  set(torch_free ${cpp})
  if(torch_cpp)
    list(REMOVE_ITEM torch_free ${torch_cpp})
  endif()
  if(torch_free)
    set_source_files_properties(${torch_free} TARGET_DIRECTORY ${target}
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
  # The files that include LibTorch compile a few to a translation unit: each
  # unit pays the ~25 s of LibTorch's inline code once for all of them. The
  # others never share a unit with them (cmake/TrainscopeUnity.cmake).
  set(torch_batched "")
  if(TRAINSCOPE_UNITY_TORCH)
    set(torch_batched ${torch_cpp})
  endif()
  trainscope_unity_groups(${target} PCH ${torch_batched} PCH_BATCH 4 OTHERS ${torch_free})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    # GCC refuses the layers' header (precompiled with -fPIC) in a file
    # compiled with CMake's -fPIE for executables; -fPIC code links into a
    # position-independent executable all the same.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE OFF)
    target_compile_options(${target} PRIVATE -fPIC)
  endif()
  if(ARGN)
    target_precompile_headers(${target} ${ARGN})
  else()
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core/env/TorchPch.h)
  endif()
endfunction()

# The GUI never touches LibTorch: no file under widgets/ includes a LibTorch
# header or a core header that brings one in (the GUI reaches the engine through
# headers without LibTorch, e.g. engine/Trainer.h, and its observer).
function(trainscope_check_widgets widgets_dir core_dir problems)
  trainscope_torch_headers(${core_dir} torchy)
  set(found ${${problems}})
  file(GLOB_RECURSE files RELATIVE ${widgets_dir}/.. ${widgets_dir}/*.h ${widgets_dir}/*.cpp)
  foreach(file IN LISTS files)
    file(STRINGS ${widgets_dir}/../${file} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
    foreach(line IN LISTS lines)
      if(line MATCHES "${TRAINSCOPE_TORCH_INCLUDE}")
        list(APPEND found "${file}: `${line}`: the GUI does not include LibTorch")
      elseif(line MATCHES "${TRAINSCOPE_CORE_HEADER_INCLUDE}")
        if(CMAKE_MATCH_1 IN_LIST torchy)
          list(APPEND found "${file}: `${line}`: that core header brings in LibTorch, which the GUI does not include")
        endif()
      endif()
    endforeach()
  endforeach()
  set(${problems} ${found} PARENT_SCOPE)
endfunction()

# The GUI's roles, lowest first, each a library (widgets/CMakeLists.txt) made
# of the folders named here: a folder's files may include folders of their
# own role and of the roles below it, never above. Every folder of widgets/
# has a role, and none is named like a core layer (both are include roots:
# "experiments/X.h" once meant either).
set(TRAINSCOPE_GUI_ROLES charts base views shell)
set(TRAINSCOPE_GUI_ROLE_charts charts)
# Shared widgets and settings, background jobs, the training bridge, the
# interface of the LibTorch module.
set(TRAINSCOPE_GUI_ROLE_base common jobs training backend)
# The views and panels; each shows value structs of core/.
set(TRAINSCOPE_GUI_ROLE_views
    diff form gpu live livejobs memory modules operators ranks roofline runs sql studies timeline)
# The window, its menus, documents and the view registry.
set(TRAINSCOPE_GUI_ROLE_shell shell)
# Folders without sources of their own role (the precompiled header).
set(TRAINSCOPE_GUI_SHARED_FOLDERS pch)

# Appends to `problems` each include under widgets/ that reaches a role above
# its file's, and each folder without a role or named like a core layer.
function(trainscope_check_gui_roles widgets_dir core_dir problems)
  set(found ${${problems}})
  set(below "")
  set(all_folders ${TRAINSCOPE_GUI_SHARED_FOLDERS})
  foreach(role IN LISTS TRAINSCOPE_GUI_ROLES)
    list(APPEND all_folders ${TRAINSCOPE_GUI_ROLE_${role}})
  endforeach()
  foreach(role IN LISTS TRAINSCOPE_GUI_ROLES)
    list(APPEND below ${TRAINSCOPE_GUI_ROLE_${role}})
    set(allowed ${below} ${TRAINSCOPE_GUI_SHARED_FOLDERS})
    foreach(folder IN LISTS TRAINSCOPE_GUI_ROLE_${role})
      file(GLOB files ${widgets_dir}/${folder}/*.h ${widgets_dir}/${folder}/*.cpp)
      foreach(file IN LISTS files)
        file(STRINGS ${file} lines REGEX "${TRAINSCOPE_INCLUDE_LINE}")
        foreach(line IN LISTS lines)
          if(line MATCHES "#[ \t]*include[ \t]*[\"<]([a-z]+)/")
            set(target ${CMAKE_MATCH_1})
            if(target IN_LIST all_folders AND NOT target IN_LIST allowed)
              file(RELATIVE_PATH name ${widgets_dir}/.. ${file})
              list(APPEND found "${name}: `${line}`: role '${role}' may not use '${target}/' (a role above it)")
            endif()
          endif()
        endforeach()
      endforeach()
    endforeach()
  endforeach()
  file(GLOB dirs LIST_DIRECTORIES true ${widgets_dir}/*)
  foreach(dir IN LISTS dirs)
    get_filename_component(name ${dir} NAME)
    if(NOT IS_DIRECTORY ${dir})
      continue()
    endif()
    if(NOT name IN_LIST all_folders)
      list(APPEND found "widgets/${name}/ has no role (TRAINSCOPE_GUI_ROLES in cmake/TrainscopeLayers.cmake)")
    endif()
    if(EXISTS ${core_dir}/${name})
      list(APPEND found "widgets/${name}/ and core/${name}/ share a name: \"${name}/X.h\" could mean either")
    endif()
  endforeach()
  set(${problems} ${found} PARENT_SCOPE)
endfunction()
