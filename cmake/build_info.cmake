# Which build this is, for `mmsim --version` and the Python module: the version, the git commit
# of the source tree and whether the CUDA backend is built (report/build_info.h). The commit
# is read at every build, not at configure time, so a new commit never leaves a stale one behind;
# the generated source changes only when the commit does, so an unchanged tree recompiles nothing.
set(MMSIM_BUILD_INFO_SOURCE ${CMAKE_BINARY_DIR}/generated/build_info.cpp)
set(_mmsim_build_info_args
  -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
  -DOUTPUT=${MMSIM_BUILD_INFO_SOURCE}
  -DTEMPLATE=${PROJECT_SOURCE_DIR}/cmake/build_info.cpp.in
  -DVERSION=${PROJECT_VERSION}
  -DCUDA=${MMSIM_HAVE_CUDA}
  -P ${PROJECT_SOURCE_DIR}/cmake/write_build_info.cmake)
# Once now, so that the source exists before the first build.
execute_process(COMMAND ${CMAKE_COMMAND} ${_mmsim_build_info_args})
add_custom_target(mmsim_build_info
  COMMAND ${CMAKE_COMMAND} ${_mmsim_build_info_args}
  BYPRODUCTS ${MMSIM_BUILD_INFO_SOURCE}
  COMMENT "mmsim build info (git commit)"
  VERBATIM)
