#pragma once
/// @file hydrodynamics.hpp
/// Settings and results of Kerner's hydrodynamic terms (docs/model.md §2):
/// skin friction (ITTC-1957), pressure drag and suction, slamming, air
/// resistance on emerged faces, and optional damping scaled by the
/// submerged fraction. Every term is relative to the water's velocity, has
/// documented units and coefficients, a switch, and its own telemetry.

#include <keel/config.hpp>
#include <keel/hydrostatics.hpp>

#include <LinearMath/btVector3.h>

namespace keel::KEEL_ABI {

/// A force and its torque about the centre of mass (world axes).
struct ForceTorque {
  btVector3 force_N{0, 0, 0};    ///< [N]
  btVector3 torque_Nm{0, 0, 0};  ///< [N m]
  ForceTorque& operator+=(const ForceTorque& o) {
    force_N += o.force_N;
    torque_Nm += o.torque_Nm;
    return *this;
  }
};

/// Where a boat asks the surface for the water's velocity.
enum class WaterVelocitySampling {
  /// At every hull vertex (one batch query), interpolated along the cut
  /// edges to each piece: orbital motion varies over the hull.
  PerVertex,
  /// Once per boat, at the centre of mass's horizontal position on the mean
  /// water surface under the hull: a current and long swell, for a fraction
  /// of the cost (distant boats, large fleets).
  PerBoat,
  /// No query: the water is taken as still.
  StillWater,
};

/// Per-boat settings of the hydrodynamic terms. Defaults are chosen for
/// game boats of 3 to 30 m and documented with their sources in docs/model.md:
/// the linear pressure coefficients (500 Pa) give a box barge a heave damping
/// ratio of about 0.1, the order of real hulls' radiation damping, which
/// Kerner's model does not compute.
struct HydrodynamicSettings {
  /// Where the water velocity that every term is relative to is sampled.
  WaterVelocitySampling waterVelocity = WaterVelocitySampling::PerVertex;

  /// Skin friction, ITTC-1957: `Cf = 0.075 / (log10 Rn - 2)^2`, `Rn = |v| L / nu`,
  /// `F_i = 1/2 rho Cf A_i |v_i|^2` against the tangential flow.
  bool viscous = true;
  btScalar kinematicViscosity_m2ps = btScalar(1.19e-6);  ///< nu of sea water at 15 C [m^2/s] (ITTC 2011)

  /// Pressure drag on faces moving into the water (cos theta > 0):
  /// `F = -(C1 v/vr + C2 (v/vr)^2) A cos(theta)^f n`, and suction on faces
  /// moving away (cos theta < 0) with the suction coefficients (Kerner part 2).
  bool pressureDrag = true;
  btScalar referenceSpeed_mps = 1;           ///< vr [m/s]
  btScalar pressureLinear_Pa = 500;          ///< C_PD1 [N/m^2]
  btScalar pressureQuadratic_Pa = 100;       ///< C_PD2 [N/m^2]
  btScalar pressureFalloff = btScalar(0.5);  ///< f_P, dimensionless, in (0, 1]
  btScalar suctionLinear_Pa = 500;           ///< C_SD1 [N/m^2]
  btScalar suctionQuadratic_Pa = 100;        ///< C_SD2 [N/m^2]
  btScalar suctionFalloff = btScalar(0.5);   ///< f_S, dimensionless, in (0, 1]

  /// Slamming: faces that hit the water fast are stopped, in proportion to
  /// how fast their swept volume grows (Kerner part 2):
  /// `F_i = -clamp(Gamma_i / Gamma_max, 0, 1)^p cos(theta_i) m v_i (2 A_i / S) / dt`.
  bool slamming = true;
  btScalar slammingCutoff_mps2 = 150;  ///< Gamma_max [m/s^2]: growth rate of full slamming
  btScalar slammingPower = 2;          ///< p, dimensionless

  /// Air resistance on emerged faces facing the relative wind:
  /// `F = -1/2 rho_air C_air A cos(theta) |v| v`.
  bool airResistance = true;
  btScalar airDensity_kgpm3 = btScalar(1.225);  ///< rho_air at 15 C, sea level [kg/m^3]
  btScalar airDragCoefficient = btScalar(0.8);  ///< C_air, dimensionless (0.5..1.1)
  btVector3 wind_mps{0, 0, 0};                  ///< air velocity, world [m/s]

  /// The hull's lift as a low-aspect-ratio wing, and where the hull's
  /// lateral force acts (docs/model.md, "The hull's lift and turning"): the
  /// wet hull's lateral plane, span 2T with its mirror image in the surface,
  /// makes Jones' slender-wing lift (NACA Report 835) when the water meets it
  /// at a drift angle, `F = -k (pi/2) rho T^2 |u| v` across the hull's long
  /// axis in the horizontal plane (u, v the velocity relative to the water
  /// along and across it, T the draft), at the centre of buoyancy; and the
  /// pressure drag's roll moment from a cross flow is moved to its cross
  /// force's at the centre of buoyancy, fading out as the hull planes. A
  /// displacement hull then heels out of its turns, as ships do. The long
  /// axis is the longest of the hull's bounding box in the body frame. The
  /// triangle model only.
  bool hullLift = true;
  /// k, dimensionless: 1 is Jones' slender wing; 0 keeps only the moved roll moment.
  btScalar hullLiftCoefficient = 1;

  /// Extra damping, scaled by the submerged volume fraction: `F = -c_l s v_rel`,
  /// `tau = -c_a s omega`. Off by default.
  bool damping = false;
  btScalar linearDamping_Nspm = 0;      ///< c_l [N s/m]
  btScalar angularDamping_Nmsprad = 0;  ///< c_a [N m s/rad]

  /// The water's inertia (docs/model.md, "Added mass"): the hull's added
  /// mass, from its shape and immersion each substep (keel::AddedMass),
  /// applied implicitly, so a body lighter than the water it entrains stays
  /// stable. Keel then changes the body's mass and inertia that Bullet
  /// integrates and its contacts see (docs/integration.md, "Added mass").
  /// Off by default.
  bool addedMass = false;

  /// All terms off: hydrostatics only (the analytic cases of docs/model.md §5).
  [[nodiscard]] static HydrodynamicSettings none();
  /// Throws std::invalid_argument naming the first bad field (negative or
  /// non-finite coefficient, falloff outside (0, 1], non-positive speeds).
  void validate() const;
  /// Every field equal.
  [[nodiscard]] bool operator==(const HydrodynamicSettings&) const = default;
};

/// The hydrodynamic forces of one substep, term by term.
struct HydrodynamicForces {
  ForceTorque viscous;       ///< skin friction
  ForceTorque pressureDrag;  ///< pressure drag and suction
  ForceTorque slamming;      ///< slamming
  ForceTorque air;           ///< air resistance
  ForceTorque damping;       ///< submerged-fraction damping
  ForceTorque hullLift;      ///< the hull's lift as a low-aspect-ratio wing
  /// Fraction (0..1] of the part of the total force that opposes the
  /// relative velocity which was kept, so that it cannot reverse that
  /// velocity within the substep (1: no clamping). The rest of the force
  /// (perpendicular to the velocity) is never clamped.
  btScalar clampScale = 1;
  /// The same for the part of the total torque that opposes the angular velocity.
  btScalar angularClampScale = 1;
  /// Then the scale (0..1] applied to every term so that their velocity
  /// change cannot add kinetic energy relative to the water, linear and
  /// angular together (1: none needed).
  btScalar energyScale = 1;
  /// The sum of the terms, after clamping.
  [[nodiscard]] ForceTorque total() const;
};

/// ITTC-1957 friction line `Cf = 0.075 / (log10 Rn - 2)^2`. Below Rn = 1e5
/// (laminar, where the line is not meant to be used and diverges near
/// Rn = 100) Cf is held at its Rn = 1e5 value.
[[nodiscard]] btScalar ittc1957FrictionCoefficient(btScalar reynoldsNumber);

}  // namespace keel::KEEL_ABI
