# The man page mmsim.1.gz, written after every link of the program from its own --help and that of
# each command (cmake/write_manpage.cmake), so that it can never disagree with the program.
set(MMSIM_MANPAGE ${CMAKE_BINARY_DIR}/man/mmsim.1.gz)
add_custom_command(OUTPUT ${MMSIM_MANPAGE}
  COMMAND ${CMAKE_COMMAND} -DMMSIM=$<TARGET_FILE:mmsim> -DOUTPUT=${MMSIM_MANPAGE} -DVERSION=${PROJECT_VERSION}
          -P ${PROJECT_SOURCE_DIR}/cmake/write_manpage.cmake
  DEPENDS mmsim ${PROJECT_SOURCE_DIR}/cmake/write_manpage.cmake
  COMMENT "man page mmsim.1 from mmsim --help"
  VERBATIM)
add_custom_target(mmsim_manpage ALL DEPENDS ${MMSIM_MANPAGE})
