#pragma once
// Internal to Keel: floating-point contraction off for the rest of the
// translation unit. The batch wave queries' Highway sources (sine_sum_simd.cpp,
// gerstner_simd.cpp) include this first, before any Highway code, so that no
// multiply-add in them is fused (they write none): phases, sin, cos and exp
// (math/det_math-inl.hpp) are then computed with the scalar code's
// operations, bit for bit, on every instruction set (GCC would otherwise
// fuse Highway's Mul and Add where the CPU has FMA).

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
