# A short libFuzzer run for CTest: copy the committed seeds to a scratch
# folder, fuzz for SECONDS with leak detection on, and fail on any finding
# (libFuzzer exits nonzero on a crash, a leak, a timeout or a sanitizer
# report). No fuzzer binary: print VT_FUZZ_SKIPPED and why (the test's
# SKIP_REGULAR_EXPRESSION turns that into a counted skip).
if(NOT EXISTS "${FUZZER}")
  if(NOT CLANGXX)
    message("VT_FUZZ_SKIPPED: clang++ is not installed, so there is no libFuzzer build (${FUZZER})")
  else()
    message("VT_FUZZ_SKIPPED: ${FUZZER} is not built; "
            "run: cmake --preset fuzz && cmake --build --preset fuzz (scripts/test does)")
  endif()
  return()
endif()
file(REMOVE_RECURSE ${WORK} ${WORK}_artifacts)
file(MAKE_DIRECTORY ${WORK} ${WORK}_artifacts)
file(COPY ${SEEDS}/ DESTINATION ${WORK})
set(ENV{ASAN_OPTIONS} "detect_leaks=1")
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -detect_leaks=1
          -print_final_stats=1 -artifact_prefix=${WORK}_artifacts/ ${WORK}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER}: libFuzzer exit ${rc}: a finding, see ${WORK}_artifacts")
endif()
