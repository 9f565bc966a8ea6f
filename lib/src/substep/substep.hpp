#pragma once
// One boat's substep as a list of stages (substep.cpp), on a snapshot of
// the rigid body and the boat's own state: no btRigidBody is touched here,
// so the whole substep runs, concurrently for many boats, and is tested
// without a Bullet world. keel::WaterAction reads the snapshot from the body
// and applies the velocity change the substep leaves in BoatState.
//
// Frames: "world" is Bullet's world axes; "relative" is world axes with the
// origin at the centre of mass; "body" is the hull's own frame (the body's
// centre-of-mass frame), in which the SIMD kernels work; "water" is east,
// north, up (WaterFrame), up = -gravity.

#include <keel/added_mass.hpp>
#include <keel/columns.hpp>
#include <keel/effects.hpp>
#include <keel/hull.hpp>
#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/substep_profile.hpp>
#include <keel/volume_moments.hpp>
#include <keel/water_action.hpp>
#include <keel/water_surface.hpp>

#include "finite.hpp"
#include "flood/floodwater.hpp"
#include "internals.hpp"
#include "kernels/air.hpp"
#include "kernels/buffers.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/flow.hpp"
#include "kernels/heights.hpp"
#include "kernels/hull_soa.hpp"
#include "kernels/pressure.hpp"
#include "substep/plan.hpp"
#include "water/patch_sampler.hpp"

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

class btRigidBody;

namespace keel::KEEL_ABI::detail {

/// What Keel set on the body for the added mass (added_mass.cpp,
/// docs/integration.md, "Added mass"): the body's own mass and inertia,
/// kept while Bullet holds them raised by the water's, and what was set,
/// so that a change the user makes is seen and taken as the body's own.
struct RaisedMass {
  bool active = false;                        ///< the body's mass and inertia are Keel's raised ones
  btScalar ownInverseMass_pkg = 0;            ///< the body's own 1 / m [1/kg]
  btVector3 ownInverseInertiaLocal{0, 0, 0};  ///< its own I^-1, principal axes [1/(kg m^2)]
  btScalar setInverseMass_pkg = 0;            ///< the 1 / m Keel set [1/kg]
  btVector3 setInverseInertiaLocal{0, 0, 0};  ///< the I^-1 Keel set, principal axes
};

/// A mass and principal inertia as Bullet holds them: inverses, 0 for an
/// infinite one (raised_mass.hpp's raisedMass: the body with its water).
struct BulletMass {
  btScalar inverseMass_pkg = 0;            ///< [1/kg]
  btVector3 inverseInertiaLocal{0, 0, 0};  ///< principal axes [1/(kg m^2)]
};

/// A principal inverse inertia in world axes, as Bullet's
/// btRigidBody::updateInertiaTensor makes it: B diag(I^-1) B^T, `basis` B
/// the centre of mass's rotation.
inline btMatrix3x3 worldInverseInertia(const btMatrix3x3& basis, const btVector3& inverseLocal) {
  return basis.scaled(inverseLocal) * basis.transpose();
}

/// What the substep reads of the rigid body, copied before it runs.
struct BodySnapshot {
  btTransform centreOfMass;         ///< centre-of-mass transform, world [m]
  btVector3 linearVelocity_mps;     ///< of the centre of mass, world
  btVector3 angularVelocity_radps;  ///< world axes
  btScalar inverseMass_pkg = 0;     ///< 1 / m [1/kg]; 0 for a static body
  btMatrix3x3 inverseInertia;       ///< I^-1, world axes [1/(kg m^2)]
  btVector3 gravity_mps2;           ///< the body's gravity, world
  btScalar linearDamping = 0;       ///< Bullet's damping: velocity *= (1 - damping)^dt [dimensionless]
  btScalar angularDamping = 0;      ///< the same for the angular velocity
  btVector3 linearFactor;           ///< Bullet's per-axis factors on velocity changes (world)
  btVector3 angularFactor;          ///< the same, angular
  bool staticOrKinematic = false;   ///< Bullet moves it, or nothing does
  // With the added mass (added_mass.cpp): the body's own mass above is not
  // Bullet's while Keel holds the body's mass raised (RaisedMass).
  btVector3 ownInverseInertiaLocal{0, 0, 0};  ///< the body's own I^-1, principal axes [1/(kg m^2)]
  btScalar bulletInverseMass_pkg = 0;         ///< 1 / m Bullet integrates with now [1/kg]
  btVector3 totalForce_N{0, 0, 0};            ///< Bullet's accumulated force (gravity and the user's), world
  btVector3 totalTorque_Nm{0, 0, 0};          ///< Bullet's accumulated torque, world
  /// Bullet's accumulated force holds this step's gravity (a substep inside
  /// stepSimulation); false between steps (WaterAction::prime).
  bool gravityInTotal = true;
  /// A copy of what the substep reads of `body`, whose own mass is
  /// `raised`'s while Keel holds it raised.
  static BodySnapshot of(const btRigidBody& body, const RaisedMass& raised, bool gravityInTotal);
};

/// What a boat is: its hull, its water, its settings and its buoyancy
/// model (read only).
struct BoatModel {
  const Hull& hull;
  const WaterSurface& surface;
  const HydrostaticSettings& statics;
  const HydrodynamicSettings& dynamics;
  BuoyancyModel model = BuoyancyModel::Triangles;
  const ColumnHull* columns = nullptr;  ///< the column model's columns (BuoyancyModel::Columns), else null
};

/// The water at a model's sample points (the hull's vertices, or the
/// columns' centroids), padded for the kernels [m].
struct PointWater {
  std::vector<btScalar> height_m;          ///< water height under each point, this substep
  std::vector<btScalar> previousHeight_m;  ///< the same, last substep (for waking the body)
  std::vector<btScalar> above_m;           ///< each point's height above the water (< 0: wet)
  bool havePrevious = false;               ///< previousHeight_m holds the last substep's
  /// Sizes the arrays for `padded` points (when smaller) and forgets the
  /// last substep's water.
  void fit(std::size_t padded);
};

class ModelState;  // model.hpp: one buoyancy model's own state

/// What the Effects stage keeps from one substep to the next, for Splash:
/// whether the hull was wet, and where and how it was at its last wet
/// substep. A value of the boat's state: rolled back with the rest.
struct EffectHistory {
  bool warm = false;            ///< the rest holds the last substep's (false: effects just switched on)
  bool wet = false;             ///< the hull was wet at the last substep
  btVector3 centre_m{0, 0, 0};  ///< the last wet substep's centre of buoyancy on the water, world
  btScalar volume_m3 = 0;       ///< its displaced volume
  btScalar wettedArea_m2 = 0;   ///< its wetted area
};

/// A boat's effect events and their settings (WaterAction::setEffects).
/// Not a value of the boat's state: the events are the game's to read, and
/// rollback only drops those of the substeps it undoes (docs/effects.md).
struct EffectBuffer {
  EffectSettings settings;
  std::vector<EffectEvent> events;  ///< reserved to settings.capacity once
  std::uint64_t dropped = 0;        ///< events that found the buffer full
  /// Adds `e`, or counts it dropped when the buffer is full.
  void add(const EffectEvent& e) {
    if (events.size() < settings.capacity)
      events.push_back(e);
    else
      ++dropped;
  }
};

/// How many buoyancy models there are (BuoyancyModel's values; model.cpp
/// has one entry each).
inline constexpr std::size_t kBuoyancyModelCount = 2;

/// What a boat keeps from one substep to the next, and the last substep's
/// results for telemetry and drawing, but its models' own states: values
/// only, so that one assignment copies all of it (BoatState::copyFrom, for
/// rollback: a field added here is saved and restored with the rest).
struct BoatValues {
  // The water's frame, remade only when gravity changes.
  WaterFrame frame;
  btVector3 frameGravity_mps2{0, 0, 0};  ///< the gravity `frame` was made from, world
  btScalar frameGravityLength_mps2 = 0;  ///< its length (frameGravity_mps2.length())
  bool frameValid = false;
  PatchSampler patch;         ///< Sampling::Patch's grid (and Auto's)
  bool patchSampled = false;  ///< the last substep sampled the patch
  // The last substep.
  btVector3 centre_m{0, 0, 0};  ///< centre of mass, world
  btMatrix3x3 basis;            ///< centre-of-mass rotation: body axes to world axes
  bool anyWet = false;          ///< some of the hull under the water
  /// The least height of a vertex above the water [m] (< 0: a vertex is wet); NaN when no water was found.
  btScalar lowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();
  HydrostaticResult hydrostatics;
  HydrodynamicForces hydrodynamics;
  /// The Clamp stage's reference water, world [m/s] (the body's velocity
  /// less the Flow stage's relative velocity), and the kinetic energy
  /// relative to it that the terms were allowed to add [J] (clamp.cpp):
  /// what keel_fuzz checks. Zero when no term ran.
  btVector3 referenceWater_mps{0, 0, 0};
  double energyAllowance_J = 0;
  /// hydrodynamics, referenceWater_mps and energyAllowance_J hold their
  /// zeros: a substep without a term need not clear them again (the models
  /// set it false where their terms run).
  bool termsCleared = true;
  ForceTorque total;                        ///< world axes, about the centre of mass
  btVector3 pendingLinear_mps{0, 0, 0};     ///< velocity change for the next substep, world
  btVector3 pendingAngular_radps{0, 0, 0};  ///< angular velocity change, world
  bool dampingCompensated = true;           ///< the changes were divided by Bullet's damping factor
  /// Bullet's damping factors (1 - damping)^dt of the last substep and what
  /// they were computed from: the same inputs give them again without two
  /// calls to pow. NaN: none yet.
  btScalar dampingOf[3] = {std::numeric_limits<btScalar>::quiet_NaN(), 0, 0};  ///< dt [s], linear, angular damping
  btScalar dampingFactors[2] = {1, 1};                                         ///< linear, angular
  /// Their reciprocals, which undoNextDamping multiplies by.
  btScalar dampingInverse[2] = {1, 1};
  bool wake = false;               ///< the water under the boat moved: wake the body
  std::uint32_t flags = StatusOk;  ///< the last substep's StatusFlag bits, before it is applied
  WaterStatus status;
  FloodState flood;     ///< the compartments, their water and its weight (none: no flooding)
  AddedMass addedMass;  ///< the last substep's added mass, body axes (zero when off or dry)
  /// addedMass holds its zeros: a substep without it need not clear its 36
  /// doubles again.
  bool addedMassCleared = true;
  /// The whole hull's volume moments, which the added mass of a hull under
  /// the water needs: integrated at the first substep that wants them.
  Moments hullMoments;
  bool hullMomentsKnown = false;
  RaisedMass raised;            ///< what Keel set on the body for the added mass
  BulletMass raisedTo;          ///< the last substep's body with its water, for Bullet's next (AddedMass stage)
  EffectHistory effectHistory;  ///< the Effects stage's (zero while effects are off)
};

/// What a boat keeps from one substep to the next (BoatValues), its
/// models' own states, and its profile. What only one buoyancy model keeps
/// (its points' water, slamming's history, the columns' immersion) is that
/// model's (model.hpp), made at its first substep.
struct WakeLink;

/// The memory beyond a boat's own that its last substep worked in (its
/// model's state and arrays, its patch's samples: heap allocations of their
/// own), for a loop over many boats to ask for a boat ahead
/// (WaterFleet::step). A hint only: after the memory moves (a model fitted
/// to larger columns, a rollback) it names the old until the next substep,
/// and nothing read depends on it. Small, as every boat's state holds one:
/// the first kMaxBytes of a range alone (the processor's own prefetcher
/// follows a long array once it is being read).
struct MemoryHint {
  static constexpr std::size_t kRanges = 7;
  static constexpr std::size_t kMaxBytes = 1024;
  std::array<const void*, kRanges> at{};
  std::array<std::uint16_t, kRanges> bytes{};
  std::uint8_t count = 0;
  /// Adds `n` bytes at `p` (none when full).
  void add(const void* p, std::size_t n) {
    if (count == kRanges) return;
    at[count] = p;
    bytes[count++] = std::uint16_t(std::min(n, kMaxBytes));
  }
  template <typename T>
  void add(const std::vector<T>& v) {
    add(v.data(), v.size() * sizeof(T));
  }
};

struct BoatState : BoatValues {
  BoatState();
  ~BoatState();
  BoatState(const BoatState&) = delete;
  BoatState& operator=(const BoatState&) = delete;
  /// Each stage's time, when the boat is profiled (WaterAction::setProfiling); null when not.
  std::unique_ptr<SubstepProfile> profile;
  /// The effect events, when the boat reports them (WaterAction::setEffects); null when not.
  std::unique_ptr<EffectBuffer> effects;
  /// The WakeField this boat makes waves in (WakeField::add), shared with
  /// it; null when it makes none. Not a value: rollback saves its sources.
  std::shared_ptr<WakeLink> wakeLink;
  /// Each buoyancy model's own state, indexed by BuoyancyModel; made at its
  /// first substep (modelState).
  std::array<std::unique_ptr<ModelState>, kBuoyancyModelCount> models;
  /// What the last substep worked in beyond the boat's own memory: not a
  /// value (copyFrom leaves it).
  MemoryHint memoryHint;
  /// The state of `model`, made (allocating) the first time. (The made
  /// state's look-up inline: one call fewer on every substep.)
  ModelState& modelState(BuoyancyModel model) {
    const std::unique_ptr<ModelState>& m = models.at(std::size_t(model));
    return m ? *m : makeModelStateOf(model);
  }
  /// modelState's first time: makes the state of `model` (model.cpp).
  ModelState& makeModelStateOf(BuoyancyModel model);
  /// Becomes `from` but for the profile (rollback): its values, and each
  /// model's state `from` has (a model it has not made is forgotten here
  /// too). Allocates only where this holds less memory than `from`: a model
  /// it has not made, or arrays smaller than `from`'s (model.cpp).
  void copyFrom(const BoatState& from);
  /// Configures the patch for `statics` and forgets every model's state: a
  /// boat's state for a hull, before its first substep.
  void allocate(const Hull& hull, const HydrostaticSettings& statics);
  /// Configures the patch for Sampling::Patch (throws as
  /// PatchSampler::configure) and Auto (left empty when it would be too
  /// large); empties it for Direct.
  void configurePatch(const Hull& hull, const HydrostaticSettings& statics);
};

/// The water's axes in the body frame and the centre of mass along them,
/// for one substep.
struct WaterAxes {
  btVector3 east, north, up;                   ///< unit vectors, body axes
  double centreEast_m = 0, centreNorth_m = 0;  ///< centre of mass along east and north, world [m]
  btScalar centreUp_m = 0;                     ///< centre of mass along up, world [m]
};

/// One substep's working state: its plan, and what each stage leaves for
/// the next (results only: every decision is the plan's).
/// A stage's result that the stage writes whole before any other reads
/// it (`value`): left unset when the Substep is made, since zeroing it
/// would be stores every substep pays for and none reads.
template <class T>
union WrittenBeforeRead {
  WrittenBeforeRead() {}  // NOLINT(modernize-use-equals-default): = default would zero `value`
  T value;
};

struct Substep {
  Substep(BoatBuffers& b, const SubstepPlan& p, btScalar dt, double t, SubstepProfile* prof)
      : buffers(b), plan(p), dt_s(dt), t_s(t), profile(prof) {}
  BoatBuffers& buffers;     ///< this thread's working memory
  const SubstepPlan& plan;  ///< what this substep does (plan.hpp)
  btScalar dt_s;            ///< substep length [s]
  double t_s;               ///< water clock [s]
  SubstepProfile* profile;  ///< where the stages' times go; null: not profiled
  WaterAxes axes;           ///< Pose
  // SampleWater, Heights.
  std::size_t samplesAsked = 0;      ///< water heights asked of the surface
  std::size_t nonFiniteHeights = 0;  ///< of them, NaN or infinite (replaced)
  Extent waterRange{0, 0};           ///< range of the water heights under the hull [m]
  std::size_t crossingCount = 0;     ///< Classify: triangles the waterline crosses
  /// WavePressure: the wet triangles' and the pieces' corners carry the
  /// waves' pressure heads, which Cut interpolates and Pressure integrates
  /// in place of the depths.
  bool cornerHeads = false;
  /// Cut: a small hull's pressure sums, its pieces summed as they were cut
  /// and not stored (cutAndSum), when `summed` (whole: sumsOf writes
  /// every field).
  WrittenBeforeRead<PressureSums> sums;
  bool summed = false;
  btScalar meanWaterHeight_m = 0;           ///< ColumnBuoyancy: the mean water height at the columns [m]
  btVector3 relativeVelocity_mps{0, 0, 0};  ///< Flow: centre of mass relative to the mean water under it, world
  /// Flow: the flow pass's sums, body axes (zeros without a flow pass).
  WrittenBeforeRead<FlowSums> flow;
  bool slamSummed = false;         ///< Flow: slamming summed this substep (its history is warm)
  SlammingParameters slamming;     ///< Flow: slamming's per-boat factors
  std::uint32_t flags = StatusOk;  ///< StatusFlag bits so far
  /// Clamp: the terms' sum as it left them (HydrodynamicForces::total()),
  /// for VelocityChange, when `termsSummed`.
  ForceTorque termsTotal;
  bool termsSummed = false;
  /// Pose, AddedMass: the inverse mass and inertia (world) the water's terms
  /// accelerate: the body's own, raised by the added mass when it is on.
  btScalar effectiveInverseMass_pkg = 0;
  btMatrix3x3 effectiveInverseInertia;
};

/// Runs one substep of `dt_s` [s] at water time `t_s` [s] on the boat's
/// buoyancy model (the one place that dispatches on it: model.hpp).
/// Returns true when state.pendingLinear_mps and state.pendingAngular_radps
/// are to be added to the body (the status is then finished by
/// finishStatus); false when nothing is to be applied (the status, already
/// finished, says why).
[[nodiscard]] bool runSubstep(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s,
                              double t_s);

/// The last substep's cut for drawing and for queries (relative
/// positions, world axes): the model's (ModelState::drawnCut), empty for a
/// model without one.
void drawnCut(const BoatModel& boat, BoatState& state, std::vector<SubmergedPiece>& pieces,
              std::vector<WaterlineSegment>& waterline);

/// A force and torque summed in body axes, times `scale`, in world axes.
[[nodiscard]] ForceTorque bodyToWorld(const btMatrix3x3& basis, const BodyForce& f, double scale = 1);

/// A substep with no water force: the results are cleared (the last good
/// ones would lie about this substep) and the status, with `flags`, says
/// why. Returns false, for runSubstep.
bool skipSubstep(BoatState& state, std::uint32_t flags);

/// Records the last substep's flags and counts in the status.
inline void finishStatus(WaterStatus& status, std::uint32_t flags, bool skipped) {
  status.flags = flags;
  status.everFlags |= flags;
  ++status.substeps;
  if (skipped) ++status.skippedSubsteps;
}

}  // namespace keel::KEEL_ABI::detail

namespace keel::KEEL_ABI {

/// WaterAction's opaque state (lib/src/internals.hpp): the BoatState itself.
struct WaterAction::State final : detail::BoatState {};

inline auto& Internals::state(WaterAction& boat) { return *boat.state_; }
inline detail::BoatModel Internals::model(const WaterAction& boat) {
  return detail::BoatModel{*boat.hull_, *boat.surface_, boat.settings_, boat.hydro_, boat.model_, boat.columns_.get()};
}

}  // namespace keel::KEEL_ABI
