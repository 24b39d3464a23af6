// SuperLU's four precisions behind one template: Slu<T>::gstrf etc. call
// sgstrf / dgstrf / cgstrf / zgstrf for T = float, double, complex<float>,
// complex<double>. SuperLU's complex and doublecomplex are {re, im} structs
// with std::complex's layout, so kumo's arrays are passed as they are.
#pragma once
#include <complex>

extern "C" {
#include <superlu/slu_cdefs.h>
#include <superlu/slu_ddefs.h>
#include <superlu/slu_sdefs.h>
#include <superlu/slu_zdefs.h>
}

namespace kumo {
namespace sparse {
namespace linalg {
namespace host {

template <class T>
struct Slu;

#define KUMO_SLU_TRAITS(T, S, p, slu_dtype)                                                                       \
  template <>                                                                                                     \
  struct Slu<T> {                                                                                                 \
    static constexpr Dtype_t kType = slu_dtype;                                                                   \
    static S* cast(T* v) { return reinterpret_cast<S*>(v); }                                                      \
    static void create_compcol(SuperMatrix* a, int m, int n, int nnz, T* v, int* rows, int* colptr) {             \
      p##Create_CompCol_Matrix(a, m, n, nnz, cast(v), rows, colptr, SLU_NC, kType, SLU_GE);                       \
    }                                                                                                             \
    static void create_comprow(SuperMatrix* a, int m, int n, int nnz, T* v, int* cols, int* rowptr) {             \
      p##Create_CompRow_Matrix(a, m, n, nnz, cast(v), cols, rowptr, SLU_NR, kType, SLU_GE);                       \
    }                                                                                                             \
    static void create_dense(SuperMatrix* b, int m, int n, T* v, int ld) {                                        \
      p##Create_Dense_Matrix(b, m, n, cast(v), ld, SLU_DN, kType, SLU_GE);                                        \
    }                                                                                                             \
    static void gssv(superlu_options_t* o, SuperMatrix* a, int* pc, int* pr, SuperMatrix* l, SuperMatrix* u,      \
                     SuperMatrix* b, SuperLUStat_t* st, int* info) {                                              \
      p##gssv(o, a, pc, pr, l, u, b, st, info);                                                                   \
    }                                                                                                             \
    static void gstrf(superlu_options_t* o, SuperMatrix* ac, int relax, int panel, int* etree, int* pc, int* pr,  \
                      SuperMatrix* l, SuperMatrix* u, GlobalLU_t* glu, SuperLUStat_t* st, int* info) {            \
      p##gstrf(o, ac, relax, panel, etree, nullptr, 0, pc, pr, l, u, glu, st, info);                              \
    }                                                                                                             \
    static void gstrs(trans_t t, SuperMatrix* l, SuperMatrix* u, int* pc, int* pr, SuperMatrix* b,                \
                      SuperLUStat_t* st, int* info) {                                                             \
      p##gstrs(t, l, u, pc, pr, b, st, info);                                                                     \
    }                                                                                                             \
  };
KUMO_SLU_TRAITS(float, float, s, SLU_S)
KUMO_SLU_TRAITS(double, double, d, SLU_D)
KUMO_SLU_TRAITS(std::complex<float>, ::complex, c, SLU_C)
KUMO_SLU_TRAITS(std::complex<double>, doublecomplex, z, SLU_Z)
#undef KUMO_SLU_TRAITS

}  // namespace host
}  // namespace linalg
}  // namespace sparse
}  // namespace kumo
