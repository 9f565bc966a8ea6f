#pragma once
/// @file debris.hpp
/// Light debris floating in the harbour: crates, a fish box, buoys, a fender
/// ball and a dinghy, each a small closed mesh floated by its own
/// keel::WaterAction with the hull's added mass on (docs/demo.md, "Debris").
/// No rendering here (debris_view.hpp draws them).

#include <keel/hull.hpp>
#include <keel/water_action.hpp>

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btDefaultMotionState.h>
#include <LinearMath/btTransform.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class btDynamicsWorld;

namespace demo {

struct Basin;

/// One kind of debris: its mesh, what it weighs, how it collides. Built once
/// and shared by every piece of that kind.
struct DebrisType {
  std::string kind;            ///< "crate", "fish box", "buoy", ...
  double relativeDensity = 0;  ///< its mass over the water its closed mesh displaces wholly under
  /// The mesh in the body frame (centre of mass, principal axes) [m]:
  /// Keel floats it, Bullet's convex hull of it collides, debris_view draws it.
  std::vector<btVector3> vertices_m;
  std::vector<keel::Hull::Triangle> triangles;  ///< counter-clockwise seen from outside
  std::vector<std::string> materials;           ///< one per triangle: "wood", "foam", "buoy", ...
  std::shared_ptr<const keel::Hull> hull;
  std::shared_ptr<btCollisionShape> shape;
  double mass_kg = 0;
  btVector3 inertia_kgm2{0, 0, 0};  ///< principal moments [kg m^2]
  /// The frame the mesh was built in (y up, debris_types.cpp) placed in the body's.
  btTransform designToBody = btTransform::getIdentity();
  double draft_m = 0;     ///< floating level, upright: depth of the lowest point under still water [m]
  double bottom_m = 0;    ///< the lowest point's height in the design frame [m]
  double thinnest_m = 0;  ///< the smallest half extent [m], for continuous collision
};

/// Every kind: crate, fish box, small crate, big crate, buoy, fender ball,
/// dinghy (debris_types.cpp), built on first use.
const std::vector<std::shared_ptr<const DebrisType>>& debrisTypes();

/// A piece of debris in the world.
struct Debris {
  int id = 0;
  std::shared_ptr<const DebrisType> type;
  std::unique_ptr<btDefaultMotionState> motion;
  std::unique_ptr<btRigidBody> body;
  std::unique_ptr<keel::WaterAction> action;
  // Over every substep since it was placed: how it moved (a diverging body
  // shows here long before it leaves the harbour).
  double maxSpeed_mps = 0;
  double maxSpin_radps = 0;
  bool finite = true;  ///< its pose and velocities were finite after every substep
};

/// The harbour's debris: adds pieces to a Bullet world, tracks them each
/// substep, removes them.
class DebrisField {
 public:
  /// A body faster than this [m/s], or spinning faster [rad/s], has
  /// diverged: nothing in the harbour moves debris like that.
  static constexpr double kMaxSpeed_mps = 20, kMaxSpin_radps = 50;

  explicit DebrisField(btDynamicsWorld& world) : world_(world) {}
  ~DebrisField() { clear(); }
  DebrisField(const DebrisField&) = delete;
  DebrisField& operator=(const DebrisField&) = delete;

  /// Adds one piece at (x, z) [m], turned `yaw_rad` about +y, floating level
  /// at its draft on the water there.
  Debris& add(std::shared_ptr<const DebrisType> type, double x_m, double z_m, double yaw_rad,
              std::shared_ptr<const keel::WaterSurface> sea, double time_s, double substep_s);
  /// Lays out `count` pieces for `scenario`: a few fixed spots where the
  /// boats pass (round the first boat and in front of the camera; in the
  /// collide scenario, in the driven boats' paths), then random ones in
  /// `basin` where `free(x_m, z_m, radius_m)` says nothing is (boats, docks).
  void scatter(int count, const std::string& scenario, const std::function<bool(double, double, double)>& free,
               std::uint32_t seed, const Basin& basin, const std::shared_ptr<const keel::WaterSurface>& sea,
               double time_s, double substep_s);
  /// Removes every piece from the world.
  void clear();
  /// After each substep: the fastest motion of each piece, and whether it stayed finite.
  void track();

  [[nodiscard]] const std::vector<std::unique_ptr<Debris>>& pieces() const { return pieces_; }

 private:
  btDynamicsWorld& world_;
  std::vector<std::unique_ptr<Debris>> pieces_;
  int nextId_ = 0;
};

/// Prints a line about the debris (counts, the fastest motion, how many
/// afloat) and one per piece in trouble; returns false when one went
/// non-finite, diverged, sank (its top more than 0.5 m under the surface)
/// or left `basin`.
bool reportDebris(const DebrisField& field, const keel::WaterSurface& sea, double time_s, const Basin& basin);

}  // namespace demo
