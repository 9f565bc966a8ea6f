// Keel's own sin, cos, exp, expm1, log and pow (lib/src/math/det_math.hpp)
// against long double's std:: functions over the ranges Keel calls them
// with: the table of each range's largest error in ulp (docs/determinism.md
// quotes it), and their vector twins' bits, lane for lane, on every
// instruction set compiled in (det_math_simd_test.cpp).
#include "math/det_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

namespace keel::test {
namespace {

namespace det = keel::detail::det;

/// |computed - exact| in units of the last place of the exact result,
/// rounded to double.
double ulpError(double computed, long double exact) {
  const double rounded = double(exact);
  const double ulp = std::nextafter(std::abs(rounded), INFINITY) - std::abs(rounded);
  return double(std::abs((long double)computed - exact) / ulp);
}

struct Row {
  const char* name;
  double lo, hi;  // uniform, or log-uniform when `logarithmic`
  bool logarithmic;
  std::function<double(double)> mine;
  std::function<long double(long double)> exact;
  // The bound the test holds it to: about the worst seen; pow's error is
  // that of e^{y log x}, log's rounding times |y log x| (up to 52 here).
  double maxUlp;
};

double worstUlp(const Row& row, int samples) {
  std::mt19937_64 random(29);
  std::uniform_real_distribution<double> u(row.logarithmic ? std::log(row.lo) : row.lo,
                                           row.logarithmic ? std::log(row.hi) : row.hi);
  double worst = 0;
  for (int i = 0; i < samples; ++i) {
    const double x = row.logarithmic ? std::exp(u(random)) : u(random);
    worst = std::max(worst, ulpError(row.mine(x), row.exact(x)));
  }
  return worst;
}

TEST(DetMath, IsWithinAFewUlpOverTheRangesKeelUses) {
  const auto sinL = [](long double x) { return std::sin(x); };
  const auto cosL = [](long double x) { return std::cos(x); };
  const auto sinD = [](double x) { return det::sin(x); };
  const auto cosD = [](double x) { return det::cos(x); };
  const Row rows[] = {
      {"sin", -3.2, 3.2, false, sinD, sinL, 1.5},
      {"cos", -3.2, 3.2, false, cosD, cosL, 1.5},
      {"sin", -1e4, 1e4, false, sinD, sinL, 1.5},
      {"cos", -1e4, 1e4, false, cosD, cosL, 1.5},
      {"sin", -1e6, 1e6, false, sinD, sinL, 1.5},
      {"cos", -8.4e8, 8.4e8, false, cosD, cosL, 1.5},
      {"exp", -745, 709.7, false, [](double x) { return det::exp(x); }, [](long double x) { return std::exp(x); }, 1.5},
      {"exp", -50, 0, false, [](double x) { return det::exp(x); }, [](long double x) { return std::exp(x); }, 1.5},
      {"expm1", -1, 1, false, [](double x) { return det::expm1(x); }, [](long double x) { return std::expm1(x); }, 2},
      {"expm1", -50, 0, false, [](double x) { return det::expm1(x); }, [](long double x) { return std::expm1(x); },
       1.5},
      {"log", 1e-300, 1e300, true, [](double x) { return det::log(x); }, [](long double x) { return std::log(x); },
       1.5},
      {"log", 0.5, 2, false, [](double x) { return det::log(x); }, [](long double x) { return std::log(x); }, 2},
      {"pow(x,7.5)", 1e-3, 1, true, [](double x) { return det::pow(x, 7.5); },
       [](long double x) { return std::pow(x, 7.5L); }, 48},
  };
  std::printf("%-11s %-24s %s\n", "function", "range", "max error [ulp]");
  // atan2 over every direction: y = sin, x = cos of a uniform angle, times a
  // log-uniform length (the table's x is the angle).
  const Row atan2Row{"atan2",
                     -3.1415,
                     3.1415,
                     false,
                     [](double a) { return det::atan2(0.37 * std::sin(a), 0.37 * std::cos(a)); },
                     [](long double a) {
                       return std::atan2((long double)(0.37 * std::sin(double(a))),
                                         (long double)(0.37 * std::cos(double(a))));
                     },
                     4};
  const double worstAtan2 = worstUlp(atan2Row, 50000);
  std::printf("%-11s [%9.3g, %9.3g] %s %6.3f\n", atan2Row.name, atan2Row.lo, atan2Row.hi, "   ", worstAtan2);
  EXPECT_LE(worstAtan2, atan2Row.maxUlp);
  for (const Row& row : rows) {
    const double worst = worstUlp(row, 50000);
    std::printf("%-11s [%9.3g, %9.3g] %s %6.3f\n", row.name, row.lo, row.hi, row.logarithmic ? "log" : "   ", worst);
    EXPECT_LE(worst, row.maxUlp) << row.name << " on [" << row.lo << ", " << row.hi << "]";
  }
}

TEST(DetMath, GivesTheEdgesTheirLimits) {
  EXPECT_EQ(det::exp(0), 1.0);
  EXPECT_EQ(det::exp(800), INFINITY);
  EXPECT_EQ(det::exp(-800), 0.0);
  EXPECT_GT(det::exp(-740), 0.0);  // subnormal
  EXPECT_EQ(det::expm1(0), 0.0);
  EXPECT_EQ(det::expm1(-100), -1.0);
  EXPECT_EQ(det::log(1), 0.0);
  EXPECT_EQ(det::log(0), -INFINITY);
  EXPECT_TRUE(std::isnan(det::log(-1)));
  EXPECT_NEAR(det::log(0x1p-1074), -744.44007192138126, 1e-12);
  EXPECT_EQ(det::sin(0), 0.0);
  EXPECT_EQ(det::cos(0), 1.0);
  EXPECT_TRUE(std::isnan(det::sin(INFINITY)));
  EXPECT_TRUE(std::isnan(det::cos(NAN)));
  EXPECT_EQ(det::cos(1e300), 1.0);  // past kSinCosLargest_rad: that of 0
  EXPECT_EQ(det::pow(0, 2.5), 0.0);
  EXPECT_EQ(det::pow(0, 0), 1.0);
  EXPECT_EQ(det::atan2(0, 0), 0.0);
  EXPECT_EQ(det::atan2(0, -1), 0x1.921fb54442d18p+1);   // pi
  EXPECT_EQ(det::atan2(-1, 0), -0x1.921fb54442d18p+0);  // -pi/2
}

}  // namespace
}  // namespace keel::test
