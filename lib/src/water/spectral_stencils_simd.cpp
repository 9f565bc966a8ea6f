// keel::SpectralOcean's grid queries' stencils (spectral_grid.hpp,
// spectralStencils), a vector of nodes at a time: the cells and the taps'
// weights of each patch column and row in double, in the scalar formulas'
// order (no fused multiply-adds), so every instruction set gives the same
// bits. docs/waves.md, "Spectral ocean".

#include "water/fp_contract_off.hpp"  // first: before any Highway code

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "water/spectral_stencils_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "water/spectral_grid.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

/// The stencils of `count` nodes along one axis (spectralStencils), a
/// vector of nodes at a time: each node's cell (Floor) and its fraction a
/// across it, then its 4 taps' weights, bicubic (Catmull-Rom, as
/// SpectralOceanState::stencilOn) or bilinear (taps 1 and 2), each in the
/// scalar formula's order.
void axes(double scale, std::int64_t origin, std::size_t count, bool cubic, SpectralAxis* out) {
  using DD = hn::CappedTag<double, 4>;
  using VD = hn::Vec<DD>;
  const DD dd;
  const std::size_t lanes = hn::Lanes(dd);
  const VD first = hn::Set(dd, double(origin)), step = hn::Set(dd, scale), zero = hn::Zero(dd), one = hn::Set(dd, 1.0),
           half = hn::Set(dd, 0.5);
  HWY_ALIGN double cell[4];
  HWY_ALIGN double w[16];  // [axis][tap]
  for (std::size_t i = 0; i < count; i += lanes) {
    // double(origin + i): both terms and their sum are whole numbers within
    // 2^53 (checkWaterGrid), so the sum is exact.
    const VD f = hn::Mul(hn::Add(first, hn::Iota(dd, double(i))), step);
    const VD c = hn::Floor(f);
    const VD a = hn::Add(hn::Sub(f, c), zero);  // + 0: the +0 of f - floor(f) at f = -0, as the scalar code
    VD w0 = zero, w1 = hn::Sub(one, a), w2 = a, w3 = zero;
    if (cubic) {
      const VD a2 = hn::Mul(a, a), a3 = hn::Mul(a2, a);
      const auto times = [&](double k, VD x) { return hn::Mul(hn::Set(dd, k), x); };
      w0 = hn::Mul(half, hn::Sub(hn::Add(hn::Neg(a3), times(2, a2)), a));
      w1 = hn::Mul(half, hn::Add(hn::Sub(times(3, a3), times(5, a2)), hn::Set(dd, 2.0)));
      w2 = hn::Mul(half, hn::Add(hn::Add(times(-3, a3), times(4, a2)), a));
      w3 = hn::Mul(half, hn::Sub(a3, a2));
    }
    hn::Store(c, dd, cell);
    hn::StoreInterleaved4(w0, w1, w2, w3, dd, w);
    for (std::size_t k = 0; k < std::min(lanes, count - i); ++k) {
      out[i + k].first = std::int64_t(cell[k]) - 1;
      std::memcpy(out[i + k].w.data(), w + 4 * k, sizeof(out[i + k].w));
    }
  }
}

}  // namespace

void SpectralStencilsKernel(const WaterGrid& grid, double scale, bool cubic, SpectralAxis* columns,
                            SpectralAxis* rows) {
  axes(scale, grid.originI, std::size_t(grid.nodesU), cubic, columns);
  axes(scale, grid.originJ, std::size_t(grid.nodesV), cubic, rows);
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(SpectralStencilsKernel);

void spectralStencils(const WaterGrid& grid, double scale, bool cubic, SpectralAxis* columns, SpectralAxis* rows) {
  HWY_DYNAMIC_DISPATCH(SpectralStencilsKernel)(grid, scale, cubic, columns, rows);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
