# The include layering of the project, checked (ctest: layering.includes).
# Usage: cmake -DROOT=<checkout> -P cmake/check_layering.cmake
#
# Inside harness/ includes run one way: core <- golden <- catalog (with
# harness/fuzz, the fuzzing vocabulary the catalog's entries declare) <- modes
# <- runner <- cli. The oracles are independent of the harness and of the
# kernels' internals (they may use the public vt/ headers only); the kernels
# know neither the oracles nor the harness. docs/decisions.md, "Golden
# layering"; docs/adding-an-op.md, "What an entry may include".
if(NOT ROOT)
  message(FATAL_ERROR "check_layering: pass -DROOT=<checkout>")
endif()

# folder (relative to ROOT) | regex of include paths that folder must not use
set(rules
  "harness/core|^harness/(golden|catalog|fuzz|modes|runner|cli)/"
  "harness/golden|^harness/(catalog|fuzz|modes|runner|cli)/"
  "harness/catalog|^harness/(modes|runner|cli)/"
  "harness/fuzz|^harness/(modes|runner|cli)/"
  "harness/modes|^harness/(runner|cli)/"
  "harness/runner|^harness/cli/"
  "oracles|^(harness|kernels|api|cpu|cuda)/"
  "kernels|^(harness|oracles)/"
)

set(violations "")
set(files_read 0)
foreach(rule IN LISTS rules)
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 folder)
  list(SUBLIST parts 1 -1 rest)
  string(JOIN "|" forbidden ${rest})
  file(GLOB_RECURSE sources "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.cpp"
       "${ROOT}/${folder}/*.cu" "${ROOT}/${folder}/*.cuh")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${ROOT}" "${src}")
    # Tests may reach across layers (a unit test of the golden checker
    # builds catalog cases); the rule is for the code the tools link.
    if(rel MATCHES "/tests/")
      continue()
    endif()
    math(EXPR files_read "${files_read} + 1")
    file(STRINGS "${src}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" path "${line}")
      if(path MATCHES "${forbidden}")
        string(APPEND violations "  ${rel} includes \"${path}\" (${folder} must not include ${forbidden})\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(files_read EQUAL 0)
  message(FATAL_ERROR "check_layering: no source read under ${ROOT}")
endif()
if(violations)
  message(FATAL_ERROR "check_layering: includes that run back up:\n${violations}")
endif()
message(STATUS "check_layering: ${files_read} files, every include runs down")
