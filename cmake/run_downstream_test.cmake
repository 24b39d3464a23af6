# ctest downstream_find_package: checks that `cmake --install` gives a C++
# package another project can use on its own. Installs the build tree at
# KUMO_BUILD_DIR into a scratch prefix under WORK_DIR, checks the installed
# libkumo resolves its libraries inside the prefix or the system (not in a
# Python environment), then configures, builds and runs EXAMPLE_DIR against
# the prefix with find_package(kumo). Any failure is a FATAL_ERROR.
#
# Variables: KUMO_BUILD_DIR, KUMO_CONFIG, WORK_DIR, EXAMPLE_DIR, GENERATOR,
# MAKE_PROGRAM, CXX_COMPILER, EXPECT_CUDA_PLUGIN (bool), KUMO_BLAS.
cmake_minimum_required(VERSION 3.20)

foreach(var KUMO_BUILD_DIR WORK_DIR EXAMPLE_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_downstream_test.cmake: ${var} is not set")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(app_build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# A clean environment: nothing may find libraries, packages or the plugin for
# the installed kumo; each child process below inherits this.
foreach(var LD_LIBRARY_PATH LD_PRELOAD CMAKE_PREFIX_PATH kumo_DIR KUMO_CUDA_PLUGIN PYTHONPATH PYTHONHOME)
  unset(ENV{${var}})
endforeach()
# A fresh kernel cache, so the installed library compiles its kernels itself.
set(ENV{KUMO_CACHE_DIR} "${WORK_DIR}/kernel_cache")

# Runs a command, prints its output and how long it took; fails on a non-zero exit.
function(run_step name)
  string(TIMESTAMP start "%s%f")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(TIMESTAMP stop "%s%f")
  math(EXPR ms "(${stop} - ${start}) / 1000")
  message(STATUS "[${name}] ${ms} ms\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "downstream test: ${name} failed (${rc})")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(config_args "")
if(KUMO_CONFIG)
  set(config_args --config ${KUMO_CONFIG})
endif()
# The C++ package alone: a tree that also builds the wheel (scripts/test.sh)
# has the Python module's install rules as well, in the component "python".
run_step(install ${CMAKE_COMMAND} --install "${KUMO_BUILD_DIR}" --prefix "${prefix}" --component cpp ${config_args})

# ---- the layout ----
file(GLOB libkumo "${prefix}/lib*/libkumo.so")
if(NOT libkumo)
  message(FATAL_ERROR "downstream test: no libkumo.so under ${prefix}/lib*")
endif()
get_filename_component(libdir "${libkumo}" DIRECTORY)
set(expected_files "${prefix}/include/kumo/kumo.h" "${prefix}/include/kumo/core/array.h"
    "${libdir}/cmake/kumo/kumoConfig.cmake" "${libdir}/cmake/kumo/kumoConfigVersion.cmake")
if(EXPECT_CUDA_PLUGIN)
  list(APPEND expected_files "${libdir}/libkumo_cuda.so")
endif()
if(KUMO_BLAS STREQUAL "wheel")
  list(APPEND expected_files "${libdir}/libscipy_openblas.so")
endif()
foreach(f IN LISTS expected_files)
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "downstream test: ${f} was not installed")
  endif()
endforeach()

# ---- the version file: this version is accepted, the next major is not ----
# (find_package sets these variables before it includes the file.)
function(kumo_version_accepts wanted result_var)
  set(PACKAGE_FIND_VERSION "${wanted}")
  string(REPLACE "." ";" parts "${wanted}")
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)
  set(PACKAGE_FIND_VERSION_COUNT 3)
  include("${libdir}/cmake/kumo/kumoConfigVersion.cmake")
  set(${result_var} "${PACKAGE_VERSION_COMPATIBLE}" PARENT_SCOPE)
  set(installed_version "${PACKAGE_VERSION}" PARENT_SCOPE)
endfunction()
kumo_version_accepts(0.0.0 ignored)  # reads the installed version
kumo_version_accepts("${installed_version}" same_ok)
string(REGEX MATCH "^[0-9]+" major "${installed_version}")
math(EXPR next_major "${major} + 1")
kumo_version_accepts("${next_major}.0.0" next_ok)
if(NOT same_ok OR next_ok)
  message(FATAL_ERROR "downstream test: kumoConfigVersion.cmake of ${installed_version} accepts "
                      "${installed_version}: ${same_ok}, ${next_major}.0.0: ${next_ok}")
endif()

# ---- what the installed libkumo loads, as the dynamic loader would find it ----
file(GET_RUNTIME_DEPENDENCIES
  LIBRARIES "${libkumo}"
  RESOLVED_DEPENDENCIES_VAR resolved
  UNRESOLVED_DEPENDENCIES_VAR unresolved)
if(unresolved)
  message(FATAL_ERROR "downstream test: the installed libkumo.so does not find ${unresolved}")
endif()
foreach(dep IN LISTS resolved)
  string(FIND "${dep}" "${KUMO_BUILD_DIR}/" in_build_tree)
  string(FIND "${dep}" "${libdir}/" in_prefix)
  if(NOT in_prefix EQUAL 0 AND (dep MATCHES "/(site|dist)-packages/" OR in_build_tree EQUAL 0))
    message(FATAL_ERROR "downstream test: the installed libkumo.so loads ${dep} from a build tree or a Python environment")
  endif()
  if(dep MATCHES "libscipy_openblas" AND NOT in_prefix EQUAL 0)
    message(FATAL_ERROR "downstream test: the installed libkumo.so loads ${dep}, not its copy in ${libdir}")
  endif()
endforeach()
string(REPLACE ";" "\n  " resolved_lines "${resolved}")
message(STATUS "installed libkumo.so loads:\n  ${resolved_lines}")

# ---- a project that uses it ----
set(make_args "")
if(MAKE_PROGRAM)
  set(make_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run_step(configure ${CMAKE_COMMAND} -S "${EXAMPLE_DIR}" -B "${app_build}" -G "${GENERATOR}" ${make_args}
         "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
         -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS "${app_build}/CMakeCache.txt" kumo_dir_line REGEX "^kumo_DIR:")
string(REGEX REPLACE "^kumo_DIR:[A-Z]+=" "" found_kumo_dir "${kumo_dir_line}")
file(REAL_PATH "${found_kumo_dir}" found_kumo_dir)
file(REAL_PATH "${libdir}/cmake/kumo" installed_kumo_dir)
if(NOT found_kumo_dir STREQUAL installed_kumo_dir)
  message(FATAL_ERROR "downstream test: find_package(kumo) found ${found_kumo_dir}, not ${installed_kumo_dir}")
endif()

run_step(build ${CMAKE_COMMAND} --build "${app_build}" --config Release)

set(app "${app_build}/app")
if(NOT EXISTS "${app}")
  set(app "${app_build}/Release/app")
endif()
run_step(run "${app}")
# The example prints NumPy-style reprs and exits non-zero on a wrong value.
if(NOT step_output MATCHES "\\[15\\., 22\\.\\]\\]\\)" OR NOT step_output MATCHES "solve\\(A, \\[5, 11\\]\\) = array\\(\\[1\\., 2\\.\\]\\)")
  message(FATAL_ERROR "downstream test: unexpected output of the example")
endif()
if(EXPECT_CUDA_PLUGIN AND NOT step_output MATCHES "CUDA plugin: loaded")
  message(FATAL_ERROR "downstream test: the installed libkumo does not load its CUDA plugin")
endif()
message(STATUS "downstream test passed")
