# `cpack -G DEB` in the build folder: the Debian package mmsim (everything `cmake --install` puts in
# the component "mmsim": the program, its man page, the CPU libraries, headers and CMake package)
# and, where the Python module is built, python3-mmsim. Installed under /usr. Their Depends come
# from dpkg-shlibdeps (dpkg-dev), so they name exactly the shared libraries the files link: the C
# and C++ runtimes, which every Debian 12 has (the CUDA runtime is linked statically).
set(CPACK_PACKAGE_NAME mmsim)
set(CPACK_PACKAGE_VENDOR "mmsim")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL mmsim)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(MMSIM_PACKAGE_MAINTAINER "mmsim developers" CACHE STRING "Maintainer field of the Debian packages")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MMSIM_PACKAGE_MAINTAINER}")

set(CPACK_DEBIAN_MMSIM_PACKAGE_NAME mmsim)
set(CPACK_COMPONENT_MMSIM_DESCRIPTION
    "The mmsim program (with its man page), which runs the published algorithms as SIMT\nprograms on the DMM, UMM and HMM and reports congestion and time units, and its C++\nlibraries, headers and CMake package (find_package(mmsim)) for kernels of one's own.")

if(MMSIM_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-mmsim)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  # The extension is built for one Python minor version; NumPy is imported at run time.
  math(EXPR _next_minor "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${_next_minor}), python3-numpy")
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION
      "Python module of mmsim, the memory machine models simulator\nimport mmsim: the registry of algorithms, runs with the same report as mmsim run --json,\nwarp accesses, the layout congestion Monte Carlo, and kernels of one's own given as NumPy\narrays of per-thread addresses, run by the same engine.")
endif()

include(CPack)
