# System libraries a program must link when it links rkai's *static* library: what the code
# inside it needs (`cargo rustc -- --print native-static-libs`; the no_std library CMake builds
# needs `-lc -lm -lrt -lpthread` on *-linux-gnu, the lists below also cover a build with Rust's
# standard library). The shared library records its own dependencies. Used by rkai's CMakeLists.txt and by the installed
# KleidiAIConfig.cmake / rkaiConfig.cmake.

# rkai_native_link_libraries(<out-var> <rust-target-triple or empty>)
# Sets <out-var> to a list of link items (may contain Threads::Threads).
function(rkai_native_link_libraries out triple)
  if(triple MATCHES "musl")
    set(libs "")                          # musl's Rust std links libunwind and libc statically
  elseif(triple MATCHES "android" OR CMAKE_SYSTEM_NAME STREQUAL "Android")
    set(libs dl log m)
  elseif(triple MATCHES "linux" OR CMAKE_SYSTEM_NAME STREQUAL "Linux")
    # native-static-libs on *-linux-gnu: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
    set(libs gcc_s util rt Threads::Threads m ${CMAKE_DL_LIBS})
  elseif(triple MATCHES "apple" OR APPLE)
    set(libs iconv System c m)
  elseif(triple MATCHES "windows" OR WIN32)
    set(libs kernel32 advapi32 ntdll userenv ws2_32 dbghelp)
  else()
    set(libs Threads::Threads m)
  endif()
  list(REMOVE_DUPLICATES libs)
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()

# rkai_pkgconfig_private_libs(<out-var> <rust-target-triple or empty>)
# Sets <out-var> to the Libs.private string of the pkg-config files.
function(rkai_pkgconfig_private_libs out triple)
  rkai_native_link_libraries(libs "${triple}")
  set(flags "")
  foreach(lib IN LISTS libs)
    if(lib STREQUAL "Threads::Threads")
      set(lib pthread)
    endif()
    string(APPEND flags " -l${lib}")
  endforeach()
  string(STRIP "${flags}" flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
