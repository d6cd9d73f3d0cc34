# Fails when a test of this build could pass without testing anything (issue 14, item 16):
#  - a SKIP_RETURN_CODE lets a test report "skipped" while ctest, and so CI, stays green;
#  - unit_tests must fail a run whose test spec matches nothing (a misspelt name) and a test
#    case that asserts nothing (tests/unit/main.cpp sets both Catch2 warnings);
#  - an empty suite (unit tests not discovered) tests nothing.
# Usage: cmake -DCTEST=ctest -DBUILD_DIR=build -DUNIT_TESTS=build/tests/unit_tests -P this file
set(problems "")

execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} --show-only=json-v1
                OUTPUT_VARIABLE json RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest --show-only failed (${status})")
endif()
string(JSON count LENGTH "${json}" tests)
if(count LESS 10)
  list(APPEND problems "only ${count} tests in ${BUILD_DIR}: were the unit tests discovered?")
endif()
math(EXPR last_test "${count} - 1")
foreach(t RANGE ${last_test})
  string(JSON name GET "${json}" tests ${t} name)
  string(JSON properties ERROR_VARIABLE no_properties GET "${json}" tests ${t} properties)
  if(no_properties)
    continue()
  endif()
  string(JSON n LENGTH "${properties}")
  math(EXPR last_property "${n} - 1")
  foreach(p RANGE ${last_property})
    string(JSON property GET "${properties}" ${p} name)
    if(property STREQUAL "SKIP_RETURN_CODE")
      list(APPEND problems "${name}: SKIP_RETURN_CODE lets it pass as skipped")
    endif()
  endforeach()
endforeach()

# unit_tests SPEC must exit with `expected` and print `message`.
function(expect_unit_run spec expected message why)
  execute_process(COMMAND ${UNIT_TESTS} ${spec} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE status)
  if(NOT status STREQUAL expected OR NOT "${out}${err}" MATCHES "${message}")
    set(problems ${problems} "unit_tests \"${spec}\" ${why}: exit ${status}" PARENT_SCOPE)
  endif()
endfunction()
expect_unit_run("a misspelt test name" 2 "No test cases matched"
                "must fail (no test case matches)")
expect_unit_run("[.no_assertions_canary]" 1 "No assertions"
                "must fail (its test case asserts nothing)")
expect_unit_run("[checklist]" 0 "All tests passed" "must run its test cases and pass")

# catch_discover_tests reads the names as a CMake list: a ';' splits one test case into two
# names that match nothing.
execute_process(COMMAND ${UNIT_TESTS} --list-test-names-only OUTPUT_VARIABLE names)
string(REPLACE ";" "<semicolon>" names "${names}")
string(REGEX MATCHALL "[^\n]*<semicolon>[^\n]*" split_names "${names}")
foreach(split_name IN LISTS split_names)
  list(APPEND problems "test case \"${split_name}\": ctest splits a name at a semicolon")
endforeach()

# A shell test piping into `grep -q` fails at random under pipefail (the writer's SIGPIPE after
# grep's early exit): such a test's verdict is noise. lib.sh's has_match reads the whole input.
file(GLOB_RECURSE shell_tests ${TESTS_DIR}/*.sh)
foreach(script IN LISTS shell_tests)
  file(STRINGS ${script} racy_lines REGEX "^[^#]*\\|[ ]*grep -[a-zA-Z]*q")
  foreach(line IN LISTS racy_lines)
    list(APPEND problems "${script}: pipes into grep -q (use has_match): ${line}")
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "tests that can pass without testing:\n  ${text}")
endif()
message(STATUS "${count} tests: none can be skipped, unmatched or assertion-free and pass")
