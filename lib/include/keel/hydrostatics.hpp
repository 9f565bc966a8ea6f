#pragma once
/// @file hydrostatics.hpp
/// What Kerner's hydrostatics gives for a hull on the water (docs/model.md
/// §1), and a one-shot query of it at any pose: the displacement, centre of
/// buoyancy and waterline, to size a boat's mass or check a design. It runs
/// the same SIMD code as keel::WaterAction's substep.

#include <keel/columns.hpp>
#include <keel/config.hpp>
#include <keel/constants.hpp>
#include <keel/hull.hpp>
#include <keel/water_surface.hpp>

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cstdint>
#include <vector>

namespace keel::KEEL_ABI {

/// A triangle below the water, as drawn: a whole wet hull triangle or a
/// piece the waterline cut from one. Winding (and so the outward normal)
/// is the hull triangle's.
struct SubmergedPiece {
  btVector3 r[3];                    ///< vertices relative to the centre of mass, world axes [m]
  btScalar depth_m[3];               ///< depth below the water surface at each vertex (>= 0) [m]
  std::uint32_t triangle = 0;        ///< index of the hull triangle it was cut from (Hull::triangles())
  btVector3 areaVector_m2{0, 0, 0};  ///< outward normal times area, world axes [m^2]
  btScalar area_m2 = 0;              ///< [m^2]
};

/// A piece of the waterline: where a hull triangle crosses the surface.
struct WaterlineSegment {
  btVector3 a;  ///< start, relative to the centre of mass, world axes [m]
  btVector3 b;  ///< end, relative to the centre of mass, world axes [m]
};

/// What the pressure integral gives for one boat.
struct HydrostaticResult {
  btVector3 force_N{0, 0, 0};    ///< total pressure force, world axes [N]
  btVector3 torque_Nm{0, 0, 0};  ///< pressure torque about the centre of mass, world axes [N m]
  /// Displaced volume [m^3]: below the surface, planar over each piece
  /// (with PressureModel::StaticHead, the vertical force over rho g). Exact
  /// in flat water.
  btScalar submergedVolume_m3 = 0;
  btScalar wettedArea_m2 = 0;  ///< area of the hull under the water [m^2]
  /// Centre of buoyancy relative to the centre of mass, world axes [m]: the
  /// centroid of the displaced volume, exact in flat water. Zero when dry.
  btVector3 centreOfBuoyancy_m{0, 0, 0};
  /// Integral of depth over the displaced volume [m^4], exact in flat water:
  /// rho g times it is the hydrostatic potential energy, so a floating body's
  /// mechanical energy is `1/2 m v^2 + 1/2 w.I w + m g h_G + rho g` this.
  btScalar depthIntegral_m4 = 0;
};

/// Which pressure acts on the wet hull (docs/model.md, "Wave pressure").
enum class PressureModel : std::uint8_t {
  /// Kerner's: `rho g d`, d the depth below the local surface. Exact in
  /// still water and under planes; in waves it ignores that the dynamic
  /// pressure decays with depth, so a deep hull feels the waves as if it were
  /// at the surface.
  StaticHead,
  /// `rho g` times the surface's pressure head (WaterSurface::pressureHeads):
  /// linear wave theory's pressure, whose dynamic part decays as `e^{k z}`
  /// below the surface (the Froude-Krylov force). One more query of the
  /// surface at the wet vertices per substep. The same force as StaticHead,
  /// bit for bit, on a surface that keeps the default (static) heads.
  WavePressure,
};

/// Where and on what water hydrostaticsAtPose measures.
struct PoseQuery {
  btVector3 gravity_mps2{0, -btScalar(kStandardGravity_mps2), 0};  ///< world; up is -gravity
  btScalar waterDensity_kgpm3 = btScalar(kSeaWaterDensity_kgpm3);  ///< rho [kg/m^3]
  double time_s = 0;                                               ///< the water's clock [s]
  PressureModel pressure = PressureModel::StaticHead;              ///< which pressure acts on the hull
};

/// The hydrostatics of a hull at one pose.
struct PoseHydrostatics {
  HydrostaticResult pressure;             ///< force, torque, volume, wetted area, centre of buoyancy (relative)
  btScalar displacement_kg = 0;           ///< rho V [kg]: the mass this pose floats in equilibrium
  btVector3 centreOfBuoyancy_m{0, 0, 0};  ///< world position [m] (the centre of mass when dry)
  /// Area enclosed by the waterline, projected on the horizontal [m^2]:
  /// minus the wet surface's area vector along up (a closed hull's area
  /// vectors sum to zero, and the waterplane closes the wet surface).
  btScalar waterplaneArea_m2 = 0;
  std::vector<WaterlineSegment> waterline;  ///< relative to the centre of mass, world axes [m]
  std::vector<SubmergedPiece> pieces;       ///< the wet surface, relative, world axes
};

/// Kerner's exact hydrostatics of `hull` whose centre of mass has the world
/// transform `centreOfMass`, on `surface` (sampled at every vertex): the
/// same code WaterAction runs each substep, with no body and no
/// hydrodynamics. Allocates; not for a per-substep loop. Throws
/// std::invalid_argument for a non-finite pose, no gravity, a non-positive
/// density, or a surface that throws or has no finite height under the
/// hull.
[[nodiscard]] PoseHydrostatics hydrostaticsAtPose(const Hull& hull, const btTransform& centreOfMass,
                                                  const WaterSurface& surface, const PoseQuery& query = {});

/// The column model's hydrostatics (docs/columns.md) of `hull`, cut into
/// `columns`, at the same pose: the force, torque, displaced volume, centre
/// of buoyancy and displacement the column substep gives there. The wetted
/// area, waterplane area, waterline and pieces are left empty (columns have
/// no surface). Errors as the triangle query.
[[nodiscard]] PoseHydrostatics hydrostaticsAtPose(const Hull& hull, const ColumnHull& columns,
                                                  const btTransform& centreOfMass, const WaterSurface& surface,
                                                  const PoseQuery& query = {});

}  // namespace keel::KEEL_ABI
