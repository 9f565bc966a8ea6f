#pragma once
// The Wageningen B-screw series' K_T and K_Q polynomials (b_series.cpp).

#include <keel/config.hpp>

#include <array>
#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// The powers of a screw's geometry the polynomials use, computed once.
struct BSeriesPowers {
  std::array<double, 7> pitch{};   ///< (P/D)^0..6
  std::array<double, 3> area{};    ///< (A_E/A_0)^0..2
  std::array<double, 3> blades{};  ///< Z^0..2
  static BSeriesPowers of(double pitchRatio, double bladeAreaRatio, int blades);
};

/// K_T at the advance ratio J, as published (no clamp, Reynolds number 2e6).
double bSeriesThrust(const BSeriesPowers& p, double advanceRatio);
/// K_Q at the advance ratio J, as published.
double bSeriesTorque(const BSeriesPowers& p, double advanceRatio);
/// The number of terms: 39 and 47.
std::size_t bSeriesThrustTerms();
std::size_t bSeriesTorqueTerms();

}  // namespace keel::KEEL_ABI::detail
