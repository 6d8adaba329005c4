# What `cmake --install` puts where (under the prefix, /usr in the Debian package):
#   bin/mmsim                             the program
#   share/man/man1/mmsim.1.gz             its man page, made from its own --help (cmake/manpage.cmake)
#   lib/libmmsim_*.a                      the CPU libraries (never the CUDA backend's)
#   include/mmsim/{sim,models,...}/*.h    their headers: `#include "sim/engine.h"` reads as in the
#                                         tree, and /usr/include gains one folder, not five
#   include/mmsim/trace.cuh               the traced CUDA run's header (mmsim::trace, header only)
#   lib/cmake/mmsim/                      the CMake package: find_package(mmsim) gives mmsim::sim ...
#   lib/python3/dist-packages/mmsim/      the Python module, where built (python/CMakeLists.txt)
# Everything but the Python module is the component "mmsim" (the Debian package mmsim).
include(CMakePackageConfigHelpers)

set(MMSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mmsim)
set(MMSIM_LIBRARIES mmsim_sim mmsim_models mmsim_io mmsim_report mmsim_algorithms mmsim_teaching mmsim_kernels
                    mmsim_sweep mmsim_predict mmsim_experiments mmsim_trace)
foreach(lib IN LISTS MMSIM_LIBRARIES)
  string(REPLACE "mmsim_" "" name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${name})  # mmsim_sim -> mmsim::sim
endforeach()

install(TARGETS mmsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mmsim)
install(TARGETS ${MMSIM_LIBRARIES} EXPORT mmsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mmsim)
install(DIRECTORY sim models io report algorithms teaching kernels sweep predict experiments
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mmsim COMPONENT mmsim
        FILES_MATCHING PATTERN "*.h")
install(FILES include/mmsim/trace.cuh DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mmsim COMPONENT mmsim)
install(EXPORT mmsimTargets NAMESPACE mmsim:: DESTINATION ${MMSIM_CMAKE_DIR} COMPONENT mmsim)

configure_package_config_file(cmake/mmsimConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/mmsimConfig.cmake
                              INSTALL_DESTINATION ${MMSIM_CMAKE_DIR})
# 0.x: a new minor version may change the interface, so only the same minor version satisfies.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mmsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mmsimConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/mmsimConfigVersion.cmake
        DESTINATION ${MMSIM_CMAKE_DIR} COMPONENT mmsim)

include(cmake/manpage.cmake)
install(FILES ${MMSIM_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT mmsim)
