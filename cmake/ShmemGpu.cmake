# SPDX-License-Identifier: BSD-3-Clause
# GPU build of libshmem (SHMEM_GPU=cuda or hip): enables the language, adds the device runtime
# (src/device) and the ipc transport (src/transport/ipc) to the library, and provides
# shmem_gpu_sources(<target> <sources>...) for tests and examples: it compiles .cu files as CUDA or
# HIP, whichever this build is, without relocatable device code.
include_guard(GLOBAL)

if(SHMEM_GPU STREQUAL "cuda")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(SHMEM_GPU_LANG CUDA)
  set(SHMEM_GPU_RUNTIME CUDA::cudart)
elseif(SHMEM_GPU STREQUAL "hip")
  if(NOT CMAKE_HIP_COMPILER AND NOT DEFINED ENV{HIPCXX})
    # The ROCm clang that hipcc drives: /opt/rocm's, else Debian's newest clang++-<version>.
    file(GLOB _shmem_clangs /usr/bin/clang++-[1-9][0-9])
    list(SORT _shmem_clangs COMPARE NATURAL ORDER DESCENDING)
    if(EXISTS /opt/rocm/llvm/bin/clang++)
      list(PREPEND _shmem_clangs /opt/rocm/llvm/bin/clang++)
    endif()
    if(_shmem_clangs)
      list(GET _shmem_clangs 0 _shmem_clang)
      set(CMAKE_HIP_COMPILER ${_shmem_clang})
    endif()
  endif()
  # CMake looks for <rocm>/lib/cmake/hip-lang; Debian installs it under lib/<multiarch>/cmake. A
  # folder in the build tree with that layout points CMake at it.
  if(NOT CMAKE_HIP_COMPILER_ROCM_ROOT AND NOT EXISTS /opt/rocm/lib/cmake/hip-lang
     AND EXISTS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang/hip-lang-config.cmake)
    set(_shmem_rocm ${CMAKE_BINARY_DIR}/rocm-layout)
    file(MAKE_DIRECTORY ${_shmem_rocm}/lib/cmake)
    file(CREATE_LINK /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang
         ${_shmem_rocm}/lib/cmake/hip-lang SYMBOLIC)
    set(CMAKE_HIP_COMPILER_ROCM_ROOT ${_shmem_rocm})
    # Its dependencies (amd_comgr, hsa-runtime64) live there too; CMake's compiler checks run in
    # a fresh project that only sees the environment.
    set(ENV{CMAKE_PREFIX_PATH} "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake:$ENV{CMAKE_PREFIX_PATH}")
    # What hipcc passes to that clang on such a system.
    if(NOT DEFINED ENV{HIPFLAGS} AND EXISTS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode)
      set(ENV{HIPFLAGS} "--rocm-path=/usr --hip-device-lib-path=/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode")
    endif()
  endif()
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES gfx90a gfx940)
  endif()
  enable_language(HIP)
  find_package(hip REQUIRED)
  set(SHMEM_GPU_LANG HIP)
  set(SHMEM_GPU_RUNTIME hip::host)
else()
  message(FATAL_ERROR "ShmemGpu.cmake: SHMEM_GPU is '${SHMEM_GPU}', not cuda or hip")
endif()

set(CMAKE_${SHMEM_GPU_LANG}_STANDARD 17)
set(CMAKE_${SHMEM_GPU_LANG}_STANDARD_REQUIRED ON)
set(CMAKE_${SHMEM_GPU_LANG}_EXTENSIONS OFF)
if(SHMEM_GPU_LANG STREQUAL "CUDA")
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
endif()

# shmem_gpu_sources(target sources...): adds CUDA/HIP sources to target.
function(shmem_gpu_sources target)
  if(SHMEM_GPU_LANG STREQUAL "HIP")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE HIP)
  endif()
  target_sources(${target} PRIVATE ${ARGN})
  target_link_libraries(${target} PRIVATE ${SHMEM_GPU_RUNTIME})
  # Set explicitly: a target made before enable_language() has no default architectures.
  if(SHMEM_GPU_LANG STREQUAL "CUDA")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}"
                                               CUDA_RUNTIME_LIBRARY Shared
                                               CUDA_SEPARABLE_COMPILATION OFF)
  else()
    set_target_properties(${target} PROPERTIES HIP_ARCHITECTURES "${CMAKE_HIP_ARCHITECTURES}")
  endif()
endfunction()

file(GLOB SHMEM_GPU_LIB_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/device/*.cu
     ${PROJECT_SOURCE_DIR}/src/transport/ipc/*.cu)
shmem_gpu_sources(shmem ${SHMEM_GPU_LIB_SOURCES})
# Private: C and C++ users of shmem.h need no GPU runtime; CUDA/HIP code links its own.
target_link_libraries(shmem PRIVATE ${SHMEM_GPU_RUNTIME})
