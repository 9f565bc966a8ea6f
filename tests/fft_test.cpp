// The FFTs under the wake field (math/fft_lanes.hpp, math/fft2d.hpp): every
// length's transforms against the direct sum in double, within the
// floating-point error bound of a fast Fourier transform, and the same bits
// on every instruction set (this file also runs in keel_every_simd_target).
#include "math/fft2d.hpp"
#include "math/fft_lanes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace keel::test {
namespace {

using detail::Fft2d;
using detail::FftComplex;
using detail::fftLanes;
using detail::FftPlan;
using detail::FftScratch;
using detail::kFftLanes;
using detail::makeFftPlan;
using Complex = std::complex<double>;

/// The direct sum `sum_j x_j e^{-+2 pi i j k / n}` in double.
std::vector<Complex> directDft(const std::vector<Complex>& x, bool inverse) {
  const auto n = x.size();
  std::vector<Complex> y(n);
  const double sign = inverse ? 1.0 : -1.0;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j) {
      const double angle = sign * 2 * M_PI * double((j * k) % n) / double(n);
      y[k] += x[j] * Complex{std::cos(angle), std::sin(angle)};
    }
  return y;
}

/// Higham's bound on a radix-2 FFT's norm-wise relative error in float
/// (Accuracy and Stability of Numerical Algorithms, 2nd ed., Theorem 24.2):
/// `log2(n) eta / (1 - log2(n) eta)`, eta = mu + gamma_4 (sqrt 2 + mu), with
/// mu the twiddles' error (a float rounding of a double: u) and
/// gamma_4 = 4u / (1 - 4u). A radix-4 stage is two radix-2 stages; an odd
/// radix p's direct sums add p - 1 rounded products, so it counts as
/// p - 1 stages here.
double fftErrorBound(const FftPlan& plan) {
  const double u = std::ldexp(1.0, -24), gamma4 = 4 * u / (1 - 4 * u), eta = u + gamma4 * (std::sqrt(2.0) + u);
  double stages = 0;
  for (const int p : plan.radices) stages += p == 4 ? 2 : p == 2 ? 1 : p - 1;
  return stages * eta / (1 - stages * eta);
}

double norm2(const std::vector<Complex>& x) {
  double s = 0;
  for (const Complex& z : x) s += std::norm(z);
  return std::sqrt(s);
}

std::uint64_t fnv(const float* x, std::size_t count, std::uint64_t h) {
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    h = (h ^ bits) * 1099511628211ULL;
  }
  return h;
}

TEST(FftLanes, EveryLaneIsItsOwnTransformWithinTheErrorBound) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1, 1);
  for (const int n : {1, 2, 4, 8, 14, 90, 128, 256}) {
    const FftPlan plan = makeFftPlan(n);
    const auto count = std::size_t(n) * kFftLanes;
    for (const bool inverse : {false, true}) {
      std::vector<float> re(count), im(count), workRe(count), workIm(count);
      for (std::size_t i = 0; i < count; ++i) {
        re[i] = value(rng);
        im[i] = value(rng);
      }
      const std::vector<float> re0 = re, im0 = im;
      fftLanes(plan, inverse, re.data(), im.data(), workRe.data(), workIm.data());
      double worst = 0;
      for (std::size_t l = 0; l < kFftLanes; ++l) {
        const auto length = std::size_t(n);
        std::vector<Complex> x(length), got(length);
        for (std::size_t j = 0; j < std::size_t(n); ++j) {
          x[j] = {re0[j * kFftLanes + l], im0[j * kFftLanes + l]};
          got[j] = {re[j * kFftLanes + l], im[j * kFftLanes + l]};
        }
        const std::vector<Complex> want = directDft(x, inverse);
        std::vector<Complex> error(length);
        for (std::size_t j = 0; j < std::size_t(n); ++j) error[j] = got[j] - want[j];
        worst = std::max(worst, norm2(error) / norm2(want));
      }
      EXPECT_LE(worst, fftErrorBound(plan)) << "n " << n << (inverse ? " inverse" : " forward");
      if (n == 256 && inverse)
        std::printf("[  figure  ] n 256: relative error %.3g, bound %.3g\n", worst, fftErrorBound(plan));
    }
  }
}

/// A band-limited field (|kx|, |ky| <= band), random in the band.
std::vector<FftComplex> bandLimited(int n, int band, std::mt19937& rng) {
  std::uniform_real_distribution<float> value(-1, 1);
  std::vector<FftComplex> s(std::size_t(n) * std::size_t(n), FftComplex{0, 0});
  const Fft2d probe(n, band);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (probe.inBand(x) && probe.inBand(y))
        s[std::size_t(y) * std::size_t(n) + std::size_t(x)] = {value(rng), value(rng)};
  return s;
}

TEST(Fft2d, InverseMatchesTheDirectSumAndForwardUndoesIt) {
  std::mt19937 rng(11);
  const int n = 30, band = 7;  // 2 x 3 x 5: every kind of stage
  const Fft2d fft(n, band);
  FftScratch scratch = fft.scratch();
  const std::vector<FftComplex> spectrum = bandLimited(n, band, rng);
  std::vector<FftComplex> field = spectrum;
  fft.inverse(field.data(), scratch);
  double worst = 0, scale = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      Complex want;
      for (int ky = 0; ky < n; ++ky)
        for (int kx = 0; kx < n; ++kx) {
          const FftComplex c = spectrum[std::size_t(ky) * std::size_t(n) + std::size_t(kx)];
          const double angle = 2 * M_PI * double((kx * x + ky * y) % n) / n;
          want += Complex{c.r, c.i} * Complex{std::cos(angle), std::sin(angle)};
        }
      const FftComplex got = field[std::size_t(y) * std::size_t(n) + std::size_t(x)];
      worst = std::max(worst, std::abs(Complex{got.r, got.i} - want));
      scale = std::max(scale, std::abs(want));
    }
  // Both passes' bounds, on the largest value (a norm-wise bound times sqrt N^2 at most).
  const double bound = 2 * fftErrorBound(makeFftPlan(n)) * n;
  EXPECT_LE(worst / scale, bound);
  // Forward then 1 / N^2 gives the band's coefficients back.
  fft.forward(field.data(), scratch);
  double back = 0;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (!fft.inBand(int(i) % n)) continue;  // forward writes the band's kx only
    back = std::max(
        back, double(std::abs(field[i].r / (n * n) - spectrum[i].r)) + std::abs(field[i].i / (n * n) - spectrum[i].i));
  }
  EXPECT_LE(back, 2 * bound);
}

/// The same bits on every instruction set (keel_every_simd_target runs this
/// once per target): a 256 x 256 field's inverse and forward transforms hash
/// to one constant.
TEST(Fft2d, SameBitsOnEveryInstructionSet) {
  std::mt19937 rng(3);
  const int n = 256, band = 63;
  const Fft2d fft(n, band);
  FftScratch scratch = fft.scratch();
  std::vector<FftComplex> field = bandLimited(n, band, rng);
  fft.inverse(field.data(), scratch);
  std::uint64_t h = fnv(&field[0].r, field.size() * 2, 14695981039346656037ULL);
  fft.forward(field.data(), scratch);
  h = fnv(&field[0].r, field.size() * 2, h);
  EXPECT_EQ(h, 0x627e704acd99d90ULL) << std::hex << h;
}

}  // namespace
}  // namespace keel::test
