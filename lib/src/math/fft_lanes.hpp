#pragma once
// Sixteen complex FFTs of one length at once, one per SIMD lane
// (fft_lanes_simd.cpp): the building block of Fft2d. Each lane computes the
// same additions and multiplications in the same order (no fused
// multiply-add), so a lane's bits are the scalar algorithm's, whatever the
// instruction set and however many lanes a vector holds.

#include <keel/config.hpp>

#include <vector>

namespace keel::KEEL_ABI::detail {

/// Transforms a block holds: element j of transform l is at [j * kFftLanes + l].
inline constexpr int kFftLanes = 16;

/// The factors and twiddles of one length n: immutable, shared by threads.
struct FftPlan {
  int n = 0;
  /// n's factors in the order the stages take them: 4s first, then 2, then
  /// the odd primes rising (a self-sorting Stockham transform, radix 4, 2
  /// and any odd prime, the last by its p-point sum).
  std::vector<int> radices;
  /// cos(2 pi j / n) and sin(2 pi j / n), j < n, det::sinCos in double
  /// rounded once to float: the same table on every machine.
  std::vector<float> cosine, sine;
};

/// The plan for length n >= 1.
FftPlan makeFftPlan(int n);

/// The kFftLanes transforms in `re`, `im` (n * kFftLanes floats each), in
/// place and unnormalised: forward sums `x_j e^{-2 pi i j k / n}`, inverse
/// `e^{+2 pi i j k / n}`. `workRe`, `workIm`: n * kFftLanes floats each,
/// overwritten.
void fftLanes(const FftPlan& plan, bool inverse, float* re, float* im, float* workRe, float* workIm);

}  // namespace keel::KEEL_ABI::detail
