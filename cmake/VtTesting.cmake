# vt_gtest(<target> LABELS <l1;l2;...> [TIMEOUT s]): register every gtest case of
# an executable as its own CTest test with all the given labels.
# Labels are applied by a CTest include file that runs after discovery: a list
# passed through gtest_discover_tests(PROPERTIES) loses its semicolons in the
# module's nested expansions (CMake 3.25), keeping only the first label.
include(GoogleTest)
function(vt_gtest target)
  cmake_parse_arguments(ARG "" "TIMEOUT;FILTER" "LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  if(NOT ARG_FILTER)
    set(ARG_FILTER "*")
  endif()
  gtest_discover_tests(${target}
    TEST_FILTER "${ARG_FILTER}"
    TEST_LIST ${target}_TESTS
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  set(label_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${label_file}"
    "if(${target}_TESTS)\n"
    "  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_file}")
endfunction()
