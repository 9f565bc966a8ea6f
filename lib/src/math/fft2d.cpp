// Square 2D FFTs by rows, a blocked transpose and rows again (fft2d.hpp).
#include "math/fft2d.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {
namespace {

constexpr int kBlock = 16;     // 16 x 16 complex floats: 2 KB, a block fits L1 with its target
constexpr int kRowGrain = 16;  // rows a task transforms

/// out[c][r] = in[r][c] for the rows `r` for which `rowWanted(r)` and every
/// column (n x n, row-major); bands of kBlock rows in parallel (each writes
/// its own entries of `out`).
template <class Wanted>
void transpose(const kiss_fft_cpx* in, kiss_fft_cpx* out, int n, Wanted rowWanted) {
  tbb::parallel_for(0, (n + kBlock - 1) / kBlock, [&](int block) {
    const int r0 = block * kBlock;
    for (int c0 = 0; c0 < n; c0 += kBlock)
      for (int r = r0; r < std::min(n, r0 + kBlock); ++r) {
        if (!rowWanted(r)) continue;
        const kiss_fft_cpx* src = in + std::size_t(r) * std::size_t(n);
        for (int c = c0; c < std::min(n, c0 + kBlock); ++c)
          out[std::size_t(c) * std::size_t(n) + std::size_t(r)] = src[c];
      }
  });
}

/// Transforms the rows `r` for which `wanted(r)`, in place, bands of
/// kRowGrain rows in parallel: each row's transform is the same whichever
/// thread runs it. kissfft transforms out of place: each band copies its
/// rows through its own n entries of `rowCopies`, made with the scratch.
template <class Wanted>
void rows(kiss_fft_cfg plan, kiss_fft_cpx* data, int n, std::vector<kiss_fft_cpx>& rowCopies, Wanted wanted) {
  const int bands = (n + kRowGrain - 1) / kRowGrain;
  tbb::parallel_for(0, bands, [&](int band) {
    kiss_fft_cpx* tmp = rowCopies.data() + std::size_t(band) * std::size_t(n);
    for (int r = band * kRowGrain; r < std::min(n, (band + 1) * kRowGrain); ++r) {
      if (!wanted(r)) continue;
      kiss_fft_cpx* row = data + std::size_t(r) * std::size_t(n);
      kiss_fft(plan, row, tmp);
      std::copy(tmp, tmp + n, row);
    }
  });
}

}  // namespace

Fft2d::Fft2d(int n, int band) : n_(n), band_(band) {
  if (n < 2 || n % 2 != 0 || band < 0 || band >= n / 2) throw std::invalid_argument("Fft2d: bad size or band");
  forwardPlan_ = kiss_fft_alloc(n, 0, nullptr, nullptr);
  inversePlan_ = kiss_fft_alloc(n, 1, nullptr, nullptr);
  if (forwardPlan_ == nullptr || inversePlan_ == nullptr) {
    kiss_fft_free(forwardPlan_);
    kiss_fft_free(inversePlan_);
    throw std::bad_alloc();
  }
}

Fft2d::~Fft2d() {
  kiss_fft_free(forwardPlan_);
  kiss_fft_free(inversePlan_);
}

FftScratch Fft2d::scratch() const {
  FftScratch s;
  s.transposed.assign(std::size_t(n_) * std::size_t(n_), kiss_fft_cpx{0, 0});
  s.rowCopies.assign(std::size_t((n_ + kRowGrain - 1) / kRowGrain) * std::size_t(n_), kiss_fft_cpx{0, 0});
  return s;
}

void Fft2d::inverse(kiss_fft_cpx* data, FftScratch& scratch) const {
  auto band = [this](int i) { return inBand(i); };
  auto all = [](int) { return true; };
  rows(inversePlan_, data, n_, scratch.rowCopies, band);  // along x, the rows of the band's ky
  kiss_fft_cpx* t = scratch.transposed.data();
  transpose(data, t, n_, all);                        // t[x][ky]: the rows outside the band are zero
  rows(inversePlan_, t, n_, scratch.rowCopies, all);  // along y
  transpose(t, data, n_, all);
}

void Fft2d::forward(kiss_fft_cpx* data, FftScratch& scratch, const std::uint8_t* rowsUsed) const {
  auto band = [this](int i) { return inBand(i); };
  auto all = [](int) { return true; };
  auto used = [rowsUsed](int r) { return rowsUsed == nullptr || rowsUsed[r] != 0; };
  rows(forwardPlan_, data, n_, scratch.rowCopies, used);  // along x: an empty row's transform is itself
  kiss_fft_cpx* t = scratch.transposed.data();
  transpose(data, t, n_, all);                         // t[kx][y]
  rows(forwardPlan_, t, n_, scratch.rowCopies, band);  // along y, the band's kx only
  transpose(t, data, n_, band);                        // data[ky][kx] for the band's kx
}

}  // namespace keel::KEEL_ABI::detail
