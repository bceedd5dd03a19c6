# Glue for frameworks that never call find_package(KleidiAI) but link a plain target `kleidiai`
# when one exists and otherwise download KleidiAI (torchao, XNNPACK; through them ExecuTorch):
# defines `kleidiai` from an installed rkai before the framework's CMakeLists.txt looks for it.
# Installed as <prefix>/lib/cmake/KleidiAI/kleidiai-target.cmake; use it by injecting it after
# the framework's project() call:
#
#   cmake -S <framework> -B build -DCMAKE_PREFIX_PATH=<prefix> \
#         -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/KleidiAI/kleidiai-target.cmake
#
# (CMake 3.18 or newer: `kleidiai` is an ALIAS of the package's KleidiAI::kleidiai, made global
# so that every directory of the framework sees it.) Set KleidiAI_USE_SHARED=ON for the shared
# library. Runs after every project() call; only the first one defines anything.
if(TARGET kleidiai)
  return()
endif()
if(CMAKE_VERSION VERSION_LESS 3.18)
  message(FATAL_ERROR "kleidiai-target.cmake needs CMake 3.18 or newer (ALIAS of an imported target)")
endif()
find_package(KleidiAI 1.30 CONFIG REQUIRED HINTS "${CMAKE_CURRENT_LIST_DIR}")
foreach(_rkai_glue_target IN ITEMS KleidiAI::kleidiai KleidiAI::kleidiai_static KleidiAI::kleidiai_shared)
  set_target_properties(${_rkai_glue_target} PROPERTIES IMPORTED_GLOBAL TRUE)
endforeach()
unset(_rkai_glue_target)
add_library(kleidiai ALIAS KleidiAI::kleidiai)
message(STATUS "kleidiai: rkai ${KleidiAI_RKAI_VERSION} (KleidiAI ${KleidiAI_VERSION} API) from ${KleidiAI_DIR}")
