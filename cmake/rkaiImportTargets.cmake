# Defines the imported targets of an installed rkai for KleidiAIConfig.cmake and rkaiConfig.cmake.
# Installed next to them; needs only CMake 3.16.

# rkai_import_package_targets(
#   NAMESPACE <ns> NAME <name> USE_SHARED <bool>
#   INCLUDE_DIR <dir> LIB_DIR <dir> SHARED_DIR <dir>
#   STATIC_NAME <file> SHARED_NAME <file> [IMPLIB_NAME <file>]
#   [LINK_LIBRARIES <items>...])
#
# Creates, unless they exist:
#   <ns>::<name>_static  STATIC IMPORTED  (<LIB_DIR>/<STATIC_NAME>, with LINK_LIBRARIES)
#   <ns>::<name>_shared  SHARED IMPORTED  (<SHARED_DIR>/<SHARED_NAME>)
#   <ns>::<name>         one of the two, shared when USE_SHARED is true
# On a missing file it sets <CMAKE_FIND_PACKAGE_NAME>_FOUND to FALSE with a message.
function(rkai_import_package_targets)
  cmake_parse_arguments(A ""
    "NAMESPACE;NAME;USE_SHARED;INCLUDE_DIR;LIB_DIR;SHARED_DIR;STATIC_NAME;SHARED_NAME;IMPLIB_NAME"
    "LINK_LIBRARIES" ${ARGN})

  set(static_file "${A_LIB_DIR}/${A_STATIC_NAME}")
  set(shared_file "${A_SHARED_DIR}/${A_SHARED_NAME}")
  set(implib_file "")
  if(A_IMPLIB_NAME)
    set(implib_file "${A_LIB_DIR}/${A_IMPLIB_NAME}")
  endif()
  foreach(f IN ITEMS "${static_file}" "${shared_file}" "${implib_file}")
    if(f AND NOT EXISTS "${f}")
      set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE PARENT_SCOPE)
      set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE "rkai installation is incomplete: ${f} is missing" PARENT_SCOPE)
      return()
    endif()
  endforeach()

  if(A_USE_SHARED)
    set(default_kind SHARED)
  else()
    set(default_kind STATIC)
  endif()
  foreach(variant IN ITEMS static shared default)
    if(variant STREQUAL "default")
      set(tgt "${A_NAMESPACE}::${A_NAME}")
      set(kind ${default_kind})
    elseif(variant STREQUAL "static")
      set(tgt "${A_NAMESPACE}::${A_NAME}_static")
      set(kind STATIC)
    else()
      set(tgt "${A_NAMESPACE}::${A_NAME}_shared")
      set(kind SHARED)
    endif()
    if(TARGET "${tgt}")
      continue()
    endif()
    add_library("${tgt}" ${kind} IMPORTED)
    set_target_properties("${tgt}" PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${A_INCLUDE_DIR}"
      IMPORTED_LINK_INTERFACE_LANGUAGES C)
    if(kind STREQUAL "STATIC")
      set_target_properties("${tgt}" PROPERTIES
        IMPORTED_LOCATION "${static_file}"
        INTERFACE_LINK_LIBRARIES "${A_LINK_LIBRARIES}")
    else()
      set_target_properties("${tgt}" PROPERTIES IMPORTED_LOCATION "${shared_file}")
      if(implib_file)
        set_target_properties("${tgt}" PROPERTIES IMPORTED_IMPLIB "${implib_file}")
      elseif(NOT APPLE)
        set_target_properties("${tgt}" PROPERTIES IMPORTED_SONAME "${A_SHARED_NAME}")
      endif()
    endif()
  endforeach()
endfunction()
