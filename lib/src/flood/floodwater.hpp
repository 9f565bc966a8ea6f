#pragma once
// Flooding's pieces (docs/flooding.md): the water in a compartment as the
// part of its closed mesh below a horizontal plane, found with the hull's
// own cut and pressure kernels; the orifice law through an opening; and what
// a boat keeps of its compartments from one substep to the next.

#include <keel/flooding.hpp>
#include <keel/hull.hpp>
#include <keel/hydrodynamics.hpp>

#include <LinearMath/btVector3.h>

#include "kernels/hull_soa.hpp"
#include "kernels/volume.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// The part of a closed mesh below a plane `p . up = level` (body frame).
struct VolumeBelow {
  double volume_m3 = 0;                  ///< [m^3]
  btVector3 centroid_m{0, 0, 0};         ///< body frame [m] (zero when the volume is)
  double waterplane_m2 = 0;              ///< area of the section by the plane, dV/dlevel [m^2]
  btVector3 sectionCentroid_m{0, 0, 0};  ///< the section's centroid, body frame [m]
};

/// What a compartment keeps between substeps, and its scratch memory.
struct CompartmentState {
  double water_m3 = 0;      ///< floodwater [m^3]
  double start_m3 = 0;      ///< water it started with [m^3]
  double capacity_m3 = 0;   ///< the water it can hold, permeability times its volume [m^3]
  double permeability = 1;  ///< the fraction of its volume water fills
  /// The free surface as a plane `p . up = level_m` (body frame, whose
  /// origin is the centre of mass: its height above it along up [m]) of the
  /// last solve: the next solve starts from the plane through its section's
  /// centroid (below.sectionCentroid_m) at the new attitude.
  btScalar level_m = 0;
  bool solved = false;               ///< level_m and below are from a solve
  btScalar bottomAboveCentre_m = 0;  ///< its lowest point above the centre of mass along up [m]
  btScalar topAboveCentre_m = 0;     ///< its highest point above the centre of mass along up [m]
  VolumeBelow below;                 ///< the water's volume and centroid of the last solve
  double inflow_m3 = 0;              ///< net water in during the last substep [m^3]
  // The flow through the openings (flowThroughOpenings).
  double surface_m2 = 1;  ///< the free surface's area this substep [m^2]
  double head_m = 0;      ///< the free surface's height along up above the centre of mass, as water moves [m]
  // The level's search (solveLevels).
  bool searching = false;                                       ///< still searching this solve
  double trial_m = 0;                                           ///< the level tried [m]
  double trialPoint_m[3] = {0, 0, 0};                           ///< the point on its plane nearest the body origin [m]
  std::size_t twoWetRun[2] = {0, 0}, oneWetRun[2] = {0, 0};     ///< its crossing triangles in the cut's two lists
  VolumeBelow trialBelow;                                       ///< the water below it
  double lo_m = 0, loVolume_m3 = 0, hi_m = 0, hiVolume_m3 = 0;  ///< the bracket [m, m^3]
};

/// Every compartment's mesh in one SoA for the kernels (meshes.cpp):
/// compartment i owns vertices [firstVertex[i], firstVertex[i + 1]) and
/// triangle entries [firstTriangle[i], firstTriangle[i + 1]), the latter
/// starting at a multiple of kPad.
struct CompartmentMeshes {
  HullSoA soa;
  std::vector<std::size_t> firstVertex, firstTriangle;  ///< per compartment, and the end
  std::vector<std::uint32_t> compartmentOf;             ///< per triangle entry: its compartment
  explicit CompartmentMeshes(const std::vector<Compartment>& compartments);
};

/// A boat's compartments and their state (BoatState::flood).
struct FloodState {
  std::vector<Compartment> compartments;
  std::vector<CompartmentState> state;
  std::shared_ptr<const CompartmentMeshes> meshes;  ///< their meshes as one, for the kernels
                                                    ///< per compartment: solveLevels' scratch
  std::vector<btScalar> water, height;  ///< per vertex of meshes: its compartment's plane, its height above it [m]
  std::vector<btScalar> seaU_m, seaV_m, seaHeight_m;  ///< the sea at the openings to the sea, this substep
  /// The water each opening to the sea let in this substep, over its
  /// length [m^3/s] (< 0: out); 0 when none moved (read by the Effects stage).
  std::vector<btScalar> seaFlow_m3ps;
  double takenFromSea_m3 = 0;  ///< inflow from the sea less outflow and pumping [m^3]
  /// Whether the substep moves water: false while WaterAction::prime
  /// computes a force with no time passing.
  bool timePasses = true;
  ForceTorque force;  ///< the floodwater's weight, world axes, about the centre of mass
  FloodingStatus status;
  [[nodiscard]] bool empty() const { return compartments.empty(); }
  /// Replaces the compartments (validated by the caller) and sizes the state.
  void set(std::vector<Compartment> compartments);
};

/// Solves each compartment's level at which it holds its water at the
/// current attitude (`up_body`) into its state's level_m and below (with the
/// section's area), starting from its last solve: Newton's method on the
/// volume below a plane, all compartments' volumes found by one pass of the
/// hull's cut kernels over f.meshes (exact for polyhedra). Reads each
/// state's bottomAboveCentre_m and topAboveCentre_m (the mesh's extent along
/// up).
void solveLevels(FloodState& f, const btScalar up_body[3]);

/// Volume flow [m^3/s] through an opening from side a to side b (negative:
/// from b to a), whose bottom and top are at heights `bottom_m` < `top_m`
/// along up, between free surfaces at `levelA_m` and `levelB_m` (the same
/// heights): the orifice law `Cd w sqrt(2 g) int sqrt(head) dz` over the
/// opening's height, the head being the level difference where the opening
/// is under both surfaces and the height below the higher one where it is
/// under only that one (Torricelli).
[[nodiscard]] double orificeFlow_m3ps(double dischargeCoefficient, double area_m2, double bottom_m, double top_m,
                                      double levelA_m, double levelB_m, double gravity_mps2);

}  // namespace keel::KEEL_ABI::detail
