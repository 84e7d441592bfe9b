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
    util config records env data models trace profiling analysis engine report experiments
    commands)

set(TRAINSCOPE_LAYER_util_DEPS "")
set(TRAINSCOPE_LAYER_config_DEPS util)
set(TRAINSCOPE_LAYER_records_DEPS config)
set(TRAINSCOPE_LAYER_env_DEPS records)
set(TRAINSCOPE_LAYER_data_DEPS config)
set(TRAINSCOPE_LAYER_models_DEPS config)
set(TRAINSCOPE_LAYER_trace_DEPS util)
set(TRAINSCOPE_LAYER_profiling_DEPS trace env)
set(TRAINSCOPE_LAYER_analysis_DEPS trace records)
set(TRAINSCOPE_LAYER_engine_DEPS analysis profiling data models)
set(TRAINSCOPE_LAYER_report_DEPS analysis)
set(TRAINSCOPE_LAYER_experiments_DEPS engine report)
set(TRAINSCOPE_LAYER_commands_DEPS experiments)

set(TRAINSCOPE_TORCH_LAYERS env data models profiling engine experiments commands)

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
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include")
  list(FIND TRAINSCOPE_TORCH_LAYERS ${layer} torch_index)
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*\"([a-z]+)/[^\"]+\"")
      set(target ${CMAKE_MATCH_1})
      list(FIND TRAINSCOPE_LAYERS ${target} target_index)
      list(FIND allowed ${target} allowed_index)
      if(target_index GREATER -1 AND allowed_index EQUAL -1)
        list(APPEND found "${file}: `${line}`: layer '${layer}' may not use layer '${target}' (it may use: ${allowed_text})")
      elseif(target_index EQUAL -1)
        list(APPEND found "${file}: `${line}`: '${target}/' is not a core layer; core includes core only")
      endif()
    elseif(line MATCHES "#[ \t]*include[ \t]*<(Q[A-Za-z]*|qcustomplot)")
      list(APPEND found "${file}: `${line}`: core has no Qt; it belongs in widgets/")
    elseif(torch_index EQUAL -1 AND line MATCHES "#[ \t]*include[ \t]*<(torch|ATen|c10|caffe2)/")
      list(APPEND found "${file}: `${line}`: layer '${layer}' does not link LibTorch")
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
