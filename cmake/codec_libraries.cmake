# The compression libraries the core calls (cpp/table/codecs/): Snappy, zlib, bzip2, LZ4 and
# Zstandard, as RocksDB and LevelDB link them, to decompress blocks and to compress the blocks the
# table writer writes.
#   native: Debian's -dev packages (libsnappy-dev zlib1g-dev libbz2-dev liblz4-dev libzstd-dev).
#   wasm:   the same versions compiled from the upstream tarballs of Debian's source packages, which
#           scripts/codec-sources.sh fetches, checks and unpacks into build/codec-src. Only what
#           block decompression and compression need is compiled.
# sstfilter_codec_libraries(<suffix>) defines the target sstfilter_codecs_<suffix> to link.
set(SSTFILTER_CODEC_SOURCE_DIR "${CMAKE_SOURCE_DIR}/build/codec-src"
    CACHE PATH "Unpacked codec library sources for the wasm build (scripts/codec-sources.sh)")

function(sstfilter_codec_libraries suffix)
  set(target sstfilter_codecs_${suffix})
  if(NOT EMSCRIPTEN)
    # library  header  Debian package
    set(system_libraries "snappy snappy.h libsnappy-dev" "z zlib.h zlib1g-dev" "lz4 lz4.h liblz4-dev"
                         "zstd zstd.h libzstd-dev" "bz2 bzlib.h libbz2-dev")
    add_library(${target} INTERFACE)
    foreach(entry IN LISTS system_libraries)
      separate_arguments(entry UNIX_COMMAND "${entry}")
      list(GET entry 0 lib)
      list(GET entry 1 header)
      list(GET entry 2 package)
      find_path(SSTFILTER_INCLUDE_${lib} ${header})
      find_library(SSTFILTER_LIB_${lib} ${lib})
      if(NOT SSTFILTER_INCLUDE_${lib} OR NOT SSTFILTER_LIB_${lib})
        message(FATAL_ERROR "lib${lib} (${header}) not found: the native build links Debian's "
                            "libsnappy-dev zlib1g-dev liblz4-dev libzstd-dev libbz2-dev; "
                            "install ${package}")
      endif()
      target_include_directories(${target} SYSTEM INTERFACE ${SSTFILTER_INCLUDE_${lib}})
      target_link_libraries(${target} INTERFACE ${SSTFILTER_LIB_${lib}})
    endforeach()
    return()
  endif()

  set(src "${SSTFILTER_CODEC_SOURCE_DIR}")
  foreach(lib snappy zlib bzip2 lz4 zstd)
    if(NOT EXISTS "${src}/${lib}/.sstfilter-sha256")
      message(FATAL_ERROR "${src}/${lib} is missing: run scripts/codec-sources.sh")
    endif()
  endforeach()

  # Snappy's build generates two headers from templates; these are the answers its CMake checks
  # give under Emscripten (a little-endian 32-bit target with sys/uio.h, no BMI2). The SIMD128
  # module compiles it with -mssse3, Emscripten's SSSE3 intrinsics over SIMD128, so that Snappy
  # takes its own SSSE3 path (snappy.cc: pattern copies by byte shuffle); a tenth less CPU per
  # walk of the content bench's Snappy table. The scalar module keeps the portable path.
  set(generated "${CMAKE_CURRENT_BINARY_DIR}/codecs-generated/${suffix}/snappy")
  set(HAVE_SYS_UIO_H_01 1)
  set(PROJECT_VERSION_MAJOR 1)
  set(PROJECT_VERSION_MINOR 1)
  set(PROJECT_VERSION_PATCH 9)
  configure_file("${src}/snappy/snappy-stubs-public.h.in" "${generated}/snappy-stubs-public.h")
  set(HAVE_ATTRIBUTE_ALWAYS_INLINE 1)
  set(HAVE_BUILTIN_CTZ 1)
  set(HAVE_BUILTIN_EXPECT 1)
  set(HAVE_SYS_UIO_H 1)
  set(HAVE_UNISTD_H 1)
  if(suffix STREQUAL "simd")
    set(SNAPPY_HAVE_SSSE3 1)
  else()
    set(SNAPPY_HAVE_SSSE3 0)
  endif()
  set(SNAPPY_HAVE_BMI2 0)
  configure_file("${src}/snappy/cmake/config.h.in" "${generated}/config.h")

  file(GLOB zstd_sources "${src}/zstd/lib/common/*.c" "${src}/zstd/lib/decompress/*.c")
  # The compressor (zstdmt_compress.c, the multi-threaded one, left out) is compiled for size: the
  # table writer uses one level, and its speed matters less than the module's download size.
  # ZSTD_NO_INLINE changes no output.
  file(GLOB zstd_compress_sources "${src}/zstd/lib/compress/*.c")
  list(FILTER zstd_compress_sources EXCLUDE REGEX "zstdmt_compress\\.c$")
  set_source_files_properties(${zstd_compress_sources} PROPERTIES COMPILE_OPTIONS "-Os"
                              COMPILE_DEFINITIONS "ZSTD_NO_INLINE=1")
  # LZ4 hashes 5 bytes where its register type is 64 bits wide and 4 bytes elsewhere, and picks that
  # type by __x86_64__ (lz4.c reg_t): the same input compresses differently on wasm32 than on the
  # x86-64 machines RocksDB runs on. Compiled as x86-64 sees it, lz4.c writes RocksDB's bytes; the
  # switch changes nothing else but a decoder speed choice.
  set_source_files_properties(${src}/lz4/lib/lz4.c PROPERTIES COMPILE_DEFINITIONS "__x86_64__=1")
  add_library(${target} STATIC
    ${src}/snappy/snappy.cc ${src}/snappy/snappy-sinksource.cc ${src}/snappy/snappy-stubs-internal.cc
    ${src}/zlib/adler32.c ${src}/zlib/crc32.c ${src}/zlib/inffast.c ${src}/zlib/inflate.c
    ${src}/zlib/inftrees.c ${src}/zlib/zutil.c ${src}/zlib/deflate.c ${src}/zlib/trees.c
    ${src}/bzip2/blocksort.c ${src}/bzip2/huffman.c ${src}/bzip2/crctable.c ${src}/bzip2/randtable.c
    ${src}/bzip2/compress.c ${src}/bzip2/decompress.c ${src}/bzip2/bzlib.c
    ${src}/lz4/lib/lz4.c ${src}/lz4/lib/lz4hc.c
    ${zstd_sources} ${zstd_compress_sources})
  target_include_directories(${target} SYSTEM PUBLIC ${src}/snappy ${generated} ${src}/zlib
                                                     ${src}/bzip2 ${src}/lz4/lib ${src}/zstd/lib)
  # zstd: no x86-64 assembly, no pre-v0.8 frame formats, and single-threaded (ZSTD_MULTITHREAD
  # stays undefined, so lib/common/pool.c and threading.c compile to their no-thread forms).
  target_compile_definitions(${target} PRIVATE HAVE_CONFIG_H=1 ZSTD_DISABLE_ASM=1
                                               ZSTD_LEGACY_SUPPORT=0 ZSTD_NO_TRACE=1)
  # Third-party code: built as its authors ship it, without our warnings.
  target_compile_options(${target} PRIVATE -O3 -w)
  if(suffix STREQUAL "simd")
    # Snappy is the only C++ here: the C codecs keep their portable code paths (and outputs).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-mssse3>)
  endif()
endfunction()
