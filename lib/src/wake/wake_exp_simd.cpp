// e^x of many doubles at once (wake_exp.hpp), vectorised with Highway: each
// lane computes det::exp's bits (math/det_math-inl.hpp), on every
// instruction set.

#include "water/fp_contract_off.hpp"  // first: before any Highway code

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/src.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "wake/wake_exp_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "math/det_math-inl.hpp"
#include "wake/wake_exp.hpp"

#include <cstddef>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

void ExpInPlaceKernel(double* x, std::size_t count) {
  const hn::ScalableTag<double> d;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + lanes <= count; i += lanes) hn::StoreU(det_simd::Exp(d, hn::LoadU(d, x + i)), d, x + i);
  for (; i < count; ++i) x[i] = det::exp(x[i]);  // the same bits, lane by lane
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(ExpInPlaceKernel);

void expInPlace(double* x, std::size_t count) { HWY_DYNAMIC_DISPATCH(ExpInPlaceKernel)(x, count); }

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
