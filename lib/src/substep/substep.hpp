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

#include <keel/columns.hpp>
#include <keel/hull.hpp>
#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/water_action.hpp>
#include <keel/water_sampling.hpp>
#include <keel/water_surface.hpp>

#include "flood/floodwater.hpp"
#include "kernels/air.hpp"
#include "kernels/buffers.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/flow.hpp"
#include "kernels/heights.hpp"
#include "kernels/hull_soa.hpp"
#include "kernels/pressure.hpp"

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

class btRigidBody;

namespace keel::KEEL_ABI::detail {

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
  /// A copy of what the substep reads of `body`.
  static BodySnapshot of(const btRigidBody& body);
};

/// What a boat is: its hull, its water and its settings (read only).
struct BoatModel {
  const Hull& hull;
  const WaterSurface& surface;
  const HydrostaticSettings& statics;
  const HydrodynamicSettings& dynamics;
  const ColumnHull* columns = nullptr;  ///< the column model's columns (runColumnSubstep), else null
};

/// What a boat keeps from one substep to the next, and the last substep's
/// results for telemetry and drawing. Sized from the hull (allocate, or
/// fitTriangles at the first substep on triangles) and the columns
/// (allocateColumns).
struct BoatState {
  // The water's frame, remade only when gravity changes.
  WaterFrame frame;
  btVector3 frameGravity_mps2{0, 0, 0};  ///< the gravity `frame` was made from, world
  bool frameValid = false;
  // Per vertex (hull order, padded for the kernels) [m].
  std::vector<btScalar> waterHeight_m;          ///< water height under each vertex, this substep
  std::vector<btScalar> previousWaterHeight_m;  ///< the same, last substep (for waking the body)
  std::vector<btScalar> h_m;                    ///< height of each vertex above the water (< 0: wet)
  bool havePreviousWater = false;
  // Per triangle (kernel order), for slamming [m^3/s].
  std::vector<btScalar> sweptRate_m3ps, previousSweptRate_m3ps;
  bool slammingWarm = false;
  WaterPatch patch;           ///< Sampling::Patch's grid (and Auto's)
  bool patchSampled = false;  ///< the last substep sampled the patch
  // The last substep.
  btVector3 centre_m{0, 0, 0};  ///< centre of mass, world
  btMatrix3x3 basis;            ///< centre-of-mass rotation: body axes to world axes
  bool anyWet = false;          ///< some of the hull under the water
  /// The least height of a vertex above the water [m] (< 0: a vertex is wet); NaN when no water was found.
  btScalar lowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();
  std::size_t crossingCount = 0;  ///< triangles the waterline crosses
  HydrostaticResult hydrostatics;
  HydrodynamicForces hydrodynamics;
  ForceTorque total;                        ///< world axes, about the centre of mass
  btVector3 pendingLinear_mps{0, 0, 0};     ///< velocity change for the next substep, world
  btVector3 pendingAngular_radps{0, 0, 0};  ///< angular velocity change, world
  bool dampingCompensated = true;           ///< the changes were divided by Bullet's damping factor
  /// Bullet's damping factors (1 - damping)^dt of the last substep and what
  /// they were computed from: the same inputs give them again without two
  /// calls to pow (a tenth of a small hull's substep). NaN: none yet.
  btScalar dampingOf[3] = {std::numeric_limits<btScalar>::quiet_NaN(), 0, 0};  ///< dt [s], linear, angular damping
  btScalar dampingFactors[2] = {1, 1};                                         ///< linear, angular
  bool wake = false;               ///< the water under the boat moved: wake the body
  std::uint32_t flags = StatusOk;  ///< the last substep's StatusFlag bits, before it is applied
  WaterStatus status;
  FloodState flood;  ///< the compartments, their water and its weight (none: no flooding)
  /// Per column (the column model): each column's immersed fraction, last substep.
  std::vector<btScalar> columnFraction;
  /// Sizes the per-vertex and per-triangle arrays for `hull` and forgets
  /// the slamming history; configures the patch for Sampling::Patch.
  void allocate(const Hull& hull, const HydrostaticSettings& statics);
  /// Sizes the per-vertex and per-triangle arrays for `hull` when they are
  /// smaller: a WaterAction's first substep on triangles. (A boat made and
  /// put on columns before its first substep never holds them: a big fleet
  /// of far boats stays small in memory, its bodies close together.)
  void fitTriangles(const Hull& hull);
  /// Makes room for the column model's `columns` too (the per-vertex height
  /// arrays hold the columns' heights when it runs), and forgets the water
  /// of the last substep, which the other model sampled elsewhere.
  void allocateColumns(const ColumnHull& columns);
  /// Configures the patch for Sampling::Patch (throws as
  /// WaterPatch::configure) and Auto (left empty when it would be too
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

/// The working state of one substep: what one stage hands the next.
struct Substep {
  Substep(BoatBuffers& b, btScalar dt, double t) : buffers(b), dt_s(dt), t_s(t) {}
  BoatBuffers& buffers;  ///< this thread's working memory
  btScalar dt_s;         ///< substep length [s]
  double t_s;            ///< water clock [s]
  WaterAxes axes;
  bool perVertexVelocities = false;      ///< the flow wants the water velocity at the wet vertices
  bool vertexVelocitiesSampled = false;  ///< ... and it came with the heights (direct sampling)
  bool boatVelocity = false;             ///< some term wants one water velocity under the boat
  bool vertexCoordinates = false;        ///< buffers.u_m and v_m hold the points' world coordinates (sampleWater)
  bool heads = false;                    ///< the wet vertices have pressure heads (WavePressure)
  /// The last substep's least vertex height above the water [m]
  /// (BoatState::lowestAbove_m before this substep; NaN on the first).
  btScalar previousLowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();
  std::size_t samplesAsked = 0;             ///< water heights asked of the surface
  std::size_t nonFiniteHeights = 0;         ///< of them, NaN or infinite (replaced)
  Extent waterRange{0, 0};                  ///< range of the water heights under the hull [m]
  btScalar meanWaterHeight_m = 0;           ///< the column model's mean water height at the columns [m]
  btVector3 relativeVelocity_mps{0, 0, 0};  ///< centre of mass relative to the mean water under it, world
  bool perPiece = false;           ///< the flow was summed piece by piece (some terms want it and the hull is wet)
  FlowSums flow;                   ///< the flow pass's sums, body axes
  bool slam = false;               ///< slamming summed this substep (its history is warm)
  SlammingParameters slamming;     ///< slamming's per-boat factors
  std::uint32_t flags = StatusOk;  ///< StatusFlag bits so far
};

/// Runs one substep of `dt_s` [s] at water time `t_s` [s]: every stage in
/// order. Returns true when state.pendingLinear_mps and
/// state.pendingAngular_radps are to be added to the body (the status is
/// then finished by finishApplied); false when nothing is to be applied
/// (the status, already finished, says why).
[[nodiscard]] bool runSubstep(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s,
                              double t_s);

/// The last substep's cut for drawing and for queries: the wet triangles
/// and the cut pieces (relative positions, world axes), and the waterline
/// segments, rebuilt from the heights the substep kept. Uses this thread's
/// buffers.
void drawnCut(const Hull& hull, const BoatState& state, std::vector<SubmergedPiece>& pieces,
              std::vector<WaterlineSegment>& waterline);

/// Whether some term wants the flow piece by piece (skin friction, pressure
/// drag, slamming), and whether any hydrodynamic term is on.
[[nodiscard]] inline bool perPieceTerms(const HydrodynamicSettings& h) {
  return h.viscous || h.pressureDrag || h.slamming;
}
[[nodiscard]] inline bool anyTerm(const HydrodynamicSettings& h) {
  return perPieceTerms(h) || h.airResistance || h.damping;
}

/// Whether every component of `v` is finite.
[[nodiscard]] inline bool isFinite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

/// A force and torque summed in body axes, times `scale`, in world axes.
[[nodiscard]] ForceTorque bodyToWorld(const btMatrix3x3& basis, const BodyForce& f, double scale = 1);

/// A substep with no water force: the results are cleared (the last good
/// ones would lie about this substep) and the status, with `flags`, says
/// why. Returns false, for runSubstep.
bool skipSubstep(BoatState& state, std::uint32_t flags);

/// Records the last substep's flags and counts in the status.
void finishStatus(WaterStatus& status, std::uint32_t flags, bool skipped);

}  // namespace keel::KEEL_ABI::detail
