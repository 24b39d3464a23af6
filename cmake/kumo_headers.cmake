# Which headers a C++ install carries.
#
# The public header include/kumo/kumo.h includes the library's own headers by
# their source paths ("core/array.h", "linalg/linalg_backend.h", ...), so those
# are installed with the same paths below include/kumo. A header in a cuda/
# folder belongs to the CUDA plugin; it is left out when it includes a CUDA
# header, directly or through another such header, because a downstream
# project must compile against the install without the CUDA toolkit.

# A CUDA toolkit header: the runtime, the math libraries (cuBLAS, cuSOLVER,
# cuRAND, cuSPARSE, cuFFT, cuComplex, ...), NVRTC, NCCL, cuDNN, CCCL.
set(KUMO_CUDA_INCLUDE_REGEX
    "#[ \t]*include[ \t]*[<\"](cu[A-Za-z0-9_]*\\.h|nvrtc\\.h|nccl\\.h|cudnn[A-Za-z0-9_]*\\.h|thrust/|cub/|cuda/std/|nv/)")

# Removes from the list <headers_var> (paths relative to the source root) the
# cuda/ headers that need the CUDA toolkit to compile.
function(kumo_drop_cuda_only_headers headers_var)
  set(headers ${${headers_var}})
  set(cuda_headers ${headers})
  list(FILTER cuda_headers INCLUDE REGEX "(^|/)cuda/")
  set(dropped "")
  foreach(header IN LISTS cuda_headers)
    file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${header} hits REGEX "${KUMO_CUDA_INCLUDE_REGEX}")
    if(hits)
      list(APPEND dropped ${header})
    endif()
  endforeach()
  # Then whatever includes a dropped header, until nothing changes. Headers
  # from other folders are included by their source path, which is how they
  # appear in `dropped`.
  set(changed TRUE)
  while(changed)
    set(changed FALSE)
    foreach(header IN LISTS cuda_headers)
      if(header IN_LIST dropped)
        continue()
      endif()
      file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/${header} includes REGEX "#[ \t]*include[ \t]*\"")
      foreach(line IN LISTS includes)
        string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" included "${line}")
        if(included IN_LIST dropped)
          list(APPEND dropped ${header})
          set(changed TRUE)
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  if(dropped)
    list(REMOVE_ITEM headers ${dropped})
  endif()
  set(${headers_var} ${headers} PARENT_SCOPE)
endfunction()
