# include()d by the app.*_torch_free test scripts.
# expect_no_libtorch(<binary> <name>): fails unless `ldd <binary>` lists no
# LibTorch library (libtorch*, libc10*).
function(expect_no_libtorch binary name)
  execute_process(COMMAND ldd ${binary} OUTPUT_VARIABLE libraries RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "ldd ${binary} failed (${result})")
  endif()
  if(libraries MATCHES "(libtorch[^ ]*|libc10[^ ]*)")
    message(FATAL_ERROR "${name} loads ${CMAKE_MATCH_1}; it must not link LibTorch")
  endif()
endfunction()
