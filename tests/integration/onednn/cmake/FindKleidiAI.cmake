# The find module pattern of oneDNN's KleidiAI integration (cmake/FindKleidiAI.cmake in
# uxlfoundation/oneDNN pull request 2832): the header by its kai/ path and the library by the
# name kleidiai, both searched under the environment variable KAI_ROOT_DIR (the library also in
# its lib/ and build/ subdirectories) besides CMake's default places (CMAKE_PREFIX_PATH).
find_path(KAI_INCLUDE_DIR NAMES kai/kai_common.h PATHS ENV KAI_ROOT_DIR)
find_library(KAI_LIBRARY NAMES kleidiai PATHS ENV KAI_ROOT_DIR PATH_SUFFIXES lib build)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(KleidiAI DEFAULT_MSG KAI_INCLUDE_DIR KAI_LIBRARY)
mark_as_advanced(KAI_INCLUDE_DIR KAI_LIBRARY)
