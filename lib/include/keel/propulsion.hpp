#pragma once
/// @file propulsion.hpp
/// keel::Propulsion: the Bullet action that drives and steers a boat with a
/// keel::Propeller and a keel::Rudder, their forces acting exactly once per
/// substep as a WaterAction's do (docs/propulsion.md).

#include <keel/config.hpp>
#include <keel/propeller.hpp>
#include <keel/rudder.hpp>
#include <keel/water_action.hpp>
#include <keel/water_surface.hpp>

#include <BulletDynamics/Dynamics/btActionInterface.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <memory>

class btRigidBody;
class btIDebugDraw;
class btCollisionWorld;

namespace keel::KEEL_ABI {

/// Where the propeller and the rudder sit: body (centre-of-mass) frame. A
/// body on its principal axes is turned from its mesh file's: map the
/// file's points and directions with MassProperties::pointInBody and
/// directionInBody.
struct PropulsionLayout {
  btVector3 forward{1, 0, 0};      ///< the shaft, towards the bow, body frame (normalised)
  btVector3 up{0, 1, 0};           ///< the rudder stock, towards the deck, body frame, perpendicular to forward
  btVector3 propeller_m{0, 0, 0};  ///< the propeller's hub, body frame [m]
  btVector3 rudder_m{0, 0, 0};     ///< the blade's centre, body frame [m]
  double rudderSpan_m = 1;         ///< the blade's span along `up` [m]: its wet part carries the force
  /// The blade stands in the propeller's race: the water reaches it at the
  /// race's speed (momentum theory, docs/propulsion.md), so it steers at
  /// bollard pull; false for a rudder clear of the race.
  bool rudderInSlipstream = true;
};

/// The helm: the engine's revolutions and the rudder's angle.
struct Helm {
  double revolutions_ps = 0;  ///< shaft speed n [1/s] (rev/s); negative astern
  /// The blade's angle from the centreline [rad]: positive puts its
  /// trailing edge to starboard (forward x up), which turns the bow to
  /// starboard going ahead.
  double rudder_rad = 0;
};

/// What the last substep applied (world axes), for HUDs and tests.
struct PropulsionReport {
  std::uint32_t flags = StatusOk;     ///< StatusFlag bits: what went wrong, if anything (nothing applied then)
  PropellerLoad propeller;            ///< open-water thrust and torque, before the thrust deduction
  double advanceSpeed_mps = 0;        ///< V_A: the water reaching the disc along the shaft, the wake taken off
  double immersion_m = 0;             ///< the shaft's depth below the local surface (negative above it)
  btVector3 thrust_N{0, 0, 0};        ///< on the hull at the hub: (1 - t) T along the shaft
  btVector3 shaftTorque_Nm{0, 0, 0};  ///< the shaft's reaction on the hull
  RudderForce rudder;                 ///< lift, drag, angle of attack and inflow speed
  double rudderWetFraction = 0;       ///< of the blade's span, under the local surface
  btVector3 rudderLift_N{0, 0, 0};    ///< across the blade's inflow
  btVector3 rudderDrag_N{0, 0, 0};    ///< along it
  btVector3 force_N{0, 0, 0};         ///< the total made to act in the next substep
  btVector3 torque_Nm{0, 0, 0};       ///< about the centre of mass
};

/// Drives and steers one rigid body: each substep it reads the body's state
/// and the water at the propeller and the rudder (height for the immersion,
/// velocity for the current), computes the propeller's thrust and torque and
/// the rudder's lift and drag, and makes them act exactly once in the next
/// substep, as WaterAction makes the water's force act (docs/model.md §3):
/// a velocity change added at the end of the substep, divided by the
/// damping Bullet applies first. Same results for any `maxSubSteps`.
class Propulsion : public btActionInterface {
 public:
  /// Drives the body `boat` floats, on `boat`'s surface, clock and water
  /// density (the boat must outlive the action). Add it to the world after
  /// the boat: Bullet runs actions in the order they were added, so the
  /// boat reads the velocity Bullet integrated, and this action takes the
  /// boat's velocity change off the body's velocity it reads (as
  /// WaterAction::linearVelocity_mps does). Added before, it reads the same,
  /// but the boat then reads the propeller's velocity change with its own.
  Propulsion(const WaterAction& boat, const Propeller& propeller, const Rudder& rudder, const PropulsionLayout& layout);
  /// Drives `body` on `surface`, with a clock of its own starting at 0 and
  /// water of `density_kgpm3`. Throws std::invalid_argument for a null body
  /// or surface or a non-positive density.
  Propulsion(btRigidBody* body, std::shared_ptr<const WaterSurface> surface, const Propeller& propeller,
             const Rudder& rudder, const PropulsionLayout& layout, double density_kgpm3 = kSeaWaterDensity_kgpm3);

  /// Sets the helm from the next substep on. Throws std::invalid_argument,
  /// the helm unchanged, for a non-finite value.
  void setHelm(const Helm& helm);
  [[nodiscard]] const Helm& helm() const { return helm_; }

  /// Called by Bullet once per substep: makes the forces of the body's new
  /// state act in the next substep.
  void updateAction(btCollisionWorld* world, btScalar timeStep_s) override;
  /// The same between steps, without advancing the clock (as
  /// WaterAction::prime): the first substep after adding the action then
  /// feels the forces too.
  void prime(btScalar timeStep_s);
  /// The thrust (yellow) from the hub and the rudder's force (cyan) from
  /// the blade, the body's weight per 5 m of arrow.
  void debugDraw(btIDebugDraw* drawer) override;

  /// What the last substep applied; flags say why nothing was.
  [[nodiscard]] const PropulsionReport& report() const { return report_; }
  [[nodiscard]] const Propeller& propeller() const { return propeller_; }
  [[nodiscard]] const Rudder& rudder() const { return rudder_; }
  [[nodiscard]] const PropulsionLayout& layout() const { return layout_; }
  /// The clock [s] given to the surface: the boat's with a WaterAction.
  [[nodiscard]] double time_s() const { return time_s_; }

 private:
  /// Computes and applies one substep's forces at time `t_s`; `boatRan`:
  /// the boat's velocity change for the next substep is already in the
  /// body's velocity.
  void step(btScalar timeStep_s, double t_s, bool boatRan);
  [[nodiscard]] bool compute(const btVector3& velocity_mps, const btVector3& spin_radps, double t_s);

  btRigidBody* body_;
  std::shared_ptr<const WaterSurface> surface_;
  const WaterAction* boat_ = nullptr;
  Propeller propeller_;
  Rudder rudder_;
  PropulsionLayout layout_;
  double density_kgpm3_;
  Helm helm_;
  double time_s_ = 0;
  PropulsionReport report_;
};

}  // namespace keel::KEEL_ABI
