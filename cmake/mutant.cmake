# The mutation check (tests/mutants/run.sh, docs/mutants.md): -DMMSIM_MUTANT=name builds mmsim with one
# deliberate mutant of tests/mutants/list.txt switched on.
#
# Each source file that carries mutant sites (it includes sim/mutant.h) gets a generated header of its
# own naming the active mutant, or none, and a compile definition that points it there. The definition
# never changes, and configure_file rewrites a header only when its content changes: switching mutants
# rebuilds the one or two files whose sites are switched on or off, then relinks. A build without
# MMSIM_MUTANT compiles every site as mmsim itself (mutant::is is false, the wrong rule is dropped).
set(MMSIM_MUTANT "" CACHE STRING "Build with one deliberate mutant switched on (tests/mutants/list.txt); empty: none")
if(NOT MMSIM_MUTANT STREQUAL "")
  file(STRINGS ${PROJECT_SOURCE_DIR}/tests/mutants/list.txt mmsim_mutant_line REGEX "^${MMSIM_MUTANT} ")
  if(NOT mmsim_mutant_line)
    message(FATAL_ERROR "MMSIM_MUTANT=${MMSIM_MUTANT} is not a mutant of tests/mutants/list.txt")
  endif()
  message(WARNING "mmsim is built with the deliberate mutant ${MMSIM_MUTANT}: its results are wrong on purpose")
endif()

# mmsim_mutant_sites(TARGET): gives each of TARGET's sources that include sim/mutant.h its header.
# Call it after every source of TARGET was added.
function(mmsim_mutant_sites target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${dir} OUTPUT_VARIABLE path)
    file(STRINGS ${path} includes REGEX "#include \"sim/mutant.h\"")
    if(NOT includes)
      continue()
    endif()
    file(RELATIVE_PATH id ${PROJECT_SOURCE_DIR} ${path})
    string(REPLACE "/" "_" id ${id})
    set(MMSIM_SITE_MUTANT "")
    if(NOT MMSIM_MUTANT STREQUAL "")
      file(STRINGS ${path} site REGEX "mutant::is\\(\"${MMSIM_MUTANT}\"\\)")
      if(site)
        set(MMSIM_SITE_MUTANT ${MMSIM_MUTANT})
      endif()
    endif()
    set(header ${PROJECT_BINARY_DIR}/mutant/${id}.h)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/mmsim_mutant.h.in ${header} @ONLY)
    set_source_files_properties(${path} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_DEFINITIONS
                                "MMSIM_MUTANT_HEADER=\"${header}\"")
  endforeach()
endfunction()
