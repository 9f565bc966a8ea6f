#pragma once
/// @file flooding.hpp
/// Compartments inside a hull, the openings that let water in and out of
/// them, and what the floodwater does to the boat. A WaterAction given
/// compartments (WaterAction::setCompartments) moves water through each
/// opening by the orifice law every substep and adds the floodwater's weight
/// at its centroid: a boat lists, settles or sinks by the rules of hydrostatics.
/// Model, formulas and sources: docs/flooding.md.

#include <keel/config.hpp>
#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace keel::KEEL_ABI {

/// Opening::to for an opening to the sea.
inline constexpr int kSea = -1;

/// An opening of a compartment: a hole in the hull to the sea, or a door or
/// pipe to another compartment. Modelled as a rectangle of `area_m2` whose
/// vertical extent is `height_m`, centred at `centre_m`.
struct Opening {
  btVector3 centre_m{0, 0, 0};                    ///< centre of the opening, body (centre-of-mass) frame [m]
  btScalar area_m2 = 0;                           ///< > 0 [m^2]
  btScalar dischargeCoefficient = btScalar(0.6);  ///< Cd in (0, 1]: 0.6 for a sharp-edged hole
  /// Vertical extent [m] (along up, whatever the boat's attitude); 0: a
  /// square hole, sqrt(area_m2).
  btScalar height_m = 0;
  /// kSea, or the index of the compartment on the other side. A door or
  /// pipe is listed once, in either compartment it joins: water flows
  /// through it both ways (listed in both, it is refused).
  int to = kSea;
};

/// A closed space inside the hull that water can fill.
struct Compartment {
  std::string name;                   ///< for messages and the HUD
  std::shared_ptr<const Hull> space;  ///< its boundary, a closed mesh in the body frame
  std::vector<Opening> openings;      ///< where water gets in and out
  btScalar pumpRate_m3ps = 0;         ///< pumped overboard while there is water [m^3/s], >= 0
  /// Water in it at the start [m^3], in [0, its capacity]: permeability
  /// times space->volume_m3(), in btScalar (CompartmentStatus::capacity_m3).
  btScalar water_m3 = 0;
  /// The fraction of its volume water can fill, in (0, 1]: what its contents
  /// (cargo, machinery, furniture) leave free. Ship stability rules use 0.95
  /// for accommodation, 0.85 for machinery, 0.6 for stores and cargo.
  btScalar permeability = 1;
};

/// One compartment after the last substep.
struct CompartmentStatus {
  /// Floodwater [m^3] (double: the water balance holds to round-off), in
  /// [0, capacity_m3]: Compartment::water_m3 accepts it back.
  double water_m3 = 0;
  btScalar capacity_m3 = 0;  ///< the water it can hold: permeability times its volume [m^3]
  /// Net flow in during the last substep [m^3/s] (openings and pump).
  btScalar inflow_m3ps = 0;
  /// Height of the free surface along up above the centre of mass [m];
  /// NaN when the compartment is dry.
  btScalar levelAboveCentre_m = std::numeric_limits<btScalar>::quiet_NaN();
  /// The floodwater's centroid relative to the centre of mass, world axes
  /// [m] (zero when dry).
  btVector3 waterCentroid_m{0, 0, 0};
};

/// The flooding of a boat after the last substep.
struct FloodingStatus {
  std::vector<CompartmentStatus> compartments;  ///< in WaterAction::compartments() order
  /// Net water taken from the sea since the compartments were set [m^3]:
  /// inflow through holes minus outflow and pumping. Equals the sum of the
  /// compartments' water less their starting water, to round-off.
  double takenFromSea_m3 = 0;
  btScalar floodwaterMass_kg = 0;  ///< water in the boat [kg]
  /// What the boat can still take on before it sinks [kg]: the mass of the
  /// water its whole hull displaces, less the boat's mass and the
  /// floodwater. Negative: it sinks.
  btScalar reserveBuoyancy_kg = 0;
};

}  // namespace keel::KEEL_ABI
