# cmake -DGUI=<trainscope> -DTRACE=<a Kineto trace> -P CheckTorchFreeGui.cmake
# The `app.gui_torch_free` test: the GUI links no LibTorch library (its
# TorchBackend module is loaded at run time), shows a trace with the module
# nowhere to be found, and says plainly that training is unavailable then.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectNoLibTorch.cmake)
expect_no_libtorch(${GUI} trainscope)

set(no_module TRAINSCOPE_TORCH_BACKEND=/nonexistent/libtrainscope_torch_backend.so)
set(tmp ${CMAKE_CURRENT_BINARY_DIR}/gui_torch_free)
file(REMOVE_RECURSE ${tmp})
file(MAKE_DIRECTORY ${tmp})
function(run_gui expected_code expected_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${ARGN}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected_code OR NOT "${out}${err}" MATCHES "${expected_text}")
    message(FATAL_ERROR "${ARGN}: exit ${code} (expected ${expected_code}), output:\n${out}${err}\n"
                        "expected to match: ${expected_text}")
  endif()
endfunction()

# A trace opens and shows without LibTorch anywhere.
run_gui(0 "screenshot" ${no_module} ${GUI} --settings ${tmp}/settings.ini --open ${TRACE}
        --view operators --screenshot ${tmp}/operators.png --quit-when-done)
# Training without the module: refused in plain words, naming what is missing.
run_gui(1 "LibTorch.*libtrainscope_torch_backend" ${no_module} ${GUI}
        --settings ${tmp}/settings.ini --runs-dir ${tmp}/runs --preset quickstart --run
        --quit-when-done)
message(STATUS "trainscope links no LibTorch and shows traces without it")
