#pragma once
// Internal to Keel: the Newton solve for the surface particle above a fixed
// point, shared by keel::SpectralOcean's queries (spectral_query.cpp) and
// its fixed-point resampling (spectral_fixed_simd.cpp), each with its own
// evaluation of the displacement interpolant. docs/waves.md, "Queries".

#include "water/spectral_detail.hpp"

namespace keel::KEEL_ABI::detail {

inline constexpr int kMaxNewtonIterations = 30;
inline constexpr int kMaxStepHalvings = 20;

/// Newton's method with step halving from (x0, y0) until |F| <= tolerance
/// (GerstnerSurface's solve, on the interpolated tile); (x0, y0) ends at the
/// solution. `evaluate(x0, y0)` gives the residual and its Jacobian there.
/// Where the surface folds (Jacobian not positive) it stops at the best
/// point found.
template <class Evaluate>
Sums newtonSolve(const Evaluate& evaluate, double tolerance_m, double& x0, double& y0) {
  Sums sums = evaluate(x0, y0);
  const double tolerance2 = tolerance_m * tolerance_m;
  for (int iteration = 0; iteration < kMaxNewtonIterations && !(sums.residual2() <= tolerance2); ++iteration) {
    const double det = sums.jxx * sums.jyy - sums.jxy * sums.jyx;
    const double sx = -(sums.jyy * sums.fx - sums.jxy * sums.fy) / det;
    const double sy = -(sums.jxx * sums.fy - sums.jyx * sums.fx) / det;
    bool improved = false;
    double fraction = 1;
    for (int halving = 0; halving < kMaxStepHalvings && !improved; ++halving, fraction /= 2) {
      const Sums candidate = evaluate(x0 + fraction * sx, y0 + fraction * sy);
      if (candidate.residual2() < sums.residual2()) {
        x0 += fraction * sx;
        y0 += fraction * sy;
        sums = candidate;
        improved = true;
      }
    }
    if (!improved) break;
  }
  return sums;
}

}  // namespace keel::KEEL_ABI::detail
