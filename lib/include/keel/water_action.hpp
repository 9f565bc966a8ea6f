#pragma once
/// @file water_action.hpp
/// keel::WaterAction: the Bullet action that makes one rigid body float.

#include <keel/added_mass.hpp>
#include <keel/columns.hpp>
#include <keel/config.hpp>
#include <keel/constants.hpp>
#include <keel/effects.hpp>
#include <keel/flooding.hpp>
#include <keel/hull.hpp>
#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/level_of_detail.hpp>
#include <keel/rollback.hpp>
#include <keel/substep_profile.hpp>
#include <keel/water_sampling.hpp>
#include <keel/water_surface.hpp>

#include <BulletDynamics/Dynamics/btActionInterface.h>
#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

class btRigidBody;
class btIDebugDraw;
class btCollisionWorld;

namespace keel::KEEL_ABI {

/// Problems the action met, as bits. The action never lets a NaN or an
/// infinity reach Bullet: on any of these it applies a finite force (or none)
/// and keeps running.
enum StatusFlag : std::uint32_t {
  StatusOk = 0,
  /// The surface returned NaN/inf; replaced by the mean of the finite
  /// samples (at a compartment's openings to the sea: docs/flooding.md).
  StatusNonFiniteHeight = 1u << 0,
  StatusNoFiniteHeight = 1u << 1,        ///< every sample was NaN/inf: no water force this substep
  StatusBadTimeStep = 1u << 2,           ///< time step <= 0 or not finite: substep skipped
  StatusStaticBody = 1u << 3,            ///< static, kinematic or zero-mass body: nothing to float
  StatusNoGravity = 1u << 4,             ///< gravity zero or not finite: no up, no buoyancy
  StatusNonFiniteBody = 1u << 5,         ///< the body's transform is not finite: substep skipped
  StatusNonFiniteForce = 1u << 6,        ///< the force or the velocity change came out non-finite: not applied
  StatusDry = 1u << 7,                   ///< the hull is wholly above the water (informational)
  StatusSubmerged = 1u << 8,             ///< the hull is wholly under the water (informational)
  StatusDampingUncompensated = 1u << 9,  ///< body damping ~1: the force acts uncompensated, see WaterAction
  StatusSurfaceThrew = 1u << 10,  ///< the surface threw: caught; no water force (or no water velocity) this substep
  StatusNonFiniteVelocity = 1u << 11,  ///< the surface returned a NaN/inf water velocity; replaced by zero
  StatusDragClamped = 1u << 12,        ///< the drag was limited so it cannot reverse the motion (informational)
  /// Water heights more than kPlausibleHead_m beyond the hull's reach: replaced
  /// by the mean of the plausible ones (docs/model.md §4; at a compartment's
  /// openings to the sea, docs/flooding.md).
  StatusImplausibleHeight = 1u << 13,
  /// The pressure force or torque exceeded what any sea can give the hull
  /// (kMaxPressureForceFactor rho g V, and times the hull's radius): limited.
  StatusPressureLimited = 1u << 14,
  /// The drag was limited so that it cannot add kinetic energy relative to
  /// the water (informational).
  StatusDragEnergyLimited = 1u << 15,
  /// The boat is too far from the origin for the water patch's grid indices:
  /// no water force this substep.
  StatusOutOfRange = 1u << 16,
  /// Every water height lies more than kPlausibleHead_m above the hull's
  /// reach: the hull would be deeper under the water than boats go, as when
  /// the surface answers in millimetres (1 m of water reads 1000). The heights
  /// are clamped to the bound, which leaves a closed hull's force rho g V.
  StatusImplausibleDepth = 1u << 17,
  /// The body is not in the world that steps the action (removed from it
  /// while its boat stayed in the fleet, or the action in the world): the
  /// body is left alone, no velocity change, until it is back.
  StatusNotInWorld = 1u << 18,
  /// The boat makes waves in a WakeField (WakeField::add) but lies outside
  /// its window: it makes none there, and feels none (informational).
  StatusOutsideWakeField = 1u << 19,
};

/// How far above the hull's reach [m] (its bounding radius about the
/// centre of mass) a water height may lie and still be taken as water; the
/// highest sea waves are about 30 m. Beyond, a height is implausible
/// (StatusImplausibleHeight), unless every height is: the hull is then high
/// above the water (a boat on land), or deep under it, deeper than a boat
/// goes (StatusImplausibleDepth), and the heights are clamped to this bound,
/// which leaves a closed hull's pressure force unchanged.
inline constexpr double kPlausibleHead_m = 100;
/// The pressure force may not exceed this times rho g V (V the hull's
/// volume): a fully submerged hull feels rho g V, on a water slope s
/// rho g V sqrt(1 + s^2); twice allows slopes up to 60 degrees.
inline constexpr double kMaxPressureForceFactor = 2;

/// What happened in the last substep, and counts since construction (or the
/// last clear()).
struct WaterStatus {
  std::uint32_t flags = StatusOk;         ///< StatusFlag bits of the last substep
  std::uint32_t everFlags = StatusOk;     ///< StatusFlag bits of any substep so far
  std::uint64_t substeps = 0;             ///< substeps seen
  std::uint64_t skippedSubsteps = 0;      ///< substeps with no force applied because of a problem
  std::uint64_t nonFiniteHeights = 0;     ///< NaN/inf water heights received and replaced
  std::uint64_t nonFiniteVelocities = 0;  ///< NaN/inf water velocities received and replaced by zero
  std::uint64_t implausibleHeights = 0;   ///< water heights far outside any sea, replaced
  /// True when the last substep had no problem (informational bits ignored).
  [[nodiscard]] bool ok() const {
    return (flags &
            ~(StatusDry | StatusSubmerged | StatusDragClamped | StatusDragEnergyLimited | StatusOutsideWakeField)) == 0;
  }
  /// Human-readable list of the last substep's flags and the counts, e.g.
  /// "non-finite water height (replaced); 3 non-finite heights so far", or "ok".
  [[nodiscard]] std::string describe() const;
  /// Forget the counts and the sticky bits.
  void clear() { *this = WaterStatus{}; }
};

/// Per-boat settings of the hydrostatic model.
struct HydrostaticSettings {
  btScalar waterDensity_kgpm3 = btScalar(kSeaWaterDensity_kgpm3);  ///< rho [kg/m^3]; sea water
  Sampling sampling = Sampling::Auto;                              ///< how the water under the hull is sampled
  /// Cell [m] of the patch (Sampling::Patch, and Auto when it picks it);
  /// > Hull::radius_m() / 1023 (<= 2,048^2 nodes) for Patch. Auto samples
  /// directly when the patch would be larger.
  btScalar patchCellSize_m = 0.5;
  /// The patch in time (Sampling::Patch, and Auto when it picks it): the
  /// surface is queried at the lattice times `k T` only, T the largest power
  /// of two seconds at most this many substeps, and a substep between two of
  /// them blends the two samples linearly (one landing on one reads its
  /// sample). A wave of frequency omega then errs by at most
  /// `(omega T)^2 / 8` of its amplitude; 1 queries at every substep's own
  /// time. Only on a surface whose answers over the two times are settled
  /// (WaterSurface::settledBetween); elsewhere every substep queries at its
  /// own time. From 1 to 64. docs/model.md, "Water sampling".
  int patchSubstepsPerSample = 4;
  /// Kerner's static head (default: cheapest, and what the published model
  /// does) or the waves' pressure decaying with depth. docs/model.md, "Wave
  /// pressure".
  PressureModel pressure = PressureModel::StaticHead;
  /// Let Bullet put the boat to sleep when the water under it is still.
  /// Off by default: a boat at rest bobs below Bullet's sleep thresholds and
  /// would freeze mid-oscillation. The action always wakes a sleeping boat
  /// when the water under it moves.
  bool allowSleepInStillWater = false;
};

/// The Bullet action that floats one rigid body on a water surface: each
/// substep it samples the water under the hull and makes the water's force
/// and torque act exactly once in the next substep, for any `maxSubSteps`,
/// frame rate and body damping. How, and what it computes: docs/model.md §3.
class WaterAction : public btActionInterface {
 public:
  /// Floats `body` (kept alive by the caller; must outlive the action) with
  /// `hull` (vertices in the body's centre-of-mass frame) on the water given
  /// by `height`. Throws std::invalid_argument for a null body or hull or an
  /// empty function. A hull whose parts overlap (HullOptions::overlappingParts)
  /// starts on BuoyancyModel::Columns, which floats their union.
  WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull, HeightFunction height,
              const HydrostaticSettings& settings = {});
  /// Same, on a WaterSurface shared between boats.
  WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull, std::shared_ptr<const WaterSurface> surface,
              const HydrostaticSettings& settings = {});
  ~WaterAction() override;

  WaterAction(const WaterAction&) = delete;
  WaterAction& operator=(const WaterAction&) = delete;

  /// Called by Bullet once per substep, after it integrated the substep:
  /// advances the water clock by `timeStep_s` and makes the water force of
  /// the body's new state act in the next substep. A body not in `world`
  /// (when `world` is given) is left alone: StatusNotInWorld.
  void updateAction(btCollisionWorld* world, btScalar timeStep_s) override;
  /// Makes the water force of the body's current state act in the next
  /// substep of `timeStep_s` [s], without advancing the clock. Bullet runs
  /// actions after integrating, so without this the first substep after
  /// adding the action (or after teleporting the body) feels no water.
  /// No time passes: the compartments' water weighs, but none flows.
  void prime(btScalar timeStep_s);
  /// On columns: each column's axis, its wet part blue (darker the fuller)
  /// and its dry part grey, and the buoyancy arrow. On triangles: the submerged pieces (blue), the waterline (orange),
  /// the pressure force from the centre of buoyancy (red) and one arrow per hydrodynamic term from the centre of mass
  /// (viscous green, pressure drag amber, slamming magenta, air light blue, damping grey), scaled as
  /// `debugForceScale_Npm` says. Keel's waterline is orange, unlike Bullet's white wireframe.
  void debugDraw(btIDebugDraw* drawer) override;

  /// Replaces the settings. Throws std::invalid_argument (settings unchanged)
  /// for a non-positive or non-finite density or cell size.
  void setSettings(const HydrostaticSettings& settings);
  [[nodiscard]] const HydrostaticSettings& settings() const { return settings_; }
  /// Replaces the hydrodynamic settings (HydrodynamicSettings::none() for
  /// hydrostatics only). Throws std::invalid_argument (settings unchanged)
  /// naming the first bad field.
  void setHydrodynamics(const HydrodynamicSettings& settings);
  [[nodiscard]] const HydrodynamicSettings& hydrodynamicSettings() const { return hydro_; }

  /// The one way to choose a boat's model of the water's force
  /// (docs/columns.md) and how much of it to compute: applies a level of
  /// detail (the model, its columns, the sampling and the hydrodynamic
  /// terms; the density and sleep settings stay), e.g. farBoatSettings(*hull())
  /// for a far boat and fullDetailSettings() when it comes near, or
  /// levelOfDetail() with one field changed. From the next substep on;
  /// cheap, and it allocates only the first time columns are chosen.
  /// Columns without a ColumnHull given use defaultColumnHull(hull()),
  /// built on first use and shared by every boat of the same hull. On
  /// columns only the damping of the hydrodynamic settings applies;
  /// submergedPieces() and waterline() are empty. Throws
  /// std::invalid_argument, changing nothing, as the setters do, for
  /// triangles on a hull whose parts overlap (Hull::partsOverlap: only
  /// columns float their union), or for columns built from another hull.
  void setLevelOfDetail(const LevelOfDetail& lod);
  /// The boat's level of detail as it is now (its columns among it; a
  /// column count of 0).
  [[nodiscard]] LevelOfDetail levelOfDetail() const;
  /// The model of the water's force, set by setLevelOfDetail.
  [[nodiscard]] BuoyancyModel buoyancyModel() const { return model_; }
  /// The column model's columns; null until columns were chosen or given.
  [[nodiscard]] const std::shared_ptr<const ColumnHull>& columnHull() const { return columns_; }
  /// Each column's immersed fraction (0 dry, 1 full) at the last substep, in
  /// columnHull()->columns() order; empty on triangles.
  [[nodiscard]] std::span<const btScalar> columnImmersion() const;

  /// The water clock [s] passed to the surface; it advances by each substep's
  /// time step. Set it to match a clock of your own.
  void setTime(double t_s) { time_s_ = t_s; }
  [[nodiscard]] double time_s() const { return time_s_; }

  [[nodiscard]] btRigidBody* body() const { return body_; }
  [[nodiscard]] const std::shared_ptr<const Hull>& hull() const { return hull_; }
  [[nodiscard]] const std::shared_ptr<const WaterSurface>& surface() const { return surface_; }
  /// Floats the boat on `surface` from the next substep on, keeping all it
  /// carries from one substep to the next. For a floating origin: when the
  /// game moves its world back towards the origin, the same water moved with
  /// it (shiftedWaves; docs/integration.md, "Large worlds"). Between steps,
  /// not while Bullet steps the world. Throws std::invalid_argument for a
  /// null surface.
  void setSurface(std::shared_ptr<const WaterSurface> surface);

  /// The last substep's hydrostatics (centre of buoyancy relative to the
  /// centre of mass, world axes).
  [[nodiscard]] const HydrostaticResult& hydrostatics() const;
  /// The last substep's hydrodynamic forces, term by term (after clamping).
  [[nodiscard]] const HydrodynamicForces& hydrodynamics() const;
  /// The total force and torque about the centre of mass made to act in the
  /// next substep (world axes): hydrostatics plus hydrodynamics.
  [[nodiscard]] const ForceTorque& totalForce() const;
  /// The hull's added mass at the last substep, about the centre of mass,
  /// body axes (zero while HydrodynamicSettings::addedMass is off, or dry).
  /// While it is on, the body's mass and inertia are raised by it
  /// (docs/integration.md, "Added mass"); ownMass_kg() is the body's own.
  [[nodiscard]] const AddedMass& addedMass() const;
  /// The body's own mass [kg], without the water Keel adds to it while
  /// HydrodynamicSettings::addedMass is on (then the body's getMass() is
  /// larger); the body's mass otherwise.
  [[nodiscard]] btScalar ownMass_kg() const;
  /// The body's velocity [m/s, world] as Bullet integrated it, without the
  /// water's velocity change this action added for the next substep: what
  /// a speedometer or a game's logic reads (the body's own
  /// getLinearVelocity() already holds the next substep's change).
  [[nodiscard]] btVector3 linearVelocity_mps() const;
  /// The same for the angular velocity [rad/s, world].
  [[nodiscard]] btVector3 angularVelocity_radps() const;
  /// The velocity change [m/s, world] this action added to the body for the
  /// next substep (zero when it applied none).
  [[nodiscard]] const btVector3& pendingLinearVelocity_mps() const;
  /// The angular velocity change [rad/s, world] added for the next substep.
  [[nodiscard]] const btVector3& pendingAngularVelocity_radps() const;
  /// The centre of mass [m, world] at the last substep; the body's own
  /// before the first.
  [[nodiscard]] const btVector3& centreOfMass() const;
  /// Depth [m] of the hull's lowest point below the water at the last substep (negative: the hull
  /// is clear of the water by that much); NaN before the first substep and after one without water.
  [[nodiscard]] btScalar draft_m() const;
  /// The last substep's submerged pieces (relative positions, world axes).
  /// The substep itself never builds them (whole submerged triangles go
  /// straight to the SIMD sums): the first call after a substep cuts the
  /// hull again from that substep's pose and heights, so do not call it from
  /// two threads at once.
  [[nodiscard]] std::span<const SubmergedPiece> submergedPieces() const;
  /// The last substep's waterline (relative positions, world axes); built
  /// as submergedPieces() is.
  [[nodiscard]] std::span<const WaterlineSegment> waterline() const;
  /// The water patch of the last substep that sampled one (empty when none
  /// did): what the boat felt, for drawing the same water, when
  /// lastSampling() is Sampling::Patch.
  [[nodiscard]] const WaterPatch& waterPatch() const;
  /// Gives the boat compartments that water can flood (docs/flooding.md),
  /// replacing any it had, each with the water it holds. Throws
  /// std::invalid_argument, naming the compartment and the field, for a
  /// missing mesh or one with overlapping parts, an opening with a
  /// non-finite position or a non-positive area or height, a discharge
  /// coefficient outside (0, 1], an opening to itself or to no compartment,
  /// a door listed in both the compartments it joins, a negative or
  /// non-finite pump rate, a permeability outside (0, 1], water outside [0,
  /// its capacity] (Compartment::water_m3), a compartment whose bounds reach
  /// past the hull's or whose volume exceeds the hull's (by more than 1 %),
  /// or compartments that overlap. The water flooding() reports is always
  /// accepted back.
  void setCompartments(std::vector<Compartment> compartments);
  [[nodiscard]] const std::vector<Compartment>& compartments() const;
  /// Holes the boat at `point_world` [m, world] with a hole of `area_m2` to
  /// the sea (a collision callback's contact point, say): it opens into the
  /// compartment whose bounds hold the point (the nearest centroid among
  /// several, the nearest bounds when none does). A boat without
  /// compartments gets one first: its whole hull. Returns the
  /// compartment's index. Throws std::invalid_argument for a non-finite point
  /// or a bad area or coefficient, and for a boat without compartments whose
  /// hull has overlapping parts (give it compartments first).
  std::size_t openHole(const btVector3& point_world, btScalar area_m2, btScalar dischargeCoefficient = btScalar(0.6));
  /// The water in each compartment, the flow, the water taken from the sea
  /// and the reserve buoyancy after the last substep.
  [[nodiscard]] const FloodingStatus& flooding() const;
  /// How the last substep sampled the water: Sampling::Direct or
  /// Sampling::Patch (Sampling::Auto's choice).
  [[nodiscard]] Sampling lastSampling() const;
  /// Problems met, for the user to read.
  [[nodiscard]] const WaterStatus& status() const;
  void clearStatus();

  /// Everything this boat carries from one substep to the next, for
  /// rollback (WaterActionState says what): after restoreState() of it the
  /// next substeps compute the same bits as they did after the save, given
  /// the same body state and surface. Changes nothing here. Allocates the
  /// state's memory.
  [[nodiscard]] WaterActionState saveState() const;
  /// saveState() into `into`, reusing its memory: no allocation once `into`
  /// holds a state of this boat whose arrays are as large (a ring buffer's
  /// slots, after their first use).
  void saveState(WaterActionState& into) const;
  /// Puts back a state this boat saved: its clock, settings, level of
  /// detail, water history, compartments and status (not its profile, not
  /// debugForceScale_Npm), and with HydrodynamicSettings::addedMass the
  /// mass and inertia it held on the body (call it between steps, as the
  /// game restores the body's own state). Allocates only where the boat holds less memory
  /// than the state (a buoyancy model it has not run since). Throws
  /// std::invalid_argument, changing nothing, for an empty state or one
  /// saved by another boat (another body or another Hull object).
  void restoreState(const WaterActionState& state);

  /// Times each stage of this boat's substeps from now on (true), or stops
  /// (false, the default: then a substep pays one test of a null pointer a
  /// stage). Switching on allocates once; the profile starts at zero.
  void setProfiling(bool on);
  [[nodiscard]] bool profiling() const;
  /// The stages' wall times summed over the substeps profiled since
  /// profiling was switched on or the profile cleared; zero when off.
  [[nodiscard]] SubstepProfile profile() const;
  /// Zeroes the profile (profiling stays as it is).
  void clearProfile();

  /// Reports effect events (docs/effects.md) from now on, with `settings`
  /// (EffectSettings::enabled), or stops (the default: then a substep pays
  /// one test of a null pointer). Switching on allocates the buffer once
  /// (EffectSettings::capacity events) and starts afresh: the first substep
  /// only notes whether the hull is wet, so no splash is reported for a
  /// boat that was already in the water. Changing the settings while on
  /// keeps the events held (up to the new capacity). Off frees the buffer.
  /// Throws std::invalid_argument, changing nothing, as
  /// EffectSettings::validate. Not saved by saveState(): restoreState()
  /// leaves the settings and drops the events held from substeps later than
  /// the restored clock (the substeps it undoes).
  void setEffects(const EffectSettings& settings);
  /// The effect settings (EffectSettings{} while off).
  [[nodiscard]] EffectSettings effectSettings() const;
  /// The events of the substeps since the last clearEffects(), in the order
  /// they happened (each substep's by kind: Spray, BowWave, Splash,
  /// Flooding); empty while off. Valid until the next substep, clearEffects()
  /// or setEffects().
  [[nodiscard]] std::span<const EffectEvent> effects() const;
  /// Events dropped since the last clearEffects() because the buffer was full.
  [[nodiscard]] std::uint64_t droppedEffects() const;
  /// Forgets the events held and the count dropped (no allocation).
  void clearEffects();

  /// Length scale of the debug force arrows [N per m of arrow]. 0 (the
  /// default) scales them to the boat: its weight is one hull radius
  /// (Hull::radius_m) long, so a floating boat's buoyancy arrow reaches
  /// about to its hull's edge. A positive value is used as given; a
  /// negative one draws no arrows.
  btScalar debugForceScale_Npm = 0;

 private:
  /// What the boat carries from one substep to the next, and its results
  /// (lib/src): opaque here.
  struct State;
  /// The library's own way to what this class keeps private (a WaterFleet
  /// drives its boats' substeps through it); not for users.
  friend class Internals;
  /// The public constructors' work. `stateStorage`: room for the State
  /// beside the boat (a WaterFleet's boats keep theirs there), or null for
  /// the heap.
  WaterAction(btRigidBody* body, std::shared_ptr<const Hull> hull, std::shared_ptr<const WaterSurface> surface,
              const HydrostaticSettings& settings, void* stateStorage);
  /// computeForces, then applyForces when it found something to apply.
  void forceForNextSubstep(btScalar timeStep_s);
  /// True, the substep skipped with StatusNotInWorld, when `world` is given
  /// and the body is not among its objects: Bullet no longer integrates it,
  /// so velocity changes would only pile up on it.
  [[nodiscard]] bool leftWorld(const btCollisionWorld* world);
  /// The substep's computation (lib/src/substep): reads the body, touches
  /// nothing else outside this boat, so boats can run it concurrently.
  /// Returns false when nothing is to be applied (the status says why).
  [[nodiscard]] bool computeForces(btScalar timeStep_s);
  /// Applies what computeForces found to the body: serial, in a fixed order.
  void applyForces();
  /// Rebuilds submergedPieces() and waterline() from the last substep's state.
  void buildDrawnCut() const;
  /// setLevelOfDetail's steps, once it has validated everything: the boat's
  /// columns become `columns`,
  void useColumns(std::shared_ptr<const ColumnHull> columns);
  /// and its model `model` (on the default columns when it has none).
  void useModel(BuoyancyModel model);
  /// Why restoreState refuses `state` (it was not saved by this boat), or
  /// null when it takes it.
  [[nodiscard]] const char* refusal(const WaterActionState& state) const;

  btRigidBody* body_;
  std::shared_ptr<const Hull> hull_;
  std::shared_ptr<const WaterSurface> surface_;
  HydrostaticSettings settings_;
  HydrodynamicSettings hydro_;
  double time_s_ = 0;
  BuoyancyModel model_ = BuoyancyModel::Triangles;
  std::shared_ptr<const ColumnHull> columns_;
  State* state_ = nullptr;  // owned: on the heap, or in the storage the constructor was given
  // submergedPieces() and waterline(), rebuilt on demand from the state.
  mutable std::vector<SubmergedPiece> drawnPieces_;
  mutable std::vector<WaterlineSegment> drawnWaterline_;
  mutable bool drawnCutBuilt_ = false;
  bool betweenSteps_ = false;    // prime(): Bullet's accumulated force holds no gravity yet
  bool stateInStorage_ = false;  // state_ lies in the storage the constructor was given
};

}  // namespace keel::KEEL_ABI
