#include "boat_type.hpp"

#include <keel/constants.hpp>
#include <keel/mass_properties.hpp>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <LinearMath/btMatrix3x3.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace demo {
namespace {

/// Collision margin [m]: small, so boats touch where they look as if they do.
constexpr btScalar kMargin_m = 0.02f;

/// What a boat is made of besides its ballast (keel::MassModel), in the
/// mesh file's frame.
struct Build {
  double shellThickness_m;    ///< the hull's skin, a thin shell over the whole hull [m]
  double shellDensity_kgpm3;  ///< its material
  double engine_kg;           ///< engine (or crew): a point mass
  btVector3 engine_m;         ///< where it sits [m]
};

/// Skins: GRP 8 mm (1800 kg/m^3), wood 15 mm (600), steel 8-10 mm (7850).
const Build& buildOf(const std::string& kind) {
  static const std::map<std::string, Build> builds = {
      {"speedboat", {0.008, 1800, 350, {-2.6f, -0.1f, 0}}}, {"rowboat", {0.015, 600, 80, {0, 0.1f, 0}}},
      {"tug", {0.008, 7850, 8000, {-3, -0.6f, 0}}},         {"barge", {0.010, 7850, 6000, {-9, -0.3f, 0}}},
      {"catamaran", {0.008, 1800, 500, {-4.5f, 0.6f, 0}}},
  };
  return builds.at(kind);
}

/// The boat's mass (keel::MassModel, docs/mass.md): its skin, its engine,
/// and ballast filling the hull below half the design draft, whose density
/// is whatever makes the whole weigh `displacement_kg`. Returns the
/// properties and the ballast's density.
std::pair<keel::MassProperties, double> massOf(const BoatSpec& spec, const keel::Hull& hull, double displacement_kg) {
  const double ballastTop_m = 0.5 * double(hull.boundsMin().y());  // halfway from the keel up to the waterline
  const Build& build = buildOf(spec.kind);
  keel::MassModel model;
  model.shell(hull, build.shellThickness_m, build.shellDensity_kgpm3)
      .pointMass(build.engine_kg, build.engine_m)
      .ballastBelow(hull, btVector3(0, 1, 0), ballastTop_m, 0, keel::RegionDensity::Adds);
  const std::size_t ballast = 2;
  const double rest_kg = displacement_kg - model.massMoments().zeroth;
  if (!(rest_kg > 0))
    throw std::runtime_error(spec.file + ": its shell and engine weigh more than it displaces at its design waterline");
  const double density_kgpm3 = rest_kg / model.parts()[ballast].geometry.zeroth;
  model.setDensity(ballast, density_kgpm3);
  return {model.properties(), density_kgpm3};
}

/// One convex hull per closed part of the hull (not the convex hull of the
/// whole boat: a catamaran's tunnel stays open), plus the catamaran's bridge
/// deck as a box so that a small boat can pass under it but not through it.
void buildShape(BoatType& type) {
  const btTransform& toBody = type.fileToBody;
  auto convex = [&](const std::vector<btVector3>& points) {
    auto shape = std::make_unique<btConvexHullShape>();
    for (const btVector3& p : points) shape->addPoint(toBody * p, false);
    shape->recalcLocalAabb();
    shape->optimizeConvexHull();  // keep only the points on the hull: faster support queries
    shape->setMargin(kMargin_m);
    return shape;
  };
  const auto& parts = type.mesh.hullPartPoints;
  const bool hasBridgeDeck = std::any_of(type.mesh.parts.begin(), type.mesh.parts.end(),
                                         [](const MeshPart& p) { return p.object == "bridgedeck"; });
  if (parts.size() == 1 && !hasBridgeDeck) {
    type.shape = convex(parts.front());
    return;
  }
  auto compound = std::make_shared<btCompoundShape>();
  btTransform identity = btTransform::getIdentity();
  for (const auto& points : parts) {
    type.childShapes.push_back(convex(points));
    compound->addChildShape(identity, type.childShapes.back().get());
  }
  for (const MeshPart& part : type.mesh.parts)
    if (part.object == "bridgedeck") {
      btVector3 lo(1e9f, 1e9f, 1e9f), hi(-1e9f, -1e9f, -1e9f);
      for (std::size_t i = 0; i + 2 < part.positions.size(); i += 3) {
        const btVector3 p(part.positions[i], part.positions[i + 1], part.positions[i + 2]);
        lo.setMin(p);
        hi.setMax(p);
      }
      auto deck = std::make_unique<btBoxShape>((hi - lo) * 0.5f);
      deck->setMargin(kMargin_m);
      // A box along the file's axes: turned with them into the body.
      compound->addChildShape(toBody * btTransform(btQuaternion::getIdentity(), (lo + hi) * 0.5f), deck.get());
      type.childShapes.push_back(std::move(deck));
    }
  type.shape = compound;
}

std::shared_ptr<const BoatType> loadType(const BoatSpec& spec, const std::string& mediaDir, double maxHullEdge_m) {
  auto type = std::make_shared<BoatType>();
  type->spec = spec;
  type->mesh = loadBoatMesh(mediaDir + "/" + spec.file);
  // The brief's path: mesh file -> btTriangleMesh -> keel::Hull (validated).
  btTriangleMesh fileFrame;
  const auto& tri = type->mesh.hullTriangles;
  for (std::size_t i = 0; i + 2 < tri.size(); i += 3) fileFrame.addTriangle(tri[i], tri[i + 1], tri[i + 2]);
  const keel::Hull designHull(fileFrame);
  const double designDraft_m = -double(designHull.boundsMin().y());
  if (!(designDraft_m > 0))
    throw std::runtime_error(spec.file + ": the hull does not reach below its design waterline (y = 0)");
  type->mass_kg = keel::massForDraft_kg(designHull, designDraft_m, keel::kSeaWaterDensity_kgpm3);
  const auto [mass, ballastDensity_kgpm3] = massOf(spec, designHull, type->mass_kg);
  type->centreOfMass_m = mass.centreOfMass_m;
  type->ballastDensity_kgpm3 = ballastDensity_kgpm3;
  // The body on the principal axes, as Bullet wants (docs/mass.md): every
  // boat is symmetric port and starboard, so they turn from the file's only
  // in pitch, by a degree or two. The file's bow, deck, propeller and rudder
  // are mapped into it.
  type->inertia_kgm2 = mass.principalInertia_kgm2;
  type->fileToBody = mass.hullToBody();
  type->axes = mass.axesInBody({.forward = btVector3(1, 0, 0), .up = btVector3(0, 1, 0)});
  // The same hull in the body frame, split finer so the waterline follows
  // the water patch's cells.
  keel::HullOptions options;
  options.maxEdgeLength_m = btScalar(maxHullEdge_m);
  type->hull = keel::toBodyFrame(designHull, mass.bodyToHull(), options);

  const btVector3 size = designHull.boundsMax() - designHull.boundsMin();
  type->length_m = size.x();
  type->beam_m = size.z();
  // The blades are all of aspect ratio 1.5, their span from their area.
  const double rudderAspect = 1.5;
  type->layout = {.forward = type->axes.forward,
                  .up = type->axes.up,
                  .propeller_m = mass.pointInBody(spec.propeller_m),
                  .rudder_m = mass.pointInBody(spec.rudder_m),
                  .rudderSpan_m = std::sqrt(rudderAspect * spec.rudderArea_m2)};
  type->propeller = keel::Propeller(spec.propeller);
  type->rudder = keel::Rudder({.area_m2 = spec.rudderArea_m2, .aspectRatio = rudderAspect});
  buildShape(*type);
  return type;
}

}  // namespace

const std::vector<BoatSpec>& boatSpecs() {
  // B-series screws sized to each boat (docs/propulsion.md, "The harbour's
  // boats"): the revolutions at full throttle set the top speed against
  // Keel's hydrodynamic drag.
  static const std::vector<BoatSpec> specs = {
      {"speedboat",
       "speedboat.obj",
       {0.36, 1.2, 0.65, 3},
       40,
       {-3.6f, -0.45f, 0},
       {-3.55f, -0.35f, 0},
       0.12,
       0.6,
       0,
       0},
      {"rowboat", "rowboat.obj", {0.2, 1.0, 0.5, 3}, 25, {-2.15f, -0.3f, 0}, {-2.05f, -0.2f, 0}, 0.05, 0.6, 0, 0},
      {"tug", "tug.obj", {1.6, 1.0, 0.7, 4}, 4.6, {-6.6f, -1.3f, 0}, {-6.9f, -1.1f, 0}, 2.0, 0.6, 0, 0},
      {"barge", "barge.obj", {1.2, 1.0, 0.55, 4}, 8, {-11.0f, -0.8f, 0}, {-11.5f, -0.5f, 0}, 1.5, 0.5, 0, 0},
      {"catamaran", "catamaran.obj", {0.5, 1.1, 0.6, 3}, 25, {-5.6f, -0.5f, 0}, {-5.8f, -0.4f, 0}, 0.4, 0.6, 0, 0},
  };
  return specs;
}

std::map<std::string, std::shared_ptr<const BoatType>> loadBoatTypes(const std::string& mediaDir,
                                                                     double maxHullEdge_m) {
  std::map<std::string, std::shared_ptr<const BoatType>> types;
  for (const BoatSpec& spec : boatSpecs()) types[spec.kind] = loadType(spec, mediaDir, maxHullEdge_m);
  return types;
}

}  // namespace demo
