# cmake -DCLI=<trainscope-cli> -DTORCH_CLI=<trainscope-cli-torch> -P CheckTorchFreeCli.cmake
# The `app.cli_torch_free` test: the front end links no LibTorch library, runs
# the trace commands itself, and hands the others to the torch binary with
# their exit codes (2 for bad input), or says plainly that it is missing.
include(${CMAKE_CURRENT_LIST_DIR}/ExpectNoLibTorch.cmake)
expect_no_libtorch(${CLI} trainscope-cli)

function(run_cli expected_code expected_text)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected_code OR NOT "${out}${err}" MATCHES "${expected_text}")
    message(FATAL_ERROR "${ARGN}: exit ${code} (expected ${expected_code}), output:\n${out}${err}\n"
                        "expected to match: ${expected_text}")
  endif()
endfunction()

# In-process, torch-free.
run_cli(0 "quickstart" ${CLI} presets)
# --help lists both kinds of commands.
run_cli(0 "trace-stats.*ladder" ${CLI} --help)
# Handed on: the torch binary's own parse error, exit 2, naming the file.
run_cli(2 "no_such_config.json" ${CLI} run --config no_such_config.json)
# Handed on: the torch binary's subcommand help.
run_cli(0 "--weights" ${CLI} evaluate --help)
# The torch binary missing: a plain message, exit 1.
run_cli(1 "TRAINSCOPE_TORCH_CLI" ${CMAKE_COMMAND} -E env TRAINSCOPE_TORCH_CLI=/nonexistent/torch-cli
        ${CLI} env)
message(STATUS "trainscope-cli is torch-free and hands on the other commands")
