#pragma once
// Square 2D FFTs of band-limited fields (float): each pass copies a block
// of sixteen rows or columns into a lane-major block, transforms the
// sixteen at once (fftLanes, one per SIMD lane) and copies them back, so
// that no transform strides through memory; rows and columns that the band
// leaves empty are skipped, and the blocks run in parallel (TBB). The bits
// are the same on every instruction set and however the blocks are shared
// among threads. For fields whose waves reach a fraction of the grid's
// Nyquist wavenumber (the wake field's, a half), a transform costs 3/4 of a
// full one.

#include <keel/config.hpp>

#include "math/fft_lanes.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// A complex number as the transforms store it.
struct FftComplex {
  float r, i;
};

/// Working memory of one transform at a time (a thread's, or a task's):
/// four lane-major blocks (N x kFftLanes floats) per task of a pass.
struct FftScratch {
  std::vector<float> blocks;
};

/// Forward and inverse transforms of N x N row-major complex buffers
/// (`data[y N + x]`), unnormalised: the forward
/// transform sums `e^{-i k x}`, the inverse `e^{+i k x}`. The band is the
/// signed indices `|i| <= band` along each axis (index i above N / 2 stands
/// for i - N). Plans are immutable: one Fft2d serves many threads, each
/// with its own FftScratch.
class Fft2d {
 public:
  /// Plans for N x N, N even and >= 2, band < N / 2.
  Fft2d(int n, int band);

  /// Spectrum (rows outside the band all zero) to space, in place.
  void inverse(FftComplex* data, FftScratch& scratch) const;
  /// inverse() of the band's entries alone: those outside it along either
  /// axis are taken as zero, whatever they hold (a previous transform's
  /// output), so that the spectrum's writer need write the band alone.
  void inverseOfBand(FftComplex* data, FftScratch& scratch) const;
  /// Space to spectrum, in place; only the band's entries are written
  /// (the others hold what they held, or partial sums). With `rowsUsed`
  /// (N flags), the rows flagged 0 must be all zero: their transforms are
  /// skipped.
  void forward(FftComplex* data, FftScratch& scratch, const std::uint8_t* rowsUsed = nullptr) const;
  [[nodiscard]] int size() const { return n_; }
  [[nodiscard]] int band() const { return band_; }
  /// The signed index of position i (i - N above N / 2).
  [[nodiscard]] int signedIndex(int i) const { return i <= n_ / 2 ? i : i - n_; }
  /// Whether position i lies in the band.
  [[nodiscard]] bool inBand(int i) const { return i <= band_ || i >= n_ - band_; }
  /// A scratch sized for these transforms.
  [[nodiscard]] FftScratch scratch() const;
  /// The bytes of a scratch for N x N transforms (about 8 N^2).
  [[nodiscard]] static std::size_t scratchBytes(int n);

 private:
  int n_, band_;
  FftPlan plan_;
};

}  // namespace keel::KEEL_ABI::detail
