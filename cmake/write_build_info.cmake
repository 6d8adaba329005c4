# cmake -P script (cmake/build_info.cmake runs it at every build): writes OUTPUT from TEMPLATE with
# VERSION, CUDA (ON/OFF) and the git commit of SOURCE_DIR, or "unknown" where SOURCE_DIR is not the
# top of a git checkout (a source tarball, even one unpacked inside another repository). A commit
# with uncommitted changes to tracked files is marked "-dirty". configure_file leaves OUTPUT alone
# when its text is unchanged, so nothing recompiles until the commit changes.
set(MMSIM_GIT_COMMIT unknown)
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" src)
  endif()
  if(rc EQUAL 0 AND top STREQUAL src)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                    OUTPUT_VARIABLE commit RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(rc EQUAL 0 AND commit)
      set(MMSIM_GIT_COMMIT ${commit})
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0 AND changes)
        string(APPEND MMSIM_GIT_COMMIT "-dirty")
      endif()
    endif()
  endif()
endif()
if(CUDA)
  set(MMSIM_CUDA_BACKEND true)
else()
  set(MMSIM_CUDA_BACKEND false)
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
