#pragma once
/// @file rudder.hpp
/// keel::Rudder: a rudder blade as a low-aspect-ratio foil, its lift and
/// drag from the angle of attack and the inflow speed, through stall to a
/// flat plate's normal force (docs/propulsion.md). keel::Propulsion
/// (propulsion.hpp) applies it to a body.

#include <keel/config.hpp>

namespace keel::KEEL_ABI {

/// The blade: a spade rudder of `area_m2` on each side and aspect ratio
/// span^2 / area.
struct RudderGeometry {
  double area_m2 = 1;        ///< one side of the blade, span x mean chord [m^2], > 0
  double aspectRatio = 1.5;  ///< geometric span^2 / area, 0.2 .. 10
  /// The hull closes the gap above the blade's root: the root's vortex is
  /// held back as by a mirror image, which doubles the effective aspect
  /// ratio (Molland & Turnock, "Marine Rudders and Control Surfaces", 2007,
  /// ch. 3). False for a blade clear of the hull.
  bool hullAbove = true;
};

/// The foil's lift, drag and stall model.
struct RudderSettings {
  /// Where the attached lift starts to break down [rad]: rudders of aspect
  /// ratio 1-3 stall at 15-35 deg of incidence, later the lower the aspect
  /// ratio (Whicker & Fehlner 1958, "Free-stream characteristics of a
  /// family of low-aspect-ratio all-movable control surfaces", DTMB report
  /// 933). 0.05 .. 1.2 rad.
  double stallAngle_rad = 0.40;
  /// Over how many radians past the stall angle the lift falls to the flat
  /// plate's (a smooth blend, so the force is continuous). 0.01 .. 1 rad.
  double stallWidth_rad = 0.15;
  /// Profile (section) drag C_D0 at zero lift: about 0.01-0.02 for a NACA
  /// 00xx section at rudder Reynolds numbers (Molland & Turnock 2007). 0 .. 0.5.
  double profileDrag = 0.013;
  /// Oswald's span efficiency e of the induced drag C_L^2 / (pi e A_e). 0.3 .. 1.
  double spanEfficiency = 0.9;
  /// The stalled blade's normal-force coefficient at 90 deg: about 1.2 for a
  /// flat plate of aspect ratio 1-5 broadside to the flow (Hoerner,
  /// "Fluid-Dynamic Drag", 1965, ch. 3). 0.5 .. 2.
  double normalForce90 = 1.2;
};

/// Lift and drag coefficients at one angle of attack.
struct FoilCoefficients {
  double angleOfAttack_rad = 0;  ///< as given
  double lift = 0;               ///< C_L: odd in the angle
  double drag = 0;               ///< C_D: even in the angle, > 0
  bool stalled = false;          ///< past the stall angle (in the blend or beyond)
};

/// The blade's force at one operating point: lift perpendicular to the
/// inflow, drag along it.
struct RudderForce {
  FoilCoefficients coefficients;
  double inflowSpeed_mps = 0;  ///< U
  double lift_N = 0;           ///< 1/2 rho U^2 A C_L, signed as C_L
  double drag_N = 0;           ///< 1/2 rho U^2 A C_D, >= 0
};

/// A rudder blade as a foil. Attached flow: C_L = a alpha with Whicker &
/// Fehlner's (1958) low-aspect-ratio lift slope
/// a = 1.8 pi A_e / (1.8 + sqrt(A_e^2 + 4)) [1/rad] (no sweep), A_e the
/// effective aspect ratio; C_D = C_D0 + C_L^2 / (pi e A_e). Past
/// RudderSettings::stallAngle_rad the coefficients blend smoothly, over
/// stallWidth_rad, into a flat plate's post-stall normal force
/// C_N = C_N90 sin(alpha): C_L = C_N cos(alpha), C_D = C_D0 + C_N sin(alpha)
/// (Hoerner 1965). Flow from behind (|alpha| > 90 deg) is treated as the
/// same blade met the other way round (period pi in alpha). Never NaN: a
/// non-finite angle or speed gives zero force.
class Rudder {
 public:
  /// Throws std::invalid_argument naming the field, its value and its range.
  explicit Rudder(const RudderGeometry& geometry, const RudderSettings& settings = {});

  /// The aspect ratio the lift sees: doubled with the hull above the blade.
  [[nodiscard]] double effectiveAspectRatio() const;
  /// The attached-flow lift slope a = dC_L/dalpha [1/rad].
  [[nodiscard]] double liftSlope_prad() const;
  /// C_L and C_D at `angleOfAttack_rad`.
  [[nodiscard]] FoilCoefficients coefficients(double angleOfAttack_rad) const;
  /// Lift and drag of the blade in water of `density_kgpm3` meeting it at
  /// `inflowSpeed_mps` (>= 0) and `angleOfAttack_rad`, with `wetFraction`
  /// (0 .. 1) of its area under water.
  [[nodiscard]] RudderForce force(double angleOfAttack_rad, double inflowSpeed_mps, double density_kgpm3,
                                  double wetFraction = 1) const;

  [[nodiscard]] const RudderGeometry& geometry() const { return geometry_; }
  [[nodiscard]] const RudderSettings& settings() const { return settings_; }

 private:
  RudderGeometry geometry_;
  RudderSettings settings_;
};

}  // namespace keel::KEEL_ABI
