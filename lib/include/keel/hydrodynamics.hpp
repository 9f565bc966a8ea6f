#pragma once
/// @file hydrodynamics.hpp
/// Kerner's hydrodynamics (part 2; design.md §1.2) as pure functions on the
/// submerged pieces: skin friction (ITTC-1957), pressure drag and suction,
/// slamming, air resistance on emerged faces, and optional damping scaled by
/// the submerged fraction. Every term is relative to the water's velocity,
/// has documented units and coefficients, a switch, and its own telemetry.
///
/// Positions are relative (world axes, origin at the centre of mass) as in
/// hydrostatics.hpp; velocities are world [m/s].

#include <keel/hydrostatics.hpp>

#include <LinearMath/btVector3.h>

#include <cstdint>
#include <span>
#include <vector>

namespace keel {

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
  btScalar referenceSpeed_mps = 1;     ///< vr [m/s]
  btScalar pressureLinear_Pa = 500;    ///< C_PD1 [N/m^2]
  btScalar pressureQuadratic_Pa = 100; ///< C_PD2 [N/m^2]
  btScalar pressureFalloff = btScalar(0.5);  ///< f_P, dimensionless, in (0, 1]
  btScalar suctionLinear_Pa = 500;     ///< C_SD1 [N/m^2]
  btScalar suctionQuadratic_Pa = 100;  ///< C_SD2 [N/m^2]
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

  /// Extra damping, scaled by the submerged volume fraction: `F = -c_l s v_rel`,
  /// `tau = -c_a s omega`. Off by default.
  bool damping = false;
  btScalar linearDamping_Nspm = 0;     ///< c_l [N s/m]
  btScalar angularDamping_Nmsprad = 0; ///< c_a [N m s/rad]

  /// All terms off: hydrostatics only (the analytic cases of design.md §5).
  [[nodiscard]] static HydrodynamicSettings none();
  /// Throws std::invalid_argument naming the first bad field (negative or
  /// non-finite coefficient, falloff outside (0, 1], non-positive speeds).
  void validate() const;
};

/// Flow over one submerged piece.
struct PieceFlow {
  btVector3 centroid{0, 0, 0};   ///< relative position [m]
  btVector3 velocity_mps{0, 0, 0}; ///< hull velocity relative to the water there, world [m/s]
  btVector3 normal{0, 0, 0};     ///< outward unit normal
  btScalar area_m2 = 0;          ///< [m^2]
  btScalar speed_mps = 0;        ///< |velocity_mps| [m/s]
  btScalar cosTheta = 0;         ///< velocity direction . normal (0 when at rest)
};

/// The hydrodynamic forces of one substep, term by term.
struct HydrodynamicForces {
  ForceTorque viscous;       ///< skin friction
  ForceTorque pressureDrag;  ///< pressure drag and suction
  ForceTorque slamming;      ///< slamming
  ForceTorque air;           ///< air resistance
  ForceTorque damping;       ///< submerged-fraction damping
  /// Fraction (0..1] of the part of the total force that opposes the
  /// relative velocity which was kept, so that it cannot reverse that
  /// velocity within the substep (1: no clamping). The rest of the force
  /// (perpendicular to the velocity) is never clamped.
  btScalar clampScale = 1;
  /// The same for the part of the total torque that opposes the angular velocity.
  btScalar angularClampScale = 1;
  /// The sum of the terms, after clamping.
  [[nodiscard]] ForceTorque total() const;
};

/// Centroid, unit normal and area of each piece (from its area vector), and
/// the hull's velocity relative to the water at the centroid:
/// `v_G + omega x C - u_water(C)`.
/// `waterVelocity_mps[i]` is the water velocity at piece i's centroid (world).
void pieceFlows(std::span<const SubmergedPiece> pieces, const btVector3& linearVelocity_mps,
                const btVector3& angularVelocity_radps, std::span<const btVector3> waterVelocity_mps,
                std::span<PieceFlow> out);

/// ITTC-1957 friction line `Cf = 0.075 / (log10 Rn - 2)^2`. Below Rn = 1e5
/// (laminar, where the line is not meant to be used and diverges near
/// Rn = 100) Cf is held at its Rn = 1e5 value.
[[nodiscard]] btScalar ittc1957FrictionCoefficient(btScalar reynoldsNumber);

/// Length of the wetted hull along a direction [m]: the extent of the
/// waterline points (of the pieces when there is no waterline) along `flowDirection`.
[[nodiscard]] btScalar wettedLength_m(std::span<const SubmergedPiece> pieces,
                                      std::span<const WaterlineSegment> waterline,
                                      const btVector3& flowDirection);

/// Skin friction of every piece: `1/2 rho Cf A |v|^2` along `-v_t / |v_t|`,
/// v_t the velocity's tangential part (normal part removed before normalising).
[[nodiscard]] ForceTorque viscousForce(std::span<const PieceFlow> flows, btScalar density_kgpm3,
                                       btScalar frictionCoefficient);

/// Pressure drag (cos theta > 0) and suction (cos theta < 0) of every piece.
[[nodiscard]] ForceTorque pressureDragForce(std::span<const PieceFlow> flows, const HydrodynamicSettings& s);

/// Per-hull-triangle slamming state carried from one substep to the next.
struct SlammingState {
  std::vector<btScalar> sweptRate_m3ps;  ///< swept volume rate of each hull triangle last substep [m^3/s]
  bool warm = false;                     ///< false until one substep has been seen
  /// Size for a hull (zeroes the state).
  void reset(std::size_t triangleCount);
};

/// Slamming force. `triangleArea_m2` holds each hull triangle's full area,
/// `hullArea_m2` the hull's (S), `mass_kg` the boat's, `dt_s` the substep.
/// `scratch_m3ps` is a caller buffer of one entry per hull triangle.
/// Updates `state` for the next substep.
[[nodiscard]] ForceTorque slammingForce(std::span<const SubmergedPiece> pieces, std::span<const PieceFlow> flows,
                                        std::span<const btScalar> triangleArea_m2, btScalar hullArea_m2,
                                        btScalar mass_kg, btScalar dt_s, const HydrodynamicSettings& s,
                                        std::span<btScalar> scratch_m3ps, SlammingState& state);

/// Air resistance on the emerged part of each hull triangle facing the
/// relative wind, applied at the triangle's centroid. `r` are relative vertex
/// positions, `emerged` the triangles not wholly under the water (from
/// cutHull). With S the triangle's area vector and A_e = fraction A,
/// `A_e cos(theta) |v| = fraction (S . v)`: no square root per triangle.
[[nodiscard]] ForceTorque airForce(std::span<const btVector3> r, std::span<const Hull::Triangle> triangles,
                                   std::span<const EmergedTriangle> emerged, const btVector3& linearVelocity_mps,
                                   const btVector3& angularVelocity_radps, const HydrodynamicSettings& s);

/// Limits `forces` so that, applied for `dt_s` on a body of inverse mass
/// `inverseMass_pkg` and world inverse inertia `inverseInertia`, they cannot
/// reverse the relative linear velocity `relativeVelocity_mps` nor the angular
/// velocity (design.md §1.2, "Stability"; as Jolt clamps its drag). Linear
/// and angular parts are limited separately, and only their components along
/// the velocity they oppose: a steady drag torque (skin friction below the
/// centre of mass pitches a boat) must not cancel the linear drag, nor a
/// sideways force be lost to a forward clamp. Every term is scaled alike.
void clampToVelocity(HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                     const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                     const btMatrix3x3& inverseInertia, btScalar dt_s);

}  // namespace keel
