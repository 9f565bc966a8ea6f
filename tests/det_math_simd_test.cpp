// det_math-inl.hpp's vector sin, cos, exp, expm1 and log give the bits of
// the scalar det_math.hpp functions in every lane, on every instruction set
// Highway compiled in (this file is compiled once per set, as the library's
// SIMD sources are).
#include "water/fp_contract_off.hpp"  // first: before any Highway code, as the library's

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "det_math_simd_test.cpp"
#include <hwy/foreach_target.h>  // before highway.h

#include <hwy/aligned_allocator.h>
#include <hwy/highway.h>

#include "math/det_math-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::test::HWY_NAMESPACE {
namespace {
namespace hn = hwy::HWY_NAMESPACE;
namespace ds = keel::detail::HWY_NAMESPACE::det_simd;

/// out[f count + i] is function f (sin, cos, exp, expm1, log) of x[i], with
/// whole vectors; count is a multiple of 16.
void EvaluateVectors(const double* x, std::size_t count, double* out) {
  const hn::ScalableTag<double> d;
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const auto v = hn::LoadU(d, x + i);
    const auto sc = ds::SinCos(d, v);
    hn::StoreU(sc.sine, d, out + i);
    hn::StoreU(sc.cosine, d, out + count + i);
    hn::StoreU(ds::Exp(d, v), d, out + 2 * count + i);
    hn::StoreU(ds::Expm1(d, v), d, out + 3 * count + i);
    hn::StoreU(ds::Log(d, v), d, out + 4 * count + i);
  }
}

}  // namespace
}  // namespace keel::test::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "math/det_math.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace keel::test {
namespace {
HWY_EXPORT(EvaluateVectors);

namespace det = keel::detail::det;

std::vector<double> arguments() {
  std::vector<double> x = {0.0,
                           -0.0,
                           1e-300,
                           0x1p-1074,
                           0x1p-1022,
                           1.0,
                           -1.0,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           709.78,
                           709.79,
                           -745.13,
                           -745.14,
                           -40.0,
                           -41.0,
                           0.34657,
                           -0.34658,
                           1e15,
                           -1e16,
                           8.4e8,
                           1.5707963267948966,
                           3.141592653589793,
                           1e300};
  std::mt19937_64 random(7);
  for (const double scale : {1.0, 10.0, 1e3, 1e6, 1e9}) {
    std::uniform_real_distribution<double> u(-scale, scale);
    for (int i = 0; i < 2000; ++i) x.push_back(u(random));
  }
  std::uniform_real_distribution<double> e(-700, 700);
  for (int i = 0; i < 2000; ++i) x.push_back(std::exp(e(random)));
  while (x.size() % 16 != 0) x.push_back(0.5);
  return x;
}

bool sameBits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(DetMath, VectorLanesGiveTheScalarBitsOnEveryInstructionSet) {
  const std::vector<double> x = arguments();
  const std::size_t n = x.size();
  std::vector<double> scalar(5 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const det::SinCos sc = det::sinCos(x[i]);
    scalar[i] = sc.sine, scalar[n + i] = sc.cosine, scalar[2 * n + i] = det::exp(x[i]);
    scalar[3 * n + i] = det::expm1(x[i]), scalar[4 * n + i] = det::log(x[i]);
  }
  int targets = 0;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    std::vector<double> vector(5 * n);
    HWY_DYNAMIC_DISPATCH(EvaluateVectors)(x.data(), n, vector.data());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < 5 * n; ++i)
      if (!sameBits(scalar[i], vector[i]) && differ++ < 5)
        ADD_FAILURE() << hwy::TargetName(target) << ": function " << i / n << " of " << x[i % n] << " gives "
                      << vector[i] << ", the scalar code " << scalar[i];
    EXPECT_EQ(differ, 0u) << hwy::TargetName(target);
    std::printf("[ target   ] %s: %zu values, %zu differ\n", hwy::TargetName(target), 5 * n, differ);
    ++targets;
  }
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_GE(targets, 2);
}

}  // namespace
}  // namespace keel::test
#endif  // HWY_ONCE
