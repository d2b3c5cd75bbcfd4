# CoreThreads.StartedOnlyByTheThreadCache: the ThreadSanitizer run (setup.sh test) builds only the
# test areas labelled "threads", because the core starts threads in one place. This check keeps
# that true: a thread started anywhere else in core/ or app/cli/, or the thread cache and the
# chunk inflater used by anything but their one user, fails it (then add the new user's test area
# to MESHSCOPE_THREADED_TEST_AREAS in tests/CMakeLists.txt and widen the lists below).
# Usage: cmake -DSOURCE_DIR=<checkout> -P check_threads.cmake
cmake_minimum_required(VERSION 3.25)
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR}
     ${SOURCE_DIR}/core/*.cpp ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/app/cli/*.cpp ${SOURCE_DIR}/app/cli/*.h)
if(NOT sources)
  message(FATAL_ERROR "no sources found under ${SOURCE_DIR}/core")
endif()
# pattern=the only files allowed to hold it, separated by commas (std::thread::hardware_concurrency
# starts nothing and is allowed anywhere)
set(rules
  "std::thread([^:]|$)|std::jthread|std::async|pthread_create|thrd_create=core/io/thread_cache.cpp"
  "CachedThread=core/io/thread_cache.h,core/io/thread_cache.cpp,core/io/decompress.h,core/io/decompress.cpp"
  "InflateAhead=core/io/thread_cache.h,core/io/decompress.h,core/io/decompress.cpp,core/formats/roblox_model/model_binary.cpp")
set(failed FALSE)
foreach(rule ${rules})
  string(FIND "${rule}" "=" eq)
  string(SUBSTRING "${rule}" 0 ${eq} pattern)
  math(EXPR from "${eq} + 1")
  string(SUBSTRING "${rule}" ${from} -1 allowed)
  set(allowed_text "${allowed}")
  string(REPLACE "," ";" allowed "${allowed}")
  foreach(f ${sources})
    file(STRINGS ${SOURCE_DIR}/${f} hits REGEX "${pattern}")
    if(hits AND NOT f IN_LIST allowed)
      message(SEND_ERROR "${f} uses ${pattern}, allowed only in ${allowed_text}: ${hits}")
      set(failed TRUE)
    endif()
  endforeach()
endforeach()
if(failed)
  message(FATAL_ERROR "threads started outside the thread cache: see above")
endif()
message(STATUS "threads are started only by core/io/thread_cache.cpp, for InflateAhead")
