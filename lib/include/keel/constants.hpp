#pragma once
/// @file constants.hpp
/// The physical defaults every part of Keel takes: one named constant each.

#include <keel/config.hpp>

namespace keel::KEEL_ABI {

/// Sea water's density [kg/m^3], the default of every water density in
/// Keel (HydrostaticSettings, PoseQuery, farBoatSettings): the value naval
/// architecture uses for design (ITTC Recommended Procedure 7.5-02-01-03,
/// "Fresh Water and Seawater Properties", gives 1025.9 at 15 C and a
/// salinity of 35 g/kg). Fresh water is about 1000.
inline constexpr double kSeaWaterDensity_kgpm3 = 1025;

/// Standard gravity [m/s^2] (3rd CGPM, 1901), the default of every gravity
/// in Keel: the waves' dispersion relation and PoseQuery's gravity.
inline constexpr double kStandardGravity_mps2 = 9.80665;

}  // namespace keel::KEEL_ABI
