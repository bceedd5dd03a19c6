# Writes a pkg-config file at install time (included from an install(CODE) rule of rkai's
# CMakeLists.txt), so the file names the prefix really installed to: `cmake --install --prefix`
# overrides CMAKE_INSTALL_PREFIX only at this point.
#
# Inputs (variables): CMAKE_INSTALL_PREFIX, RKAI_PC_NAME, RKAI_PC_RKAI_VERSION,
# RKAI_PC_KLEIDIAI_VERSION, RKAI_PC_LIBDIR, RKAI_PC_INCLUDEDIR, RKAI_PC_PRIVATE_LIBS.
function(rkai_write_pc template output)
  set(RKAI_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  if(IS_ABSOLUTE "${RKAI_PC_LIBDIR}")
    set(RKAI_PC_LIBDIR_VALUE "${RKAI_PC_LIBDIR}")
  else()
    set(RKAI_PC_LIBDIR_VALUE "\${exec_prefix}/${RKAI_PC_LIBDIR}")
  endif()
  if(IS_ABSOLUTE "${RKAI_PC_INCLUDEDIR}")
    set(RKAI_PC_INCLUDEDIR_VALUE "${RKAI_PC_INCLUDEDIR}")
  else()
    set(RKAI_PC_INCLUDEDIR_VALUE "\${prefix}/${RKAI_PC_INCLUDEDIR}")
  endif()
  configure_file("${template}" "${output}" @ONLY)
endfunction()
