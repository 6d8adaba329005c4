# The explorer (explorer/): a second build of the engine, the models and the registry with
# Emscripten into ${CMAKE_BINARY_DIR}/explorer/site. AUTO builds it (with `all`, so the test
# build has it) where emcmake is found; Debian's emcc finds its node modules through NODE_PATH.
set(MMSIM_EXPLORER AUTO CACHE STRING "Build the explorer page with Emscripten: AUTO (where emcmake is found), ON or OFF")
set_property(CACHE MMSIM_EXPLORER PROPERTY STRINGS AUTO ON OFF)
set(MMSIM_HAVE_EXPLORER OFF)
if(NOT MMSIM_EXPLORER STREQUAL "OFF")
  find_program(MMSIM_EMCMAKE emcmake)
  if(MMSIM_EMCMAKE)
    set(MMSIM_HAVE_EXPLORER ON)
  elseif(MMSIM_EXPLORER STREQUAL "ON")
    message(FATAL_ERROR "MMSIM_EXPLORER=ON but emcmake was not found (Debian: apt-get install emscripten node-acorn)")
  endif()
endif()
message(STATUS "mmsim explorer (WebAssembly): ${MMSIM_HAVE_EXPLORER}")
set(MMSIM_EXPLORER_SITE ${CMAKE_BINARY_DIR}/explorer/site)
if(MMSIM_HAVE_EXPLORER)
  set(_node_path "$ENV{NODE_PATH}")
  if(NOT _node_path)
    set(_node_path /usr/share/nodejs)
  endif()
  # The inner build is incremental: a second `cmake --build` recompiles only what changed.
  add_custom_target(explorer ALL
    COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=${_node_path} ${MMSIM_EMCMAKE} ${CMAKE_COMMAND}
            -S ${PROJECT_SOURCE_DIR} -B ${CMAKE_BINARY_DIR}/explorer -DCMAKE_BUILD_TYPE=MinSizeRel
            -DMMSIM_BUILD_TESTS=OFF -DMMSIM_INSTALL=OFF -DMMSIM_CUDA=OFF -DMMSIM_MPI=OFF
    COMMAND ${CMAKE_COMMAND} -E env NODE_PATH=${_node_path} ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR}/explorer
    COMMENT "mmsim explorer: WebAssembly build into ${MMSIM_EXPLORER_SITE}"
    VERBATIM)
endif()
