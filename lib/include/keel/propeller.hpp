#pragma once
/// @file propeller.hpp
/// keel::Propeller: a Wageningen B-series screw's thrust and torque from its
/// advance speed, revolutions and immersion (docs/propulsion.md). Most games
/// use it through keel::Propulsion (propulsion.hpp), which applies it to a
/// body; call it directly for charts, HUDs or a drive of your own.

#include <keel/config.hpp>

namespace keel::KEEL_ABI {

/// A B-series screw: the series' four parameters and its size. The
/// polynomials hold inside the series' range only (Oosterveld & van
/// Oossanen 1975): Propeller refuses a geometry outside it.
struct PropellerGeometry {
  double diameter_m = 1;         ///< D [m], > 0
  double pitchRatio = 1;         ///< P/D, 0.5 .. 1.4
  double bladeAreaRatio = 0.55;  ///< expanded blade area ratio A_E/A_0, 0.30 .. 1.05
  int blades = 4;                ///< Z, 2 .. 7
};

/// The series' range (Oosterveld & van Oossanen 1975; Bernitsas, Ray &
/// Kinley 1981).
inline constexpr double kMinPitchRatio = 0.5, kMaxPitchRatio = 1.4;
inline constexpr double kMinBladeAreaRatio = 0.30, kMaxBladeAreaRatio = 1.05;
inline constexpr int kMinBlades = 2, kMaxBlades = 7;

/// Open-water coefficients at one advance ratio J = V_A / (n D).
struct OpenWater {
  double advanceRatio = 0;  ///< J the coefficients were taken at
  double thrust = 0;        ///< K_T = T / (rho n^2 D^4)
  double torque = 0;        ///< K_Q = Q / (rho n^2 D^5)
  /// Open-water efficiency eta_0 = J K_T / (2 pi K_Q); 0 where K_Q <= 0.
  [[nodiscard]] double efficiency() const;
};

/// How the propeller works behind its hull and outside the series' data.
struct PropellerSettings {
  /// Taylor wake fraction w: the water reaches the disc at V_A = (1 - w) V,
  /// V the boat's speed through the water along the shaft; 0 .. 0.9.
  /// 0.1 is a twin-screw or planing boat's; single-screw displacement
  /// hulls run 0.2-0.35 (Harvald, "Resistance and Propulsion of Ships",
  /// 1983, ch. 4).
  double wakeFraction = 0.1;
  /// Thrust deduction t: the hull is pushed by (1 - t) T, the rest goes into
  /// the hull's own raised resistance; 0 .. 0.9. Typically 0.6-0.9 w
  /// (Harvald 1983, ch. 4).
  double thrustDeduction = 0.08;
  /// Astern (revolutions < 0) the screw works as its ahead self turned
  /// round, its thrust times this factor at the same torque: a B-screw's
  /// sections are shaped for ahead, and astern it delivers less thrust for
  /// its torque (van Lammeren, van Manen & Oosterveld 1969, "The Wageningen
  /// B-screw series", SNAME Transactions 77, four-quadrant tests). 0 .. 1.
  double asternThrustFactor = 0.7;
  /// True for a right-handed screw (clockwise ahead, seen from astern): the
  /// hull feels the shaft's torque the other way round. For Propulsion.
  bool rightHanded = true;
};

/// Thrust and torque at one operating point.
struct PropellerLoad {
  /// Along the shaft [N], positive ahead: rho n^2 D^4 K_T times the
  /// emergence factor; the hull receives (1 - t) of it.
  double thrust_N = 0;
  /// The torque the shaft delivers [N m], with the sign of the revolutions.
  double torque_Nm = 0;
  double advanceRatio = 0;  ///< J as taken (after the range's clamp), >= 0
  /// Fraction of the deep-water thrust kept as the disc nears and leaves the
  /// surface (Propeller::emergenceFactor): 1 deep, 0 clear of the water.
  double emergence = 1;
};

/// A Wageningen B-series screw: K_T (39 terms) and K_Q (47 terms) as
/// polynomials in J, P/D, A_E/A_0 and Z (Oosterveld & van Oossanen 1975,
/// "Further computer-analyzed data of the Wageningen B-screw series", ISP
/// 22, Reynolds number 2e6). Where the series has no data the propeller
/// uses the approximations docs/propulsion.md states: J < 0 (the boat
/// moving astern against a screw turning ahead) takes the bollard values
/// (J = 0); beyond J_0, where K_T = 0, there is no thrust and the torque
/// stays at K_Q(J_0); astern is the ahead screw mirrored, with
/// PropellerSettings::asternThrustFactor. Never NaN: non-finite inputs give
/// a zero load.
class Propeller {
 public:
  /// Throws std::invalid_argument naming the field, its value and the
  /// series' range for a geometry outside it, or for settings outside theirs.
  explicit Propeller(const PropellerGeometry& geometry, const PropellerSettings& settings = {});

  /// The polynomials at `advanceRatio` as published, without any clamp
  /// (negative K_T beyond J_0 included): for charts and tests.
  [[nodiscard]] OpenWater series(double advanceRatio) const;
  /// The coefficients the propeller works with: the series clamped to
  /// [0, J_0], K_T = 0 at and beyond J_0.
  [[nodiscard]] OpenWater openWater(double advanceRatio) const;
  /// J_0, the advance ratio where the series' K_T falls to zero (the
  /// screw's no-thrust point).
  [[nodiscard]] double zeroThrustAdvanceRatio() const { return zeroThrustJ_; }

  /// Thrust and torque with the disc's water arriving at `advanceSpeed_mps`
  /// (V_A, along the shaft towards the bow, the wake already taken off),
  /// the shaft turning at `revolutions_ps` (n [1/s], negative astern), in
  /// water of `density_kgpm3`, the shaft `immersion_m` below the local
  /// surface (negative above it). Zero for any non-finite or non-positive
  /// density input.
  [[nodiscard]] PropellerLoad load(double advanceSpeed_mps, double revolutions_ps, double density_kgpm3,
                                   double immersion_m) const;

  /// The thrust kept as the shaft's immersion h nears the surface, as a
  /// function of h / R (R the radius): Minsaas, Thon & Kauczynski (1983),
  /// as quoted by Faltinsen, "Hydrodynamics of High-Speed Marine Vehicles"
  /// (2005), for a propeller losing disc area and ventilating:
  /// beta = 1 - 0.675 (1 - 0.769 h/R)^1.258 for h/R < 1.3, 1 deeper; held
  /// within [0, 1], so 0 well before the disc is clear (h/R < -0.48).
  [[nodiscard]] static double emergenceFactor(double immersionRatio);

  [[nodiscard]] const PropellerGeometry& geometry() const { return geometry_; }
  [[nodiscard]] const PropellerSettings& settings() const { return settings_; }

 private:
  PropellerGeometry geometry_;
  PropellerSettings settings_;
  double zeroThrustJ_ = 0;
  double torqueAtZeroThrust_ = 0;
};

}  // namespace keel::KEEL_ABI
