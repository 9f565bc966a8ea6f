#include "boat_type.hpp"

#include <keel/hydrostatics.hpp>
#include <keel/waves.hpp>

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <LinearMath/btMatrix3x3.h>

#include <algorithm>
#include <stdexcept>

namespace demo {
namespace {

constexpr double kWaterDensity_kgpm3 = 1025;
constexpr double kGravity_mps2 = 9.81;
/// Collision margin [m]: small, so boats touch where they look as if they do.
constexpr btScalar kMargin_m = 0.02f;

/// Displaced volume and its centroid (the centre of buoyancy) of `hull` with
/// the water flat at the hull frame's y = 0 (keel::hydrostaticsAtPose).
keel::HydrostaticResult designWaterline(const keel::Hull& hull) {
  keel::PoseQuery query;
  query.waterDensity_kgpm3 = btScalar(kWaterDensity_kgpm3);
  query.gravity_mps2 = btVector3(0, -btScalar(kGravity_mps2), 0);
  return keel::hydrostaticsAtPose(hull, btTransform::getIdentity(), keel::FlatSurface(), query).pressure;
}

/// One convex hull per closed part of the hull (not the convex hull of the
/// whole boat: a catamaran's tunnel stays open), plus the catamaran's bridge
/// deck as a box so that a small boat can pass under it but not through it.
void buildShape(BoatType& type) {
  const btVector3 com = type.centreOfMass_m;
  auto convex = [&](const std::vector<btVector3>& points) {
    auto shape = std::make_unique<btConvexHullShape>();
    for (const btVector3& p : points) shape->addPoint(p - com, false);
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
      compound->addChildShape(btTransform(btQuaternion::getIdentity(), (lo + hi) * 0.5f - com), deck.get());
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
  const keel::HydrostaticResult design = designWaterline(designHull);
  if (!(design.submergedVolume_m3 > 0))
    throw std::runtime_error(spec.file + ": the hull does not reach below its design waterline (y = 0)");
  type->mass_kg = kWaterDensity_kgpm3 * double(design.submergedVolume_m3);
  type->centreOfMass_m = btVector3(design.centreOfBuoyancy_m.x(), btScalar(spec.centreOfMassHeight_m),
                                   design.centreOfBuoyancy_m.z());
  // The same hull in the body's centre-of-mass frame, split finer so the
  // waterline follows the water patch's cells.
  std::vector<btVector3> vertices(designHull.vertices().begin(), designHull.vertices().end());
  for (btVector3& v : vertices) v -= type->centreOfMass_m;
  keel::HullOptions options;
  options.maxEdgeLength_m = btScalar(maxHullEdge_m);
  type->hull = std::make_shared<keel::Hull>(vertices, designHull.triangles(), options);

  const btVector3 size = designHull.boundsMax() - designHull.boundsMin();
  type->length_m = size.x();
  type->beam_m = size.z();
  // A solid box of the hull's bounds: close enough for a game, and it gives
  // the long boats the slow pitch they should have.
  const double m12 = type->mass_kg / 12;
  const double x = size.x(), y = size.y(), z = size.z();
  type->inertia_kgm2 = btVector3(btScalar(m12 * (y * y + z * z)), btScalar(m12 * (x * x + z * z)),
                                 btScalar(m12 * (x * x + y * y)));
  type->drive = {.forward = btVector3(1, 0, 0),
                 .up = btVector3(0, 1, 0),
                 .propeller_m = spec.propeller_m - type->centreOfMass_m,
                 .maxThrust_N = spec.maxThrust_N,
                 .rudder_m = spec.rudder_m - type->centreOfMass_m,
                 .rudderArea_m2 = spec.rudderArea_m2,
                 .maxRudder_rad = spec.maxRudder_rad,
                 .waterDensity_kgpm3 = kWaterDensity_kgpm3};
  buildShape(*type);
  return type;
}

}  // namespace

const std::vector<BoatSpec>& boatSpecs() {
  // Thrust sets each boat's top speed against Keel's hydrodynamic drag.
  static const std::vector<BoatSpec> specs = {
      {"speedboat", "speedboat.obj", 0.15, 9000, {-3.6f, -0.45f, 0}, {-3.55f, -0.35f, 0}, 0.12, 0.6, 0, 0},
      {"rowboat", "rowboat.obj", 0.05, 500, {-2.15f, -0.3f, 0}, {-2.05f, -0.2f, 0}, 0.05, 0.6, 0, 0},
      {"tug", "tug.obj", -0.4, 60000, {-6.6f, -1.3f, 0}, {-6.9f, -1.1f, 0}, 2.0, 0.6, 0, 0},
      {"barge", "barge.obj", 0.3, 60000, {-11.0f, -0.8f, 0}, {-11.5f, -0.5f, 0}, 1.5, 0.5, 0, 0},
      {"catamaran", "catamaran.obj", 0.8, 20000, {-5.6f, -0.5f, 0}, {-5.8f, -0.4f, 0}, 0.4, 0.6, 0, 0},
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
