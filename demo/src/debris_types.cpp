/// @file debris_types.cpp
/// The debris kinds: their meshes (a few dozen triangles each), what they
/// weigh and how they collide.

#include "debris.hpp"

#include <keel/constants.hpp>
#include <keel/mass_properties.hpp>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>

namespace demo {
namespace {

/// Collision margin [m]: a centimetre, so pieces touch where they look as if they do.
constexpr btScalar kMargin_m = 0.01f;

/// A closed mesh in its design frame (y up), one material per triangle.
struct Mesh {
  std::vector<btVector3> vertices;
  std::vector<keel::Hull::Triangle> triangles;
  std::vector<std::string> materials;
};

/// Planar convex rings joined in order by quads, each end closed by a fan:
/// a box, a cylinder, a sphere's latitudes, a boat's sections. `sideMaterial`
/// names the quad from point k of a ring to point k + 1, `capMaterial` the ends.
Mesh loft(const std::vector<std::vector<btVector3>>& rings, const std::function<std::string(std::size_t)>& sideMaterial,
          const std::string& capMaterial) {
  Mesh m;
  const std::size_t n = rings.front().size();
  for (const auto& ring : rings) m.vertices.insert(m.vertices.end(), ring.begin(), ring.end());
  const auto id = [n](std::size_t ring, std::size_t k) { return std::uint32_t(ring * n + k % n); };
  for (std::size_t r = 0; r + 1 < rings.size(); ++r)
    for (std::size_t k = 0; k < n; ++k) {
      m.triangles.push_back({id(r, k), id(r, k + 1), id(r + 1, k + 1)});
      m.triangles.push_back({id(r, k), id(r + 1, k + 1), id(r + 1, k)});
      m.materials.insert(m.materials.end(), 2, sideMaterial(k));
    }
  const std::size_t last = rings.size() - 1;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    m.triangles.push_back({id(0, 0), id(0, k + 1), id(0, k)});
    m.triangles.push_back({id(last, 0), id(last, k), id(last, k + 1)});
    m.materials.insert(m.materials.end(), 2, capMaterial);
  }
  // The rings' direction decides the winding: make it outward (positive
  // volume by the divergence theorem).
  double volume = 0;
  for (const auto& t : m.triangles) volume += double(m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])));
  if (volume < 0)
    for (auto& t : m.triangles) std::swap(t[1], t[2]);
  return m;
}

/// A ring of `n` points round +y at height y_m, of radius r_m.
std::vector<btVector3> circle(std::size_t n, double r_m, double y_m) {
  std::vector<btVector3> ring;
  for (std::size_t k = 0; k < n; ++k) {
    const double a = 2 * std::numbers::pi * double(k) / double(n);
    ring.emplace_back(btScalar(r_m * std::cos(a)), btScalar(y_m), btScalar(r_m * std::sin(a)));
  }
  return ring;
}

Mesh box(double lengthX_m, double heightY_m, double widthZ_m, const std::string& material) {
  const btScalar hx = btScalar(lengthX_m / 2), hz = btScalar(widthZ_m / 2);
  std::vector<std::vector<btVector3>> rings;
  for (const btScalar y : {btScalar(0), btScalar(heightY_m)})
    rings.push_back({{-hx, y, -hz}, {hx, y, -hz}, {hx, y, hz}, {-hx, y, hz}});
  return loft(
      rings, [&](std::size_t) { return material; }, material);
}

/// A vertical cylinder, its bottom at y = 0, with a white band at the top.
Mesh cylinder(double r_m, double height_m, const std::string& material) {
  constexpr std::size_t kSegments = 12;
  Mesh m = loft(
      {circle(kSegments, r_m, 0), circle(kSegments, r_m, 0.8 * height_m), circle(kSegments, r_m, height_m)},
      [](std::size_t) { return std::string(); }, material);
  for (std::size_t t = 0; t < 4 * kSegments; ++t) m.materials[t] = t < 2 * kSegments ? material : "white";
  return m;
}

/// A sphere of latitude rings, closed by small flat caps near the poles.
Mesh sphere(double r_m, const std::string& material) {
  constexpr std::size_t kSegments = 12;
  std::vector<std::vector<btVector3>> rings;
  for (const double latitude_deg : {-72.0, -36.0, 0.0, 36.0, 72.0}) {
    const double phi = latitude_deg * std::numbers::pi / 180;
    rings.push_back(circle(kSegments, r_m * std::cos(phi), r_m * std::sin(phi)));
  }
  return loft(
      rings, [&](std::size_t) { return material; }, material);
}

/// A small open boat, drawn closed (its top is the "interior" Keel floats
/// as a deck): six pentagonal sections from the transom (-x) to the bow.
Mesh dinghy() {
  constexpr double kLength_m = 2.6, kHalfBeam_m = 0.68;
  std::vector<std::vector<btVector3>> rings;
  for (const double s : {0.0, 0.2, 0.4, 0.6, 0.8, 1.0}) {
    const double x = kLength_m * (s - 0.5);
    const double width = kHalfBeam_m * (s < 0.5 ? 0.78 + 0.22 * s / 0.5 : 1 - 0.55 * std::pow((s - 0.5) / 0.5, 2));
    const double keel = -0.22 + 0.16 * std::pow(std::max(0.0, s - 0.4) / 0.6, 2);  // the forefoot rises
    const double gunwale = 0.3 + 0.08 * s * s;                                     // sheer rising to the bow
    const double chine = keel + 0.45 * (gunwale - keel);
    const auto p = [x](double z, double y) { return btVector3(btScalar(x), btScalar(y), btScalar(z)); };
    rings.push_back(
        {p(-width, gunwale), p(-0.85 * width, chine), p(0, keel), p(0.85 * width, chine), p(width, gunwale)});
  }
  // Segment 4 runs across the top, from one gunwale to the other.
  return loft(
      rings, [](std::size_t k) { return std::string(k == 4 ? "interior" : "hull"); }, "hull");
}

/// The kind built from `mesh` and `mass` (a MassModel of it in its design
/// frame): its frame on the principal axes, its draft, its collision shape.
std::shared_ptr<const DebrisType> build(std::string kind, const Mesh& mesh, keel::MassModel& mass) {
  auto type = std::make_shared<DebrisType>();
  type->kind = std::move(kind);
  const keel::Hull design(mesh.vertices, mesh.triangles);
  const keel::MassProperties props = mass.properties();
  type->mass_kg = props.mass_kg;
  type->relativeDensity = props.mass_kg / (keel::kSeaWaterDensity_kgpm3 * double(design.volume_m3()));
  type->inertia_kgm2 = props.principalInertia_kgm2;
  type->designToBody = props.hullToBody();
  type->draft_m = keel::draftForMass_m(design, props.mass_kg, keel::kSeaWaterDensity_kgpm3);
  type->bottom_m = design.boundsMin().y();
  const btVector3 half = (design.boundsMax() - design.boundsMin()) * 0.5f;
  type->thinnest_m = std::min({half.x(), half.y(), half.z()});
  for (const btVector3& v : mesh.vertices) type->vertices_m.push_back(type->designToBody * v);
  type->triangles = mesh.triangles;
  type->materials = mesh.materials;
  type->hull = std::make_shared<keel::Hull>(type->vertices_m, type->triangles);
  auto shape = std::make_shared<btConvexHullShape>();
  for (const btVector3& v : type->vertices_m) shape->addPoint(v, false);
  shape->recalcLocalAabb();
  shape->setMargin(kMargin_m);
  type->shape = shape;
  return type;
}

/// A uniform solid of `relativeDensity` times the water's.
std::shared_ptr<const DebrisType> solid(std::string kind, const Mesh& mesh, double relativeDensity) {
  const keel::Hull design(mesh.vertices, mesh.triangles);
  keel::MassModel mass;
  mass.solid(design, relativeDensity * keel::kSeaWaterDensity_kgpm3);
  return build(std::move(kind), mesh, mass);
}

std::vector<std::shared_ptr<const DebrisType>> makeTypes() {
  std::vector<std::shared_ptr<const DebrisType>> types;
  // Crates of light wood, relative densities 0.3 to 0.6, and an empty
  // polystyrene fish box at 0.05.
  types.push_back(solid("crate", box(0.8, 0.6, 0.6, "wood"), 0.45));
  types.push_back(solid("fish box", box(0.7, 0.3, 0.45, "foam"), 0.05));
  types.push_back(solid("small crate", box(0.5, 0.5, 0.5, "dark wood"), 0.6));
  types.push_back(solid("big crate", box(1.2, 0.7, 0.8, "wood"), 0.3));
  // A mooring buoy: foam (0.1) with a weight in its base (0.2 more), so it
  // floats upright: its centre of mass 0.2 m above the base, its metacentre
  // 0.28 m (KB + r^2 / 4T at its 0.27 m draft). And a foam fender ball at 0.05.
  {
    const Mesh mesh = cylinder(0.4, 0.9, "buoy");
    const keel::Hull design(mesh.vertices, mesh.triangles);
    const double displaced_kg = keel::kSeaWaterDensity_kgpm3 * double(design.volume_m3());
    keel::MassModel mass;
    mass.solid(design, 0.1 * keel::kSeaWaterDensity_kgpm3).pointMass(0.2 * displaced_kg, btVector3(0, 0.08f, 0));
    types.push_back(build("buoy", mesh, mass));
  }
  types.push_back(solid("fender ball", sphere(0.35, "fender"), 0.05));
  // A glass-fibre dinghy: a 4 mm skin over the closed mesh (a little heavy
  // on top, where the mesh closes the open boat) and floorboards.
  {
    const Mesh mesh = dinghy();
    const keel::Hull design(mesh.vertices, mesh.triangles);
    keel::MassModel mass;
    mass.shell(design, 0.004, 1500).pointMass(10, btVector3(0, -0.15f, 0));
    types.push_back(build("dinghy", mesh, mass));
  }
  return types;
}

}  // namespace

const std::vector<std::shared_ptr<const DebrisType>>& debrisTypes() {
  static const std::vector<std::shared_ptr<const DebrisType>> types = makeTypes();
  return types;
}

}  // namespace demo
