// Sixteen complex FFTs at once, one per lane (fft_lanes.hpp), vectorised with
// Highway: a self-sorting Stockham transform (decimation in frequency),
// stage by stage out of place. Stage (n', s) with radix p, m = n' / p, takes
// x[q + s (j + r m)], r < p, to
//   y[q + s (p j + k)] = w^{j k} sum_r x[q + s (j + r m)] W_p^{r k},
// w = e^{-+2 pi i / n'}, W_p = e^{-+2 pi i / p} (Van Loan, "Computational
// Frameworks for the Fast Fourier Transform", SIAM 1992, section 1.7), then
// n' = m and s = s p. Every element is kFftLanes floats (one per transform),
// so the loop over q is contiguous and its lanes independent.

#include "water/fp_contract_off.hpp"  // first: before any Highway code

// Highway compiles this file once per instruction set: foreach_target.h
// includes it again for each, by this path from lib/src.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "math/fft_lanes_simd.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/highway.h>

#include "math/fft_lanes.hpp"

#include <algorithm>
#include <cstddef>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using Df = hn::ScalableTag<float>;
using Vf = hn::Vec<Df>;

/// One stage's buffers and geometry; the twiddle e^{-+2 pi i t / n'} is the
/// table's entry (t stride) mod n, with stride = n / n'.
struct StageArgs {
  float* xr;
  float* xi;
  float* yr;
  float* yi;
  std::size_t s, m, stride, n;
  const float* cosine;
  const float* sine;
  float sign;  ///< -1 forward, +1 inverse: the sine's sign
};

struct Twiddle {
  float re, im;
};

/// w^t of the stage (t = j k, or r k for the p-point sums with stride n / p).
Twiddle twiddle(const StageArgs& a, std::size_t t, std::size_t stride) {
  const std::size_t i = (t * stride) % a.n;
  return {a.cosine[i], a.sign * a.sine[i]};
}

/// (r + i im) times the twiddle, in one order on every instruction set.
HWY_INLINE void rotate(Df d, Vf& r, Vf& im, const Twiddle& w) {
  const Vf wr = hn::Set(d, w.re), wi = hn::Set(d, w.im);
  const Vf nr = hn::Sub(hn::Mul(r, wr), hn::Mul(im, wi));
  im = hn::Add(hn::Mul(r, wi), hn::Mul(im, wr));
  r = nr;
}

void radix2(const StageArgs& a) {
  const Df d;
  const std::size_t width = a.s * kFftLanes, lanes = hn::Lanes(d);
  for (std::size_t j = 0; j < a.m; ++j) {
    const Twiddle w = twiddle(a, j, a.stride);
    const std::size_t in0 = j * width, in1 = (j + a.m) * width, out0 = 2 * j * width, out1 = out0 + width;
    for (std::size_t e = 0; e < width; e += lanes) {
      const Vf ar = hn::LoadU(d, a.xr + in0 + e), ai = hn::LoadU(d, a.xi + in0 + e);
      const Vf br = hn::LoadU(d, a.xr + in1 + e), bi = hn::LoadU(d, a.xi + in1 + e);
      Vf dr = hn::Sub(ar, br), di = hn::Sub(ai, bi);
      if (j != 0) rotate(d, dr, di, w);
      hn::StoreU(hn::Add(ar, br), d, a.yr + out0 + e);
      hn::StoreU(hn::Add(ai, bi), d, a.yi + out0 + e);
      hn::StoreU(dr, d, a.yr + out1 + e);
      hn::StoreU(di, d, a.yi + out1 + e);
    }
  }
}

void radix4(const StageArgs& a) {
  const Df d;
  const std::size_t width = a.s * kFftLanes, lanes = hn::Lanes(d);
  const bool inverse = a.sign > 0;
  for (std::size_t j = 0; j < a.m; ++j) {
    const Twiddle w1 = twiddle(a, j, a.stride), w2 = twiddle(a, 2 * j, a.stride), w3 = twiddle(a, 3 * j, a.stride);
    const std::size_t in = j * width, step = a.m * width, out = 4 * j * width;
    for (std::size_t e = 0; e < width; e += lanes) {
      const std::size_t i0 = in + e;
      const Vf a0r = hn::LoadU(d, a.xr + i0), a0i = hn::LoadU(d, a.xi + i0);
      const Vf a1r = hn::LoadU(d, a.xr + i0 + step), a1i = hn::LoadU(d, a.xi + i0 + step);
      const Vf a2r = hn::LoadU(d, a.xr + i0 + 2 * step), a2i = hn::LoadU(d, a.xi + i0 + 2 * step);
      const Vf a3r = hn::LoadU(d, a.xr + i0 + 3 * step), a3i = hn::LoadU(d, a.xi + i0 + 3 * step);
      const Vf t0r = hn::Add(a0r, a2r), t0i = hn::Add(a0i, a2i), t1r = hn::Sub(a0r, a2r), t1i = hn::Sub(a0i, a2i);
      const Vf t2r = hn::Add(a1r, a3r), t2i = hn::Add(a1i, a3i), t3r = hn::Sub(a1r, a3r), t3i = hn::Sub(a1i, a3i);
      // t1 -+ i t3 (W_4 = -i forward, +i inverse) and t1 +- i t3.
      const Vf pr = hn::Add(t1r, t3i), pi = hn::Sub(t1i, t3r), mr = hn::Sub(t1r, t3i), mi = hn::Add(t1i, t3r);
      Vf b1r = inverse ? mr : pr, b1i = inverse ? mi : pi, b3r = inverse ? pr : mr, b3i = inverse ? pi : mi;
      Vf b2r = hn::Sub(t0r, t2r), b2i = hn::Sub(t0i, t2i);
      if (j != 0) {
        rotate(d, b1r, b1i, w1);
        rotate(d, b2r, b2i, w2);
        rotate(d, b3r, b3i, w3);
      }
      const std::size_t o = out + e;
      hn::StoreU(hn::Add(t0r, t2r), d, a.yr + o);
      hn::StoreU(hn::Add(t0i, t2i), d, a.yi + o);
      hn::StoreU(b1r, d, a.yr + o + width);
      hn::StoreU(b1i, d, a.yi + o + width);
      hn::StoreU(b2r, d, a.yr + o + 2 * width);
      hn::StoreU(b2i, d, a.yi + o + 2 * width);
      hn::StoreU(b3r, d, a.yr + o + 3 * width);
      hn::StoreU(b3i, d, a.yi + o + 3 * width);
    }
  }
}

/// Radix p (an odd prime) by its p-point sums: O(p^2) a butterfly, which
/// the lengths Keel plans (2^a 3^b 5^c mostly) keep small.
void radixOdd(const StageArgs& a, std::size_t p) {
  const Df d;
  const std::size_t width = a.s * kFftLanes, lanes = hn::Lanes(d), pStride = a.n / p;
  for (std::size_t j = 0; j < a.m; ++j)
    for (std::size_t k = 0; k < p; ++k) {
      const Twiddle w = twiddle(a, j * k, a.stride);
      const std::size_t out = (p * j + k) * width;
      for (std::size_t e = 0; e < width; e += lanes) {
        Vf sr = hn::LoadU(d, a.xr + j * width + e), si = hn::LoadU(d, a.xi + j * width + e);
        for (std::size_t r = 1; r < p; ++r) {
          Vf ar = hn::LoadU(d, a.xr + (j + r * a.m) * width + e), ai = hn::LoadU(d, a.xi + (j + r * a.m) * width + e);
          if (k != 0) rotate(d, ar, ai, twiddle(a, r * k, pStride));
          sr = hn::Add(sr, ar);
          si = hn::Add(si, ai);
        }
        if (j * k != 0) rotate(d, sr, si, w);
        hn::StoreU(sr, d, a.yr + out + e);
        hn::StoreU(si, d, a.yi + out + e);
      }
    }
}

void FftLanesKernel(const int* radices, std::size_t stages, std::size_t n, const float* cosine, const float* sine,
                    bool inverse, float* re, float* im, float* workRe, float* workIm) {
  StageArgs a{re, im, workRe, workIm, 1, n, 1, n, cosine, sine, inverse ? 1.0F : -1.0F};
  std::size_t length = n;  // n' of the stage
  for (std::size_t i = 0; i < stages; ++i) {
    const auto p = std::size_t(radices[i]);
    a.m = length / p;
    a.stride = n / length;
    if (p == 4)
      radix4(a);
    else if (p == 2)
      radix2(a);
    else
      radixOdd(a, p);
    std::swap(a.xr, a.yr);  // the output is the next stage's input
    std::swap(a.xi, a.yi);
    a.s *= p;
    length = a.m;
  }
  if (a.xr != re) {
    std::copy(a.xr, a.xr + n * kFftLanes, re);
    std::copy(a.xi, a.xi + n * kFftLanes, im);
  }
}

}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "math/det_math.hpp"

namespace keel::KEEL_ABI::detail {

HWY_EXPORT(FftLanesKernel);

FftPlan makeFftPlan(int n) {
  FftPlan plan;
  plan.n = n;
  int rest = n;
  while (rest % 4 == 0) {
    plan.radices.push_back(4);
    rest /= 4;
  }
  while (rest % 2 == 0) {
    plan.radices.push_back(2);
    rest /= 2;
  }
  for (int p = 3; rest > 1; p += 2)
    while (rest % p == 0) {
      plan.radices.push_back(p);
      rest /= p;
    }
  plan.cosine.resize(std::size_t(n));
  plan.sine.resize(std::size_t(n));
  for (int j = 0; j < n; ++j) {
    const det::SinCos sc = det::sinCos(2 * 3.14159265358979323846 * double(j) / double(n));
    plan.cosine[std::size_t(j)] = float(sc.cosine);
    plan.sine[std::size_t(j)] = float(sc.sine);
  }
  return plan;
}

void fftLanes(const FftPlan& plan, bool inverse, float* re, float* im, float* workRe, float* workIm) {
  HWY_DYNAMIC_DISPATCH(FftLanesKernel)
  (plan.radices.data(), plan.radices.size(), std::size_t(plan.n), plan.cosine.data(), plan.sine.data(), inverse, re, im,
   workRe, workIm);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
