# Writes OUTPUT, a C++ source that holds each gnuplot script of SCRIPTS ("|" between the paths) as
# a string, found by its file name without ".gp" (experiments/figures.h, kept_gnuplot_script):
#   cmake -DOUTPUT=gnuplot_scripts.cpp -DSCRIPTS="a.gp|b.gp" -P embed_gnuplot.cmake
# Each script becomes a raw string literal, byte for byte; a script that holds the literal's
# closing delimiter is refused.
string(REPLACE "|" ";" scripts "${SCRIPTS}")
set(delimiter "mmsim_gp")
set(body "")
foreach(path IN LISTS scripts)
  get_filename_component(file "${path}" NAME)
  string(REGEX REPLACE "\\.gp$" "" name "${file}")
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} holds )${delimiter}\", which would end its string early")
  endif()
  string(APPEND body "  if (name == \"${name}\") return R\"${delimiter}(${text})${delimiter}\";\n")
endforeach()
file(WRITE "${OUTPUT}.new" "// Generated from experiments/figures/*.gp by cmake/embed_gnuplot.cmake: do not edit.
#include <string_view>

namespace mmsim::experiments {

std::string_view built_in_gnuplot_script(std::string_view name) {
${body}  return {};
}

}  // namespace mmsim::experiments
")
# Rewritten only when it changed, so that touching a script without changing it rebuilds nothing.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.new" "${OUTPUT}")
file(REMOVE "${OUTPUT}.new")
