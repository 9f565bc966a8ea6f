#pragma once
// Hulls and worlds the test suites share. Every mesh is closed and wound
// counter-clockwise seen from outside.

#include <keel/keel.hpp>
#include <keel/surface_authoring.hpp>

#include "reference.hpp"

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

namespace keel::test {

/// Raw triangle mesh.
struct Mesh {
  std::vector<btVector3> vertices;
  std::vector<Hull::Triangle> triangles;
};

/// Box of full extents `size` [m] centred at `centre`, each face split into
/// n x n squares (2 n^2 triangles per face; n = 1 gives 12 triangles).
Mesh box(const btVector3& size, int n = 1, const btVector3& centre = btVector3(0, 0, 0));
/// Icosphere of radius R [m]: icosahedron subdivided `levels` times, vertices
/// pushed to the sphere (20 * 4^levels triangles).
Mesh icosphere(btScalar radius_m, int levels, const btVector3& centre = btVector3(0, 0, 0));
/// A boat-like hull: length along x, beam along z, depth along y, a pointed
/// bow, a transom stern, a V bottom (closed; about 600 triangles with the
/// default resolution: `stations` cross-sections of 2 `perSide` - 1 points).
Mesh boatHull(btScalar length_m, btScalar beam_m, btScalar depth_m, int stations = 24, int perSide = 6);
/// The Wigley hull (J. Wigley, "A comparison of experiment and calculated
/// wave-profiles and wave-resistances for a form having parabolic
/// waterlines", Proc. R. Soc. A 144, 1934; the ITTC's standard case of wave
/// resistance): half-breadth `(B/2)(1 - (2x/L)^2)(1 - (d/T)^2)` at depth d
/// below the waterline, wall-sided topsides of the waterline's shape up to
/// a deck `freeboard_m` above it; x forward, y up (the waterline at y = 0),
/// z across. The ends have zero width: their points weld (Hull).
Mesh wigley(btScalar length_m, btScalar beam_m, btScalar draft_m, btScalar freeboard_m, int stations = 40,
            int waterlines = 8);
/// Two meshes as one (the parts of both).
Mesh joined(const Mesh& a, const Mesh& b);
/// The mesh as a Bullet btTriangleMesh (indexed, 32-bit).
std::unique_ptr<btTriangleMesh> toBullet(const Mesh& mesh);
/// A keel::Hull of the mesh.
std::shared_ptr<const Hull> hullOf(const Mesh& mesh);

/// A Bullet world with no other bodies; gravity (0, -9.81, 0) unless given.
struct World {
  explicit World(const btVector3& gravity = btVector3(0, btScalar(-9.81), 0));
  ~World();
  /// Adds a dynamic box body of mass m [kg], full extents `size`, at `origin`.
  btRigidBody* addBox(const btVector3& size, btScalar mass_kg, const btTransform& origin);
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
};

}  // namespace keel::test

namespace keel::test {

/// Runs the reference pipeline (reference.hpp: rotate, sample directly, heights, cut, integrate)
/// for a hull whose centre of mass is at `com`, on `surface` at time t, with
/// y up and |g| = 9.81. `cut` receives the pieces when given.
HydrostaticResult hydrostaticsAt(const Hull& hull, const btTransform& com, const WaterSurface& surface,
                                 btScalar density_kgpm3 = 1025, double t_s = 0, reference::CutBuffers* cut = nullptr);

/// Still water at height h0 [m].
class LevelWater final : public WaterSurface {
 public:
  explicit LevelWater(btScalar h0_m = 0) : h0_(h0_m) {}
  btScalar height(btScalar, btScalar, double) const override { return h0_; }

 private:
  btScalar h0_;
};

inline constexpr btScalar kG = btScalar(9.81);  ///< the tests' gravity [m/s^2]

/// A JONSWAP sea of significant height `hs_m` [m] and peak period `tp_s` [s]
/// as `components` Gerstner waves drawn with `seed`, at steepness
/// min(`maxSteepness`, 0.9 of the folding limit), under the tests' gravity.
std::shared_ptr<const GerstnerSurface> gerstnerSea(double hs_m, double tp_s, std::size_t components, std::uint32_t seed,
                                                   double maxSteepness);

}  // namespace keel::test

namespace keel::test {

/// Prints a measured figure beside its analytic value, so a passing test
/// also shows how close it came: "[  figure  ] name: measured ..., expected
/// ..., relative error ...".
void reportFigure(const char* name, double measured, double expected);
/// Prints a measured figure that has no reference ("[  figure  ] name: value").
void reportValue(const char* name, double measured);

/// The heave period [s] of a height signal sampled every `dt_s`: the mean
/// interval between its upward crossings of `level_m`, each crossing time
/// interpolated linearly between samples (from a release at a turning
/// point, the first crossing already lies on the free oscillation).
struct CrossingPeriod {
  double level_m, dt_s;
  double previous = 0, first = -1, last = -1;
  int count = 0, samples = 0;
  void add(double height_m) {
    const double y = height_m - level_m;
    if (samples > 0 && previous < 0 && y >= 0) {
      last = (samples - 1 + previous / (previous - y)) * dt_s;
      if (count++ == 0) first = last;
    }
    previous = y;
    ++samples;
  }
  [[nodiscard]] double period_s() const { return count >= 2 ? (last - first) / (count - 1) : 0; }
};

/// Puts `boat` on `model`, the rest of its level of detail kept.
inline void setModel(WaterAction& boat, BuoyancyModel model) {
  LevelOfDetail lod = boat.levelOfDetail();
  lod.model = model;
  boat.setLevelOfDetail(lod);
}

/// The node coordinates of `grid` [m], row-major (u fastest), as a boat's
/// patch has them (WaterGrid::u_m, v_m).
void nodesOf(const WaterGrid& grid, std::vector<btScalar>& u, std::vector<btScalar>& v);

/// The water's axes in the frame of a body turned by `rotation`, as the
/// substep hands them to the kernels: east, north and up are the rows 0,
/// 2 and 1 of its basis (the water frame's x, z, y).
struct BodyWaterAxes {
  btScalar east[3], north[3], up[3];
};
BodyWaterAxes bodyWaterAxes(const btQuaternion& rotation);

}  // namespace keel::test
