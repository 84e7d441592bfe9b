include_guard(GLOBAL)

# Unity builds (TRAINSCOPE_UNITY, the top-level CMakeLists.txt): every target
# compiles its C++ files a batch at a time, one translation unit per batch, so
# that the headers every file includes (the STL, nlohmann/json, Qt, GTest) are
# parsed once a batch instead of once a file. A fresh build (CI, a new
# machine) spends most of its time there.
#
# Targets with a precompiled header (the Torch one, cmake/TrainscopeLayers.cmake;
# the Qt one, cmake/TrainscopeQtPch.cmake) use it only for the files that need
# it, so their files are batched by kind (trainscope_unity_groups): those with
# the header together, the others together without it.

# trainscope_unity_groups(<target> PCH <files> PCH_BATCH <n> OTHERS <files>)
# Puts the PCH files of `target` in batches of PCH_BATCH that use its
# precompiled header, and the OTHERS, when TRAINSCOPE_UNITY is on, in batches
# of TRAINSCOPE_UNITY_BATCH that do not (else each compiles alone). Sources
# added to the target later compile alone.
function(trainscope_unity_groups target)
  cmake_parse_arguments(ARG "" "PCH_BATCH" "PCH;OTHERS" ${ARGN})
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  _trainscope_unity_assign(${target} pch ${ARG_PCH_BATCH} "${ARG_PCH}" pch_groups)
  if(TRAINSCOPE_UNITY)
    _trainscope_unity_assign(${target} plain ${TRAINSCOPE_UNITY_BATCH} "${ARG_OTHERS}" plain_groups)
    # CMake gives every unity file of a target its precompiled header; these
    # hold none of the files that use it. (The unity file's path is CMake's:
    # should it change, these batches would merely load the header too.)
    get_target_property(binary_dir ${target} BINARY_DIR)
    foreach(group IN LISTS plain_groups)
      set_source_files_properties(
        ${binary_dir}/CMakeFiles/${target}.dir/Unity/unity_${group}_cxx.cxx
        TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endforeach()
  endif()
endfunction()

# Sets UNITY_GROUP <prefix>_<i> on `files` of `target`, `batch` to a group,
# and `out` to the group names.
function(_trainscope_unity_assign target prefix batch files out)
  set(groups "")
  set(index 0)
  set(count 0)
  foreach(file IN LISTS files)
    if(count EQUAL batch)
      math(EXPR index "${index} + 1")
      set(count 0)
    endif()
    if(count EQUAL 0)
      list(APPEND groups ${prefix}_${index})
    endif()
    set_source_files_properties(${file} TARGET_DIRECTORY ${target}
                                PROPERTIES UNITY_GROUP ${prefix}_${index})
    math(EXPR count "${count} + 1")
  endforeach()
  set(${out} ${groups} PARENT_SCOPE)
endfunction()

# Files that compile alone: each defines, in its anonymous namespace or by a
# using-declaration, a name another file of its target defines too (a helper,
# a constant, a namespace alias), which a shared translation unit refuses or,
# for overloads, could silently resolve to the other file's. Renaming the name
# in the file takes it off this list. A new clash shows as "redefinition of"
# or "ambiguous" in a unity batch: rename, or add the file here.
set(TRAINSCOPE_UNITY_ALONE
    core/analysis/CriticalPathGraph.cpp
    core/analysis/DeviceOpStats.cpp
    core/analysis/KernelSequences.cpp
    core/analysis/MemoryBandwidth.cpp
    core/analysis/NoiseInterval.cpp
    core/analysis/TraceDiff.cpp
    core/datasets/FashionMnist.cpp
    core/experiments/SweepReport.cpp
    core/report/AreaTables.cpp
    core/report/DiffTables.cpp
    core/report/DistributedReport.cpp
    core/report/DistributedTables.cpp
    core/report/GpuTables.cpp
    core/report/ModuleTables.cpp
    core/report/OpTables.cpp
    core/report/RunTables.cpp
    core/trace/JsonRespace.cpp
    core/trace/RankFolder.cpp
    core/trace/TraceCache.cpp
    core/trace/TraceSource.cpp
    tests/core/LadderTest.cpp
    tests/core/ProfRunOutputsTest.cpp
    tests/core/SweepEndToEndTest.cpp
    tests/core/SweepTest.cpp
    tests/core/TraceImportTest.cpp
    tests/torchfree/DistributedViewTest.cpp
    tests/torchfree/RankSummaryTest.cpp
    tests/torchfree/LaunchStatsTest.cpp
    tests/torchfree/RunFollowerTest.cpp
    tests/torchfree/SnapshotFilterTest.cpp
    tests/torchfree/SnapshotWriterTest.cpp
    tests/torchfree/TimelineTracksTest.cpp
    tests/torchfree/Torch2FixturesTest.cpp
    tests/torchfree/TraceDiffTest.cpp
    tests/torchfree/TraceIndexTest.cpp
    tests/torchfree/TraceMemoryBudgetTest.cpp
    tests/torchfree/TraceQueryColumnsTest.cpp
    tests/torchfree/TraceQueryTest.cpp
    tests/torchfree/UserAnnotationsTest.cpp
    tests/torchfree/ViewOptionsTest.cpp
    widgets/memory/ActiveTimelineChart.cpp
    widgets/memory/FlameGraphChart.cpp
    widgets/memory/SegmentMapChart.cpp
    widgets/memory/SnapshotView.cpp
    widgets/operators/CallStackText.cpp
    widgets/shell/DocumentLoader.cpp
    widgets/timeline/EventDetails.cpp
)

# Marks TRAINSCOPE_UNITY_ALONE in every directory of the project, so in every
# target that compiles them; called once, after the last target is made.
function(trainscope_unity_apply_alone)
  _trainscope_directories(${PROJECT_SOURCE_DIR} dirs)
  list(TRANSFORM TRAINSCOPE_UNITY_ALONE PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE files)
  foreach(dir IN LISTS dirs)
    set_source_files_properties(${files} DIRECTORY ${dir} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()

function(_trainscope_directories dir out)
  set(result ${dir})
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _trainscope_directories(${sub} below)
    list(APPEND result ${below})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
