# Compiler options shared by every target.
#
# -ffp-contract=off: the bit-identity contract (kernel == composite, any thread
# count == one thread) requires that no multiply-add is fused behind our back;
# GCC's default for non-ISO modes is "fast". It is set globally so kernels,
# oracles and the harness's interval arithmetic all see IEEE operations as
# written. vt_strict_fp() re-states it on kernel/oracle targets so a target
# moved out of this tree keeps it.
# (VT_GLOBAL_CXX_FLAGS: the same list as text, for the run metadata in results.json.)
set(VT_GLOBAL_CXX_FLAGS "-Wall -Wextra -ffp-contract=off -fno-fast-math")
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wall> $<$<COMPILE_LANGUAGE:CXX>:-Wextra>
                    $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off> $<$<COMPILE_LANGUAGE:CXX>:-fno-fast-math>)
# nvcc (kernels/cuda): the same rule for device code - --fmad=false keeps every
# multiply and add a separate IEEE operation, as in the CPU kernels - and for
# the host code nvcc hands to g++.
add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--fmad=false> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off>)

# Debug info: RelWithDebInfo keeps line tables only (-g1, after CMake's -g, so
# it wins). Full -g cost about 40% more compile time per harness object
# (norm_entry.cpp: 13.5-14.2 s user with -g, 9.4-10.8 s with -g1, 9.5-10.2 s
# with none; docs/performance.md "Build") and nobody steps through the
# harness in a debugger; backtraces, perf and sanitizer reports still get
# file:line. VT_FULL_DEBUG_INFO=ON restores -g; the sanitizer presets add -g
# themselves.
option(VT_FULL_DEBUG_INFO "Full -g debug info in RelWithDebInfo builds" OFF)
if(NOT VT_FULL_DEBUG_INFO)
  add_compile_options($<$<AND:$<CONFIG:RelWithDebInfo>,$<COMPILE_LANGUAGE:CXX>>:-g1>)
  if(CMAKE_BUILD_TYPE STREQUAL "RelWithDebInfo")
    string(APPEND VT_GLOBAL_CXX_FLAGS " -g1")
  endif()
endif()

option(VT_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
option(VT_SANITIZE_ADDRESS "Build with AddressSanitizer + UBSan" OFF)
if(VT_SANITIZE_THREAD)
  add_compile_options(-fsanitize=thread -g)
  string(APPEND VT_GLOBAL_CXX_FLAGS " -fsanitize=thread -g")
  add_link_options(-fsanitize=thread)
endif()
if(VT_SANITIZE_ADDRESS)
  # -fno-sanitize-recover: a UBSan finding aborts the test (exit != 0) instead
  # of printing a line a passing test would hide (preset asan-ubsan).
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
  string(APPEND VT_GLOBAL_CXX_FLAGS " -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g")
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
endif()

function(vt_strict_fp target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off> $<$<COMPILE_LANGUAGE:CXX>:-fno-fast-math>)
endfunction()

# ccache when present (issue 25: the harness's own build time): a rebuild of
# an unchanged tree, a second build directory or a clean clone of the same
# sources compiles nothing twice. An explicit CMAKE_<LANG>_COMPILER_LAUNCHER
# (cache or environment) wins; VT_USE_CCACHE=OFF turns it off. Set ccache's
# base_dir to a folder above the checkouts to share hits between them
# (docs/performance.md "Build").
# Unity groups (harness/, oracles/torch/, reports/): their files parse the same
# headers (nlohmann/json, ATen) and emit the same inline and template code;
# compiled a folder or family to a translation unit, the cold build of README
# command 1 takes half the CPU (docs/performance.md "Build time"). OFF compiles
# each file on its own. The kernels are never grouped.
option(VT_UNITY_BUILD "Compile the harness, torch references and reports as unity groups" ON)
option(VT_USE_CCACHE "Compile through ccache when it is installed" ON)
if(VT_USE_CCACHE)
  find_program(VT_CCACHE_PROGRAM ccache)
  if(VT_CCACHE_PROGRAM)
    foreach(lang CXX CUDA)
      if(NOT CMAKE_${lang}_COMPILER_LAUNCHER AND NOT DEFINED ENV{CMAKE_${lang}_COMPILER_LAUNCHER})
        set(CMAKE_${lang}_COMPILER_LAUNCHER "${VT_CCACHE_PROGRAM}")
      endif()
    endforeach()
    message(STATUS "  ccache            : ${VT_CCACHE_PROGRAM} (VT_USE_CCACHE=OFF to build without)")
  endif()
endif()
