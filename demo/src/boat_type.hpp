#pragma once
/// @file boat_type.hpp
/// The boat kinds of the harbour: what each is made of (mesh, mass, centre of
/// mass, propeller, rudder) and the shared, immutable pieces built once per
/// kind (keel::Hull, Bullet collision shape).

#include <keel/attitude.hpp>
#include <keel/hull.hpp>
#include <keel/propulsion.hpp>
#include "boat_mesh.hpp"

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace demo {

/// Hand-set facts of a boat kind. Positions are in the mesh file's frame
/// (y up, bow +x, origin on the design waterline amidships) [m].
struct BoatSpec {
  std::string kind;                   ///< "speedboat", ...
  std::string file;                   ///< OBJ file in the media directory
  keel::PropellerGeometry propeller;  ///< a B-series screw (docs/propulsion.md)
  double maxRevolutions_ps;           ///< the screw's revolutions at full throttle [1/s]
  btVector3 propeller_m;              ///< the screw's hub
  btVector3 rudder_m;                 ///< centre of the rudder blade
  double rudderArea_m2;               ///< one side of the blade
  double maxRudder_rad;               ///< full helm
  /// Bullet body damping (fraction of velocity lost per second), on top of
  /// Keel's hydrodynamic drag; 0 for every shipped boat, whose drag is all
  /// Keel's (skin friction, pressure drag, slamming, air).
  double linearDamping, angularDamping;
};

/// A boat kind ready to instantiate: loaded, validated and measured once,
/// shared by every boat of that kind.
struct BoatType {
  BoatSpec spec;
  BoatMesh mesh;                                               ///< parts to render (file frame)
  std::shared_ptr<const keel::Hull> hull;                      ///< centre-of-mass frame
  std::shared_ptr<btCollisionShape> shape;                     ///< centre-of-mass frame
  std::vector<std::unique_ptr<btCollisionShape>> childShapes;  ///< owned children of a compound shape
  btVector3 centreOfMass_m{0, 0, 0};                           ///< in the file frame: where the body's origin sits
  /// The file's frame in the body's (centre of mass, principal axes):
  /// `p_body = fileToBody * p_file` (keel::MassProperties::hullToBody).
  btTransform fileToBody = btTransform::getIdentity();
  /// The file's bow (+x) and deck (+y) in body axes, turned by the principal
  /// axes: for the HUD's attitude and the bulkheads.
  keel::HullAxes axes;
  double mass_kg = 0;  ///< displacement at the design waterline
  /// Principal moments of inertia, along the body's axes [kg m^2].
  btVector3 inertia_kgm2{0, 0, 0};
  double ballastDensity_kgpm3 = 0;                       ///< what the ballast came to (keel::MassModel)
  double length_m = 0, beam_m = 0;                       ///< overall, from the hull's bounds
  keel::PropulsionLayout layout;                         ///< where the propeller and the rudder sit, body frame
  keel::Propeller propeller{keel::PropellerGeometry{}};  ///< the spec's screw
  keel::Rudder rudder{keel::RudderGeometry{}};           ///< the spec's blade
};

/// The specs of every kind the demo knows (demo::knownKinds()).
const std::vector<BoatSpec>& boatSpecs();

/// Loads every kind from `mediaDir`. The mass is the displacement at the
/// design waterline (the file's y = 0, keel::massForDraft_kg), so each boat
/// floats near the waterline it was drawn with. The centre of mass and the
/// inertia come from what the boat is made of (keel::MassModel): its skin,
/// its engine and ballast in the bottom of the hull, whose density makes up
/// the rest of the displacement. Throws std::runtime_error (or
/// keel::HullError) naming the file on failure.
std::map<std::string, std::shared_ptr<const BoatType>> loadBoatTypes(const std::string& mediaDir, double maxHullEdge_m);

}  // namespace demo
