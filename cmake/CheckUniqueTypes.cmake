cmake_minimum_required(VERSION 3.22)
# cmake -DSOURCE_DIR=<repo> -P CheckUniqueTypes.cmake
# The `types.unique` test: every class, struct and enum defined at namespace
# scope in a header of core/ or widgets/ has a name of its own. Two
# definitions of one name in namespace ts link without a word and break the
# heap at run time (the one-definition rule: two `ts::MemoryPoint`s once made
# std::vector<MemoryPoint> write past its buffer in trainscope-cli).
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckUniqueTypes.cmake: pass -DSOURCE_DIR=<repository>")
endif()
file(GLOB_RECURSE headers ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/widgets/*.h)
set(seen_names "")
set(problems "")
foreach(header IN LISTS headers)
  # Namespace-scope definitions start in column 0 (clang-format does not indent
  # namespaces); forward declarations end with ';' on their line.
  file(STRINGS ${header} lines REGEX "^(struct|class|enum class|enum) +[A-Za-z_][A-Za-z_0-9]*")
  file(RELATIVE_PATH rel ${SOURCE_DIR} ${header})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*$" "" line "${line}")
    if(line MATCHES ";[ \t]*$")
      continue()
    endif()
    string(REGEX REPLACE "^(struct|class|enum class|enum) +([A-Za-z_][A-Za-z_0-9]*).*" "\\2" name
                         "${line}")
    if(name IN_LIST seen_names)
      list(APPEND problems "${name}: ${rel} and ${where_${name}}")
    else()
      list(APPEND seen_names ${name})
      set(where_${name} ${rel})
    endif()
  endforeach()
endforeach()
list(LENGTH problems count)
if(count GREATER 0)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${count} type name(s) defined twice:\n  ${text}")
endif()
list(LENGTH seen_names total)
message(STATUS "types: ${total} namespace-scope types in core/ and widgets/ headers, each defined once")
