// Square 2D FFTs by blocks of sixteen rows, then of sixteen columns, each
// transformed lane by lane (fft2d.hpp).
#include "math/fft2d.hpp"
#include "math/parallel.hpp"

#include <algorithm>
#include <stdexcept>

namespace keel::KEEL_ABI::detail {
namespace {

constexpr int kBlocksPerTask = 2;  // a task's blocks share its scratch: 4 N x 16 floats

/// One pass: `load(block start, lanes used, re, im)` fills a lane-major
/// block (zero in the lanes it does not use), which is transformed and
/// handed to `store`, for every block of kFftLanes lines with a line that
/// `wanted`; the tasks run in parallel, each on its own scratch and lines.
template <class Wanted, class Load, class Store>
void pass(const FftPlan& plan, bool inverse, float* scratch, Wanted wanted, Load load, Store store) {
  const int n = plan.n, blocks = (n + kFftLanes - 1) / kFftLanes;
  const int tasks = (blocks + kBlocksPerTask - 1) / kBlocksPerTask;
  const std::size_t plane = std::size_t(n) * kFftLanes;
  parallelFor(0, tasks, [&](int task) {
    float* re = scratch + std::size_t(task) * 4 * plane;
    float *im = re + plane, *workRe = im + plane, *workIm = workRe + plane;
    for (int b = task * kBlocksPerTask; b < std::min(blocks, (task + 1) * kBlocksPerTask); ++b) {
      const int first = b * kFftLanes, count = std::min(kFftLanes, n - first);
      bool any = false;
      for (int l = 0; l < count; ++l) any = any || wanted(first + l);
      if (!any) continue;
      load(first, count, re, im);
      fftLanes(plan, inverse, re, im, workRe, workIm);
      store(first, count, re, im);
    }
  });
}

/// Every line wanted, or every entry read: alongRows' and alongColumns'
/// `wanted` and `read`.
constexpr auto kEveryEntry = [](int) { return true; };

/// Transforms along x the rows r for which `wanted(r)`; the other rows must
/// be zero (their transform is themselves, left as they are). Entries at
/// the columns x without `read(x)` are taken as zero, not read.
template <class Wanted, class Read = decltype(kEveryEntry)>
void alongRows(const FftPlan& plan, bool inverse, FftComplex* data, float* scratch, Wanted wanted,
               Read read = kEveryEntry) {
  const auto n = std::size_t(plan.n);
  auto load = [&](int first, int count, float* re, float* im) {
    for (int l = 0; l < kFftLanes; ++l) {
      const bool used = l < count && wanted(first + l);
      const FftComplex* row = used ? data + std::size_t(first + l) * n : nullptr;  // past the end otherwise
      for (std::size_t x = 0; x < n; ++x) {
        const bool here = used && read(int(x));
        re[x * kFftLanes + std::size_t(l)] = here ? row[x].r : 0.0F;
        im[x * kFftLanes + std::size_t(l)] = here ? row[x].i : 0.0F;
      }
    }
  };
  auto store = [&](int first, int count, const float* re, const float* im) {
    for (int l = 0; l < count; ++l) {
      if (!wanted(first + l)) continue;
      FftComplex* row = data + std::size_t(first + l) * n;
      for (std::size_t x = 0; x < n; ++x)
        row[x] = {re[x * kFftLanes + std::size_t(l)], im[x * kFftLanes + std::size_t(l)]};
    }
  };
  pass(plan, inverse, scratch, wanted, load, store);
}

/// Transforms along y the columns c for which `wanted(c)`; the others keep
/// what they hold. Entries on the rows y without `read(y)` are taken as
/// zero, not read.
template <class Wanted, class Read = decltype(kEveryEntry)>
void alongColumns(const FftPlan& plan, bool inverse, FftComplex* data, float* scratch, Wanted wanted,
                  Read read = kEveryEntry) {
  const auto n = std::size_t(plan.n);
  auto load = [&](int first, int count, float* re, float* im) {
    for (std::size_t y = 0; y < n; ++y) {
      const FftComplex* src = data + y * n + std::size_t(first);
      const int here = read(int(y)) ? count : 0;
      for (int l = 0; l < kFftLanes; ++l) {
        re[y * kFftLanes + std::size_t(l)] = l < here ? src[l].r : 0.0F;
        im[y * kFftLanes + std::size_t(l)] = l < here ? src[l].i : 0.0F;
      }
    }
  };
  auto store = [&](int first, int count, const float* re, const float* im) {
    for (std::size_t y = 0; y < n; ++y) {
      FftComplex* dst = data + y * n + std::size_t(first);
      for (int l = 0; l < count; ++l)
        if (wanted(first + l)) dst[l] = {re[y * kFftLanes + std::size_t(l)], im[y * kFftLanes + std::size_t(l)]};
    }
  };
  pass(plan, inverse, scratch, wanted, load, store);
}

}  // namespace

Fft2d::Fft2d(int n, int band) : n_(n), band_(band) {
  if (n < 2 || n % 2 != 0 || band < 0 || band >= n / 2) throw std::invalid_argument("Fft2d: bad size or band");
  plan_ = makeFftPlan(n);
}

std::size_t Fft2d::scratchBytes(int n) {
  const int blocks = (n + kFftLanes - 1) / kFftLanes, tasks = (blocks + kBlocksPerTask - 1) / kBlocksPerTask;
  return std::size_t(tasks) * 4 * std::size_t(n) * kFftLanes * sizeof(float);
}

FftScratch Fft2d::scratch() const {
  FftScratch s;
  s.blocks.assign(scratchBytes(n_) / sizeof(float), 0.0F);
  return s;
}

void Fft2d::inverse(FftComplex* data, FftScratch& scratch) const {
  auto band = [this](int i) { return inBand(i); };
  alongRows(plan_, true, data, scratch.blocks.data(), band);  // the rows of the band's ky; the others are zero
  alongColumns(plan_, true, data, scratch.blocks.data(), kEveryEntry);  // along y
}

void Fft2d::inverseOfBand(FftComplex* data, FftScratch& scratch) const {
  auto band = [this](int i) { return inBand(i); };
  alongRows(plan_, true, data, scratch.blocks.data(), band, band);            // the band's kx alone
  alongColumns(plan_, true, data, scratch.blocks.data(), kEveryEntry, band);  // the band's rows alone
}

void Fft2d::forward(FftComplex* data, FftScratch& scratch, const std::uint8_t* rowsUsed) const {
  auto band = [this](int i) { return inBand(i); };
  auto used = [rowsUsed](int r) { return rowsUsed == nullptr || rowsUsed[r] != 0; };
  alongRows(plan_, false, data, scratch.blocks.data(), used);     // an empty row's transform is itself
  alongColumns(plan_, false, data, scratch.blocks.data(), band);  // along y, the band's kx only
}

}  // namespace keel::KEEL_ABI::detail
